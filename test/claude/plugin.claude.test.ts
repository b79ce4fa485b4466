/**
 * The plugin under the REAL Claude Code CLI (pinned 2.1.330), against a loopback FAKE Anthropic
 * API and our Graphiti-shaped test server: installed from this checkout as a directory
 * marketplace, alone and beside install's settings hooks.
 */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
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
