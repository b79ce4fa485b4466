/**
 * How far a symbolic link to a folder may lead and still be followed, by the scan (scan.ts) and
 * by watch mode (watch/watch.ts) alike: the one owner of this rule.
 *
 * Source folders may be links, and so may folders inside them (a project's `memory` kept in a
 * notes repository): those are followed wherever they lead, since pointing a memory folder at a
 * folder elsewhere is what the link is for. Three targets are never followed, because no memory
 * folder is one of them and following them takes in far more than anyone configured:
 *
 * - a folder that holds the link itself (`ln -sfn .. memory`, `ln -sfn / memory`): everything
 *   beside the configured folder would be scanned, sent and watched, and the walk re-enters the
 *   link (a loop that is only caught one level down, after a whole tree was read);
 * - the filesystem root;
 * - the home folder, or a folder holding it (`/home`): every note of every project and tool.
 *
 * Such a link is reported (a scan problem, reason `out-of-reach`) and skipped; the files synced
 * through it before stay as they are (a problem folder's files are unknown, not deleted), so a
 * slip of `ln -sfn` loses nothing and is undone by pointing the link back.
 */
import { homedir } from 'node:os';
import { dirname, isAbsolute, parse, relative, resolve } from 'node:path';
import { realpathSync } from 'node:fs';

/** Whether `inner` is `outer` or lies inside it (both absolute real paths). */
export function isInsideOrSame(inner: string, outer: string): boolean {
  const rel = relative(outer, inner);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

function realOrSelf(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    return resolve(path);
  }
}

let homeReal: string | undefined;
/** The home folder's real path (read once: it does not move while we run). */
function realHome(): string {
  homeReal ??= realOrSelf(homedir());
  return homeReal;
}

/**
 * Why the folder link at `link` (held by the folder whose real path is `holderReal`) must not be
 * followed to `targetReal`, as a message naming the link, where it leads and the next step; or
 * undefined when it may be followed. `home` is for tests (default: the user's home folder).
 */
export function linkOutOfReach(link: string, targetReal: string, holderReal: string, home: string = realHome()): string | undefined {
  let why: string | undefined;
  if (parse(targetReal).root === targetReal) why = 'the whole filesystem';
  else if (isInsideOrSame(holderReal, targetReal)) why = 'a folder that holds the link itself (so everything beside the configured folder, and the link again)';
  else if (isInsideOrSame(home, targetReal)) why = targetReal === home ? 'your whole home folder' : 'a folder that holds your home folder';
  if (why === undefined) return undefined;
  return `${link} is a symbolic link to ${targetReal}, ${why}: not followed, so nothing there is scanned, watched or sent. Point it at the notes folder (\`ln -sfn <notes folder> ${link}\`) or remove it; the notes synced through it before are kept until then`;
}

/** `linkOutOfReach` for a link found by its path alone: its target and its folder's real paths are read here. */
export function linkOutOfReachAt(link: string, targetReal: string, home?: string): string | undefined {
  return linkOutOfReach(link, targetReal, realOrSelf(dirname(resolve(link))), home);
}
