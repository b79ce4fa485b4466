/**
 * What `pull` does with one note (issue 42): a pure function of what the graph holds, what this
 * machine pulled before (state/pulled.ts) and the local file. The rules, in the words:
 *
 * - Never write an older version over a newer one: a version at or below the one pulled here, or
 *   below this machine's own in the graph, changes nothing (a replayed episode is an older one).
 * - A note changed here and not yet sent is never overwritten; changed on both machines since they
 *   last agreed → both kept: the local one in place, the other beside it (`copy`), listed by status.
 *   "Agreed": the local file is what pull wrote (untouched since), or what this machine sent (its
 *   content hash is the marker's of its own newest version in the graph). An edit that was made on
 *   top of this machine's version (its parent is at least that version) replaces it.
 * - A redacted note never replaces a local file that holds no redaction mark: it goes beside.
 *   Nor does any version replace (or a deletion elsewhere remove) a local file holding what never
 *   leaves this machine, a secret the redaction takes out or a `<private>` block: no version from
 *   elsewhere can hold it, so it would be lost for good.
 * - Deleted elsewhere (no version of the note left in a listed group) → the local copy is removed
 *   only if untouched since pulled or sent; otherwise kept, and said. Only once the group's queue
 *   has been quiet for its patience since the note went missing, or the absence has lasted the
 *   configured maximum (sync/pace.ts `absenceSettled`): an edit made break-before-make deletes the old
 *   version before the new one is processed, and in that window the graph holds no version at
 *   all (where it can happen: graphiti/server-rules.ts EDIT_GAP_ELSEWHERE). Until then the copy, its MEMORY.md line and its ledger entry stay (`absent`).
 * - Deleted here (pulled before, the file gone, nothing newer in the graph) → the note's versions
 *   leave the graph, so the deletion reaches the other machines; a newer version from elsewhere
 *   comes back instead (an edit made after is not lost to a deletion).
 * - One text sent by several files as their own (saved alike on two machines or in two clones) is
 *   one note: the file here that holds it, untouched, gives way when its own copy is not the one
 *   processed first (incoming.ts `firstOfText`), so the graph keeps that one only.
 */
import type { PulledNote } from '../state/pulled.js';
import type { NoteVersion } from './incoming.js';
import { absenceSettled } from '../sync/pace.js';

export interface LocalNote {
  /** Content hash (memory/hash.ts) of the file now. */
  hash: string;
  /** Whether it holds a redaction mark. */
  redacted: boolean;
  /** Whether it holds what never leaves this machine: a secret the redaction takes out, or a `<private>` block (absent: no). */
  keptHere?: boolean;
}

export interface NoteFacts {
  incoming: NoteVersion | undefined;
  own: NoteVersion | undefined;
  pulled: PulledNote | undefined;
  local: LocalNote | undefined;
  /** The restored text of `incoming` holds redaction marks. */
  incomingRedacted: boolean;
  /** The local file is `incoming` already (its restored text, or the text its sender sent): nothing to write. */
  sameAsLocal: boolean;
  /** The listing covered this note's group completely: absence means deleted. */
  groupListed: boolean;
  /** Of the versions holding the local file's text, the one processed first (incoming.ts `firstOfText`). */
  firstOfText?: NoteVersion | undefined;
  /** Now (epoch ms, the pull's clock): how long the note has been absent (`absenceSettled`). */
  now: number;
  /** The patience of the note's group (sync/pace.ts `patienceMs`): how long an absence may be an edit in flight. */
  patienceMs: number;
  /** When the note's group last showed movement (any episode's processing started: sync/pace.ts `lastMovement`), epoch ms; 0: none seen. */
  movedAt?: number;
  /** The longest an absence is held however the queue moves (the configured maximum, `confirmMaxAgeMs`). */
  maxAbsenceMs?: number;
  /** The note's name opens a file the folder lists under another spelling (a disk that folds names: util/file-identity.ts): `local` is that file's (SAME_NAME_HERE). */
  localIsAnotherName?: boolean;
}

/** `same-name-here`: SAME_NAME_HERE, the note's name is another note's on this disk. */
export type CopyReason = 'both-changed' | 'redacted' | 'private' | 'same-name-here';

export type Decision =
  | { kind: 'none'; why: string }
  | { kind: 'write'; why: 'new' | 'newer' }
  /** The local file is already the incoming version: record it as pulled. */
  | { kind: 'adopt' }
  /** `redacted`: the version from elsewhere is redacted and the file here is not; `private`: the file here holds what never left it. */
  | { kind: 'copy'; why: CopyReason }
  | { kind: 'remove-local' }
  | { kind: 'kept-deleted-elsewhere' }
  /**
   * No version of the note in its listed group, for less than the group's patience since this
   * machine first saw it so (`since`, epoch ms): maybe an edit elsewhere whose old version is
   * deleted while the new one is still queued. Nothing done; the absence is remembered
   * (state/pulled.ts `PulledNote.missingSince`).
   */
  | { kind: 'absent'; since: number }
  | { kind: 'delete-in-graph' }
  /** Gone on both sides: nothing left to know of it (a stale entry would make a later deletion look like a lost folder). */
  | { kind: 'forget' }
  /** This machine's own version is in the graph and the local file is it: remember it (for a deletion elsewhere). */
  | { kind: 'remember-own' }
  /**
   * The local file holds, untouched, a text another file's copy (another machine's, another
   * clone's) holds too, and that copy was processed first: it stays, and this file's own copy
   * leaves the graph (the sync retracts it: state/pulled.ts `PulledNote.gaveWay`).
   */
  | { kind: 'give-way' };

/** The version the local file is known to be, or undefined when it changed since (or was never known). */
function agreedVersion(f: NoteFacts): { version: number; via: 'pulled' | 'sent' } | undefined {
  if (f.local === undefined) return undefined;
  if (f.pulled !== undefined && f.pulled.hash !== '' && f.pulled.hash === f.local.hash) return { version: f.pulled.version, via: 'pulled' };
  if (f.own !== undefined && f.local.hash.startsWith(f.own.hash12)) return { version: f.own.version, via: 'sent' };
  return undefined;
}

export function decide(f: NoteFacts): Decision {
  const d = oneCopy(f, decideVersions(f));
  // SAME_NAME_HERE: two notes whose names differ only in case (or Unicode form) are one name on a
  // disk that folds names (macOS, Windows): the file this one's name opens is the other's, so its
  // text goes beside it, as a conflict's would, but nothing changed on both sides: the copy says
  // what it is, and the step is renaming one of them where both live.
  return d.kind === 'copy' && d.why === 'both-changed' && f.localIsAnotherName === true ? { kind: 'copy', why: 'same-name-here' } : d;
}

/**
 * One text, one copy in the graph. Only where the file is that text, untouched: taken for the other
 * machine's version (`adopt`) or for this machine's own sent one (`remember-own`); a file with an
 * edit of its own never gives way. Its own copy processed first: it stays, and the file is this
 * machine's own note (never taken for the other's copy: after a lost state the sync would leave
 * its own copy to nobody).
 */
function oneCopy(f: NoteFacts, d: Decision): Decision {
  const first = f.firstOfText;
  if (first === undefined || f.local === undefined || (d.kind !== 'adopt' && d.kind !== 'remember-own')) return d;
  const ownFirst = f.own !== undefined && first.origin === f.own.origin && first.fileId === f.own.fileId && first.version === f.own.version;
  if (!ownFirst) return { kind: 'give-way' };
  return d.kind === 'adopt' ? { kind: 'remember-own' } : d;
}

function decideVersions(f: NoteFacts): Decision {
  const { incoming, own, pulled, local } = f;
  if (incoming === undefined && own === undefined) {
    if (!f.groupListed || pulled === undefined) return { kind: 'none', why: 'not in the graph' };
    if (local === undefined) return { kind: 'forget' };
    const absence = absenceSettled(pulled.missingSince, f.now, f.patienceMs, f.movedAt, f.maxAbsenceMs);
    if (!absence.settled) return { kind: 'absent', since: absence.since };
    return pulled.hash !== '' && pulled.hash === local.hash && local.keptHere !== true ? { kind: 'remove-local' } : { kind: 'kept-deleted-elsewhere' };
  }
  if (incoming !== undefined && own !== undefined && own.version >= incoming.version) {
    // This machine's version is newer, but it did not build on that one (its parent is older): an
    // edit made elsewhere meanwhile, which this machine never saw. Shown beside, once.
    const unseen = own.parent < incoming.version && (pulled === undefined || pulled.version < incoming.version);
    if (unseen && local !== undefined && local.hash.startsWith(own.hash12) && !f.sameAsLocal) return { kind: 'copy', why: f.incomingRedacted && !local.redacted ? 'redacted' : 'both-changed' };
  }
  if (incoming === undefined || (own !== undefined && own.version >= incoming.version)) {
    // Only this machine's own version (or it is the newest): nothing to bring; remember it when the file is it.
    if (own !== undefined && local !== undefined && local.hash.startsWith(own.hash12) && (pulled === undefined || pulled.version < own.version || pulled.hash !== local.hash)) return { kind: 'remember-own' };
    return { kind: 'none', why: 'this machine has the newest version' };
  }
  if (pulled !== undefined && incoming.version <= pulled.version) {
    if (local === undefined && pulled.hash !== '') return { kind: 'delete-in-graph' };
    return { kind: 'none', why: 'already pulled (or older)' };
  }
  if (local === undefined) return { kind: 'write', why: pulled === undefined ? 'new' : 'newer' };
  if (f.sameAsLocal) return { kind: 'adopt' };
  if (f.incomingRedacted && (!local.redacted || local.keptHere === true)) return { kind: 'copy', why: 'redacted' };
  if (local.keptHere === true) return { kind: 'copy', why: 'private' };
  const agreed = agreedVersion(f);
  if (agreed === undefined) return { kind: 'copy', why: 'both-changed' };
  if (agreed.via === 'pulled' || incoming.parent >= agreed.version) return { kind: 'write', why: 'newer' };
  return { kind: 'copy', why: 'both-changed' };
}
