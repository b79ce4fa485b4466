/**
 * Child processes for the local Graphiti server: a bounded command (a timeout, never a hang),
 * free loopback ports, and waiting for a condition with a deadline.
 */
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { createServer } from 'node:net';
import { processEnv } from '../config/process-env.js';

export interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Set when the command could not start at all (ENOENT: not installed). */
  spawnError?: NodeJS.ErrnoException;
  timedOut: boolean;
}

/** Runs a command to completion within `timeoutMs`; output also goes to `logFile` when given. */
export function runCommand(cmd: string, args: readonly string[], options: { timeoutMs: number; cwd?: string; env?: NodeJS.ProcessEnv; logFile?: string }): Promise<CommandResult> {
  return new Promise((resolve) => {
    const log = options.logFile === undefined ? undefined : createWriteStream(options.logFile, { flags: 'a' });
    log?.write(`$ ${cmd} ${args.join(' ')}\n`);
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    const child = spawn(cmd, args, { cwd: options.cwd, env: options.env ?? processEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, options.timeoutMs);
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      log?.write(d);
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      log?.write(d);
    });
    const finish = (result: CommandResult) => {
      clearTimeout(timer);
      if (log === undefined) resolve(result);
      else log.end(() => resolve(result));
    };
    child.once('error', (error: NodeJS.ErrnoException) => finish({ code: null, stdout, stderr, spawnError: error, timedOut }));
    child.once('close', (code) => finish({ code, stdout, stderr, timedOut }));
  });
}

/** A port that was free on 127.0.0.1 a moment ago (the caller retries if it is taken by then). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Polls `check` until it returns a value other than undefined, or throws `onTimeout()` at the deadline. */
export async function waitFor<T>(check: () => Promise<T | undefined> | T | undefined, options: { timeoutMs: number; intervalMs?: number; onTimeout: () => Error }): Promise<T> {
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() >= deadline) throw options.onTimeout();
    await new Promise((r) => setTimeout(r, options.intervalMs ?? 100));
  }
}
