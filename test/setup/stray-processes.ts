/**
 * No process a test starts outlives the test run (vitest globalSetup, in the config every suite
 * shares: test/setup/shared-config.ts; the conformance runner calls it too).
 *
 * The setup names the run: GMS_TEST_RUN, a fresh id in the environment that vitest's workers, and
 * through them every process the tests start, inherit (test/support/test-run.ts; the sandboxes
 * that build a child's environment from scratch hand it on, and so does ManagedProcess for the
 * Graphiti server and FalkorDB). The teardown, once every test file and the suite's own global
 * teardown have ended, looks for the processes that still carry this run's name and are not
 * vitest's pool workers: a detached hook worker a test left running while it removed its sandbox,
 * a Graphiti server or FalkorDB it never stopped (orphaned when vitest ended its worker), a
 * server a suite's global setup kept and its teardown left running. A stray gets a grace to end on its own (a worker its test waited for by its protocol can
 * still be exiting when the last file ends); what is left then is killed, with its process group
 * (a detached worker leads its own), and the run fails naming each stray's test file and command.
 * A stray once stayed for good: a worker under tsx whose sandbox (its cwd) was removed while it
 * loaded waits forever on the module-hooks thread that died on process.cwd(), so its own time limit
 * never fires (test/hooks/package-replaced.test.ts, which now waits for the worker it starts).
 *
 * Other runs on the machine (another checkout's suite, the "hooks from dist" run) have other
 * names and are never touched. Linux only: elsewhere /proc does not tell a process's environment,
 * and nothing is checked.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { TEST_FILE_VAR, TEST_RUN_VAR } from '../support/test-run.js';

/**
 * How long a stray may take to end on its own before it is killed: ample for an exit (the worker
 * runs at the lowest priority on a busy machine), far below a hang. GMS_STRAY_GRACE_MS shortens it
 * for the test of this guard (test/scripts/stray-processes.test.ts).
 */
const GRACE_MS = Number(process.env.GMS_STRAY_GRACE_MS ?? 10_000);

interface Stray {
  pid: number;
  file: string | undefined;
  command: string;
}

let run: string | undefined;

export function setup(): void {
  if (!existsSync('/proc/self/environ')) return;
  // A fresh name even inside another marked run (a test that runs a suite): each run judges its own.
  run = randomUUID();
  process.env[TEST_RUN_VAR] = run;
}

export async function teardown(): Promise<void> {
  if (run === undefined) return;
  const marker = `${TEST_RUN_VAR}=${run}`;
  const deadline = Date.now() + GRACE_MS;
  let strays = findStrays(marker);
  // Polling /proc is the only way to see an unrelated process end (it is not our child to wait for).
  while (strays.length > 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    strays = findStrays(marker);
  }
  if (strays.length === 0) return;
  for (const stray of strays) kill(stray.pid);
  const lines = strays.map((s) => `  pid ${s.pid} from ${s.file ?? '(unknown test file)'}: ${s.command}`);
  // vitest prints a teardown's error but still exits 0 for it: the exit code is set here.
  process.exitCode = 1;
  throw new Error(`${strays.length} process(es) started by the tests outlived the test run (killed now). The test that starts one must wait for its end, or end it, before it removes its sandbox:\n${lines.join('\n')}`);
}

/** The live processes that carry `marker` in their environment and are neither this process nor one of its pool workers. */
function findStrays(marker: string): Stray[] {
  const strays: Stray[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    if (pid === process.pid) continue;
    let environ: string[];
    let command: string;
    try {
      environ = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
      command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
    } catch {
      continue; // gone, or another user's
    }
    // vitest's pool workers (our children) may still be closing: the teardown runs before the pool
    // closes. Anything below them, a test's child whose file has ended, is a stray; so is any other
    // child of ours, a server a suite's global setup started and its teardown (run before this one)
    // left running.
    if (!environ.includes(marker) || isPoolWorker(pid, command)) continue;
    const file = environ.find((e) => e.startsWith(`${TEST_FILE_VAR}=`))?.slice(TEST_FILE_VAR.length + 1);
    strays.push({ pid, file, command });
  }
  return strays;
}

/** The fields of /proc/<pid>/stat after the command name (state, ppid, pgrp, ...): the name may hold spaces and parentheses. */
function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** One of vitest's pool workers: our child, running vitest's worker entry (vitest/dist/workers/forks.js). */
function isPoolWorker(pid: number, command: string): boolean {
  return parentOf(pid) === process.pid && /[\\/]vitest[\\/]dist[\\/]workers[\\/]/.test(command);
}

function parentOf(pid: number): number | undefined {
  const ppid = Number(statFields(pid)?.[1]);
  return Number.isInteger(ppid) ? ppid : undefined;
}

/** Kills the stray and, when it leads its process group (a detached worker does), the group. */
function kill(pid: number): void {
  const group = Number(statFields(pid)?.[2]);
  try {
    process.kill(group === pid ? -pid : pid, 'SIGKILL');
  } catch {
    // ended meanwhile
  }
}
