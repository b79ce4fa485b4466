/**
 * What PROOF_ON_THE_CONNECTION (config/server-runtime.ts provenConnection) costs our clients of the
 * local server (`server start`): every request to its front goes on a connection of its own that
 * first proved itself there (a new TCP connection and one proof round trip per request), where the
 * client before it (c1cc943^) reused a proof for FRONT_PROOF_TTL_MS and sent on the shared
 * kept-alive connections (util/keep-alive.ts IDLE_REUSE). The baseline is that previous client,
 * rebuilt here (`previousClient`: localServerAuthorization's cached proof, no connection given),
 * measured in the same run against the same front, in turn with the current one.
 *
 * PROVEN_REUSE (a proven connection kept for the next request of a burst while it is open and was
 * freed under IDLE_REUSE_MS ago) is the current client; the client just before it (`perRequestClient`:
 * a new connection and a proof for every request, ended after it) is rebuilt here too and run in
 * turn, so the rows against it say what the reuse saves, measured in the same run.
 *
 * The server side is the real front before the Graphiti test server (processing at once), in a
 * process of its own (bench/local-front-main.ts), as the supervisor runs it: so the figures are the
 * local floor, with Graphiti's own work (an LLM call per note) left out; they say what the guarantee
 * adds, not how long a real sync takes.
 */
import { spawn } from 'node:child_process';
import { subscribe } from 'node:diagnostics_channel';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { loadConfig, type Config } from '../src/lib/config/config.js';
import { liveServer, localServerAuthorization, mcpTokenPath, provenConnection, writeRuntime } from '../src/lib/config/server-runtime.js';
import { GraphitiClient } from '../src/lib/graphiti/graphiti.js';
import { McpClient, type McpClientOptions } from '../src/lib/mcp/client.js';
import { runSync } from '../src/lib/sync/sync.js';
import { identifyProcess } from '../src/lib/util/process-identity.js';
import { isolatedEnv } from '../test/support/isolated-env.js';
import { median, ROOT, type Row } from './util.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 300);
/** Requests after a pause past the proof's 1 s and IDLE_REUSE's 1 s (real waiting: each pair costs 2.2 s). */
const PAUSED_RUNS = Number(process.env.BENCH_FRONT_PAUSED ?? 10);
const SYNC_PAIRS = Number(process.env.BENCH_FRONT_SYNC_PAIRS ?? 7);
const NOTES = 200;

type Arm = 'current' | 'previous' | 'perRequest';
const ARMS: readonly Arm[] = ['previous', 'perRequest', 'current'];

/** TCP connections this process has opened (node:net's own count of client sockets). */
let connectionsOpened = 0;
subscribe('net.client.socket', () => connectionsOpened++);

/** CPU ms a process has used so far (Linux: /proc/<pid>/stat utime + stime, in ticks of 10 ms); NaN elsewhere. */
function cpuOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

/** The local server: front + test Graphiti in their own process; its token in `<base>/server/mcp.token`. */
async function localServer(base: string): Promise<{ port: number; pid: number; stop: () => void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'bench', 'local-front-main.ts'), base, 'server', 'run'], { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`local front exited ${code}`)));
  });
  const { port, pid } = JSON.parse(line) as { port: number; pid: number };
  return { port, pid, stop: () => child.stdin.end() };
}

/** A state folder whose runtime names the local server as `server start` records it (no URL set: the settings take it from there). */
function stateFor(root: string, base: string, server: { port: number; pid: number }, group: string): Promise<Config> {
  const { MADEINOZ_KNOWLEDGE_MCP_URL: _unset, ...env } = isolatedEnv(root, 'unused', { MADEINOZ_KNOWLEDGE_GROUP_ID: group, MADEINOZ_KNOWLEDGE_RETRIES: '0' });
  const identity = identifyProcess(server.pid);
  if (identity === undefined) throw new Error('the local front process is gone');
  writeRuntime(env.MADEINOZ_KNOWLEDGE_STATE_DIR as string, {
    state: 'ready',
    pid: server.pid,
    generation: '0.31.2',
    serverVersion: 'bench',
    mcp: 'bench',
    falkordbBin: 'bench',
    url: `http://127.0.0.1:${server.port}/mcp`,
    port: server.port,
    identities: { supervisor: identity },
    mcpTokenFile: mcpTokenPath(base),
    dataDir: join(root, 'data'),
    logDir: join(root, 'logs'),
    startedAt: new Date().toISOString(),
  });
  return loadConfig({ env });
}

/**
 * The client before PROOF_ON_THE_CONNECTION (c1cc943^ graphiti.ts localServerToken): the token once
 * the front has proven itself, a proof reused for FRONT_PROOF_TTL_MS, and the request on the shared
 * kept-alive connections. `requests` counts what it sent.
 */
function previousClient(config: Config, counter: { requests: number }): GraphitiClient {
  return clientAuthorizedBy(config, async (url) => {
    counter.requests++;
    const token = await localServerAuthorization(config.stateDir, url);
    if (token === undefined) throw new Error('the local front did not prove itself');
    return { token };
  });
}

/** A GraphitiClient for `config` whose every request gets its token (and connection) from `tokenFor`. */
function clientAuthorizedBy(config: Config, tokenFor: NonNullable<McpClientOptions['tokenFor']>): GraphitiClient {
  const mcp = new McpClient({ url: config.mcpUrl, transport: config.transport, headers: config.headers, timeoutMs: config.timeoutMs, tokenFor });
  return new GraphitiClient(config, { client: mcp });
}

/**
 * The client before PROVEN_REUSE: every request on a new connection that proved itself just before,
 * ended with the request (its `keep` hidden, so mcp/http.ts destroys it as it did then).
 */
function perRequestClient(config: Config): GraphitiClient {
  return clientAuthorizedBy(config, async (url) => {
    const live = liveServer(config.stateDir);
    if (live?.token === undefined) throw new Error('no live local server');
    const connection = await provenConnection(Number(url.port), live.token);
    if (connection === undefined || connection === 'closes') throw new Error('the local front did not prove itself on the connection');
    return { token: live.token, connection: Object.assign(connection, { keep: undefined }) };
  });
}

function clientFor(arm: Arm, config: Config, counter = { requests: 0 }): GraphitiClient {
  if (arm === 'current') return new GraphitiClient(config);
  return arm === 'previous' ? previousClient(config, counter) : perRequestClient(config);
}

/** Wall ms and client CPU ms of one get_status call. */
async function once(client: GraphitiClient): Promise<{ ms: number; cpu: number }> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await client.getStatus();
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return { ms, cpu: (cpu.user + cpu.system) / 1000 };
}

/** One request each way, in turn, `runs` times (after a warm-up that connects the MCP session), each after `pauseMs`. */
async function requests(config: Config, runs: number, pauseMs: number): Promise<Record<Arm, { ms: number; cpu: number }> & { pairRatioPerRequest: number }> {
  const clients: Record<Arm, GraphitiClient> = { current: clientFor('current', config), previous: clientFor('previous', config), perRequest: clientFor('perRequest', config) };
  const samples: Record<Arm, Array<{ ms: number; cpu: number }>> = { current: [], previous: [], perRequest: [] };
  try {
    for (const arm of ARMS) await once(clients[arm]);
    for (let i = 0; i < runs; i++) {
      for (const arm of ARMS) {
        if (pauseMs > 0) await new Promise((r) => setTimeout(r, pauseMs));
        samples[arm].push(await once(clients[arm]));
      }
    }
  } finally {
    for (const arm of ARMS) await clients[arm].client.close();
  }
  const summary = (s: Array<{ ms: number; cpu: number }>) => ({ ms: median(s.map((x) => x.ms)), cpu: s.reduce((a, x) => a + x.cpu, 0) / s.length });
  // The arms run in turn, so a pair shares the machine's state of the moment: its ratio drifts less than the medians' one.
  const pairRatioPerRequest = median(samples.current.map((c, i) => c.ms / (samples.perRequest[i] as { ms: number }).ms));
  return { current: summary(samples.current), previous: summary(samples.previous), perRequest: summary(samples.perRequest), pairRatioPerRequest };
}

function writeNotes(pai: string): void {
  const dir = join(pai, 'MEMORY', 'LEARNING', 'SYSTEM');
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < NOTES; i++) {
    writeFileSync(join(dir, `note-${String(i).padStart(3, '0')}.md`), `---\ncapture_type: LEARNING\ntimestamp: 2026-01-04 10:30:00 PST\ntags: [bench]\n---\n# Note ${i}\n\nThe build of part ${i} runs on ${i % 7} cores. ${'Some realistic text. '.repeat(10)}\n`);
  }
}

interface SyncFigures {
  ms: number;
  /** This process's CPU (the client's, sync included). */
  cpu: number;
  /** The front's process (front and test Graphiti): what the supervisor spends on top. */
  serverCpu: number;
  connections: number;
  requests: number;
  /** Median over the pairs of current / previous wall time (what to quote: the machine's drift hits both of a pair alike). */
  pairRatio: number;
  /** The same, current / perRequest. */
  pairRatioPerRequest: number;
}

/** The initial sync of NOTES new notes each way, in turn (previous first), SYNC_PAIRS times; each in a state folder and group of its own. */
async function syncs(root: string, base: string, server: { port: number; pid: number }): Promise<Record<Arm, SyncFigures>> {
  const samples: Record<Arm, Array<Omit<SyncFigures, 'requests' | 'pairRatio' | 'pairRatioPerRequest'>>> = { current: [], previous: [], perRequest: [] };
  let requestsPerSync = 0;
  for (let i = 0; i < SYNC_PAIRS; i++) {
    for (const arm of ARMS) {
      const runRoot = join(root, `sync-${arm}-${i}`);
      const config = await stateFor(runRoot, base, server, `bench-${arm}-${i}`);
      writeNotes(config.paiDir);
      const counter = { requests: 0 };
      const graphiti = clientFor(arm, config, counter);
      const connections0 = connectionsOpened;
      const serverCpu0 = cpuOf(server.pid);
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      const summary = await runSync(config, { graphiti });
      const ms = performance.now() - t0;
      const cpu = process.cpuUsage(cpu0);
      const serverCpu = cpuOf(server.pid) - serverCpu0;
      const connections = connectionsOpened - connections0;
      await graphiti.client.close();
      if (summary.added !== NOTES) throw new Error(`${arm} sync added ${summary.added} of ${NOTES} (failed ${summary.failed})`);
      if (arm === 'previous') requestsPerSync = counter.requests;
      samples[arm].push({ ms, cpu: (cpu.user + cpu.system) / 1000, serverCpu, connections });
      rmSync(runRoot, { recursive: true, force: true });
    }
  }
  const pairRatio = median(samples.current.map((c, i) => c.ms / (samples.previous[i] as { ms: number }).ms));
  const pairRatioPerRequest = median(samples.current.map((c, i) => c.ms / (samples.perRequest[i] as { ms: number }).ms));
  const summary = (s: Array<Omit<SyncFigures, 'requests' | 'pairRatio' | 'pairRatioPerRequest'>>): SyncFigures => ({
    ms: median(s.map((x) => x.ms)),
    cpu: median(s.map((x) => x.cpu)),
    serverCpu: median(s.map((x) => x.serverCpu)),
    connections: median(s.map((x) => x.connections)),
    requests: requestsPerSync,
    pairRatio,
    pairRatioPerRequest,
  });
  return { current: summary(samples.current), previous: summary(samples.previous), perRequest: summary(samples.perRequest) };
}

export async function benchFrontCost(): Promise<Row[]> {
  const root = mkdtempSync(join(tmpdir(), 'gms-bench-front-cost-'));
  const base = join(root, 'server-state');
  const server = await localServer(base);
  try {
    const config = await stateFor(join(root, 'requests'), base, server, 'bench-requests');
    const burst = await requests(config, RUNS, 0);
    const paused = await requests(config, PAUSED_RUNS, 1100);
    const sync = await syncs(root, base, server);
    const vs = 'previous client';
    const before = 'a proof per request (before PROVEN_REUSE)';
    return [
      { name: `one request (get_status) in a burst: a kept proven connection, else proof + request on a new one (wall, median of ${RUNS})`, value: burst.current.ms, unit: 'ms', baseline: burst.perRequest.ms, baselineName: before },
      { name: 'one request in a burst: client CPU, against a proof per request', value: burst.current.cpu, unit: 'ms', baseline: burst.perRequest.cpu, baselineName: before },
      { name: `one request after a 1.1 s pause, against a proof per request (wall, median of ${PAUSED_RUNS})`, value: paused.current.ms, unit: 'ms', baseline: paused.perRequest.ms, baselineName: before },
      { name: `one request after a 1.1 s pause: median of the ${PAUSED_RUNS} pairs' ratios (current / a proof per request, run in turn)`, value: paused.pairRatioPerRequest, unit: 'x' },
      { name: `initial sync of ${NOTES} notes, against a proof per request (wall, median of ${SYNC_PAIRS})`, value: sync.current.ms, unit: 'ms', baseline: sync.perRequest.ms, baselineName: before },
      { name: `initial sync of ${NOTES} notes: median of the ${SYNC_PAIRS} pairs' ratios (current / a proof per request)`, value: sync.current.pairRatioPerRequest, unit: 'x' },
      { name: `initial sync of ${NOTES} notes: client CPU, against a proof per request`, value: sync.current.cpu, unit: 'ms', baseline: sync.perRequest.cpu, baselineName: before },
      { name: `initial sync of ${NOTES} notes: CPU of the front's process, against a proof per request`, value: sync.current.serverCpu, unit: 'ms', baseline: sync.perRequest.serverCpu, baselineName: before },
      { name: `initial sync of ${NOTES} notes: TCP connections the client opened, against a proof per request`, value: sync.current.connections, unit: 'conns', baseline: sync.perRequest.connections, baselineName: before },
      { name: `one request (get_status) in a burst, against the previous client (wall, median of ${RUNS})`, value: burst.current.ms, unit: 'ms', baseline: burst.previous.ms, baselineName: vs },
      { name: 'one request in a burst: client CPU', value: burst.current.cpu, unit: 'ms', baseline: burst.previous.cpu, baselineName: vs },
      { name: `one request after a 1.1 s pause (the previous client proves anew then too; wall, median of ${PAUSED_RUNS})`, value: paused.current.ms, unit: 'ms', baseline: paused.previous.ms, baselineName: vs },
      { name: 'one request after a 1.1 s pause: client CPU', value: paused.current.cpu, unit: 'ms', baseline: paused.previous.cpu, baselineName: vs },
      { name: `initial sync of ${NOTES} notes (${sync.previous.requests} requests; wall, median of ${SYNC_PAIRS})`, value: sync.current.ms, unit: 'ms', baseline: sync.previous.ms, baselineName: vs },
      { name: `initial sync of ${NOTES} notes: median of the ${SYNC_PAIRS} pairs' ratios (current / previous, run in turn)`, value: sync.current.pairRatio, unit: 'x' },
      { name: `initial sync of ${NOTES} notes: client CPU`, value: sync.current.cpu, unit: 'ms', baseline: sync.previous.cpu, baselineName: vs },
      { name: `initial sync of ${NOTES} notes: CPU of the front's process (front + test Graphiti; 10 ms ticks)`, value: sync.current.serverCpu, unit: 'ms', baseline: sync.previous.serverCpu, baselineName: vs },
      { name: `initial sync of ${NOTES} notes: TCP connections the client opened`, value: sync.current.connections, unit: 'conns', baseline: sync.previous.connections, baselineName: vs },
    ];
  } finally {
    server.stop();
    rmSync(root, { recursive: true, force: true });
  }
}
