/**
 * Cross-process lock on the state directory, so a hook worker, a manual `sync` and watch mode
 * never read-modify-write the state file at the same time.
 *
 * Design:
 * - The lock is a file `<stateDir>/sync.lock` holding an owner record {pid, hostname, startedAt,
 *   token, ...}, created and taken over with the protocol of util/lock-file.ts (shared with the
 *   worker lease): complete-or-not-at-all creation with link(2), and removal of a stale lock
 *   serialized through a guard file, so two waiters can never both win.
 * - The holder refreshes the lock file's mtime every `heartbeatMs` (an unref'd timer) and checks
 *   the token is still its own; if not, the lock was taken over (we were considered dead) and the
 *   lock is marked `lost` (`refresh()` then throws LockLostError).
 * - A waiter treats a lock as stale when its owner is on this host and its pid is gone
 *   (process.kill(pid, 0) → ESRCH) or is another process now (the owner's recorded start time,
 *   util/process-identity.ts, differs: its pid was reused), or when its heartbeat (mtime) is older
 *   than staleMs. For a live owner on this host the heartbeat is judged on our monotonic clock, not
 *   only the wall clock the mtime is written in: when the clock jumps forward, its heartbeat looks
 *   old for a moment, and when it is set back, a lock's heartbeat lies in the future. Either way it
 *   is stale only once its heartbeat has not moved for half the stale age on our monotonic clock
 *   (the holder refreshes it every third), so a live holder's lock is never broken by a clock step,
 *   and a hung one's is not kept until the clock catches up.
 * - Waiting polls with exponential backoff capped at a bounded interval (this is cross-process,
 *   there is nothing to subscribe to) and gives up after timeoutMs with LockTimeoutError naming
 *   the holder.
 * - Not re-entrant: acquiring twice in one process waits for yourself.
 * - Locks still held when the process exits normally are removed in an `exit` handler (best
 *   effort); a killed process leaves its lock behind, which the dead-pid rule recovers at once.
 *
 * Size: acquiring, waiting, heartbeat and release (also at exit) are the lifecycle of one lock
 * object; the file protocol itself is util/lock-file.ts.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, unlinkSync } from 'node:fs';
import { mkdir, readdir, stat, unlink, utimes } from 'node:fs/promises';
import { hostname as osHostname } from 'node:os';
import { join } from 'node:path';
import { isProcessAlive } from '../util/process-alive.js';
import { processStartTime } from '../util/process-identity.js';
import { backoffDelay, sleep } from '../util/backoff.js';
import { createLockFile, readLockFile, removeStaleLock, type SeenLockFile } from '../util/lock-file.js';

export const LOCK_FILE = 'sync.lock';

export interface LockOwner {
  tool: 'graphiti-memory-sync';
  pid: number;
  hostname: string;
  startedAt: string;
  /** Random per acquisition: release/refresh only touch a lock carrying our token. */
  token: string;
  /** Who this is, for humans: 'hook', 'watch', 'cli sync', ... */
  label?: string;
  /** The holder's own staleness threshold; waiters never use a smaller one. */
  staleMs?: number;
  /** The holder's kernel start time (util/process-identity.ts): tells a reused pid from the holder. */
  start?: string;
}

export interface LockOptions {
  /** Give up waiting after this long (ms). Default 30000. 0 = one attempt, then LockTimeoutError. */
  timeoutMs?: number;
  /** A lock whose heartbeat is older than this is stale. Default 30000. */
  staleMs?: number;
  /** Heartbeat period; default staleMs / 3. 0 disables the heartbeat (tests only). */
  heartbeatMs?: number;
  signal?: AbortSignal;
  /** Called when we start waiting, and again whenever the holder changes. */
  onWait?: (holder: LockOwner | undefined) => void;
  /** Called once if the heartbeat finds the lock was taken over. */
  onLost?: (error: LockLostError) => void;
  label?: string;
  /** Lock file name inside stateDir. Default `sync.lock`. */
  name?: string;
}

export interface Lock {
  readonly path: string;
  readonly owner: LockOwner;
  /** True once the heartbeat (or refresh) found that another process took the lock over. */
  readonly lost: boolean;
  readonly released: boolean;
  /** Touches the heartbeat now; throws LockLostError if the lock is no longer ours. */
  refresh(): Promise<void>;
  /**
   * LOCK_PROVEN_AT_WRITE: whether the lock file carries our token right now, read now (one small read);
   * false, and the lock marked lost, when another process took it over. For the write about to be made.
   */
  stillOurs(): boolean;
  /**
   * LOCK_PROVEN_AT_WRITE for a writer that stops by throwing (pull's writes): `stillOurs`, and
   * LockLostError naming the new holder when it is not.
   */
  prove(): void;
  /** Removes the lock if it still carries our token. Idempotent. */
  release(): Promise<void>;
}

export function describeOwner(owner: LockOwner | undefined): string {
  if (owner === undefined) return 'an unknown owner (lock file unreadable or being written)';
  const label = owner.label ? ` (${owner.label})` : '';
  return `pid ${owner.pid} on ${owner.hostname}${label} since ${owner.startedAt}`;
}

export class LockTimeoutError extends Error {
  constructor(
    readonly lockPath: string,
    readonly holder: LockOwner | undefined,
    readonly waitedMs: number,
    readonly heartbeatAgeMs: number | undefined,
  ) {
    const age = heartbeatAgeMs === undefined ? '' : `, last heartbeat ${Math.round(heartbeatAgeMs / 100) / 10}s ago`;
    super(`Timed out after ${waitedMs} ms waiting for lock ${lockPath}: held by ${describeOwner(holder)}${age}`);
    this.name = 'LockTimeoutError';
  }
}

export class LockLostError extends Error {
  constructor(
    readonly lockPath: string,
    readonly holder: LockOwner | undefined,
  ) {
    super(`Lock ${lockPath} is no longer ours: now held by ${holder === undefined ? 'nobody' : describeOwner(holder)}`);
    this.name = 'LockLostError';
  }
}

export function lockFilePath(stateDir: string, name: string = LOCK_FILE): string {
  return join(stateDir, name);
}

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_STALE_MS = 30_000;
const FIRST_POLL_MS = 15;
const MAX_POLL_MS = 500;

const hostName = osHostname();
const processStartedAt = Date.now() - process.uptime() * 1000;
const processStart = processStartTime(process.pid);

/**
 * When (our monotonic clock, ms) each live same-host lock's heartbeat was first seen out of date,
 * by token and mtime: a heartbeat that moves is a new key. Bounded: old keys are dropped.
 */
const outOfDateSince = new Map<string, number>();
const OUT_OF_DATE_KEYS = 64;

/** Tokens of locks this process holds or is creating (to recognise a dead earlier process that had our pid). */
const ownTokens = new Set<string>();
const heldLocks = new Set<LockImpl>();
let exitHandlerInstalled = false;

function errnoCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}


function parseOwner(text: string): LockOwner | undefined {
  try {
    const v = JSON.parse(text) as Partial<LockOwner> | null;
    if (v && typeof v === 'object' && typeof v.pid === 'number' && typeof v.token === 'string' && typeof v.hostname === 'string') {
      return v as LockOwner;
    }
  } catch {
    // An empty or half-written record (open-'wx' fallback in progress) or garbage.
  }
  return undefined;
}

/** A lock file as seen at one moment: its owner record (if parseable), heartbeat and identity. */
export interface ObservedLock extends SeenLockFile {
  owner: LockOwner | undefined;
}

async function observe(path: string): Promise<ObservedLock | undefined> {
  const seen = readLockFile(path);
  return seen === undefined ? undefined : { owner: parseOwner(seen.text), mtimeMs: seen.mtimeMs, ino: seen.ino, dev: seen.dev, text: seen.text };
}

/**
 * Why the observed lock is stale, or undefined if it is live. `mono` is our monotonic clock (ms);
 * `confirm` false judges a live same-host owner's heartbeat at one look (a report, `inspectLock`).
 */
function staleReason(seen: ObservedLock, staleMs: number, now = Date.now(), mono = performance.now(), confirm = true): string | undefined {
  const owner = seen.owner;
  const sameHost = owner !== undefined && owner.hostname === hostName;
  if (owner !== undefined && sameHost) {
    if (owner.pid === process.pid && !ownTokens.has(owner.token) && Date.parse(owner.startedAt) < processStartedAt - 1000) {
      return `owner pid ${owner.pid} was an earlier process with our pid`;
    }
    const gone = owner.pid === process.pid ? undefined : holderGoneReason(owner);
    if (gone !== undefined) return gone;
  }
  const threshold = staleAfterMs(owner, staleMs);
  const age = now - seen.mtimeMs;
  const outOfDate = age > threshold || ((sameHost || owner === undefined) && age < -threshold);
  if (!outOfDate) return undefined;
  const why = age > threshold ? `no heartbeat for ${Math.round(age)} ms (stale after ${threshold} ms)` : `heartbeat ${Math.round(-age)} ms in the future (the clock was set back) and not moving`;
  if (!sameHost || !confirm) return why;
  // A live holder here: a clock step, or a hung holder? Its heartbeat moves within a third of the stale age.
  const key = `${owner?.token ?? ''}\0${seen.mtimeMs}`;
  const since = outOfDateSince.get(key);
  if (since === undefined) {
    if (outOfDateSince.size >= OUT_OF_DATE_KEYS) outOfDateSince.delete(outOfDateSince.keys().next().value as string);
    outOfDateSince.set(key, mono);
    return undefined;
  }
  return mono - since >= threshold / 2 ? why : undefined;
}

/** Why a holder on this host is gone (its pid dead, or another process now: util/process-identity.ts), or undefined. */
function holderGoneReason(owner: LockOwner): string | undefined {
  if (!isProcessAlive(owner.pid)) return `owner pid ${owner.pid} is gone`;
  if (owner.start !== undefined) {
    const start = processStartTime(owner.pid);
    if (start !== undefined && start !== owner.start) return `owner pid ${owner.pid} is another process now (the holder is gone)`;
  }
  return undefined;
}

/** Whether the holder is a process of this host that is gone (`staleReason` takes its lock over at once). */
export function holderGone(owner: LockOwner): boolean {
  return ownedOnThisHost(owner) && owner.pid !== process.pid && holderGoneReason(owner) !== undefined;
}

/** The heartbeat age past which a waiter judges a lock stale: ours, and never less than the holder's own. */
function staleAfterMs(owner: LockOwner | undefined, staleMs: number): number {
  return Math.max(staleMs, owner?.staleMs ?? 0);
}

/**
 * For a person reading `status` (commands/lock-holders.ts): how long after a live holder's last
 * heartbeat a waiting sync takes its lock over (`staleReason`): the stale age, and for a holder on
 * this host, whose heartbeat may only look old after a clock step, half of it again, counted from
 * when a waiter first saw it out of date. A holder whose process is gone is taken over at once.
 */
export function takeoverAfterMs(owner: LockOwner | undefined, sameHost: boolean, staleMs: number = DEFAULT_STALE_MS): number {
  const threshold = staleAfterMs(owner, staleMs);
  return sameHost ? threshold + threshold / 2 : threshold;
}

/** Whether a lock owner record names this host (a lock file in a state folder other machines share may not). */
export function ownedOnThisHost(owner: LockOwner): boolean {
  return owner.hostname === hostName;
}

const tokenOf = (text: string) => parseOwner(text)?.token;

/** Removes the stale lock `seen` if it is still the one at `path` (util/lock-file.ts). Exported for tests via `lockInternals`. */
async function takeOver(path: string, seen: ObservedLock, myToken: string): Promise<boolean> {
  return removeStaleLock(path, seen, tokenOf, myToken);
}

/** Leftovers of crashed acquisitions (`sync.lock.<token>.tmp`, `sync.lock.stale-<token>`) older than a minute. */
async function removeLeftovers(stateDir: string, name: string): Promise<void> {
  let names: string[];
  try {
    names = await readdir(stateDir);
  } catch {
    return;
  }
  const now = Date.now();
  for (const entry of names) {
    if (!entry.startsWith(`${name}.`) || !(entry.endsWith('.tmp') || entry.startsWith(`${name}.stale-`))) continue;
    const full = join(stateDir, entry);
    try {
      const st = await stat(full);
      if (now - st.mtimeMs > 60_000) await unlink(full);
    } catch {
      // gone or not ours to remove
    }
  }
}

function installExitHandler(): void {
  if (exitHandlerInstalled) return;
  exitHandlerInstalled = true;
  // Synchronous: nothing async runs in an 'exit' handler.
  process.once('exit', () => {
    for (const lock of heldLocks) lock.releaseSync();
  });
}

class LockImpl implements Lock {
  lost = false;
  released = false;
  /** Who held the lock when it was found lost (for LockLostError). */
  private lostTo: LockOwner | undefined;
  private timer: NodeJS.Timeout | undefined;
  private beating = false;

  constructor(
    readonly path: string,
    readonly owner: LockOwner,
    heartbeatMs: number,
    private readonly onLost: ((error: LockLostError) => void) | undefined,
  ) {
    heldLocks.add(this);
    installExitHandler();
    if (heartbeatMs > 0) {
      this.timer = setInterval(() => {
        if (this.beating) return;
        this.beating = true;
        this.refresh()
          .catch(() => undefined) // lost is recorded and reported through onLost
          .finally(() => {
            this.beating = false;
          });
      }, heartbeatMs);
      // The heartbeat must never keep a finished process alive.
      this.timer.unref();
    }
  }

  private markLost(holder: LockOwner | undefined): LockLostError {
    const error = new LockLostError(this.path, holder);
    if (!this.lost) {
      this.lost = true;
      this.lostTo = holder;
      this.stop();
      this.onLost?.(error);
    }
    return error;
  }

  private stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    heldLocks.delete(this);
    ownTokens.delete(this.owner.token);
  }

  async refresh(): Promise<void> {
    if (this.released) throw new Error(`Lock ${this.path} was already released`);
    if (this.lost) throw new LockLostError(this.path, undefined);
    const seen = await observe(this.path);
    // Released while we were looking (a heartbeat racing release()): nothing was lost.
    if (this.released) return;
    if (seen === undefined || seen.owner?.token !== this.owner.token) throw this.markLost(seen?.owner);
    const now = new Date();
    await utimes(this.path, now, now).catch((error: unknown) => {
      if (!this.released) throw error;
    });
  }

  /**
   * LOCK_PROVEN_AT_WRITE: read at the moment of a write, not left to the heartbeat. A holder stopped
   * (SIGSTOP, Ctrl-Z) past the stale age is taken over; continued, it handles what arrived meanwhile
   * (a reply in its socket) before its overdue heartbeat timer runs: the event loop polls I/O before
   * it runs timers again. Trusting the `lost` flag alone, it journaled that reply over the new
   * holder's record and marked its next part in flight, and sent it, beside the new holder's copy.
   */
  stillOurs(): boolean {
    if (this.lost || this.released) return false;
    let text: string | undefined;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch (error) {
      // Gone: taken over and released, or removed. Unreadable for another reason (EMFILE, EIO): not
      // proof of anything, as for the heartbeat, which only a changed or missing record makes lost.
      if (errnoCode(error) !== 'ENOENT') return true;
    }
    const owner = text === undefined ? undefined : parseOwner(text);
    if (owner?.token === this.owner.token) return true;
    this.markLost(owner);
    return false;
  }

  prove(): void {
    if (!this.stillOurs()) throw new LockLostError(this.path, this.lostTo);
  }

  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    const wasLost = this.lost;
    this.stop();
    if (wasLost) return;
    const seen = await observe(this.path).catch(() => undefined);
    if (seen?.owner?.token === this.owner.token) await unlink(this.path).catch(() => undefined);
  }

  releaseSync(): void {
    if (this.released || this.lost) return;
    this.released = true;
    this.stop();
    try {
      if (parseOwner(readFileSync(this.path, 'utf8'))?.token === this.owner.token) unlinkSync(this.path);
    } catch {
      // best effort at exit
    }
  }
}

type AttemptResult = { lock: Lock } | { held: ObservedLock };

async function attempt(stateDir: string, path: string, options: LockOptions, staleMs: number): Promise<AttemptResult> {
  const token = randomBytes(12).toString('hex');
  const owner: LockOwner = { tool: 'graphiti-memory-sync', pid: process.pid, hostname: hostName, startedAt: new Date().toISOString(), token, staleMs, ...(processStart === undefined ? {} : { start: processStart }) };
  if (options.label !== undefined) owner.label = options.label;
  ownTokens.add(token);
  try {
    await mkdir(stateDir, { recursive: true, mode: 0o700 });
    // A few rounds: the lock can vanish between our failed create and our look at it.
    for (let round = 0; round < 5; round++) {
      if (createLockFile(path, `${JSON.stringify(owner)}\n`, token)) {
        const lock = new LockImpl(path, owner, options.heartbeatMs ?? Math.max(10, Math.floor(staleMs / 3)), options.onLost);
        await removeLeftovers(stateDir, options.name ?? LOCK_FILE);
        return { lock };
      }
      const seen = await observe(path);
      if (seen === undefined) continue;
      if (staleReason(seen, staleMs) === undefined) return { held: seen };
      await takeOver(path, seen, token);
    }
    const seen = await observe(path);
    return { held: seen ?? { owner: undefined, mtimeMs: Date.now(), ino: 0, dev: 0, text: '' } };
  } finally {
    // Keep the token only if it became a held lock (LockImpl.stop removes it on release).
    if (![...heldLocks].some((l) => l.owner.token === token)) ownTokens.delete(token);
  }
}

/** One attempt (including taking over a stale lock). Returns undefined if a live owner holds it. */
export async function tryAcquireLock(stateDir: string, options: Omit<LockOptions, 'timeoutMs' | 'onWait'> = {}): Promise<Lock | undefined> {
  options.signal?.throwIfAborted();
  const result = await attempt(stateDir, lockFilePath(stateDir, options.name), options, options.staleMs ?? DEFAULT_STALE_MS);
  return 'lock' in result ? result.lock : undefined;
}

/** Waits for the lock (backoff polling) up to timeoutMs; throws LockTimeoutError naming the holder. */
export async function acquireLock(stateDir: string, options: LockOptions = {}): Promise<Lock> {
  const path = lockFilePath(stateDir, options.name);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const staleMs = options.staleMs ?? DEFAULT_STALE_MS;
  const started = Date.now();
  const deadline = started + timeoutMs;
  // Polls 15 ms, ×1.5 each time, up to a quarter of the stale age (at most 500 ms), ±25 % jitter.
  const poll = { initialMs: FIRST_POLL_MS, maxMs: Math.max(5, Math.min(MAX_POLL_MS, Math.floor(staleMs / 4))), factor: 1.5, low: 0.75, high: 1.25 };
  let round = 1;
  let lastHolderToken: string | null = null;
  for (;;) {
    options.signal?.throwIfAborted();
    const result = await attempt(stateDir, path, options, staleMs);
    if ('lock' in result) return result.lock;
    const holder = result.held.owner;
    const holderToken = holder?.token ?? '';
    if (holderToken !== lastHolderToken) {
      lastHolderToken = holderToken;
      round = 1; // a new holder: the lock is moving, look again soon
      options.onWait?.(holder);
    }
    const now = Date.now();
    if (now >= deadline) throw new LockTimeoutError(path, holder, now - started, Date.now() - result.held.mtimeMs);
    try {
      await sleep(Math.max(1, Math.min(backoffDelay(poll, round), deadline - now)), options.signal);
    } catch (error) {
      // Surface the caller's abort reason rather than the timer's generic AbortError.
      options.signal?.throwIfAborted();
      throw error;
    }
    round++;
  }
}

/** Runs fn while holding the lock; always releases. */
export async function withLock<T>(stateDir: string, fn: (lock: Lock) => Promise<T>, options: LockOptions = {}): Promise<T> {
  const lock = await acquireLock(stateDir, options);
  try {
    return await fn(lock);
  } finally {
    await lock.release();
  }
}

/**
 * Runs fn while holding the lock if no live owner holds it now (one attempt), else not at all:
 * undefined. For a write that may be skipped but must not wait for, or race, the run holding it
 * (a context refresh recording what it saw in a file the sync writes: graphiti/server-rules.ts).
 */
export async function withLockIfFree<T>(stateDir: string, fn: () => Promise<T>, options: Omit<LockOptions, 'timeoutMs' | 'onWait'> = {}): Promise<T | undefined> {
  const lock = await tryAcquireLock(stateDir, options);
  if (lock === undefined) return undefined;
  try {
    return await fn();
  } finally {
    await lock.release();
  }
}

/** Who holds the lock right now (for `status`), or undefined if it is free. */
export async function inspectLock(
  stateDir: string,
  options: { staleMs?: number; name?: string } = {},
): Promise<{ owner: LockOwner | undefined; heartbeatAgeMs: number; stale: string | undefined } | undefined> {
  const seen = await observe(lockFilePath(stateDir, options.name));
  if (seen === undefined) return undefined;
  return { owner: seen.owner, heartbeatAgeMs: Date.now() - seen.mtimeMs, stale: staleReason(seen, options.staleMs ?? DEFAULT_STALE_MS, Date.now(), performance.now(), false) };
}

/** Internals exposed for tests only. */
export const lockInternals = { takeOver, observe, staleReason };
