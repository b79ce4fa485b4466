/**
 * The session's one line about notes the worker's pull removed while their group listed nothing at
 * all, their text kept aside (state/set-aside.ts SET_ASIDE_WHEN_GROUP_EMPTY): said once, first, as
 * the other notes of ours are (once-note.ts). The worker records what its pull set aside (told in
 * state/set-aside.ts' wording, `setAsideSaid`).
 *
 * UNTOLD_NOTES_ADD_UP: a pull that sets more aside before a session has taken the line adds to it,
 * not replaces it: pulls run at most once a minute but sessions may start hours apart, and the
 * first pull's notes, replaced, were told to no session at all (removed from the memory folder,
 * their text kept where nobody was told to look). The line names the first and counts the others
 * (`status` lists each); a note whose copy is gone meanwhile (moved back, pruned) drops out. Told,
 * the line is replaced by the next pull's, as before.
 * On the hook's path: node:fs, node:path and util/fs-atomic.ts only (once-note.ts, state/set-aside.ts).
 */
import { readSetAside, setAsideSaid, type SetAsideNote } from '../state/set-aside.js';
import { readOnceNote, takeOnceNote, writeOnceNote } from './once-note.js';

const FILE = 'set-aside-note.json';

/** Records what a pull set aside for the next session, with what earlier pulls set aside that no session was told yet. */
export function recordSetAsideNote(stateDir: string, notes: readonly SetAsideNote[]): void {
  const previous = readOnceNote(stateDir, FILE);
  const untold = previous === undefined || previous.told ? [] : (previous.items ?? []);
  const fresh = new Set(notes.map((n) => n.kept));
  const earlier = untold.length === 0 ? [] : readSetAside(stateDir).filter((n) => untold.includes(n.kept) && !fresh.has(n.kept));
  const all = [...earlier, ...notes];
  const text = setAsideSaid(all);
  if (text !== undefined) writeOnceNote(stateDir, FILE, text, all.map((n) => n.kept));
}

export function takeSetAsideNote(stateDir: string): string | undefined {
  return takeOnceNote(stateDir, FILE);
}
