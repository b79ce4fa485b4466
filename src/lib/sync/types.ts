/** The sync engine's public shapes (options and summary) and the state shared by one run's phases. */
import type { NoteSigner } from './note-signing.js';
import type { Config } from '../config/config.js';
import type { GraphitiClient } from '../graphiti/graphiti.js';
import type { EpisodeDraft } from '../memory/episode.js';
import type { RedactionsByKind } from '../memory/redact.js';
import type { MemorySource } from '../memory/types.js';
import type { ResolvedSemantics } from '../graphiti/server-rules.js';
import type { FileRecord, SyncState } from '../state/state.js';
import type { Logger } from '../util/log.js';
import type { Ledger } from './ledger.js';
import type { ClockMark } from './clock-jump.js';

export interface SyncOptions {
  dryRun?: boolean;
  /** Re-read every file (ignore the mtime+size shortcut), retry failed files, reset resend counters. */
  force?: boolean;
  /** Send ours even for notes the madeinoz hook sent unchanged, and delete its episodes (adopt-prior.ts). */
  replacePrior?: boolean;
  /**
   * `sync --release-held`: delete the retired episodes held back (sync/retire.ts) now, although
   * this server's delete then takes the facts they created that other episodes still state.
   */
  releaseHeld?: boolean;
  /**
   * False: this run never probes the server's rules (sync.ts PROBE_WHEN_NEEDED), whatever it
   * deletes; where they are not known it goes by the cautious ones. The session-start worker's
   * pass (its pull and context refresh follow the sync). Default true.
   */
  mayProbe?: boolean;
  /**
   * A reader needs the server's rules now (sync.ts PROBE_WHEN_NEEDED): the run reaches the server
   * and probes them if they are not known, as a run that deletes would (budgets, queue rule and
   * all). The worker, for a context that left entity summaries out only because the rules are not
   * known (context/context.ts SUMMARIES_WANT_RULES). Default false.
   */
  rulesWanted?: boolean;
  /** Only this source (`pai`, `auto-memory` or an extra source name). */
  source?: string;
  /** Send at most this many files in this run; the rest stay pending. */
  max?: number;
  /** After sending, wait up to this many ms for queued episodes to become visible. */
  waitMs?: number;
  signal?: AbortSignal;
  onProgress?: (p: { done: number; total: number; file?: string }) => void;
  lockTimeoutMs?: number;
  /** Who is syncing, recorded in the lock so a waiting process can say who holds it. */
  lockLabel?: string;
  /** Called when waiting for another process's lock (again whenever the holder changes). */
  onLockWait?: (holder: string) => void;
  logger?: Logger;
  graphiti?: GraphitiClient;
  /** Clock, for tests of age-based re-sends (and, with `sleep`, of `sync --wait`). */
  now?: () => number;
  /**
   * How the run waits: `sync --wait` between its passes, the plan for a note caught mid-write
   * (mid-write.ts) (default: util/backoff.ts `sleep`). A test passes
   * its fake clock's advance here, with that clock's `now` and a test server whose queue runs on
   * the same clock, so the wait's schedule plays out in simulated time: fast, and the same however
   * busy the machine is.
   */
  sleep?: (ms: number) => Promise<void>;
  /**
   * The system's uptime and boot at the run's start (clock-jump.ts CLOCK_JUMPED_FORWARD; default
   * `clockMarkNow`). A run on an injected `now` has none unless given here (the system's uptime says
   * nothing of a test's clock, which jumps at will): no jump is judged, and none recorded.
   */
  clockMark?: () => ClockMark;
}

export interface SyncProblem {
  id: string;
  reason: string;
  message: string;
}

export type PlannedAction = 'add' | 'update' | 'sign' | 'delete' | 'rename' | 'skip' | 'fail' | 'send';

/** What a run did, counted once: the run keeps these, and the summary reports them as they are. */
export interface SyncCounts {
  added: number;
  updated: number;
  /** Notes sent before this machine's note key was in place, re-sent once with their tag (sync/note-signing.ts). */
  signed: number;
  deleted: number;
  unchanged: number;
  /**
   * Files an earlier run left unsent (in the outbox: a run interrupted by a stop, a refused
   * endpoint, `--max`), unchanged since: sent by this run or kept for the next. With `added`,
   * `updated`, `signed`, `renamed` and `unchanged` it counts once every file the scan found that
   * is not skipped or failed (those are counted by status).
   */
  resumed: number;
  renamed: number;
  /** Files found already in the graph (a lost state, a crash after sending) and taken over instead of sent (not counted as added). */
  adopted: number;
  /** Parts sent again this run, whatever the reason (`resentFor` says which). */
  resent: number;
  /** What was sent again, by why (RESENT_WHY): parts for `dropped`, notes for the others. */
  resentFor: Record<ResentWhy, number>;
  duplicatesRemoved: number;
  /** Facts removed one by one: left behind by deleted episodes (fact-cleanup.ts) or resting only on a held one (retire.ts). */
  factsRemoved: number;
  /** Retired episodes kept this run because deleting them would delete facts another episode states (retire.ts). */
  held: number;
  /** What confirming cost: get_episodes calls (`samples` of them pace samples of a busy group, pace.ts), and the episodes they listed. */
  listing: { requests: number; episodes: number; samples: number };
  /** Secrets redacted before sending, by kind (`{ 'github-token': 1 }`); kinds and counts, never values. */
  redactionsByKind: RedactionsByKind;
}

/**
 * RESENT_WHY: why a sync sends again what it sent before, each told in its own words
 * (commands/reports.ts RESENT_WORDS). `dropped`: parts the server took and never stored, or lost
 * with its queue on a restart (confirm.ts); `lost`: notes a complete listing of `sync --force` no
 * longer shows, so the graph lost them (force-look.ts FORCE_LOOK), not the server's dropping;
 * `goneElsewhere`: notes whose episode another machine with this origin deleted, sent again as
 * this machine's own (copy-hold.ts COPY_WATCH).
 */
export type ResentWhy = 'dropped' | 'lost' | 'goneElsewhere';

export function emptyCounts(): SyncCounts {
  return { added: 0, updated: 0, signed: 0, deleted: 0, unchanged: 0, resumed: 0, renamed: 0, adopted: 0, resent: 0, resentFor: { dropped: 0, lost: 0, goneElsewhere: 0 }, duplicatesRemoved: 0, factsRemoved: 0, held: 0, listing: { requests: 0, episodes: 0, samples: 0 }, redactionsByKind: {} };
}

export interface SyncSummary extends SyncCounts {
  skipped: number;
  failed: number;
  pending: number;
  queued: number;
  confirmed: number;
  /** Retired episodes whose delete, at the run's end, waits for the server to be on their group again (sync/group-reach.ts). */
  awaitingGroup: number;
  /** Secrets redacted before sending, in total (by kind: `redactionsByKind`). */
  redactions: number;
  /** Ms until the next listing of a group where parts of ours wait to be seen (schedule.ts); absent when none waits. */
  nextListingInMs?: number;
  problems: SyncProblem[];
  serverReachable: boolean;
  serverError?: string;
  /** What the server's delete removes and how that was learned (graphiti/server-rules.ts); absent when the run did not talk to it. */
  semantics?: ResolvedSemantics;
  /**
   * Groups where a listing of this run no longer showed notes of this machine the state calls
   * confirmed, with how many and which: each part's note id and the episode it rested on
   * (force-look.ts LOST_SEEN_IN_PASSING; context/lost-notes.ts LOST_OWNS_ITS_NOTES); absent when none.
   */
  lostSeen?: Array<{ group: string; notes: number; parts: LostPart[] }>;
  dryRun: boolean;
  /** What a dry run would do, per file id. */
  plannedActions?: Array<{ id: string; action: PlannedAction }>;
}

/** A file whose parts are to be sent this run, with the bodies of those parts by marker. */
export interface Outgoing {
  record: FileRecord;
  drafts: Map<string, EpisodeDraft>;
}

/** Whether the server answered this run; the first transient failure stops all sending. */
export class ServerHealth {
  reachable = true;
  error: string | undefined;

  constructor(private readonly logger: Logger) {}

  markDown(error: unknown): void {
    if (!this.reachable) return;
    this.reachable = false;
    this.error = error instanceof Error ? error.message : String(error);
    this.logger.warn('server unavailable; work stays pending for the next run', { error: this.error });
  }
}

/** What a run works with and never replaces: its inputs, its clock and what it knows of the server. */
export interface RunEnv {
  readonly config: Config;
  readonly options: SyncOptions;
  readonly logger: Logger;
  readonly sources: readonly MemorySource[];
  readonly now: () => number;
  /** Whether the server answered; the first transient failure stops all sending. */
  readonly server: ServerHealth;
  /** Signs a linked machine's notes (note-signing.ts, issue 42); undefined when not linked. */
  readonly signer?: NoteSigner | undefined;
}

/**
 * What a run changes: the live state (written to disk only through its ledger), the files with
 * parts to send (by record id), and its tallies (one `SyncCounts`, reported as they are).
 */
export interface RunBook {
  readonly state: SyncState;
  readonly ledger: Ledger;
  readonly outgoing: Map<string, Outgoing>;
  readonly counts: SyncCounts;
  readonly problems: SyncProblem[];
  /** The sleep this run already counted (SLEPT_WITH_THE_SERVER in `sync --wait`): `lastRun`'s mark leaves it out, so the next run does not count it again. */
  readonly slept: { toldMs: number };
  /** Parts by group (their note's record id, the episode they rested on) whose confirmed episode a listing of this run no longer showed (force-look.ts LOST_SEEN_IN_PASSING). */
  readonly lostSeen: Map<string, LostPart[]>;
}

/** The phases after planning that need no server (the summary, a dry run). */
export type RunContext = RunEnv & RunBook;

/** The phases that talk to the server. */
export type OnlineRun = RunContext & { readonly graphiti: GraphitiClient };

export { SyncError } from './errors.js';

/** A part a listing no longer showed: its note's record id and the episode uuid it rested on (SyncSummary `lostSeen`). */
export interface LostPart {
  id: string;
  uuid: string;
}
