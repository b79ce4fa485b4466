/**
 * The plugin (plugin/: manifest, hooks.json, the committed hook bundles, the skill), the
 * marketplace (.claude-plugin/marketplace.json), and this repository's own .claude/settings.json
 * with its launcher hooks/run.mjs.
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeContextCache } from '../../src/lib/context/cache.js';
import { recordGraphProblem } from '../../src/lib/context/graph-problem.js';
import { isOurHandler } from '../../src/lib/install/install.js';
import { nodeGuard } from '../../src/lib/install/node-guard.js';
import { claudeProjectKey } from '../../src/lib/context/project.js';
import { pluginContentHash, pluginVersion, versionNamesContent } from '../../src/lib/install/plugin-version.js';
import { logFilePath } from '../../src/lib/util/log.js';
import { makeHookSandbox, type HookSandbox } from '../helpers/hook-runner.js';
import { REPO_ROOT as REPO } from '../support/paths.js';

const readJson = (rel: string) => JSON.parse(readFileSync(join(REPO, rel), 'utf8')) as Record<string, unknown>;

type Handler = { type: string; command: string; timeout?: number; async?: boolean; statusMessage?: string };
type Hooks = Record<string, Array<{ matcher?: string; hooks: Handler[] }>>;

describe('plugin manifest and marketplace', () => {
  it('plugin.json: kebab-case name, version (package.json\'s, + the hash of what the plugin ships), description, author', () => {
    const p = readJson('plugin/.claude-plugin/plugin.json');
    expect(p.name).toBe('graphiti-memory-sync');
    expect(p.network).toEqual({ hosts: ['localhost', '127.0.0.1'] });
    expect(existsSync(join(REPO, 'plugin', '.claude-plugin', 'icon.png'))).toBe(true);
    // `claude plugin update` fetches a build only when this string changed: it names the content
    // (src/lib/install/plugin-version.ts), and "npm run build:plugin" writes it.
    expect(p.version, 'plugin.json\'s version does not name the plugin\'s files: run "npm run build:plugin"').toBe(pluginVersion(readJson('package.json').version as string, join(REPO, 'plugin')));
    expect(p.version).toMatch(/^\d+\.\d+\.\d+\+[0-9a-f]{12}$/);
    expect(typeof p.description).toBe('string');
    expect(p.author).toMatchObject({ name: expect.any(String) });
  });

  it('marketplace.json describes itself and lists the plugin at ./plugin', () => {
    const m = readJson('.claude-plugin/marketplace.json') as { name: string; owner: { name: string }; plugins: Array<{ name: string; source: string; description: string }> };
    expect(m.name).toBe('graphiti-memory-sync');
    expect(m.owner.name).toBeTruthy();
    expect(m.plugins).toEqual([{ name: 'graphiti-memory-sync', source: './plugin', description: expect.any(String) }]);
    expect((m as unknown as { metadata: { description: string } }).metadata.description).toMatch(/Graphiti/);
  });

  // The plugin's commands first check that the gate they run is there, as install's do (install/hook-entries.ts `guarded`):
  // a session outlives its plugin folder (an old version's cache copy is swept, a checkout moves). The
  // repository's own launcher is part of the checkout it runs in.
  const fileCheck = (gate: string) => `test -f "\${CLAUDE_PLUGIN_ROOT}/hooks/${gate}.cjs" || exit 0; `;
  for (const [file, root, start, stop, startCheck, stopCheck] of [
    ['plugin/hooks/hooks.json', '${CLAUDE_PLUGIN_ROOT}', 'hooks/session-start.cjs"', 'hooks/stop.cjs"', fileCheck('session-start'), fileCheck('stop')],
    ['.claude/settings.json', '$CLAUDE_PROJECT_DIR', 'hooks/run.mjs" session-start', 'hooks/run.mjs" stop', '', ''],
  ] as const) {
    it(`${file}: SessionStart (10 s) and Stop (10 s, not async), timeouts in seconds`, () => {
      const [startCmd, stopCmd] = [start, stop];
      const hooks = readJson(file).hooks as Hooks;
      expect(Object.keys(hooks).sort()).toEqual(['SessionStart', 'Stop']);
      const startGroup = hooks.SessionStart?.[0];
      expect(startGroup?.matcher).toBe('startup|clear|compact');
      expect(startGroup?.hooks[0]).toMatchObject({ type: 'command', timeout: 10, statusMessage: 'Loading memory' });
      // Behind the node check every hook command of ours takes (install/node-guard.ts, its one owner).
      expect(startGroup?.hooks[0]?.command).toBe(`${startCheck}${nodeGuard('SessionStart')}; exec node "${root}/${startCmd} --graphiti-memory-sync`);
      const stopGroup = hooks.Stop?.[0];
      expect(stopGroup?.hooks[0]).toMatchObject({ type: 'command', timeout: 10 });
      expect(stopGroup?.hooks[0]).not.toHaveProperty('async');
      expect(stopGroup?.hooks[0]?.command).toBe(`${stopCheck}${nodeGuard('Stop')}; exec node "${root}/${stopCmd} --graphiti-memory-sync`);
      // install/uninstall recognise these as ours
      expect(isOurHandler(startGroup?.hooks[0], 'SessionStart')).toBe(true);
      expect(isOurHandler(stopGroup?.hooks[0], 'Stop')).toBe(true);
      for (const h of [...(hooks.SessionStart ?? []), ...(hooks.Stop ?? [])].flatMap((g) => g.hooks)) expect(h.timeout).toBeLessThanOrEqual(600);
    });
  }

  it('the skill has frontmatter with name and a when-to-use description', () => {
    const text = readFileSync(join(REPO, 'plugin', 'skills', 'graphiti-memory', 'SKILL.md'), 'utf8');
    const fm = /^---\n([\s\S]*?)\n---\n/.exec(text)?.[1] ?? '';
    expect(fm).toMatch(/^name: graphiti-memory$/m);
    expect(fm).toMatch(/^description: .*Use when/m);
    expect(text).toContain('<private>');
    // The plugin ships no command line: the skill says where the command is, and the log the worker writes (util/log.ts).
    expect(text).toContain('no command line');
    expect(text).toContain('`npx graphiti-memory-sync …` inside a project that has it in `node_modules`');
    expect(text).toContain(`/${relative('/s', logFilePath('/s'))}`);
  });
});

describe('the plugin folder: bundled hooks, no dependencies, no build', () => {
  it('holds no package.json (so Claude Code runs no npm install) and only the plugin parts', () => {
    expect(readdirSync(join(REPO, 'plugin')).sort()).toEqual(['.claude-plugin', 'hooks', 'skills']);
    // session-start.cjs and stop.cjs, the files hooks.json names, are the Node.js version gates in front of the hooks' bundles (<name>-main.cjs).
    expect(readdirSync(join(REPO, 'plugin', 'hooks')).sort()).toEqual(['hook-config.cjs', 'hooks.json', 'session-start-main.cjs', 'session-start.cjs', 'stop-main.cjs', 'stop.cjs', 'worker.cjs']);
  });

  it('the committed bundles are exactly what scripts/build/bundle-hooks.mjs builds from src/ (run it with --plugin after changing src/)', async () => {
    const out = mkdtempSync(join(tmpdir(), 'gms-plugin-bundle-'));
    try {
      // With the committed manifest and skill, as plugin/ holds them: the build writes the version last.
      cpSync(join(REPO, 'plugin', '.claude-plugin'), join(out, '.claude-plugin'), { recursive: true });
      cpSync(join(REPO, 'plugin', 'skills'), join(out, 'skills'), { recursive: true });
      cpSync(join(REPO, 'plugin', 'hooks', 'hooks.json'), join(out, 'hooks', 'hooks.json'));
      await new Promise<void>((done, fail) => {
        const child = spawn(process.execPath, [join(REPO, 'scripts', 'build', 'bundle-hooks.mjs'), '--plugin', out], { cwd: REPO, stdio: 'ignore' });
        child.on('close', (code) => (code === 0 ? done() : fail(new Error(`bundle-hooks exited ${code}`))));
      });
      for (const name of ['session-start', 'session-start-main', 'stop', 'stop-main', 'worker', 'hook-config']) {
        const fresh = readFileSync(join(out, 'hooks', `${name}.cjs`), 'utf8');
        const committed = readFileSync(join(REPO, 'plugin', 'hooks', `${name}.cjs`), 'utf8');
        expect(committed === fresh, `plugin/hooks/${name}.cjs is stale: run "npm run build:plugin"`).toBe(true);
      }
      const built = JSON.parse(readFileSync(join(out, '.claude-plugin', 'plugin.json'), 'utf8')) as Record<string, unknown>;
      expect(built).toEqual({ ...readJson('plugin/.claude-plugin/plugin.json'), version: pluginVersion(readJson('package.json').version as string, out) });
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 60_000);

  it('a copy of plugin/ far from any node_modules (as in Claude Code\'s plugin cache) injects the cached block', async () => {
    const sb = makeHookSandbox({ GMS_WORKER_DISABLED: '1' });
    try {
      const copy = join(sb.root, 'cache', 'graphiti-memory-sync', '0.1.0');
      cpSync(join(REPO, 'plugin'), copy, { recursive: true });
      const project = join(sb.root, 'p');
      mkdirSync(join(project, '.git'), { recursive: true });
      const text = 'Knowledge graph facts for p (from Graphiti, group main):\n- x';
      await writeContextCache(sb.stateDir, { version: 1, builtAt: new Date().toISOString(), project: 'p', key: claudeProjectKey(project), root: project, groupIds: ['main'], text, format: 'lines', facts: 1, nodes: 0 });
      const r = await new Promise<{ code: number | null; stdout: string; stderr: string }>((done) => {
        const child = spawn(process.execPath, [join(copy, 'hooks', 'session-start.cjs'), '--graphiti-memory-sync'], { env: sb.env, cwd: sb.root });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
        child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
        child.on('close', (code) => done({ code, stdout, stderr }));
        child.stdin.end(JSON.stringify({ cwd: project, source: 'startup', session_id: 's1' }));
      });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: text } });
    } finally {
      sb.cleanup();
    }
  });
});

describe('the plugin names a step that runs for a plugin user (it ships no command line)', () => {
  /** The SessionStart bundle of a copy of plugin/ at `root`, run after the worker found the graph unreachable: the note it injects. */
  async function noteFrom(root: string, sb: HookSandbox): Promise<string> {
    cpSync(join(REPO, 'plugin'), root, { recursive: true });
    mkdirSync(sb.stateDir, { recursive: true });
    recordGraphProblem(sb.stateDir, 'unreachable', 'connect ECONNREFUSED 127.0.0.1:9');
    const r = spawnSync(process.execPath, [join(root, 'hooks', 'session-start.cjs'), '--graphiti-memory-sync'], { env: sb.env, cwd: sb.root, input: JSON.stringify({ cwd: sb.root, source: 'startup', session_id: 's1' }), encoding: 'utf8' });
    expect({ code: r.status, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
    return (JSON.parse(r.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
  }

  it('from Claude Code\'s cache: the note names the worker\'s log and how to get the command, never npx', async () => {
    const sb = makeHookSandbox({ GMS_WORKER_DISABLED: '1' });
    try {
      const note = await noteFrom(join(sb.root, 'claude', 'plugins', 'cache', 'team-tools', 'graphiti-memory-sync', '0.1.0+1a2b3c4d5e6f'), sb);
      expect(note).toMatch(/^Note for the user from graphiti-memory-sync: the knowledge graph \(Graphiti\) could not be reached since /);
      expect(note).toContain(`The worker's log ${logFilePath(sb.stateDir)} has the errors`);
      expect(note).toContain('the plugin ships no command line');
      expect(note).not.toContain('npx');
    } finally {
      sb.cleanup();
    }
  });

  it('from a directory marketplace (a built checkout): the note names the checkout\'s command, and it runs', async () => {
    const sb = makeHookSandbox({ GMS_WORKER_DISABLED: '1' });
    try {
      const repo = join(sb.root, 'repo');
      mkdirSync(join(repo, 'dist'), { recursive: true });
      writeFileSync(join(repo, 'dist', 'cli.js'), "console.log('ran: ' + process.argv.slice(2).join(' '));\n");
      const note = await noteFrom(join(repo, 'plugin'), sb);
      const command = /`([^`]+)`/.exec(note)?.[1] as string;
      expect(command).toBe(`node ${join(repo, 'dist', 'cli.js')} health`);
      expect(spawnSync('bash', ['-c', command], { cwd: sb.root, encoding: 'utf8' }).stdout).toBe('ran: health\n');
    } finally {
      sb.cleanup();
    }
  });
});

describe('the plugin\'s version names its content (so `claude plugin update` fetches every new build)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gms-plugin-version-'));
    cpSync(join(REPO, 'plugin'), dir, { recursive: true });
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const manifest = () => join(dir, '.claude-plugin', 'plugin.json');

  it('one byte more in a bundle, a changed skill, a renamed or an added file: another version', () => {
    const before = pluginVersion('0.1.0', dir);
    const seen = new Set([before]);
    writeFileSync(join(dir, 'hooks', 'stop.cjs'), `${readFileSync(join(dir, 'hooks', 'stop.cjs'), 'utf8')}\n`);
    seen.add(pluginVersion('0.1.0', dir));
    writeFileSync(join(dir, 'skills', 'graphiti-memory', 'SKILL.md'), readFileSync(join(dir, 'skills', 'graphiti-memory', 'SKILL.md'), 'utf8').replace('graph', 'Graph'));
    seen.add(pluginVersion('0.1.0', dir));
    renameSync(join(dir, 'hooks', 'worker.cjs'), join(dir, 'hooks', 'worker2.cjs'));
    seen.add(pluginVersion('0.1.0', dir));
    writeFileSync(join(dir, 'hooks', 'extra.cjs'), '');
    seen.add(pluginVersion('0.1.0', dir));
    writeFileSync(manifest(), JSON.stringify({ ...JSON.parse(readFileSync(manifest(), 'utf8')), description: 'another' }));
    seen.add(pluginVersion('0.1.0', dir));
    expect(seen.size).toBe(6);
    for (const v of seen) expect(versionNamesContent(v), v).toBe(true);
  });

  it('the same content: the same version, whatever the manifest\'s version said (it cannot name itself); package.json\'s version in front', () => {
    const hash = pluginContentHash(dir);
    writeFileSync(manifest(), JSON.stringify({ ...JSON.parse(readFileSync(manifest(), 'utf8')), version: '9.9.9+000000000000' }));
    expect(pluginContentHash(dir)).toBe(hash);
    // A checkout with git's autocrlf: the same release.
    const skill = join(dir, 'skills', 'graphiti-memory', 'SKILL.md');
    writeFileSync(skill, readFileSync(skill, 'utf8').replace(/\n/g, '\r\n'));
    expect(pluginContentHash(dir)).toBe(hash);
    expect(pluginVersion('0.2.0', dir)).toBe(`0.2.0+${hash}`);
    expect(pluginVersion('0.2.0+local', dir)).toBe(`0.2.0+${hash}`);
  });

  it('versionNamesContent: only a version with the content hash', () => {
    expect(versionNamesContent('0.1.0')).toBe(false);
    expect(versionNamesContent(undefined)).toBe(false);
    expect(versionNamesContent('0.1.0-1a2b3c4d5e6f')).toBe(false);
    expect(versionNamesContent('0.1.0+1a2b3c4d5e6f')).toBe(true);
  });
});

describe('hooks/run.mjs launcher (this repository\'s own .claude/settings.json)', () => {
  let sb: HookSandbox;
  beforeEach(() => {
    sb = makeHookSandbox({ GMS_WORKER_DISABLED: '1' });
  });
  afterEach(() => sb.cleanup());

  const launch = (args: string[], input: string) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((done) => {
      const child = spawn(process.execPath, [join(REPO, 'hooks', 'run.mjs'), ...args], { env: sb.env, cwd: sb.root });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('close', (code) => done({ code, stdout, stderr }));
      child.stdin.end(input);
    });

  it('runs the session-start hook (dist when built, else src via tsx) and prints only the JSON', async () => {
    const project = join(sb.root, 'p');
    mkdirSync(join(project, '.git'), { recursive: true });
    const text = 'Knowledge graph facts for p (from Graphiti, group main):\n- x';
    await writeContextCache(sb.stateDir, { version: 1, builtAt: new Date().toISOString(), project: 'p', key: claudeProjectKey(project), root: project, groupIds: ['main'], text, format: 'lines', facts: 1, nodes: 0 });
    const r = await launch(['session-start', '--graphiti-memory-sync'], JSON.stringify({ cwd: project, source: 'startup' }));
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: text } });
  });

  it('an unknown hook name does nothing, exit 0', async () => {
    const r = await launch(['rm-rf'], '{}');
    expect(r).toEqual({ code: 0, stdout: '', stderr: '' });
  });
});
