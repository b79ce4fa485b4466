/**
 * Crash-safe file writes.
 *
 * Every write goes to a unique temp file in the same folder, is fsynced, and is renamed over the target. rename(2) within one
 * filesystem is atomic, so a reader sees either the old or the new file, never
 * a mix, and a crash at any point leaves the old file intact (plus, at worst, a
 * stray temp file that `removeStaleTempFiles` cleans up later).
 */
import { closeSync, constants as fsConstants, fchmodSync, fsyncSync, mkdirSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { uniqueId } from './ids.js';
import { isProcessAlive } from './process-alive.js';

export interface WriteFileAtomicOptions {
  /** File mode of the result; default 0o600 (our files may hold paths and summaries of private notes). */
  mode?: number;
  /** Create the parent folder (with mode 0o700) when missing. Default false. */
  mkdirMode?: number | false;
}

const TEMP_SUFFIX = '.tmp';

/** `.<base>.<pid>.<random>.tmp` in the target's folder: same filesystem (rename stays atomic), unique per writer. */
function tempPathFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.${uniqueId()}${TEMP_SUFFIX}`);
}

/** fsync a folder so the rename itself is durable. Not supported everywhere (Windows, some FUSE mounts): best effort. */
async function fsyncDir(dir: string): Promise<void> {
  let handle;
  try {
    handle = await open(dir, fsConstants.O_RDONLY);
    await handle.sync();
  } catch {
    // Best effort by design: the data itself is already fsynced.
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/**
 * Writes `data` to `path` atomically: temp file (same folder) → write → fsync → chmod → rename → fsync folder.
 * On any failure the temp file is removed and the original file is left untouched.
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array, options: WriteFileAtomicOptions = {}): Promise<void> {
  const mode = options.mode ?? 0o600;
  if (options.mkdirMode !== undefined && options.mkdirMode !== false) {
    await mkdir(dirname(path), { recursive: true, mode: options.mkdirMode });
  }
  const tmp = tempPathFor(path);
  // 'wx': never follow or reuse an existing file at the temp name.
  const handle = await open(tmp, 'wx', mode);
  let renamed = false;
  try {
    try {
      await handle.writeFile(data);
      // open()'s mode is filtered by the umask; chmod makes the requested mode exact.
      await handle.chmod(mode);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmp, path);
    renamed = true;
  } finally {
    if (!renamed) await unlink(tmp).catch(() => undefined);
  }
  await fsyncDir(dirname(path));
}

/** fsyncSync of a folder, best effort (see fsyncDir). */
function fsyncDirSync(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, fsConstants.O_RDONLY);
    fsyncSync(fd);
  } catch {
    // Best effort by design: the data itself is already fsynced.
  } finally {
    if (fd !== undefined) {
      try {
        closeSync(fd);
      } catch {
        // already closed
      }
    }
  }
}

/**
 * writeFileAtomic for code that cannot wait for a promise: the hooks' hot path, the lease hand-over,
 * the server's runtime record. Same steps, same guarantees, same temp names (so
 * `removeStaleTempFiles` cleans up after either).
 */
export function writeFileAtomicSync(path: string, data: string | Uint8Array, options: WriteFileAtomicOptions = {}): void {
  const mode = options.mode ?? 0o600;
  if (options.mkdirMode !== undefined && options.mkdirMode !== false) mkdirSync(dirname(path), { recursive: true, mode: options.mkdirMode });
  const tmp = tempPathFor(path);
  // 'wx': never follow or reuse an existing file at the temp name.
  const fd = openSync(tmp, 'wx', mode);
  let renamed = false;
  try {
    try {
      const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
      let written = 0;
      while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
      // openSync()'s mode is filtered by the umask; fchmod makes the requested mode exact.
      fchmodSync(fd, mode);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
    renamed = true;
  } finally {
    if (!renamed) {
      try {
        unlinkSync(tmp);
      } catch {
        // never created or already gone
      }
    }
  }
  fsyncDirSync(dirname(path));
}

/** Thrown by readJsonFile when the file exists but is not valid JSON. */
export class JsonFileError extends Error {
  constructor(
    message: string,
    readonly path: string,
    readonly bytes: number,
    /** The parser's message, without the path. */
    readonly detail: string,
  ) {
    super(message);
    this.name = 'JsonFileError';
  }
}

/**
 * Reads and parses a JSON file. A missing file gives `undefined`; invalid JSON throws JsonFileError;
 * other I/O errors (EACCES, EISDIR, …) are rethrown as they are.
 */
export async function readJsonFile(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const bytes = Buffer.byteLength(text);
    const detail = (error as Error).message;
    throw new JsonFileError(`${path} is not valid JSON (${bytes} bytes): ${detail}`, path, bytes, detail);
  }
}

/**
 * Removes temp files left by writers that died mid-write (SIGKILL between open and rename).
 * A temp file is removed when its writer pid is no longer alive or it is older than `maxAgeMs`
 * (a live writer finishes in milliseconds). Returns the number removed. Never throws.
 */
export async function removeStaleTempFiles(path: string, maxAgeMs = 60 * 60_000): Promise<number> {
  const dir = dirname(path);
  const prefix = `.${basename(path)}.`;
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith(TEMP_SUFFIX)) continue;
    const middle = name.slice(prefix.length, -TEMP_SUFFIX.length).split('.');
    const pid = Number(middle[0]);
    const full = join(dir, name);
    try {
      const st = await stat(full);
      const dead = Number.isInteger(pid) && pid > 0 && !isProcessAlive(pid);
      if (dead || Date.now() - st.mtimeMs > maxAgeMs) {
        await unlink(full);
        removed++;
      }
    } catch {
      // Vanished or not removable: leave it.
    }
  }
  return removed;
}
