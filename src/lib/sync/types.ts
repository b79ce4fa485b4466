/** The sync engine's public shapes (options and summary) and the state shared by one run's phases. */
import type { Config } from '../config/config.js';
import type { GraphitiClient } from '../graphiti/graphiti.js';
import type { EpisodeDraft } from '../memory/episode.js';
import type { RedactionsByKind } from '../memory/redact.js';
import type { MemorySource } from '../memory/types.js';
import type { EpisodeRef, FileRecord, SyncState } from '../state/state.js';
import type { Logger } from '../util/log.js';
import type { Ledger } from './ledger.js';

export interface SyncOptions {
  dryRun?: boolean;
  /** Re-read every file (ignore the mtime+size shortcut), retry failed files, reset resend counters. */
  force?: boolean;
  /** Send ours even for notes the madeinoz hook sent unchanged, and delete its episodes (adopt-prior.ts). */
  replacePrior?: boolean;
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
  /** Clock, for tests of age-based re-sends. */
  now?: () => number;
}

export interface SyncProblem {
  id: string;
  reason: string;
  message: string;
}

export type PlannedAction = 'add' | 'update' | 'delete' | 'rename' | 'skip' | 'fail' | 'send';

export interface SyncSummary {
  added: number;
  updated: number;
  deleted: number;
  unchanged: number;
  renamed: number;
  /** Files found already in the graph and taken over instead of sent (not counted as added). */
  adopted: number;
  skipped: number;
  failed: number;
  pending: number;
  queued: number;
  confirmed: number;
  resent: number;
  duplicatesRemoved: number;
  /** Facts Graphiti had left behind on episodes this run deleted, removed (fact-cleanup.ts). */
  factsRemoved: number;
  /** What confirming cost: get_episodes calls, and the episodes they listed. */
  listing: { requests: number; episodes: number };
  /** Ms until the next listing of a group where parts of ours wait to be seen (schedule.ts); absent when none waits. */
  nextListingInMs?: number;
  /** Secrets redacted before sending: the total, and by kind (`{ 'github-token': 1 }`); kinds and counts, never values. */
  redactions: number;
  redactionsByKind: RedactionsByKind;
  problems: SyncProblem[];
  serverReachable: boolean;
  serverError?: string;
  dryRun: boolean;
  /** What a dry run would do, per file id. */
  plannedActions?: Array<{ id: string; action: PlannedAction }>;
}

/** A file whose parts are to be sent this run, with the bodies of those parts by marker. */
export interface Outgoing {
  record: FileRecord;
  drafts: Map<string, EpisodeDraft>;
}

/** What the counters of a run's summary count (statuses are counted from the state at the end). */
export interface RunCounts {
  added: number;
  updated: number;
  deleted: number;
  unchanged: number;
  renamed: number;
  /** Files found already in the graph (a lost state, a crash after sending) and taken over, not sent. */
  adopted: number;
  resent: number;
  duplicatesRemoved: number;
  factsRemoved: number;
  /** get_episodes calls this run, and episodes they returned (the cost of confirmation). */
  listRequests: number;
  listedEpisodes: number;
  /** Secrets redacted, by kind. */
  redactions: RedactionsByKind;
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

/** Everything the phases after planning share: inputs, the live state and its ledger, the run's tallies. */
export interface RunContext {
  config: Config;
  options: SyncOptions;
  logger: Logger;
  sources: MemorySource[];
  state: SyncState;
  ledger: Ledger;
  /** Set once the run needs the server (phases after planning). */
  graphiti: GraphitiClient | undefined;
  server: ServerHealth;
  now: () => number;
  counts: RunCounts;
  problems: SyncProblem[];
  /** Files with parts to send this run, by record id. */
  outgoing: Map<string, Outgoing>;
  /** Parts this run deleted from the graph (retire.ts), for the fact clean-up (fact-cleanup.ts). */
  deletedThisRun: EpisodeRef[];
}

/** The context of the phases that talk to the server. */
export type OnlineRun = RunContext & { graphiti: GraphitiClient };

export { SyncError } from './errors.js';
