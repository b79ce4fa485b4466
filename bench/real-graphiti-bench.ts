/**
 * Issues 11 and 27: the product against the real Graphiti MCP server (FalkorDB, stand-in LLM
 * answering every call after a fixed delay), in a busy group: FOREIGN other clients' episodes put
 * straight into FalkorDB (as long as real notes). Each measurement below gets a group of its own,
 * seeded with the same FOREIGN episodes: Graphiti's time per episode grows with what the graph
 * already holds, so measurements that followed one another in one group were not alike (a floor
 * measured after the syncs took up to 30 % longer than the one before them, with nothing else
 * running). The server keeps one graph per group on 0.31.x, so every measurement starts from the
 * same graph. In each round:
 *
 * 1. the floor: FILES episodes sent straight through `add_memory` (bare McpClient) with no
 *    listing at all, timed until FalkorDB holds them all (a count query every 250 ms); measured
 *    first and again after each round, each sync's baseline the mean of the floors on either side
 *    of it (the machine's load drifts);
 * 2. `sync --wait` of FILES new notes through get_episodes listings (the MCP path every remote
 *    server gets), a first run on this machine, run as users run it (`node dist/cli.js`, built from
 *    this checkout when the bench starts; until 2026-12-06 the CLI ran from source through tsx,
 *    which added about 1.5 s to every run): wall time beside the floor, listings, MB listed,
 *    the listings' time on the server (request to last byte, measured by a metering proxy in front
 *    of the server) and duplicate sends; and when the server was done with our episodes (the same
 *    count query as the floor's), so the run splits into the server's time and the tool's lag;
 * 3. the same with the local server's direct confirmation (runtime.json names this server and its
 *    FalkorDB, as `server start` writes it): the FalkorDB queries' count and time (INFO commandstats);
 *
 * and once, at the end, a run with nothing changed, beside `health`.
 *
 * Issue 43: the pace's constants are checked on a grid of scenarios, each on a server of its own
 * (generation, notes, stand-in delay per LLM call): BENCH_GRAPHITI_SCENARIOS, a comma list of
 * `generation:notes:delayMs` (default: the grid below, `GRID`); the local server's direct
 * confirmation runs in the first scenario only. Or one scenario as before: BENCH_GRAPHITI_GENERATION
 * (default 0.31.1), BENCH_GRAPHITI_FILES (200), BENCH_GRAPHITI_LLM_DELAY_MS (100). Also
 * BENCH_GRAPHITI_FOREIGN (10000) and BENCH_GRAPHITI_ROUNDS (1). Each listed sync is judged against
 * the issue's goals: within 1.05x its floor, at most one listing per 30 s, no duplicate send.
 *
 * Later batches (BENCH_GRAPHITI_LATER, a comma list of `generation:notes:delayMs:laterDelayMs`, none
 * by default): a first `sync --wait` of the notes at one stand-in pace teaches the group's pace; then
 * the stand-in answers at another (a rate limit lifted, another model) and a later `sync --wait` of
 * as many new notes is timed beside floors at the new pace. When set, only these run.
 */
import { randomUUID } from 'node:crypto';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpClient } from '../src/lib/mcp/client.js';
import { ServerSetupError } from '../src/lib/server/errors.js';
import { makeSandbox, type Sandbox } from '../test/support/sandbox.js';
import { runCli, startRealGraphiti, type RealGraphiti } from '../test/support/real-graphiti.js';
import { startFakeSupervisor } from '../test/support/fake-supervisor.js';
import { writeLocalRuntime } from '../test/support/local-runtime.js';
import { generation as pinnedGeneration } from '../src/lib/server/pins.js';
import { buildNow, median, type Row } from './util.js';

const FOREIGN = Number(process.env.BENCH_GRAPHITI_FOREIGN ?? 10_000);
const ROUNDS = Number(process.env.BENCH_GRAPHITI_ROUNDS ?? 1);
/** Every group of the bench starts so (the metering proxy watches these only). */
const GROUP = 'gms_bench';

/** One point of the grid: a server of its own. */
interface Scenario {
  generation: string;
  /** Notes per sync (and episodes per floor). */
  files: number;
  /** The stand-in LLM's delay per call (ms). */
  delayMs: number;
  /** Also measure the local server's direct confirmation. */
  direct: boolean;
}

/**
 * Issue 43's grid: 0.31.2 and 0.31.1, 20 to 500 notes, stand-ins at 20 ms to 1 s per call. The
 * corners that fit a bench run (500 notes at 1 s per call would take hours), plus issue 27's
 * setting (first) and issue 43's busy-group report (80 notes on 0.31.2).
 */
const GRID = '0.31.1:200:100,0.31.2:80:100,0.31.2:20:20,0.31.1:20:1000,0.31.2:500:20';

function scenarios(): Scenario[] {
  const env = process.env;
  const single = env.BENCH_GRAPHITI_GENERATION !== undefined || env.BENCH_GRAPHITI_FILES !== undefined || env.BENCH_GRAPHITI_LLM_DELAY_MS !== undefined;
  const list = env.BENCH_GRAPHITI_SCENARIOS ?? (single ? `${env.BENCH_GRAPHITI_GENERATION ?? '0.31.1'}:${env.BENCH_GRAPHITI_FILES ?? 200}:${env.BENCH_GRAPHITI_LLM_DELAY_MS ?? 100}` : GRID);
  return list.split(',').map((item, i) => {
    const [generation, files, delayMs] = item.trim().split(':');
    if (generation === undefined || !Number.isInteger(Number(files)) || !Number.isInteger(Number(delayMs))) throw new Error(`BENCH_GRAPHITI_SCENARIOS: "${item}" is not generation:notes:delayMs`);
    return { generation, files: Number(files), delayMs: Number(delayMs), direct: i === 0 };
  });
}

/** FalkorDB graph of a group: its own on 0.31.x, else the one graph the server was started with. */
const graphOf = (sc: Scenario, group: string) => (pinnedGeneration(sc.generation).graphPerGroup ? group : GROUP);
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
  /** Each get_episodes call's start and end (epoch ms), and the max_episodes it asked for. */
  listingTimes: Array<{ start: number; end: number; max: number }>;
  /** add_memory names in order (a name twice is a duplicate send). */
  adds: string[];
  /** When the first add_memory arrived (epoch ms). */
  firstAddAt: number | undefined;
  reset(): void;
  close(): Promise<void>;
}

/** A metering HTTP proxy in front of the MCP server: what get_episodes costs, what add_memory sends. */
async function meteringProxy(target: string): Promise<Metered> {
  const upstream = new URL(target);
  const m: Metered = {
    url: '',
    listings: { count: 0, bytes: 0, ms: 0 },
    listingTimes: [],
    adds: [],
    firstAddAt: undefined,
    reset() {
      this.listings = { count: 0, bytes: 0, ms: 0 };
      this.listingTimes = [];
      this.adds = [];
      this.firstAddAt = undefined;
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
      let max = 0;
      try {
        const msg = JSON.parse(body.toString() || 'null') as { method?: string; params?: { name?: string; arguments?: { name?: string; group_id?: string; group_ids?: string[]; max_episodes?: number } } } | null;
        const args = msg?.params?.arguments;
        // Only the bench's groups: the engine's one-time semantics probe works in a scratch group of its own.
        const ours = (g: string | undefined) => g?.startsWith(GROUP) === true;
        if (msg?.method === 'tools/call' && (ours(args?.group_id) || args?.group_ids?.some(ours) === true)) {
          tool = msg.params?.name;
          name = args?.name;
          max = args?.max_episodes ?? 0;
        }
      } catch {
        // not JSON (a GET stream): passed through
      }
      if (tool === 'add_memory' && name !== undefined) {
        m.firstAddAt ??= Date.now();
        m.adds.push(name);
      }
      const started = performance.now();
      const startedAt = Date.now();
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
            m.listingTimes.push({ start: startedAt, end: Date.now(), max });
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
async function seedForeign(real: RealGraphiti, sc: Scenario, group: string, count: number): Promise<void> {
  const filler = 'Someone else wrote this note about the payment service and its queues. '.repeat(5);
  for (let start = 0; start < count; start += 1_000) {
    const n = Math.min(1_000, count - start);
    // Random uuids, as Graphiti gives every episode (uuid4): get_episodes lists by uuid, so the top of its order is a fair sample of the group.
    const uuids = Array.from({ length: n }, () => `'${randomUUID()}'`).join(',');
    await real.query(
      `WITH [${uuids}] AS uuids UNWIND range(0, ${n - 1}) AS k WITH uuids, k, ${start} + k AS i CREATE (:Episodic {uuid: uuids[k], name: 'Foreign note ' + toString(i), group_id: '${group}', created_at: '2026-01-01T00:00:00+00:00', valid_at: '2026-01-01T00:00:00+00:00', source: 'text', source_description: 'claude add_memory', content: 'Note ' + toString(i) + '. ${filler}', entity_edges: []})`,
      graphOf(sc, group),
    );
  }
}

async function countWhere(real: RealGraphiti, sc: Scenario, group: string, where: string): Promise<number> {
  const rows = await real.query(`MATCH (e:Episodic) WHERE e.group_id = '${group}' AND ${where} RETURN count(e)`, graphOf(sc, group));
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

/** The unloaded floor: the same kind of episodes straight through add_memory, no listing, into a fresh group. */
async function floor(real: RealGraphiti, sc: Scenario, round: number): Promise<number> {
  const group = `${GROUP}_floor_${round}`;
  await seedForeign(real, sc, group, FOREIGN);
  const client = new McpClient({ url: real.url });
  await client.connect();
  const t0 = Date.now();
  const tag = `bench floor ${round}`;
  try {
    for (let i = 0; i < sc.files; i++) {
      await client.callTool('add_memory', { name: `Floor ${round}.${i}`, episode_body: `# Floor ${i}\n\n${noteBody(100_000 * round + i)}`, group_id: group, source: 'text', source_description: tag });
    }
  } finally {
    await client.close();
  }
  const done = await whenProcessed(real, sc, group, `e.source_description = '${tag}'`, t0);
  if (done === undefined) throw new Error('floor: the server did not process every episode within an hour');
  return done;
}

/** Ms from t0 until FalkorDB holds the scenario's count of episodes of the group matching `where` (a count every 250 ms); undefined after an hour or once `stop` says so. */
async function whenProcessed(real: RealGraphiti, sc: Scenario, group: string, where: string, t0: number, stop: () => boolean = () => false, count = sc.files): Promise<number | undefined> {
  const deadline = Date.now() + 3_600_000;
  while (Date.now() < deadline && !stop()) {
    if ((await countWhere(real, sc, group, where)) >= count) return Date.now() - t0;
    await new Promise((r) => setTimeout(r, 250));
  }
  return undefined;
}

interface RunResult {
  ms: number;
  confirmed: number;
  listings: Metered['listings'];
  /** get_episodes before the first add_memory. */
  listingsBeforeSend: number;
  /** Ms of the listings before the first add_memory, and of the last full listing (the one that confirmed the end). */
  beforeSendListingMs: number;
  lastFullListingMs: number;
  /** get_episodes that asked for less than the group holds: pace samples (the top of the uuid order). */
  samples: number;
  /** The listings weighed by what each asked for (a sample of a tenth of the group weighs a tenth of a full listing). */
  fullEquivalents: number;
  duplicates: number;
  /** Parts the run judged dropped and sent again (its summary's `resent`): a false drop when the server had them queued. */
  resent: number;
  direct: { calls: number; usec: number };
  /** Ms from the start: the first add_memory, each listing's start, the server done with our episodes. */
  firstAddMs: number | undefined;
  /** Each listing's start, ms from the start; a sample's marked. */
  listingStartsMs: Array<{ ms: number; sample: boolean }>;
  serverDoneMs: number | undefined;
}

/**
 * `sync --wait` of FILES new notes into a fresh group holding FOREIGN other episodes, as a first run on this machine;
 * or (`later`) into the group the box synced before, whose `before` episodes of ours are there already.
 */
async function timedSync(real: RealGraphiti, sc: Scenario, proxy: Metered, box: Sandbox, prefix: string, offset: number, later?: { before: number }): Promise<RunResult> {
  const group = box.env.MADEINOZ_KNOWLEDGE_GROUP_ID as string;
  if (later === undefined) await seedForeign(real, sc, group, FOREIGN);
  for (let i = 0; i < sc.files; i++) box.pai(`LEARNING/2026-01/${prefix}-${i}.md`, `---\ncapture_type: LEARNING\ntimestamp: 2026-01-04 10:30:00 PST\n---\n# ${prefix} ${i}\n\n${noteBody(offset + i)}\n`);
  proxy.reset();
  const before = await roQueryStats(real);
  const t0 = Date.now();
  let finished = false;
  // When the server was done with our episodes, seen the way the floor sees it (a count every 250 ms).
  const serverDone = whenProcessed(real, sc, group, "NOT e.name STARTS WITH 'Foreign note'", t0, () => finished, sc.files + (later?.before ?? 0));
  const run = await runCli(box.env, ['sync', '--json', '--wait', '3600000'], { timeoutMs: 3_700_000, built: true });
  const ms = Date.now() - t0;
  const doneMs = await Promise.race([serverDone, new Promise<undefined>((r) => setTimeout(() => r(undefined), 2_000))]);
  finished = true;
  const after = await roQueryStats(real);
  const summary = (run.stdout.trim() === '' ? { confirmed: -1 } : JSON.parse(run.stdout)) as { confirmed: number; resent?: number };
  if (run.code !== 0 || summary.confirmed < sc.files + (later?.before ?? 0)) throw new Error(`${prefix} sync: exit ${run.code}, confirmed ${summary.confirmed}/${sc.files}: ${run.stderr.slice(-500)}`);
  const names = new Map<string, number>();
  for (const n of proxy.adds) names.set(n, (names.get(n) ?? 0) + 1);
  const firstAdd = proxy.firstAddAt;
  const lastFull = proxy.listingTimes.filter((l) => l.max >= FOREIGN).at(-1);
  return {
    ms,
    confirmed: summary.confirmed,
    listings: { ...proxy.listings },
    listingsBeforeSend: proxy.listingTimes.filter((l) => firstAdd === undefined || l.start < firstAdd).length,
    beforeSendListingMs: proxy.listingTimes.filter((l) => firstAdd !== undefined && l.start < firstAdd).reduce((sum, l) => sum + l.end - l.start, 0),
    lastFullListingMs: lastFull === undefined ? 0 : lastFull.end - lastFull.start,
    duplicates: [...names.values()].reduce((d, c) => d + c - 1, 0),
    direct: { calls: after.calls - before.calls, usec: after.usec - before.usec },
    firstAddMs: firstAdd === undefined ? undefined : firstAdd - t0,
    resent: summary.resent ?? 0,
    samples: proxy.listingTimes.filter((l) => l.max < FOREIGN).length,
    fullEquivalents: proxy.listingTimes.reduce((sum, l) => sum + Math.min(1, l.max / (FOREIGN + sc.files + (later?.before ?? 0))), 0),
    listingStartsMs: proxy.listingTimes.map((l) => ({ ms: l.start - t0, sample: l.max < FOREIGN })),
    serverDoneMs: doneMs,
  };
}

/** One round's figures: a sync beside the mean of the floors measured on either side of it. */
interface Measured {
  round: number;
  floorMs: number;
  floors: [number, number];
  listed: RunResult;
  direct: RunResult | undefined;
}

/** Issue 43's goals for a listed sync: within 1.05x the floor, at most one listing per 30 s of the run, no duplicate send. */
const GOALS = { ratio: 1.05, listingsPer30s: 1, duplicates: 0 };

/** Listings per 30 s of a run of `ms` (a run shorter than 30 s counts as 30 s). */
function per30s(listings: number, ms: number): number {
  return listings / Math.max(1, ms / 30_000);
}

function listingsPer30s(r: RunResult): number {
  return per30s(r.listings.count, r.ms);
}

/**
 * The least any schedule could take in this run, with the listing times it measured: the server
 * cannot be done before the floor; a first run lists the group before it sends (a lost state must
 * not send again what the graph holds: 0 duplicate sends); and only a full listing that starts
 * once the server is done confirms the last episode (invariant 1). So an oracle that knew the end
 * takes the floor plus those two listings, and lists twice. A first run does not know the end: the
 * state holds no pace for the group, and the server's time per episode spans three orders of
 * magnitude (a stand-in at 20 ms, a real model at 30 s), so a confirming listing placed blind lands
 * in the 5 % after the end only by luck. A schedule that learns the pace looks once more before the
 * end (a sample, at least): three listings. A goal beyond these is out of reach of every schedule,
 * not only of ours.
 */
function leastPossible(r: RunResult, floorMs: number): { ratio: number; listingsPer30s: number; learningPer30s: number } {
  const ms = floorMs + r.beforeSendListingMs + r.lastFullListingMs;
  const oracle = r.listingsBeforeSend + 1;
  return { ratio: ms / floorMs, listingsPer30s: per30s(oracle, ms), learningPer30s: per30s(oracle + 1, ms) };
}

/** A later batch (see the file's comment): `generation:notes:delayMs:laterDelayMs`. */
interface LaterScenario extends Scenario {
  laterDelayMs: number;
}

function laterScenarios(): LaterScenario[] {
  const list = process.env.BENCH_GRAPHITI_LATER;
  if (list === undefined || list.trim() === '') return [];
  return list.split(',').map((item) => {
    const [generation, files, delayMs, laterDelayMs] = item.trim().split(':');
    if (generation === undefined || ![files, delayMs, laterDelayMs].every((n) => Number.isInteger(Number(n)))) throw new Error(`BENCH_GRAPHITI_LATER: "${item}" is not generation:notes:delayMs:laterDelayMs`);
    return { generation, files: Number(files), delayMs: Number(delayMs), laterDelayMs: Number(laterDelayMs), direct: false };
  });
}

async function benchLater(sc: LaterScenario): Promise<Row[]> {
  const real = await startOrSkip(sc);
  if (real === undefined) return [];
  const proxy = await meteringProxy(real.url);
  const box = makeSandbox(proxy.url, { MADEINOZ_KNOWLEDGE_DB: 'falkordb', MADEINOZ_KNOWLEDGE_TIMEOUT: '60000', MADEINOZ_KNOWLEDGE_RETRY_DEADLINE: '60000', MADEINOZ_KNOWLEDGE_SERVER_RULES: sc.generation, MADEINOZ_KNOWLEDGE_GROUP_ID: `${GROUP}_later` });
  try {
    const first = await timedSync(real, sc, proxy, box, 'First', 400_000);
    real.llm.delayMs = sc.laterDelayMs;
    const floorBefore = await floor(real, sc, 0);
    const later = await timedSync(real, sc, proxy, box, 'Later', 500_000, { before: sc.files });
    const floorAfter = await floor(real, sc, 1);
    const floorMs = (floorBefore + floorAfter) / 2;
    const where = `${sc.generation}, ${sc.files} notes, stand-in ${sc.delayMs} ms per call, then ${sc.laterDelayMs} ms`;
    const s = (ms: number | undefined) => (ms === undefined ? '?' : (ms / 1000).toFixed(1));
    return [
      { name: `Later batch: sync --wait of ${sc.files} new notes after the stand-in's pace changed [${where}]`, value: later.ms, unit: 'ms', baseline: floorMs, baselineName: 'floor at the new pace', note: `floors ${Math.round(floorBefore)} and ${Math.round(floorAfter)} ms; ${later.listings.count} looks (${later.samples} samples) at ${later.listingStartsMs.map((l) => `${s(l.ms)}${l.sample ? ' (sample)' : ''}`).join(', ')} s; the server done with ours at ${s(later.serverDoneMs)} s, the run ended ${s(later.serverDoneMs === undefined ? undefined : later.ms - later.serverDoneMs)} s later; ${later.duplicates} duplicate sends, ${later.resent} judged dropped; the first batch (the pace it taught): ${s(first.ms)} s, ${first.listings.count} looks` },
    ];
  } finally {
    await proxy.close();
    await real.stop();
    box.cleanup();
  }
}

export async function benchRealGraphiti(): Promise<Row[]> {
  // Every sync below is `node dist/cli.js`, as users run it, built from this checkout now.
  buildNow();
  const rows: Row[] = [];
  const verdicts: string[] = [];
  const later = laterScenarios();
  if (later.length > 0) {
    for (const sc of later) {
      const measured = await benchLater(sc);
      for (const r of measured) process.stdout.write(`  [${new Date().toISOString()}] ${r.name}: ${Math.round(r.value)} ${r.unit}${r.baseline === undefined ? '' : ` (${(r.value / r.baseline).toFixed(2)}x ${r.baselineName ?? ''})`}; ${r.note ?? ''}\n`);
      rows.push(...measured);
    }
    return rows;
  }
  for (const sc of scenarios()) {
    const measured = await benchScenario(sc);
    if (measured === undefined) return rows;
    // Each scenario as it ends (a grid runs for most of an hour).
    for (const r of measured.rows) process.stdout.write(`  [${new Date().toISOString()}] ${r.name}: ${Math.round(r.value)} ${r.unit}${r.baseline === undefined ? '' : ` (${(r.value / r.baseline).toFixed(2)}x ${r.baselineName ?? ''})`}; ${r.note ?? ''}\n`);
    process.stdout.write(`  ${measured.verdicts.join('; ')}\n`);
    rows.push(...measured.rows);
    verdicts.push(...measured.verdicts);
  }
  rows.push({ name: 'Issue 43 goals (<= 1.05x floor, <= 1 listing per 30 s, 0 duplicate sends) per listed sync', value: verdicts.filter((v) => v.startsWith('met')).length, unit: `of ${verdicts.length} met`, note: verdicts.join('; ') });
  return rows;
}

/** The scenario's real server, or undefined (said on stdout) where this machine cannot set one up. */
async function startOrSkip(sc: Scenario): Promise<RealGraphiti | undefined> {
  try {
    return await startRealGraphiti({ generation: sc.generation, transport: 'http', groupId: GROUP, llmDelayMs: sc.delayMs });
  } catch (error) {
    if (!(error instanceof ServerSetupError)) throw error;
    process.stdout.write(`\n  real Graphiti bench skipped: ${error.message}\n`);
    return undefined;
  }
}

async function benchScenario(sc: Scenario): Promise<{ rows: Row[]; verdicts: string[] } | undefined> {
  const real = await startOrSkip(sc);
  if (real === undefined) return undefined;
  const proxy = await meteringProxy(real.url);
  // The server's rules pinned: the grid measures the schedule, and a first run's probe (once per
  // server build, at the end of the run that sees all of ours) is not part of the floor either.
  const env = { MADEINOZ_KNOWLEDGE_DB: 'falkordb', MADEINOZ_KNOWLEDGE_TIMEOUT: '60000', MADEINOZ_KNOWLEDGE_RETRY_DEADLINE: '60000', MADEINOZ_KNOWLEDGE_SERVER_RULES: sc.generation };
  const boxes: Sandbox[] = [];
  const box = (group: string) => {
    const b = makeSandbox(proxy.url, { ...env, MADEINOZ_KNOWLEDGE_GROUP_ID: group });
    boxes.push(b);
    return b;
  };
  // The local server's "supervisor", as runtime.json names it (the bench started the server itself).
  const supervisor = await startFakeSupervisor();
  try {
    // A floor first and after each round (this machine is shared: its load drifts); each sync's baseline is the mean of the floors on either side.
    const rounds: Measured[] = [];
    let floorBefore = await floor(real, sc, 0);
    for (let round = 1; round <= ROUNDS; round++) {
      const listed = await timedSync(real, sc, proxy, box(`${GROUP}_listed_${round}`), 'Listed', 200_000 + 1_000 * round);
      let direct: RunResult | undefined;
      if (sc.direct) {
        const directBox = box(`${GROUP}_direct_${round}`);
        writeLocalRuntime(directBox.config().stateDir, real, supervisor, { url: proxy.url });
        direct = await timedSync(real, sc, proxy, directBox, 'Direct', 300_000 + 1_000 * round);
      }
      const floorAfter = await floor(real, sc, round);
      rounds.push({ round, floorMs: (floorBefore + floorAfter) / 2, floors: [floorBefore, floorAfter], listed, direct });
      floorBefore = floorAfter;
    }

    const noChange: number[] = [];
    const health: number[] = [];
    if (sc.direct) {
      const listingBox = boxes[0] as Sandbox;
      for (let i = 0; i < 3; i++) {
        let t = Date.now();
        const run = await runCli(listingBox.env, ['sync', '--json'], { built: true });
        noChange.push(Date.now() - t);
        if (run.code !== 0) throw new Error(`no-change sync exited ${run.code}`);
        t = Date.now();
        await runCli(listingBox.env, ['health'], { built: true });
        health.push(Date.now() - t);
      }
    }
    const setting = `graphiti-core ${sc.generation}, ${FOREIGN.toLocaleString('en')} foreign episodes in each measurement's own group, stand-in LLM ${sc.delayMs} ms per call`;
    const s = (ms: number | undefined) => (ms === undefined ? '?' : (ms / 1000).toFixed(1));
    const describe = (r: RunResult, floorMs: number) => {
      const share = (100 * r.listings.ms) / floorMs;
      const server = r.serverDoneMs === undefined ? '' : `; the server done with ours at ${s(r.serverDoneMs)} s (${(r.serverDoneMs / floorMs).toFixed(2)}x the floor), the run ended ${s(r.ms - r.serverDoneMs)} s later`;
      return `${r.listings.count} listings (${r.listings.count - r.samples} full and ${r.samples} pace samples of a tenth of the group; ${r.listingsBeforeSend} before the first send; ${listingsPer30s(r).toFixed(2)} per 30 s; weighed by what each asked for, ${r.fullEquivalents.toFixed(1)} full listings, ${per30s(r.fullEquivalents, r.ms).toFixed(2)} per 30 s), ${(r.listings.bytes / 1e6).toFixed(1)} MB listed, listing time ${(r.listings.ms / 1000).toFixed(1)} s = ${share.toFixed(1)} % of the floor; ${r.duplicates} duplicate sends, ${r.resent} judged dropped and re-sent; first send at ${s(r.firstAddMs)} s, listings at ${r.listingStartsMs.map((l) => `${s(l.ms)}${l.sample ? ' (sample)' : ''}`).join(', ')} s${server}`;
    };
    const rows: Row[] = [];
    const verdicts: string[] = [];
    const where = `${sc.generation}, ${sc.files} notes, ${sc.delayMs} ms`;
    for (const m of rounds) {
      const tag = `${ROUNDS > 1 ? `, round ${m.round}` : ''} [${where}]`;
      const r = m.listed;
      const ratio = r.ms / m.floorMs;
      const missed = [ratio > GOALS.ratio ? `${ratio.toFixed(2)}x the floor` : '', listingsPer30s(r) > GOALS.listingsPer30s ? `${listingsPer30s(r).toFixed(2)} listings per 30 s` : '', r.duplicates > GOALS.duplicates ? `${r.duplicates} duplicate sends` : ''].filter((x) => x !== '');
      // What no schedule can avoid: a first run's listing before sending, and the confirming listing, which starts once the server is done.
      const bound = 1.05 * m.floorMs + r.beforeSendListingMs + r.lastFullListingMs;
      const beside = ratio > GOALS.ratio ? `; ${r.ms <= bound ? 'within' : 'beyond'} 1.05x the floor plus the listing before the first send and the confirming one (${(bound / m.floorMs).toFixed(2)}x)` : '';
      const least = leastPossible(r, m.floorMs);
      const outOfReach = [least.ratio > GOALS.ratio ? 'the ratio' : '', least.listingsPer30s > GOALS.listingsPer30s ? 'the listings' : least.learningPer30s > GOALS.listingsPer30s ? 'the listings for a schedule that learns the pace' : ''].filter((x) => x !== '');
      const reach = missed.length === 0 ? '' : `; the least any schedule could take here: ${least.ratio.toFixed(3)}x, ${least.listingsPer30s.toFixed(2)} listings per 30 s knowing the end, ${least.learningPer30s.toFixed(2)} learning it (${outOfReach.length === 0 ? 'both goals within reach' : `${outOfReach.join(' and ')} out of reach of every schedule`})`;
      verdicts.push(`${missed.length === 0 ? 'met' : `missed (${missed.join(', ')}${beside}${reach})`} [${where}${ROUNDS > 1 ? `, round ${m.round}` : ''}]`);
      rows.push(
        { name: `Floor: ${sc.files} episodes straight through add_memory, no listing, until all processed${tag}`, value: m.floorMs, unit: 'ms', note: `mean of ${Math.round(m.floors[0])} ms before and ${Math.round(m.floors[1])} ms after the syncs; ${setting}` },
        { name: `sync --wait of ${sc.files} notes, confirmed through get_episodes listings${tag}`, value: r.ms, unit: 'ms', baseline: m.floorMs, baselineName: 'floor', note: describe(r, m.floorMs) },
      );
      if (m.direct !== undefined) {
        rows.push({
          name: `sync --wait of ${sc.files} notes, local server's direct confirmation${tag}`,
          value: m.direct.ms,
          unit: 'ms',
          baseline: m.floorMs,
          baselineName: 'floor',
          note: `${describe(m.direct, m.floorMs)}; ${m.direct.direct.calls} FalkorDB queries, ${(m.direct.direct.usec / 1000).toFixed(1)} ms in all on the server`,
        });
      }
    }
    if (noChange.length > 0) rows.push({ name: `Sync with nothing changed, ${sc.files} confirmed files (median of 3) [${where}]`, value: median(noChange), unit: 'ms', baseline: median(health), baselineName: '`health`', note: `health (process start + one MCP call) ${Math.round(median(health))} ms` });
    return { rows, verdicts };
  } finally {
    supervisor.child.kill('SIGTERM');
    await proxy.close();
    await real.stop();
    for (const b of boxes) b.cleanup();
  }
}
