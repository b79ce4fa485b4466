/**
 * The start lock (`server/start.lock`): one command at a time changes which local server runs.
 * `server start` holds it from before the install until its server answers or has failed, and so does
 * a foreground `server run` (the user service, a terminal); `server restart`, `server stop` and
 * `server upgrade` hold it across their stop and their start.
 *
 * So a restart or a stop given while another `server start` is still starting waits for that start
 * to finish (said, naming it), then acts on the server it started. Before, a restart ended the start
 * half-way (it failed with "the server did not start", and whether the server that ran afterwards
 * was started with the settings of the restart was left to chance), and a stop given while the
 * start was still installing said "not running", after which that start's server came up.
 *
 * The lock holds its owner's pid and start time; an owner that is no longer that process (ended,
 * killed, or its pid reused since) is taken over (util/process-identity.ts), so a start ended by
 * Ctrl-C or `kill` frees it at once.
 */
import { closeSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { processAlive, serverStateDir } from '../config/server-runtime.js';
import { identifyProcess, isSameProcess, processCommandLine } from '../util/process-identity.js';
import { ServerSetupError } from './errors.js';
import { privateDir } from './private-files.js';

/** How long a command waits for the lock before giving up, naming its holder. */
const LOCK_WAIT_MS = 900_000;
/** How often a held lock's owner is looked at again. */
const LOCK_POLL_MS = 200;

/** The command holding the lock, as it would be typed (`server start`, `server restart`, …). */
export interface StartLockOwner {
  pid: number;
  command: string;
}

export function startLockPath(stateDir: string): string {
  return join(serverStateDir(stateDir), 'start.lock');
}

/** Which of our server commands the process is (its command line), `server start` when that cannot be read. */
function commandOf(pid: number): string {
  const match = /\bserver (start|restart|stop|upgrade|run)\b/.exec(processCommandLine(pid) ?? '');
  return `server ${match?.[1] ?? 'start'}`;
}

/**
 * Takes the lock, waiting while a live command of ours holds it (`onWait` is told once, with that
 * command, when there is a wait), and returns its file descriptor.
 */
async function takeStartLock(lock: string, onWait: (owner: StartLockOwner) => void): Promise<number> {
  const deadline = Date.now() + LOCK_WAIT_MS;
  const me = identifyProcess(process.pid);
  let told = false;
  for (;;) {
    try {
      const fd = openSync(lock, 'wx', 0o600);
      writeFileSync(fd, me === undefined ? String(process.pid) : `${me.pid} ${me.start}`);
      return fd;
    } catch {
      let text = '';
      try {
        text = readFileSync(lock, 'utf8');
      } catch {
        continue;
      }
      const [pidText = '', ...start] = text.split(' ');
      const pid = Number(pidText);
      const owner = start.length === 0 ? processAlive(pid) : isSameProcess({ pid, start: start.join(' ') }, 'server');
      // An empty lock is one being written: its owner is alive.
      if (text !== '' && !owner) {
        rmSync(lock, { force: true });
        continue;
      }
      if (Date.now() > deadline) throw new ServerSetupError(`another "${commandOf(pid)}" (pid ${pidText}) has held ${lock} for 15 minutes: stop it, or delete that file`);
      if (!told && text !== '') {
        told = true;
        onWait({ pid, command: commandOf(pid) });
      }
      await new Promise((r) => setTimeout(r, LOCK_POLL_MS));
    }
  }
}

/**
 * Takes the start lock of the server under `stateDir` (as takeStartLock says) and returns what frees
 * it, which may be called more than once. For a command that holds it for part of its life: a
 * foreground `server run` from before its start-up until its server answers or has failed.
 */
export async function holdStartLock(stateDir: string, onWait: (owner: StartLockOwner) => void): Promise<() => void> {
  privateDir(stateDir);
  privateDir(serverStateDir(stateDir));
  const lock = startLockPath(stateDir);
  const fd = await takeStartLock(lock, onWait);
  let held = true;
  return () => {
    if (!held) return;
    held = false;
    closeSync(fd);
    rmSync(lock, { force: true });
  };
}

/** Runs `body` holding the start lock of the server under `stateDir`, and frees it after. */
export async function underStartLock<T>(stateDir: string, onWait: (owner: StartLockOwner) => void, body: () => Promise<T>): Promise<T> {
  const release = await holdStartLock(stateDir, onWait);
  try {
    return await body();
  } finally {
    release();
  }
}
