/** Shared helpers for benchmarks: timing child processes, medians, table output. */
import { spawn, spawnSync, type ChildProcess, type SpawnSyncOptions } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface Row {
  name: string;
  value: number;
  unit: string;
  /** Reference figure measured in the same run (e.g. bare node), for the ratio column. */
  baseline?: number | undefined;
  baselineName?: string | undefined;
  note?: string | undefined;
}

export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 0 ? ((s[mid - 1] as number) + (s[mid] as number)) / 2 : (s[mid] as number);
}

export function percentile(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] as number;
}

/** Wall time of a fresh process, in ms, median over `runs` (after one warm-up). */
export function timeProcess(cmd: string, args: string[], runs: number, options: SpawnSyncOptions = {}): number {
  const samples: number[] = [];
  for (let i = 0; i <= runs; i++) {
    const t0 = process.hrtime.bigint();
    const r = spawnSync(cmd, args, { stdio: ['pipe', 'ignore', 'ignore'], cwd: ROOT, ...options });
    const t1 = process.hrtime.bigint();
    if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}`);
    if (i > 0) samples.push(Number(t1 - t0) / 1e6);
  }
  return median(samples);
}

/**
 * A command against a baseline command, run in turn (B A B A …) so that the machine's drift hits
 * both alike: the medians of each, and the median of the per-pair ratios A/B (what to quote).
 */
export function timePaired(a: { cmd: string; args: string[] }, b: { cmd: string; args: string[] }, runs: number, options: SpawnSyncOptions = {}): { a: number; b: number; ratio: number } {
  const as: number[] = [];
  const bs: number[] = [];
  const once = (c: { cmd: string; args: string[] }) => {
    const t0 = process.hrtime.bigint();
    const r = spawnSync(c.cmd, c.args, { stdio: ['pipe', 'ignore', 'ignore'], cwd: ROOT, ...options });
    if (r.status !== 0) throw new Error(`${c.cmd} ${c.args.join(' ')} exited ${r.status}`);
    return Number(process.hrtime.bigint() - t0) / 1e6;
  };
  once(b);
  once(a); // warm-up pair, not counted
  for (let i = 0; i < runs; i++) {
    bs.push(once(b));
    as.push(once(a));
  }
  return { a: median(as), b: median(bs), ratio: median(as.map((x, i) => x / (bs[i] as number))) };
}

/** Builds dist/ from this checkout now, whatever is there: a bench that times `node dist/cli.js` must time this code, not an older build. */
export function buildNow(): void {
  const r = spawnSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) throw new Error('build failed');
}

export function ensureBuilt(): void {
  if (existsSync(`${ROOT}dist/cli.js`) && existsSync(`${ROOT}dist/hooks/session-start.js`)) return;
  const r = spawnSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) throw new Error('build failed');
}

export function printTable(title: string, rows: Row[]): void {
  process.stdout.write(`\n${title}\n`);
  const lines = rows.map((r) => {
    // A ratio (unit x) needs two decimals: 1.04 and 1.0 say different things.
    const value = `${r.value.toFixed(r.unit === 'x' ? 2 : r.value >= 100 ? 0 : 1)} ${r.unit}`;
    const ratio = r.baseline === undefined || r.baseline === 0 ? '' : `${(r.value / r.baseline).toFixed(2)}x ${r.baselineName ?? 'baseline'}`;
    return [r.name, value, ratio, r.note ?? ''];
  });
  const widths = [0, 1, 2].map((i) => Math.max(...lines.map((l) => (l[i] as string).length), 4));
  for (const l of lines) {
    process.stdout.write(`  ${(l[0] as string).padEnd(widths[0] as number)}  ${(l[1] as string).padStart(widths[1] as number)}  ${(l[2] as string).padEnd(widths[2] as number)}  ${l[3]}\n`);
  }
}

/**
 * The Graphiti test server in its own process, so that serving it does not share an event loop
 * (and a core) with what is measured, nor with another fake in the bench process. It exits when
 * the bench process does (stdin closes).
 */
export async function serverProcess(options: object): Promise<{ url: string; child: ChildProcess; control: string }> {
  const child = spawn(`${ROOT}node_modules/.bin/tsx`, [`${ROOT}test/support/graphiti-server-main.ts`, '--control', '--exit-on-stdin-end', '--options', JSON.stringify(options)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    const rl = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    rl.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`server exited ${code}`)));
  });
  const { url } = JSON.parse(line) as { url: string };
  return { url, child, control: url.replace(/\/mcp$/, '/__control') };
}
