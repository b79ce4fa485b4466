/**
 * The plugin under the REAL Claude Code CLI (each pinned generation: 2.1.330, 2.1.332, 2.1.337),
 * against a loopback FAKE Anthropic API and our Graphiti-shaped test server: installed from this
 * checkout as a directory marketplace, alone and beside install's settings hooks; from a git
 * marketplace, and updated there by `claude plugin update` after a rebuild; which version strings
 * that command takes for an update, and how recent a marketplace refresh it skips.
 */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startGitHttp } from './git-http.js';
import { readContextCache } from '../../src/lib/context/cache.js';
import { claudeProjectKey } from '../../src/lib/context/project.js';
import { waitForCondition } from '../hooks/helpers.js';
import type { GraphitiTestServer } from '../support/graphiti-server.js';
import type { FakeAnthropic } from './fake-anthropic.js';
import { DEPLOY_FACT as FACT, useDeployWorld } from './use-claude-world.js';
import { hookErrors, hookRuns, injectedContexts, ROOT, type ClaudeBox } from './harness.js';

let api: FakeAnthropic;
let graphiti: GraphitiTestServer;
let box: ClaudeBox;

useDeployWorld((w) => {
  ({ api, graphiti, box } = w);
});

function installPlugin(b: ClaudeBox): number {
  const started = performance.now();
  const add = b.claudeSync(['plugin', 'marketplace', 'add', ROOT]);
  expect(add.code, add.stderr).toBe(0);
  const install = b.claudeSync(['plugin', 'install', 'graphiti-memory-sync@graphiti-memory-sync']);
  expect(install.code, install.stderr).toBe(0);
  return performance.now() - started;
}

/** A first session writes a memory file; its Stop hook's worker syncs it and builds the context cache. */
async function warmUp(b: ClaudeBox): Promise<void> {
  const first = await b.claude(['-p', `WRITE ${join(b.memoryDir, 'deploy.md')}`, '--allowedTools', 'Write']);
  expect(first.code).toBe(0);
  await waitForCondition(b.stateDir, () => (readContextCache(b.stateDir, claudeProjectKey(b.project))?.text ?? '').includes(FACT), 30_000, 'the context cache');
}

/**
 * A release users installed from a git marketplace: this checkout's committed HEAD in a work tree that can be
 * rebuilt (`git` runs there), a bare clone served over a loopback smart-HTTP server, and what Claude Code records
 * as installed.
 */
async function releaseRepo(b: ClaudeBox) {
  const work = join(b.root, 'work');
  const bare = join(b.root, 'git', 'gms.git');
  const git = (...args: string[]) => {
    const r = spawnSync('git', ['-C', work, '-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
  };
  mkdirSync(work);
  git('init', '-q');
  git('fetch', '-q', ROOT, 'HEAD');
  git('checkout', '-q', '-B', 'main', 'FETCH_HEAD');
  symlinkSync(join(ROOT, 'node_modules'), join(work, 'node_modules'));
  expect(spawnSync('git', ['clone', '-q', '--bare', work, bare]).status).toBe(0);
  const server = await startGitHttp(join(b.root, 'git'));
  const installed = () => (JSON.parse(readFileSync(join(b.claudeDir, 'plugins', 'installed_plugins.json'), 'utf8')) as { plugins: Record<string, Array<{ version: string; installPath: string }>> }).plugins['graphiti-memory-sync@graphiti-memory-sync']?.[0];
  return { work, bare, git, server, installed };
}

describe('plugin under the real Claude Code CLI, fake Anthropic API', () => {
  it('directory marketplace: installs without npm install or a build, its hooks run the bundles, the second session gets the context', async () => {
    const ms = installPlugin(box);
    // Measured 9–15 s when Claude Code ran npm install in a copy of the whole repository.
    expect(ms).toBeLessThan(60_000);
    const list = box.claudeSync(['plugin', 'list']);
    expect(list.stdout).toContain(join(ROOT, 'plugin'));
    await warmUp(box);
    const second = await box.claude(['-p', 'hello again']);
    expect(second.code).toBe(0);
    expect(second.stderr).toBe('');
    const runs = hookRuns(second.debug);
    expect(runs.map((r) => [r.event, r.status])).toEqual([
      ['SessionStart', 0],
      ['Stop', 0],
    ]);
    expect(runs[0]?.command).toContain('plugin/hooks/session-start.cjs');
    expect(hookErrors(second.debug)).toEqual([]);
    const contexts = injectedContexts(api.requests[api.requests.length - 1] as Record<string, unknown>);
    expect(contexts).toHaveLength(1);
    expect(contexts[0]).toContain(FACT);
  }, 180_000);

  it('git marketplace over a loopback smart-HTTP server: installs from a copy in the plugin cache, whose bundles run and inject the context', async () => {
    // The committed HEAD of this checkout, served as a bare repository.
    const repos = join(box.root, 'git');
    expect(spawnSync('git', ['clone', '-q', '--bare', ROOT, join(repos, 'gms.git')]).status).toBe(0);
    const git = await startGitHttp(repos);
    try {
      const started = performance.now();
      const add = await box.claude(['plugin', 'marketplace', 'add', `${git.url}/gms.git`], { management: true });
      expect(add.code, add.stderr).toBe(0);
      const install = await box.claude(['plugin', 'install', 'graphiti-memory-sync@graphiti-memory-sync'], { management: true });
      expect(install.code, install.stderr).toBe(0);
      expect(performance.now() - started).toBeLessThan(60_000);
      await warmUp(box);
      const second = await box.claude(['-p', 'hello again']);
      expect(second.code).toBe(0);
      expect(second.stderr).toBe('');
      const runs = hookRuns(second.debug);
      expect(runs.map((r) => [r.event, r.status])).toEqual([
        ['SessionStart', 0],
        ['Stop', 0],
      ]);
      // Run from Claude Code's copy, not from this checkout: no node_modules, no dist/ there.
      expect(runs[0]?.command).toContain(join(box.claudeDir, 'plugins', 'cache'));
      const contexts = injectedContexts(api.requests[api.requests.length - 1] as Record<string, unknown>);
      expect(contexts).toHaveLength(1);
      expect(contexts[0]).toContain(FACT);
    } finally {
      await git.close();
    }
  }, 180_000);

  it('git marketplace: a rebuild that changes the bundles changes the version, "claude plugin update" fetches it, and the next session runs the new hooks', async () => {
    // The release users installed: this checkout's committed HEAD, in a work tree that can be rebuilt.
    const { work, bare, git, server, installed } = await releaseRepo(box);
    const manifestVersion = () => (JSON.parse(readFileSync(join(work, 'plugin', '.claude-plugin', 'plugin.json'), 'utf8')) as { version: string }).version;
    try {
      expect((await box.claude(['plugin', 'marketplace', 'add', `${server.url}/gms.git`], { management: true })).code).toBe(0);
      expect((await box.claude(['plugin', 'install', 'graphiti-memory-sync@graphiti-memory-sync'], { management: true })).code).toBe(0);
      const first = installed();
      expect(first?.version).toBe(manifestVersion());
      await warmUp(box);

      // A change to what the hooks bundle, rebuilt as a release is: npm run build:plugin, committed, pushed.
      const marker = `rebuilt-${process.pid}-${Date.now()}`;
      appendFileSync(join(work, 'src', 'hooks', 'session-start.ts'), `\n// A rebuild for plugin.claude.test.ts.\nprocess.env.GMS_TEST_REBUILD ??= '${marker}';\n`);
      const build = spawnSync(process.execPath, [join(work, 'scripts', 'build', 'bundle-hooks.mjs'), '--plugin'], { cwd: work, encoding: 'utf8' });
      expect(build.status, build.stderr).toBe(0);
      // The hook itself is the bundle behind the version gate the command names (src/hooks/node-gate.ts).
      expect(readFileSync(join(work, 'plugin', 'hooks', 'session-start-main.cjs'), 'utf8')).toContain(marker);
      expect(manifestVersion()).not.toBe(first?.version);
      git('commit', '-qam', 'a rebuild');
      git('push', '-q', bare, 'main');

      // Users update long after the marketplace was last refreshed; Claude Code skips refreshing a
      // marketplace it refreshed less than 30 s ago (measured on every pinned generation: the refresh-window
      // test below), so say when that was.
      const known = join(box.claudeDir, 'plugins', 'known_marketplaces.json');
      const marketplaces = JSON.parse(readFileSync(known, 'utf8')) as Record<string, { lastUpdated: string }>;
      (marketplaces['graphiti-memory-sync'] as { lastUpdated: string }).lastUpdated = new Date(Date.now() - 3_600_000).toISOString();
      writeFileSync(known, JSON.stringify(marketplaces, null, 2));

      const update = await box.claude(['plugin', 'update', 'graphiti-memory-sync@graphiti-memory-sync'], { management: true });
      expect(update.code, update.stderr).toBe(0);
      expect(update.stdout).toContain(`updated from ${first?.version} to ${manifestVersion()}`);
      const now = installed();
      expect(now?.version).toBe(manifestVersion());
      expect(now?.installPath).not.toBe(first?.installPath);

      const next = await box.claude(['-p', 'hello again']);
      expect(next.code).toBe(0);
      const runs = hookRuns(next.debug);
      expect(runs.map((r) => [r.event, r.status])).toEqual([
        ['SessionStart', 0],
        ['Stop', 0],
      ]);
      // The new copy's bundle ran, and it injected the block.
      const script = /node "([^"]+)"/.exec(runs[0]?.command ?? '')?.[1] ?? '';
      expect(script).toBe(join(now?.installPath ?? '?', 'hooks', 'session-start.cjs'));
      expect(readFileSync(join(now?.installPath ?? '?', 'hooks', 'session-start-main.cjs'), 'utf8')).toContain(marker);
      const contexts = injectedContexts(api.requests[api.requests.length - 1] as Record<string, unknown>);
      expect(contexts).toHaveLength(1);
      expect(contexts[0]).toContain(FACT);
    } finally {
      await server.close();
    }
  }, 240_000);

  it('git marketplace: "claude plugin update" fetches on any change of plugin.json\'s version string (downgrade, same precedence, pre-release) and only then; it refreshes a marketplace refreshed 30 s ago or more, not one refreshed 20 s ago', async () => {
    // The facts install/plugin-version.ts and commands/copies.ts rest on, measured on each pinned generation.
    const { work, bare, git, server, installed } = await releaseRepo(box);
    const manifest = join(work, 'plugin', '.claude-plugin', 'plugin.json');
    /** A release pushed: the manifest's version set to `version` (unless undefined) and `extra` appended to a shipped file. */
    const push = (version: string | undefined, extra = '') => {
      if (version !== undefined) writeFileSync(manifest, JSON.stringify({ ...(JSON.parse(readFileSync(manifest, 'utf8')) as object), version }, null, 2));
      if (extra !== '') appendFileSync(join(work, 'plugin', 'NOTES.md'), extra);
      git('add', '-A', 'plugin');
      git('commit', '-qm', `release ${version ?? 'same version'}`);
      git('push', '-q', bare, 'main');
    };
    /** `claude plugin update`, the marketplace last refreshed `ageMs` ago; the version installed after it. */
    const update = async (ageMs: number): Promise<string | undefined> => {
      const known = join(box.claudeDir, 'plugins', 'known_marketplaces.json');
      const marketplaces = JSON.parse(readFileSync(known, 'utf8')) as Record<string, { lastUpdated: string }>;
      (marketplaces['graphiti-memory-sync'] as { lastUpdated: string }).lastUpdated = new Date(Date.now() - ageMs).toISOString();
      writeFileSync(known, JSON.stringify(marketplaces, null, 2));
      const run = await box.claude(['plugin', 'update', 'graphiti-memory-sync@graphiti-memory-sync'], { management: true });
      expect(run.code, run.stderr).toBe(0);
      return installed()?.version;
    };
    try {
      expect((await box.claude(['plugin', 'marketplace', 'add', `${server.url}/gms.git`], { management: true })).code).toBe(0);
      expect((await box.claude(['plugin', 'install', 'graphiti-memory-sync@graphiti-memory-sync'], { management: true })).code).toBe(0);
      const seen: Array<[string, string | undefined]> = [];
      for (const version of ['0.1.0', '0.1.0+bbb222', '0.1.0+0aa000', '0.1.0-ccc333', '0.0.9']) {
        push(version);
        seen.push([version, await update(3_600_000)]);
      }
      expect(seen).toEqual(seen.map(([v]) => [v, v]));
      // The same version string over changed files: the cached copy stays.
      const before = installed()?.installPath;
      push(undefined, '\nAnother build, the same version string.\n');
      expect(await update(3_600_000)).toBe('0.0.9');
      expect(installed()?.installPath).toBe(before);
      // The refresh window: a marketplace refreshed 20 s ago is not fetched again; 30 s ago it is.
      push('0.0.10');
      expect(await update(20_000)).toBe('0.0.9');
      expect(await update(30_500)).toBe('0.0.10');
    } finally {
      await server.close();
    }
  }, 300_000);

  it('plugin and install\'s settings hooks together: install says so, and the block reaches the model once', async () => {
    installPlugin(box);
    const install = box.gms(['install', '--scope', 'user']);
    expect(install.code).toBe(0);
    expect(install.stdout).toMatch(/warning: the graphiti-memory-sync plugin is enabled too/);
    await warmUp(box);
    const second = await box.claude(['-p', 'hello again']);
    expect(second.code).toBe(0);
    expect(second.stderr).toBe('');
    // Both registrations ran…
    expect(hookRuns(second.debug).filter((r) => r.event === 'SessionStart')).toHaveLength(2);
    // …and one block arrived.
    const contexts = injectedContexts(api.requests[api.requests.length - 1] as Record<string, unknown>);
    expect(contexts).toHaveLength(1);
    expect(contexts[0]).toContain(FACT);
  }, 180_000);
});
