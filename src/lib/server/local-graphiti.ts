/**
 * The one start-up of a local Graphiti: the generation's environment (built once), FalkorDB, and
 * the MCP server on top, all on 127.0.0.1; if the server cannot start, FalkorDB is stopped again.
 * `server run` (supervisor.ts, what `server start` runs detached) and the real-server tests both
 * boot through here, so the tests prove the path users run. The server can be restarted on the
 * same port and database (its in-memory queue is lost, the graph is kept), and stop leaves no
 * process behind.
 */
import { mkdirSync } from 'node:fs';
import { ensureEnvironment, type GraphitiEnvironment } from './environment.js';
import { startFalkorDb, type FalkorDb } from './falkordb.js';
import { startGraphitiServer, type GraphitiServer, type GraphitiServerOptions, type GraphitiTransport, type LlmSettings } from './graphiti-process.js';
import { generation, type GraphitiGeneration } from './pins.js';

export interface LocalGraphitiOptions {
  /** A pinned generation, or its id. */
  generation: GraphitiGeneration | string;
  transport: GraphitiTransport;
  groupId: string;
  llm: LlmSettings;
  /** FalkorDB's files (and its log). */
  dataDir: string;
  /** The MCP server's log; default dataDir. */
  logDir?: string;
  /** Keep the graph on disk across restarts (`server start`); tests use a throw-away one. */
  persist?: boolean;
  /** Ports on 127.0.0.1; default free ones. */
  port?: number;
  dbPort?: number;
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
  const gen = typeof options.generation === 'string' ? generation(options.generation) : options.generation;
  const logDir = options.logDir ?? options.dataDir;
  const environment = await ensureEnvironment(gen, { ...(options.progress === undefined ? {} : { progress: options.progress }) });
  mkdirSync(options.dataDir, { recursive: true });
  mkdirSync(logDir, { recursive: true });
  const falkordb = await startFalkorDb(environment, { dataDir: options.dataDir, ...(options.persist === undefined ? {} : { persist: options.persist }), ...(options.dbPort === undefined ? {} : { port: options.dbPort }) });
  const serverOptions: GraphitiServerOptions = {
    transport: options.transport,
    groupId: options.groupId,
    falkordbUri: falkordb.uri,
    llm: options.llm,
    logDir,
    ...(options.port === undefined ? {} : { port: options.port }),
    ...(options.serverEnv === undefined ? {} : { env: options.serverEnv }),
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
