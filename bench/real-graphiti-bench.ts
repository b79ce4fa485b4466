/**
 * Issue 11: the product against the real Graphiti MCP server (FalkorDB, stand-in LLM answering
 * every call after a fixed delay). Initial sync of 200 files, timed until every file is confirmed,
 * beside the server's own processing floor (it works through one group's queue one episode at a
 * time: the sum of its "Completed add_episode in X ms"); and a run with nothing changed, beside
 * `health` (process start + one MCP round trip) in the same run.
 * BENCH_GRAPHITI_GENERATION (default 0.31.1), BENCH_GRAPHITI_FILES (200), BENCH_GRAPHITI_LLM_DELAY_MS (20).
 */
import { ServerSetupError } from '../src/lib/server/errors.js';
import { makeSandbox } from '../test/support/sandbox.js';
import { runCli, startRealGraphiti } from '../test/support/real-graphiti.js';
import { median, type Row } from './util.js';

const GENERATION = process.env.BENCH_GRAPHITI_GENERATION ?? '0.31.1';
const FILES = Number(process.env.BENCH_GRAPHITI_FILES ?? 200);
const DELAY = Number(process.env.BENCH_GRAPHITI_LLM_DELAY_MS ?? 20);
const SERVICES = ['Aurora', 'Basalt', 'Cobalt', 'Dynamo', 'Ember', 'Fjord', 'Gala'];

export async function benchRealGraphiti(): Promise<Row[]> {
  let real;
  try {
    real = await startRealGraphiti({ generation: GENERATION, transport: 'http', groupId: 'gms_bench', llmDelayMs: DELAY });
  } catch (error) {
    if (!(error instanceof ServerSetupError)) throw error;
    process.stdout.write(`\n  real Graphiti bench skipped: ${error.message}\n`);
    return [];
  }
  const box = makeSandbox(real.url, { MADEINOZ_KNOWLEDGE_DB: 'falkordb', MADEINOZ_KNOWLEDGE_GROUP_ID: 'gms_bench', MADEINOZ_KNOWLEDGE_TIMEOUT: '60000', MADEINOZ_KNOWLEDGE_RETRY_DEADLINE: '60000' });
  try {
    for (let i = 0; i < FILES; i++) {
      const a = SERVICES[i % SERVICES.length] as string;
      const b = SERVICES[(i + 3) % SERVICES.length] as string;
      box.pai(`LEARNING/2026-01/note-${i}.md`, `---\ncapture_type: LEARNING\ntimestamp: 2026-01-04 10:30:00 PST\n---\n# Note ${i}\n\n${a} calls ${b} for request ${i}. ${b} answers ${a} within budget ${i}.\n`);
    }
    const t0 = Date.now();
    const first = await runCli(box.env, ['sync', '--json', '--wait', '1800000'], { timeoutMs: 1_900_000 });
    const initialMs = Date.now() - t0;
    const summary = (first.stdout.trim() === '' ? { confirmed: -1 } : JSON.parse(first.stdout)) as { confirmed: number };
    if (first.code !== 0 || summary.confirmed !== FILES) throw new Error(`initial sync: exit ${first.code}, confirmed ${summary.confirmed}/${FILES}: ${first.stderr.slice(-500)}`);
    const floorMs = [...real.log().matchAll(/Completed add_episode in ([\d.]+) ms/g)].reduce((sum, m) => sum + Number(m[1]), 0);

    const noChange: number[] = [];
    const health: number[] = [];
    for (let i = 0; i < 5; i++) {
      let t = Date.now();
      const run = await runCli(box.env, ['sync', '--json']);
      noChange.push(Date.now() - t);
      if (run.code !== 0) throw new Error(`no-change sync exited ${run.code}`);
      t = Date.now();
      await runCli(box.env, ['health']);
      health.push(Date.now() - t);
    }
    const note = `graphiti-core ${GENERATION}, stand-in LLM ${DELAY} ms per call, ${real.llm.calls.length} LLM calls`;
    return [
      { name: `Initial sync of ${FILES} files until all confirmed (sync --wait)`, value: initialMs, unit: 'ms', baseline: floorMs, baselineName: 'server processing floor', note: `floor ${Math.round(floorMs)} ms = sum of the server's add_episode times; ${note}` },
      { name: `Sync with nothing changed, ${FILES} confirmed files (median of 5)`, value: median(noChange), unit: 'ms', baseline: median(health), baselineName: '`health`', note: `health (process start + one MCP call) ${Math.round(median(health))} ms` },
    ];
  } finally {
    await real.stop();
    box.cleanup();
  }
}
