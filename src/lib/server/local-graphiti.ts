/**
 * A whole local Graphiti: the generation's environment (built once), FalkorDB, and the MCP
 * server on top, all on 127.0.0.1. The server can be restarted on the same port and database
 * (its in-memory queue is lost, the graph is kept), and stop leaves no process behind.
 * FalkorDB requires a password made for this instance (`falkordb.password`), handed to Graphiti
 * in its environment.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { ensureEnvironment, type GraphitiEnvironment } from './environment.js';
import { startFalkorDb, type FalkorDb } from './falkordb.js';
import { startGraphitiServer, type GraphitiServer, type GraphitiServerOptions, type GraphitiTransport, type LlmSettings } from './graphiti-process.js';
import { generation } from './pins.js';

export interface LocalGraphitiOptions {
  generation: string;
  transport: GraphitiTransport;
  groupId: string;
  llm: LlmSettings;
  /** Logs and FalkorDB files. */
  workDir: string;
  persist?: boolean;
  progress?: (line: string) => void;
  serverEnv?: Record<string, string>;
}

export interface LocalGraphiti {
  environment: GraphitiEnvironment;
  falkordb: FalkorDb;
  server: GraphitiServer;
  url: string;
  /** Stops and starts the MCP server only (same port, same graph; the queue is lost). */
  restartServer(): Promise<void>;
  stop(): Promise<void>;
}

export async function startLocalGraphiti(options: LocalGraphitiOptions): Promise<LocalGraphiti> {
  const environment = await ensureEnvironment(generation(options.generation), { progress: options.progress });
  mkdirSync(options.workDir, { recursive: true });
  const falkordb = await startFalkorDb(environment, { dataDir: options.workDir, password: randomBytes(24).toString('hex'), persist: options.persist });
  const serverOptions: GraphitiServerOptions = {
    transport: options.transport,
    groupId: options.groupId,
    falkordbUri: falkordb.uri,
    falkordbPassword: falkordb.password,
    llm: options.llm,
    logDir: options.workDir,
    env: options.serverEnv,
  };
  let server: GraphitiServer;
  try {
    server = await startGraphitiServer(environment, serverOptions);
  } catch (error) {
    await falkordb.stop();
    throw error;
  }
  const local: LocalGraphiti = {
    environment,
    falkordb,
    server,
    url: server.url,
    async restartServer() {
      await local.server.stop();
      local.server = await startGraphitiServer(environment, { ...serverOptions, port: local.server.port });
    },
    async stop() {
      await local.server.stop();
      await falkordb.stop();
    },
  };
  return local;
}
