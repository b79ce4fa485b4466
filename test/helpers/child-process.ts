/**
 * Scripted child processes for tests that need real ones (cross-process locking, crash safety):
 * a test writes a small `.mjs` script that imports our sources (`srcUrl`) and talks over stdout lines.
 * Children are `node --import tsx <script.mjs>` so they can import our TypeScript sources.
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { REPO_ROOT } from '../support/paths.js';

export interface Child {
  proc: ChildProcess;
  /** Resolves with the next stdout line (lines are queued; none are lost). */
  nextLine(): Promise<string>;
  /** Resolves when the child has exited (and been reaped). */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
}

/** Writes `source` to `<dir>/<name>.mjs` and starts it under tsx. */
export async function startChild(dir: string, name: string, source: string, args: string[] = [], options: SpawnOptions = {}): Promise<Child> {
  const script = join(dir, `${name}.mjs`);
  await writeFile(script, source, { mode: 0o644 });
  const proc = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: REPO_ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
    ...options,
  });
  let stderr = '';
  proc.stderr?.setEncoding('utf8');
  proc.stderr?.on('data', (chunk: string) => {
    stderr += chunk;
  });
  const lines: string[] = [];
  const waiters: Array<(line: string) => void> = [];
  const rl = createInterface({ input: proc.stdout! });
  rl.on('line', (line) => {
    const waiter = waiters.shift();
    if (waiter) waiter(line);
    else lines.push(line);
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolveExit) => {
    proc.on('exit', (code, signal) => {
      // Let the last stdout/stderr chunks arrive before reporting.
      proc.on('close', () => resolveExit({ code, signal, stderr }));
    });
  });
  return {
    proc,
    exited,
    nextLine: () =>
      new Promise<string>((resolveLine, rejectLine) => {
        const queued = lines.shift();
        if (queued !== undefined) return resolveLine(queued);
        waiters.push(resolveLine);
        void exited.then((r) => rejectLine(new Error(`child ${name} exited (code ${r.code}, signal ${r.signal}) before printing a line:\n${r.stderr}`)));
      }),
  };
}

/** A pid that certainly does not exist any more: a child that already exited and was reaped. */
export async function deadPid(): Promise<number> {
  const proc = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  const pid = proc.pid;
  await new Promise((r) => proc.on('close', r));
  if (pid === undefined) throw new Error('spawn gave no pid');
  return pid;
}
