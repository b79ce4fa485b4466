/**
 * A stand-in for the local server's supervisor: a process whose command line reads `… server run`
 * (config/server-runtime.ts COMMAND_MARKS) and its identity (pid + start time), as `server start`
 * records it in runtime.json. Without the identity a runtime file counts as someone else's.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { identifyProcess, processCommandLine, type ProcessIdentity } from '../../src/lib/util/process-identity.js';

export interface FakeSupervisor {
  child: ChildProcess;
  identity: ProcessIdentity;
}

/** Starts it and waits (bounded) until its start time and command line can be read. */
export async function startFakeSupervisor(mark = 'server run'): Promise<FakeSupervisor> {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', ...mark.split(' ')], { stdio: 'ignore' });
  await new Promise((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', reject);
  });
  const pid = child.pid as number;
  // The start time is readable as soon as the process exists; the command line once exec is done.
  const deadline = Date.now() + 10_000;
  for (;;) {
    const identity = identifyProcess(pid);
    if (identity !== undefined && (processCommandLine(pid) ?? '').includes(mark)) return { child, identity };
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`fake supervisor ${pid} never became identifiable`);
    }
    await new Promise((r) => setImmediate(r));
  }
}
