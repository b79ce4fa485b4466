/**
 * SAFE_ANCESTORS: a folder of ours is only as safe as the folders above it. Whoever may write to a
 * folder above ours can rename ours away and put their own in its place (a folder, or a link) at
 * any moment: between the check that found ours and the use that follows it (the Python or
 * redis-server started from the cache a moment after `server start` checked it; FalkorDB opening
 * its data folder). A folder above may be written by others only when it is sticky (as /tmp is:
 * then only an entry's owner may rename it), and it and any link on the way must belong to root or
 * to us. Both the path as given and the real one (its links followed) are judged.
 * Not judged on Windows (no such modes).
 *
 * USER_PRIVATE_GROUP: write by the group is no one else's when the group is the user's own private
 * group: what useradd makes with USERGROUPS_ENAB, where login then sets umask 002, so folders other
 * programs make in the home (~/.local/state and ~/.cache among them) are group-writable. Private
 * means: /etc/group lists it (in every row of its number) with no member but the user, and
 * /etc/passwd gives it as no one else's primary group. A group those files do not show (a directory service) counts as others', as do
 * shared ones (`users`, macOS's `staff`). Read only when a group-writable folder is met, and again
 * whenever they change (ACCOUNTS_AS_THEY_STAND: a watch runs for days).
 */
import { lstatSync, readFileSync, realpathSync, statSync } from 'node:fs';
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
    if (writableByOthers(st) && (st.mode & 0o1000) === 0) return `${parent} can be written by others and is not sticky (mode ${(st.mode & 0o7777).toString(8)})`;
  }
  return undefined;
}

/** Whether someone other than the user (and root) may write to what `st` describes (USER_PRIVATE_GROUP). */
export function writableByOthers(st: { mode: number; gid: number }): boolean {
  if ((st.mode & 0o002) !== 0) return true;
  if ((st.mode & 0o020) === 0) return false;
  const uid = process.getuid?.();
  return uid === undefined || !privateGroup(st.gid, uid, accounts());
}

/** The account files USER_PRIVATE_GROUP reads: their text, or '' when unreadable. */
export interface Accounts {
  passwd: string;
  group: string;
}

/**
 * ACCOUNTS_AS_THEY_STAND: the account files as read last, kept while both still are the files read
 * (same inode, size, modification and change time). A watch judges at every pass for days: kept
 * for the whole process, a group the admin gave another member since (usermod -aG, which replaces
 * /etc/group) went on counting as the user's alone. Two stats a call, read again only on a change.
 */
let cachedAccounts: { seen: string; accounts: Accounts } | undefined;

function accounts(): Accounts {
  const read = (file: string) => {
    try {
      return readFileSync(file, 'utf8');
    } catch {
      return '';
    }
  };
  const seen = [ACCOUNT_FILES.passwd, ACCOUNT_FILES.group].map(fileVersion).join('|');
  if (cachedAccounts?.seen !== seen) cachedAccounts = { seen, accounts: { passwd: read(ACCOUNT_FILES.passwd), group: read(ACCOUNT_FILES.group) } };
  return cachedAccounts.accounts;
}

const ACCOUNT_FILES = { passwd: '/etc/passwd', group: '/etc/group' } as const;

/** Which version of a file is there: it changes when the file is replaced or written. */
function fileVersion(file: string): string {
  try {
    const st = statSync(file);
    return `${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
  } catch {
    return 'none';
  }
}

/** USER_PRIVATE_GROUP: whether group `gid` is `uid`'s alone, by the account files. */
export function privateGroup(gid: number, uid: number, files: Accounts): boolean {
  const rows = (text: string) => text.split('\n').filter((line) => line !== '' && !line.startsWith('#')).map((line) => line.split(':'));
  const users = rows(files.passwd);
  const me = users.find((f) => Number(f[2]) === uid)?.[0];
  if (me === undefined) return false;
  // Every row of that number: the kernel knows only the gid, so a second group given the same
  // number (groupadd -o) lends its members the first one's write (GID_SHARED_BY_ROWS).
  const groups = rows(files.group).filter((f) => Number(f[2]) === gid);
  if (groups.length === 0) return false;
  const members = groups.flatMap((g) => (g[3] ?? '').split(',')).filter((m) => m !== '');
  if (members.some((m) => m !== me)) return false;
  // Its primary users: none but us.
  return users.every((f) => Number(f[3]) !== gid || Number(f[2]) === uid);
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
