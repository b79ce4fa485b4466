/**
 * Stand-in processes (a supervisor, a Graphiti, a redis-server, a lookalike) identified by pid and
 * start time (util/process-identity.ts) with their command line read, as our code reads them. The
 * command line is the exec'ed program's only once the kernel has finished loading it, and no event
 * of Node's says when: `spawn()` returns after the exec closed libuv's close-on-exec pipe (libuv
 * src/unix/process.c: "used by the parent to wait until the child has called execve()"), but Linux
 * closes those descriptors before the new program's arguments are in place, so /proc/<pid>/cmdline
 * can still read empty then (seen here: 1 spawn in 2,000 under load). What only the exec'ed program
 * can do is run: each stand-in writes one line on its stdout as it starts, and its identity is read
 * when that line arrives (no poll, no deadline). A child that ends first fails the wait.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { identifyProcess, processCommandLine, type ProcessIdentity } from '../../src/lib/util/process-identity.js';

/** node running `script`, with `marks` after it on its command line; it says on its stdout that it runs. */
export function spawnNode(script: string, marks: readonly string[]): ChildProcess {
  return spawn(process.execPath, ['-e', `process.stdout.write('running\\n'); ${script}`, ...marks], { stdio: ['ignore', 'pipe', 'ignore'] });
}

/** The identity of a child of `spawnNode`, once it runs; its command line must hold `mark`. */
export async function runningIdentity(child: ChildProcess, mark: string): Promise<ProcessIdentity> {
  const out = child.stdout;
  if (out === null) throw new Error('runningIdentity needs a child of spawnNode (its stdout a pipe)');
  await new Promise<void>((resolve, reject) => {
    const ended = () => reject(new Error(`process ${child.pid ?? '(none)'} ended before it ran (exit ${child.exitCode ?? child.signalCode ?? 'unknown'})`));
    out.once('data', () => {
      out.off('end', ended);
      resolve();
    });
    out.once('end', ended);
    out.once('error', reject);
  });
  // Its one line is read: the pipe is of no further use.
  out.destroy();
  const pid = child.pid as number;
  const identity = identifyProcess(pid);
  const command = processCommandLine(pid);
  if (identity === undefined || command?.includes(mark) !== true) {
    throw new Error(`process ${pid} runs but does not read as "${mark}": ${identity === undefined ? 'no start time' : `command line ${JSON.stringify(command)}`}`);
  }
  return identity;
}
