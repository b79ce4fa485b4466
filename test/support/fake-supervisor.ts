/**
 * A stand-in for the local server's supervisor: a process whose command line reads `… server run`
 * (config/server-runtime.ts COMMAND_MARKS) and its identity (pid + start time), as `server start`
 * records it in runtime.json. Without the identity a runtime file counts as someone else's.
 */
import type { ChildProcess } from 'node:child_process';
import type { ProcessIdentity } from '../../src/lib/util/process-identity.js';
import { runningIdentity, spawnNode } from './spawned.js';

export interface FakeSupervisor {
  child: ChildProcess;
  identity: ProcessIdentity;
}

/** Starts it, and reads its identity once it runs (test/support/spawned.ts: the line it writes as it starts, not a poll). */
export async function startFakeSupervisor(mark = 'server run'): Promise<FakeSupervisor> {
  const child = spawnNode('setInterval(() => {}, 1000)', mark.split(' '));
  try {
    return { child, identity: await runningIdentity(child, mark) };
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
}
