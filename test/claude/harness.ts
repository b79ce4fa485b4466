/**
 * Runs the REAL Claude Code CLI (pinned, scripts/test/claude-code.mjs) headless and offline: a sandbox
 * home, the fake Anthropic API on loopback, our Graphiti-shaped test server, and our CLI
 * (`node dist/cli.js`) for install/uninstall. Used by test/claude/*.claude.test.ts only.
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { readLogLines } from '../support/json-lines.js';
import { claudeProjectKey } from '../../src/lib/context/project.js';
import { isolatedEnv } from '../support/isolated-env.js';
import { waitForCondition } from '../helpers/wait-for-condition.js';
import { isProcessAlive } from '../../src/lib/util/process-alive.js';
import { readLock, sharedWorkerFilesOfOlderBuilds, workerFiles } from '../../src/lib/worker/spawn.js';
// @ts-expect-error plain ESM script without types
import { CLAUDE_CODE_VERSION, ensureClaudeCode } from '../../scripts/test/claude-code.mjs';

export const ROOT = resolve(import.meta.dirname, '..', '..');

export interface ClaudeRun {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
  /** Claude Code's debug log of the run (hook runs and hook errors show here, never on stderr in -p). */
  debug: string;
}

export interface ClaudeBox {
  root: string;
  /** A git repository the sessions run in (realpath, as Claude Code sees it). */
  project: string;
  env: Record<string, string>;
  claudeDir: string;
  /** Claude Code's auto-memory folder for `project`. */
  memoryDir: string;
  stateDir: string;
  /** `management: true` for `claude plugin …` commands (they take no --debug-file). */
  /**
   * One run of the CLI. `managedSettings`: the run sees `managedDir` as /etc/claude-code (Linux's fixed
   * managed-settings folder), through an overlay over /etc in a private mount namespace of that run
   * alone (`unshare`, root): the machine's /etc and every other run on it see nothing.
   */
  claude(args: string[], options?: { cwd?: string; env?: Record<string, string>; input?: string; management?: boolean; managedSettings?: boolean }): Promise<ClaudeRun>;
  /** The box's stand-in for /etc/claude-code (runs with `managedSettings` see it there). */
  managedDir: string;
  /** A session whose stdin stays open until `end()` (stream-json input). */
  claudeStream(args: string[]): { write(text: string): void; end(): Promise<ClaudeRun> };
  /** The interactive UI in a pseudo-terminal (util-linux `script`), onboarding and trust accepted. */
  claudeInteractive(args: string[]): InteractiveSession;
  /** A `claude` management command (plugin, marketplace), run to completion. */
  claudeSync(args: string[]): { code: number | null; stdout: string; stderr: string };
  /** `node dist/cli.js <args>` with the sandbox environment. */
  gms(args: string[], options?: { cwd?: string; cli?: string; input?: string }): { code: number | null; stdout: string; stderr: string };
  /** Resolves once no background worker of this sandbox runs (a session's hook starts one), or after `timeoutMs`. */
  workersDone(timeoutMs?: number): Promise<void>;
  /** Waits for a still-running background worker of this sandbox, then removes it. */
  cleanup(): Promise<void>;
}

let claudeBin: string | undefined;
export function claudeBinary(): string {
  claudeBin ??= ensureClaudeCode() as string;
  return claudeBin;
}

export interface InteractiveSession {
  /** What the terminal showed so far, escape sequences removed. */
  screen(): string;
  /** Resolves once the screen matches (checked on every output chunk). */
  shows(pattern: RegExp, what: string, timeoutMs?: number): Promise<void>;
  /** Keys as typed (text, `\r` for Enter, `\x03` for Ctrl-C). */
  type(keys: string): void;
  /**
   * Resolves once Claude Code's debug log matches (re-checked on every change in the sandbox's
   * folder): what the screen does not show, such as a hook's run after the turn.
   */
  logs(pattern: RegExp, what: string, timeoutMs?: number): Promise<void>;
  /** Quits the session (Ctrl-C twice) and returns its run. */
  close(): Promise<ClaudeRun>;
}

const ANSI = /\x1b(?:\[[0-9;?>]*[ -/]*[@-~]|\][^\x07]*(?:\x07|\x1b\\)|[0-9@-Z\\-_])/g;

export function makeClaudeBox(apiUrl: string, graphitiUrl: string, extra: Record<string, string> = {}): ClaudeBox {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'gms-claude-')));
  const project = join(root, 'proj');
  mkdirSync(project, { recursive: true });
  spawnSync('git', ['init', '-q', project]);
  const env = isolatedEnv(root, graphitiUrl, {
    ANTHROPIC_BASE_URL: apiUrl,
    ANTHROPIC_API_KEY: 'sk-ant-fake-key-for-loopback-tests-0000',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    MADEINOZ_KNOWLEDGE_RETRIES: '0',
    MADEINOZ_KNOWLEDGE_TIMEOUT: '3000',
    ...extra,
  });
  const claudeDir = env.CLAUDE_CONFIG_DIR as string;
  mkdirSync(claudeDir, { recursive: true });
  let runs = 0;
  /** Resolves once no background worker of this sandbox holds its lease, or after `timeoutMs`. */
  const workersDone = async (timeoutMs = 30_000): Promise<void> => {
    const deadline = Date.now() + timeoutMs;
    // An older build's worker (plugin-versions.claude.test.ts) holds the lease all builds shared before.
    const stateDir = env.MADEINOZ_KNOWLEDGE_STATE_DIR as string;
    const leases = [workerFiles(stateDir).pidFile, sharedWorkerFilesOfOlderBuilds(stateDir).pidFile];
    for (;;) {
      const running = leases.map((f) => readLock(f)).some((holder) => holder !== undefined && isProcessAlive(holder.pid));
      if (!running || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 50));
    }
};
  return {
    root,
    project,
    env,
    claudeDir,
    memoryDir: join(claudeDir, 'projects', claudeProjectKey(project), 'memory'),
    managedDir: join(root, 'etc-upper', 'claude-code'),
    stateDir: env.MADEINOZ_KNOWLEDGE_STATE_DIR as string,
    claude(args, options = {}) {
      const debugFile = join(root, `debug-${++runs}.txt`);
      const started = performance.now();
      return new Promise((done, fail) => {
        const cliArgs = options.management === true ? args : [...args, '--debug-file', debugFile];
        const [command, commandArgs] = options.managedSettings === true ? withManagedSettings(root, [claudeBinary(), ...cliArgs]) : [claudeBinary(), cliArgs];
        const child = spawn(command, commandArgs, {
          cwd: options.cwd ?? project,
          env: { ...env, ...options.env },
          stdio: ['pipe', 'pipe', 'pipe'],
        });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
        child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
        child.on('error', fail);
        child.stdin.end(options.input ?? '');
        child.on('close', (code) => {
          const debug = existsSync(debugFile) ? readFileSync(debugFile, 'utf8') : '';
          done({ code, stdout, stderr, ms: performance.now() - started, debug });
        });
      });
    },
    gms(args, options = {}) {
      const r = spawnSync(process.execPath, [options.cli ?? join(ROOT, 'dist', 'cli.js'), ...args], { cwd: options.cwd ?? project, env, encoding: 'utf8', ...(options.input === undefined ? {} : { input: options.input }) });
      return { code: r.status, stdout: r.stdout, stderr: r.stderr };
    },
    claudeStream(args) {
      const debugFile = join(root, `debug-${++runs}.txt`);
      const started = performance.now();
      const child = spawn(claudeBinary(), [...args, '--debug-file', debugFile], { cwd: project, env, stdio: ['pipe', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      const closed = new Promise<number | null>((done) => child.on('close', (code) => done(code)));
      return {
        write: (text) => child.stdin.write(text),
        end: async () => {
          child.stdin.end();
          const code = await closed;
          const debug = existsSync(debugFile) ? readFileSync(debugFile, 'utf8') : '';
          return { code, stdout, stderr, ms: performance.now() - started, debug };
        },
      };
    },
    claudeInteractive(args) {
      const debugFile = join(root, `debug-${++runs}.txt`);
      const started = performance.now();
      // What the interactive UI needs before it shows a prompt (reference: real-claude-code.md).
      const configFile = join(claudeDir, '.claude.json');
      const known = existsSync(configFile) ? (JSON.parse(readFileSync(configFile, 'utf8')) as Record<string, unknown>) : {};
      const key = env.ANTHROPIC_API_KEY as string;
      writeFileSync(
        configFile,
        JSON.stringify({
          ...known,
          hasCompletedOnboarding: true,
          lastOnboardingVersion: CLAUDE_CODE_VERSION,
          theme: 'dark',
          customApiKeyResponses: { approved: [key.slice(-20)], rejected: [] },
          projects: { ...((known.projects as Record<string, unknown> | undefined) ?? {}), [project]: { hasTrustDialogAccepted: true, allowedTools: [] } },
        }),
      );
      const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
      const command = [claudeBinary(), ...args, '--debug-file', debugFile].map(quote).join(' ');
      const child = spawn('script', ['-qfec', command, '/dev/null'], { cwd: project, env: { ...env, TERM: 'xterm-256color' }, stdio: ['pipe', 'pipe', 'pipe'] });
      let raw = '';
      let stderr = '';
      const screen = () => raw.replace(ANSI, '');
      child.stdout.on('data', (c: Buffer) => {
        raw += c.toString();
        child.emit('screen');
      });
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      const closed = new Promise<number | null>((done) => child.on('close', (code) => done(code)));
      return {
        screen,
        shows: (pattern, what, timeoutMs = 30_000) => waitForEvent(child, ['screen'], () => pattern.test(screen()), what, timeoutMs),
        type: (keys) => child.stdin.write(keys),
        logs: (pattern, what, timeoutMs = 30_000) => waitForCondition(root, () => existsSync(debugFile) && pattern.test(readFileSync(debugFile, 'utf8')), timeoutMs, what),
        close: async () => {
          // As a user quits: Ctrl-C, and Ctrl-C again once the UI asks for it.
          child.stdin.write('\x03');
          await waitForEvent(child, ['screen'], () => /again/i.test(screen()), 'the second Ctrl-C prompt', 5_000).catch(() => undefined);
          child.stdin.write('\x03');
          const code = await Promise.race([closed, new Promise<null>((done) => setTimeout(() => done(null), 15_000).unref())]);
          if (child.exitCode === null) {
            // Claude Code runs in a session of its own under `script`: end it too, not only script.
            const pid = child.pid as number;
            const children = existsSync(`/proc/${pid}/task/${pid}/children`) ? readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number) : [];
            for (const c of children) {
              try {
                process.kill(c, 'SIGKILL');
              } catch {
                // already gone
              }
            }
            child.kill('SIGKILL');
          }
          const debug = existsSync(debugFile) ? readFileSync(debugFile, 'utf8') : '';
          return { code, stdout: screen(), stderr, ms: performance.now() - started, debug };
        },
      };
    },
    claudeSync(args) {
      const r = spawnSync(claudeBinary(), args, { cwd: project, env, encoding: 'utf8', timeout: 120_000 });
      return { code: r.status, stdout: r.stdout, stderr: r.stderr };
    },
    workersDone,
    async cleanup() {
      // A session's detached worker may still be writing logs and state: let it finish first.
      await workersDone();
      rmSync(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    },
  };
}

/** The text of every message (and system prompt) of a recorded API request, joined. */
/**
 * `argv` run where /etc/claude-code is the box's managedDir: an overlay whose upper layer holds only
 * that folder, mounted over /etc in a private mount namespace (the upper and work folders live in
 * the box, on one file system as overlayfs requires).
 */
function withManagedSettings(root: string, argv: string[]): [string, string[]] {
  const upper = join(root, 'etc-upper');
  const work = join(root, 'etc-work');
  mkdirSync(work, { recursive: true });
  mkdirSync(join(upper, 'claude-code'), { recursive: true, mode: 0o755 });
  const script = `mount -t overlay overlay -o lowerdir=/etc,upperdir="$1",workdir="$2" /etc && shift 2 && exec "$@"`;
  return ['unshare', ['--mount', '--propagation', 'private', 'sh', '-c', script, 'sh', upper, work, ...argv]];
}

export function requestText(body: Record<string, unknown>): string {
  return JSON.stringify([body.system, body.messages]);
}

export function ensureBuiltOnce(): void {
  if (existsSync(join(ROOT, 'dist', 'cli.js')) && existsSync(join(ROOT, 'dist', 'hooks', 'session-start.js'))) return;
  const r = spawnSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`build failed: ${r.stderr}`);
}

/** Resolves when `check()` holds, re-checking on every event of `emitter` (and on a slow safety tick). */
export function waitForEvent(emitter: import('node:events').EventEmitter, events: string[], check: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  return new Promise((done, fail) => {
    const onEvent = () => {
      if (check()) finish();
    };
    const tick = setInterval(onEvent, 200);
    const timer = setTimeout(() => {
      cleanup();
      fail(new Error(`timed out waiting for ${what}`));
    }, timeoutMs);
    const cleanup = () => {
      clearInterval(tick);
      clearTimeout(timer);
      for (const e of events) emitter.off(e, onEvent);
    };
    const finish = () => {
      cleanup();
      done();
    };
    for (const e of events) emitter.on(e, onEvent);
    onEvent();
  });
}

/** Our hooks' runs as Claude Code logged them: `Hooks: <Event>:<matcher> [<command>] [(plugin …)] finished with status N`. */
export function hookRuns(debug: string): Array<{ event: string; command: string; status: number }> {
  return [...debug.matchAll(/Hooks: (\w+)(?::\w+)? \[([^\]]*graphiti-memory-sync[^\]]*)\](?: \(plugin [^)]*\))? finished with status (\d+)/g)].map((m) => ({
    event: m[1] as string,
    command: m[2] as string,
    status: Number(m[3]),
  }));
}

/** Hook errors Claude Code logged (in -p mode they show nowhere else). */
export function hookErrors(debug: string): string[] {
  return debug.split('\n').filter((l) => /\[ERROR\].*Hook|Hook .* cancelled/.test(l));
}

/**
 * The hook results a `--output-format stream-json --verbose` session reports to its client (an IDE,
 * the SDK): `{"type":"system","subtype":"hook_response", hook_event, exit_code, outcome, output}`,
 * where a failing hook is `outcome: "error"` with its stderr as `output`.
 */
export function hookResponses(stdout: string): Array<{ event: string; exitCode: number; outcome: string; output: string }> {
  return stdout
    .split('\n')
    .filter((line) => line.includes('"subtype":"hook_response"'))
    .map((line) => JSON.parse(line) as { hook_event: string; exit_code: number; outcome: string; output: string })
    .map((r) => ({ event: r.hook_event, exitCode: r.exit_code, outcome: r.outcome, output: r.output }));
}

/** What a `-p` session shows of our hooks: its exit, its stderr, each hook run's event and status, the hook errors logged. */
export function hookOutcome(run: { code: number | null; stderr: string; debug: string }): { code: number | null; stderr: string; hooks: Array<[string, number]>; errors: string[] } {
  return { code: run.code, stderr: run.stderr, hooks: hookRuns(run.debug).map((r) => [r.event, r.status]), errors: hookErrors(run.debug) };
}

/**
 * A PATH folder with every program of this PATH except node (the first of each name, as PATH
 * finds it), and `node` itself only when given: the binary a test puts there (an old one).
 */
export function pathWithoutNode(root: string, node?: string): string {
  const dir = join(root, node === undefined ? 'bin-without-node' : 'bin-with-given-node');
  mkdirSync(dir, { recursive: true });
  if (node !== undefined) symlinkSync(node, join(dir, 'node'));
  for (const from of (process.env.PATH ?? '').split(delimiter)) {
    if (from === '' || !existsSync(from)) continue;
    for (const name of readdirSync(from)) {
      if (name === 'node' || existsSync(join(dir, name))) continue;
      symlinkSync(join(from, name), join(dir, name));
    }
  }
  return dir;
}

/** How many times our SessionStart hook itself ran in this box (its log line). */
export function hookStarts(b: ClaudeBox): number {
  const log = join(b.stateDir, 'logs', 'graphiti-memory-sync.log');
  return readLogLines(log).filter((l) => l.msg === 'session start').length;
}

/** A session whose hooks did their job: exit 0, nothing on stderr, SessionStart and Stop each ran once with status 0, no hook error. */
export const CLEAN_SESSION = { code: 0, stderr: '', hooks: [['SessionStart', 0], ['Stop', 0]], errors: [] };

/** The `SessionStart hook additional context: …` texts of a recorded request. */
export function injectedContexts(body: Record<string, unknown>): string[] {
  const out: string[] = [];
  const walk = (v: unknown) => {
    if (typeof v === 'string') {
      for (const part of v.split('SessionStart hook additional context: ').slice(1)) out.push(part);
    } else if (Array.isArray(v)) v.forEach(walk);
    else if (typeof v === 'object' && v !== null) Object.values(v).forEach(walk);
  };
  walk(body.messages);
  return out;
}

/**
 * graphiti-memory-sync as a project dependency (what `npm install -D graphiti-memory-sync` gives a
 * team): dist/ and package.json copied into `<project>/node_modules/graphiti-memory-sync`, its own
 * dependencies linked from this checkout. Returns the copy's cli.js.
 */
export function vendorInto(project: string): string {
  const pkg = join(project, 'node_modules', 'graphiti-memory-sync');
  mkdirSync(pkg, { recursive: true });
  cpSync(join(ROOT, 'dist'), join(pkg, 'dist'), { recursive: true });
  cpSync(join(ROOT, 'package.json'), join(pkg, 'package.json'));
  symlinkSync(join(ROOT, 'node_modules'), join(pkg, 'node_modules'));
  return join(pkg, 'dist', 'cli.js');
}
