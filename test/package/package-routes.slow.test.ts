/**
 * The package as a user gets it (issue 41), made from a fresh `git clone` of this repository's
 * HEAD (what is committed, nothing of the working tree), by the README's own "## Install" commands
 * run as written, into a fresh npm prefix:
 * - the global command: `--version`, `install --dry-run` (the hook launcher on PATH), a sync
 *   against the Graphiti-shaped test server, and the `server` command's hashed Python requirements
 *   found inside the installed package;
 * - its hooks under the REAL Claude Code CLI (user scope, through the `graphiti-memory-sync-hook`
 *   bin), and as a project's dev dependency: `npx graphiti-memory-sync install --scope project`,
 *   the hooks run by the real CLI in the project and in a teammate's copy at another path;
 * - the recorded hook commands keep working, unchanged, after an upgrade of the global package and
 *   after it is installed into another prefix and the first one is removed;
 * - the command the SessionStart hook's note names (`health`) runs, for the global install and for
 *   the dev dependency.
 * `npm run test:package` (vitest.package.config.ts; CI through `npm test -- --real-peers`). npm runs
 * with the machine's npm cache and prefers it: after `npm ci` the only downloads are the
 * registry's metadata of the runtime dependencies, once. The Anthropic API is the loopback fake
 * (test/claude/fake-anthropic.ts), the one thing that cannot run here.
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGraphitiServer, type GraphitiTestServer } from '../support/graphiti-server.js';
import { isolatedEnv } from '../support/isolated-env.js';
import { startFakeAnthropic, type FakeAnthropic } from '../claude/fake-anthropic.js';
import { isProcessAlive } from '../../src/lib/util/process-alive.js';
import { readLock, workerFiles } from '../../src/lib/worker/spawn.js';
import { recordGraphProblem } from '../../src/lib/context/graph-problem.js';
import { OUR_NOTE_LABEL } from '../../src/lib/context/our-note.js';
import { nodeGuard } from '../../src/lib/install/node-guard.js';
import { CLEAN_SESSION, claudeBinary, hookOutcome, hookRuns, makeClaudeBox, type ClaudeBox, waitForEvent } from '../claude/harness.js';

const ROOT = join(import.meta.dirname, '..', '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const MEMORY = '---\nname: queue decision\ndescription: which queue the jobs use\ntype: project\n---\n# Queue\n\nWe decided to use the shared queue for background jobs.\n';

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Longest any one command may run. A stalled registry socket otherwise waits out npm's own
 * five-minute fetch timeout, and the suite failed as "Hook timed out" without naming the command.
 */
const COMMAND_LIMIT_MS = 150_000;

/** A command line through bash, as the README's reader and Claude Code's hooks run them. Async: the test servers live in this process. */
function sh(command: string, cwd: string, env: Record<string, string>, input = ''): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', command], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const limit = setTimeout(() => {
      stderr += `\n[killed after ${COMMAND_LIMIT_MS / 1000} s: ${command}]`;
      child.kill('SIGKILL');
    }, COMMAND_LIMIT_MS);
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(limit);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(input);
  });
}

function expectOk(r: Ran, what: string): void {
  expect(r.code, `${what} exited ${r.code}:\n${r.stdout}${r.stderr}`).toBe(0);
}

/** The README's "## Install" section (the clone's, as committed): its bash block's commands, and its text block's (the team's). */
function installSection(): { steps: Array<{ command: string; prints: string | undefined }>; team: string[] } {
  const readme = readFileSync(join(clone, 'README.md'), 'utf8');
  const start = readme.indexOf('\n## Install');
  if (start === -1) throw new Error('README.md has no "## Install" section');
  const section = readme.slice(start, readme.indexOf('\n## ', start + 5));
  const lines = (block: string | undefined) =>
    (block ?? '')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l !== '' && !l.startsWith('#'));
  const steps = lines(/```bash\n([\s\S]*?)```/.exec(section)?.[1]).map((line) => {
    const prints = /\s+#\s+prints:\s+(.+)$/.exec(line);
    return { command: (prints === null ? line.replace(/\s+#\s.*$/, '') : line.slice(0, prints.index)).trim(), prints: prints?.[1]?.trim() };
  });
  const team = lines(/```text\n([\s\S]*?)```/.exec(section)?.[1]).map((l) => l.replace(/\s+#\s.*$/, '').trim());
  return { steps, team };
}

const NPM_CACHE = spawnSync(npm, ['config', 'get', 'cache'], { encoding: 'utf8' }).stdout.trim();
/**
 * How this machine reaches the registry: its CA file, proxies, registry. A fresh HOME drops the
 * user's npmrc and a fresh prefix the global one (npm reads `<prefix>/etc/npmrc`), so on a machine
 * behind a proxy with its own CA every fetch the cache cannot answer failed with
 * SELF_SIGNED_CERT_IN_CHAIN, four times each, until the step was killed (a first run on a new
 * machine: `npm ci` caches tarballs, not the packuments a global install asks for).
 */
const NPM_NETWORK_KEYS = ['cafile', 'registry', 'https-proxy', 'proxy', 'noproxy', 'strict-ssl'] as const;
const NPM_NETWORK: Record<string, string> = Object.fromEntries(
  spawnSync(npm, ['config', 'get', ...NPM_NETWORK_KEYS], { encoding: 'utf8' })
    .stdout.split('\n')
    .map((line) => /^([a-z-]+)=(.*)$/.exec(line.trim()))
    .filter((m): m is RegExpExecArray => m !== null && NPM_NETWORK_KEYS.includes(m[1] as (typeof NPM_NETWORK_KEYS)[number]) && m[2] !== '' && m[2] !== 'null')
    .map((m) => [`npm_config_${(m[1] as string).replace(/-/g, '_')}`, m[2] as string]),
);
/** Node's own extra CAs (npm's fetches honour them too), where the machine sets them. */
const NODE_CA: Record<string, string> = process.env.NODE_EXTRA_CA_CERTS === undefined ? {} : { NODE_EXTRA_CA_CERTS: process.env.NODE_EXTRA_CA_CERTS };
/** npm as a user runs it (into `prefix` for -g), but with this machine's cache, preferred over the network, and its way to the registry. */
const npmEnv = (prefix?: string): Record<string, string> => ({
  ...NPM_NETWORK,
  ...NODE_CA,
  ...(prefix === undefined ? {} : { npm_config_prefix: prefix }),
  npm_config_cache: NPM_CACHE,
  npm_config_prefer_offline: 'true',
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_update_notifier: 'false',
  // A registry request that stalls is given up after 30 s and retried (npm's default waits 5 minutes).
  npm_config_fetch_timeout: '30000',
  npm_config_fetch_retries: '4',
});
const pathWith = (bin: string) => [bin, process.env.PATH ?? '/usr/bin:/bin'].join(delimiter);

let work: string;
let clone: string;
let prefix: string;
let tarball: string;
let version: string;
let graphiti: GraphitiTestServer;
let api: FakeAnthropic;

beforeAll(async () => {
  claudeBinary();
  work = realpathSync(mkdtempSync(join(tmpdir(), 'gms-package-')));
  clone = join(work, 'clone');
  prefix = join(work, 'prefix');
  expectOk(await sh(`git clone -q '${ROOT}' '${clone}'`, work, { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: work }), 'git clone');
  version = (JSON.parse(readFileSync(join(clone, 'package.json'), 'utf8')) as { version: string }).version;
  const env = { HOME: join(work, 'home'), PATH: pathWith(join(prefix, 'bin')), LANG: 'C.UTF-8', ...npmEnv(prefix) };
  mkdirSync(env.HOME, { recursive: true });
  const { steps } = installSection();
  expect(steps.map((s) => s.command)).toEqual(expect.arrayContaining([expect.stringMatching(/^npm pack\b/), expect.stringMatching(/^npm install -g\b/)]));
  for (const step of steps) {
    const r = await sh(step.command, clone, env);
    expectOk(r, step.command);
    if (step.prints !== undefined) expect(`${r.stdout}${r.stderr}`, `"${step.command}" should print "${step.prints}"`).toContain(step.prints);
  }
  const made = readdirSync(clone).filter((f) => f.endsWith('.tgz'));
  expect(made).toEqual([`graphiti-memory-sync-${version}.tgz`]);
  tarball = join(clone, made[0] as string);
  graphiti = await startGraphitiServer({ processingDelayMs: 0 });
  api = await startFakeAnthropic({ writeContent: MEMORY });
}, 300_000);

/** Waits for a background worker the hooks started in a sandbox to finish (it writes its logs and state there). */
async function workerDone(stateDir: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const holder = readLock(workerFiles(stateDir).pidFile);
    if (holder === undefined || !isProcessAlive(holder.pid) || Date.now() > deadline) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

afterAll(async () => {
  if (work !== undefined) for (const name of ['global', 'moves']) await workerDone(join(work, name, 'state'));
  await graphiti?.close();
  await api?.close();
  if (work !== undefined) rmSync(work, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
});

/** A sandbox home for the global command, its bin first on PATH. */
function userEnv(name: string, bin: string): Record<string, string> {
  return { ...isolatedEnv(join(work, name), graphiti.url, { MADEINOZ_KNOWLEDGE_RETRIES: '0' }), PATH: pathWith(bin) };
}

function writeMemory(env: Record<string, string>, file: string, text: string): void {
  const dir = join(env.CLAUDE_CONFIG_DIR as string, 'projects', '-work-app', 'memory');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, file), `---\nname: ${file}\ntype: project\n---\n${text}\n`);
}

const stored = (text: string) => graphiti.episodes().some((e) => e.content.includes(text));

function hookCommands(settingsFile: string): { SessionStart: string; Stop: string } {
  const hooks = (JSON.parse(readFileSync(settingsFile, 'utf8')) as { hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>> }).hooks;
  return { SessionStart: hooks.SessionStart?.[0]?.hooks[0]?.command as string, Stop: hooks.Stop?.[0]?.hooks[0]?.command as string };
}

/**
 * The command the SessionStart hook names when the worker found the graph unreachable, run as
 * Claude's Bash tool runs it: from the session's folder, with the session's environment. It is
 * `health` as this install runs it (util/install-route.ts), and it reaches the configured server.
 */
async function noteCommandRuns(hookCommand: string, cwd: string, env: Record<string, string>): Promise<string> {
  // A worker a session started could clear the problem with a context refresh that works: none runs meanwhile.
  await workerDone(env.MADEINOZ_KNOWLEDGE_STATE_DIR as string);
  recordGraphProblem(env.MADEINOZ_KNOWLEDGE_STATE_DIR as string, 'unreachable', 'connect ECONNREFUSED 127.0.0.1:9');
  const input = JSON.stringify({ session_id: `note-${Date.now()}`, hook_event_name: 'SessionStart', source: 'startup', cwd, transcript_path: join(cwd, 't.jsonl') });
  const start = await sh(hookCommand, cwd, { ...env, GMS_WORKER_DISABLED: '1' }, input);
  expectOk(start, 'SessionStart with a graph problem recorded');
  const note = (JSON.parse(start.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
  const command = new RegExp(`^${OUR_NOTE_LABEL} .*?\`([^\`]+)\``).exec(note)?.[1];
  expect(command, note).toMatch(/ health$/);
  const health = await sh(command as string, cwd, env);
  expect(health.stdout, `${command}: exit ${health.code}\n${health.stdout}${health.stderr}`).toContain(`url: ${env.MADEINOZ_KNOWLEDGE_MCP_URL}`);
  return command as string;
}

describe('the package from a fresh clone, by the README', () => {
  it('installs a working global command: --version, install --dry-run, a sync, and the server pins inside the package', async () => {
    const env = userEnv('global', join(prefix, 'bin'));
    const pkg = join(prefix, 'lib', 'node_modules', 'graphiti-memory-sync');
    // Only what runs: no sources, tests, scripts or plugin in the installed package.
    expect(readdirSync(pkg).sort()).toEqual(['LICENSE', 'README.md', 'config', 'dist', 'node_modules', 'package.json', 'python']);

    const v = await sh('graphiti-memory-sync --version', work, env);
    expectOk(v, '--version');
    expect(v.stdout.trim()).toBe(version);

    const dry = await sh('graphiti-memory-sync install --dry-run', work, env);
    expectOk(dry, 'install --dry-run');
    expect(dry.stdout).toContain('dry run, nothing written');
    // Off PATH (nvm switched Node), the launcher of this install (hook-entries.ts LAUNCHER_OR_ITS_FILE).
    const launcher = join(pkg, 'dist', 'hooks', 'hook.js');
    expect(dry.stdout).toContain(`"command": ${JSON.stringify(`${nodeGuard('SessionStart')}; command -v graphiti-memory-sync-hook >/dev/null 2>&1 || { test -f ${launcher} || exit 0; exec node ${launcher} session-start --graphiti-memory-sync; }; exec graphiti-memory-sync-hook session-start --graphiti-memory-sync`)}`);
    expect(existsSync(join(env.CLAUDE_CONFIG_DIR as string, 'settings.json'))).toBe(false);

    writeMemory(env, 'billing.md', 'The billing queue retries failed invoices every 6 hours.');
    const sync = await sh('graphiti-memory-sync sync --wait 30000', work, env);
    expectOk(sync, 'sync');
    expect(stored('billing queue retries failed invoices')).toBe(true);

    // The hook's note names the command on PATH, and it runs.
    expect(await noteCommandRuns('graphiti-memory-sync-hook session-start --graphiti-memory-sync', work, env)).toBe('graphiti-memory-sync health');

    // The `server` command's hashed requirements, as the installed code finds them.
    const probe = `import(process.argv[1] + '/dist/lib/server/pins.js').then(async (pins) => { const env = await import(process.argv[1] + '/dist/lib/server/environment.js'); console.log(JSON.stringify(pins.GENERATIONS.map((g) => env.requirementsFile(g)))); })`;
    const found = spawnSync(process.execPath, ['--input-type=module', '-e', probe, pkg], { encoding: 'utf8' });
    const files = JSON.parse(found.stdout) as string[];
    expect(files.length).toBeGreaterThanOrEqual(4);
    for (const f of files) {
      expect(f.startsWith(join(pkg, 'python'))).toBe(true);
      expect(readFileSync(f, 'utf8')).toMatch(/--hash=sha256:[0-9a-f]{64}/);
    }
  }, 120_000);

  it('the global install\'s hooks (graphiti-memory-sync-hook on PATH) run under the real Claude Code CLI', async () => {
    const box = makeClaudeBox(api.url, graphiti.url, { PATH: pathWith(join(prefix, 'bin')) });
    try {
      const install = await sh('graphiti-memory-sync install', box.project, box.env);
      expectOk(install, 'install');
      const launcher = join(prefix, 'lib', 'node_modules', 'graphiti-memory-sync', 'dist', 'hooks', 'hook.js');
      expect(hookCommands(join(box.claudeDir, 'settings.json')).Stop).toBe(`${nodeGuard('Stop')}; command -v graphiti-memory-sync-hook >/dev/null 2>&1 || { test -f ${launcher} || exit 0; exec node ${launcher} stop --graphiti-memory-sync; }; exec graphiti-memory-sync-hook stop --graphiti-memory-sync`);
      const run = await box.claude(['-p', `WRITE ${join(box.memoryDir, 'queue.md')}`, '--allowedTools', 'Write']);
      expect(hookOutcome(run)).toEqual(CLEAN_SESSION);
      expect(hookRuns(run.debug).every((r) => r.command.includes('; exec graphiti-memory-sync-hook '))).toBe(true);
      await waitForEvent(graphiti.events, ['processed', 'call'], () => stored('shared queue for background jobs'), 'the written memory as an episode');
    } finally {
      await box.cleanup();
    }
  }, 120_000);

  it('as a dev dependency: npx graphiti-memory-sync install --scope project, hooks run by the real CLI here and in a teammate\'s copy', async () => {
    const box: ClaudeBox = makeClaudeBox(api.url, graphiti.url);
    try {
      const env = { ...box.env, ...npmEnv() };
      writeFileSync(join(box.project, 'package.json'), `${JSON.stringify({ name: 'team-app', private: true }, null, 2)}\n`);
      expectOk(await sh(`npm install -D ${tarball}`, box.project, env), 'npm install -D <tarball>');
      const { team } = installSection();
      const npx = team.find((l) => l.startsWith('npx '));
      expect(npx).toBe('npx graphiti-memory-sync install --scope project');
      const install = await sh(npx as string, box.project, env);
      expectOk(install, npx as string);
      const script = '"$CLAUDE_PROJECT_DIR/node_modules/graphiti-memory-sync/dist/hooks/session-start.js"';
      expect(hookCommands(join(box.project, '.claude', 'settings.json')).SessionStart).toBe(`test -f ${script} || exit 0; ${nodeGuard('SessionStart')}; exec node ${script} --graphiti-memory-sync`);

      const here = await box.claude(['-p', `WRITE ${join(box.memoryDir, 'team.md')}`, '--allowedTools', 'Write']);
      expect(hookOutcome(here)).toEqual(CLEAN_SESSION);
      // The hook's note names npx in the project (no graphiti-memory-sync on PATH here), and it runs.
      const hooks = hookCommands(join(box.project, '.claude', 'settings.json'));
      expect(await noteCommandRuns(hooks.SessionStart, box.project, { ...env, CLAUDE_PROJECT_DIR: box.project })).toBe('npx graphiti-memory-sync health');

      // A teammate's clone: the committed files and their own `npm install`, at another path.
      const teammate = join(box.root, 'teammate', 'app');
      cpSync(box.project, teammate, { recursive: true, verbatimSymlinks: true });
      const there = await box.claude(['-p', 'hello'], { cwd: teammate });
      expect(hookOutcome(there)).toEqual(CLEAN_SESSION);
      expect(there.debug).not.toMatch(/Cannot find module/);
    } finally {
      await box.cleanup();
    }
  }, 180_000);

  it('the recorded hook commands keep working unchanged after an upgrade, and after a reinstall into another prefix', async () => {
    const env = userEnv('moves', join(prefix, 'bin'));
    expectOk(await sh('graphiti-memory-sync install', work, env), 'install');
    const settings = join(env.CLAUDE_CONFIG_DIR as string, 'settings.json');
    const recorded = hookCommands(settings);
    const before = readFileSync(settings, 'utf8');
    const stopInput = JSON.stringify({ session_id: 's1', hook_event_name: 'Stop', cwd: work, transcript_path: join(work, 't.jsonl'), stop_hook_active: false });
    const startInput = JSON.stringify({ session_id: 's1', hook_event_name: 'SessionStart', source: 'startup', cwd: work, transcript_path: join(work, 't.jsonl') });

    /** The hooks as Claude Code runs them: the recorded command line, the event on stdin. */
    const hooksWork = async (runEnv: Record<string, string>, note: string) => {
      writeMemory(env, `${note}.md`, `Note written ${note}.`);
      const start = await sh(recorded.SessionStart, work, runEnv, startInput);
      expectOk(start, `SessionStart ${note}`);
      expect(start.stderr).toBe('');
      // The bare form earlier versions recorded (no guard) is the same run.
      const bare = await sh(recorded.SessionStart.replace(/^.*; exec /, ''), work, runEnv, startInput);
      expect({ code: bare.code, stderr: bare.stderr }, `bare SessionStart ${note}`).toEqual({ code: 0, stderr: '' });
      const stop = await sh(recorded.Stop, work, runEnv, stopInput);
      expectOk(stop, `Stop ${note}`);
      expect(stop.stdout).toBe('');
      expect(stop.stderr).toBe('');
      // Stop starts the background worker, which syncs the new note.
      await waitForEvent(graphiti.events, ['processed', 'call'], () => stored(`Note written ${note}.`), `the note written ${note}`);
    };

    // An upgrade in place: the next version packed from the same clone, installed over this one.
    const npmEnvHere = { ...env, ...npmEnv(prefix) };
    expectOk(await sh('npm version 0.99.0 --no-git-tag-version && npm pack --ignore-scripts', clone, npmEnvHere), 'npm version && npm pack');
    expectOk(await sh(`npm install -g ${join(clone, 'graphiti-memory-sync-0.99.0.tgz')}`, work, npmEnvHere), 'npm install -g (upgrade)');
    expect((await sh('graphiti-memory-sync --version', work, env)).stdout.trim()).toBe('0.99.0');
    await hooksWork(env, 'after-upgrade');

    // Installed into another prefix (another Node version, another machine layout), the first one removed.
    const other = join(work, 'other-prefix');
    expectOk(await sh(`npm install -g ${tarball}`, work, { ...env, ...npmEnv(other) }), 'npm install -g (other prefix)');
    rmSync(prefix, { recursive: true, force: true });
    const movedEnv = { ...env, PATH: pathWith(join(other, 'bin')) };
    await hooksWork(movedEnv, 'after-move');
    expect(readFileSync(settings, 'utf8')).toBe(before);
  }, 180_000);
});
