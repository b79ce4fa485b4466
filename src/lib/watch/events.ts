/**
 * The events a watcher reports (to tests, to the CLI output, to the log), and their
 * text / JSON renderings for the three output modes of `watch`.
 */
import type { SyncSummary } from '../sync/sync.js';
import type { SyncProblem } from '../sync/types.js';
import type { BackoffReason, PassReason, SchedulerPhase } from './scheduler.js';
import { cli } from '../util/install-route.js';

export type FsEventKind = 'add' | 'change' | 'unlink' | 'addDir' | 'unlinkDir';

export interface ReadyEvent {
  event: 'ready';
  /** Enabled source folders. */
  folders: number;
  roots: string[];
  /** Roots that do not exist yet (their nearest existing parent is watched instead). */
  missing: string[];
  poll: boolean;
}
export interface ChangeEvent {
  event: 'change';
  kind: FsEventKind;
  path: string;
  source: string;
  relPath: string;
}
export interface PassStartEvent {
  event: 'pass-start';
  pass: number;
  reason: PassReason;
}
/** A pass's counts: the engine's summary fields, with the problems counted rather than listed. */
export type PassCounts = Pick<
  SyncSummary,
  'added' | 'updated' | 'deleted' | 'renamed' | 'unchanged' | 'skipped' | 'failed' | 'pending' | 'queued' | 'confirmed' | 'resent'
> & { problems: number };
export interface PassEvent extends PassCounts {
  event: 'pass';
  pass: number;
  reason: PassReason;
  durationMs: number;
  serverReachable: boolean;
  serverError?: string;
  /** The full engine summary (not rendered in JSON output). */
  summary: SyncSummary;
}
export interface BackoffEvent {
  event: 'backoff';
  reason: BackoffReason;
  delayMs: number;
  attempt: number;
  message?: string;
  pending: number;
  queued: number;
  /** For the server: what is wrong and what fixes it, when known (the CLI's next-step rule, RunWatchOptions.nextStep). */
  nextStep?: string;
}
export interface WatchErrorEvent {
  event: 'error';
  message: string;
  fatal: boolean;
  origin: 'pass' | 'fs' | 'start' | 'settings';
}
/** The settings were read again at a pass's start and differ (settings-change.ts), or could not be used. */
export interface SettingsEvent {
  event: 'settings';
  /** Source roots now watched, and no longer watched (`name=root`). */
  added: string[];
  removed: string[];
  /** The settings that changed (Config field names; never their values). */
  changed: string[];
  /** What it means, for people. */
  notes: string[];
}
export interface PhaseEvent {
  event: 'phase';
  phase: SchedulerPhase;
}
export interface StoppedEvent {
  event: 'stopped';
  code: number;
  passes: number;
  signal?: string;
}

export type WatchEvent = ReadyEvent | ChangeEvent | PassStartEvent | PassEvent | BackoffEvent | WatchErrorEvent | SettingsEvent | PhaseEvent | StoppedEvent;

export function describeSettings(event: SettingsEvent): string {
  return `settings changed: ${event.notes.length === 0 ? 'nothing the watch does' : event.notes.join('; ')}`;
}

export function countsOf(summary: SyncSummary): PassCounts {
  return {
    added: summary.added,
    updated: summary.updated,
    deleted: summary.deleted,
    renamed: summary.renamed ?? 0,
    unchanged: summary.unchanged,
    skipped: summary.skipped,
    failed: summary.failed,
    pending: summary.pending,
    queued: summary.queued,
    confirmed: summary.confirmed,
    resent: summary.resent ?? 0,
    problems: summary.problems.length,
  };
}

/** Events worth a JSON line (`phase` and `pass-start` are internal). */
export function jsonLine(event: WatchEvent, at: Date = new Date()): string | undefined {
  if (event.event === 'phase' || event.event === 'pass-start') return undefined;
  if (event.event === 'pass') {
    const { summary, ...rest } = event;
    return JSON.stringify({ t: at.toISOString(), ...rest, ...(summary.problems.length === 0 ? {} : { problemFiles: summary.problems }) });
  }
  return JSON.stringify({ t: at.toISOString(), ...event });
}

function seconds(ms: number): string {
  return ms < 10_000 ? `${Math.max(0.1, Math.round(ms / 100) / 10)}s` : `${Math.round(ms / 1000)}s`;
}

export function describePass(event: PassEvent): string {
  const renamed = event.renamed > 0 ? `, renamed ${event.renamed}` : '';
  const failed = event.failed > 0 ? `, failed ${event.failed}` : '';
  const server = event.serverReachable ? '' : ` | server unreachable${event.serverError === undefined ? '' : `: ${event.serverError}`}`;
  // Files the pass found (as `sync` words it: nothing reads as "added" that was not sent), then where they stand.
  return `pass: new ${event.added}, changed ${event.updated}, removed ${event.deleted}${renamed} | confirmed ${event.confirmed}, queued ${event.queued}, pending ${event.pending}${failed}${server}`;
}

export function describeBackoff(event: BackoffEvent): string {
  const wait = seconds(event.delayMs);
  switch (event.reason) {
    case 'server':
      return `waiting for server (retry in ${wait})${event.message === undefined ? '' : `: ${event.message}`}`;
    case 'lock':
      return `another sync holds the lock (retry in ${wait})`;
    case 'confirm':
      return `confirming ${event.queued} queued (next check in ${wait})`;
    default:
      return `pass failed (retry in ${wait})${event.message === undefined ? '' : `: ${event.message}`}`;
  }
}

/**
 * The files a pass could not send, each with its reason, and what to do (the counts alone said
 * "failed 1", naming nothing). Worded as `sync` words them (commands/reports.ts).
 */
export function problemLines(problems: readonly SyncProblem[]): string[] {
  if (problems.length === 0) return [];
  return [...problems.map((p) => `  ${p.id}: ${p.message}`), `  next step: fix these files; each is synced again when it changes (\`${cli()} status\` lists every file not synced)`];
}

/** One plain-text log line per event for non-TTY output, or undefined for events not worth a line (a pass's problems: `problemLines`). */
export function textLine(event: WatchEvent, at: Date = new Date()): string | undefined {
  const t = at.toISOString();
  switch (event.event) {
    case 'ready':
      return `${t} watching ${event.folders} folder${event.folders === 1 ? '' : 's'}${event.missing.length > 0 ? ` (${event.missing.length} not created yet)` : ''}${event.poll ? ' (polling)' : ''}: ${event.roots.join(', ')}`;
    case 'pass':
      return `${t} ${describePass(event)}`;
    case 'backoff':
      if (event.reason === 'confirm') return undefined;
      // The next step once per outage (its first retry), not on every retry.
      return event.nextStep !== undefined && event.attempt === 1 ? `${t} ${describeBackoff(event)}\n  ${event.nextStep}` : `${t} ${describeBackoff(event)}`;
    case 'error':
      return `${t} error: ${event.message}`;
    case 'settings':
      return `${t} ${describeSettings(event)}`;
    case 'stopped':
      return `${t} stopped after ${event.passes} pass${event.passes === 1 ? '' : 'es'}`;
    default:
      return undefined;
  }
}

/**
 * A pass's problems not already shown after the pass before it. The engine reports a failed file
 * in the pass that found it failing, but a scan problem (an unreadable folder, a name that is not
 * UTF-8) in every pass: shown on every save, it buried what the passes said.
 */
export function freshProblems(): (problems: readonly SyncProblem[]) => SyncProblem[] {
  let before = new Set<string>();
  return (problems) => {
    const key = (p: SyncProblem) => `${p.id}\n${p.message}`;
    const fresh = problems.filter((p) => !before.has(key(p)));
    before = new Set(problems.map(key));
    return fresh;
  };
}

export { seconds as formatSeconds };
