/**
 * Watch mode: keep the memory folders in sync while you work.
 *
 * chokidar (native fs events; polling only with `--poll`) watches every enabled source root →
 * events are filtered to what a scan would look at (filter.ts) → add/change events wait
 * until the file is fully written (stabilizer.ts) → the scheduler (scheduler.ts)
 * coalesces everything inside `watchDebounceMs` into ONE sync pass, backs off while the server
 * is down or the lock is busy, and schedules confirmation passes only while something is queued.
 *
 * A pass is exactly `runSync(config, {logger, signal, lockTimeoutMs})`, run in a child process that
 * exits when passes pause, so the memory a pass needs is given back (pass-process.ts): the engine takes the
 * state lock for the pass only (a session-start worker or a manual `sync` is never starved),
 * detects renames by content hash, deletes removed files' episodes and keeps unsent work in its
 * outbox, so watch mode adds no sync logic of its own.
 *
 * Idle cost: no timers at all when nothing is queued and nothing changes (the stabilizer,
 * debounce, confirmation and backoff timers each exist only while they have something to do).
 * With native events only folders get an fs.watch handle (one inotify watch each): a folder's
 * watch already reports changes to the files in it, so files are not watched one by one
 * (10,000 notes in 24 folders = 24 watches, not 10,024; see isIgnored/handleRawEvent). A note
 * that is a link is reported by its folder's watch too, and what it leads to is watched in its own
 * folder (file-links.ts: one watch per folder, whatever the number of links). Only
 * `--poll` stats every file (every 1.5 s), which is what network drives need.
 *
 * A source root that does not exist yet is not polled for: its nearest existing parent folder is
 * watched, with everything there ignored except the way down to the root, so the root is picked
 * up (and synced) the moment it is created.
 *
 * Size: the Watcher class wires chokidar, the filter, the stabilizer and the scheduler into one
 * lifecycle (start, passes, stop); each of those parts is a module of its own.
 */
import { EventEmitter } from 'node:events';
import { existsSync, lstatSync, realpathSync, statSync, type Stats } from 'node:fs';
import { dirname, resolve, sep } from 'node:path';
import { watch as chokidarWatch, type FSWatcher } from 'chokidar';
import type { Config } from '../config/config.js';
import { nullLogger, type Logger } from '../util/log.js';
import { linkOutOfReachAt } from '../memory/link-reach.js';
import { resolveSources } from '../memory/sources.js';
import type { MemorySource } from '../memory/types.js';
import type { SyncSummary } from '../sync/types.js';
import {
  countsOf,
  describeBackoff,
  type BackoffEvent,
  type ChangeEvent,
  type FsEventKind,
  type PassEvent,
  type PassStartEvent,
  type PhaseEvent,
  type ReadyEvent,
  type SettingsEvent,
  type StoppedEvent,
  type WatchErrorEvent,
  type WatchEvent,
} from './events.js';
import { createPathFilter, type ClassifiedPath, type PathFilter } from './filter.js';
import { settingsChange } from './settings-change.js';
import { FileLinksWatch } from './file-links.js';
import { FirstPolls, FolderPolls, SECOND_LOOK_POLLS, type FirstPollChange, type FolderStates } from './first-polls.js';
import { startWatching, unlistedEntries } from './unlisted.js';
import { PassProcess } from './pass-process.js';
import { PassScheduler, systemClock, type BackoffPolicy, type Clock, type PassReason, type SchedulerPhase, type TimerHandle } from './scheduler.js';
import { WriteStabilizer } from './stabilizer.js';

export type { WatchEvent, PassEvent, ChangeEvent, BackoffEvent, ReadyEvent, StoppedEvent, WatchErrorEvent, PassStartEvent, PhaseEvent, SettingsEvent } from './events.js';
export type { PassReason, BackoffPolicy, Clock } from './scheduler.js';

/** Default: a file must keep its size and mtime this long before a pass may read it. */
export const DEFAULT_WRITE_STABLE_MS = 150;
/** Default lock wait per pass before backing off (the lock is held only while a pass runs). */
export const DEFAULT_WATCH_LOCK_TIMEOUT_MS = 5_000;
/** Polling interval with `--poll` (network drives). */
export const DEFAULT_POLL_INTERVAL_MS = 1_500;
/** How long a stop may take (aborting the pass, closing watchers) before runWatch returns anyway. */
export const DEFAULT_STOP_TIMEOUT_MS = 5_000;

export interface WatcherOptions {
  config: Config;
  logger?: Logger;
  /** Use stat polling instead of native fs events (network drives). */
  poll?: boolean;
  pollIntervalMs?: number;
  /** Debounce window; default config.watchDebounceMs. */
  debounceMs?: number;
  maxDebounceMs?: number;
  /** Write-finished check threshold (ms); 0 disables the check. Default 150. */
  writeStableMs?: number;
  writePollMs?: number;
  /** Lock wait per pass. Default 5000. */
  lockTimeoutMs?: number;
  serverBackoff?: BackoffPolicy;
  confirmBackoff?: BackoffPolicy;
  lockBackoff?: BackoffPolicy;
  errorBackoff?: BackoffPolicy;
  /** Replaces the sync pass (tests). Default: runSync(config, {logger, signal, lockTimeoutMs}) in the pass process (pass-process.ts). */
  runPass?: (signal: AbortSignal, reason: PassReason, config: Config) => Promise<SyncSummary>;
  /** How long the pass process is kept after a pass (ms); default DEFAULT_PASS_PROCESS_IDLE_MS. */
  passProcessIdleMs?: number;
  clock?: Clock;
  random?: () => number;
  /** Sources to watch; default resolveSources(config). Given, they are kept when the settings change. */
  sources?: MemorySource[];
  /**
   * How to read the settings again: each pass takes up what they say then (settings-change.ts has
   * the rule), and a change of one of `files` (our `.env`, madeinoz's, Claude Code's settings) owes
   * a pass. Without it the watch runs on `config` throughout.
   */
  settings?: WatchSettings;
}

/** Where the watch's settings come from (the CLI: config.ts `loadConfig` and `settingsFilesOf`). */
export interface WatchSettings {
  reload(): Promise<Config>;
  /** The files the settings are read from, existing or not, for the settings given. */
  files?(config: Config): string[];
}

interface WatcherEventMap {
  event: [WatchEvent];
  ready: [ReadyEvent];
  change: [ChangeEvent];
  'pass-start': [PassStartEvent];
  pass: [PassEvent];
  backoff: [BackoffEvent];
  error: [WatchErrorEvent];
  phase: [PhaseEvent];
  settings: [SettingsEvent];
  stopped: [StoppedEvent];
}

export class NoSourcesError extends Error {
  constructor() {
    super('Nothing to watch: no memory sources are enabled (check MADEINOZ_KNOWLEDGE_SYNC_PAI, MADEINOZ_KNOWLEDGE_SYNC_AUTO_MEMORY, MADEINOZ_KNOWLEDGE_SYNC_PATHS)');
    this.name = 'NoSourcesError';
  }
}

/** The nearest folder at or above `path` that exists. */
export function nearestExisting(path: string): string {
  let p = resolve(path);
  while (!existsSync(p)) {
    const up = dirname(p);
    if (up === p) return p;
    p = up;
  }
  return p;
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/** Whether `path` (a link) leads to a folder now. */
function leadsToFolder(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
  } catch {
    return false; // a loop of links, or not ours to read: the scan reports it
  }
}

/**
 * What a poll of `path` compares, through links (inode, size, times in ns), '' when it leads
 * nowhere: a change no stat shows is one no poll reports either.
 */
function pollState(path: string): string {
  try {
    const stats = statSync(path, { bigint: true, throwIfNoEntry: false });
    return stats === undefined ? '' : `${stats.ino} ${stats.mode} ${stats.size} ${stats.mtimeNs} ${stats.ctimeNs}`;
  } catch (error) {
    return `error ${(error as NodeJS.ErrnoException).code ?? ''}`;
  }
}

/** Where `path` leads when it is a symbolic link (its target's real path), else undefined. */
function linkTarget(path: string): string | undefined {
  try {
    return lstatSync(path).isSymbolicLink() ? realpathSync(path) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The watcher core, without process concerns (signals, output). Observe it through its events:
 * `ready`, `change`, `pass-start`, `pass`, `backoff`, `error`, `phase`, `stopped`, and `event`
 * (all of them). `done` resolves with the exit code once it has stopped.
 */
export class Watcher extends EventEmitter<WatcherEventMap> {
  /** The settings the watch runs on now (the last good ones read). */
  private current: Config;
  private currentSources: MemorySource[];
  readonly done: Promise<number>;
  private readonly logger: Logger;
  private filter: PathFilter;
  /** Watches the settings files, links included (file-links.ts), while `options.settings.files` names any. */
  private readonly settingsWatch: FileLinksWatch;
  /**
   * Notes that are file links (found by chokidar's walk or by an event), and the watch of what
   * they lead to (file-links.ts). A folder's watch reports the link itself (made, replaced,
   * deleted), not a change of the file it leads to; and chokidar, following a link to a file,
   * dropped it for good once that file was gone for a moment (deleted and written anew).
   */
  private readonly noteLinks = new Set<string>();
  /**
   * `--poll`: what each note that is a link led to when a change of it was last reported
   * (`pollState`). Two polls report one edit there: chokidar's of the link (its stat follows the
   * link) and file-links.ts's of the file it leads to, each on its own clock, up to an interval
   * apart (1.5 s by default). The later one, of a state reported already, owes nothing: the pass
   * the first one owed starts after it and reads that state. Else each edit ran a second, empty
   * pass whenever the two polls were out of step (a note linked after the watch started).
   */
  private readonly noteLinkStates = new Map<string, string>();
  /** `--poll`: an edit before chokidar's first poll of a file is reported at the end of the pass that follows the start (first-polls.ts). */
  private readonly firstPolls = new FirstPolls();
  /** `--poll`: a note made in a folder before chokidar's first poll of it is not lost (first-polls.ts), for the watching `fsw` is. */
  private folderPolls: { fsw: FSWatcher; polls: FolderPolls } | undefined;
  /** `--poll`: the timer of the first-poll check's second look (first-polls.ts FIRST_POLL_SECOND_LOOK). */
  private secondLook: TimerHandle | undefined;
  private readonly linkedNotesWatch: FileLinksWatch;
  /** The last settings error said (it is said once, until the settings read well again). */
  private settingsError: string | undefined;
  private readonly scheduler: PassScheduler;
  private readonly stabilizer: WriteStabilizer;
  private readonly clock: Clock;
  /** Where the passes run, unless runPass replaces them. */
  private readonly passProcess: PassProcess | undefined;
  private fsw: FSWatcher | undefined;
  /** Paths handed to chokidar (roots, or the nearest existing parent of a missing root). */
  private readonly watched = new Set<string>();
  /**
   * Folder links met (roots and links inside the watched folders; notes that are links are in
   * `noteLinks`), and links leading nowhere, with the target each was
   * watched through. A folder's watch follows a link once, to the folder it led to then: pointed
   * elsewhere (`ln -sfn`), the new target's changes went unseen and the old one's still raised
   * passes. The folder holding a link is watched (a root's parent is added for it), so a change
   * of target is seen, and the watching starts over (checkLinks).
   */
  private readonly links = new Map<string, string | undefined>();
  /**
   * Folder links judged (memory/link-reach.ts) since the watching last started, and those refused:
   * a link to the folder holding it, to / or to the home folder is not followed, so chokidar never
   * walks (nor holds a watch on) everything there. It stays in `links`, so pointing it back is seen.
   */
  private readonly judged = new Map<string, boolean>();
  /** Refusals already said (link → its target then), so a rescan does not repeat them. */
  private readonly refusalsSaid = new Map<string, string>();
  private rewatching: Promise<void> | undefined;
  private resolveDone!: (code: number) => void;
  private stopping: Promise<number> | undefined;
  private started = false;
  private lastCounts = { pending: 0, queued: 0, confirmed: 0, failed: 0 };

  constructor(private readonly options: WatcherOptions) {
    super();
    this.current = options.config;
    this.logger = (options.logger ?? nullLogger).child({ component: 'watch' });
    this.currentSources = options.sources ?? resolveSources(options.config);
    this.filter = createPathFilter(this.currentSources, options.config.exclude);
    this.clock = options.clock ?? systemClock;
    this.done = new Promise<number>((r) => {
      this.resolveDone = r;
    });
    const fileLinks = { poll: options.poll === true, intervalMs: options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS };
    this.settingsWatch = new FileLinksWatch({
      ...fileLinks,
      onChange: (_files, path) => {
        if (this.stopping !== undefined) return;
        this.logger.info('a settings file changed; the next pass takes it up', { path });
        this.changed();
      },
      onError: (error) => this.logger.warn('watching the settings files failed', { error: error as Error }),
    });
    this.linkedNotesWatch = new FileLinksWatch({
      ...fileLinks,
      // Each note's own entry is watched with its folder; a target's folder deleted is waited for (made again with the file, it owes a pass).
      watchedElsewhere: true,
      awaitFolders: true,
      onChange: (notes) => {
        for (const note of notes) {
          const hit = this.filter.classify(note, 'file');
          // What it leads to is there (written, or pointed at another file) or gone (a dangling link: the scan keeps its note).
          if (hit !== undefined && this.stopping === undefined) this.onFileEvent(existsSync(note) ? 'change' : 'unlink', note, hit);
        }
      },
      onError: (error) => this.fsError(error),
    });
    const lockTimeoutMs = options.lockTimeoutMs ?? DEFAULT_WATCH_LOCK_TIMEOUT_MS;
    this.passProcess =
      options.runPass === undefined
        ? new PassProcess({ config: options.config, logger: options.logger ?? nullLogger, lockTimeoutMs, ...(options.passProcessIdleMs === undefined ? {} : { idleMs: options.passProcessIdleMs }) })
        : undefined;
    const passProcess = this.passProcess;
    const inner = options.runPass ?? ((signal: AbortSignal, _reason: PassReason, config: Config) => (passProcess as PassProcess).run(signal, config));
    // Each pass runs on the settings as they stand at its start.
    const runPass = async (signal: AbortSignal, reason: PassReason): Promise<SyncSummary> => {
      await this.takeUpSettings();
      await this.watchLinkedNotes();
      // The first pass after chokidar's (re)start: an edit after it read a file, before chokidar's first poll of it, is looked for at its end.
      const scanned = this.firstPolls.passStarts();
      const fsw = this.fsw;
      try {
        return await inner(signal, reason, this.current);
      } finally {
        if (scanned !== undefined && fsw !== undefined) await this.checkFirstPolls(scanned, fsw);
      }
    };
    this.stabilizer = new WriteStabilizer({
      thresholdMs: options.writeStableMs ?? DEFAULT_WRITE_STABLE_MS,
      ...(options.writePollMs === undefined ? {} : { pollMs: options.writePollMs }),
      clock: this.clock,
      onDrained: () => this.scheduler.writesSettled(),
    });
    this.scheduler = new PassScheduler({
      debounceMs: options.debounceMs ?? options.config.watchDebounceMs,
      ...(options.maxDebounceMs === undefined ? {} : { maxDebounceMs: options.maxDebounceMs }),
      runPass,
      canStart: () => this.stabilizer.size === 0,
      clock: this.clock,
      ...(options.random === undefined ? {} : { random: options.random }),
      ...(options.serverBackoff === undefined ? {} : { serverBackoff: options.serverBackoff }),
      ...(options.confirmBackoff === undefined ? {} : { confirmBackoff: options.confirmBackoff }),
      ...(options.lockBackoff === undefined ? {} : { lockBackoff: options.lockBackoff }),
      ...(options.errorBackoff === undefined ? {} : { errorBackoff: options.errorBackoff }),
      hooks: {
        onPassStart: (info) => this.publish({ event: 'pass-start', ...info }),
        onPass: (info) => {
          const counts = countsOf(info.summary);
          this.lastCounts = { pending: counts.pending, queued: counts.queued, confirmed: counts.confirmed, failed: counts.failed };
          const event: PassEvent = {
            event: 'pass',
            pass: info.pass,
            reason: info.reason,
            durationMs: info.durationMs,
            ...counts,
            serverReachable: info.summary.serverReachable,
            ...(info.summary.serverError === undefined ? {} : { serverError: info.summary.serverError }),
            summary: info.summary,
          };
          this.refreshRoots();
          this.publish(event);
        },
        onBackoff: (info) => this.publish({ event: 'backoff', ...info, pending: this.lastCounts.pending, queued: this.lastCounts.queued }),
        onError: (error, info) => this.publish({ event: 'error', message: (error as Error)?.message ?? String(error), fatal: info.fatal, origin: 'pass' }),
        onPhase: (phase) => this.publish({ event: 'phase', phase }),
        onFatal: () => {
          void this.stop(1);
        },
      },
    });
  }

  get config(): Config {
    return this.current;
  }
  get sources(): MemorySource[] {
    return this.currentSources;
  }
  get passes(): number {
    return this.scheduler.passes;
  }
  get phase(): SchedulerPhase {
    return this.scheduler.phase;
  }
  get lastSummary(): SyncSummary | undefined {
    return this.scheduler.lastSummary;
  }
  get counts(): { pending: number; queued: number; confirmed: number; failed: number } {
    return { ...this.lastCounts };
  }
  /** What the scheduler's one timer waits for, if anything (status line, tests). */
  get pendingTimer(): { kind: 'debounce' | 'retry' | 'confirm'; inMs: number } | undefined {
    return this.scheduler.pendingTimer;
  }
  /** Files currently waiting to finish being written. */
  get settling(): number {
    return this.stabilizer.size;
  }
  /** The pid of the process running the passes, while there is one (tests, diagnostics). */
  get passProcessPid(): number | undefined {
    return this.passProcess?.pid;
  }
  get watchedPaths(): string[] {
    return [...this.watched];
  }

  private publish(event: WatchEvent): void {
    this.log(event);
    // A throwing listener (say, a reporter writing to a closed pipe) must not break the watch.
    try {
      // EventEmitter throws on an 'error' nobody listens to; it is still reported on 'event'.
      if (event.event !== 'error' || this.listenerCount('error') > 0) (this.emit as (name: string, e: WatchEvent) => boolean)(event.event, event);
      this.emit('event', event);
    } catch (error) {
      this.logger.error('watch event listener failed', { event: event.event, error: error as Error });
    }
  }

  private log(event: WatchEvent): void {
    switch (event.event) {
      case 'ready':
        this.logger.info('watching', { roots: event.roots, missing: event.missing, poll: event.poll });
        break;
      case 'change':
        this.logger.debug('change', { kind: event.kind, source: event.source, relPath: event.relPath });
        break;
      case 'pass-start':
        this.logger.debug('pass started', { pass: event.pass, reason: event.reason });
        break;
      case 'pass': {
        const { summary: _summary, event: _event, ...fields } = event;
        this.logger.info('pass', fields);
        break;
      }
      case 'backoff':
        if (event.reason === 'confirm') this.logger.debug('confirmation scheduled', { delayMs: event.delayMs, attempt: event.attempt, queued: event.queued });
        else this.logger.warn(describeBackoff(event), { reason: event.reason, delayMs: event.delayMs, attempt: event.attempt });
        break;
      case 'error':
        this.logger.error('watch error', { message: event.message, fatal: event.fatal, origin: event.origin });
        break;
      case 'settings':
        this.logger.info('settings changed', { added: event.added, removed: event.removed, changed: event.changed, notes: event.notes });
        break;
      case 'stopped':
        this.logger.info('stopped', { code: event.code, passes: event.passes, signal: event.signal });
        break;
      default:
        break;
    }
  }

  /**
   * Starts watching and runs the initial full sync. Resolves once the watchers are in place
   * (after `ready`); passes are reported through events.
   */
  async start(): Promise<void> {
    if (this.started) throw new Error('watcher already started');
    this.started = true;
    if (this.sources.length === 0) throw new NoSourcesError();
    const roots = this.sources.map((s) => resolve(s.root));
    const missing = roots.filter((r) => !existsSync(r));
    await this.openWatcher();
    await this.watchLinkedNotes();
    await this.watchSettingsFiles();
    if (this.stopping !== undefined) return;
    this.publish({ event: 'ready', folders: roots.length, roots, missing, poll: this.options.poll === true });
    this.scheduler.start();
  }

  /**
   * Hands the roots to chokidar (a missing root: its nearest existing parent) and resolves once its
   * start-up scan is over and what it did not list has been taken up (unlisted.ts), before the pass
   * that follows reads the notes.
   */
  private async openWatcher(): Promise<void> {
    const poll = this.options.poll === true;
    const started = await startWatching({
      open: async () => (this.stopping === undefined ? this.openChokidar() : undefined),
      missed: (fsw) => this.unlisted(fsw, poll),
      current: (fsw) => this.fsw === fsw && this.stopping === undefined,
      close: async (fsw, missed) => {
        // chokidar's add() says nothing when its watch of a path is in place: a fresh start does (its ready), before the pass reads.
        this.logger.info('made in a folder while chokidar listed it; watching afresh', { paths: missed });
        this.fsw = undefined;
        await fsw.close().catch(() => undefined);
      },
    });
    if (started === undefined) return;
    const fsw = started.watch;
    // Still missed (a folder written to throughout each start): handed to chokidar as they are, watched shortly.
    for (const path of started.missed) fsw.add(path);
    if (poll) {
      this.firstPolls.ready(Object.entries(fsw.getWatched()));
      this.guardFolderPolls(fsw);
    }
  }

  /** Hands the roots to chokidar (a missing root: its nearest existing parent); resolves once its start-up scan is over, with the watcher (none: nothing to watch). */
  private async openChokidar(): Promise<FSWatcher | undefined> {
    this.watched.clear();
    this.noteLinks.clear();
    this.noteLinkStates.clear();
    this.links.clear();
    this.judged.clear();
    for (const source of this.sources) {
      const root = resolve(source.root);
      const target = linkTarget(root);
      if (target === undefined || !this.refusedLink(root)) this.watched.add(existsSync(root) ? root : nearestExisting(root));
      if (target === undefined) continue;
      this.links.set(root, target);
      this.watched.add(dirname(root));
    }
    // chokidar never says `ready` for nothing to watch (settings-change.ts refuses settings with no folder).
    if (this.watched.size === 0) return undefined;
    const poll = this.options.poll === true;
    const interval = this.options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
    if (poll) this.firstPolls.begin();
    const fsw = chokidarWatch([...this.watched], {
      ignored: (path, stats) => this.isIgnored(path, stats, !poll),
      ignoreInitial: true,
      persistent: true,
      followSymlinks: true,
      ignorePermissionErrors: true,
      usePolling: poll,
      interval,
      binaryInterval: interval,
      awaitWriteFinish: false,
    });
    this.fsw = fsw;
    fsw.on('all', (kind, path) => this.handleFsEvent(kind as FsEventKind, path));
    if (poll) fsw.on('raw', (_rawEvent, polledPath) => this.handlePolledChange(polledPath));
    else fsw.on('raw', (rawEvent, evPath, details) => this.handleRawEvent(String(rawEvent), evPath, details as { watchedPath?: string }));
    fsw.on('error', (error) => this.fsError(error));
    await new Promise<void>((resolveReady) => {
      fsw.once('ready', () => resolveReady());
      void this.done.then(() => resolveReady());
    });
    return fsw;
  }

  /** The folders chokidar watches: those handed to it and below (it also lists their parents, which it does not watch). */
  private watchedFolders(fsw: FSWatcher): Array<[folder: string, listed: string[]]> {
    const handed = [...this.watched];
    return Object.entries(fsw.getWatched())
      .map(([listed, names]): [string, string[]] => [resolve(listed), names])
      .filter(([folder]) => handed.some((path) => folder === path || folder.startsWith(`${path}${sep}`)));
  }

  /**
   * What was made in a folder after chokidar listed it and before its watch started (unlisted.ts),
   * which the watch takes up before the pass that follows reads the notes: a folder (native
   * events: never watched else) or, with --poll, a note too (never polled else).
   */
  private async unlisted(fsw: FSWatcher, poll: boolean): Promise<string[]> {
    const entries = await unlistedEntries(this.watchedFolders(fsw), poll);
    return entries.filter(({ path, stats }) => !this.isIgnored(path, stats, !poll)).map(({ path }) => path);
  }

  /** `--poll`: the end of the first pass after chokidar's (re)start; a file changed since chokidar's scan read it and not reported by its poll is reported now (first-polls.ts). */
  private async checkFirstPolls(scanned: readonly FolderStates[], fsw: FSWatcher): Promise<void> {
    // And each folder's first poll known taken (or its wait under way): nothing of the start's is left to the idle watch.
    if (this.folderPolls?.fsw === fsw) await this.folderPolls.polls.settled;
    // Watched afresh since the pass started: that watching's scan is checked by the pass after it.
    const current = () => this.fsw === fsw && this.stopping === undefined;
    this.reportFirstPolls(await this.firstPolls.check(scanned, current));
    // FIRST_POLL_SECOND_LOOK (first-polls.ts): an edit in the gap before chokidar's first stat, which another thread took late.
    if (!current()) return;
    if (this.secondLook !== undefined) this.clock.clearTimeout(this.secondLook);
    this.secondLook = this.clock.setTimeout(() => {
      this.secondLook = undefined;
      this.firstPolls.lookAgain(current).then(
        (changes) => this.reportFirstPolls(changes),
        (error: unknown) => this.fsError(error),
      );
    }, SECOND_LOOK_POLLS * (this.options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS));
  }

  /** Files changed before chokidar's first poll of them, reported as chokidar would have (first-polls.ts). */
  private reportFirstPolls(changes: readonly FirstPollChange[]): void {
    for (const change of changes) {
      const hit = this.filter.classify(change.path, 'file');
      if (hit === undefined) continue;
      this.logger.debug('changed before chokidar had polled it', { path: change.path });
      this.onFileEvent(change.kind, change.path, hit);
      this.firstPolls.reportedAs(change);
    }
  }

  /**
   * `--poll`: a note made in a folder before chokidar's first poll of it (on a loaded machine,
   * right after the pass that follows the start) is not lost (first-polls.ts `FolderPolls`): a
   * folder whose change chokidar's first poll swallowed is watched afresh (its start-up read sees
   * the note), and a pass is owed.
   */
  private guardFolderPolls(fsw: FSWatcher): void {
    this.folderPolls?.polls.stop();
    const polls = new FolderPolls(
      this.watchedFolders(fsw).map(([folder]) => folder),
      {
        intervalMs: this.options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS,
        current: () => this.fsw === fsw && this.stopping === undefined,
        swallowed: (folder) => {
          this.logger.info('a folder changed before chokidar had polled it; watching afresh', { folder });
          void this.rewatch('a folder changed before its poll had started').then(
            () => {
              if (this.stopping === undefined) this.changed();
            },
            (error: unknown) => this.fsError(error),
          );
        },
      },
    );
    this.folderPolls = { fsw, polls };
    fsw.on('raw', (_rawEvent, polledPath) => {
      if (typeof polledPath === 'string') polls.polled(resolve(polledPath));
    });
  }

  private fsError(error: unknown): void {
    const e = error as NodeJS.ErrnoException;
    const hint = e.code === 'ENOSPC' ? ' (inotify watch limit reached: raise fs.inotify.max_user_watches, or use --poll)' : '';
    this.publish({ event: 'error', message: `${e.message ?? String(error)}${hint}`, fatal: false, origin: 'fs' });
  }

  /**
   * Watches what the notes that are links lead to, as they lie on disk now (file-links.ts): at
   * start and before each pass reads them, so an edit after the pass's read is seen, wherever a
   * link was pointed meanwhile. A link that is gone is forgotten (made again, it is an event).
   *
   * A note link pointed at a folder (`ln -sfn ~/vault/dir memory/x.md`) is no note any more but a
   * folder link, which the scan follows (`x.md/inner.md` is a note): the watching starts over, so
   * chokidar follows it as any folder link and the pass reads after that. Its own change (the
   * link's event) owes the pass that gets here. (A folder link pointed at a file is `checkLinks`'s.)
   */
  private async watchLinkedNotes(): Promise<void> {
    if (this.stopping !== undefined) return;
    for (const note of this.noteLinks) {
      if (isLink(note)) continue;
      this.noteLinks.delete(note);
      this.noteLinkStates.delete(note);
    }
    const toFolder = [...this.noteLinks].filter(leadsToFolder);
    if (toFolder.length > 0) {
      await this.rewatch(`a note that is a link leads to a folder now (${toFolder.join(', ')})`);
      if (this.stopping !== undefined) return;
    }
    await this.linkedNotesWatch.watch([...this.noteLinks]);
  }

  /**
   * A link leads elsewhere now, or a root has stopped or started being one: watch afresh (a
   * rescan), and owe a pass. A link inside that is gone is chokidar's to report (an unlink).
   */
  private checkLinks(): void {
    if (this.fsw === undefined || this.stopping !== undefined || this.rewatching !== undefined) return;
    const roots = new Set(this.sources.map((source) => resolve(source.root)));
    const rootMoved = [...roots].some((root) => linkTarget(root) !== this.links.get(root));
    const moved =
      rootMoved ||
      [...this.links].some(([link, before]) => {
        if (roots.has(link)) return false;
        const now = linkTarget(link);
        return now !== undefined && now !== before;
      });
    if (!moved) return;
    this.rewatching = (async () => {
      const old = this.fsw;
      this.fsw = undefined;
      await old?.close().catch(() => undefined);
      if (this.stopping !== undefined) return;
      this.logger.info('a symbolic link under watch leads elsewhere now; watching afresh', { links: [...this.links.keys()] });
      await this.openWatcher();
      this.changed();
    })().finally(() => {
      this.rewatching = undefined;
    });
  }

  /**
   * chokidar's filter. With native events, regular files are not watched one by one: a folder's
   * own watch reports its files' changes (see handleRawEvent), which saves one fs.watch handle
   * (an inotify watch and ~9 KiB) per file. A note that is a link is dismissed so too, once
   * chokidar has followed it to a file: its folder's watch reports the link itself, and what it
   * leads to is watched in its own folder (`noteLinks`, watchLinkedNotes).
   *
   * A regular file is dismissed before the filter's path work: chokidar's start-up scan asks this
   * for every file under watch, and classifying each (resolve, relative, split) allocated ~3 KiB
   * per file, a third of what the scan allocates (V8's sampling heap profiler, 10,000 files: 94 MB
   * before, 63 MB after). What the scan still leaves behind is collected by heap-release.ts.
   */
  private isIgnored(path: string, stats: Stats | undefined, foldersOnly: boolean): boolean {
    if (foldersOnly && stats?.isFile() === true) return true;
    if (this.filter.ignored(path, stats)) return true;
    if (this.judged.size > 0 && this.judged.get(resolve(path)) === true) return true;
    if (stats?.isSymbolicLink() === true && this.isNoteLink(resolve(path))) return false;
    if (stats !== undefined && (stats.isDirectory() || stats.isSymbolicLink()) && this.refusedLink(resolve(path))) return true;
    if (stats?.isSymbolicLink() === true) {
      // Polled too: a link is known with its target, so pointing it elsewhere starts the watching over (handlePolledChange).
      const abs = resolve(path);
      if (!this.links.has(abs)) this.links.set(abs, linkTarget(abs));
    }
    // --poll: what the scan read of a file chokidar polls, looked at again after the next pass (first-polls.ts).
    if (stats?.isFile() === true) this.firstPolls.scanned(path, stats);
    return false;
  }

  /**
   * Whether the link at `abs` is a note: a name the scan takes for one, leading to a file or to
   * nothing (yet; the scan reports such a link and keeps its note). It is recorded in `noteLinks`,
   * so what it leads to is watched from the next pass on (watchLinkedNotes), not in `links`: a note
   * pointed elsewhere needs no new watching of the folders.
   */
  private isNoteLink(abs: string): boolean {
    if (this.noteLinks.has(abs)) return true; // chokidar asks again at each read of the folder
    if (this.filter.classify(abs, 'file') === undefined) return false;
    try {
      if (statSync(abs, { throwIfNoEntry: false })?.isDirectory() === true) return false;
    } catch {
      // A loop of links, or not ours to read: the scan reports it; what the link leads to is watched as far as it goes.
    }
    this.noteLinks.add(abs);
    return true;
  }

  /**
   * Whether the folder at `abs` is a link that must not be followed (memory/link-reach.ts). Each
   * path is judged once per watching (a retarget starts the watching over); a refusal is said once.
   * The pass's scan reports it too, with the same words, as a problem of the source.
   */
  private refusedLink(abs: string): boolean {
    const known = this.judged.get(abs);
    if (known !== undefined) return known;
    const target = linkTarget(abs);
    const message = target === undefined ? undefined : linkOutOfReachAt(abs, target);
    this.judged.set(abs, message !== undefined);
    if (message === undefined) {
      this.refusalsSaid.delete(abs);
      return false;
    }
    // Kept among the links: the folder holding it is watched, and pointing it back is seen (checkLinks).
    this.links.set(abs, target);
    if (this.refusalsSaid.get(abs) !== target) {
      this.refusalsSaid.set(abs, target as string);
      this.publish({ event: 'error', message: `not watching ${message}`, fatal: false, origin: 'fs' });
    }
    return true;
  }

  /**
   * `--poll`: the stat of a polled path changed (chokidar's raw event, said before chokidar reads
   * the folder again). A link, or the folder holding one, may lead elsewhere now: judged here, as
   * the native events do (handleRawEvent). Left to chokidar, a folder link's poll reads the new
   * target through the link path and walks all of it, even a target out of reach (`/`, a folder
   * holding the link), reporting each note there as a change and polling each file there, until a
   * pass happened to run. Here the watching starts over first (chokidar's walk ends with its close).
   */
  private handlePolledChange(polledPath: unknown): void {
    if (this.stopping !== undefined || this.links.size === 0 || typeof polledPath !== 'string') return;
    const abs = resolve(polledPath);
    if (!this.links.has(abs) && ![...this.links.keys()].some((link) => dirname(link) === abs)) return;
    // Judged once this stat callback is over: chokidar calls its own listeners after the raw event,
    // and a watcher closed under them throws (its listener set is gone). Before any read it started
    // has returned, so the close still ends that read before it reports anything.
    queueMicrotask(() => this.checkLinks());
  }

  /** A raw fs.watch event of a watched folder: `evPath` is the name of the entry that changed. */
  private handleRawEvent(rawEvent: string, evPath: unknown, details: { watchedPath?: string } | undefined): void {
    if (this.stopping !== undefined) return;
    const watchedPath = details?.watchedPath;
    if (typeof watchedPath !== 'string') return;
    const dir = resolve(watchedPath);
    // The folder holding a link (a root's parent is watched for it): the link itself may have been replaced.
    if (this.links.size > 0 && (typeof evPath !== 'string' || evPath === '' || this.links.has(resolve(dir, evPath)))) this.checkLinks();
    if (typeof evPath !== 'string' || evPath === '') {
      // No file name (some platforms): something in this folder changed.
      if (this.filter.classify(dir, 'dir') !== undefined) this.changed();
      return;
    }
    const abs = resolve(dir, evPath);
    const hit = this.filter.classify(abs, 'file');
    if (hit === undefined) return;
    const kind: FsEventKind = rawEvent === 'change' ? 'change' : existsSync(abs) ? 'add' : 'unlink';
    this.onFileEvent(kind, abs, hit);
  }

  /** Feeds one chokidar event (add, change, unlink, addDir, unlinkDir); tests may call it too. */
  handleFsEvent(kind: FsEventKind, path: string): void {
    if (this.stopping !== undefined) return;
    const isFile = kind === 'add' || kind === 'change' || kind === 'unlink';
    const abs = resolve(path);
    const hit = this.filter.classify(abs, isFile ? 'file' : 'dir');
    if (kind === 'unlinkDir' && this.sources.some((s) => resolve(s.root) === abs)) this.refreshRoots();
    if (this.links.has(abs)) this.checkLinks();
    if (hit === undefined) return;
    if (isFile) {
      this.onFileEvent(kind, abs, hit);
      return;
    }
    this.publish({ event: 'change', kind, path: abs, source: hit.source, relPath: hit.relPath });
    this.changed();
  }

  private onFileEvent(kind: FsEventKind, abs: string, hit: ClassifiedPath): void {
    // A note made (or made again) as a link: what it leads to is watched from the pass this event owes on.
    if (!this.noteLinks.has(abs) && isLink(abs)) this.noteLinks.add(abs);
    // chokidar's report of a change the first-poll check reported already owes nothing (first-polls.ts).
    if (this.options.poll === true && this.firstPolls.seenAgain(abs, kind)) return;
    if (this.options.poll === true && this.noteLinks.has(abs)) {
      const state = pollState(abs);
      // A link made is always news (a note the last pass may have deleted, back as it was).
      if (kind !== 'add' && this.noteLinkStates.get(abs) === state) return; // reported already by the other poll
      this.noteLinkStates.set(abs, state);
    }
    // One save raises several raw events (create, modify, attrib): report the first of a write.
    if (kind === 'unlink' || !this.stabilizer.has(abs)) this.publish({ event: 'change', kind, path: abs, source: hit.source, relPath: hit.relPath });
    if (kind === 'unlink') this.stabilizer.forget(abs);
    else this.stabilizer.track(abs);
    this.changed();
  }

  /** Something under watch changed: a pass is owed, and its process can start while the write settles. */
  private changed(): void {
    this.passProcess?.prepare();
    this.scheduler.notify();
  }

  /**
   * Reads the settings again (a pass is about to start) and takes up what changed
   * (settings-change.ts): the folders watched start over when they changed, and the pass runs on
   * the new settings. Settings that cannot be used are said once, with the next step, and the watch
   * goes on with the last good ones.
   */
  private async takeUpSettings(): Promise<void> {
    const settings = this.options.settings;
    if (settings === undefined || this.stopping !== undefined) return;
    // Before they are read: a settings link pointed elsewhere is watched where it leads now, so no edit there is missed after this read.
    await this.watchSettingsFiles();
    let next: Config;
    try {
      next = await settings.reload();
    } catch (error) {
      this.settingsRefused(`${error instanceof Error ? error.message : String(error)}. The watch goes on with the settings it had; fix the setting and save the file (the next pass takes it up)`);
      return;
    }
    const nextSources = this.options.sources ?? resolveSources(next);
    const change = settingsChange(this.current, next, { before: this.currentSources, after: nextSources });
    if (change.refused !== undefined) {
      this.settingsRefused(change.refused);
      return;
    }
    const recovered = this.settingsError !== undefined;
    this.settingsError = undefined;
    if (change.changed.length === 0) {
      if (recovered) this.publish({ event: 'settings', added: [], removed: [], changed: [], notes: ['the settings read well again; nothing the watch does changed'] });
      return;
    }
    this.current = next;
    if (change.sourcesChanged) {
      this.currentSources = nextSources;
      this.filter = createPathFilter(nextSources, next.exclude);
      await this.rewatch('the settings name other folders now');
    }
    await this.watchSettingsFiles();
    this.publish({ event: 'settings', added: change.added, removed: change.removed, changed: change.changed, notes: change.notes });
  }

  private settingsRefused(message: string): void {
    if (this.settingsError === message) return;
    this.settingsError = message;
    this.publish({ event: 'error', message: `settings not taken up: ${message}`, fatal: false, origin: 'settings' });
  }

  /** Closes the watching and opens it afresh (the folders or a link changed). */
  private async rewatch(why: string): Promise<void> {
    // One watching at a time: a link's retarget (checkLinks) waits for this one, and this for it.
    while (this.rewatching !== undefined) await this.rewatching;
    const run = (async () => {
      const old = this.fsw;
      this.fsw = undefined;
      await old?.close().catch(() => undefined);
      if (this.stopping !== undefined) return;
      this.logger.info(`watching afresh: ${why}`, { roots: this.currentSources.map((source) => source.root) });
      await this.openWatcher();
    })();
    const tracked: Promise<void> = run.finally(() => {
      if (this.rewatching === tracked) this.rewatching = undefined;
    });
    this.rewatching = tracked;
    await tracked;
  }

  /**
   * Watches the settings files (their folders, one level deep: an editor saves by renaming, and a
   * `.env` may be created later), so a change owes a pass, which takes it up. A settings file that
   * is a link is watched as a link, and what it leads to as a file of its own folder
   * (file-links.ts). Folders that do not exist are left out: what is written there is taken up
   * by the next pass anyway, and each pass looks again (a link pointed elsewhere, a folder created).
   */
  private async watchSettingsFiles(): Promise<void> {
    if (this.stopping !== undefined) return;
    await this.settingsWatch.watch(this.options.settings?.files?.(this.current) ?? []);
  }

  /** A root that vanished (or never existed) is watched through its nearest existing parent. */
  private refreshRoots(): void {
    this.checkLinks();
    const fsw = this.fsw;
    if (fsw === undefined || this.stopping !== undefined) return;
    for (const source of this.sources) {
      const root = resolve(source.root);
      if (existsSync(root)) continue;
      const parent = nearestExisting(root);
      if (this.watched.has(parent)) continue;
      this.watched.add(parent);
      this.logger.info('source folder missing; watching its parent until it appears', { root, parent });
      fsw.add(parent);
    }
  }

  /** Stops: aborts the running pass (its state is saved), closes the watchers. Idempotent. */
  stop(code = 0, signal?: string): Promise<number> {
    if (this.stopping !== undefined) return this.stopping;
    this.stopping = (async () => {
      this.stabilizer.close();
      this.folderPolls?.polls.stop();
      if (this.secondLook !== undefined) this.clock.clearTimeout(this.secondLook);
      await this.rewatching;
      const closing = Promise.all([this.fsw?.close().catch(() => undefined), this.settingsWatch.close(), this.linkedNotesWatch.close()]);
      await Promise.all([this.scheduler.stop(new Error(signal === undefined ? 'watch stopped' : `watch stopped by ${signal}`)), closing]);
      // After the scheduler: its running pass has ended (aborted, state saved), so the child holds no lock.
      await this.passProcess?.close();
      const event: StoppedEvent = { event: 'stopped', code, passes: this.scheduler.passes, ...(signal === undefined ? {} : { signal }) };
      this.publish(event);
      this.resolveDone(code);
      return code;
    })();
    return this.stopping;
  }
}

export function createWatcher(options: WatcherOptions): Watcher {
  return new Watcher(options);
}
