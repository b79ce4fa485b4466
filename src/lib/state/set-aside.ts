/**
 * SET_ASIDE_WHEN_GROUP_EMPTY: a note pull removes while its group lists nothing at all keeps its text
 * here, in the state folder, for SET_ASIDE_DAYS, and is said (pull's report and log, `status`, and
 * once in the next session).
 *
 * Why: pull reads a note's absence from the graph as a deletion on a linked machine and removes the
 * untouched file. A group whose notes are all gone at once was emptied (pull.ts EMPTIED_GROUP: two or
 * more of them, kept); but the only note of a group, lost to a wipe (a server started again without
 * its data), cannot be told from its deletion on another machine: the last note of a group deleted
 * there must keep reaching here. So it is removed, on every linked machine, the one that wrote it too
 * (its own note, remembered by `remember-own`), and its text was then nowhere, with no word said.
 * Removed from the memory folder it still is (sessions stop loading it, as a deletion wants), but its
 * text is copied first, and the person is told where and both steps: moved back and `sync --force` if the
 * graph was wiped, nothing to do if it was deleted on purpose. A real deletion's text is not kept
 * for ever: the copy goes after SET_ASIDE_DAYS, at a pull.
 *
 * The pull sets aside (pull/pull.ts); `status` says it, and so does the next session when the
 * worker's or watch's pull did it (context/set-aside-note.ts, recorded by context/set-aside-record.ts in `setAsideSaid`'s words).
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, unlinkSync } from 'node:fs';
import { basename, join } from 'node:path';
import { writeFileAtomicSync } from '../util/fs-atomic.js';

/** How long a set-aside text is kept (a wipe is usually noticed at the next session; a month is ample). */
export const SET_ASIDE_DAYS = 30;
const DIR = 'set-aside';
const INDEX = 'index.json';

export interface SetAsideNote {
  /** The memory file pull removed. */
  file: string;
  /** Where its text is kept. */
  kept: string;
  /** The group that listed nothing at all. */
  group: string;
  /** The machine whose version it was (its origin). */
  origin: string;
  /** When (ISO). */
  at: string;
}

function indexPath(stateDir: string): string {
  return join(stateDir, DIR, INDEX);
}

/**
 * INDEX_READ_OR_NOTHING: the index as it stands: absent (nothing was ever set aside, or a first
 * `setAside` was killed before writing it), its entries (those of another shape too: a newer build's),
 * or unreadable (torn, not a list, an error reading it). Unreadable, it cannot tell which copies it
 * lists: the prune removes none and no entry is added over it (a copy is the only text left of a note).
 */
type Index = { kind: 'absent' } | { kind: 'unreadable' } | { kind: 'read'; entries: unknown[] };

function readIndex(stateDir: string): Index {
  let text: string;
  try {
    text = readFileSync(indexPath(stateDir), 'utf8');
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? { kind: 'absent' } : { kind: 'unreadable' };
  }
  try {
    const value = JSON.parse(text) as unknown;
    return Array.isArray(value) ? { kind: 'read', entries: value } : { kind: 'unreadable' };
  } catch {
    return { kind: 'unreadable' };
  }
}

const isNote = (n: unknown): n is SetAsideNote => typeof n === 'object' && n !== null && ['file', 'kept', 'group', 'origin', 'at'].every((k) => typeof (n as Record<string, unknown>)[k] === 'string');

/**
 * KEPT_BESIDE_THE_INDEX: every copy is written in the index's own folder, so an entry's copy is read
 * there, whatever folder its path names: the state folder moved (MADEINOZ_KNOWLEDGE_STATE_DIR set to
 * where it went, a home restored at another path) leaves paths to where it was. Taken at its word,
 * the prune forgot the entry (its copy "moved back or deleted"), and the next one removed the copy as
 * unlisted: the only text left of the note.
 */
function notesIn(stateDir: string, entries: readonly unknown[]): SetAsideNote[] {
  return entries.filter(isNote).map((n) => {
    const kept = join(stateDir, DIR, basename(n.kept));
    return kept === n.kept ? n : { ...n, kept };
  });
}

export function readSetAside(stateDir: string): SetAsideNote[] {
  const index = readIndex(stateDir);
  return index.kind === 'read' ? notesIn(stateDir, index.entries) : [];
}

/** Writes the index as `update` makes this build's entries, keeping those of another shape (not this build's to forget). Throws when it cannot be read. */
function updateSetAsideIndex(stateDir: string, update: (notes: SetAsideNote[]) => SetAsideNote[]): void {
  const index = readIndex(stateDir);
  if (index.kind === 'unreadable') throw new Error(`the set-aside index ${indexPath(stateDir)} cannot be read: nothing is set aside or forgotten until it can (move it away to start a new one; the copies beside it are the texts)`);
  const entries = index.kind === 'read' ? index.entries : [];
  writeSetAsideIndex(stateDir, [...entries.filter((n) => !isNote(n)), ...update(notesIn(stateDir, entries))]);
}

function writeSetAsideIndex(stateDir: string, entries: readonly unknown[]): void {
  mkdirSync(join(stateDir, DIR), { recursive: true, mode: 0o700 });
  writeFileAtomicSync(indexPath(stateDir), `${JSON.stringify(entries)}\n`);
}

/** Copies `file`'s text aside before pull removes it (SET_ASIDE_WHEN_GROUP_EMPTY); the copy's path. Throws when it cannot be kept: then the file is not removed. */
export function setAside(stateDir: string, note: Omit<SetAsideNote, 'kept'>): SetAsideNote {
  const dir = join(stateDir, DIR);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stamp = note.at.replace(/[:.]/g, '-');
  let kept = join(dir, `${stamp}-${basename(note.file)}`);
  for (let n = 2; existsSync(kept); n++) kept = join(dir, `${stamp}-${n}-${basename(note.file)}`);
  copyFileSync(note.file, kept);
  const entry: SetAsideNote = { ...note, kept };
  try {
    updateSetAsideIndex(stateDir, (notes) => [...notes, entry]);
  } catch (error) {
    // NO_COPY_WITHOUT_INDEX: only the index makes a copy pruned, said in `status` and told: a copy
    // it does not list would be kept for ever without a word (and the next pull, finding the file
    // still there, copies it again). The file is not removed (the caller's rule), so nothing is lost.
    try {
      unlinkSync(kept);
    } catch {
      // gone already
    }
    throw error;
  }
  return entry;
}

/** A text set aside for a file pull could not remove after all (it stays, judged again at the next pull): forgotten, so it is not kept twice. */
export function dropSetAside(stateDir: string, kept: string): void {
  try {
    unlinkSync(kept);
  } catch {
    // gone already
  }
  try {
    updateSetAsideIndex(stateDir, (notes) => notes.filter((n) => n.kept !== kept));
  } catch {
    // An unreadable index: its entry, if any, names a copy gone, which the next readable prune forgets.
  }
}

/**
 * At a pull: texts kept SET_ASIDE_DAYS go (a deletion on purpose is not kept for ever), and entries
 * whose copy the person moved back or deleted are forgotten.
 *
 * UNLISTED_COPY_GONE: a file in the folder the index does not list was left by a `setAside` killed
 * between its copy and its index write (or an index write killed half-way). Pull removes a note's
 * file only after `setAside` returned, so that file was not removed: its text is still in the memory
 * folder (or set aside again, listed, by a later pull). Kept, it would stay for ever, never said nor
 * pruned; it goes at the next prune (pulls run under the state lock, so no `setAside` is under way).
 * Only by an index read whole (INDEX_READ_OR_NOTHING): one that cannot be read lists nothing anyone
 * can tell, and is no proof a copy is unlisted.
 */
export function pruneSetAside(stateDir: string, now: number): void {
  const index = readIndex(stateDir);
  if (index.kind === 'unreadable') return; // INDEX_READ_OR_NOTHING
  const entries = index.kind === 'read' ? index.entries : [];
  removeUnlisted(stateDir, entries);
  const notes = notesIn(stateDir, entries);
  if (notes.length === 0) return;
  const keep = notes.filter((n) => {
    if (!existsSync(n.kept)) return false;
    if (now - Date.parse(n.at) < SET_ASIDE_DAYS * 86_400_000) return true;
    try {
      unlinkSync(n.kept);
    } catch {
      return true; // tried again at the next pull
    }
    return false;
  });
  // Written again too when an entry's copy is read at another path (KEPT_BESIDE_THE_INDEX): the index then names where it is.
  const repathed = entries.filter(isNote).some((n, i) => n.kept !== notes[i]?.kept);
  if (keep.length !== notes.length || repathed) writeSetAsideIndex(stateDir, [...entries.filter((n) => !isNote(n)), ...keep]);
}

/** The copies no entry lists go; an entry naming no copy this build can read (another shape without `kept`) leaves every one. */
function removeUnlisted(stateDir: string, entries: readonly unknown[]): void {
  const kept = entries.map((n) => (typeof n === 'object' && n !== null ? (n as { kept?: unknown }).kept : undefined));
  if (kept.some((k) => typeof k !== 'string')) return;
  const dir = join(stateDir, DIR);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return; // no folder: nothing was ever set aside
  }
  const listed = new Set((kept as string[]).map((k) => basename(k)));
  for (const name of names) {
    if (name === INDEX || listed.has(name)) continue;
    try {
      unlinkSync(join(dir, name));
    } catch {
      // a folder or gone already: left as it is
    }
  }
}

/** What one set-aside note means and both steps: the one wording for pull's report, `status` and the session's note (`setAsideSaid`). */
export function setAsideText(n: Pick<SetAsideNote, 'file' | 'kept' | 'group' | 'origin' | 'at'>): string {
  return `${n.file} was removed by pull on ${n.at.slice(0, 10)}: its group ${n.group} lists nothing at all any more, which is a deletion on another machine or a graph wiped (a server started again without its data) — one note alone cannot tell them apart. Its text is kept at ${n.kept} until ${new Date(Date.parse(n.at) + SET_ASIDE_DAYS * 86_400_000).toISOString().slice(0, 10)}. If the graph was wiped, move it back to ${n.file} and run \`sync --force\` (it sends again what the graph lost); if it was deleted on purpose, nothing to do (delete the kept text to stop this warning)`;
}

/** The session's note for what one pull set aside (the first in full; the others counted). */
export function setAsideSaid(notes: ReadonlyArray<Pick<SetAsideNote, 'file' | 'kept' | 'group' | 'origin' | 'at'>>): string | undefined {
  const first = notes[0];
  if (first === undefined) return undefined;
  return notes.length === 1 ? `${setAsideText(first)}.` : `${setAsideText(first)}. ${notes.length - 1} more such note(s) were set aside the same way (\`status\` lists them).`;
}
