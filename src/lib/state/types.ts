/** The shapes of the sync state (state.json) and of its journal entries. */
import type { SourceKind } from '../memory/types.js';

export const STATE_TOOL = 'graphiti-memory-sync';
export const STATE_FILE = 'state.json';

export type FileStatus = 'pending' | 'queued' | 'confirmed' | 'failed' | 'skipped';
export const FILE_STATUSES: readonly FileStatus[] = ['pending', 'queued', 'confirmed', 'failed', 'skipped'];

/** The one status counter: records per status, optionally only those `include` accepts. */
export function countByStatus(records: Iterable<FileRecord>, include: (record: FileRecord) => boolean = () => true): Record<FileStatus, number> {
  const counts: Record<FileStatus, number> = { pending: 0, queued: 0, confirmed: 0, failed: 0, skipped: 0 };
  for (const record of records) if (include(record)) counts[record.status]++;
  return counts;
}

export interface EpisodeRef {
  /** Provenance marker embedded in the episode (how we find it on the server). */
  marker: string;
  name: string;
  groupId: string;
  part: number;
  parts: number;
  uuid?: string;
  sentAt?: string;
  /**
   * Where this part's request stood in the order ours went to the server (sync/send-order.ts): it
   * tells parts sent within one millisecond apart. Absent in parts sent before it existed.
   */
  sendOrder?: number;
  /** When add_memory accepted (queued) this part; the confirmation clock starts here. */
  queuedAt?: string;
  /**
   * Where that reply stood among our hand-offs and replies (sync/send-order.ts): a reply before
   * another part's hand-off proves this part is ahead of it in the queue (PROVEN_ORDER). Absent in
   * parts sent before it existed and where the reply was lost.
   */
  queuedOrder?: number;
  confirmedAt?: string;
  /**
   * Shared sources only: when a complete listing, late enough for a co-owner's racing copy to have
   * appeared, showed which copy everybody keeps (sync/reconcile.ts). Until then the part is listed.
   */
  settledAt?: string;
  /**
   * A few words of the part's text: with its name, the search that finds facts Graphiti left
   * behind after the part was deleted (sync/fact-cleanup.ts). Redacted like the part itself.
   */
  probe?: string;
  resends: number;
  /**
   * A retired part kept in the graph on purpose (sync/retire.ts): deleting it would make the
   * server delete facts another live episode still states (graphiti-core 0.29–0.31.1 delete the
   * facts an episode created first). Its own facts are removed one by one; re-checked later.
   */
  heldAt?: string;
  /** How many facts deleting it would have taken from other episodes, when it was held. */
  heldFacts?: number;
  /** When it was first held (`heldAt` is the last check). */
  heldSince?: string;
  /** Re-checks that kept it held: each doubles the wait before the next (sync/retire.ts). */
  heldChecks?: number;
  /**
   * A retired part whose delete waits for the server to be on its group again: a server before 1.1
   * on FalkorDB deletes only in the group it last wrote to (sync/group-reach.ts). Since when.
   */
  awaitsGroupSince?: string;
  /**
   * A retired part sent without the tag of this machine's current note key, replaced by the same
   * content re-sent signed (sync/note-signing.ts): never taken back for the current part that has
   * its marker (reconcile.ts), unlike an older version a revert brings back.
   */
  unsigned?: true;
  /**
   * A part this machine neither sent nor confirmed itself: named by a state folder made on another
   * machine, or another machine's version found while rebuilding under an origin made elsewhere
   * (sync/copy-hold.ts COPY_HOLD); or one it sent that the other machine took for its own
   * (TAKEN_BACK). Retired, it is held, not deleted, until `origin --keep`.
   */
  foreign?: true;
  /**
   * A current part whose episode a copy's look found deleted on purpose elsewhere (the group
   * cleared, or the note deleted on one of the person's linked machines), when: not sent again and
   * no longer watched (sync/copy-hold.ts DELETED_ON_PURPOSE); nothing of it is left to delete.
   */
  deletedElsewhere?: string;
  /**
   * A current part a copy's look found gone in a way that reads as a deletion on purpose, and since
   * when (sync/copy-hold.ts DELETED_ON_PURPOSE): judged once the absence has settled (an edit in
   * flight elsewhere may leave the graph without the note for a while), by what that first look saw.
   */
  goneSeen?: { since: string; how: 'cleared' | 'deleted-by-person' };
  /**
   * Sent again by a copy's look while the other machine's own version of the note stood in the
   * graph (its edit: sync/copy-hold.ts COPY_WATCH). It carries the shared origin, so that machine
   * takes it for its own if it reverts to this text: `origin --split` does not simply delete it
   * (`handOver`).
   */
  resentBeside?: true;
  /**
   * An orphan `origin --split` left from a part `resentBeside`: held (`foreign`) until a complete
   * listing judges it. Another version of its note under its origin listed: not the other
   * machine's current one, deleted; none: left to that machine (sync/copy-hold.ts SPLIT_HANDS_OVER).
   */
  handOver?: true;
}

/** An episode of ours that a run deleted: facts resting only on such episodes are stale. */
export interface DeletedEpisode {
  uuid: string;
  groupId: string;
  at: string;
}

export interface FileRecord {
  /** `${source}:${relPath}` */
  id: string;
  source: string;
  kind: SourceKind;
  relPath: string;
  project?: string;
  /** Stable short hash of source+relPath, used in markers (memory/hash.ts `fileIdOf`). */
  fileId: string;
  /** Content hash of what was (or will be) sent. */
  hash?: string;
  mtimeMs: number;
  size: number;
  status: FileStatus;
  skipReason?: string;
  /** The current version's episode parts. */
  episodes: EpisodeRef[];
  /** Older versions' episodes still to delete (uuid may be unknown yet). */
  superseded: EpisodeRef[];
  attempts: number;
  lastError?: string;
  redactions?: number;
  warnings?: string[];
  firstSeenAt: string;
  updatedAt: string;
  queuedAt?: string;
  confirmedAt?: string;
  /**
   * Break-before-make (sync/retire.ts): the older version was deleted before this one is in the
   * graph. Until it is confirmed the context cache keeps serving the last good facts.
   */
  bridgingSince?: string;
  /**
   * Break-before-make: the older version's parts deleted before this version was in the graph.
   * Kept until this version is confirmed: if it cannot be stored, they are sent again from their
   * kept text (state/kept-text.ts, sync/restore.ts), so the note is never left with no version.
   */
  bridgedFrom?: EpisodeRef[];
  /**
   * A version of the file that could not be stored (dropped past its re-sends, or rejected) after
   * its older version was deleted: the older one was sent again (`episodes` are its parts). That
   * text is not tried again until the file changes or `sync --force`.
   */
  failedVersion?: { hash: string; error: string; at: string };
  /**
   * A note this machine signs (issue 42, sync/note-signing.ts): the version and parent its current
   * parts' tags carry, and the project id (absent in records written before it was kept). A part
   * sent again carries the same; the next version is above it.
   */
  noteTag?: { version: number; parent: number; project?: string };
}

export interface SyncState {
  tool: 'graphiti-memory-sync';
  /** The format's version (state/format.ts `STATE_VERSION` once loaded: older ones are migrated on load). */
  version: number;
  createdAt: string;
  updatedAt: string;
  /** Null-prototype object keyed by file id. */
  files: Record<string, FileRecord>;
  /** Episodes of deleted files still to delete. */
  orphans: EpisodeRef[];
  /** `redactions`: secrets redacted by kind in that run (kinds and counts, never values). */
  /** `clock`: the system's uptime and boot at its start (sync/clock-jump.ts CLOCK_JUMPED_FORWARD). */
  lastRun?: { startedAt: string; finishedAt?: string; summary?: Record<string, number>; redactions?: Record<string, number>; clock?: { uptimeMs: number; awakeMs?: number; bootId?: string } };
  /**
   * The newest episodes of ours that were deleted (at most 5,000): the context leaves out, and the
   * fact clean-up removes, facts resting only on them (sync/fact-cleanup.ts). A hint: a lost list
   * only means such facts are no longer recognised.
   */
  deletedEpisodes?: DeletedEpisode[];
  /** What each group's listings showed of its pace (sync/pace.ts); a hint, rebuilt when lost. */
  groups?: Record<string, GroupPace>;
  /** Snapshot generation; the journal of changes made after this snapshot is `state.journal-<generation>.jsonl`. */
  generation?: number;
  /** The folder each source name stood for (sync/source-roots.ts): a name given to another folder is not taken for the same notes. */
  sourceRoots?: Record<string, string>;
  /**
   * When this machine took up a state made on another machine (sync/copy-hold.ts): every part it
   * named then is `foreign`, so the parts that are not were sent here (`origin --split` retires them).
   */
  takenUpAt?: string;
  /** The server this state last reached (state/server-of-record.ts SERVER_OF_RECORD): another one is looked at as `sync --force` does. */
  server?: string;
  /** The configured sources a `sync --source` run on this server left out, still owed its first look (state/server-of-record.ts LOOK_OWED_TO_SOURCES_LEFT_OUT). */
  serverLookOwed?: string[];
  /**
   * By server: the parts this state knew there when it moved to another one (sync/deleted-while-away.ts
   * DELETED_WHILE_AWAY); back on that server, those of notes deleted meanwhile are deleted there.
   */
  leftOn?: Record<string, EpisodeRef[]>;
  /** By server: when this state left it (sync/deleted-while-away.ts LEFT_LIST_BOUND: `leftOn` keeps only what it owes after LEFT_LIST_DAYS). */
  leftOnSince?: Record<string, string>;
  /**
   * The last look at the episodes this machine's unchanged notes rest on, and the wait until the next
   * (sync/copy-hold.ts COPY_WATCH); `witnesses`: by group, episodes that look saw there that the
   * other machine's sync never deletes (CLEARED_WITNESS).
   */
  copyWatch?: { at: string; everyMs: number; witnesses?: Record<string, string[]> };
}

/** One group's pace as the server showed it (sync/pace.ts owns the rules). */
export interface GroupPace {
  /** Episodes the group held at its last complete listing. */
  size?: number;
  /** Epoch ms before which the group is not listed again (back-off while ours wait). */
  nextListingAt?: number;
  backoffMs?: number;
  /** Recent queue waits of our episodes (server start − our queuing, skew-corrected), ms. */
  waitsMs?: number[];
  /** Recent processing times of one episode in this group, ms. */
  stepsMs?: number[];
  /** Recent upper bounds of how long our episodes took to appear (queued → seen in a listing), ms. */
  appearMs?: number[];
  /** Before issue 24: the smallest (created_at − queuedAt) ever seen. No longer read (one late sighting made it stick). */
  skewMs?: number;
  /** Recent (server created_at − our queuedAt) of our episodes, signed, ms: the clock skew's samples. */
  skewsMs?: number[];
  /**
   * Recent proven lower bounds of how far the server's clock is ahead of ours, signed, ms: an episode
   * of ours, started before the listing that showed it came back, gives (created_at − that moment)
   * (sync/pace.ts SERVER_AHEAD_PROVEN).
   */
  aheadBoundsMs?: number[];
  /** Recent wall times of one listing of the group, ms: what a listing costs the server. */
  listMs?: number[];
  /**
   * Our recent costly looks at the group, each [start, end] on our clock (epoch ms): the server runs
   * a listing on the loop that runs its queue, so the episode in progress took that much longer, and
   * a processing time measured across a look is the episode's own plus the look (sync/pace.ts).
   */
  looks?: Array<[number, number]>;
  /** Epoch ms before which another listing would spend more than its share of the server's time (sync/schedule.ts). */
  budgetAt?: number;
  /** Where the queue stood at the last look: when the latest-started episode of ours seen started (our clock), epoch ms. */
  headAt?: number;
  /**
   * Where that episode stood in the order we sent in, epoch ms: its send position (sync/send-order.ts,
   * with a fraction that tells apart the parts sent in one millisecond; a whole millisecond where it
   * had no send order). The parts sent after it are still ahead of the worker.
   */
  headSentAt?: number;
  /**
   * Where that episode's reply stood among our hand-offs, epoch ms (sync/send-order.ts
   * `repliedPosition`): the parts handed off after it are proven queued after it (PROVEN_ORDER), so a
   * sample's span may start there. Absent in states before it: its hand-off stands in, the order then.
   */
  headRepliedAt?: number;
  /**
   * The latest hand-off (a send position) of a part seen to start no later than the head, the head's
   * own at least (sync/pace.ts HEAD_PROOF): a part whose reply came before it is proven queued before
   * the head. Absent in states before it: the head's own hand-off stands in.
   */
  headProofAt?: number;
  /**
   * A look before this time (epoch ms: the predicted end) is a pace sample (a slice of the group,
   * sync/pace.ts `sampleCap`); a later one, or none set, is a full listing.
   */
  sampleUntil?: number;
  /**
   * The group's latest time lay ahead of our clock (a clock set back since: sync/pace.ts
   * CLOCK_SET_BACK): that time (epoch ms) and when our clock first saw it so. Absent otherwise.
   */
  ahead?: { newest: number; seenAt: number };
}

/**
 * One change appended to the journal between snapshots: a whole record (or its removal), or the
 * whole orphan list. Whole values, not patches, so replay is idempotent and order is all that matters.
 */
export type JournalEntry =
  | { k: 'file'; id: string; record: FileRecord | null }
  | { k: 'orphans'; orphans: EpisodeRef[] }
  | { k: 'meta'; lastRun: NonNullable<SyncState['lastRun']> };

export interface LoadedState {
  state: SyncState;
  /** Set when the previous file was unusable and has been moved to `corruptPath`. */
  recovered?: { reason: string; corruptPath: string };
  /** True when no usable state existed (missing file or recovered). */
  fresh: boolean;
  /** How many journal entries were replayed on top of the snapshot. */
  journalEntries?: number;
}

export interface LoadStateOptions {
  /** Never modify anything on disk (dry runs, `status`): a damaged file is reported, not moved aside. */
  readOnly?: boolean;
}

/** The state file belongs to another tool or to a newer version of this one: we refuse to touch it. */
export class StateConflictError extends Error {
  constructor(
    message: string,
    readonly path: string,
    readonly kind: 'foreign' | 'newer',
    readonly foundTool: string | undefined,
    readonly foundVersion: number | undefined,
  ) {
    super(message);
    this.name = 'StateConflictError';
  }
}
