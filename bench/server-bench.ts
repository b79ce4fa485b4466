/**
 * Issue 17: `graphiti-memory-sync server start` wall time, first (cold: an empty cache folder, so
 * it builds the pinned environment; pip's own download cache stays as it is on the machine) and
 * warm (environment built, so only FalkorDB + the Graphiti server start), each followed by a
 * `server stop`. Baseline: `server stop` with nothing running (the CLI's own start-up), same run.
 * The LLM is the test stand-in (users bring their own); nothing is sent to it during a start.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cacheRoot } from '../src/lib/server/environment.js';
import { newestGeneration } from '../src/lib/server/user-settings.js';
import { isolatedEnv } from '../test/support/isolated-env.js';
import { startStandInLlm } from '../test/support/standin-llm/server.js';
import { ROOT, type Row } from './util.js';

function timedCli(env: Record<string, string>, args: string[]): number {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'src', 'cli.ts'), ...args], { env, cwd: ROOT, encoding: 'utf8', timeout: 900_000 });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`server ${args.join(' ')} exited ${r.status}: ${r.stderr.trim().split('\n').pop()}`);
  return ms;
}

export async function benchServer(): Promise<Row[]> {
  const root = mkdtempSync(join(tmpdir(), 'gms-bench-server-'));
  const coldCache = join(root, 'cold-cache');
  const llm = await startStandInLlm();
  const { MADEINOZ_KNOWLEDGE_MCP_URL: _unset, ...base } = isolatedEnv(root, 'unused');
  const env = { ...base, XDG_DATA_HOME: join(root, 'data'), OPENAI_API_KEY: 'stand-in', OPENAI_BASE_URL: llm.url, GMS_SERVER_MODEL: 'stand-in', GMS_SERVER_EMBEDDER_MODEL: 'stand-in-embedder', GMS_SERVER_GENERATION: newestGeneration().id };
  try {
    const cli = timedCli({ ...env, GMS_GRAPHITI_CACHE: cacheRoot(process.env) }, ['server', 'stop']);
    const skipCold = process.env.BENCH_SERVER_COLD === '0';
    const cold = skipCold ? undefined : timedCli({ ...env, GMS_GRAPHITI_CACHE: coldCache }, ['server', 'start']);
    if (!skipCold) timedCli({ ...env, GMS_GRAPHITI_CACHE: coldCache }, ['server', 'stop']);
    // Warm: the environment is in the cache (the one just built, or the shared one if cold was skipped).
    const warmEnv = { ...env, GMS_GRAPHITI_CACHE: skipCold ? cacheRoot(process.env) : coldCache };
    const warm: number[] = [];
    const stops: number[] = [];
    for (let i = 0; i < 3; i++) {
      warm.push(timedCli(warmEnv, ['server', 'start']));
      stops.push(timedCli(warmEnv, ['server', 'stop']));
    }
    const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
    return [
      ...(cold === undefined ? [] : [{ name: 'server start, first (install into an empty cache)', value: cold, unit: 'ms', baseline: med(warm), baselineName: 'warm start', note: 'pip download cache as found on this machine' }]),
      { name: 'server start, warm (median of 3)', value: med(warm), unit: 'ms', baseline: cli, baselineName: 'CLI start-up (server stop, nothing running)' },
      { name: 'server stop (median of 3)', value: med(stops), unit: 'ms', baseline: cli, baselineName: 'CLI start-up' },
    ];
  } finally {
    spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'src', 'cli.ts'), 'server', 'stop'], { env: { ...env, GMS_GRAPHITI_CACHE: coldCache }, cwd: ROOT });
    await llm.close();
    rmSync(root, { recursive: true, force: true });
  }
}
