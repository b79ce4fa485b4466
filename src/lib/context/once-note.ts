/**
 * A note of ours for the next session, told once (OUR_NOTE label): the one way the worker leaves
 * such a line in a file of its own and the SessionStart hook takes it, marking it told. Used by the
 * copy question (origin-note.ts) and by notes pull set aside (set-aside-note.ts).
 * On the hook's path: node:fs, node:path and util/fs-atomic.ts only.
 */
import { readFileSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomicSync } from '../util/fs-atomic.js';
import { ourNote } from './our-note.js';

interface OnceNote {
  text: string;
  told: boolean;
  /** What the note is about (a recorder that adds to an untold note reads it back: set-aside-note.ts UNTOLD_NOTES_ADD_UP). */
  items?: string[];
}

export function readOnceNote(stateDir: string, file: string): OnceNote | undefined {
  try {
    const value = JSON.parse(readFileSync(join(stateDir, file), 'utf8')) as Partial<OnceNote>;
    if (typeof value.text === 'string' && value.text !== '') {
      const items = Array.isArray(value.items) ? value.items.filter((i): i is string => typeof i === 'string') : undefined;
      return { text: value.text, told: value.told === true, ...(items === undefined ? {} : { items }) };
    }
  } catch {
    // none, or unreadable: nothing to tell
  }
  return undefined;
}

/** Records `text` (about `items`, when given), not told yet; `undefined` removes the note. */
export function writeOnceNote(stateDir: string, file: string, text: string | undefined, items?: readonly string[]): void {
  if (text === undefined) {
    try {
      unlinkSync(join(stateDir, file));
    } catch {
      // already clear
    }
    return;
  }
  writeFileAtomicSync(join(stateDir, file), `${JSON.stringify({ text, told: false, ...(items === undefined ? {} : { items }) })}\n`);
}

/** The note for the first session after it was recorded, marking it told; undefined otherwise. */
export function takeOnceNote(stateDir: string, file: string): string | undefined {
  const note = readOnceNote(stateDir, file);
  if (note === undefined || note.told) return undefined;
  try {
    writeFileAtomicSync(join(stateDir, file), `${JSON.stringify({ ...note, told: true })}\n`);
  } catch {
    return undefined; // told only if we can remember it was
  }
  return ourNote(note.text);
}
