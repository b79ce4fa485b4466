/**
 * The copy question (sync/copy-hold.ts: this machine's origin or state came from another machine,
 * and deletions are held until the user says what it is), told to the session once.
 *
 * The worker records the question after its sync (its text is origin-choice.ts `originQuestion`,
 * with the commands to run) and removes it once nothing is open; the SessionStart hook adds it,
 * as a note before the knowledge, to the first session after it appeared, and marks it told, the
 * way context/graph-problem.ts tells a graph that is down. A question that stays open is not
 * repeated at every start: `status` and `origin` keep showing it.
 * On the hook's path: node:fs, node:path and util/fs-atomic.ts only.
 */
import { readFileSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomicSync } from '../util/fs-atomic.js';
import { ourNote } from './our-note.js';

const FILE = 'origin-question.json';

interface OriginNote {
  text: string;
  told: boolean;
}

function read(stateDir: string): OriginNote | undefined {
  try {
    const value = JSON.parse(readFileSync(join(stateDir, FILE), 'utf8')) as Partial<OriginNote>;
    if (typeof value.text === 'string' && value.text !== '') return { text: value.text, told: value.told === true };
  } catch {
    // none, or unreadable: nothing to tell
  }
  return undefined;
}

/** The worker's record: the open question (kept as first recorded, told or not), or none (`undefined`: removed). */
export function recordOriginQuestion(stateDir: string, question: string | undefined): void {
  if (question === undefined) {
    try {
      unlinkSync(join(stateDir, FILE));
    } catch {
      // already clear
    }
    return;
  }
  if (read(stateDir) !== undefined) return;
  writeFileAtomicSync(join(stateDir, FILE), `${JSON.stringify({ text: question, told: false })}\n`);
}

/** The note for the first session after the question appeared, marking it told; undefined otherwise. */
export function takeOriginNote(stateDir: string): string | undefined {
  const note = read(stateDir);
  if (note === undefined || note.told) return undefined;
  try {
    writeFileAtomicSync(join(stateDir, FILE), `${JSON.stringify({ ...note, told: true })}\n`);
  } catch {
    return undefined; // told only if we can remember it was
  }
  return ourNote(note.text);
}
