/**
 * The example's placeholders do not override the local server (issue 30): a newcomer who
 * uncommented `MADEINOZ_KNOWLEDGE_MCP_URL=http://localhost:8000/mcp` and `MADEINOZ_KNOWLEDGE_DB=neo4j`
 * from config/.env.example and then ran `server start` gets the started server, on FalkorDB.
 */
import type { ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/lib/config/config.js';
import { writeRuntime } from '../../src/lib/config/server-runtime.js';
import { startFakeSupervisor } from '../support/fake-supervisor.js';
import { useTempDir } from '../helpers/use-temp-dir.js';
import { isolatedEnv } from '../support/isolated-env.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

let dir: string;
useTempDir('gms-placeholder-', (d) => (dir = d));
let supervisor: ChildProcess | undefined;

afterEach(() => {
  if (supervisor?.pid !== undefined && supervisor.exitCode === null) supervisor.kill('SIGKILL');
  supervisor = undefined;
});

/** A process whose command line reads like `server run` (what liveServerUrl checks), and its runtime file. */
async function localServerUp(stateDir: string, url: string): Promise<void> {
  const fake = await startFakeSupervisor();
  supervisor = fake.child;
  writeRuntime(stateDir, { state: 'ready', pid: fake.identity.pid, identities: { supervisor: fake.identity }, url, generation: '0.31.2', serverVersion: '1.1.2', mcp: 'x', falkordbBin: 'x', dataDir: join(dir, 'data'), logDir: join(dir, 'logs'), startedAt: '2026-01-01T00:00:00Z' });
}

describe('placeholders from config/.env.example', () => {
  it('the local server wins over the uncommented placeholder URL and database, with a warning', async () => {
    const { MADEINOZ_KNOWLEDGE_MCP_URL: _unset, ...env } = isolatedEnv(dir, 'unused');
    writeFileSync(env.MADEINOZ_KNOWLEDGE_ENV_FILE as string, 'MADEINOZ_KNOWLEDGE_MCP_URL=http://localhost:8000/mcp\nMADEINOZ_KNOWLEDGE_DB=neo4j\n');
    await localServerUp(env.MADEINOZ_KNOWLEDGE_STATE_DIR as string, 'http://127.0.0.1:41234/mcp');
    const config = await loadConfig({ env });
    expect(config.mcpUrl).toBe('http://127.0.0.1:41234/mcp');
    expect(config.mcpUrlSource).toBe('local-server');
    expect(config.db).toBe('falkordb');
    expect(config.warnings.join('\n')).toContain("MADEINOZ_KNOWLEDGE_MCP_URL=http://localhost:8000/mcp is the example's placeholder and the local server (\"server start\") is running: using it (http://127.0.0.1:41234/mcp) on FalkorDB");
  });

  it('a URL the user chose still wins over the local server', async () => {
    const { MADEINOZ_KNOWLEDGE_MCP_URL: _unset, ...env } = isolatedEnv(dir, 'unused');
    writeFileSync(env.MADEINOZ_KNOWLEDGE_ENV_FILE as string, 'MADEINOZ_KNOWLEDGE_MCP_URL=http://localhost:9000/mcp\n');
    await localServerUp(env.MADEINOZ_KNOWLEDGE_STATE_DIR as string, 'http://127.0.0.1:41234/mcp');
    const config = await loadConfig({ env });
    expect(config.mcpUrl).toBe('http://localhost:9000/mcp');
    expect(config.mcpUrlSource).toBe('setting');
    // Said, not silent: the chosen URL hides a running local server.
    expect(config.warnings).toEqual(['MADEINOZ_KNOWLEDGE_MCP_URL=http://localhost:9000/mcp is used, not the local server running at http://127.0.0.1:41234/mcp (server start); unset it to use the local server.']);
  });

  it('with no local server running, the placeholder is the URL used', async () => {
    const { MADEINOZ_KNOWLEDGE_MCP_URL: _unset, ...env } = isolatedEnv(dir, 'unused');
    writeFileSync(env.MADEINOZ_KNOWLEDGE_ENV_FILE as string, 'MADEINOZ_KNOWLEDGE_MCP_URL=http://localhost:8000/mcp\n');
    const config = await loadConfig({ env });
    expect(config).toMatchObject({ mcpUrl: 'http://localhost:8000/mcp', mcpUrlSource: 'setting', db: 'neo4j' });
  });
});
