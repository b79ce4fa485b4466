/**
 * A long-running child (FalkorDB, the Graphiti server) whose output goes to a log file and is
 * watched for lines, and whose stop is clean: SIGTERM, then SIGKILL after a grace period, and the
 * promise resolves only once the process is gone. Children still running when this Node process
 * exits are killed with it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';
import { runTag } from '../config/process-env.js';

const live = new Set<ChildProcess>();
let exitHook = false;

export class ManagedProcess {
  private output = '';
  private readonly log: WriteStream;
  readonly exited: Promise<number | null>;
  private exitCode: number | null | undefined;

  private constructor(
    readonly name: string,
    private readonly child: ChildProcess,
    readonly logFile: string,
  ) {
    // 0600: logs can hold what the graph holds (episode names, errors quoting content).
    this.log = createWriteStream(logFile, { flags: 'a', mode: 0o600 });
    const take = (d: Buffer) => {
      this.log.write(d);
      // Keep the tail only: line checks look at recent output.
      this.output = (this.output + d.toString()).slice(-200_000);
    };
    child.stdout?.on('data', take);
    child.stderr?.on('data', take);
    this.exited = new Promise((resolve) => {
      // 'close', not 'exit': by then all output is read, so a start-up failure's last line is in recentOutput.
      child.once('close', (code, signal) => {
        live.delete(child);
        this.exitCode = code ?? (signal === null ? null : -1);
        resolve(this.exitCode);
      });
      child.once('error', () => {
        live.delete(child);
        this.exitCode = -1;
        resolve(-1);
      });
    });
  }

  /**
   * `stdin`, when given, is written to the child's stdin and closed: how a secret reaches a child
   * that reads its config there (redis-server -) without being in its arguments or in a file.
   * The child's environment is `env` and the run tag (process-env.ts: runTag), which a caller that
   * builds `env` from scratch would otherwise drop.
   */
  static start(name: string, cmd: string, args: readonly string[], options: { cwd?: string; env: NodeJS.ProcessEnv; logFile: string; stdin?: string }): ManagedProcess {
    const child = spawn(cmd, args, { cwd: options.cwd, env: { ...options.env, ...runTag() }, stdio: [options.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    if (options.stdin !== undefined) {
      // A child that exits before reading it gives EPIPE: its exit is reported, not this.
      child.stdin?.on('error', () => undefined);
      child.stdin?.end(options.stdin);
    }
    live.add(child);
    if (!exitHook) {
      exitHook = true;
      process.once('exit', () => {
        for (const c of live) c.kill('SIGKILL');
      });
    }
    return new ManagedProcess(name, child, options.logFile);
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get running(): boolean {
    return this.exitCode === undefined;
  }

  /** Output seen so far (the tail). */
  get recentOutput(): string {
    return this.output;
  }

  async stop(graceMs = 10_000): Promise<void> {
    if (!this.running) return this.closeLog();
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
    await this.exited;
    clearTimeout(timer);
    await this.closeLog();
  }

  private closeLog(): Promise<void> {
    return new Promise((resolve) => (this.log.writableEnded ? resolve() : this.log.end(() => resolve())));
  }
}
