/**
 * Issues 11 and 27: the product against the real Graphiti MCP server (FalkorDB, stand-in LLM
 * answering every call after a fixed delay), in a busy group: FOREIGN other clients' episodes put
 * straight into FalkorDB (as long as real notes), then, in the same run and the same group:
 *
 * 1. the floor: FILES episodes sent straight through `add_memory` (bare McpClient) with no
 *    listing at all, timed until FalkorDB holds them all (a count query every 250 ms); measured
 *    before and after the runs below, their mean the baseline (the machine's load drifts);
 * 2. `sync --wait` of FILES new notes through get_episodes listings (the MCP path every remote
 *    server gets): wall time beside the floor, listings, MB listed, the listings' time on the
 *    server (request to last byte, measured by a metering proxy in front of the server) and
 *    duplicate sends;
 * 3. the same with the local server's direct confirmation (runtime.json names this server and its
 *    FalkorDB, as `server start` writes it): the FalkorDB queries' count and time (INFO commandstats);
 * 4. a run with nothing changed, beside `health`.
 *
 * BENCH_GRAPHITI_GENERATION (default 0.31.1), BENCH_GRAPHITI_FILES (200), BENCH_GRAPHITI_FOREIGN
 * (10000), BENCH_GRAPHITI_LLM_DELAY_MS (100, the issue's setting).
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpClient } from '../src/lib/mcp/client.js';
import { ServerSetupError } from '../src/lib/server/errors.js';
import { makeSandbox, type Sandbox } from '../test/support/sandbox.js';
import { runCli, startRealGraphiti, type RealGraphiti } from '../test/support/real-graphiti.js';
import { startFakeSupervisor } from '../test/support/fake-supervisor.js';
import { writeLocalRuntime } from '../test/support/local-runtime.js';
import { median, type Row } from './util.js';

const GENERATION = process.env.BENCH_GRAPHITI_GENERATION ?? '0.31.1';
const FILES = Number(process.env.BENCH_GRAPHITI_FILES ?? 200);
const FOREIGN = Number(process.env.BENCH_GRAPHITI_FOREIGN ?? 10_000);
const DELAY = Number(process.env.BENCH_GRAPHITI_LLM_DELAY_MS ?? 100);
const GROUP = 'gms_bench';
const SERVICES = ['Aurora', 'Basalt', 'Cobalt', 'Dynamo', 'Ember', 'Fjord', 'Gala'];

/** A note's body: two services and a request number, like the notes of the first bench. */
function noteBody(i: number): string {
  const a = SERVICES[i % SERVICES.length] as string;
  const b = SERVICES[(i + 3) % SERVICES.length] as string;
  return `${a} calls ${b} for request ${i}. ${b} answers ${a} within budget ${i}.`;
}

interface Metered {
  url: string;
  /** get_episodes calls: count, bytes of the replies, ms from request to last byte. */
  listings: { count: number; bytes: number; ms: number };
  /** add_memory names in order (a name twice is a duplicate send). */
  adds: string[];
  reset(): void;
  close(): Promise<void>;
}

/** A metering HTTP proxy in front of the MCP server: what get_episodes costs, what add_memory sends. */
async function meteringProxy(target: string): Promise<Metered> {
  const upstream = new URL(target);
  const m: Metered = {
    url: '',
    listings: { count: 0, bytes: 0, ms: 0 },
    adds: [],
    reset() {
      this.listings = { count: 0, bytes: 0, ms: 0 };
      this.adds = [];
    },
    close: async () => new Promise<void>((r) => server.close(() => r())),
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      let tool: string | undefined;
      let name: string | undefined;
      try {
        const msg = JSON.parse(body.toString() || 'null') as { method?: string; params?: { name?: string; arguments?: { name?: string; group_id?: string; group_ids?: string[] } } } | null;
        const args = msg?.params?.arguments;
        // Only the bench group: the engine's one-time semantics probe works in a scratch group of its own.
        if (msg?.method === 'tools/call' && (args?.group_id === GROUP || args?.group_ids?.includes(GROUP) === true)) {
          tool = msg.params?.name;
          name = args?.name;
        }
      } catch {
        // not JSON (a GET stream): passed through
      }
      if (tool === 'add_memory' && name !== undefined) m.adds.push(name);
      const started = performance.now();
      const up = request({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: { ...req.headers, host: upstream.host } }, (ur) => {
        res.writeHead(ur.statusCode ?? 502, ur.headers);
        let bytes = 0;
        ur.on('data', (c: Buffer) => {
          bytes += c.length;
          res.write(c);
        });
        ur.on('end', () => {
          res.end();
          if (tool === 'get_episodes') {
            m.listings.count++;
            m.listings.bytes += bytes;
            m.listings.ms += performance.now() - started;
          }
        });
      });
      up.on('error', (e) => res.destroy(e));
      up.end(body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  m.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${upstream.pathname}`;
  return m;
}

/** Other clients' episodes, written as Graphiti writes Episodic nodes, ~0.5 KB each (a listing of 10,000 is ~11 MB, as in issue 27). */
async function seedForeign(real: RealGraphiti, count: number): Promise<void> {
  const filler = 'Someone else wrote this note about the payment service and its queues. '.repeat(5);
  for (let start = 0; start < count; start += 1_000) {
    const n = Math.min(1_000, count - start);
    await real.query(
      `UNWIND range(${start}, ${start + n - 1}) AS i CREATE (:Episodic {uuid: 'f' + toString(i) + '-0000-4000-8000-000000000000', name: 'Foreign note ' + toString(i), group_id: '${GROUP}', created_at: '2026-01-01T00:00:00+00:00', valid_at: '2026-01-01T00:00:00+00:00', source: 'text', source_description: 'claude add_memory', content: 'Note ' + toString(i) + '. ${filler}', entity_edges: []})`,
    );
  }
}

async function countWhere(real: RealGraphiti, where: string): Promise<number> {
  const rows = await real.query(`MATCH (e:Episodic) WHERE ${where} RETURN count(e)`);
  return Number(rows[0]?.[0] ?? 0);
}

/** FalkorDB's own count and time of read-only graph queries so far (INFO commandstats). */
async function roQueryStats(real: RealGraphiti): Promise<{ calls: number; usec: number }> {
  const { createClient } = await import('@redis/client');
  const client = createClient({ socket: { host: '127.0.0.1', port: real.graphiti.falkordb.port }, password: real.graphiti.falkordb.password });
  await client.connect();
  try {
    const info = String(await client.sendCommand(['INFO', 'commandstats']));
    const line = info.split('\n').find((l) => /^cmdstat_graph\.ro_query:/i.test(l));
    const calls = Number(/calls=(\d+)/.exec(line ?? '')?.[1] ?? 0);
    const usec = Number(/usec=(\d+)/.exec(line ?? '')?.[1] ?? 0);
    return { calls, usec };
  } finally {
    await client.close();
  }
}

/** The unloaded floor: the same kind of episodes straight through add_memory, no listing. */
async function floor(real: RealGraphiti, round: number): Promise<number> {
  const client = new McpClient({ url: real.url });
  await client.connect();
  const t0 = Date.now();
  const tag = `bench floor ${round}`;
  try {
    for (let i = 0; i < FILES; i++) {
      await client.callTool('add_memory', { name: `Floor ${round}.${i}`, episode_body: `# Floor ${i}\n\n${noteBody(100_000 * round + i)}`, group_id: GROUP, source: 'text', source_description: tag });
    }
  } finally {
    await client.close();
  }
  const deadline = Date.now() + 3_600_000;
  while (Date.now() < deadline) {
    if ((await countWhere(real, `e.source_description = '${tag}'`)) >= FILES) return Date.now() - t0;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('floor: the server did not process every episode within an hour');
}

interface RunResult {
  ms: number;
  confirmed: number;
  listings: Metered['listings'];
  /** get_episodes before the first add_memory. */
  listingsBeforeSend: number;
  duplicates: number;
  direct: { calls: number; usec: number };
}

async function timedSync(real: RealGraphiti, proxy: Metered, box: Sandbox, prefix: string, offset: number): Promise<RunResult> {
  for (let i = 0; i < FILES; i++) box.pai(`LEARNING/2026-01/${prefix}-${i}.md`, `---\ncapture_type: LEARNING\ntimestamp: 2026-01-04 10:30:00 PST\n---\n# ${prefix} ${i}\n\n${noteBody(offset + i)}\n`);
  proxy.reset();
  let listingsBeforeSend = -1;
  const watchFirstAdd = setInterval(() => {
    if (listingsBeforeSend < 0 && proxy.adds.length > 0) listingsBeforeSend = proxy.listings.count;
  }, 5);
  const before = await roQueryStats(real);
  const t0 = Date.now();
  const run = await runCli(box.env, ['sync', '--json', '--wait', '3600000'], { timeoutMs: 3_700_000 });
  const ms = Date.now() - t0;
  clearInterval(watchFirstAdd);
  const after = await roQueryStats(real);
  const summary = (run.stdout.trim() === '' ? { confirmed: -1 } : JSON.parse(run.stdout)) as { confirmed: number };
  if (run.code !== 0 || summary.confirmed < FILES) throw new Error(`${prefix} sync: exit ${run.code}, confirmed ${summary.confirmed}/${FILES}: ${run.stderr.slice(-500)}`);
  const names = new Map<string, number>();
  for (const n of proxy.adds) names.set(n, (names.get(n) ?? 0) + 1);
  return {
    ms,
    confirmed: summary.confirmed,
    listings: { ...proxy.listings },
    listingsBeforeSend: Math.max(0, listingsBeforeSend),
    duplicates: [...names.values()].reduce((d, c) => d + c - 1, 0),
    direct: { calls: after.calls - before.calls, usec: after.usec - before.usec },
  };
}

export async function benchRealGraphiti(): Promise<Row[]> {
  let real: RealGraphiti;
  try {
    real = await startRealGraphiti({ generation: GENERATION, transport: 'http', groupId: GROUP, llmDelayMs: DELAY });
  } catch (error) {
    if (!(error instanceof ServerSetupError)) throw error;
    process.stdout.write(`\n  real Graphiti bench skipped: ${error.message}\n`);
    return [];
  }
  const proxy = await meteringProxy(real.url);
  const env = { MADEINOZ_KNOWLEDGE_DB: 'falkordb', MADEINOZ_KNOWLEDGE_GROUP_ID: GROUP, MADEINOZ_KNOWLEDGE_TIMEOUT: '60000', MADEINOZ_KNOWLEDGE_RETRY_DEADLINE: '60000' };
  const listingBox = makeSandbox(proxy.url, env);
  const directBox = makeSandbox(proxy.url, env);
  // The local server's "supervisor", as runtime.json names it (the bench started the server itself).
  const supervisor = await startFakeSupervisor();
  try {
    await seedForeign(real, FOREIGN);
    // The floor before and after the runs (this machine is shared: its load drifts), their mean the baseline.
    const floorBefore = await floor(real, 1);
    const listed = await timedSync(real, proxy, listingBox, 'Listed', 200_000);
    writeLocalRuntime(directBox.config().stateDir, real, supervisor, { url: proxy.url });
    const direct = await timedSync(real, proxy, directBox, 'Direct', 300_000);
    const floorAfter = await floor(real, 2);
    const floorMs = (floorBefore + floorAfter) / 2;

    const noChange: number[] = [];
    const health: number[] = [];
    for (let i = 0; i < 3; i++) {
      let t = Date.now();
      const run = await runCli(listingBox.env, ['sync', '--json']);
      noChange.push(Date.now() - t);
      if (run.code !== 0) throw new Error(`no-change sync exited ${run.code}`);
      t = Date.now();
      await runCli(listingBox.env, ['health']);
      health.push(Date.now() - t);
    }
    const setting = `graphiti-core ${GENERATION}, ${FOREIGN.toLocaleString('en')} foreign episodes in the group, stand-in LLM ${DELAY} ms per call`;
    const describe = (r: RunResult) => {
      const waitingS = r.ms / 1000;
      const share = (100 * r.listings.ms) / floorMs;
      return `${r.listings.count} listings (${r.listingsBeforeSend} before the first send; ${(r.listings.count / Math.max(1, waitingS / 30)).toFixed(2)} per 30 s), ${(r.listings.bytes / 1e6).toFixed(1)} MB listed, listing time ${(r.listings.ms / 1000).toFixed(1)} s = ${share.toFixed(1)} % of the floor; ${r.duplicates} duplicate sends`;
    };
    return [
      { name: `Floor: ${FILES} episodes straight through add_memory, no listing, until all processed`, value: floorMs, unit: 'ms', note: `mean of ${Math.round(floorBefore)} ms before and ${Math.round(floorAfter)} ms after the runs; ${setting}` },
      { name: `sync --wait of ${FILES} notes, confirmed through get_episodes listings`, value: listed.ms, unit: 'ms', baseline: floorMs, baselineName: 'floor', note: describe(listed) },
      {
        name: `sync --wait of ${FILES} notes, local server's direct confirmation`,
        value: direct.ms,
        unit: 'ms',
        baseline: floorMs,
        baselineName: 'floor',
        note: `${describe(direct)}; ${direct.direct.calls} FalkorDB queries, ${(direct.direct.usec / 1000).toFixed(1)} ms in all on the server`,
      },
      { name: `Sync with nothing changed, ${FILES} confirmed files (median of 3)`, value: median(noChange), unit: 'ms', baseline: median(health), baselineName: '`health`', note: `health (process start + one MCP call) ${Math.round(median(health))} ms` },
    ];
  } finally {
    supervisor.child.kill('SIGTERM');
    await proxy.close();
    await real.stop();
    listingBox.cleanup();
    directBox.cleanup();
  }
}
