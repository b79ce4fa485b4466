/**
 * Runs the watcher's sync passes in a child process, so what a pass allocates is given back.
 *
 * Why: a pass over 10,000 notes grows the heap by ~4 KiB per note at its peak (the scan, the
 * state, every file's text and prepared episodes), and neither V8 nor the C allocator gives a
 * grown heap back to the system: a watch that ran its initial sync itself stayed at ~4x its empty
 * size for as long as it ran, though it retained almost nothing. A worker thread gives its V8 heap
 * back when it ends but leaves its C allocator arena behind (20-40 MiB after that sync, varying
 * run to run); a process that exits gives everything back. The watch process itself keeps only
 * the watching (chokidar, filter, scheduler) and never loads the engine.
 *
 * Lifecycle: the child is started by the first pass and kept while passes follow each other; it
 * exits `idleMs` after the last pass settled (a later pass starts a new one). Passes run one at a
 * time (the scheduler never overlaps them), and the child is only asked to exit between passes.
 * The child runs exactly the pass the watcher used to run (pass-process-entry.ts), so the state
 * lock's one-writer rule is the engine's as before: the child takes the lock for the pass only,
 * and if the watcher dies the child aborts its pass (state saved) and exits.
 *
 * Failures: a pass's error comes back as the same error (name, message, code: the scheduler's
 * backoff and fatal rules read them). If the child itself dies (it could not start, it crashed,
 * it was killed), the running pass fails with PassProcessExitError, which the scheduler reports
 * and retries with backoff like any other error; the next pass starts a new child.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Config } from '../config/config.js';
import { processEnv } from '../config/process-env.js';
import type { SyncSummary } from '../sync/types.js';
import type { Logger, LogLevel } from '../util/log.js';
import { filesFingerprint, packageRoot } from '../util/package-root.js';
import { revivedError, type FromPassProcess, type ToPassProcess } from './pass-protocol.js';
import { cli } from '../util/install-route.js';

/** How long the child is kept after a pass, so a burst of saves does not start one per pass. */
export const DEFAULT_PASS_PROCESS_IDLE_MS = 2_000;
/** How long a child started ahead of a pass (prepare) waits for it: longer than the write check and the debounce. */
const PREPARED_KEEP_MS = 10_000;
/** How much of the child's stderr is kept to explain its death. */
const STDERR_TAIL_CHARS = 2_000;

export interface PassProcessOptions {
  config: Config;
  logger: Logger;
  /** Lock wait per pass (runSync's lockTimeoutMs). */
  lockTimeoutMs: number;
  /** Keep the child this long after a pass; default DEFAULT_PASS_PROCESS_IDLE_MS. */
  idleMs?: number;
  /** The lowest level `logger` writes: lower lines are dropped in the child. Default config.logLevel. */
  logLevel?: LogLevel;
  /** The package's files as they are on disk now (tests inject one); default `packageFingerprint`. */
  fingerprint?: () => string;
}

/**
 * The files a new pass child loads first: its entry (beside this module) and the package's
 * package.json. Compared with what they were when the watch started (`PassProcess`).
 */
export function packageFingerprint(): string {
  return filesFingerprint([passProcessCommand().script, join(packageRoot(import.meta.url), 'package.json')]);
}

/**
 * The package was replaced on disk (an upgrade, a rebuild) while the watch ran. A new child would
 * run the new engine under this older watch (its settings, its messages, its protocol): mixed code.
 * So no pass runs; the watch ends (exit 1, which a service unit restarts) and the next start runs
 * the new version from the beginning, with a full sync.
 */
export class PackageChangedError extends Error {
  constructor() {
    super(`graphiti-memory-sync was replaced on disk (upgraded or rebuilt) while watch ran: this watch stops so the old and the new version never run together. Start \`${cli()} watch\` again (a service restarts it by itself); it syncs everything changed meanwhile`);
    this.name = 'PackageChangedError';
  }
}

/** The child running the passes ended while a pass was running in it (it crashed, could not start, was killed). */
export class PassProcessExitError extends Error {
  constructor(detail: string) {
    super(`the sync pass process stopped (${detail}); the pass is retried. If it keeps failing, run \`${cli()} sync\` to see the error directly`);
    this.name = 'PassProcessExitError';
  }
}

interface Waiting {
  resolve: (summary: SyncSummary) => void;
  reject: (error: Error) => void;
  cleanup: () => void;
}

/**
 * How to start the child: node and the entry beside this module (dist: .js). From source (tests,
 * `npx tsx src/cli.ts watch`) the entry is .ts and gets tsx's loader, resolved from this package
 * (as the hooks' worker does: worker/spawn.ts).
 */
export function passProcessCommand(hereUrl: string = import.meta.url): { script: string; execArgv: string[] } {
  const here = fileURLToPath(hereUrl);
  const ext = extname(here);
  const script = join(dirname(here), `pass-process-entry${ext}`);
  const execArgv = ext === '.ts' ? ['--import', pathToFileURL(createRequire(hereUrl).resolve('tsx')).href] : [];
  return { script, execArgv };
}

/** A child has exited: `planned` when it was let go (idle, close), not when it died. */
export interface PassProcessExit {
  pid: number | undefined;
  code: number | null;
  signal: NodeJS.Signals | null;
  planned: boolean;
}

export class PassProcess extends EventEmitter<{ exit: [PassProcessExit] }> {
  private child: ChildProcess | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  private nextId = 1;
  private readonly waiting = new Map<number, Waiting>();
  private closed = false;
  private childrenStarted = 0;

  /** The package on disk when the watch started: a pass runs only while it is still that one. */
  private readonly startedAs: string;

  constructor(private readonly options: PassProcessOptions) {
    super();
    this.startedAs = (options.fingerprint ?? packageFingerprint)();
  }

  /** The package's files are no longer those the watch started with. */
  private packageChanged(): boolean {
    return (this.options.fingerprint ?? packageFingerprint)() !== this.startedAs;
  }

  /** The running child's pid, if one runs now (holding its memory). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** How many children have been started so far (a warm one is reused, an idle one has exited). */
  get started(): number {
    return this.childrenStarted;
  }

  /** Runs one sync pass in the child with `config` (default: the settings it was made with); `signal` aborts it there (its state is saved, as in runSync). */
  run(signal: AbortSignal, config: Config = this.options.config): Promise<SyncSummary> {
    if (this.closed) return Promise.reject(new Error('the watcher is stopping: no new sync pass'));
    if (this.packageChanged()) {
      // Checked before every pass, a warm child too: it may still load modules lazily from disk.
      const child = this.child;
      this.child = undefined;
      this.clearIdle();
      if (child !== undefined) void this.release(child);
      return Promise.reject(new PackageChangedError());
    }
    this.clearIdle();
    const child = this.child ?? this.start();
    const id = this.nextId++;
    return new Promise<SyncSummary>((resolve, reject) => {
      const onAbort = () => this.send(child, { type: 'abort', id, reason: (signal.reason as Error | undefined)?.message ?? 'aborted' });
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.set(id, { resolve, reject, cleanup: () => signal.removeEventListener('abort', onAbort) });
      this.send(child, { type: 'run', id, config });
      if (signal.aborted) onAbort();
    });
  }

  /**
   * A pass is coming (a file changed; the write check and the debounce come first): start the
   * child now, so its start-up (node, the engine's modules) overlaps that wait instead of adding
   * to it. If no pass follows, it exits after a while (the longer of idleMs and PREPARED_KEEP_MS).
   */
  prepare(): void {
    if (this.closed || this.waiting.size > 0 || this.packageChanged()) return;
    if (this.child === undefined) this.start();
    this.clearIdle();
    this.idleIfDone(Math.max(this.idleMs, PREPARED_KEEP_MS));
  }

  private get idleMs(): number {
    return this.options.idleMs ?? DEFAULT_PASS_PROCESS_IDLE_MS;
  }

  /** Lets the child go (call once no pass runs: Watcher.stop waits for the scheduler first). */
  async close(): Promise<void> {
    this.closed = true;
    this.clearIdle();
    const child = this.child;
    this.child = undefined;
    this.failAll('the watcher stopped');
    if (child !== undefined) await this.release(child);
  }

  private start(): ChildProcess {
    const { script, execArgv } = passProcessCommand();
    // stdout ignored: the watch's own stdout carries its output (JSON lines with --json).
    const child = fork(script, [], { execArgv, env: processEnv(), serialization: 'advanced', stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    this.childrenStarted++;
    this.child = child;
    let stderr = '';
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (text: string) => {
      stderr = (stderr + text).slice(-STDERR_TAIL_CHARS);
    });
    child.on('message', (message: FromPassProcess) => this.receive(message));
    child.on('error', (error) => {
      this.options.logger.error('sync pass process failed', { component: 'watch', error });
      // It never started (no pid): there will be no 'exit' to fail its pass.
      if (child.pid === undefined && this.child === child) {
        this.child = undefined;
        this.failAll(`it could not be started: ${error.message}`);
      }
    });
    child.on('exit', (code, signal) => {
      // A child let go on purpose (idle, close) had no pass left; only a running one's end fails passes.
      const planned = this.child !== child;
      if (!planned) {
        this.child = undefined;
        const detail = signal !== null ? `killed by ${signal}` : `exit code ${code}`;
        this.options.logger.error('sync pass process stopped', { component: 'watch', detail, ...(stderr.trim() === '' ? {} : { stderr: stderr.trim() }) });
        this.failAll(detail);
      }
      this.emit('exit', { pid: child.pid, code, signal, planned });
    });
    this.send(child, { type: 'init', data: { lockTimeoutMs: this.options.lockTimeoutMs, logLevel: this.options.logLevel ?? this.options.config.logLevel } });
    return child;
  }

  private receive(message: FromPassProcess): void {
    if (message.type === 'log') {
      this.options.logger.child(message.base)[message.level](message.msg, message.fields);
      return;
    }
    const waiting = this.waiting.get(message.id);
    if (waiting === undefined) return;
    this.waiting.delete(message.id);
    waiting.cleanup();
    if (message.type === 'done') waiting.resolve(message.summary);
    else waiting.reject(revivedError(message.error));
    this.idleIfDone();
  }

  private failAll(detail: string): void {
    for (const [id, waiting] of this.waiting) {
      this.waiting.delete(id);
      waiting.cleanup();
      waiting.reject(new PassProcessExitError(detail));
    }
  }

  private send(child: ChildProcess, message: ToPassProcess): void {
    if (!child.connected) return; // it is exiting: its 'exit' fails the pass
    child.send(message);
  }

  /** No pass left: the child no longer keeps the watch alive, and exits after idleMs. */
  private idleIfDone(idleMs = this.idleMs): void {
    const child = this.child;
    if (child === undefined || this.waiting.size > 0 || this.closed) return;
    this.idleTimer = setTimeout(() => {
      this.idleTimer = undefined;
      if (this.child !== child || this.waiting.size > 0) return;
      this.child = undefined;
      void this.release(child);
    }, idleMs);
    this.idleTimer.unref();
  }

  /** Closing the channel tells the child to exit (pass-process-entry.ts); resolves once it has. */
  private release(child: ChildProcess): Promise<void> {
    if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    if (child.connected) child.disconnect();
    else child.kill();
    return exited;
  }

  private clearIdle(): void {
    if (this.idleTimer === undefined) return;
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
  }
}
