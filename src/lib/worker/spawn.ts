/**
 * Starting the background worker from a hook, at most one at a time, without waiting.
 *
 * Files in `<stateDir>/worker/format-<n>/`, n the state format this build writes (`WORKER_STATE_FORMAT`):
 * - `worker.pid`: the lock. JSON `{pid, token, startedAt}`. Created atomically WITH its
 *   content (write a temp file, then link(2) it to the lock name: link fails with EEXIST if
 *   the lock exists), so two concurrent session starts can never both win and a reader
 *   never sees a half-written lock.
 * - `worker.dirty`: "more work arrived". One line per request (the cwd), appended.
 *
 * Protocol (race-free against the worker's exit):
 *   hook:   append cwd to worker.dirty  →  try to take the lock
 *             won  → spawn the detached worker, hand it the lock token on its stdin (TOKEN_ON_STDIN),
 *                    write its pid into the lock
 *             lost → done: the running worker will see worker.dirty
 *   worker: loop { consume worker.dirty; sync; refresh contexts } while dirty (bounded),
 *           release the lock, then check worker.dirty once more and re-take the lock if set.
 * Because the hook writes `dirty` BEFORE looking at the lock and the worker looks at
 * `dirty` AFTER releasing it, a request is never lost between the two.
 *
 * A lock is stale when its process is gone: the lease names its process by pid, kernel start
 * time and command line (util/process-identity.ts), so a pid reused by an unrelated process does
 * not hold it, and no wall clock is read. The clock is no judge here: set back (NTP, a VM
 * restored), a lease could be dated hours in the future, and with its pid reused it held every
 * sync off until the clock caught up; set forward, a live worker's lease looked older than the time
 * limit and a second worker started beside it. Only a lease that names no start time (written
 * before identities were kept, or where the platform tells none) falls back to the clock, in both
 * directions. (It no longer asks whether a live process carries the lease's token on its command
 * line: the token is on none now, TOKEN_ON_STDIN, and any local user can start a process whose
 * arguments hold whatever string they like.)
 * It is created and taken over with util/lock-file.ts, the protocol the state lock uses too; see
 * `takeLock`.
 *
 * Size: the lease (util/lock-file.ts), the request queue and the spawn are one protocol between
 * the hook and the worker; split, their ordering rules would be spread over three files.
 */
import { appendFileSync, mkdirSync, readFileSync, renameSync, statSync, unlinkSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { setPriority } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Logger } from '../util/log.js';
import { createLockFile, readLockFile, removeStaleLock } from '../util/lock-file.js';
import { buildRootOf } from '../util/package-root.js';
import { workerSwitches } from '../config/switches.js';
import { writeFileAtomicSync } from '../util/fs-atomic.js';
import { uniqueId } from '../util/ids.js';
import { isProcessAlive } from '../util/process-alive.js';
import { identifyProcess, isSameProcess, processCommandLine } from '../util/process-identity.js';
import { processEnv } from '../config/process-env.js';

/** The worker stops itself after this long (a hung server must not leave a zombie). */
export const WORKER_TIMEOUT_MS = 5 * 60_000;
/** A lease that names no process start time is stale when dated further than this from now, either way (pid reuse, a clock set back). */
export const LOCK_STALE_MS = WORKER_TIMEOUT_MS + 60_000;
/** An unparseable lease is debris after this (our writes are atomic; a writer on a filesystem without hard links may be mid-way). */
const UNPARSEABLE_GRACE_MS = 10_000;

export interface WorkerFiles {
  dir: string;
  pidFile: string;
  dirtyFile: string;
}

/**
 * The newest state format this build writes (state/format.ts `HELD_STATE_VERSION`, which the hooks
 * may not load; test/hooks/worker-versions.test.ts holds the two equal).
 *
 * Builds that write the same state format share one worker lease and one request queue; builds of
 * another format never wait for each other. Two copies of the tool of different ages may run from
 * one Claude Code (the plugin beside install's settings hooks), and every copy's hooks start a
 * worker. When they shared one lease, the first hook to take it decided which build acted, and a
 * build older than the state refuses it ("upgrade"): its worker took every request, the newer
 * copy's too, synced nothing, and nothing synced until the older copy was updated. Now a worker
 * only ever waits for a worker that reads what it writes. A build of another format still runs,
 * beside it: an older one refuses the state and writes nothing (and since format 2 stops at that
 * refusal, worker/loop.ts); a newer compatible one (`compatibleWith`) takes its turn under the
 * state lock, the one writer at a time (state/lock.ts). `status` names such copies (install/copies.ts).
 * While a part is held as another machine's, the state is written as version 3 (state/format.ts
 * HELD_NEEDS_NEWER_FORMAT), which builds from before that rule refuse; so this build's lease is
 * format 3's, not the format-2 lease those builds keep. Sharing it, their worker (its hook may start
 * first) took this build's requests with the lease, refused the state and stopped: the edit waited
 * for a hook of this build to win the lease, for as long as the older copy stayed installed. A
 * format-2 build beside this one now runs its own worker: on a held state it refuses and writes
 * nothing; on one written as 2 (nothing marked as another machine's) it takes its turn under the
 * state lock, as a compatible build does. The held state became version 4 (state/format.ts: builds
 * that wrote 3 act on it by older copy rules), so this build's lease is format 4's, and a format-3
 * build's worker beside it runs on its own lease as the format-2 ones do.
 */
export const WORKER_STATE_FORMAT = 4;

/** The leases of older builds whose worker may run beside this one (the log names them: worker/loop.ts). */
export function leasesOfOlderBuilds(stateDir: string): WorkerFiles[] {
  return [sharedWorkerFilesOfOlderBuilds(stateDir), workerFiles(stateDir, 2), workerFiles(stateDir, 3)];
}

/** The lease and queue of the builds that write `format` (this build's by default): `<stateDir>/worker/format-<n>/`. */
export function workerFiles(stateDir: string, format: number = WORKER_STATE_FORMAT): WorkerFiles {
  const dir = join(stateDir, 'worker', `format-${format}`);
  return { dir, pidFile: join(dir, 'worker.pid'), dirtyFile: join(dir, 'worker.dirty') };
}

/**
 * The lease and queue every build before the rule above shared (`<stateDir>/worker/worker.pid` and
 * `worker.dirty`): builds of state format 1, and the first ones of format 2. This build never
 * writes them; it only reads the lease, to say which older worker runs beside it.
 */
export function sharedWorkerFilesOfOlderBuilds(stateDir: string): WorkerFiles {
  const dir = join(stateDir, 'worker');
  return { dir, pidFile: join(dir, 'worker.pid'), dirtyFile: join(dir, 'worker.dirty') };
}

export interface LockInfo {
  pid: number;
  token: string;
  /** When the lease was taken, by the wall clock: for people reading it, and the judge only of a lease with no `start`. */
  startedAt: string;
  /** The holder's kernel start time (util/process-identity.ts), when the platform tells it. */
  start?: string;
  /** The holder's command line when the lease was taken (with `start`). */
  command?: string;
}

/** The identity fields of a lease held by `pid`: its start time and command line, or none when they cannot be told. */
function identityOf(pid: number): Pick<LockInfo, 'start' | 'command'> {
  const identity = identifyProcess(pid);
  const command = identity === undefined ? undefined : processCommandLine(pid);
  return identity === undefined || command === undefined ? {} : { start: identity.start, command };
}

export { isProcessAlive } from '../util/process-alive.js';

export function readLock(pidFile: string): LockInfo | undefined {
  try {
    return parseLockInfo(readFileSync(pidFile, 'utf8'));
  } catch {
    return undefined; // missing or unreadable
  }
}

function parseLockInfo(text: string): LockInfo | undefined {
  try {
    const value = JSON.parse(text) as Partial<LockInfo>;
    if (typeof value.pid === 'number' && typeof value.token === 'string' && typeof value.startedAt === 'string') {
      const identity = typeof value.start === 'string' && typeof value.command === 'string' ? { start: value.start, command: value.command } : {};
      return { pid: value.pid, token: value.token, startedAt: value.startedAt, ...identity };
    }
  } catch {
    // torn or foreign
  }
  return undefined;
}

/** Whether the lease is stale (its process gone, or another one now): the one judge, for `takeLock` and for `status` (commands/lock-holders.ts). */
export function lockIsStale(pidFile: string, info: LockInfo | undefined, now: number): boolean {
  if (info === undefined) {
    // Unparseable: our writes are atomic, so this is debris; allow a grace period anyway (either
    // way from now: with the clock set back, a future mtime must not make it last for hours).
    try {
      return Math.abs(now - statSync(pidFile).mtimeMs) > UNPARSEABLE_GRACE_MS;
    } catch {
      return true;
    }
  }
  if (!isProcessAlive(info.pid)) return true;
  // The process the lease names, or another one that has its pid now: no clock needed.
  if (info.start !== undefined && info.command !== undefined) return !isSameProcess({ pid: info.pid, start: info.start }, info.command);
  // No start time recorded: the clock judges (see the top of this file).
  const started = Date.parse(info.startedAt);
  return !Number.isFinite(started) || Math.abs(now - started) > LOCK_STALE_MS;
}

export type TakeLockResult = { acquired: true; lock: LockInfo } | { acquired: false; holder: LockInfo | undefined };

/**
 * Tries to take the worker lock for `pid` (default: this process). Never blocks. The protocol is
 * util/lock-file.ts's, shared with the state lock: exclusive create via link(2); a stale lock is
 * removed under the takeover guard only if it is still the record judged stale (not handed on to
 * the worker meanwhile: `transferLock`), then created anew.
 */
export function takeLock(stateDir: string, options: { pid?: number; token?: string; now?: number } = {}): TakeLockResult {
  const files = workerFiles(stateDir);
  mkdirSync(files.dir, { recursive: true, mode: 0o700 });
  const pid = options.pid ?? process.pid;
  const lock: LockInfo = {
    pid,
    token: options.token ?? uniqueId(),
    startedAt: new Date(options.now ?? Date.now()).toISOString(),
    ...identityOf(pid),
  };
  const tag = uniqueId();
  for (let attempt = 0; attempt < 3; attempt++) {
    if (createLockFile(files.pidFile, `${JSON.stringify(lock)}\n`, tag)) return { acquired: true, lock };
    const seen = readLockFile(files.pidFile);
    if (seen === undefined) continue;
    const holder = parseLockInfo(seen.text);
    if (!lockIsStale(files.pidFile, holder, options.now ?? Date.now())) return { acquired: false, holder };
    removeStaleLock(files.pidFile, seen, (text) => parseLockInfo(text)?.token, tag);
  }
  return { acquired: false, holder: readLock(files.pidFile) };
}

/**
 * Rewrites the lock we hold (same token) with a new pid and that process's identity, atomically
 * (util/fs-atomic.ts): the hook hands its lease to the worker it spawned, then exits. A second hook
 * may have read the lease while it named the first one and find that hook gone only now; its
 * judgement was of the hook, so the takeover refuses the rewritten lease (util/lock-file.ts
 * `sameLockRecord`: the same record, not only the same token) and the second hook looks again.
 */
export function transferLock(stateDir: string, lock: LockInfo, pid: number): LockInfo {
  const files = workerFiles(stateDir);
  const current = readLock(files.pidFile);
  if (current === undefined || current.token !== lock.token) throw new Error('worker lock is not ours any more');
  const next: LockInfo = { pid, token: lock.token, startedAt: lock.startedAt, ...identityOf(pid) };
  writeFileAtomicSync(files.pidFile, `${JSON.stringify(next)}\n`);
  return next;
}

/** Removes the lock if it still carries our token. Never throws. */
export function releaseLock(stateDir: string, token: string): boolean {
  const files = workerFiles(stateDir);
  try {
    const current = readLock(files.pidFile);
    if (current?.token !== token) return false;
    unlinkSync(files.pidFile);
    return true;
  } catch {
    return false;
  }
}

/** One request for a worker pass: whose context to refresh and why. */
export interface WorkRequest {
  cwd: string;
  reason: string;
}

/** Records a request for another worker pass (appended; small writes with O_APPEND do not interleave). */
export function markDirty(stateDir: string, request: WorkRequest): void {
  const files = workerFiles(stateDir);
  mkdirSync(files.dir, { recursive: true, mode: 0o700 });
  appendFileSync(files.dirtyFile, `${JSON.stringify({ cwd: request.cwd, reason: request.reason, at: new Date().toISOString() })}\n`, { mode: 0o600 });
}

export function isDirty(stateDir: string): boolean {
  try {
    statSync(workerFiles(stateDir).dirtyFile);
    return true;
  } catch {
    return false;
  }
}

/**
 * Atomically takes all pending requests (rename, then read): returns them (distinct by
 * cwd+reason), or undefined when nothing was pending. Later requests land in a new file.
 */
export function consumeDirty(stateDir: string): WorkRequest[] | undefined {
  const files = workerFiles(stateDir);
  const taken = `${files.dirtyFile}.${uniqueId()}`;
  try {
    renameSync(files.dirtyFile, taken);
  } catch {
    return undefined;
  }
  const requests: WorkRequest[] = [];
  try {
    for (const line of readFileSync(taken, 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      try {
        const v = JSON.parse(line) as { cwd?: unknown; reason?: unknown };
        if (typeof v.cwd !== 'string' || v.cwd === '') continue;
        const reason = typeof v.reason === 'string' ? v.reason : 'unknown';
        if (!requests.some((r) => r.cwd === v.cwd && r.reason === reason)) requests.push({ cwd: v.cwd, reason });
      } catch {
        // a torn line: ignore
      }
    }
  } catch {
    // unreadable: the request still counts (as "sync, no context")
  } finally {
    try {
      unlinkSync(taken);
    } catch {
      // ignore
    }
  }
  return requests;
}

/** How to start the worker: node, its flags, and the script. */
export interface WorkerCommand {
  execPath: string;
  args: string[];
}

/**
 * The sibling `worker.js` of the running hook (dist), or `worker.ts` when the hook itself
 * runs from source under tsx: then the worker gets `--import <tsx loader>` resolved from
 * this package's node_modules (an absolute URL, so the worker's cwd does not matter).
 * GMS_WORKER_SCRIPT overrides the script (tests use a fake worker); a .ts override also gets tsx.
 */
export function workerCommand(env: Record<string, string | undefined> = processEnv(), hereUrl: string = import.meta.url): WorkerCommand {
  const here = fileURLToPath(hereUrl);
  const ext = extname(here);
  const override = workerSwitches(env).script;
  // src/lib/worker/spawn.ts → src/hooks/worker.ts; dist/hooks/session-start.js (bundled) → dist/hooks/worker.js
  // The plugin's bundles are .cjs (no package.json there; .mjs before): the worker beside them is too.
  const script = override !== undefined ? resolve(override) : join(buildRootOf(hereUrl), 'hooks', `worker${ext === '.ts' || ext === '.mjs' || ext === '.cjs' ? ext : '.js'}`);
  const args: string[] = [];
  if (extname(script) === '.ts') args.push('--import', pathToFileURL(createRequire(hereUrl).resolve('tsx')).href);
  args.push(script);
  return { execPath: process.execPath, args };
}

/**
 * TOKEN_ON_STDIN: the worker gets its lease's token on its stdin, never in its arguments. Every local
 * user reads every process's arguments (/proc/<pid>/cmdline, `ps`), and the token was there. What it
 * opened to a second user was small (the lease and the request queue are in the 0700 state folder,
 * so no one else can take, release or fill them), but it was the one proof the lease judge took
 * from a process's arguments: a lease with no recorded start time was held by any live process at
 * its pid whose command line held the token, so a process of theirs started with it at a reused pid
 * held every sync off for as long as it ran. A secret goes on no command line the tool starts (the
 * worker's is checked in test/hooks/worker-spawn.test.ts; the supervisor's, Graphiti's and
 * FalkorDB's in test/server/server-command.test.ts).
 *
 * Why stdin: the hook writes the token (a few dozen bytes) into the pipe right after the spawn;
 * the kernel keeps it once written, so the hook may exit at once (a small write to an empty pipe
 * completes inside the write call: libuv tries it before queueing), and the hook opens no file. The
 * worker reads it to the end (the hook's end closes with `end()` or its exit). No token (a hook
 * killed between its spawn and its write): the worker takes the lease itself, or leaves the request
 * for the holder (worker/loop.ts).
 */
export const TOKEN_ON_STDIN_FLAG = '--lock-token-on-stdin';

function handTokenOver(stdin: NodeJS.WritableStream | null, token: string): void {
  if (stdin === null) return;
  // A worker gone before it read is no error of the hook's (EPIPE): it takes the lease itself if it runs.
  stdin.on('error', () => undefined);
  stdin.end(`${token}\n`);
}

/**
 * The worker's side of TOKEN_ON_STDIN: the token the hook wrote, when started with the flag.
 *
 * LEGACY_TOKEN_ARGUMENT: the hook of an older build that starts this build's worker (an update
 * replacing the files one by one, the hook loaded before the worker's file changed) passes the token
 * as `--lock-token <t>`. It is on that command line already, so reading it there shows nobody
 * anything; ignored, this worker would find the lease naming its own pid, take it for another
 * worker's and leave the request undone, at every hook until the update is complete. Only the
 * worker reads it; the lease never judges a process by its arguments.
 */
export function leaseTokenFromStdin(argv: readonly string[], readStdin: () => string = () => readFileSync(0, 'utf8')): string | undefined {
  if (!argv.includes(TOKEN_ON_STDIN_FLAG)) {
    const legacy = argv.indexOf('--lock-token');
    const value = legacy === -1 ? undefined : argv[legacy + 1];
    return value === undefined || value === '' || value.startsWith('--') ? undefined : value;
  }
  try {
    const token = readStdin().trim();
    return token === '' ? undefined : token;
  } catch {
    return undefined; // nothing to read: the lease is taken as if no token were given
  }
}

/** The worker's niceness: the lowest (19), so the session it serves always goes first; its work is background catch-up, never urgent. */
const WORKER_NICENESS = 19;

function lowerPriority(pid: number): void {
  try {
    setPriority(pid, WORKER_NICENESS);
  } catch {
    // not allowed here (some containers): it runs at normal priority
  }
}

export type TriggerOutcome =
  | { action: 'spawned'; pid: number }
  | { action: 'already-running'; holder: LockInfo | undefined }
  | { action: 'disabled' }
  | { action: 'failed'; error: string };

/**
 * Asks for a background sync + context refresh for `cwd`: marks the work dirty, then starts
 * a detached worker unless one is running. Synchronous, never waits for the worker, never
 * throws. GMS_WORKER_DISABLED=1 turns spawning off (tests that must see no network at all).
 */
export function triggerWorker(options: { stateDir: string; cwd: string; logger: Logger; env?: Record<string, string | undefined>; reason: string }): TriggerOutcome {
  const env = options.env ?? processEnv();
  const { logger, stateDir } = options;
  try {
    if (workerSwitches(env).disabled) {
      logger.debug('worker disabled by GMS_WORKER_DISABLED', { reason: options.reason });
      return { action: 'disabled' };
    }
    markDirty(stateDir, { cwd: options.cwd, reason: options.reason });
    const taken = takeLock(stateDir);
    if (!taken.acquired) {
      logger.info('worker already running; marked dirty', { reason: options.reason, holderPid: taken.holder?.pid });
      return { action: 'already-running', holder: taken.holder };
    }
    const cmd = workerCommand(env);
    let pid: number | undefined;
    try {
      // Loaded here, not at the top: child_process brings net and dgram along, and a hook that
      // finds a worker running (most Stop hooks) never spawns.
      const { spawn } = createRequire(import.meta.url)('node:child_process') as typeof import('node:child_process');
      const child = spawn(cmd.execPath, [...cmd.args, '--cwd', options.cwd, '--reason', options.reason, TOKEN_ON_STDIN_FLAG], {
        detached: true,
        stdio: ['pipe', 'ignore', 'ignore'],
        env: { ...env },
        cwd: stateDir,
        windowsHide: true,
      });
      child.on('error', (error) => logger.error('worker spawn error', { error }));
      handTokenOver(child.stdin, taken.lock.token);
      child.unref();
      pid = child.pid;
      // Background work: the session (Claude Code starting, the model's turn) goes first.
      if (pid !== undefined) lowerPriority(pid);
    } catch (error) {
      releaseLock(stateDir, taken.lock.token);
      throw error;
    }
    if (pid === undefined) {
      releaseLock(stateDir, taken.lock.token);
      return { action: 'failed', error: 'spawn returned no pid' };
    }
    try {
      transferLock(stateDir, taken.lock, pid);
    } catch (error) {
      // The worker itself re-checks the token; nothing else to do here.
      logger.warn('could not hand the worker lock to the worker', { error });
    }
    logger.info('worker spawned', { workerPid: pid, reason: options.reason, script: cmd.args[cmd.args.length - 1] });
    return { action: 'spawned', pid };
  } catch (error) {
    logger.error('worker trigger failed', { error });
    return { action: 'failed', error: error instanceof Error ? error.message : String(error) };
  }
}
