/**
 * The `watch` command: runs a Watcher (watch.ts) and reports on it (a status line on a terminal,
 * one line per pass otherwise, JSON lines with --json); Ctrl-C stops it (twice: at once). It also
 * keeps the process's own heap small once a burst of work is over (heap-release.ts).
 */
import type { Config } from '../config/config.js';
import { nullLogger, type Logger } from '../util/log.js';
import { describeBackoff, describePass, describeSettings, freshProblems, jsonLine, problemLines, textLine, type BackoffEvent } from './events.js';
import { HeapReleaser, type HeapReleaserOptions } from './heap-release.js';
import type { PassReason, SchedulerPhase } from './scheduler.js';
import { createWatcher, DEFAULT_STOP_TIMEOUT_MS, NoSourcesError, type Watcher, type WatcherOptions, type WatchEvent } from './watch.js';

export interface WatchIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  isTTY: boolean;
  env?: Record<string, string | undefined>;
  cwd?: string;
}

export interface RunWatchOptions {
  poll?: boolean;
  json?: boolean;
  io: WatchIo;
  logger?: Logger;
  /** Stops the watch like SIGTERM does (tests). */
  signal?: AbortSignal;
  /** Install SIGINT/SIGTERM handlers. Default true. */
  handleSignals?: boolean;
  stopTimeoutMs?: number;
  /** Extra watcher settings (tests, benchmarks). */
  watcher?: Partial<Omit<WatcherOptions, 'config' | 'logger' | 'poll'>>;
  /** When and how the process's heap is given back after a burst (tests); default heap-release.ts's. */
  heap?: Partial<Omit<HeapReleaserOptions, 'logger'>>;
  /** What is wrong with the server and what fixes it, from a pass's server error (the CLI's commands/next-step.ts); undefined: the error says it all. */
  nextStep?: (serverError: string, config: Config) => string | undefined;
}

function statusText(watcher: Watcher, folders: number, phase: SchedulerPhase, lastBackoff: BackoffEvent | undefined, passReason: PassReason | undefined): string {
  const { pending, queued, confirmed, failed } = watcher.counts;
  const counts = `confirmed ${confirmed}, queued ${queued}, pending ${pending}${failed > 0 ? `, failed ${failed}` : ''}`;
  const timer = watcher.pendingTimer;
  switch (phase) {
    case 'syncing':
      return `${passReason === 'confirm' ? 'confirming' : passReason === 'retry' ? 'retrying' : 'syncing'}… | ${counts}`;
    case 'debouncing':
    case 'settling':
      return `changes seen, syncing shortly | ${counts}`;
    case 'backoff':
      if (lastBackoff !== undefined && timer !== undefined) return `${describeBackoff({ ...lastBackoff, delayMs: timer.inMs })} | ${counts}`;
      return `waiting to retry | ${counts}`;
    case 'confirm-wait':
      return `watching ${folders} folder${folders === 1 ? '' : 's'} | ${counts} (confirming in ${Math.round((timer?.inMs ?? 0) / 1000)}s)`;
    case 'stopped':
      return `stopping… | ${counts}`;
    default:
      return `watching ${folders} folder${folders === 1 ? '' : 's'} | ${counts}`;
  }
}

/** Wires a reporter for the CLI's output mode to the watcher's events. */
export function attachReporter(watcher: Watcher, io: WatchIo, mode: 'tty' | 'text' | 'json', nextStep?: (serverError: string, config: Config) => string | undefined): void {
  const withNextStep = (event: WatchEvent): WatchEvent => {
    if (nextStep === undefined || event.event !== 'backoff' || event.reason !== 'server' || event.message === undefined) return event;
    // The settings the watch runs on now: they may have changed since it started.
    const step = nextStep(event.message, watcher.config);
    return step === undefined ? event : { ...event, nextStep: step };
  };
  if (mode === 'json') {
    watcher.on('event', (raw) => {
      const event = withNextStep(raw);
      const line = jsonLine(event);
      if (line !== undefined) io.stdout(`${line}\n`);
    });
    return;
  }
  const problemsToShow = freshProblems();
  if (mode === 'text') {
    watcher.on('event', (raw) => {
      const event = withNextStep(raw);
      const line = textLine(event);
      if (line === undefined) return;
      if (event.event === 'error') io.stderr(`${line}\n`);
      else io.stdout(`${line}\n`);
      if (event.event === 'pass') for (const problem of problemLines(problemsToShow(event.summary.problems))) io.stdout(`${problem}\n`);
    });
    return;
  }
  // TTY: one status line rewritten in place on stderr; errors and pass lines scroll above it.
  let folders = watcher.sources.length;
  let lastBackoff: BackoffEvent | undefined;
  let passReason: PassReason | undefined;
  let phase: SchedulerPhase = 'idle';
  const draw = () => io.stderr(`\r\x1b[2K${statusText(watcher, folders, phase, lastBackoff, passReason)}`);
  const above = (line: string) => io.stderr(`\r\x1b[2K${line}\n`);
  watcher.on('event', (raw) => {
    const event = withNextStep(raw);
    switch (event.event) {
      case 'ready':
        folders = event.folders;
        above(`watching ${event.roots.join(', ')}${event.poll ? ' (polling)' : ''}`);
        if (event.missing.length > 0) above(`not created yet (watching for them): ${event.missing.join(', ')}`);
        break;
      case 'pass-start':
        passReason = event.reason;
        break;
      case 'pass':
        if (event.added + event.updated + event.deleted + event.renamed + event.failed > 0 || !event.serverReachable) above(`${new Date().toLocaleTimeString()} ${describePass(event)}`);
        for (const line of problemLines(problemsToShow(event.summary.problems))) above(line);
        break;
      case 'backoff':
        lastBackoff = event;
        if (event.nextStep !== undefined && event.attempt === 1) above(`${describeBackoff(event)}\n  ${event.nextStep}`);
        break;
      case 'error':
        above(`error: ${event.message}`);
        break;
      case 'settings':
        folders = watcher.sources.length;
        above(`${new Date().toLocaleTimeString()} ${describeSettings(event)}`);
        break;
      case 'phase':
        phase = event.phase;
        break;
      case 'stopped':
        io.stderr(`\r\x1b[2Kstopped after ${event.passes} pass${event.passes === 1 ? '' : 'es'}\n`);
        return;
      default:
        break;
    }
    draw();
  });
}

/**
 * `graphiti-memory-sync watch [--poll] [--json]`: watches until SIGINT/SIGTERM (or `signal`),
 * then resolves with the exit code (0 after a clean stop).
 */
export async function runWatch(config: Config, options: RunWatchOptions): Promise<number> {
  const logger = options.logger ?? nullLogger;
  const io = options.io;
  const watcher = createWatcher({ ...(options.watcher ?? {}), config, logger, poll: options.poll === true });
  attachReporter(watcher, io, options.json === true ? 'json' : io.isTTY ? 'tty' : 'text', options.nextStep);
  // Errors are reported through the reporter (the 'event' channel); keep EventEmitter quiet.
  watcher.on('error', () => undefined);
  // This process's own heap: the garbage of the start-up scan (and of a later burst) is given back
  // once it is over, or an idle watch would keep it for good (heap-release.ts).
  const heap = new HeapReleaser({ ...(options.heap ?? {}), logger: logger.child({ component: 'watch' }) });
  watcher.on('event', (event) => {
    if (event.event === 'ready' || event.event === 'pass') heap.settled();
  });

  let stopRequested = false;
  let giveUp: ((code: number) => void) | undefined;
  const gaveUp = new Promise<number>((r) => {
    giveUp = r;
  });
  const stopTimeoutMs = options.stopTimeoutMs ?? DEFAULT_STOP_TIMEOUT_MS;
  const requestStop = (signal: string) => {
    if (stopRequested) return;
    stopRequested = true;
    void watcher.stop(0, signal);
    // A pass that ignores its abort must not keep the command from returning.
    const timer = setTimeout(() => {
      logger.warn('stop is taking long; returning without waiting for the running pass', { stopTimeoutMs });
      giveUp?.(0);
    }, stopTimeoutMs);
    timer.unref();
    void watcher.done.then(() => clearTimeout(timer));
  };
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopRequested) {
      // Second Ctrl-C: the user wants out now. State writes are atomic and the lock is
      // released by lock.ts's exit handler.
      io.stderr('\nforced exit\n');
      process.exit(130);
    }
    requestStop(signal);
  };
  const onAbort = () => requestStop('abort');
  const handleSignals = options.handleSignals !== false;
  if (handleSignals) {
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  }
  if (options.signal?.aborted === true) onAbort();
  else options.signal?.addEventListener('abort', onAbort, { once: true });

  try {
    try {
      await watcher.start();
    } catch (error) {
      const message = (error as Error).message;
      logger.error('watch could not start', { error: error as Error });
      io.stderr(`Error: ${message}\n`);
      await watcher.stop(error instanceof NoSourcesError ? 2 : 1);
      return error instanceof NoSourcesError ? 2 : 1;
    }
    return await Promise.race([watcher.done, gaveUp]);
  } finally {
    if (handleSignals) {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
    options.signal?.removeEventListener('abort', onAbort);
  }
}
