/**
 * MID_WRITE: a note the plan caught while it was being saved is read again once it has settled.
 *
 * Many ways of saving a file truncate it first and write the text after (Node's `fs.writeFile`, a
 * shell's `>`, editors without atomic save): for a moment the note is empty. An empty note is a
 * choice the plan honours by retracting its episodes (prepare.ts), so a scan in that moment took the
 * note's knowledge out of the graph (with its facts, on servers whose delete takes them), let the
 * other machines' `pull` remove their copies, and sent it all again a run later. A file whose size
 * differs between the scan's stat and the read was being written too: what was read may be half of it.
 *
 * A save that moves the old file aside before it writes the new one (vim's backup by rename) leaves
 * no file at all for a moment, and a note gone from a readable folder is a deletion: its episodes
 * were deleted and the note sent again as new a run later.
 *
 * So: an empty file whose note has episodes, emptied less than MID_WRITE_SETTLE_MS ago, or a file
 * that changed size under the read, is read again once it has been still that long (one wait per
 * file per run; what is read then is taken as it is). Still empty then, the emptying was meant and
 * the note is retracted as before. A note gone from the scan whose folder changed less than
 * MID_WRITE_SETTLE_MS ago is looked for again once that much has passed: back, it is read as any
 * note is; still gone, it is deleted as before. An emptied note's age is its mtime's distance from now either
 * way: a clock set back since makes a past save look like a future one, and it is long settled.
 *
 * STABLE_READ: a save that writes over the file in place (an editor without atomic save, the same
 * length of text or a text written over the old one without truncating) keeps the size the scan
 * saw, and a read between its writes returns the new text's start over the old one's end: a torn
 * note, which was sent as the note (its knowledge extracted, other machines' `pull` writing it)
 * until the next run replaced it. So a note is read twice on one open file, its fstat taken before
 * and after (prepare.ts readMemoryFile): the read stands only when both reads are the same bytes and
 * the size, mtime and ctime did not move. Both are needed: timestamps come from a coarse clock (a
 * few ms on Linux), so writes close together leave the stat as it was while the text changes; and a
 * write after both reads returned the same torn text shows only in the stat. Otherwise the note is
 * read again once settled (MID_WRITE_SETTLE_MS), at most MID_WRITE_ROUNDS times; still moving then,
 * it is left for the next run (nothing sent, nothing retracted: its last version stays). A writer
 * descheduled through both reads and both fstats cannot be told from a finished save: that torn
 * text is still sent, and replaced by the next run (the watch's write stabilizer, which waits for a
 * file to be still, narrows it there).
 *
 * CUT_SHORT: a writer that writes part of a note, pauses longer than both reads, then writes the
 * rest (a script or a tool writing line by line or chunk by chunk, a model's output streamed into
 * the file) leaves a stable text that is only its start. Sent, it was extracted as the note, and a
 * start cut inside the frontmatter was sent whole as text (an unclosed block is read as text), a
 * `private: true` further down included. A read stands as it is unless the text looks cut and the
 * file was written less than MID_WRITE_SETTLE_MS ago: it does not end with a line break (a chunk's
 * or a token's end; the files people and editors save end with one), or it opens a frontmatter block
 * it never closes. Such a note is read again once it has been still that long, in one wait for
 * every such note of the run (plan.ts), and then taken as it is (a note that really ends without a
 * line break costs one wait, once). A save that moves a finished file into place (atomic rename)
 * never shows a start. A pause longer than the settle, or a cut at a line end, cannot be told from a
 * finished note: sent, and replaced by the next run, as before.
 */

import { frontmatterUnclosed } from '../memory/parse.js';

/** A save writes its text within milliseconds of truncating; a second covers a loaded machine and costs a run little. */
export const MID_WRITE_SETTLE_MS = 1_000;

/** STABLE_READ: settle waits for one note in one run at most, before a note still being written is left for the next run. */
export const MID_WRITE_ROUNDS = 3;

/** What an fstat says of a file's content: the same before and after a read when no write landed in between (STABLE_READ). */
export interface ContentStat {
  size: number;
  mtimeMs: number;
  ctimeMs: number;
}

/** STABLE_READ: whether two reads of one open file, with its fstat before and after, saw one finished text. */
export function readIsStable(before: ContentStat, after: ContentStat, first: Uint8Array, second: Uint8Array): boolean {
  const sameStat = before.size === after.size && before.mtimeMs === after.mtimeMs && before.ctimeMs === after.ctimeMs;
  return sameStat && Buffer.compare(first, second) === 0;
}

export interface ReadFacts {
  /** Bytes the read returned. */
  bytes: number;
  /** Size the scan's stat saw. */
  scannedSize: number;
  /** The file's mtime as scanned, epoch ms. */
  mtimeMs: number;
  /** The note has episodes (sent or to send) that an empty read would retract. */
  hasEpisodes: boolean;
  now: number;
}

/** How long to wait before reading the file again (ms), or undefined when what was read stands. */
export function midWriteWait(f: ReadFacts): number | undefined {
  if (f.bytes !== f.scannedSize) return MID_WRITE_SETTLE_MS;
  if (f.bytes !== 0 || !f.hasEpisodes) return undefined;
  const age = Math.abs(f.now - f.mtimeMs);
  return age < MID_WRITE_SETTLE_MS ? Math.ceil(MID_WRITE_SETTLE_MS - age) : undefined;
}

/** How long to wait before looking again for a note gone from the scan, from its folder's mtime (undefined: the folder is gone too); undefined when its absence stands. */
export function goneMidWriteWait(folderMtimeMs: number | undefined, now: number): number | undefined {
  if (folderMtimeMs === undefined) return undefined;
  const age = Math.abs(now - folderMtimeMs);
  return age < MID_WRITE_SETTLE_MS ? Math.ceil(MID_WRITE_SETTLE_MS - age) : undefined;
}

/** CUT_SHORT: a text that looks like the start of a note: no line break at its end, or a frontmatter block opened and never closed. */
export function looksCut(raw: Uint8Array): boolean {
  if (raw.length === 0) return false; // MID_WRITE's own case
  if (raw[raw.length - 1] !== 0x0a) return true;
  return frontmatterUnclosed(Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('utf8'));
}

/** CUT_SHORT: how long to wait before reading a stable note again (ms): written less than MID_WRITE_SETTLE_MS ago and looking cut; undefined when what was read stands. */
export function cutShortWait(raw: Uint8Array, mtimeMs: number, now: number): number | undefined {
  // Either way from now, as an emptied note's age: a clock set back makes a past save look like a future one.
  const age = Math.abs(now - mtimeMs);
  if (age >= MID_WRITE_SETTLE_MS || !looksCut(raw)) return undefined;
  return Math.ceil(MID_WRITE_SETTLE_MS - age);
}
