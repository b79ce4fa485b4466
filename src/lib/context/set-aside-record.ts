/**
 * The worker's side of the session line about notes pull set aside (set-aside-note.ts takes it, on
 * the hook's path; this side reads state/set-aside.ts, which the hook does not load).
 *
 * UNTOLD_NOTES_ADD_UP: a pull that sets more aside before a session has taken the line adds to it,
 * not replaces it: pulls run at most once a minute but sessions may start hours apart, and the
 * first pull's notes, replaced, were told to no session at all (removed from the memory folder,
 * their text kept where nobody was told to look). The line names the first and counts the others
 * (`status` lists each, state/set-aside.ts `setAsideSaid`); a note whose copy is gone meanwhile
 * (moved back, pruned at the pull's start) drops out. Once told, the next pull's line is its own.
 *
 * SET_ASIDE_TOLD_FROM_EVERY_PULL: the pulls no person watches record it, the hook's worker's and
 * watch's alike (watch/pass-process-entry.ts): with watch running, its pull (every few minutes)
 * keeps the worker's from being due, and a note it set aside left the memory folder with no
 * session told. `pull` run by hand says it in its own report.
 */
import { readSetAside, setAsideSaid, type SetAsideNote } from '../state/set-aside.js';
import { readOnceNote, writeOnceNote } from './once-note.js';
import { SET_ASIDE_NOTE_FILE } from './set-aside-note.js';

/** Records what a pull set aside for the next session, with what earlier pulls set aside that no session was told yet. */
export function recordSetAsideNote(stateDir: string, notes: readonly SetAsideNote[]): void {
  if (notes.length === 0) return;
  const previous = readOnceNote(stateDir, SET_ASIDE_NOTE_FILE);
  const untold = previous === undefined || previous.told ? [] : (previous.items ?? []);
  const fresh = new Set(notes.map((n) => n.kept));
  const earlier = untold.length === 0 ? [] : readSetAside(stateDir).filter((n) => untold.includes(n.kept) && !fresh.has(n.kept));
  const all = [...earlier, ...notes];
  const text = setAsideSaid(all);
  if (text !== undefined) writeOnceNote(stateDir, SET_ASIDE_NOTE_FILE, text, all.map((n) => n.kept));
}
