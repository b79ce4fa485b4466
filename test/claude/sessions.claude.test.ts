/**
 * The REAL Claude Code CLI (each pinned generation, scripts/test/claude-code.mjs) running our hooks headless, against a loopback FAKE
 * Anthropic API and our Graphiti-shaped test server. `npm run test:claude` (not in `vitest run`).
 */
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readContextCache } from '../../src/lib/context/cache.js';
import { claudeProjectKey } from '../../src/lib/context/project.js';
import { unusedPort as closedPort } from '../helpers/ports.js';
import { waitForCondition } from '../helpers/wait-for-condition.js';
import type { GraphitiTestServer } from '../support/graphiti-server.js';
import type { FakeAnthropic } from './fake-anthropic.js';
import { useClaudeWorld } from './use-claude-world.js';
import { hookErrors, hookRuns, injectedContexts, makeClaudeBox, type ClaudeBox, vendorInto, waitForEvent } from './harness.js';

const MEMORY = '---\nname: queue decision\ndescription: which queue the jobs use\ntype: project\n---\n# Queue\n\nWe decided to use the shared queue for background jobs.\n';
const FACT = 'The billing queue retries failed invoices every 6 hours';

let api: FakeAnthropic;
let graphiti: GraphitiTestServer;
let box: ClaudeBox;

useClaudeWorld(MEMORY, (w) => {
  ({ api, graphiti, box } = w);
  graphiti.seedFact({ fact: FACT, group_id: 'main' });
});

function cacheFor(b: ClaudeBox): string | undefined {
  return readContextCache(b.stateDir, claudeProjectKey(b.project))?.text;
}

/** Waits until the worker started by a session has written the project's context cache. */
async function contextCached(b: ClaudeBox, includes: string): Promise<void> {
  await waitForCondition(join(b.stateDir), () => (cacheFor(b) ?? '').includes(includes), 30_000, `context cache with "${includes}"`);
}

function lastRequest(): Record<string, unknown> {
  const body = api.requests[api.requests.length - 1];
  if (body === undefined) throw new Error('the fake Anthropic API received no request');
  return body;
}

describe('real Claude Code CLI, fake Anthropic API', () => {
  for (const scope of ['user', 'project', 'local'] as const) {
    it(`install --scope ${scope}: the second session's request carries our context once, nothing on stderr`, async () => {
      // Project scope is shared with the team: the package must be a project dependency.
      const cli = scope === 'project' ? vendorInto(box.project) : undefined;
      const install = box.gms(['install', '--scope', scope], { cli });
      expect(install.stderr).toBe('');
      expect(install.code).toBe(0);

      // Session 1 writes a memory file; Stop syncs it and the worker rebuilds the context cache.
      const first = await box.claude(['-p', `WRITE ${join(box.memoryDir, 'queue.md')}`, '--allowedTools', 'Write']);
      expect(first.code).toBe(0);
      expect(first.stderr).toBe('');
      expect(hookRuns(first.debug).map((r) => [r.event, r.status])).toEqual([
        ['SessionStart', 0],
        ['Stop', 0],
      ]);
      await contextCached(box, 'shared queue for background jobs');

      const second = await box.claude(['-p', 'hello again']);
      expect(second.code).toBe(0);
      expect(second.stderr).toBe('');
      expect(second.stdout.trim()).toBe('OK');
      const contexts = injectedContexts(lastRequest());
      expect(contexts).toHaveLength(1);
      expect(contexts[0]).toContain('shared queue for background jobs');
      expect(contexts[0]).toContain(FACT);
      expect(hookErrors(second.debug)).toEqual([]);
    }, 120_000);
  }

  it('install --scope project: refused for a copy outside the project; from the project dependency it runs for a teammate at another path', async () => {
    const refused = box.gms(['install', '--scope', 'project']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/Refusing --scope project.*--scope local/s);
    expect(existsSync(join(box.project, '.claude'))).toBe(false);

    const cli = vendorInto(box.project);
    expect(box.gms(['install', '--scope', 'project'], { cli }).code).toBe(0);
    expect(readFileSync(join(box.project, '.claude', 'settings.json'), 'utf8')).not.toContain(box.root);
    // The teammate's clone: the same committed files at another path.
    const clone = join(box.root, 'teammate', 'proj');
    cpSync(box.project, clone, { recursive: true, verbatimSymlinks: true });
    const run = await box.claude(['-p', 'hello'], { cwd: clone });
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    const runs = hookRuns(run.debug);
    expect(runs.map((r) => [r.event, r.status])).toEqual([
      ['SessionStart', 0],
      ['Stop', 0],
    ]);
    expect(runs[0]?.command).toContain('$CLAUDE_PROJECT_DIR/node_modules/graphiti-memory-sync/dist/hooks/session-start.js');
    expect(hookErrors(run.debug)).toEqual([]);
    expect(run.debug).not.toMatch(/Cannot find module/);
  }, 120_000);

  it('Stop syncs in -p: the memory file Claude writes with the Write tool reaches Graphiti during the run', async () => {
    box.gms(['install', '--scope', 'user']);
    const file = join(box.memoryDir, 'queue.md');
    const run = await box.claude(['-p', `WRITE ${file}`, '--allowedTools', 'Write']);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout.trim()).toBe('Saved the decision to memory.');
    // Claude Code normalises a memory file's frontmatter as it writes it (name: queue-decision).
    expect(readFileSync(file, 'utf8')).toContain('We decided to use the shared queue for background jobs.');
    const stop = hookRuns(run.debug).find((r) => r.event === 'Stop');
    expect(stop?.status).toBe(0);
    expect(run.debug).not.toMatch(/Hook Stop \(Stop\) cancelled/);
    await waitForEvent(graphiti.events, ['processed', 'call'], () => graphiti.episodes().some((e) => e.content.includes('shared queue for background jobs')), 'the written memory as an episode');
  }, 120_000);

  it('Stop syncs in a session that stays open (-p --input-format stream-json): the file reaches Graphiti after the turn', async () => {
    box.gms(['install', '--scope', 'user']);
    const file = join(box.memoryDir, 'queue.md');
    const turn = `${JSON.stringify({ type: 'user', message: { role: 'user', content: [{ type: 'text', text: `WRITE ${file}` }] } })}\n`;
    // Stdin stays open for the whole exchange: the episode must arrive while the session is still running.
    const session = box.claudeStream(['-p', '--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose', '--allowedTools', 'Write']);
    session.write(turn);
    await waitForEvent(graphiti.events, ['processed', 'call'], () => graphiti.episodes().some((e) => e.content.includes('shared queue for background jobs')), 'the written memory as an episode', 60_000);
    const run = await session.end();
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(hookRuns(run.debug).find((r) => r.event === 'Stop')?.status).toBe(0);
  }, 120_000);

  // util-linux `script` gives the pseudo-terminal (Linux; macOS's script takes other arguments).
  it.runIf(process.platform === 'linux')('Stop syncs in the interactive UI (a pseudo-terminal): the file Claude writes reaches Graphiti after the turn, while the session stays open', async () => {
    box.gms(['install', '--scope', 'user']);
    const file = join(box.memoryDir, 'queue.md');
    const session = box.claudeInteractive(['--allowedTools', 'Write']);
    try {
      await session.shows(/❯/, 'the prompt', 60_000);
      session.type(`WRITE ${file}`);
      // Enter only once the text is in the input box: typed together, it would be a paste.
      await session.shows(/WRITE \//, 'the typed prompt');
      session.type('\r');
      await waitForEvent(graphiti.events, ['processed', 'call'], () => graphiti.episodes().some((e) => e.content.includes('shared queue for background jobs')), 'the written memory as an episode', 60_000);
      // The turn went round: the Write tool's result went back to the model (the TUI draws its
      // answer with cursor moves, so the screen is not compared word for word).
      expect(api.requests.length).toBeGreaterThanOrEqual(2);
      // The episode can reach Graphiti before the turn ends (the session start's worker may still be
      // scanning when Claude writes the file, on a loaded machine): quitting then would end the
      // session before its Stop hook ran. The Stop hook's run is what this case is about: wait for it.
      await session.logs(/Hooks: Stop(?::\w+)? \[[^\]]*graphiti-memory-sync[^\]]*\](?: \(plugin [^)]*\))? finished with status/, 'the Stop hook\'s run after the turn', 60_000);
    } finally {
      const run = await session.close();
      expect(run.stderr).toBe('');
      const runs = hookRuns(run.debug);
      expect(runs.find((r) => r.event === 'SessionStart')?.status).toBe(0);
      expect(runs.find((r) => r.event === 'Stop')?.status).toBe(0);
      expect(hookErrors(run.debug)).toEqual([]);
    }
  }, 120_000);

  it('Graphiti down: the session runs normally, hooks exit 0, nothing on stderr, no context injected', async () => {
    const down = makeClaudeBox(api.url, `http://127.0.0.1:${await closedPort()}/mcp`);
    try {
      down.gms(['install', '--scope', 'user']);
      const file = join(down.memoryDir, 'queue.md');
      const run = await down.claude(['-p', `WRITE ${file}`, '--allowedTools', 'Write']);
      expect(run.code).toBe(0);
      expect(run.stderr).toBe('');
      expect(run.stdout.trim()).toBe('Saved the decision to memory.');
      expect(hookRuns(run.debug).map((r) => r.status)).toEqual([0, 0]);
      expect(hookErrors(run.debug)).toEqual([]);
      expect(injectedContexts(lastRequest())).toEqual([]);
    } finally {
      await down.cleanup();
    }
  }, 120_000);

  it('a broken config: the model reads one note saying so, hooks exit 0, nothing on stderr', async () => {
    box.gms(['install', '--scope', 'user']);
    const run = await box.claude(['-p', 'hello'], { env: { MADEINOZ_KNOWLEDGE_CONTEXT_BUDGET: 'lots' } });
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(hookRuns(run.debug).map((r) => r.status)).toEqual([0, 0]);
    const contexts = injectedContexts(lastRequest());
    expect(contexts).toHaveLength(1);
    expect(contexts[0]).toMatch(/graphiti-memory-sync is misconfigured \(setting MADEINOZ_KNOWLEDGE_CONTEXT_BUDGET\)/);
  }, 120_000);

  for (const [scope, prior] of [
    ['user', undefined],
    ['project', '{\n  "permissions": {\n    "allow": ["Bash(ls:*)"]\n  }\n}\n'],
    ['local', undefined],
  ] as const) {
    it(`uninstall --scope ${scope} restores the settings file exactly (${prior === undefined ? 'absent' : 'as it was'}) after real sessions`, async () => {
      const file = scope === 'user' ? join(box.claudeDir, 'settings.json') : join(box.project, '.claude', scope === 'project' ? 'settings.json' : 'settings.local.json');
      if (prior !== undefined) {
        mkdirSync(join(file, '..'), { recursive: true });
        writeFileSync(file, prior);
      }
      const cli = scope === 'project' ? vendorInto(box.project) : undefined;
      expect(box.gms(['install', '--scope', scope], { cli }).code).toBe(0);
      const run = await box.claude(['-p', 'hello']);
      expect(hookRuns(run.debug)).toHaveLength(2);
      expect(box.gms(['uninstall', '--scope', scope], { cli }).code).toBe(0);
      if (prior === undefined) expect(existsSync(file)).toBe(false);
      else expect(readFileSync(file, 'utf8')).toBe(prior);
      const after = await box.claude(['-p', 'hello']);
      expect(hookRuns(after.debug)).toEqual([]);
    }, 120_000);
  }
});
