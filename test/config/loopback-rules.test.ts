/**
 * The loopback checks, each by its own named rule (util/loopback.ts LOOPBACK_HOST, config/server-runtime.ts
 * LOCAL_FRONT_URL): what "this machine" means for a warning is not what "our local server's endpoint" means
 * for trusting facts about it (its release, its start, its FalkorDB read directly).
 *
 * On 612d67d three checks of their own stood beside LOOPBACK_HOST, each a list of spellings:
 * - the local server's release and start (server-runtime.ts `liveRuntimeAt`) and its FalkorDB
 *   (falkordb-episodes.ts `sameEndpoint`) were taken for a URL spelled `localhost` or `[::1]`,
 *   which may resolve to ::1, where our front does not listen and anyone may: another listener's
 *   answers were then judged by our server's rules and listed from our FalkorDB;
 * - the warning for a URL naming the local server's port another way (config.ts) knew 127.0.0.1,
 *   localhost and [::1] only: `127.0.0.2` got the warning for another server.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/lib/config/config.js';
import { liveServerGeneration, liveServerStartedAt, writeRuntime, type ServerRuntime } from '../../src/lib/config/server-runtime.js';
import { localFalkorDbFor } from '../../src/lib/graphiti/falkordb-episodes.js';
import { startFakeSupervisor } from '../support/fake-supervisor.js';
import { useTempDir } from '../helpers/use-temp-dir.js';

let tmp = '';
useTempDir('gms-loopback-', (d) => {
  tmp = d;
});
const dir = () => tmp;

async function withLiveServer(fn: (stateDir: string, env: Record<string, string>) => Promise<void>): Promise<void> {
  const stateDir = join(dir(), 'state');
  const env = { HOME: dir(), MADEINOZ_KNOWLEDGE_STATE_DIR: stateDir };
  const { child: supervisor, identity } = await startFakeSupervisor();
  // FalkorDB's stand-in: a process whose command line reads `redis-server` (COMMAND_MARKS).
  const db = await startFakeSupervisor('redis-server').catch((error: unknown) => {
    supervisor.kill('SIGKILL');
    throw error;
  });
  try {
    const secretFile = join(dir(), 'secret', 'falkordb.secret');
    mkdirSync(join(dir(), 'secret'), { recursive: true, mode: 0o700 });
    writeFileSync(secretFile, 'db-password\n', { mode: 0o600 });
    const runtime: ServerRuntime = { state: 'ready', pid: identity.pid, generation: '0.31.1', serverVersion: '1.1.0', mcp: '2.2.0', falkordbBin: '1.4.1', url: 'http://127.0.0.1:43210/mcp', port: 43210, dbPort: 43211, falkordb: { host: '127.0.0.1', port: 43211, secretFile }, dataDir: dir(), logDir: dir(), startedAt: new Date().toISOString(), identities: { supervisor: identity, db: db.identity } };
    writeRuntime(stateDir, runtime);
    await fn(stateDir, env);
  } finally {
    supervisor.kill('SIGKILL');
    db.child.kill('SIGKILL');
  }
}

describe('LOCAL_FRONT_URL: facts about the local server only for its front as it listens (127.0.0.1, its port)', () => {
  it('its release, start and FalkorDB for http://127.0.0.1:<port>; none for localhost or [::1] (they may reach another listener)', async () => {
    await withLiveServer(async (stateDir) => {
      const front = 'http://127.0.0.1:43210/mcp';
      expect(liveServerGeneration(stateDir, front)).toBe('0.31.1');
      expect(liveServerStartedAt(stateDir, front)).toBeDefined();
      expect(localFalkorDbFor(stateDir, front)).toEqual({ host: '127.0.0.1', port: 43211, password: 'db-password' });
      for (const other of ['http://localhost:43210/mcp', 'http://[::1]:43210/mcp', 'http://127.0.0.2:43210/mcp', 'http://127.0.0.1:43299/mcp']) {
        expect([other, liveServerGeneration(stateDir, other)]).toEqual([other, undefined]);
        expect([other, liveServerStartedAt(stateDir, other)]).toEqual([other, undefined]);
        expect([other, localFalkorDbFor(stateDir, other)]).toEqual([other, undefined]);
      }
    });
  });
});

describe('LOOPBACK_HOST: a URL setting naming the local server\'s port on this machine another way is told so', () => {
  it('localhost, [::1] and any 127.x.y.z at its port: "another way"; another port: another server', async () => {
    await withLiveServer(async (_stateDir, env) => {
      for (const url of ['http://localhost:43210/mcp', 'http://[::1]:43210/mcp', 'http://127.0.0.2:43210/mcp']) {
        const config = await loadConfig({ env: { ...env, MADEINOZ_KNOWLEDGE_MCP_URL: url }, readEnvFile: false });
        expect(config.warnings).toEqual([`MADEINOZ_KNOWLEDGE_MCP_URL=${url} names the local server's port another way: its token goes to http://127.0.0.1:43210/mcp only (localhost and [::1] may reach another listener). Set http://127.0.0.1:43210/mcp, or unset it.`]);
      }
      const other = await loadConfig({ env: { ...env, MADEINOZ_KNOWLEDGE_MCP_URL: 'http://127.0.0.2:8000/mcp' }, readEnvFile: false });
      expect(other.warnings).toEqual(['MADEINOZ_KNOWLEDGE_MCP_URL=http://127.0.0.2:8000/mcp is used, not the local server running at http://127.0.0.1:43210/mcp (server start); unset it to use the local server.']);
    });
  });
});
