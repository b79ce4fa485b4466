/**
 * Watch mode benchmarks.
 *
 * (a) Save → add_memory latency: a note is written, and the clock stops when the test server
 *     logs the add_memory for it (the call's arrival time, taken from the server's call log via
 *     its 'call' event — no polling). 50 saves each with the debounce at its default and at 50 ms;
 *     median and p95. Includes the write-finished check (150 ms) and one sync pass.
 *     Also with a new pass process for each save (it exits after each pass), which is what a save
 *     after a pause longer than DEFAULT_PASS_PROCESS_IDLE_MS costs. The watcher runs in this
 *     process, from dist when the build is fresh (else from src).
 * (b) The same through the CLI as users run it (`node dist/cli.js watch --json` as a child: the
 *     reporter, the heap release of run.ts, the pass process), BENCH_WATCH_CLI_SAVES saves (30).
 * (c) Resident memory (VmRSS) of the watch process (the CLI as a child) plus the process running
 *     its passes while there is one (pass-process.ts; summed), with 10,000 notes under watch, read
 *     from /proc right after everything is confirmed (the pass process still kept) and once idle
 *     (it has exited); beside the same process watching an empty folder. Plus its CPU time while
 *     idle. Over BENCH_WATCH_RSS_RUNS runs (10): whether V8 collects the start-up scan's garbage
 *     varied from run to run, so the worst run and the count over 100 MiB are what to quote
 *     (BENCH_WATCH_RSS_RUNS=0 skips them).
 *
 * BENCH_WATCH_BASELINE_CLI=<another build>/dist/cli.js runs (b) and (c) with that build too, in
 * turn with this one, for same-run figures (say, main's build from `git archive main`).
 * BENCH_WATCH_POLL=1 runs (b) and (c) with `watch --poll` (stat polling, every 1.5 s).
 * Standalone: `npx tsx bench/watch-bench.ts` prints a table. BENCH_WATCH_RSS=0 skips (b) and (c).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { buildConfig } from '../src/lib/config/config.js';
import type { PassEvent, Watcher, WatcherOptions } from '../src/lib/watch/watch.js';
import { DEFAULT_PASS_PROCESS_IDLE_MS } from '../src/lib/watch/pass-process.js';
import { startGraphitiServer, type GraphitiTestServer, type ToolCallLog } from '../test/support/graphiti-server.js';
import { median, percentile, printTable, ROOT, type Row } from './util.js';
import { isolatedEnv } from '../test/support/isolated-env.js';

const SAVES = Number(process.env.BENCH_WATCH_SAVES ?? 50);
const TREE_FILES = Number(process.env.BENCH_WATCH_FILES ?? 10_000);
const WARMUP_SAVES = 3;
/** BENCH_WATCH_POLL=1: the CLI watches with --poll. */
const POLL = process.env.BENCH_WATCH_POLL === '1';

function watchEnv(root: string, url: string, extra: Record<string, string> = {}): Record<string, string> {
  mkdirSync(join(root, 'notes'), { recursive: true });
  return isolatedEnv(root, url, {
    MADEINOZ_KNOWLEDGE_SYNC_PAI: 'false',
    MADEINOZ_KNOWLEDGE_SYNC_AUTO_MEMORY: 'false',
    MADEINOZ_KNOWLEDGE_SYNC_PATHS: `notes=${join(root, 'notes')}`,
    MADEINOZ_KNOWLEDGE_LOG_LEVEL: 'warn',
    ...extra,
  });
}

function note(i: number, tag: string): string {
  return `---\ncapture_type: LEARNING\ntags: [bench]\n---\n# ${tag} note ${i}\n\nA learning about item ${i} (${tag}). ${'Some realistic text. '.repeat(8)}\n`;
}

function nextPass(watcher: Watcher, match: (e: PassEvent) => boolean, timeoutMs = 30_000): Promise<PassEvent> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      watcher.off('pass', on);
      reject(new Error(`no matching pass within ${timeoutMs} ms`));
    }, timeoutMs);
    const on = (e: PassEvent) => {
      if (!match(e)) return;
      clearTimeout(timer);
      watcher.off('pass', on);
      resolve(e);
    };
    watcher.on('pass', on);
  });
}

/** Resolves with the first add_memory the server logs whose body carries `token`. */
function addMemoryFor(server: GraphitiTestServer, token: string, timeoutMs = 30_000): Promise<ToolCallLog> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      server.events.off('call', on);
      reject(new Error(`no add_memory for ${token} within ${timeoutMs} ms`));
    }, timeoutMs);
    const on = (entry: ToolCallLog) => {
      if (entry.tool !== 'add_memory' || !String(entry.args.episode_body ?? '').includes(token)) return;
      clearTimeout(timer);
      server.events.off('call', on);
      resolve(entry);
    };
    server.events.on('call', on);
  });
}

async function saveLatency(debounceMs: number | undefined, passProcessIdleMs?: number): Promise<number[]> {
  const root = mkdtempSync(join(tmpdir(), 'gms-bench-watch-'));
  const server = await startGraphitiServer({ processingDelayMs: 0 });
  const config = buildConfig(watchEnv(root, server.url, debounceMs === undefined ? {} : { MADEINOZ_KNOWLEDGE_WATCH_DEBOUNCE: String(debounceMs) }));
  const { createWatcher } = await watchModule();
  const watcher = createWatcher({ config, ...(passProcessIdleMs === undefined ? {} : { passProcessIdleMs }) });
  try {
    const initial = nextPass(watcher, (e) => e.reason === 'initial');
    await watcher.start();
    await initial;
    const samples: number[] = [];
    // The first saves warm up lazily loaded modules and the JIT; they are not counted.
    for (let i = -WARMUP_SAVES; i < SAVES; i++) {
      const token = `save-token-${debounceMs ?? 'default'}-${i}`;
      const received = addMemoryFor(server, token);
      const passDone = nextPass(watcher, (e) => e.added + e.updated > 0);
      const t0 = Date.now();
      writeFileSync(join(root, 'notes', `save-${i + WARMUP_SAVES}.md`), note(i, token));
      const call = await received;
      if (i >= 0) samples.push(call.at - t0);
      await passDone;
    }
    return samples;
  } finally {
    await watcher.stop();
    await server.close();
    rmSync(root, { recursive: true, force: true });
  }
}

/** Whether dist/ holds a build of the current watch sources (then it is what the bench runs, as users do). */
function distIsFresh(): boolean {
  const distWatch = join(ROOT, 'dist', 'lib', 'watch', 'watch.js');
  if (!existsSync(join(ROOT, 'dist', 'cli.js')) || !existsSync(distWatch)) return false;
  const srcDir = join(ROOT, 'src', 'lib', 'watch');
  const newestSource = Math.max(...readdirSync(srcDir).map((f) => statSync(join(srcDir, f)).mtimeMs));
  return statSync(distWatch).mtimeMs >= newestSource;
}

/** The watch module the save bench runs in this process: the build when fresh (its pass process then starts as users' does), else the source. */
async function watchModule(): Promise<{ createWatcher: (options: WatcherOptions) => Watcher }> {
  if (distIsFresh()) return (await import(pathToFileURL(join(ROOT, 'dist', 'lib', 'watch', 'watch.js')).href)) as { createWatcher: (options: WatcherOptions) => Watcher };
  return import('../src/lib/watch/watch.js');
}

function makeTree(root: string, files: number): void {
  for (let i = 0; i < files; i++) {
    const dir = join(root, 'notes', i % 2 === 0 ? 'SYSTEM' : 'ALGORITHM', `2026-${String((i % 12) + 1).padStart(2, '0')}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `note-${String(i).padStart(5, '0')}.md`), note(i, 'tree'));
  }
}

interface ProcStatus {
  rssKb: number;
  hwmKb: number;
  /** Of the RSS: mapped files (the node binary, shared libraries) and anonymous memory (heaps). */
  rssFileKb: number;
  rssAnonKb: number;
}

function procStatus(pid: number): ProcStatus {
  const text = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? NaN);
  return { rssKb: kb('VmRSS'), hwmKb: kb('VmHWM'), rssFileKb: kb('RssFile'), rssAnonKb: kb('RssAnon') };
}

/** The pids of a process's descendants (its pass process, while one runs), from /proc/<pid>/stat. */
function descendants(pid: number): number[] {
  const parentOf = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const ppid = Number(readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]?.split(' ')[1]);
      parentOf.set(Number(entry), ppid);
    } catch {
      // gone meanwhile
    }
  }
  const out: number[] = [];
  const walk = (p: number) => {
    for (const [child, parent] of parentOf) {
      if (parent !== p) continue;
      out.push(child);
      walk(child);
    }
  };
  walk(pid);
  return out;
}

/** VmRSS of the watch process and of any process it started (summed: shared pages count twice, so this errs high). */
function treeStatus(pid: number): ProcStatus & { processes: number } {
  const own = procStatus(pid);
  const kids = descendants(pid).map((p) => {
    try {
      return procStatus(p);
    } catch {
      return undefined;
    }
  }).filter((s): s is ProcStatus => s !== undefined);
  const sum = (key: keyof ProcStatus) => kids.reduce((total, s) => total + s[key], own[key]);
  return { rssKb: sum('rssKb'), hwmKb: sum('hwmKb'), rssFileKb: sum('rssFileKb'), rssAnonKb: sum('rssAnonKb'), processes: 1 + kids.length };
}

/** CPU time (user + system) of a process so far, in ms. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14, 15 of stat)
  return (ticks * 1000) / 100; // USER_HZ is 100 on Linux
}

/** A way to run the CLI: node's arguments before `watch --json`. */
interface CliSpec {
  label: string;
  args: string[];
}

/** How the CLI is run: BENCH_WATCH_CLI if set, the build if it is fresh, else the source through tsx's loader. */
function cliCommand(): CliSpec {
  const explicit = process.env.BENCH_WATCH_CLI;
  if (explicit !== undefined && explicit !== '') return withProbe({ label: `node ${explicit}`, args: [explicit] });
  if (distIsFresh()) return withProbe({ label: 'node dist/cli.js', args: [join(ROOT, 'dist', 'cli.js')] });
  return withProbe({ label: 'src via tsx loader (no fresh build)', args: ['--import', 'tsx', join(ROOT, 'src', 'cli.ts')] });
}

/** BENCH_WATCH_BASELINE_CLI: another build's cli.js (say, main's), run in turn with this one for same-run ratios. */
function baselineCommand(): CliSpec | undefined {
  const path = process.env.BENCH_WATCH_BASELINE_CLI;
  if (path === undefined || path === '') return undefined;
  return withProbe({ label: `baseline: node ${path}`, args: [path] });
}

/** The memory probe (bench only, no V8 flags): see watch-memory-probe.mjs. */
function withProbe(spec: CliSpec): CliSpec {
  return { label: spec.label, args: ['--import', pathToFileURL(join(ROOT, 'bench', 'watch-memory-probe.mjs')).href, ...spec.args] };
}

interface WatchProcess {
  child: ChildProcess;
  waitLine(match: (l: Record<string, unknown>) => boolean, timeoutMs: number): Promise<Record<string, unknown>>;
  stop(): Promise<number | null>;
}

function spawnWatch(env: Record<string, string>, cli: CliSpec): WatchProcess {
  const child = spawn(process.execPath, [...cli.args, 'watch', '--json', ...(POLL ? ['--poll'] : [])], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: Array<Record<string, unknown>> = [];
  const waiters: Array<{ match: (l: Record<string, unknown>) => boolean; resolve: (l: Record<string, unknown>) => void }> = [];
  let buffer = '';
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  child.stdout?.on('data', (d: Buffer) => {
    buffer += d.toString();
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const text = buffer.slice(0, nl).trim();
      buffer = buffer.slice(nl + 1);
      if (text === '') continue;
      const line = JSON.parse(text) as Record<string, unknown>;
      lines.push(line);
      for (const w of [...waiters]) {
        if (!w.match(line)) continue;
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(line);
      }
    }
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    waitLine(match, timeoutMs) {
      const found = lines.find(match);
      if (found !== undefined) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`watch child: no matching line within ${timeoutMs} ms; stderr: ${stderr.slice(-2000)}`)), timeoutMs);
        void exited.then((code) => reject(new Error(`watch child exited (${code}); stderr: ${stderr.slice(-2000)}`)));
        waiters.push({
          match,
          resolve: (l) => {
            clearTimeout(timer);
            resolve(l);
          },
        });
      });
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

interface MemoryFigures extends ProcStatus {
  /** VmRSS right after the last pass, the watch process and its pass process (still kept for the next pass). */
  warmRssKb: number;
  warmProcesses: number;
  /** Peak (VmHWM) of the watch process plus that of its pass process, read while it was still running (its peak is the initial sync's). */
  peakKb: number;
  /** How many processes were counted in the idle figure (1: the pass process had exited). */
  processes: number;
  /** process.memoryUsage() of the child, taken right after the RSS reading. */
  usage: NodeJS.MemoryUsage | undefined;
  initialSyncMs: number;
  /** VmRSS of the watch process alone 1 s after `ready` (its start-up scan done; the initial pass still running in its child). */
  startupRssKb: number;
  idleCpuMs: number;
  idleWindowMs: number;
}

/** Asks the child's probe for process.memoryUsage() (undefined if it does not answer within 5 s). */
async function probeUsage(child: ChildProcess, file: string): Promise<NodeJS.MemoryUsage | undefined> {
  child.kill('SIGUSR2');
  for (let i = 0; i < 100; i++) {
    if (existsSync(file)) {
      try {
        return JSON.parse(readFileSync(file, 'utf8')) as NodeJS.MemoryUsage;
      } catch {
        // Being written: read again.
      }
    }
    await sleep(50);
  }
  return undefined;
}

async function watchMemory(files: number, cli: CliSpec): Promise<MemoryFigures> {
  const root = mkdtempSync(join(tmpdir(), 'gms-bench-watch-rss-'));
  const server = await startGraphitiServer({ processingDelayMs: 0 });
  let proc: WatchProcess | undefined;
  try {
    makeTree(root, files);
    const probeFile = join(root, 'memory-usage.json');
    const env = { ...watchEnv(root, server.url, { MADEINOZ_KNOWLEDGE_CONCURRENCY: '64', MADEINOZ_KNOWLEDGE_RETRIES: '1', MADEINOZ_KNOWLEDGE_TIMEOUT: '60000' }), GMS_BENCH_MEMORY_PROBE: probeFile };
    const t0 = Date.now();
    proc = spawnWatch(env, cli);
    await proc.waitLine((l) => l.event === 'ready', 120_000);
    await sleep(1000);
    const startupRssKb = procStatus(proc.child.pid as number).rssKb;
    const initial = await proc.waitLine((l) => l.event === 'pass' && l.reason === 'initial', 900_000);
    const initialSyncMs = Date.now() - t0;
    if (Number(initial.added) !== files) throw new Error(`initial pass added ${String(initial.added)} of ${files} files`);
    // Then confirmation: once nothing is queued the watcher has no timer left and is idle.
    if (files > 0) await proc.waitLine((l) => l.event === 'pass' && l.queued === 0 && l.pending === 0, 300_000);
    const pid = proc.child.pid as number;
    const warm = treeStatus(pid);
    // The pass process is kept DEFAULT_PASS_PROCESS_IDLE_MS after the last pass, then exits: the
    // idle window starts once it has gone.
    await sleep(DEFAULT_PASS_PROCESS_IDLE_MS + 1000);
    // Idle window: nothing changes; the process should use (almost) no CPU.
    const idleWindowMs = Number(process.env.BENCH_WATCH_IDLE_MS ?? 5000);
    const cpu0 = cpuMs(pid);
    await sleep(idleWindowMs);
    const idleCpuMs = cpuMs(pid) - cpu0;
    const status = treeStatus(pid);
    const usage = await probeUsage(proc.child, probeFile);
    return { ...status, warmRssKb: warm.rssKb, warmProcesses: warm.processes, peakKb: Math.max(warm.hwmKb, status.hwmKb), usage, initialSyncMs, startupRssKb, idleCpuMs, idleWindowMs };
  } finally {
    const code = await proc?.stop();
    if (code !== undefined && code !== 0) process.stderr.write(`watch child exited with ${code}\n`);
    await server.close();
    rmSync(root, { recursive: true, force: true });
  }
}

/**
 * Save → add_memory through the CLI as users run it (`node dist/cli.js watch`: the reporter, the
 * heap release, the pass process), the test server in this process: `saves` saves after
 * WARMUP_SAVES, each written once the previous one's pass has ended (so the pass process is warm).
 */
async function cliSaveLatency(cli: CliSpec, saves: number): Promise<{ samples: number[]; heapReleases: number }> {
  const root = mkdtempSync(join(tmpdir(), 'gms-bench-watch-cli-'));
  const server = await startGraphitiServer({ processingDelayMs: 0 });
  let proc: WatchProcess | undefined;
  try {
    // The default log level (info), as users run it; the log then also says when the heap was released.
    proc = spawnWatch(watchEnv(root, server.url, { MADEINOZ_KNOWLEDGE_LOG_LEVEL: 'info' }), cli);
    await proc.waitLine((l) => l.event === 'ready', 60_000);
    await proc.waitLine((l) => l.event === 'pass' && l.reason === 'initial', 60_000);
    const seen = new Set<Record<string, unknown>>();
    const samples: number[] = [];
    for (let i = -WARMUP_SAVES; i < saves; i++) {
      const token = `cli-save-token-${i}`;
      const received = addMemoryFor(server, token);
      const t0 = Date.now();
      writeFileSync(join(root, 'notes', `save-${i + WARMUP_SAVES}.md`), note(i, token));
      const call = await received;
      if (i >= 0) samples.push(call.at - t0);
      const pass = await proc.waitLine((l) => l.event === 'pass' && Number(l.added) + Number(l.updated) > 0 && !seen.has(l), 30_000);
      seen.add(pass);
    }
    await proc.stop();
    const log = join(root, 'state', 'logs', 'graphiti-memory-sync.log');
    const heapReleases = existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter((line) => line.includes('"msg":"heap released"')).length : 0;
    return { samples, heapReleases };
  } finally {
    await proc?.stop();
    await server.close();
    rmSync(root, { recursive: true, force: true });
  }
}

interface RssSeries {
  idleMiB: number[];
  runs: MemoryFigures[];
}

function summarize(values: number[]): { min: number; median: number; max: number; over100: number } {
  return { min: Math.min(...values), median: median(values), max: Math.max(...values), over100: values.filter((v) => v > 100).length };
}

export async function benchWatch(): Promise<Row[]> {
  const rows: Row[] = [];
  // BENCH_WATCH_SAVES=0 skips (a).
  for (const debounce of SAVES > 0 ? [undefined, 50] : []) {
    const samples = await saveLatency(debounce);
    const label = debounce === undefined ? `debounce ${buildConfig({}).watchDebounceMs} ms (default)` : `debounce ${debounce} ms`;
    rows.push({ name: `save → add_memory, median, ${label}`, value: median(samples), unit: 'ms', note: `${samples.length} saves (after ${WARMUP_SAVES} warm-up), write check 150 ms; ${distIsFresh() ? 'dist' : 'src'}` });
    rows.push({ name: `save → add_memory, p95, ${label}`, value: percentile(samples, 95), unit: 'ms' });
  }
  // A save after a pause longer than the pass process is kept starts a new one (pass-process.ts).
  const cold = SAVES > 0 ? await saveLatency(undefined, 0) : [];
  const coldLabel = `debounce ${buildConfig({}).watchDebounceMs} ms (default), new pass process each save`;
  if (SAVES > 0) rows.push({ name: `save → add_memory, median, ${coldLabel}`, value: median(cold), unit: 'ms', note: `${cold.length} saves; the pass process exits after each pass; ${distIsFresh() ? 'dist' : 'src through tsx (slower to start than dist)'}` });
  if (SAVES > 0) rows.push({ name: `save → add_memory, p95, ${coldLabel}`, value: percentile(cold, 95), unit: 'ms' });
  if (process.platform !== 'linux' || process.env.BENCH_WATCH_RSS === '0') {
    rows.push({ name: 'watch RSS', value: 0, unit: 'MiB', note: process.env.BENCH_WATCH_RSS === '0' ? 'skipped: BENCH_WATCH_RSS=0' : 'skipped: needs /proc (Linux)' });
    return rows;
  }
  const current = cliCommand();
  const baseline = baselineCommand();
  const fmt = (n: number) => n.toLocaleString('en-US');
  const mib = (kb: number) => (kb / 1024).toFixed(1);

  // Save → add_memory through the CLI, this build and the baseline in turn.
  const cliSaves = Number(process.env.BENCH_WATCH_CLI_SAVES ?? 30);
  const cliSamples = { current: [] as number[], baseline: [] as number[] };
  let heapReleases = 0;
  for (let round = 0; round < 2; round++) {
    if (baseline !== undefined) cliSamples.baseline.push(...(await cliSaveLatency(baseline, cliSaves / 2)).samples);
    const run = await cliSaveLatency(current, cliSaves / 2);
    cliSamples.current.push(...run.samples);
    heapReleases += run.heapReleases;
  }
  const cliBase = baseline === undefined ? {} : { baselineName: 'baseline build' };
  // BENCH_WATCH_CLI_SAVES=0 skips the saves (to time the rest alone): no row then, rather than a median of nothing.
  if (cliSamples.current.length > 0) rows.push({ name: 'save → add_memory through the CLI, median, default debounce', value: median(cliSamples.current), unit: 'ms', ...cliBase, ...(baseline === undefined ? {} : { baseline: median(cliSamples.baseline) }), note: `${cliSamples.current.length} saves, ${current.label}, log level info; heap releases meanwhile: ${heapReleases}${baseline === undefined ? '' : `; ${baseline.label}, in turn`}` });
  if (cliSamples.current.length > 0) rows.push({ name: 'save → add_memory through the CLI, p95, default debounce', value: percentile(cliSamples.current, 95), unit: 'ms', ...cliBase, ...(baseline === undefined ? {} : { baseline: percentile(cliSamples.baseline, 95) }) });

  // Idle RSS at TREE_FILES files over several runs (an outlier is what users would keep), in turn with the baseline.
  const runs = Number(process.env.BENCH_WATCH_RSS_RUNS ?? 10);
  if (runs <= 0) return rows;
  const empty = await watchMemory(0, current);
  const series: { current: RssSeries; baseline: RssSeries } = { current: { idleMiB: [], runs: [] }, baseline: { idleMiB: [], runs: [] } };
  for (let i = 0; i < runs; i++) {
    for (const [which, cli] of (i % 2 === 0 ? [['baseline', baseline], ['current', current]] : [['current', current], ['baseline', baseline]]) as Array<['current' | 'baseline', CliSpec | undefined]>) {
      if (cli === undefined) continue;
      const m = await watchMemory(TREE_FILES, cli);
      series[which].runs.push(m);
      series[which].idleMiB.push(m.rssKb / 1024);
      process.stderr.write(`watch RSS run ${i + 1}/${runs} ${which}: idle CPU ${((m.idleCpuMs / m.idleWindowMs) * 1000).toFixed(1)} ms/s, idle ${mib(m.rssKb)} MiB (anon ${mib(m.rssAnonKb)}), heap ${m.usage === undefined ? '?' : `${(m.usage.heapUsed / 1048576).toFixed(1)}/${(m.usage.heapTotal / 1048576).toFixed(1)}`} MiB\n`);
    }
  }
  const cur = summarize(series.current.idleMiB);
  const base = baseline === undefined ? undefined : summarize(series.baseline.idleMiB);
  const big = series.current.runs.reduce((worst, m) => (m.rssKb > worst.rssKb ? m : worst));
  rows.push({ name: 'watch RSS, empty folder', value: empty.rssKb / 1024, unit: 'MiB', note: current.label });
  rows.push({
    name: `watch RSS, ${fmt(TREE_FILES)} files, right after the last pass`,
    value: median(series.current.runs.map((m) => m.warmRssKb / 1024)),
    unit: 'MiB',
    note: `median of ${runs}; ${big.warmProcesses} process(es) summed: the watch and its pass process, kept ${DEFAULT_PASS_PROCESS_IDLE_MS / 1000} s after a pass`,
  });
  rows.push({
    name: `watch RSS, ${fmt(TREE_FILES)} files, idle after initial sync, median of ${runs} runs`,
    value: cur.median,
    unit: 'MiB',
    ...(base === undefined ? { baseline: empty.rssKb / 1024, baselineName: 'empty folder' } : { baseline: base.median, baselineName: 'baseline build' }),
    note: `min ${cur.min.toFixed(1)}, max ${cur.max.toFixed(1)}, ${cur.over100} of ${runs} over 100 MiB${base === undefined ? '' : `; ${baseline?.label} (in turn): min ${base.min.toFixed(1)}, median ${base.median.toFixed(1)}, max ${base.max.toFixed(1)}, ${base.over100} of ${runs} over 100 MiB`}`,
  });
  const startup = summarize(series.current.runs.map((m) => m.startupRssKb / 1024));
  const startupBase = baseline === undefined ? undefined : summarize(series.baseline.runs.map((m) => m.startupRssKb / 1024));
  rows.push({
    name: `watch process RSS 1 s after ready, ${fmt(TREE_FILES)} files (its start-up scan done), median of ${runs}`,
    value: startup.median,
    unit: 'MiB',
    ...(startupBase === undefined ? {} : { baseline: startupBase.median, baselineName: 'baseline build' }),
    note: `min ${startup.min.toFixed(1)}, max ${startup.max.toFixed(1)}${startupBase === undefined ? '' : `; baseline min ${startupBase.min.toFixed(1)}, max ${startupBase.max.toFixed(1)}`}: whether the scan's garbage is gone is no longer left to V8's memory reducer`,
  });
  rows.push({ name: `watch RSS, ${fmt(TREE_FILES)} files, idle, worst of ${runs} runs`, value: cur.max, unit: 'MiB', ...(base === undefined ? {} : { baseline: base.max, baselineName: 'baseline build' }), note: 'goal: <= 100 MiB every run' });
  for (const [label, m] of [['empty folder', empty], [`${fmt(TREE_FILES)} files (the worst run)`, big]] as const) {
    const heap = m.usage === undefined ? 'V8 heap: probe did not answer' : `V8 heap ${(m.usage.heapUsed / 1048576).toFixed(1)} used of ${(m.usage.heapTotal / 1048576).toFixed(1)} MiB reserved, external ${(m.usage.external / 1048576).toFixed(1)} MiB`;
    rows.push({ name: `watch RSS breakdown, ${label}`, value: m.rssAnonKb / 1024, unit: 'MiB', note: `anonymous (heaps); + ${mib(m.rssFileKb)} MiB mapped files (node binary, libraries); ${heap}` });
  }
  rows.push({ name: `watch peak RSS (VmHWM), ${fmt(TREE_FILES)} files`, value: median(series.current.runs.map((m) => m.peakKb / 1024)), unit: 'MiB', note: `median of ${runs}; includes the initial sync; the watch's peak plus its pass process's` });
  const mode = POLL ? ', --poll' : '';
  const initialBase = baseline === undefined ? {} : { baseline: median(series.baseline.runs.map((m) => m.initialSyncMs / 1000)), baselineName: 'baseline build' };
  rows.push({ name: `initial sync of ${fmt(TREE_FILES)} files in watch (spawn → first pass)${mode}`, value: median(series.current.runs.map((m) => m.initialSyncMs / 1000)), unit: 's', ...initialBase, note: `median of ${runs}; test server, processingDelayMs 0, concurrency 64` });
  const cpuPerSecond = (ms: MemoryFigures[]) => (ms.reduce((n, m) => n + m.idleCpuMs, 0) / ms.reduce((n, m) => n + m.idleWindowMs, 0)) * 1000;
  const idleCpu = series.current.runs.reduce((n, m) => n + m.idleCpuMs, 0);
  const idleWindow = series.current.runs.reduce((n, m) => n + m.idleWindowMs, 0);
  const idleBase = baseline === undefined ? {} : { baseline: cpuPerSecond(series.baseline.runs), baselineName: 'baseline build' };
  rows.push({ name: `watch idle CPU, ${fmt(TREE_FILES)} files${mode}`, value: cpuPerSecond(series.current.runs), unit: 'ms/s', ...idleBase, note: `${idleCpu.toFixed(0)} ms CPU over ${idleWindow / 1000} s idle in ${runs} runs (10 ms resolution)` });
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const rows = await benchWatch();
  printTable('Watch mode: save-to-add_memory latency and memory', rows);
}
