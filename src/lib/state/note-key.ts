/**
 * The person's note key (issue 42): 32 random bytes shared by their machines, kept in the state
 * folder as `note-key` (0600, in the 0700 folder), never sent anywhere. It signs the notes this
 * machine sends (memory/note-tag.ts) and decides which episodes `pull` writes into memory.
 *
 * - Created by `link` (or `pull --init`); a new machine is linked by importing the text
 *   `link --export` prints on a linked one (`gms-key-1:<base64url>`).
 * - Read without following a symlink (O_NOFOLLOW), only as a regular file of ours that nobody else
 *   may read: a key others can read or swap is refused with the fix, never used.
 * - What it protects and what it does not: docs/pull.md.
 */
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { writeFileAtomic } from '../util/fs-atomic.js';
import { cli } from '../util/install-route.js';

export const NOTE_KEY_FILE = 'note-key';
const PREFIX = 'gms-key-1:';
const KEY_BYTES = 32;

export class NoteKeyError extends Error {
  override name = 'NoteKeyError';
}

export function noteKeyPath(stateDir: string): string {
  return join(stateDir, NOTE_KEY_FILE);
}

/** The text form of a key, as `link --export` prints it and `link --import` reads it. */
export function formatNoteKey(key: Uint8Array): string {
  return `${PREFIX}${Buffer.from(key).toString('base64url')}`;
}

/** A key from its text form (surrounding white space ignored); throws NoteKeyError naming the expected form. */
export function parseNoteKey(text: string): Uint8Array {
  const t = text.trim();
  const b64 = t.startsWith(PREFIX) ? t.slice(PREFIX.length) : undefined;
  const key = b64 !== undefined && /^[A-Za-z0-9_-]{43}$/.test(b64) ? Buffer.from(b64, 'base64url') : undefined;
  if (key === undefined || key.length !== KEY_BYTES) throw new NoteKeyError(`not a note key: expected the line "${PREFIX}…" that \`${cli()} link --export\` prints on a linked machine`);
  return new Uint8Array(key);
}

/**
 * The step for a key file we must not use: `--replace`, because a plain `link --import` reads the
 * file in place first and stops at the same error (importNoteKey).
 */
/** The step that puts the key back, as the running copy runs it. */
const reimport = (put = 'Put'): string => `${put} your key back with \`${cli()} link --import --replace\` (paste the line \`link --export\` prints on a linked machine)`;

/** This machine's key, or undefined when it has none (not linked). Throws NoteKeyError for a key file we must not trust. */
export function readNoteKey(stateDir: string): Uint8Array | undefined {
  const file = noteKeyPath(stateDir);
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ELOOP') throw new NoteKeyError(`${file} is a symbolic link; the key is never read through one. ${reimport()}`);
    throw new NoteKeyError(`${file} cannot be read: ${(error as Error).message}; make it readable to you (\`chmod 600 ${file}\`), or ${reimport('put')}`);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new NoteKeyError(`${file} is not a regular file: remove it, then run \`${cli()} link --import\``);
    if (typeof process.getuid === 'function' && st.uid !== process.getuid()) throw new NoteKeyError(`${file} belongs to another user; the key is never read from another user's file. ${reimport()}`);
    if ((st.mode & 0o077) !== 0) throw new NoteKeyError(`${file} may be read by others (mode ${(st.mode & 0o777).toString(8)}): run \`chmod 600 ${file}\`, and consider the key known to them (make a new one with \`link --new\` on every machine)`);
    const buf = Buffer.alloc(256);
    const n = readSync(fd, buf, 0, buf.length, 0);
    try {
      return parseNoteKey(buf.subarray(0, n).toString('utf8'));
    } catch {
      throw new NoteKeyError(`${file} does not hold a note key. ${reimport()}`);
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * When the key file was last written (ms; undefined without one): `link`, `link --import`,
 * `link --new` or `pull --init` put the current key in place then. A note whose parts were sent
 * before it was sent without this key's tag (sync/note-signing.ts re-sends it once, signed).
 */
export function noteKeyWrittenAt(stateDir: string): number | undefined {
  try {
    return lstatSync(noteKeyPath(stateDir)).mtimeMs;
  } catch {
    return undefined;
  }
}

/** Creates a key when there is none (exclusively: two processes agree on one); returns the key in place. */
export function ensureNoteKey(stateDir: string): { key: Uint8Array; created: boolean } {
  const existing = readNoteKey(stateDir);
  if (existing !== undefined) return { key: existing, created: false };
  mkdirSync(stateDir, { recursive: true, mode: 0o700 });
  const key = new Uint8Array(randomBytes(KEY_BYTES));
  let fd: number;
  try {
    // O_EXCL: never through a symlink, never over a file another process created meanwhile.
    fd = openSync(noteKeyPath(stateDir), constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      const other = readNoteKey(stateDir);
      if (other !== undefined) return { key: other, created: false };
    }
    throw error;
  }
  try {
    writeSync(fd, `${formatNoteKey(key)}\n`);
  } finally {
    closeSync(fd);
  }
  return { key, created: true };
}

/**
 * Puts a key from another machine in place. A different key already here is replaced only with
 * `replace` (what this machine signed with it would no longer be pulled by the others).
 */
export async function importNoteKey(stateDir: string, text: string, options: { replace?: boolean } = {}): Promise<{ replaced: boolean; same: boolean }> {
  const key = parseNoteKey(text);
  let existing: Uint8Array | undefined;
  try {
    existing = readNoteKey(stateDir);
  } catch (error) {
    if (options.replace !== true) throw error;
  }
  if (existing !== undefined && Buffer.from(existing).equals(Buffer.from(key))) return { replaced: false, same: true };
  if (existing !== undefined && options.replace !== true) {
    throw new NoteKeyError('this machine already has a different note key: run `link --import --replace` to use the imported one instead (the next sync then re-sends the notes this machine signed with its old key, once, signed with the new one)');
  }
  // Temp file + rename: a symlink at the key's name is replaced, never followed.
  await writeFileAtomic(noteKeyPath(stateDir), `${formatNoteKey(key)}\n`, { mode: 0o600, mkdirMode: 0o700 });
  return { replaced: existing !== undefined, same: false };
}

/** A brand-new key in place of the current one (after a key was exposed). */
export async function replaceNoteKey(stateDir: string): Promise<Uint8Array> {
  const key = new Uint8Array(randomBytes(KEY_BYTES));
  await writeFileAtomic(noteKeyPath(stateDir), `${formatNoteKey(key)}\n`, { mode: 0o600, mkdirMode: 0o700 });
  return key;
}
