/**
 * The copy question (sync/copy-hold.ts: this machine's origin or state came from another machine,
 * and deletions are held until the user says what it is), told to the session once.
 *
 * The worker records the question after its sync (its text is origin-choice.ts `originQuestion`,
 * with the commands to run) and removes it once nothing is open; the SessionStart hook adds it,
 * as a note before the knowledge, to the first session after it appeared, and marks it told, the
 * way context/graph-problem.ts tells a graph that is down. A question that stays open is not
 * repeated at every start: `status` and `origin` keep showing it.
 * On the hook's path: node:fs, node:path and util/fs-atomic.ts only (once-note.ts).
 */
import { readOnceNote, takeOnceNote, writeOnceNote } from './once-note.js';

const FILE = 'origin-question.json';

/** The worker's record: the open question (kept as first recorded, told or not), or none (`undefined`: removed). */
export function recordOriginQuestion(stateDir: string, question: string | undefined): void {
  if (question !== undefined && readOnceNote(stateDir, FILE) !== undefined) return;
  writeOnceNote(stateDir, FILE, question);
}

/** The note for the first session after the question appeared, marking it told; undefined otherwise. */
export function takeOriginNote(stateDir: string): string | undefined {
  return takeOnceNote(stateDir, FILE);
}
