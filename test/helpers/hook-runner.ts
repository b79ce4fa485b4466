/**
 * Running our hooks as real child processes with real stdin JSON, isolated from the
 * developer's home. By default a hook runs from source (`node --import tsx src/hooks/<name>.ts`,
 * the same as `npx tsx`, without npm's start-up cost); GMS_HOOK_RUNNER=dist runs the compiled
 * `dist/hooks/<name>.js` instead (after `npm run build`; GMS_HOOK_DIST=<dir> points at another build output).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readLogLines } from '../support/json-lines.js';
import { REPO_ROOT as REPO, TSX_LOADER as TSX } from '../support/paths.js';
import { makeTempDirSync } from '../support/temp-dir.js';
import { testRunMarker } from '../support/test-run.js';

export type HookName = 'session-start' | 'stop' | 'worker';

export function hookCommand(name: HookName): string[] {
  if (process.env.GMS_HOOK_RUNNER === 'dist') return [join(process.env.GMS_HOOK_DIST ?? join(REPO, 'dist'), 'hooks', `${name}.js`)];
  return ['--import', TSX, join(REPO, 'src', 'hooks', `${name}.ts`)];
}

export interface HookRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
  pid: number | undefined;
}

export interface RunOptions {
  /** stdin content; undefined = leave stdin open and never write (the hook must time out reading). */
  input?: string | undefined;
  /** Write `input` but never close stdin (Claude Code closes it; the hook must not need the end). */
  keepStdinOpen?: boolean;
  /** 'ignore' = /dev/null stdin. */
  stdin?: 'pipe' | 'ignore';
  args?: string[];
  /** Extra node flags placed before the hook's own (e.g. an --import recorder). */
  nodeArgs?: string[];
  cwd?: string;
  /** Kill the child after this long (a hanging hook then fails the test instead of the run). */
  killAfterMs?: number;
}

export function runHook(name: HookName, env: Record<string, string>, options: RunOptions = {}): Promise<HookRun> {
  return new Promise((resolvePromise, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [...(options.nodeArgs ?? []), ...hookCommand(name), ...(options.args ?? [])], {
      cwd: options.cwd ?? REPO,
      env,
      stdio: [options.stdin ?? 'pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr?.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const killer = setTimeout(() => child.kill('SIGKILL'), options.killAfterMs ?? 15_000); // a hung hook is killed: its exit code is then null, which every test checks
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(killer);
      resolvePromise({ code, signal, stdout, stderr, ms: performance.now() - started, pid: child.pid });
    });
    if (child.stdin !== null) {
      child.stdin.on('error', () => undefined);
      if (options.input !== undefined) {
        if (options.keepStdinOpen === true) child.stdin.write(options.input);
        else child.stdin.end(options.input);
      }
    }
  });
}

export interface HookSandbox {
  root: string;
  env: Record<string, string>;
  stateDir: string;
  claudeDir: string;
  logFile: string;
  /** Log lines (parsed JSON) written so far. */
  logs(): Array<Record<string, unknown>>;
  cleanup(): void;
}

/** A temp home with every path setting pointing inside it and an empty settings file (no developer .env leaks in). */
export function makeHookSandbox(extra: Record<string, string> = {}): HookSandbox {
  const { dir: root, cleanup } = makeTempDirSync('gms-hooks-');
  const stateDir = join(root, 'state');
  const claudeDir = join(root, 'claude');
  mkdirSync(join(root, 'home'), { recursive: true });
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: join(root, 'home'),
    USERPROFILE: join(root, 'home'),
    TMPDIR: process.env.TMPDIR ?? tmpdir(),
    CLAUDE_CONFIG_DIR: claudeDir,
    PAI_DIR: join(root, 'pai'),
    MADEINOZ_KNOWLEDGE_STATE_DIR: stateDir,
    XDG_STATE_HOME: join(root, 'xdg-state'),
    XDG_CONFIG_HOME: join(root, 'xdg-config'),
    XDG_CACHE_HOME: join(root, 'xdg-cache'),
    XDG_DATA_HOME: join(root, 'xdg-data'),
    MADEINOZ_KNOWLEDGE_ENV_FILE: join(root, 'empty.env'),
    MADEINOZ_KNOWLEDGE_LOG_LEVEL: 'debug',
    // Claude Code sets it for every hook; the hooks then read stdin synchronously (hook-io.ts).
    CLAUDE_PROJECT_DIR: root,
    GMS_TEST: '1',
    // The run's name, so that a worker a hook starts and the test leaves running is found (test/setup/stray-processes.ts).
    ...testRunMarker(),
    ...extra,
  };
  writeFileSync(join(root, 'empty.env'), '');
  const logFile = join(stateDir, 'logs', 'graphiti-memory-sync.log');
  return {
    root,
    env,
    stateDir,
    claudeDir,
    logFile,
    logs: () => readLogLines(logFile),
    cleanup,
  };
}

/** Parses the hook's stdout: '' or exactly one JSON object. */
export function parseHookStdout(stdout: string): { additionalContext: string } | undefined {
  if (stdout === '') return undefined;
  const value = JSON.parse(stdout) as { hookSpecificOutput?: { hookEventName?: string; additionalContext?: string } };
  const out = value.hookSpecificOutput;
  if (out?.hookEventName !== 'SessionStart' || typeof out.additionalContext !== 'string') throw new Error(`unexpected hook output: ${stdout.slice(0, 200)}`);
  return { additionalContext: out.additionalContext };
}
