/**
 * `graphiti-memory-sync server` against the real Graphiti MCP server and FalkorDB, with the
 * stand-in LLM (test-only; users bring their own): start, status, a second start, stop leaving
 * no process, and the graph kept across a stop and a start. The CLI runs as users run it (a child
 * process, isolated home); the pinned environment comes from the shared cache (npm run test:graphiti
 * builds it).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cacheRoot } from '../../src/lib/server/environment.js';
import { respCommand } from '../../src/lib/server/falkordb.js';
import { newestGeneration } from '../../src/lib/server/user-settings.js';
import { processAlive, readRuntime, type ServerRuntime } from '../../src/lib/config/server-runtime.js';
import { isolatedEnv } from '../support/isolated-env.js';
import { runCli } from '../support/real-graphiti.js';
import { startStandInLlm, type StandInLlm } from '../support/standin-llm/server.js';

let root: string;
let llm: StandInLlm;
let env: Record<string, string>;

function runtime(): ServerRuntime {
  const r = readRuntime(env.MADEINOZ_KNOWLEDGE_STATE_DIR as string);
  if (r === undefined) throw new Error('no runtime file');
  return r;
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'gms-server-cmd-'));
  llm = await startStandInLlm();
  const { MADEINOZ_KNOWLEDGE_MCP_URL: _unset, ...base } = isolatedEnv(root, 'unused');
  env = { ...base, XDG_DATA_HOME: join(root, 'xdg-data'), GMS_GRAPHITI_CACHE: cacheRoot(process.env), OPENAI_API_KEY: 'stand-in', OPENAI_BASE_URL: llm.url, GMS_SERVER_MODEL: 'stand-in', GMS_SERVER_EMBEDDER_MODEL: 'stand-in-embedder', GMS_SERVER_GENERATION: newestGeneration().id };
});

afterAll(async () => {
  await runCli(env, ['server', 'stop']);
  await llm.close();
  rmSync(root, { recursive: true, force: true });
});

describe('server command with the stand-in LLM', () => {
  it('starts Graphiti + FalkorDB, and health (with no URL set) reaches it', async () => {
    const started = await runCli(env, ['server', 'start']);
    expect(started.stderr).toBe('');
    expect(started.code).toBe(0);
    expect(started.stdout).toMatch(/^started: http:\/\/127\.0\.0\.1:\d+\/mcp \(Graphiti /);
    const r = runtime();
    expect(r.state).toBe('ready');
    expect([r.pid, r.serverPid, r.dbPid].every(processAlive)).toBe(true);
    expect(r.dataDir).toBe(join(root, 'xdg-data', 'graphiti-memory-sync', 'falkordb'));
    const health = await runCli(env, ['health']);
    expect(health.code).toBe(0);
    expect(health.stdout).toContain(`url: ${r.url}`);
  });

  it('sync, with no URL set, sends a memory file to the started server and sees it processed', async () => {
    const dir = join(env.PAI_DIR as string, 'MEMORY', 'LEARNING', '2026-11');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'server-note.md'), '---\ntitle: Local server note\n---\nThe team runs Graphiti without Docker through graphiti-memory-sync server start.\n');
    const run = await runCli(env, ['sync', '--json', '--wait', '90000']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ added: 1, confirmed: 1, queued: 0, failed: 0, serverReachable: true });
  });

  it('status names versions, ports, data size and that get_status answers', async () => {
    const r = runtime();
    const status = await runCli(env, ['server', 'status']);
    expect(status.code).toBe(0);
    expect(status.stdout).toContain(`running: ${r.url}`);
    expect(status.stdout).toContain(`Graphiti ${newestGeneration().id} (MCP server ${newestGeneration().serverVersion}`);
    expect(status.stdout).toContain(`ports: MCP ${r.port}, FalkorDB ${r.dbPort}`);
    expect(status.stdout).toMatch(/data: .*falkordb \(\d/);
    expect(status.stdout).toContain('get_status: ok');
    const logs = await runCli(env, ['server', 'logs', '--lines', '1000']);
    expect(logs.code).toBe(0);
    expect(logs.stdout).toContain(`==> ${r.serverLog} <==`);
    expect(logs.stdout).toContain(`transport on 127.0.0.1:${r.port}`);
  });

  it('a second start reports the running server instead of starting another', async () => {
    const before = runtime();
    const again = await runCli(env, ['server', 'start']);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`already running: ${before.url}`);
    expect(runtime().pid).toBe(before.pid);
  });

  it('two starts at once give one server: one starts it, the other reports it', async () => {
    expect((await runCli(env, ['server', 'stop'])).code).toBe(0);
    const [a, b] = await Promise.all([runCli(env, ['server', 'start']), runCli(env, ['server', 'start'])]);
    expect([a.code, b.code]).toEqual([0, 0]);
    const outputs = [a.stdout, b.stdout].sort();
    const r = runtime();
    expect(outputs[0]).toContain(`already running: ${r.url}`);
    expect(outputs[1]).toContain(`started: ${r.url}`);
    expect(outputs[0]).toContain(`pid ${r.pid})`);
    expect(outputs[1]).toContain(`pid ${r.pid})`);
  });

  it('stop leaves no process behind, and the graph survives a stop and a start', async () => {
    const first = runtime();
    const created = await respCommand(first.dbPort as number, ['GRAPH.QUERY', 'main', "CREATE (:Marker {name: 'kept-across-restart'})"], 5000);
    expect(created).toContain('Nodes created: 1');
    const stopped = await runCli(env, ['server', 'stop']);
    expect(stopped.code).toBe(0);
    expect(stopped.stdout).toContain('stopped');
    expect([first.pid, first.serverPid, first.dbPid].filter(processAlive)).toEqual([]);
    expect(runtime().state).toBe('stopped');
    const down = await runCli(env, ['server', 'status']);
    expect(down.code).toBe(1);
    expect(down.stdout).toMatch(/^stopped/);

    const restarted = await runCli(env, ['server', 'start']);
    expect(restarted.code).toBe(0);
    const second = runtime();
    expect(second.pid).not.toBe(first.pid);
    // The last ports were free again, so the URL is the same.
    expect(second.url).toBe(first.url);
    const found = await respCommand(second.dbPort as number, ['GRAPH.QUERY', 'main', 'MATCH (m:Marker) RETURN m.name'], 5000);
    expect(found).toContain('kept-across-restart');
  });
});

describe('server upgrade', () => {
  it('moves a running server from an older pinned release to the newest and keeps the graph', async () => {
    const older = '0.29.3';
    const upRoot = mkdtempSync(join(tmpdir(), 'gms-server-upgrade-'));
    const { MADEINOZ_KNOWLEDGE_MCP_URL: _unset, ...base } = isolatedEnv(upRoot, 'unused');
    const upEnv: Record<string, string> = { ...base, XDG_DATA_HOME: join(upRoot, 'xdg-data'), GMS_GRAPHITI_CACHE: cacheRoot(process.env), OPENAI_API_KEY: 'stand-in', OPENAI_BASE_URL: llm.url };
    const stateDir = upEnv.MADEINOZ_KNOWLEDGE_STATE_DIR as string;
    try {
      expect((await runCli({ ...upEnv, GMS_SERVER_GENERATION: older }, ['server', 'start'])).code).toBe(0);
      const before = readRuntime(stateDir) as ServerRuntime;
      expect(before.generation).toBe(older);
      expect(await respCommand(before.dbPort as number, ['GRAPH.QUERY', 'main', "CREATE (:Marker {name: 'kept-across-upgrade'})"], 5000)).toContain('Nodes created: 1');
      const upgraded = await runCli(upEnv, ['server', 'upgrade']);
      expect(upgraded.code).toBe(0);
      expect(upgraded.stdout).toContain(`upgraded: Graphiti ${older} -> ${newestGeneration().id}`);
      const after = readRuntime(stateDir) as ServerRuntime;
      expect([after.state, after.generation]).toEqual(['ready', newestGeneration().id]);
      expect([before.pid, before.serverPid, before.dbPid].filter(processAlive)).toEqual([]);
      expect(await respCommand(after.dbPort as number, ['GRAPH.QUERY', 'main', 'MATCH (m:Marker) RETURN m.name'], 5000)).toContain('kept-across-upgrade');
      const again = await runCli(upEnv, ['server', 'upgrade']);
      expect(again.stdout).toContain('already on the newest pinned release');
    } finally {
      await runCli(upEnv, ['server', 'stop']);
      rmSync(upRoot, { recursive: true, force: true });
    }
  });
});
