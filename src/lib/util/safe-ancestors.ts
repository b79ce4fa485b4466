/**
 * SAFE_ANCESTORS: a folder of ours is only as safe as the folders above it. Whoever may write to a
 * folder above ours can rename ours away and put their own in its place (a folder, or a link) at
 * any moment: between the check that found ours and the use that follows it (the Python or
 * redis-server started from the cache a moment after `server start` checked it; FalkorDB opening
 * its data folder). A folder above may be written by others only when it is sticky (as /tmp is:
 * then only an entry's owner may rename it), and it and any link on the way must belong to root or
 * to us. Both the path as given and the real one (its links followed) are judged.
 * Write by the user's own (primary) group is theirs, as config/dotenv-file.ts OWN_SETTINGS_FILE
 * judges it: umask 002 (the default for users with a group of their own, Debian and Ubuntu among
 * them) makes every folder other programs create 0775, `~/.cache` and `~/.local` included, and
 * refusing those refused the default cache and data folders; write by any other group is not.
 * Not judged on Windows (no such modes).
 */
import { lstatSync, realpathSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';

/** The first folder above `dir` that another user could rename entries in, with why; undefined when there is none. */
export function unsafeAncestor(dir: string): string | undefined {
  if (process.platform === 'win32') return undefined;
  const given = resolve(dir);
  return unsafeOnTheWay(given) ?? unsafeOnTheWay(realExistingPart(given));
}

function unsafeOnTheWay(path: string): string | undefined {
  const uid = process.getuid?.();
  const theirs = (owner: number) => owner !== 0 && uid !== undefined && owner !== uid;
  let current = path;
  for (let parent = dirname(current); parent !== current; current = parent, parent = dirname(parent)) {
    let st;
    try {
      st = lstatSync(parent);
    } catch {
      continue; // not there yet: made by us, below the first one that is
    }
    if (theirs(st.uid)) return `${parent} belongs to another user (uid ${st.uid})`;
    if (st.isSymbolicLink()) continue; // its target's folders are judged on the real path
    if (othersMayWrite(st) && (st.mode & 0o1000) === 0) return `${parent} can be written by others and is not sticky (mode ${(st.mode & 0o7777).toString(8)})`;
  }
  return undefined;
}

/** Whether anyone but the user may write to the folder: everyone, or a group that is not the user's own. */
function othersMayWrite(st: { mode: number; gid: number }): boolean {
  if ((st.mode & 0o002) !== 0) return true;
  return (st.mode & 0o020) !== 0 && st.gid !== process.getgid?.();
}

/** The real path of `path`'s longest existing part, with the rest as given. */
function realExistingPart(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    const parent = dirname(path);
    return parent === path ? path : resolve(realExistingPart(parent), basename(path));
  }
}
