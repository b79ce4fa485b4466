/**
 * runtime.json as `server start` writes it, for a real Graphiti server a test or bench started
 * itself: the MCP URL, FalkorDB's address and password file (0600), and the identities of the
 * supervisor (a stand-in, test/support/fake-supervisor.ts) and of FalkorDB. With it the tool takes
 * that server for the local one (direct confirmation: graphiti/falkordb-episodes.ts).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { serverStateDir, writeRuntime } from '../../src/lib/config/server-runtime.js';
import { identifyProcess } from '../../src/lib/util/process-identity.js';
import type { FakeSupervisor } from './fake-supervisor.js';
import type { RealGraphiti } from './real-graphiti.js';

export function writeLocalRuntime(stateDir: string, real: RealGraphiti, supervisor: FakeSupervisor, options: { url?: string; dbPort?: number } = {}): void {
  const secretFile = join(serverStateDir(stateDir), 'falkordb.secret');
  const port = options.dbPort ?? real.graphiti.falkordb.port;
  writeRuntime(stateDir, {
    state: 'ready',
    pid: supervisor.identity.pid,
    generation: real.generation,
    serverVersion: 'test',
    mcp: 'test',
    falkordbBin: 'test',
    url: options.url ?? real.url,
    dbPort: port,
    falkordb: { host: '127.0.0.1', port, secretFile },
    identities: { supervisor: supervisor.identity, ...(identifyProcess(real.graphiti.falkordb.process.pid) === undefined ? {} : { db: identifyProcess(real.graphiti.falkordb.process.pid) }) },
    dataDir: real.workDir,
    logDir: real.workDir,
    startedAt: new Date().toISOString(),
  });
  writeFileSync(secretFile, `${real.graphiti.falkordb.password}\n`, { mode: 0o600 });
}
