/**
 * The session's one line about notes the worker's pull removed while their group listed nothing at
 * all, their text kept aside (state/set-aside.ts SET_ASIDE_WHEN_GROUP_EMPTY): said once, first, as
 * the other notes of ours are (once-note.ts). The worker records the text (in state/set-aside.ts'
 * wording) after its pull; a later pull that sets more aside records it again, untold.
 * On the hook's path: node:fs, node:path and util/fs-atomic.ts only (once-note.ts).
 */
import { takeOnceNote, writeOnceNote } from './once-note.js';

const FILE = 'set-aside-note.json';

export function recordSetAsideNote(stateDir: string, text: string): void {
  writeOnceNote(stateDir, FILE, text);
}

export function takeSetAsideNote(stateDir: string): string | undefined {
  return takeOnceNote(stateDir, FILE);
}
