/**
 * Issue 3: scanning 10,000 unchanged files (a sync run with nothing to do) beside a bare
 * readdir+stat walk of the same tree; and the initial sync of 1,000 files against the test
 * server answering every request after 20 ms, beside the lower bound requests × latency ÷ concurrency
 * and beside the transport floor measured in turn with it (BENCH_SYNC_PAIRS pairs, default 3).
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildConfig } from '../src/lib/config/config.js';
import { resolveSources } from '../src/lib/memory/sources.js';
import { scanSources } from '../src/lib/memory/scan.js';
import { McpClient } from '../src/lib/mcp/client.js';
import { runSync } from '../src/lib/sync/sync.js';
import { startGraphitiServer } from '../test/support/graphiti-server.js';
import { median, serverProcess, type Row } from './util.js';

function makeTree(root: string, files: number): void {
  for (let i = 0; i < files; i++) {
    const dir = join(root, 'pai', 'MEMORY', 'LEARNING', i % 2 === 0 ? 'SYSTEM' : 'ALGORITHM', `2026-${String((i % 12) + 1).padStart(2, '0')}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, `2026-01-${String(i).padStart(5, '0')}_LEARNING_note.md`),
      `---\ncapture_type: LEARNING\ntimestamp: 2026-01-04 10:30:00 PST\ntags: [bench]\n---\n# Note ${i}\n\nA learning about item ${i}. ${'Some realistic text. '.repeat(10)}\n`,
    );
  }
}

function bareWalk(dir: string): number {
  let n = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) n += bareWalk(p);
    else {
      statSync(p);
      n++;
    }
  }
  return n;
}

function envFor(root: string, url: string, extra: Record<string, string> = {}) {
  return buildConfig({
    HOME: root,
    PAI_DIR: join(root, 'pai'),
    CLAUDE_CONFIG_DIR: join(root, 'claude'),
    MADEINOZ_KNOWLEDGE_STATE_DIR: join(root, 'state'),
    MADEINOZ_KNOWLEDGE_MCP_URL: url,
    ...extra,
  });
}

/** The initial sync of 1,000 files against a fresh test server answering every request after 20 ms. */
async function initialSync(concurrency: number): Promise<{ elapsed: number; requests: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'gms-bench-sync-'));
  const slow = await serverProcess({ processingDelayMs: 0, faults: { latencyMs: 20 } });
  try {
    makeTree(dir, 1000);
    const config = envFor(dir, slow.url, { MADEINOZ_KNOWLEDGE_CONCURRENCY: String(concurrency) });
    const t0 = performance.now();
    const summary = await runSync(config);
    const elapsed = performance.now() - t0;
    if (summary.added !== 1000) throw new Error(`added ${summary.added}`);
    const http = (await (await fetch(`${slow.control}/http`)).json()) as Array<{ method: string }>;
    return { elapsed, requests: http.filter((h) => h.method === 'POST').length };
  } finally {
    slow.child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The same 1,000 add_memory calls straight through our MCP client (connected first), against a fresh server of the same kind: the transport's own floor. */
async function transportFloor(concurrency: number): Promise<number> {
  const slow = await serverProcess({ processingDelayMs: 0, faults: { latencyMs: 20 } });
  const raw = new McpClient({ url: slow.url });
  try {
    await raw.connect();
    const r0 = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < 1000) {
          const i = next++;
          await raw.callTool('add_memory', { name: `raw ${i}`, episode_body: 'x'.repeat(300), group_id: 'raw', source: 'text', source_description: 'raw' });
        }
      }),
    );
    return performance.now() - r0;
  } finally {
    await raw.close();
    slow.child.kill('SIGTERM');
  }
}

export async function benchSync(): Promise<Row[]> {
  const rows: Row[] = [];
  const runs = Number(process.env.BENCH_RUNS ?? 5);

  // --- 10,000 unchanged files
  const big = mkdtempSync(join(tmpdir(), 'gms-bench-scan-'));
  const server = await startGraphitiServer({ processingDelayMs: 0 });
  try {
    makeTree(big, 10_000);
    const config = envFor(big, server.url, { MADEINOZ_KNOWLEDGE_CONCURRENCY: '16' });
    const t0 = performance.now();
    await runSync(config, { waitMs: 120_000 });
    const initial10k = performance.now() - t0;
    await server.whenIdle();
    await runSync(config);
    const walk: number[] = [];
    const scan: number[] = [];
    const noop: number[] = [];
    for (let i = 0; i < runs; i++) {
      let t = performance.now();
      const n = bareWalk(join(big, 'pai', 'MEMORY'));
      walk.push(performance.now() - t);
      if (n !== 10_000) throw new Error(`walk found ${n}`);
      t = performance.now();
      const result = await scanSources(resolveSources(config), { exclude: [], maxFileBytes: config.maxFileBytes });
      scan.push(performance.now() - t);
      if (result.files.length !== 10_000) throw new Error(`scan found ${result.files.length}`);
      t = performance.now();
      const summary = await runSync(config);
      noop.push(performance.now() - t);
      if (summary.unchanged !== 10_000) throw new Error(`unchanged ${summary.unchanged}`);
    }
    const bare = median(walk);
    rows.push({ name: 'bare readdir+stat walk, 10,000 files', value: bare, unit: 'ms' });
    rows.push({ name: 'scanSources, 10,000 files', value: median(scan), unit: 'ms', baseline: bare, baselineName: 'bare walk' });
    rows.push({ name: 'sync run, 10,000 unchanged files (state load+scan+save)', value: median(noop), unit: 'ms', baseline: bare, baselineName: 'bare walk', note: 'no file is read, no request is sent' });
    rows.push({ name: 'initial sync, 10,000 files, 0 ms server, concurrency 16', value: initial10k, unit: 'ms', note: 'including confirmation' });
  } finally {
    await server.close();
    rmSync(big, { recursive: true, force: true });
  }

  // --- 1,000 files, 20 ms per request (server in its own process). The bound is arithmetic and
  // knows nothing of the machine's load; the transport floor (the same 1,000 add_memory through a
  // bare McpClient, fresh server) is measured beside each sync, in turn (floor, sync, floor, sync …),
  // so that both meet the same load and the per-pair ratio says what the sync itself adds.
  const pairs = Number(process.env.BENCH_SYNC_PAIRS ?? 3);
  for (const concurrency of [4, 8]) {
    const bound = (1000 * 20) / concurrency;
    const syncs: number[] = [];
    const floors: number[] = [];
    let extraPosts = 0;
    for (let pair = 0; pair < pairs; pair++) {
      floors.push(await transportFloor(concurrency));
      const { elapsed, requests } = await initialSync(concurrency);
      syncs.push(elapsed);
      extraPosts = requests - 1000;
    }
    const perPair = syncs.map((s, i) => s / (floors[i] as number));
    rows.push({
      name: `initial sync, 1,000 files, 20 ms/request, concurrency ${concurrency}`,
      value: median(syncs),
      unit: 'ms',
      baseline: bound,
      baselineName: 'lower bound',
      note: `lower bound 1000 add_memory × 20 ms ÷ ${concurrency} = ${bound} ms; server in its own process; median of ${pairs} (${syncs.map((x) => x.toFixed(0)).join(', ')})`,
    });
    rows.push({
      name: `  same 1,000 add_memory, bare McpClient (transport floor), concurrency ${concurrency}`,
      value: median(floors),
      unit: 'ms',
      baseline: bound,
      baselineName: 'lower bound',
      note: `measured in turn with each sync (${floors.map((x) => x.toFixed(0)).join(', ')}); the sync used ${extraPosts} POSTs beyond the 1,000 add_memory (initialize, tools/list, get_episodes)`,
    });
    rows.push({
      name: `  sync ÷ transport floor, same pair, concurrency ${concurrency}`,
      value: median(perPair),
      unit: 'x',
      note: `median of the per-pair ratios (${perPair.map((x) => x.toFixed(2)).join(', ')}): what the sync adds to the transport under the same load`,
    });
  }
  return rows;
}
