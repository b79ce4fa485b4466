/**
 * Which file a name opens, on disks that do not compare names byte for byte.
 *
 * macOS (APFS and HFS+ as formatted by default) and Windows keep a name spelt as it was made, but
 * open it under any spelling that differs only in case (APFS: in Unicode normalization too). There
 * `Note.md` and `note.md` are one file: a lookup by name succeeds under either spelling, and
 * removing either removes the one file. Only two things tell the spellings apart: the file's
 * identity (device and inode, `sameFile`) and the folder's listing (`listedAs`: the spelling the
 * entry has). Code that removes a name, or asks whether a name is still there, asks these first.
 * A listing that cannot be read (a folder we may open but not list) answers on the side that
 * removes nothing: a name counts as there, and two names of one file as one entry.
 */
import { readdir, stat } from 'node:fs/promises';
import { basename, dirname } from 'node:path';

/** Whether both names open one file (device and inode; bigint: Windows file ids exceed 2^53). False when either is missing. */
export async function sameFile(a: string, b: string): Promise<boolean> {
  const [x, y] = await Promise.all([stat(a, { bigint: true }).catch(() => undefined), stat(b, { bigint: true }).catch(() => undefined)]);
  return x !== undefined && y !== undefined && x.dev === y.dev && x.ino === y.ino;
}

/** Whether the folder holds an entry spelt exactly as `path`'s last name (a lookup would also find another spelling of it); true when the folder cannot be listed. */
export async function listedAs(path: string): Promise<boolean> {
  return (await listing(dirname(path)))?.has(basename(path)) ?? true;
}

/**
 * `listedAs` for many names in few folders: each folder read once, and read again for a name its
 * listing lacks (a file made since), so a name is never taken for unlisted on a stale listing.
 */
export function spellingsOnce(): (path: string) => Promise<boolean> {
  const listings = new Map<string, ReadonlySet<string>>();
  return async (path) => {
    const folder = dirname(path);
    if (listings.get(folder)?.has(basename(path)) === true) return true;
    const names = await listing(folder);
    if (names === undefined) return true;
    listings.set(folder, names);
    return names.has(basename(path));
  };
}

/**
 * Of `others`, the one that is `path`'s own file under another spelling (one entry, two names), if
 * any: what removing `path` would also remove. Two entries of one file (hard links, each listed as
 * spelt) are not: removing one name leaves the file under the other.
 */
export async function otherSpelling(path: string, others: Iterable<string>): Promise<string | undefined> {
  for (const other of others) {
    if (other === path || !(await sameFile(path, other))) continue;
    const [mine, theirs] = await Promise.all([listing(dirname(path)), listing(dirname(other))]);
    if (mine?.has(basename(path)) === true && theirs?.has(basename(other)) === true) continue;
    return other;
  }
  return undefined;
}

/** A folder's names, or undefined when it cannot be listed. */
async function listing(folder: string): Promise<ReadonlySet<string> | undefined> {
  return readdir(folder).then(
    (names) => new Set(names),
    () => undefined,
  );
}
