/**
 * The one lock-file protocol, shared by the state lock (state/lock.ts: waits, heartbeat, release
 * on exit) and the worker lease (worker/spawn.ts: a hook takes it without waiting). Synchronous:
 * each step is one or two small file operations, and the hooks cannot wait for anything.
 *
 * - Create complete-or-not-at-all: the owner record is written to a private temp file which is
 *   then hard-linked to the lock name (link(2) fails with EEXIST when the lock exists), so a reader
 *   never sees a half-written lock and two contenders can never both create it. Filesystems
 *   without hard links fall back to an exclusive create (open 'wx') followed by the write.
 * - Whether a lock is stale is the caller's rule (a dead pid, no heartbeat, too old).
 * - Removing a stale lock is serialized through a second exclusive-create guard file. Without it,
 *   two waiters that both saw the same dead lock can interleave (A removes it and creates its own
 *   lock, B then removes A's fresh lock believing it is the stale one) and both "hold" the lock.
 *   Under the guard the lock is read again and removed only if it is still the one judged stale
 *   (`sameLockRecord`: the same record, not only the same token); the remover then has to create its
 *   own lock like everyone else.
 */
import { linkSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';

/** A lock file as seen at one moment: its text and identity (mtime is the heartbeat). */
export interface SeenLockFile {
  text: string;
  mtimeMs: number;
  ino: number;
  dev: number;
}

/** A guard older than this belongs to a crashed remover: the guarded step takes milliseconds. */
const GUARD_STALE_MS = 10_000;
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV']);

function errnoCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

export function readLockFile(path: string): SeenLockFile | undefined {
  try {
    const st = statSync(path);
    return { text: readFileSync(path, 'utf8'), mtimeMs: st.mtimeMs, ino: st.ino, dev: st.dev };
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return undefined;
    throw error;
  }
}

/** Creates the lock with `text`; false when a lock exists. `tag` makes the temp name private (`<path>.<tag>.tmp`). */
export function createLockFile(path: string, text: string, tag: string): boolean {
  const tmp = `${path}.${tag}.tmp`;
  try {
    writeFileSync(tmp, text, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    // A full disk creates the file and fails its write: without this, every try (each hook, each
    // sync run until space is freed) left an empty temp file in the state folder.
    if (errnoCode(error) !== 'EEXIST') removeQuietly(tmp);
    throw error;
  }
  try {
    linkSync(tmp, path);
    return true;
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'EEXIST') return false;
    if (code === undefined || !NO_HARD_LINKS.has(code)) throw error;
  } finally {
    try {
      unlinkSync(tmp);
    } catch {
      // already gone
    }
  }
  try {
    writeFileSync(path, text, { mode: 0o600, flag: 'wx' });
    return true;
  } catch (error) {
    if (errnoCode(error) === 'EEXIST') return false;
    throw error;
  }
}

/**
 * Removes the stale lock `seen` if it is still the one at `path` (`sameLockRecord`; `tokenOf` reads a
 * record's token). True when the path is now free of it (removed by us or already gone); false when
 * another remover is at work or a different record took its place.
 */
export function removeStaleLock(path: string, seen: SeenLockFile, tokenOf: (text: string) => string | undefined, token: string): boolean {
  const guard = `${path}.takeover`;
  try {
    writeFileSync(guard, token, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if (errnoCode(error) !== 'EEXIST') throw error;
    try {
      // Either way from now: a guard stamped before the clock was set back lies in the future, and
      // judged only by its age it would keep every waiter off a dead lock until the clock caught up.
      if (Math.abs(Date.now() - statSync(guard).mtimeMs) > GUARD_STALE_MS) unlinkSync(guard);
    } catch {
      // removed meanwhile
    }
    return false;
  }
  try {
    const current = readLockFile(path);
    if (current === undefined) return true;
    if (!sameLockRecord(current, seen, tokenOf)) return false;
    try {
      unlinkSync(path);
    } catch (error) {
      if (errnoCode(error) !== 'ENOENT') throw error;
    }
    return true;
  } finally {
    try {
      unlinkSync(guard);
    } catch {
      // ignore
    }
  }
}

/**
 * The rule "a stale judgement holds only for the record it was made of": whether the lock seen now
 * (`a`) is still the record `b` that was judged stale. What a judgement reads must be unchanged: the
 * record's text (whom it names) and its heartbeat (mtime). A record with a token is then the same
 * lock even if rewritten to another file (the token is unique to one take); one without a token
 * (debris, a writer mid-way) must also be the same file.
 *
 * The same token alone is not enough: a holder may hand its lock on under its token. The worker
 * lease does (worker/spawn.ts `transferLock`: the hook that took it writes its worker's pid in and
 * exits). A second hook that read the first hook's record and only then found that hook gone had
 * judged the hook, not the worker; by token alone it removed the live worker's lease and started a
 * second worker beside it (the flaky "exactly one worker" test of the hooks-from-dist suite). Nor is
 * it for the state lock, judged by its heartbeat: a slow holder's heartbeat that lands between a
 * waiter's judgement and its removal proves the holder alive.
 */
function sameLockRecord(a: SeenLockFile, b: SeenLockFile, tokenOf: (text: string) => string | undefined): boolean {
  if (a.text !== b.text || a.mtimeMs !== b.mtimeMs) return false;
  return tokenOf(a.text) !== undefined || (a.ino === b.ino && a.dev === b.dev);
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // not there
  }
}
