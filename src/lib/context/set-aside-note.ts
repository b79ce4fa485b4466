/**
 * The session's one line about notes the worker's pull removed while their group listed nothing at
 * all, their text kept aside (state/set-aside.ts SET_ASIDE_WHEN_GROUP_EMPTY): said once, first, as
 * the other notes of ours are (once-note.ts). The worker records it (set-aside-record.ts: what its
 * pull set aside, added to a line no session has taken yet, UNTOLD_NOTES_ADD_UP).
 * On the hook's path: node:fs, node:path and util/fs-atomic.ts only (once-note.ts).
 */
import { takeOnceNote } from './once-note.js';

/** The line's file in the state folder. */
export const SET_ASIDE_NOTE_FILE = 'set-aside-note.json';

export function takeSetAsideNote(stateDir: string): string | undefined {
  return takeOnceNote(stateDir, SET_ASIDE_NOTE_FILE);
}
