/**
 * The real Graphiti MCP server for end-to-end tests: one generation on FalkorDB with the stand-in
 * LLM (ours, test-only), plus what the tests need around it: the product's CLI run as a child
 * process in an isolated home, FalkorDB queried directly through the redis client in the server's
 * venv, and waiting on conditions with a deadline.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { GraphitiTransport } from '../../src/lib/server/graphiti-process.js';
import { startLocalGraphiti, type LocalGraphiti } from '../../src/lib/server/local-graphiti.js';
import { ensureEnvironment } from '../../src/lib/server/environment.js';
import { startGraphitiServer } from '../../src/lib/server/graphiti-process.js';
import { generation as pinnedGeneration } from '../../src/lib/server/pins.js';
import { waitFor } from '../../src/lib/server/proc.js';
import { runCommand } from '../../src/lib/server/proc.js';
import { startStandInLlm, type StandInLlm } from './standin-llm/server.js';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

export interface RealGraphiti {
  generation: string;
  groupId: string;
  llm: StandInLlm;
  graphiti: LocalGraphiti;
  url: string;
  workDir: string;
  /** Rows of a Cypher query on the group's FalkorDB graph, each a list of cell values. */
  query(cypher: string, graph?: string): Promise<unknown[][]>;
  /** Episode names in the graph, sorted. */
  episodeNames(graph?: string): Promise<string[]>;
  /** The server's log so far. */
  log(): string;
  /**
   * Another generation takes over the same address: the MCP server is stopped and `generation`'s
   * started on the same port, with the same FalkorDB (the same graph) and the same group (a docker
   * tag rolled back or moved forward, `GMS_SERVER_GENERATION`).
   */
  swapGeneration(generation: string): Promise<void>;
  /** The MCP server goes down (FalkorDB and the graph stay): a user's server stopped, or not reachable. */
  stopServer(): Promise<void>;
  /** The same generation comes back on the same port, with the same graph (its queue was lost). */
  startServer(): Promise<void>;
  stop(): Promise<void>;
}

export async function startRealGraphiti(options: { generation: string; transport: GraphitiTransport; groupId: string; llmDelayMs?: number }): Promise<RealGraphiti> {
  const workDir = mkdtempSync(join(tmpdir(), `gms-real-${options.generation}-`));
  const llm = await startStandInLlm({ delayMs: options.llmDelayMs ?? 0 });
  let graphiti: LocalGraphiti;
  try {
    graphiti = await startLocalGraphiti({
      generation: options.generation,
      transport: options.transport,
      groupId: options.groupId,
      llm: { baseUrl: llm.url, apiKey: 'stand-in' },
      dataDir: workDir,
      progress: (line) => process.stderr.write(`${line}\n`),
    });
  } catch (error) {
    await llm.close();
    throw error;
  }
  const query = async (cypher: string, graph = options.groupId): Promise<unknown[][]> => {
    // FalkorDB requires its password: given in the environment, never in the arguments.
    const script = 'import json, os, sys, redis\nr = redis.Redis(host="127.0.0.1", port=int(sys.argv[1]), password=os.environ["FALKORDB_PASSWORD"])\nres = r.execute_command("GRAPH.QUERY", sys.argv[2], sys.argv[3])\nrows = res[1] if len(res) > 2 else []\nprint(json.dumps(rows, default=lambda b: b.decode() if isinstance(b, bytes) else str(b)))';
    const r = await runCommand(graphiti.environment.python, ['-c', script, String(graphiti.falkordb.port), graph, cypher], { timeoutMs: 30_000, env: { ...process.env, FALKORDB_PASSWORD: graphiti.falkordb.password } });
    if (r.code !== 0) throw new Error(`GRAPH.QUERY failed: ${r.stderr.trim().split('\n').pop()}`);
    return JSON.parse(r.stdout) as unknown[][];
  };
  const port = graphiti.server.port;
  const startServer = async (generation: string) => {
    const environment = await ensureEnvironment(pinnedGeneration(generation), { progress: (line) => process.stderr.write(`${line}\n`) });
    graphiti.server = await startGraphitiServer(environment, { transport: options.transport, groupId: options.groupId, falkordbUri: graphiti.falkordb.uri, falkordbPassword: graphiti.falkordb.password, llm: { baseUrl: llm.url, apiKey: 'stand-in' }, logDir: workDir, port });
    real.generation = generation;
  };
  const real: RealGraphiti = {
    generation: options.generation,
    groupId: options.groupId,
    llm,
    graphiti,
    get url() {
      return graphiti.server.url;
    },
    workDir,
    query,
    episodeNames: async (graph) => (await query('MATCH (e:Episodic) RETURN e.name', graph)).map((row) => String(row[0])).sort(),
    log: () => graphiti.server.process.recentOutput,
    async swapGeneration(generation) {
      await real.stopServer();
      await startServer(generation);
    },
    async stopServer() {
      await graphiti.server.stop();
    },
    startServer: () => startServer(real.generation),
    async stop() {
      await graphiti.stop();
      await llm.close();
      rmSync(workDir, { recursive: true, force: true });
    },
  };
  return real;
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The product's CLI in the given isolated environment: from source through tsx (the tests: no build
 * needed), or `built`, `node dist/cli.js` as users run it (the benches: tsx compiles the sources at
 * every start, about a second and a half of a run against the real server, which users never pay).
 * `onSpawn` hands over the child (to kill it mid-run); the promise still settles when it ends.
 */
export function runCli(env: Record<string, string>, args: readonly string[], options: { cwd?: string; timeoutMs?: number; built?: boolean; onSpawn?: (child: ChildProcess) => void } = {}): Promise<CliRun> {
  return new Promise((resolvePromise, reject) => {
    const entry = options.built === true ? [join(REPO, 'dist', 'cli.js')] : ['--import', TSX, join(REPO, 'src', 'cli.ts')];
    const child = spawn(process.execPath, [...entry, ...args], { env, cwd: options.cwd ?? env.HOME, stdio: ['ignore', 'pipe', 'pipe'] });
    options.onSpawn?.(child); // a test that kills the run at a moment of its choosing
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 180_000);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ code, stdout, stderr });
    });
  });
}

/** Polls until `check` returns true, failing with `what` and the last value seen at the deadline. */
export async function eventually(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 60_000): Promise<void> {
  await waitFor(async () => ((await check()) ? true : undefined), { timeoutMs, intervalMs: 250, onTimeout: () => new Error(`timed out after ${timeoutMs} ms waiting for: ${what}`) });
}
