/**
 * The one start-up of a local Graphiti: the generation's environment (built once), FalkorDB, and
 * the MCP server on top, all on 127.0.0.1; if the server cannot start, FalkorDB is stopped again.
 * `server run` (supervisor.ts, what `server start` runs detached) and the real-server tests both
 * boot through here, so the tests prove the path users run. The server can be restarted on the
 * same port and database (its in-memory queue is lost, the graph is kept), and stop leaves no
 * process behind.
 *
 * FalkorDB always requires a password (`falkordbPassword`, else one made for this instance),
 * handed to Graphiti in its environment. With `endpointLock` (what `server run` uses) Graphiti
 * listens on a Unix socket in a 0700 folder and the MCP endpoint is our front on 127.0.0.1,
 * which requires the token (mcp-front.ts); without it (the real-server tests) Graphiti listens
 * on 127.0.0.1 directly.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { ensureEnvironment, type GraphitiEnvironment } from './environment.js';
import { startFalkorDb, type FalkorDb } from './falkordb.js';
import { startGraphitiServer, type GraphitiServer, type GraphitiServerOptions, type GraphitiTransport, type LlmSettings } from './graphiti-process.js';
import { startMcpFront, type McpFront } from './mcp-front.js';
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
  /** `port` is only preferred (the last one used): another free one if it is taken (mcp-front.ts PORT_TAKEN_SINCE). */
  portPreferred?: boolean;
  dbPort?: number;
  progress?: (line: string) => void;
  serverEnv?: Record<string, string>;
  /** FalkorDB's password; default a random one for this instance. */
  falkordbPassword?: string;
  /**
   * Graphiti on `socketPath` (in a 0700 folder), reached only through the front requiring `token`
   * on 127.0.0.1:port; FalkorDB on `dbSocketPath` (same folder), and on 127.0.0.1:dbPort too when `dbPort` is set.
   */
  endpointLock?: { socketPath: string; token: string; tokenFile?: string; dbSocketPath?: string };
}

export interface LocalGraphiti {
  environment: GraphitiEnvironment;
  falkordb: FalkorDb;
  server: GraphitiServer;
  /** The token-checking front, when the endpoint is locked. */
  front?: McpFront;
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
  const password = options.falkordbPassword ?? randomBytes(24).toString('hex');
  const lock = options.endpointLock;
  // With a TCP port too, our own processes still use the socket (falkordb.ts PASSWORD_ON_OUR_SOCKET).
  const dbSocket = lock?.dbSocketPath;
  const falkordb = await startFalkorDb(environment, {
    dataDir: options.dataDir,
    password,
    ...(options.persist === undefined ? {} : { persist: options.persist }),
    ...(options.dbPort === undefined ? {} : { port: options.dbPort }),
    ...(dbSocket === undefined ? {} : { socketPath: dbSocket }),
  });
  let front: McpFront | undefined;
  let server: GraphitiServer;
  let serverOptions: GraphitiServerOptions;
  try {
    if (lock !== undefined) {
      // The front first: its port is the one Graphiti must accept in the Host header.
      rmSync(lock.socketPath, { force: true });
      front = await startMcpFront({ port: options.port ?? 0, ifTaken: options.portPreferred === true ? 'any' : 'fail', socketPath: lock.socketPath, token: lock.token, ...(lock.tokenFile === undefined ? {} : { tokenFile: lock.tokenFile }) });
    }
    const port = front?.port ?? options.port;
    serverOptions = {
      transport: options.transport,
      groupId: options.groupId,
      falkordbUri: falkordb.uri,
      falkordbPassword: password,
      ...(falkordb.socketPath === undefined ? {} : { falkordbSocket: falkordb.socketPath }),
      llm: options.llm,
      logDir,
      ...(port === undefined ? {} : { port }),
      ...(lock === undefined ? {} : { socketPath: lock.socketPath }),
      ...(options.serverEnv === undefined ? {} : { env: options.serverEnv }),
    };
    server = await startGraphitiServer(environment, serverOptions);
  } catch (error) {
    await front?.close();
    await falkordb.stop();
    throw error;
  }
  const local: LocalGraphiti = {
    environment,
    falkordb,
    server,
    ...(front === undefined ? {} : { front }),
    url: server.url,
    async restartServer() {
      await local.server.stop();
      local.server = await startGraphitiServer(environment, { ...serverOptions, port: local.server.port });
    },
    async stop() {
      await front?.close();
      await local.server.stop();
      await falkordb.stop();
    },
  };
  return local;
}
