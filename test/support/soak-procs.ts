/**
 * Child processes of the soak and crash-loop runs: `sync` and `watch` from the CLI, the
 * real Stop / SessionStart hooks (which spawn the detached background worker), all
 * tracked so that every one of them is killed in a finally block.
 *
 * Every child is `node --import tsx <script>`: ONE process. `node_modules/.bin/tsx <script>`
 * is a wrapper that runs the script in a second node process; it relays SIGTERM/SIGINT, but
 * a SIGKILL sent to the wrapper leaves the real process running as an orphan (measured: the
 * script kept running and finished its work). A crash test must kill the process that does
 * the work, and signals must reach it without a relay, so the loader is used directly.
 * The detached hook workers are found through the log ("worker spawned", workerPid) and the
 * worker lock file, and are only ever killed after checking /proc/<pid>/cmdline.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { logFilePath } from '../../src/lib/util/log.js';
import { workerFiles } from '../../src/lib/worker/spawn.js';
import { JsonLineStream, parseJsonLines } from './json-lines.js';
import { REPO_ROOT as ROOT, TSX_LOADER } from './paths.js';

export interface ProcResult {
  name: string;
  pid: number | undefined;
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
}

export interface JsonLine {
  event?: string;
  /** When the harness read the line (ms since epoch; not enumerable). */
  readonly receivedAt?: number;
  [k: string]: unknown;
}

export interface Proc {
  name: string;
  child: ChildProcess;
  readonly pid: number | undefined;
  readonly running: boolean;
  done: Promise<ProcResult>;
  /** Parsed JSON lines of stdout (watch --json, sync --json). */
  lines: JsonLine[];
  waitForLine(match: (l: JsonLine) => boolean, timeoutMs: number): Promise<JsonLine>;
  kill(signal?: NodeJS.Signals): void;
}

const MAX_OUTPUT = 2 * 1024 * 1024;

export class Procs {
  readonly all: Proc[] = [];
  readonly results: ProcResult[] = [];

  constructor(
    private readonly env: Record<string, string>,
    private readonly stateDir: string,
  ) {}

  private start(name: string, script: string, args: string[], extraEnv: Record<string, string>, stdin: string | undefined): Proc {
    const started = performance.now();
    const child = spawn(process.execPath, ['--import', TSX_LOADER, join(ROOT, script), ...args], {
      cwd: ROOT,
      env: { ...this.env, ...extraEnv },
      stdio: [stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    const reader = new JsonLineStream<JsonLine>('lenient', (line) => Object.defineProperty(line, 'receivedAt', { value: Date.now(), enumerable: false }));
    child.stdout?.setEncoding('utf8').on('data', (d: string) => {
      if (stdout.length < MAX_OUTPUT) stdout += d;
      reader.push(d);
    });
    child.stderr?.setEncoding('utf8').on('data', (d: string) => {
      if (stderr.length < MAX_OUTPUT) stderr += d;
    });
    if (child.stdin !== null) {
      child.stdin.on('error', () => undefined);
      child.stdin.end(stdin);
    }
    let exited = false;
    const done = new Promise<ProcResult>((resolve) => {
      const finish = (code: number | null, signal: NodeJS.Signals | null) => {
        if (exited) return;
        exited = true;
        const result: ProcResult = { name, pid: child.pid, code, signal, stdout, stderr, ms: performance.now() - started };
        this.results.push(result);
        resolve(result);
      };
      child.on('close', finish);
      child.on('error', (error) => {
        stderr += `spawn error: ${error.message}\n`;
        finish(null, null);
      });
    });
    const proc: Proc = {
      name,
      child,
      get pid() {
        return child.pid;
      },
      get running() {
        return !exited && child.exitCode === null && child.signalCode === null;
      },
      done,
      lines: reader.lines,
      waitForLine: (match, timeoutMs) =>
        reader.waitFor(match, timeoutMs, () => `${name}: no matching output line within ${timeoutMs} ms; stderr: ${stderr.slice(-2000)}`, {
          promise: done,
          describe: () => `${name} exited before printing the expected line; stderr: ${stderr.slice(-2000)}`,
        }),
      kill(signal = 'SIGKILL') {
        if (proc.running) child.kill(signal);
      },
    };
    this.all.push(proc);
    return proc;
  }

  /** `graphiti-memory-sync <args>` from source. */
  cli(args: string[], extraEnv: Record<string, string> = {}, name = `cli ${args.join(' ')}`): Proc {
    return this.start(name, 'src/cli.ts', args, extraEnv, undefined);
  }

  /** A real hook with its JSON on stdin; it spawns the detached worker when none is running. */
  hook(hook: 'stop' | 'session-start', input: Record<string, unknown>, extraEnv: Record<string, string> = {}): Proc {
    return this.start(`hook ${hook}`, `src/hooks/${hook}.ts`, [], extraEnv, JSON.stringify(input));
  }

  running(): Proc[] {
    return this.all.filter((p) => p.running);
  }

  /** Waits for every tracked child to exit; SIGKILLs whatever is still running after `timeoutMs`. Returns the names of the killed ones. */
  async settle(timeoutMs: number): Promise<string[]> {
    const deadline = Date.now() + timeoutMs;
    for (const p of this.running()) {
      const left = deadline - Date.now();
      if (left > 0) await Promise.race([p.done, new Promise((r) => setTimeout(r, left).unref())]);
    }
    const killed = this.running().map((p) => p.name);
    for (const p of this.running()) p.kill('SIGKILL');
    await Promise.all(this.all.map((p) => p.done));
    return killed;
  }

  /** Pids of detached hook workers we know of (from the log and the worker lock), alive or not. */
  workerPids(): number[] {
    const pids = new Set<number>();
    try {
      for (const line of parseJsonLines<{ msg?: unknown; workerPid?: unknown }>(readFileSync(logFilePath(this.stateDir), 'utf8'), 'lenient')) {
        if (typeof line.workerPid === 'number' && line.msg === 'worker spawned') pids.add(line.workerPid);
      }
    } catch {
      // no log yet
    }
    try {
      const lock = JSON.parse(readFileSync(workerFiles(this.stateDir).pidFile, 'utf8')) as { pid?: unknown };
      if (typeof lock.pid === 'number') pids.add(lock.pid);
    } catch {
      // no worker running
    }
    return [...pids];
  }

  /** Live detached workers of THIS run (checked through /proc so a reused pid is never touched). */
  liveWorkers(): number[] {
    return this.workerPids().filter((pid) => isOurWorker(pid, this.stateDir));
  }

  /** Waits until no detached worker of ours is alive (bounded); kills the rest. Returns how many had to be killed. */
  async settleWorkers(timeoutMs: number): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    while (this.liveWorkers().length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const left = this.liveWorkers();
    for (const pid of left) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone meanwhile
      }
    }
    return left.length;
  }

  /** Finally-block cleanup: SIGKILL every child and every detached worker of this run. */
  async killAll(): Promise<void> {
    for (const p of this.running()) p.kill('SIGKILL');
    for (const pid of this.liveWorkers()) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone meanwhile
      }
    }
    await Promise.race([Promise.all(this.all.map((p) => p.done)), new Promise((r) => setTimeout(r, 5000).unref())]);
  }

  /** Everything the children printed (for the secret scan). */
  outputs(): string[] {
    return this.results.flatMap((r) => [r.stdout, r.stderr]);
  }
}

/** A live process whose command line is our worker script and whose environment points at this state dir. */
function isOurWorker(pid: number, stateDir: string): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const proc = `/proc/${pid}`;
  if (!existsSync(proc)) return false; // not Linux: never kill what we cannot identify
  try {
    const cmdline = readFileSync(`${proc}/cmdline`, 'utf8');
    if (!cmdline.includes('hooks/worker')) return false;
    const environ = readFileSync(`${proc}/environ`, 'utf8');
    return environ.includes(`MADEINOZ_KNOWLEDGE_STATE_DIR=${stateDir}\0`);
  } catch {
    return false;
  }
}
