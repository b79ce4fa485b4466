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
 *
 * OLDER_LINE_READ_BACK: a line an older build wrote (before UNTOLD_NOTES_ADD_UP) lists no notes, so
 * the first pull of this build took it for empty and replaced it: the older pull's notes were told
 * to no session. That line is one pull's (`setAsideSaid`: the first note named by where its text is
 * kept, the others counted), and one pull stamps every note it sets aside with its own start: its
 * notes are the index entries with the named one's time.
 */
import { readSetAside, setAsideSaid, type SetAsideNote } from '../state/set-aside.js';
import { readOnceNote, writeOnceNote } from './once-note.js';
import { SET_ASIDE_NOTE_FILE } from './set-aside-note.js';

/** Records what a pull set aside for the next session, with what earlier pulls set aside that no session was told yet. */
export function recordSetAsideNote(stateDir: string, notes: readonly SetAsideNote[]): void {
  if (notes.length === 0) return;
  const previous = readOnceNote(stateDir, SET_ASIDE_NOTE_FILE);
  const untold = previous === undefined || previous.told ? [] : (previous.items ?? notesOfOlderLine(stateDir, previous.text));
  const fresh = new Set(notes.map((n) => n.kept));
  const earlier = untold.length === 0 ? [] : readSetAside(stateDir).filter((n) => untold.includes(n.kept) && !fresh.has(n.kept));
  const all = [...earlier, ...notes];
  const text = setAsideSaid(all);
  if (text !== undefined) writeOnceNote(stateDir, SET_ASIDE_NOTE_FILE, text, all.map((n) => n.kept));
}

/** OLDER_LINE_READ_BACK: the notes a line without a list (an older build's) was about: the pull of the note it names. */
function notesOfOlderLine(stateDir: string, text: string): string[] {
  const index = readSetAside(stateDir);
  const named = index.find((n) => text.includes(`kept at ${n.kept} `));
  if (named === undefined) return [];
  return [named, ...index.filter((n) => n !== named && n.at === named.at)].map((n) => n.kept);
}
