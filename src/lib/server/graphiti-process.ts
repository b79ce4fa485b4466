/**
 * The Graphiti MCP server (`mcp_server/main.py` from the graphiti-core sdist) as a plain process
 * on 127.0.0.1. Settings go in through the environment: 0.28.x ignores --host/--port and would
 * bind 0.0.0.0:8000 from its config.yaml, so SERVER__HOST/SERVER__PORT are always set and the log
 * line naming the address is checked before the server is trusted. Ready = `/health` answers.
 *
 * With `socketPath` the server listens on that Unix socket instead of a TCP port (uvicorn's own
 * `uds` setting, switched on by the small launcher below: the server's code has no option for
 * it). The socket lives in a 0700 folder, so no other user can connect to it; our MCP front
 * (mcp-front.ts) is then the only way in, and it requires the user's token.
 */
import { request } from 'node:http';
import { join } from 'node:path';
import { PortTakenError, ServerSetupError } from './errors.js';
import type { GraphitiEnvironment } from './environment.js';
import { ManagedProcess } from './managed-process.js';
import { startOnPort } from './chosen-port.js';
import { waitFor } from './proc.js';
import { processEnv } from '../config/process-env.js';

export type GraphitiTransport = 'http' | 'sse';

export interface LlmSettings {
  /** OpenAI-compatible base URL ending in /v1. */
  baseUrl: string;
  apiKey: string;
  model?: string;
  embedderModel?: string;
}

export interface GraphitiServerOptions {
  transport: GraphitiTransport;
  groupId: string;
  falkordbUri: string;
  llm: LlmSettings;
  logDir: string;
  port?: number;
  /** FalkorDB's password: in the child's environment (FALKORDB_PASSWORD), never in its arguments. */
  falkordbPassword?: string;
  /** FalkorDB's Unix socket, when it listens there (then `falkordbUri` is not used to connect, and the password goes nowhere else: falkordb.ts PASSWORD_ON_OUR_SOCKET). */
  falkordbSocket?: string;
  /**
   * Listen on this Unix socket (in a 0700 folder) instead of 127.0.0.1:port; `port` is then the
   * port of the front that forwards to it (the Host header the server accepts).
   */
  socketPath?: string;
  /** Extra environment (SEMAPHORE_LIMIT and the like). */
  env?: Record<string, string>;
}

export interface GraphitiServer {
  port: number;
  /** What an MCP client connects to: .../mcp (Streamable HTTP) or .../sse (legacy SSE). */
  url: string;
  /** Set when the server listens on a Unix socket (then `url` is the front's address). */
  socketPath?: string;
  process: ManagedProcess;
  stop(): Promise<void>;
}

/**
 * Runs main.py with uvicorn told to bind the Unix socket in GMS_GRAPHITI_SOCKET (every pinned
 * generation's FastMCP starts uvicorn through `uvicorn.Config`, whose `uds` wins over host and
 * port), and FalkorDB reached on the Unix socket in GMS_FALKORDB_SOCKET: every pinned generation's
 * FalkorDriver builds `falkordb.asyncio.FalkorDB(host=, port=, username=, password=)` from
 * FALKORDB_URI, with no way to name a socket, while that class (falkordb 1.2.0 in every pinned
 * environment) takes `unix_socket_path`, which redis-py prefers over host and port. That class's
 * cluster probe (`Is_Cluster`) rebuilds a client from the pool's settings, which cannot carry a
 * socket path, so it is answered here: the redis we started is a single node. Passed with `-c`;
 * `main.py` stays in the command line for the process-identity check.
 */
export const UNIX_SOCKET_LAUNCHER = `
import os, runpy, sys
_socket = os.environ.pop('GMS_GRAPHITI_SOCKET', None)
if _socket:
    import uvicorn
    _init = uvicorn.Config.__init__
    def _unix_socket_only(self, *args, **kwargs):
        kwargs['uds'] = _socket
        _init(self, *args, **kwargs)
    uvicorn.Config.__init__ = _unix_socket_only
_db_socket = os.environ.pop('GMS_FALKORDB_SOCKET', None)
if _db_socket:
    import falkordb.asyncio
    _db_init = falkordb.asyncio.FalkorDB.__init__
    def _falkordb_unix_socket(self, *args, **kwargs):
        kwargs['unix_socket_path'] = _db_socket
        _db_init(self, *args, **kwargs)
    falkordb.asyncio.FalkorDB.__init__ = _falkordb_unix_socket
    import falkordb.asyncio.falkordb as _falkordb_module
    _falkordb_module.Is_Cluster = lambda conn: False
sys.argv = sys.argv[1:]
runpy.run_path(sys.argv[0], run_name='__main__')
`;

/** One GET over a Unix socket; the status, or undefined if nothing answers. */
export function getOverSocket(socketPath: string, path: string, host: string, timeoutMs = 2000): Promise<number | undefined> {
  return new Promise((resolve) => {
    const req = request({ socketPath, path, method: 'GET', headers: { host }, timeout: timeoutMs }, (res) => {
      res.resume();
      resolve(res.statusCode);
    });
    req.once('timeout', () => req.destroy());
    req.once('error', () => resolve(undefined));
    req.end();
  });
}

export function serverEnv(env: GraphitiEnvironment, options: GraphitiServerOptions, port: number): NodeJS.ProcessEnv {
  return {
    PATH: processEnv().PATH ?? '',
    HOME: processEnv().HOME ?? '',
    // The openai SDK reads OPENAI_BASE_URL; the server's config reads OPENAI_API_URL (0.28.x's LLM ignores it).
    OPENAI_API_KEY: options.llm.apiKey,
    OPENAI_API_URL: options.llm.baseUrl,
    OPENAI_BASE_URL: options.llm.baseUrl,
    ...(options.llm.model === undefined ? {} : { MODEL_NAME: options.llm.model, LLM__MODEL: options.llm.model }),
    ...(options.llm.embedderModel === undefined ? {} : { EMBEDDER_MODEL: options.llm.embedderModel, EMBEDDER__MODEL: options.llm.embedderModel }),
    GRAPHITI_TELEMETRY_ENABLED: 'false',
    DATABASE__PROVIDER: 'falkordb',
    // With the socket, the URI is a placeholder the launcher overrides: port 1, where only root
    // could listen, so even a launcher that failed would not hand the password to another user.
    FALKORDB_URI: options.falkordbSocket === undefined ? options.falkordbUri : 'redis://127.0.0.1:1',
    ...(options.falkordbSocket === undefined ? {} : { GMS_FALKORDB_SOCKET: options.falkordbSocket }),
    ...(options.falkordbPassword === undefined ? {} : { FALKORDB_PASSWORD: options.falkordbPassword }),
    ...(options.socketPath === undefined ? {} : { GMS_GRAPHITI_SOCKET: options.socketPath }),
    // One graph per group on FalkorDB, and the server reads through the last-written graph:
    // the database is the group.
    FALKORDB_DATABASE: options.groupId,
    GRAPHITI_GROUP_ID: options.groupId,
    SERVER__HOST: '127.0.0.1',
    SERVER__PORT: String(port),
    PYTHONUNBUFFERED: '1',
    ...options.env,
  };
}

/**
 * UVICORN_PORT_TAKEN: what uvicorn writes when another program holds the port it was told to bind
 * ("[Errno 98] error while attempting to bind on address ('127.0.0.1', P): address already in
 * use", asyncio's words for EADDRINUSE), just before the server exits. Every pinned generation
 * writes its "transport on 127.0.0.1:P" line before uvicorn binds, so that line proves nothing of the bind.
 */
const UVICORN_PORT_TAKEN = /error while attempting to bind on address .*address already in use/i;

/**
 * HEALTH_FROM_OUR_CHILD: on 127.0.0.1:port (no socket) a /health answer counts only once our child's
 * own access log shows it answering that request (uvicorn logs the asking connection's address,
 * `127.0.0.1:<our local port> - "GET /health`). A port taken between our choice and the bind
 * (CHOSEN_PORT_RETRIED) left our child to exit with UVICORN_PORT_TAKEN, and in between another
 * lane's Graphiti answered /health: the test harness handed out that server as ours (seen on
 * 539ca3f5 with a plain listener on the chosen port). A socket in our 0700 folder needs no such proof.
 */
function getHealth(port: number, timeoutMs = 2000): Promise<{ status?: number; from?: number }> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path: '/health', method: 'GET', agent: false, timeout: timeoutMs }, (res) => {
      const from = res.socket.localPort;
      res.resume();
      resolve({ ...(res.statusCode === undefined ? {} : { status: res.statusCode }), ...(from === undefined ? {} : { from }) });
    });
    req.once('timeout', () => req.destroy());
    req.once('error', () => resolve({}));
    req.end();
  });
}

export async function startGraphitiServer(env: GraphitiEnvironment, options: GraphitiServerOptions): Promise<GraphitiServer> {
  // CHOSEN_PORT_RETRIED: a port we chose and lost before the bind is chosen again; a given one is not.
  return startOnPort(options.port, (port) => startOn(env, options, port), (error) => error instanceof PortTakenError);
}

async function startOn(env: GraphitiEnvironment, options: GraphitiServerOptions, port: number): Promise<GraphitiServer> {
  const main = ['main.py', '--transport', options.transport, '--group-id', options.groupId];
  const launcher = options.socketPath !== undefined || options.falkordbSocket !== undefined;
  const proc = ManagedProcess.start('graphiti', env.python, launcher ? ['-c', UNIX_SOCKET_LAUNCHER, ...main] : main, {
    cwd: env.serverDir,
    env: serverEnv(env, options, port),
    logFile: join(options.logDir, `graphiti-${env.generation.id}-${port}.log`),
  });
  const fail = (why: string) => new ServerSetupError(`Graphiti server ${env.generation.id} ${why}`, proc.logFile);
  const exited = () => {
    const last = proc.recentOutput.trim().split('\n').pop() ?? '';
    if (options.socketPath === undefined && UVICORN_PORT_TAKEN.test(proc.recentOutput)) return new PortTakenError(port, `Graphiti server ${env.generation.id} did not start: ${last}`, proc.logFile);
    return fail(`exited during start-up: ${last}`);
  };
  try {
    const bound = await waitFor(
      () => {
        if (!proc.running) throw exited();
        return /transport on (\S+:\d+)/.exec(proc.recentOutput)?.[1];
      },
      { timeoutMs: 60_000, onTimeout: () => fail('did not say where it listens within 60 s') },
    );
    if (bound !== `127.0.0.1:${port}`) throw fail(`listens on ${bound}, not on 127.0.0.1:${port}`);
    const socketPath = options.socketPath;
    const where = socketPath ?? `127.0.0.1:${port}`;
    const answered: number[] = [];
    await waitFor(
      async () => {
        if (!proc.running) throw exited();
        if (socketPath !== undefined) {
          // Only we can create files in the socket's 0700 folder (emptied before the start):
          // what answers there is our child.
          return (await getOverSocket(socketPath, '/health', `127.0.0.1:${port}`)) === 200 ? true : undefined;
        }
        // HEALTH_FROM_OUR_CHILD: an answer is ours once our child's log shows it.
        if (answered.some((from) => proc.recentOutput.includes(`127.0.0.1:${from} - "GET /health`))) return true;
        const health = await getHealth(port);
        if (health.status === 200 && health.from !== undefined) answered.push(health.from);
        return undefined;
      },
      { timeoutMs: 30_000, intervalMs: 100, onTimeout: () => fail(`did not answer /health on ${where} within 30 s${answered.length > 0 ? ' (something else answered there)' : ''}`) },
    );
  } catch (error) {
    await proc.stop();
    throw error;
  }
  const path = options.transport === 'http' ? '/mcp' : '/sse';
  return { port, url: `http://127.0.0.1:${port}${path}`, ...(options.socketPath === undefined ? {} : { socketPath: options.socketPath }), process: proc, stop: () => proc.stop() };
}
