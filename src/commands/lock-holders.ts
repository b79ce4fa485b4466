/**
 * WHO_HOLDS_IT: `status` names who holds the state lock (state/lock.ts) and the hook worker's lease
 * (worker/spawn.ts), and what the person can do about it. A sync that says "waiting for another sync"
 * named a pid and nothing else: whether that process still ran, was stopped (Ctrl-Z, SIGSTOP), was
 * gone, or was on another machine sharing the state folder, and whether waiting helps, was left to
 * the person, who would delete the lock file by hand (a live holder's too). Each holder is named by
 * its pid, the kind of command (the lock's label), since when, where, and its standing, judged by
 * the rules that decide a takeover (state/lock.ts `holderGone`, `takeoverAfterMs`; worker/spawn.ts
 * `lockIsStale`; util/process-identity.ts for a stopped process), each with its next step. No
 * secret: a lock's and a lease's token are never shown (they let a process act as the holder).
 */
import { inspectLock, holderGone, ownedOnThisHost, takeoverAfterMs, type LockOwner } from '../lib/state/lock.js';
import { isDirty, lockIsStale, readLock, workerFiles } from '../lib/worker/spawn.js';
import { processStopped } from '../lib/util/process-identity.js';
import { cli } from '../lib/util/install-route.js';

/** How a holder stands, as `status` says it (state/lock.ts and worker/spawn.ts judge them so). */
export type HolderStanding = 'running' | 'stopped' | 'not-answering' | 'gone' | 'elsewhere' | 'unreadable';

/** One holder, for `status` (`--json` keeps these fields; the text is `line`). */
export interface LockHolder {
  what: 'state lock' | 'worker lease';
  /** Absent when the record cannot be read (a lock file being written, or debris). */
  pid?: number;
  /** The kind of command: the lock's label (`cli sync`, `hook worker`, `watch`, `pull`, …). */
  kind: string;
  since?: string;
  /** `this machine`, or the host a lock file names (a state folder other machines share). */
  host?: string;
  standing: HolderStanding;
  /** The state lock's last heartbeat, seconds ago. */
  heartbeatAgeS?: number;
  /** What it means and the next step, in one line. */
  line: string;
}

const seconds = (ms: number) => Math.max(0, Math.round(ms / 1000));

/** Who holds the state lock and the worker's lease now; empty when neither is held. */
export async function lockHolders(stateDir: string, now: number = Date.now()): Promise<LockHolder[]> {
  const out: LockHolder[] = [];
  const seen = await inspectLock(stateDir).catch(() => undefined);
  if (seen !== undefined) out.push(stateLockHolder(seen.owner, seen.heartbeatAgeMs));
  const lease = workerLeaseHolder(stateDir, now);
  if (lease !== undefined) out.push(lease);
  return out;
}

function stateLockHolder(owner: LockOwner | undefined, heartbeatAgeMs: number): LockHolder {
  const age = seconds(heartbeatAgeMs);
  const waiters = 'a sync, pull or hook worker that starts meanwhile waits for it';
  if (owner === undefined) {
    const after = seconds(takeoverAfterMs(undefined, false));
    return { what: 'state lock', kind: 'unknown', standing: 'unreadable', heartbeatAgeS: age, line: `its file cannot be read (being written, or left by a crash; last changed ${age} s ago): ${waiters}, and takes it over once it is ${after} s old; nothing to do` };
  }
  const who = { what: 'state lock' as const, pid: owner.pid, kind: owner.label ?? 'unknown', since: owner.startedAt, heartbeatAgeS: age };
  const named = `a ${who.kind} (pid ${owner.pid}`;
  if (!ownedOnThisHost(owner)) {
    const after = seconds(takeoverAfterMs(owner, false));
    return { ...who, host: owner.hostname, standing: 'elsewhere', line: `${named} on ${owner.hostname}, another machine sharing this state folder, since ${owner.startedAt}; last heartbeat ${age} s ago): this machine cannot see that process; ${waiters}, and takes it over once its heartbeat is ${after} s old. If that machine's sync is done or gone, nothing to do: it is taken over then` };
  }
  const here = { ...who, host: 'this machine' };
  if (holderGone(owner)) return { ...here, standing: 'gone', line: `${named}, this machine, since ${owner.startedAt}) has ended (killed, or the machine restarted): the next sync, pull or hook takes it over at once; nothing to do` };
  const after = seconds(takeoverAfterMs(owner, true));
  if (processStopped(owner.pid) === true) {
    return { ...here, standing: 'stopped', line: `${named}, this machine, since ${owner.startedAt}) is stopped (Ctrl-Z or SIGSTOP; last heartbeat ${age} s ago): it does nothing until continued. \`kill -CONT ${owner.pid}\` (or \`fg\` in its terminal) lets it finish; else a sync waiting takes the lock over about ${after} s after that heartbeat, and the stopped one, once continued, stops with nothing lost` };
  }
  if (heartbeatAgeMs > takeoverAfterMs(owner, false)) {
    return { ...here, standing: 'not-answering', line: `${named}, this machine, since ${owner.startedAt}) runs but its heartbeat is ${age} s old (hung, or the clock was changed): a sync waiting takes the lock over about ${after} s after that heartbeat; \`kill ${owner.pid}\` ends it now` };
  }
  return { ...here, standing: 'running', line: `${named}, this machine, since ${owner.startedAt}; heartbeat ${age} s ago) is at work: ${waiters} and goes on after it; nothing to do. Were it to stop answering, a waiting sync takes the lock over about ${after} s after its last heartbeat` };
}

/** The hook worker's lease (this build's: worker/spawn.ts `workerFiles`); a lease names no host: the worker runs where its hook did. */
function workerLeaseHolder(stateDir: string, now: number): LockHolder | undefined {
  const files = workerFiles(stateDir);
  const lease = readLock(files.pidFile);
  if (lease === undefined) return undefined;
  const who = { what: 'worker lease' as const, pid: lease.pid, kind: 'hook worker', since: lease.startedAt, host: 'this machine' };
  const named = `the hooks' background worker (pid ${lease.pid}, since ${lease.startedAt})`;
  if (lockIsStale(files.pidFile, lease, now)) return { ...who, standing: 'gone', line: `${named} has ended (killed, or the machine restarted): the next hook takes its lease over and starts one; nothing to do` };
  const waiting = isDirty(stateDir) ? '; requests from hooks wait in its queue' : '';
  if (processStopped(lease.pid) === true) {
    return { ...who, standing: 'stopped', line: `${named} is stopped (Ctrl-Z or SIGSTOP)${waiting}: a stopped worker keeps its lease while it lives, so hooks only leave requests for it. \`kill -CONT ${lease.pid}\` lets it go on (its time limit then ends it if it is overdue), or \`kill ${lease.pid}\` ends it, and the next hook starts another` };
  }
  return { ...who, standing: 'running', line: `${named} is at work (syncing and refreshing the context after a session)${waiting}; hooks that start meanwhile leave their request for it; nothing to do (\`${cli()} sync\` run now waits for its state lock)` };
}

/** The lines `status` prints for the holders. */
export function holderLines(holders: readonly LockHolder[]): string[] {
  return holders.map((h) => `${h.what === 'state lock' ? 'State lock' : 'Worker lease'}: ${h.line}`);
}
