/**
 * The Graphiti MCP server (`mcp_server/main.py` from the graphiti-core sdist) as a plain process
 * on 127.0.0.1. Settings go in through the environment: 0.28.x ignores --host/--port and would
 * bind 0.0.0.0:8000 from its config.yaml, so SERVER__HOST/SERVER__PORT are always set and the log
 * line naming the address is checked before the server is trusted. Ready = `/health` answers.
 */
import { join } from 'node:path';
import { ServerSetupError } from './errors.js';
import type { GraphitiEnvironment } from './environment.js';
import { ManagedProcess } from './managed-process.js';
import { freePort, waitFor } from './proc.js';

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
  /** Extra environment (SEMAPHORE_LIMIT and the like). */
  env?: Record<string, string>;
}

export interface GraphitiServer {
  port: number;
  /** What an MCP client connects to: .../mcp (Streamable HTTP) or .../sse (legacy SSE). */
  url: string;
  process: ManagedProcess;
  stop(): Promise<void>;
}

export function serverEnv(env: GraphitiEnvironment, options: GraphitiServerOptions, port: number): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    // The openai SDK reads OPENAI_BASE_URL; the server's config reads OPENAI_API_URL (0.28.x's LLM ignores it).
    OPENAI_API_KEY: options.llm.apiKey,
    OPENAI_API_URL: options.llm.baseUrl,
    OPENAI_BASE_URL: options.llm.baseUrl,
    ...(options.llm.model === undefined ? {} : { MODEL_NAME: options.llm.model, LLM__MODEL: options.llm.model }),
    ...(options.llm.embedderModel === undefined ? {} : { EMBEDDER_MODEL: options.llm.embedderModel, EMBEDDER__MODEL: options.llm.embedderModel }),
    GRAPHITI_TELEMETRY_ENABLED: 'false',
    DATABASE__PROVIDER: 'falkordb',
    FALKORDB_URI: options.falkordbUri,
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

export async function startGraphitiServer(env: GraphitiEnvironment, options: GraphitiServerOptions): Promise<GraphitiServer> {
  const port = options.port ?? (await freePort());
  const proc = ManagedProcess.start('graphiti', env.python, ['main.py', '--transport', options.transport, '--group-id', options.groupId], {
    cwd: env.serverDir,
    env: serverEnv(env, options, port),
    logFile: join(options.logDir, `graphiti-${env.generation.id}-${port}.log`),
  });
  const fail = (why: string) => new ServerSetupError(`Graphiti server ${env.generation.id} ${why}`, proc.logFile);
  try {
    const bound = await waitFor(
      () => {
        if (!proc.running) throw fail(`exited during start-up: ${proc.recentOutput.trim().split('\n').pop() ?? ''}`);
        return /transport on (\S+:\d+)/.exec(proc.recentOutput)?.[1];
      },
      { timeoutMs: 60_000, onTimeout: () => fail('did not say where it listens within 60 s') },
    );
    if (bound !== `127.0.0.1:${port}`) throw fail(`listens on ${bound}, not on 127.0.0.1:${port}`);
    await waitFor(
      async () => {
        if (!proc.running) throw fail(`exited during start-up: ${proc.recentOutput.trim().split('\n').pop() ?? ''}`);
        const res = await fetch(`http://127.0.0.1:${port}/health`).catch(() => undefined);
        return res?.ok === true ? true : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 100, onTimeout: () => fail(`did not answer /health on 127.0.0.1:${port} within 30 s`) },
    );
  } catch (error) {
    await proc.stop();
    throw error;
  }
  const path = options.transport === 'http' ? '/mcp' : '/sse';
  return { port, url: `http://127.0.0.1:${port}${path}`, process: proc, stop: () => proc.stop() };
}
