/**
 * The local server's files are the user's alone: every folder it creates is 0700 and every file
 * 0600 from the moment it exists (the graph, its logs, runtime.json, the secrets), and folders
 * and files left from before with wider modes are tightened on every start. The processes we run
 * get a umask of 077, so what FalkorDB and Graphiti create (append-only files, logs, the socket)
 * is private too.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, closeSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export const PRIVATE_DIR = 0o700;
export const PRIVATE_FILE = 0o600;
/** Group and others get nothing in anything created from now on (this process and its children). */
export const PRIVATE_UMASK = 0o077;

/** Creates `dir` (and missing parents) 0700, and tightens it when it already exists. */
export function privateDir(dir: string): string {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR });
  chmodSync(dir, PRIVATE_DIR);
  return dir;
}

/**
 * Tightens a folder we own and everything in it: folders 0700, files 0600 (sockets and files
 * that must stay executable are left to the umask). Symbolic links are not followed.
 */
export function tightenTree(dir: string): void {
  let st;
  try {
    st = lstatSync(dir);
  } catch {
    return;
  }
  if (!st.isDirectory()) return;
  if ((st.mode & 0o777) !== PRIVATE_DIR) chmodSync(dir, PRIVATE_DIR);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) tightenTree(path);
    else if (entry.isFile() && (lstatSync(path).mode & 0o077) !== 0) chmodSync(path, PRIVATE_FILE);
  }
}

/**
 * The secret in `file`, created at the first call (32 random bytes, hex: safe in a redis config
 * line and an HTTP header) with mode 0600 from the start; an existing file is tightened.
 */
export function ensureSecretFile(file: string): string {
  try {
    const existing = readFileSync(file, 'utf8').trim();
    if (/^[0-9a-f]{32,}$/.test(existing)) {
      chmodSync(file, PRIVATE_FILE);
      return existing;
    }
  } catch {
    // not there yet
  }
  const secret = randomBytes(32).toString('hex');
  // 'w' with mode 0600: created private, never readable by others even for a moment.
  const fd = openSync(file, 'w', PRIVATE_FILE);
  try {
    writeSync(fd, `${secret}\n`);
  } finally {
    closeSync(fd);
  }
  chmodSync(file, PRIVATE_FILE);
  return secret;
}
