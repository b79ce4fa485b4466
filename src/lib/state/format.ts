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
 *
 * Forward compatibility: a later build whose format only adds what this one may safely ignore (and
 * keep: unknown fields pass through, state/validate.ts) writes `compatibleWith`, the oldest version
 * that may go on reading and writing it; a file newer than `compatibleWith` allows is refused. A
 * journal entry of a kind this build does not know is refused the same way (state/journal.ts), never
 * skipped: what follows it would be lost, and with it the record of what was sent.
 */
import { StateConflictError, STATE_TOOL } from './types.js';
import { upgradeStep } from '../util/install-route.js';

/** The version of `state.json` this build writes. */
export const STATE_VERSION = 2;
/** The oldest `state.json` version this build reads (and brings up to date). */
export const OLDEST_STATE_VERSION = 1;
/** The version of `pulled.json` this build writes and reads (state/pulled.ts). */
export const PULLED_VERSION = 1;

/** One step up: the parsed snapshot of version `n`, changed in place to version `n + 1`. */
type Migration = (raw: Record<string, unknown>) => void;

/** `migrations[n]` brings a version-n snapshot to n + 1. Journal entries are whole records, so they need the same steps (none so far). */
const migrations: Readonly<Record<number, Migration>> = {
  // Version 2 changed no field: it only keeps version-1 builds off a state they would misread.
  1: () => undefined,
};

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
