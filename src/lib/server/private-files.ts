/**
 * The local server's files are the user's alone: every folder it creates is 0700 and every file
 * 0600 from the moment it exists (the graph, its logs, runtime.json, the secrets), and folders
 * and files left from before with wider modes are tightened on every start. The processes we run
 * get a umask of 077, so what FalkorDB and Graphiti create (append-only files, logs, the socket)
 * is private too.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomicSync } from '../util/fs-atomic.js';
import { unsafeAncestor } from '../util/safe-ancestors.js';
import { ServerSetupError } from './errors.js';

export const PRIVATE_DIR = 0o700;
export const PRIVATE_FILE = 0o600;
/** Group and others get nothing in anything created from now on (this process and its children). */
export const PRIVATE_UMASK = 0o077;

/**
 * Creates `dir` (and missing parents) 0700, and tightens it when it already exists. A symbolic
 * link or a folder of another user in its place is refused, and so is a place inside a folder
 * someone else could swap it in (util/safe-ancestors.ts SAFE_ANCESTORS): chmod would follow the link, and a
 * folder someone else owns can be emptied or filled by them whatever its mode.
 */
export function privateDir(dir: string): string {
  // SAFE_ANCESTORS: a folder above that someone else may write to lets them swap ours after this check.
  const above = unsafeAncestor(dir);
  if (above !== undefined) throw new ServerSetupError(`${above}: the server keeps its private files only where no one else can replace them (${dir} is inside it); choose a folder of your own outside it and start again`);
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR });
  const st = lstatSync(dir);
  if (st.isSymbolicLink()) throw new ServerSetupError(`${dir} is a symbolic link: the server keeps its private files only in a real folder; remove the link and start again`);
  const uid = process.getuid?.();
  if (uid !== undefined && st.uid !== uid) throw new ServerSetupError(`${dir} belongs to another user (uid ${st.uid}): the server keeps its private files only in your own folders; remove it (or set another folder) and start again`);
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
 * A new secret in `file` (32 random bytes, hex: safe in a redis config line and an HTTP header),
 * made for each start so that one seen before is worth nothing after it. Written as the runtime
 * record is (util/fs-atomic.ts): a fresh 0600 temp file opened exclusively, then renamed over
 * `file`, so a symbolic link planted at `file` is replaced, never followed, and a reader sees the
 * old secret or the new one, never a torn one.
 */
export function newSecretFile(file: string): string {
  const secret = randomBytes(32).toString('hex');
  writeFileAtomicSync(file, `${secret}\n`, { mode: PRIVATE_FILE });
  return secret;
}
