/**
 * The real thing: SessionStart hook → detached worker (real runSync + GraphitiClient + buildContext)
 * → Graphiti-shaped test server → context cache → the next SessionStart injects it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { contextCachePath, writeContextCache } from '../../src/lib/context/cache.js';
import { claudeProjectKey } from '../../src/lib/context/project.js';
import type { GraphitiTestServer } from '../support/graphiti-server.js';
import { hangingServer } from './helpers.js';
import { startOtherMcpServer } from '../support/other-mcp-server.js';
import { parseHookStdout, runHook, type HookSandbox } from '../helpers/hook-runner.js';
import { finishedWorkerRuns, useHookWorker, waitForWorkers } from '../helpers/use-hook-worker.js';

let server: GraphitiTestServer;
let sb: HookSandbox;
let project: string;
let key: string;

let sessions = 0;
/** Each call is a new session (a session id is claimed once per session start: injection-claim.ts). */
const input = (source: string) => JSON.stringify({ session_id: `s${++sessions}`, cwd: project, hook_event_name: 'SessionStart', source });

useHookWorker((w) => {
  ({ server, sb, project } = w);
  key = claudeProjectKey(project);
  writeFileSync(
    join(w.memory, 'project_architecture.md'),
    '---\nname: project-architecture\ndescription: Decisions about the webapp architecture\nmetadata:\n  type: project\n---\n# Architecture decisions\n\nThe team decided the API runs on Fastify 5 with Postgres 16.\n\nBackground jobs use pg-boss.\n',
  );
});

describe('hook → worker → Graphiti → cache → hook', () => {
  it('the first session start injects nothing and starts the worker; the next one injects the graph facts', async () => {
    const first = await runHook('session-start', sb.env, { input: input('startup') });
    expect(first.code).toBe(0);
    expect(first.stdout).toBe('');

    await waitForWorkers(sb, 1);
    expect(server.calls.some((c) => c.tool === 'add_memory')).toBe(true);
    await server.whenIdle();
    expect(server.episodes('main').length).toBeGreaterThan(0);

    // The first worker ran its context refresh right after sending; facts are extracted
    // asynchronously, so refresh again now that the server is idle (as the next session would).
    const second = await runHook('session-start', sb.env, { input: input('clear') });
    expect(second.code).toBe(0);
    await waitForWorkers(sb, 2);
    const cache = JSON.parse(readFileSync(contextCachePath(sb.stateDir, key), 'utf8')) as { text: string; facts: number; format: string };
    expect(cache.facts).toBeGreaterThan(0);
    expect(cache.text.startsWith('Knowledge graph facts for ')).toBe(true);
    expect(server.calls.some((c) => c.tool === 'search_memory_facts')).toBe(true);

    const third = await runHook('session-start', sb.env, { input: input('startup') });
    const ctx = parseHookStdout(third.stdout)?.additionalContext ?? '';
    expect(ctx).toBe(cache.text);
    expect(ctx).toContain('Knowledge graph facts for webapp');
    await waitForWorkers(sb, 3);
  });

  it('server down: the worker gives up, keeps the previous cache, releases the lock', async () => {
    const previous = `Knowledge graph facts for webapp (from Graphiti, group main):\n- Old but useful fact`;
    await writeContextCache(sb.stateDir, { version: 1, builtAt: new Date().toISOString(), project: 'webapp', key, root: project, groupIds: ['main'], text: previous, format: 'lines', facts: 1, nodes: 0 });
    await server.stop();
    const run = await runHook('session-start', sb.env, { input: input('startup') });
    expect(parseHookStdout(run.stdout)?.additionalContext).toBe(previous);
    await waitForWorkers(sb, 1);
    expect(JSON.parse(readFileSync(contextCachePath(sb.stateDir, key), 'utf8')).text).toBe(previous);
    // The next session is told once, before the facts; the one after is not told again.
    const told = parseHookStdout((await runHook('session-start', sb.env, { input: input('startup') })).stdout)?.additionalContext ?? '';
    expect(told).toMatch(/^Note for the user from graphiti-memory-sync: the knowledge graph \(Graphiti\) could not be reached since .* UTC/);
    expect(told.endsWith(previous)).toBe(true);
    await waitForWorkers(sb, 2);
    expect(parseHookStdout((await runHook('session-start', sb.env, { input: input('startup') })).stdout)?.additionalContext).toBe(previous);
    await waitForWorkers(sb, 3);
    // Back up: a refresh that works clears it, and a later outage is told again.
    await server.start();
    await runHook('session-start', sb.env, { input: input('startup') });
    await waitForWorkers(sb, 4);
    expect(parseHookStdout((await runHook('session-start', sb.env, { input: input('startup') })).stdout)?.additionalContext).not.toContain('graphiti-memory-sync:');
    await waitForWorkers(sb, 5);
  }, 120_000); // Eight hook runs and five workers, each a Node process: 2.5-5 s on a quiet machine, past 30 s at a load of 15. Not a timing goal.

  it('searches failing inside the server (the madeinoz FalkorDB STOPWORDS fault): the next session is told why, once', async () => {
    server.setOptions({ faults: { searchError: "'FalkorDriver' object has no attribute 'STOPWORDS'" } });
    expect((await runHook('session-start', sb.env, { input: input('startup') })).stdout).toBe('');
    await waitForWorkers(sb, 1);
    const told = parseHookStdout((await runHook('session-start', sb.env, { input: input('startup') })).stdout)?.additionalContext ?? '';
    expect(told).toContain('answers, but its searches fail');
    expect(told).toContain('STOPWORDS');
    await waitForWorkers(sb, 2);
    expect((await runHook('session-start', sb.env, { input: input('startup') })).stdout).toBe('');
    await waitForWorkers(sb, 3);
  });

  it('another program\'s MCP server at the address (graphiti.ts GRAPHITI_SURFACE): the next session is told it is not Graphiti and what to do, once', async () => {
    await server.stop({ keepState: true });
    const other = await startOtherMcpServer(server.port, ['search']);
    try {
      expect((await runHook('session-start', sb.env, { input: input('startup') })).stdout).toBe('');
      await waitForWorkers(sb, 1);
      const told = parseHookStdout((await runHook('session-start', sb.env, { input: input('startup') })).stdout)?.additionalContext ?? '';
      expect(told).toMatch(/^Note for the user from graphiti-memory-sync: since .* UTC another program, not Graphiti, answers at the knowledge graph's address/);
      expect(told).toMatch(/health` names it and the fix/);
      await waitForWorkers(sb, 2);
      expect(other.calls).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it('server hangs: the worker is bounded by its time limit and releases the lock', async () => {
    const hang = await hangingServer();
    try {
      // The worker's limit counts from its own start: 4 s leaves it time to load and connect on a
      // machine under load (at 1.5 s it ran out before connecting there, and the test could not
      // tell a bounded worker from one that never tried).
      const env = { ...sb.env, MADEINOZ_KNOWLEDGE_MCP_URL: hang.url, MADEINOZ_KNOWLEDGE_TIMEOUT: '60000', MADEINOZ_KNOWLEDGE_RETRY_DEADLINE: '60000', GMS_WORKER_TIMEOUT_MS: '4000' };
      const run = await runHook('session-start', env, { input: input('startup') });
      await waitForWorkers(sb, 1, 20_000);
      expect(hang.connections()).toBeGreaterThan(0); // the worker (not the hook) tried
      expect(finishedWorkerRuns(sb)[0]?.outcome).toBe('timeout');
    } finally {
      await hang.close();
    }
  });
});
