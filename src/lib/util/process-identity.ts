/**
 * Which process a pid is, so that a pid recorded earlier is only trusted (reported as running,
 * signalled) while it is still the same process: after a reboot, or just a long time, the pid can
 * belong to anything. A process is named by its pid AND its start time: Linux reads both from
 * /proc (the start in clock ticks since boot, with the boot's id), macOS and the BSDs from `ps`
 * (`lstart`, to the second). The command line must also still contain what we started.
 * Where neither works, nothing is proven, and a caller must treat the process as not ours.
 */
import { readFileSync, statSync } from 'node:fs';
import { isProcessAlive } from './process-alive.js';

/** A process as recorded when it was started: its pid and its start time (opaque, compared as is). */
export interface ProcessIdentity {
  pid: number;
  start: string;
}

/** This boot's id where the system has one (Linux), else undefined: two readings that differ are two boots. */
export function bootId(): string | undefined {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}

function linuxBootId(): string {
  return bootId() ?? 'unknown-boot';
}

/** Start time and command line from one `ps` run (lstart is always 24 characters, e.g. "Wed Nov 25 19:08:33 2026"): how macOS and the BSDs tell; exported for its test, which runs it on Linux too. */
export function ps(pid: number): { start: string; command: string } | undefined {
  // Loaded only here (macOS, the BSDs): the config loader on the hook path imports this module,
  // and child_process would bring the socket and stream modules into every hook.
  const { spawnSync } = process.getBuiltinModule('node:child_process');
  // The C locale, so the start reads the same for every process that records or checks it.
  const r = spawnSync('/bin/ps', ['-ww', '-o', 'lstart=', '-o', 'command=', '-p', String(pid)], { encoding: 'utf8', timeout: 5000, env: { LC_ALL: 'C' } });
  const out = r.status === 0 ? r.stdout.trim() : '';
  if (out.length < 24) return undefined;
  return { start: out.slice(0, 24).replace(/\s+/g, ' '), command: out.slice(24).trim() };
}

/** The start time of a live process, or undefined (gone, or no way to tell on this platform). */
export function processStartTime(pid: number): string | undefined {
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  if (process.platform === 'linux') {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // Fields after the command name (which may hold spaces and parentheses): state is the 3rd
      // field of stat(5), starttime the 22nd, so index 19 after the name.
      const ticks = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
      return ticks === undefined ? undefined : `${linuxBootId()}:${ticks}`;
    } catch {
      return undefined;
    }
  }
  if (process.platform === 'win32') return undefined;
  return ps(pid)?.start;
}

/** The command line of a live process, its arguments joined by single spaces, or undefined. */
export function processCommandLine(pid: number): string | undefined {
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  if (process.platform === 'linux') {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0+$/, '').split('\0').join(' ');
    } catch {
      return undefined;
    }
  }
  if (process.platform === 'win32') return undefined;
  return ps(pid)?.command;
}

/**
 * Whether a live process is stopped (SIGSTOP, Ctrl-Z, a debugger: state T or t), for a person asking
 * why it holds something (`status`): it keeps what it holds and does nothing until continued.
 * Linux reads /proc; elsewhere undefined (not told).
 */
export function processStopped(pid: number): boolean | undefined {
  if (!Number.isInteger(pid) || pid <= 0 || process.platform !== 'linux') return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The state is the field after the command name (which may hold spaces and parentheses).
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state === 'T' || state === 't';
  } catch {
    return undefined;
  }
}

/** The identity of a live process, to record when we start it. */
export function identifyProcess(pid: number | undefined): ProcessIdentity | undefined {
  if (pid === undefined || !isProcessAlive(pid)) return undefined;
  const start = processStartTime(pid);
  return start === undefined ? undefined : { pid, start };
}

/**
 * OWNED_BY_US: every process we record (the local server's supervisor, Graphiti and FalkorDB, the
 * worker, a start lock's holder) was started by this user and keeps running as this user. A process
 * of another local user is never one of ours, whatever its pid, start time and command line say: a
 * record naming one was forged (config/env-file.ts OWN_STATE_DIR keeps others out of the state
 * folder; this is the second guard behind it), and trusting it would send the local server's token
 * to their listener or signal their process. Linux: /proc/<pid> belongs to the process's effective
 * user. Elsewhere `ps` gives no owner in the form we read: not judged there.
 */
function runsAsUs(pid: number): boolean {
  const uid = process.getuid?.();
  if (process.platform !== 'linux' || uid === undefined) return true;
  try {
    return statSync(`/proc/${pid}`).uid === uid;
  } catch {
    return false;
  }
}

/**
 * Whether the recorded process is still running as the same process (same start time, this user:
 * OWNED_BY_US) and its command line still contains `mark`. Anything unproven (no record, no start
 * time) is false: better to report a server as not running than to signal someone else's process.
 */
export function isSameProcess(recorded: ProcessIdentity | undefined, mark: string): boolean {
  if (recorded === undefined || !isProcessAlive(recorded.pid) || !runsAsUs(recorded.pid)) return false;
  if (process.platform !== 'linux' && process.platform !== 'win32') {
    // One ps run for both.
    const info = ps(recorded.pid);
    return info !== undefined && info.start === recorded.start && info.command.includes(mark);
  }
  const start = processStartTime(recorded.pid);
  if (start === undefined || start !== recorded.start) return false;
  return processCommandLine(recorded.pid)?.includes(mark) === true;
}

/**
 * Whether the recorded process has provably ended: its pid is gone, or now belongs to a process
 * started at another time. The opposite default to isSameProcess, for a caller about to remove
 * what the process may still be using (a build's work folder): what cannot be read (a command
 * line or start time hidden from us) keeps the process counted alive.
 */
export function provablyGone(recorded: ProcessIdentity): boolean {
  if (!isProcessAlive(recorded.pid)) return true;
  const start = process.platform !== 'linux' && process.platform !== 'win32' ? ps(recorded.pid)?.start : processStartTime(recorded.pid);
  return start !== undefined && start !== recorded.start;
}
