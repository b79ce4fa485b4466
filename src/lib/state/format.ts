/**
 * The formats of the files this tool keeps in its state folder, and the one place they change:
 * which versions a build reads, which it refuses, and how an older one is brought up to date.
 *
 * Why a version at all: builds of different ages meet the same state folder (an upgrade, a
 * downgrade, the plugin and a global install side by side, a watch started from the previous
 * build). A build that acts on a state it only half understands does damage no message repairs:
 * it re-sends what it cannot recognise as sent, deletes what it takes for stale, or forgets what it
 * does not know it must keep. So every build refuses a format newer than it knows, leaves the file
 * untouched, and names the step (upgrade); hooks say nothing and exit 0 (their callers log it).
 *
 * `state.json` history:
 * - 1: the first format (snapshot + journal, state/state.ts).
 * - 2: the same shape, from the build whose parts may carry an origin in their markers
 *   (docs/shared-graphs.md),
 *   whose memory folders may hold notes `pull` wrote (`pulled.json`: another machine's episodes),
 *   and whose records may carry note tags, `unsigned`, `bridgedFrom`, held parts. A build that knows
 *   none of this and reads such a state (a downgrade) takes its own queued parts for dropped, sends
 *   pulled copies as its own notes and deletes older versions before the new one is seen: version 1
 *   builds refuse any version above 1, so writing 2 stops them with "upgrade" instead. Reading a 1
 *   needs no change to the data (`migrations[1]`).
 * - 3: version 2 while a part is held as another machine's (`foreign`, sync/copy-hold.ts COPY_HOLD),
 *   and only then (HELD_NEEDS_NEWER_FORMAT, `stateFormatFor`). A build from before COPY_HOLD reads
 *   version 2 and knows no `foreign` mark: it would delete the held episodes (the other machine's
 *   current ones) at its first run, and, on the copy's unchanged notes, let an edit replace them.
 *   Every build of format 2 refuses 3 ("newer": upgrade), and nothing written as 3 is declared
 *   compatible, so a downgrade stops instead. Once nothing is held (`origin --keep`, `--split`) the
 *   file is written as 2 again, and an older build may read it as before: the bump costs a downgrade
 *   nothing where there is nothing to lose. Reading a 2 needs no change (`migrations[2]`).
 * - 4: what 3 was, from the build that learnt DELETED_ON_PURPOSE and SPLIT_HANDS_OVER (sync/copy-hold.ts).
 *   Builds that wrote 3 before those rules (up to 0538ecb) read a held 3 as their own, and act on it
 *   by rules that undo what a later build decided: their COPY_WATCH sends again a note deleted on purpose (a
 *   cleared group, a note `pull` deleted on a linked machine: `deletedElsewhere`, `goneSeen` mean
 *   nothing to them), their `origin --split` deletes what the copy sent beside the other machine's
 *   edit (`resentBeside`), and their `--keep` releases a split's orphan (`handOver`) to be deleted.
 *   And they do so before any of these marks exist: on a held state with only `foreign` marks, their
 *   first look at a cleared group sends every note again. So the held state is written as 4, which
 *   they refuse ("newer": upgrade), as every format-2 build does (so do the builds that wrote 3 with
 *   those rules, eacc745's: nothing tells them apart from their elders; they sync nothing beside this
 *   one while something is held, and lose nothing). This build still reads a held 3 (an upgrade from
 *   any of them: the same shape, its marks a subset of this build's). A 3 or 4 with no held part was
 *   not written by this rule and is judged as any newer version.
 *
 * Forward compatibility: a later build whose format only adds what this one may safely ignore (and
 * keep: unknown fields pass through, state/validate.ts) writes `compatibleWith`, the oldest version
 * that may go on reading and writing it; a file newer than `compatibleWith` allows is refused. A
 * journal entry of a kind this build does not know is refused the same way (state/journal.ts), never
 * skipped: what follows it would be lost, and with it the record of what was sent.
 */
import { StateConflictError, STATE_TOOL } from './types.js';
import { upgradeStep } from '../util/install-route.js';

/** The version of `state.json` this build writes while nothing is held (and the shape it reads every version into). */
export const STATE_VERSION = 2;
/**
 * The version this build writes while a part is held as another machine's (HELD_NEEDS_NEWER_FORMAT).
 * 3 and 4 are taken: a later format of another shape is 5 or above, and is judged against STATE_VERSION.
 */
export const HELD_STATE_VERSION = 4;
/**
 * The held versions this build reads as its own (HELD_NEEDS_NEWER_FORMAT): its own, and 3, written
 * by the builds before DELETED_ON_PURPOSE (read the same way: nothing in it is unknown here).
 */
const HELD_VERSIONS_READ: readonly number[] = [3, HELD_STATE_VERSION];
/** The oldest `state.json` version this build reads (and brings up to date). */
export const OLDEST_STATE_VERSION = 1;
/** The version of `pulled.json` this build writes and reads (state/pulled.ts). */
export const PULLED_VERSION = 1;
/**
 * EMPTIED_NEEDS_NEWER_LEDGER: the version `pulled.json` is written as while a note is marked lost
 * with its emptied group (pull/pull.ts EMPTIED_GROUP, `PulledNote.emptiedSince`: its absence is not
 * a deletion). Builds from before that rule read every such note as deleted elsewhere, and their
 * pull, run beside this one (an older copy's worker runs on its own lease), removed the very files
 * this build keeps (checked with 1e0cb7b's pull on a ledger this build wrote). They refuse this
 * version ("newer": upgrade) and lose nothing, as a held state is refused (HELD_NEEDS_NEWER_FORMAT);
 * a ledger with no such mark is written as PULLED_VERSION again. The same shape: this build reads both.
 */
export const EMPTIED_PULLED_VERSION = 2;

/**
 * Whether a parsed `pulled.json` is this build's ledger written as EMPTIED_PULLED_VERSION: that
 * version, its notes keyed as this build keys them, one of them marked. A file that says 2 and is
 * not that was not written by this rule, and is judged as any newer version (as `heldFormat` does).
 */
export function emptiedLedgerFormat(raw: Record<string, unknown>): boolean {
  const notes = raw.notes;
  if (raw.version !== EMPTIED_PULLED_VERSION || typeof notes !== 'object' || notes === null || Array.isArray(notes)) return false;
  return Object.values(notes).some((n) => typeof n === 'object' && n !== null && typeof (n as { emptiedSince?: unknown }).emptiedSince === 'string');
}

/** The version `pulled.json` is written as (EMPTIED_NEEDS_NEWER_LEDGER; the one place it is chosen). */
export function pulledFormatFor(notes: Iterable<{ emptiedSince?: string }>): number {
  for (const note of notes) if (note.emptiedSince !== undefined) return EMPTIED_PULLED_VERSION;
  return PULLED_VERSION;
}

/** One step up: the parsed snapshot of version `n`, changed in place to version `n + 1`. */
type Migration = (raw: Record<string, unknown>) => void;

/** `migrations[n]` brings a version-n snapshot to n + 1. Journal entries are whole records, so they need the same steps (none so far). */
const migrations: Readonly<Record<number, Migration>> = {
  // Version 2 changed no field: it only keeps version-1 builds off a state they would misread.
  1: () => undefined,
};

/**
 * HELD_NEEDS_NEWER_FORMAT: the version a state is written as. A part held as another machine's
 * (`foreign`) makes it HELD_STATE_VERSION, which builds that know no such mark refuse; otherwise
 * STATE_VERSION, which every build of format 2 reads. (The one place the written version is chosen.)
 */
export function stateFormatFor(parts: Iterable<{ foreign?: true }>): number {
  for (const ref of parts) if (ref.foreign === true) return HELD_STATE_VERSION;
  return STATE_VERSION;
}

/**
 * Whether a parsed `state.json` is format 2 written as a held version this build reads
 * (HELD_VERSIONS_READ) with a held part in it. A file that says 3 or 4 and holds none was not
 * written by this rule, and is judged as any newer version (refused unless declared compatible).
 */
export function heldFormat(raw: Record<string, unknown>): boolean {
  if (typeof raw.version !== 'number' || !HELD_VERSIONS_READ.includes(raw.version)) return false;
  const marked = (parts: unknown) => Array.isArray(parts) && parts.some((p) => typeof p === 'object' && p !== null && (p as { foreign?: unknown }).foreign === true);
  if (marked(raw.orphans)) return true;
  const files = raw.files;
  if (typeof files !== 'object' || files === null) return false;
  return Object.values(files as Record<string, unknown>).some((r) => typeof r === 'object' && r !== null && (marked((r as { episodes?: unknown }).episodes) || marked((r as { superseded?: unknown }).superseded)));
}

/**
 * A file of ours that this build must not use: written by a newer version, and not declared
 * compatible with this one. `undefined` when it may be read (or is not ours to judge: another tool,
 * no version, handled by the caller).
 */
export function futureFormat(file: { path: string; what: string; version: unknown; compatibleWith: unknown }, known: number): StateConflictError | undefined {
  const { version, compatibleWith } = file;
  if (typeof version !== 'number' || !Number.isFinite(version) || version <= known) return undefined;
  if (typeof compatibleWith === 'number' && Number.isInteger(compatibleWith) && compatibleWith <= known) return undefined;
  return new StateConflictError(
    `${file.what} ${file.path} has format version ${version}, newer than this build understands (${known}): a newer graphiti-memory-sync wrote it. Refusing to use or overwrite it: ${upgradeStep('the version that wrote it, or later')}.`,
    file.path,
    'newer',
    STATE_TOOL,
    version,
  );
}

/**
 * Brings a parsed `state.json` of an older supported version up to `STATE_VERSION`, in place.
 * A version this build does not know how to read (0, a fraction, a newer one declared compatible)
 * is left as it is: the schema then decides (a newer compatible one is read as this version).
 */
export function migrateState(raw: Record<string, unknown>): void {
  let version = raw.version;
  // Version 2 with held parts (HELD_NEEDS_NEWER_FORMAT): the same shape, read as this build's.
  if (heldFormat(raw)) {
    raw.version = STATE_VERSION;
    return;
  }
  if (typeof version === 'number' && version > STATE_VERSION) {
    // Declared compatible (futureFormat let it through): read as this build's version.
    raw.version = STATE_VERSION;
    return;
  }
  while (typeof version === 'number' && Number.isInteger(version) && version >= OLDEST_STATE_VERSION && version < STATE_VERSION) {
    migrations[version]?.(raw);
    version += 1;
    raw.version = version;
  }
}
