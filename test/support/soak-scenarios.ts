/**
 * The soak and the crash loop, shared by `npm run soak` / `tsx bench/crash-loop.ts` (full
 * size, figures on stdout) and test/soak/*.test.ts (short versions, same code).
 *
 * Soak: one Graphiti-shaped server (in-process, so every call can be inspected) injecting
 * several faults at once; a `watch --json` process, manual `sync` processes and the real
 * Stop / SessionStart hooks (each spawning the detached background worker) all share one
 * state dir while the harness creates, edits, renames, touches and deletes files. Then:
 * faults off, workers and syncs drained, the watcher stopped with SIGTERM (exit 0), the
 * server idle, final `sync --wait` passes with a short confirmation age so silently
 * dropped episodes are re-sent, and the checks of soak-verify.ts.
 *
 * Crash loop: `sync` runs killed with SIGKILL at random moments (a random delay after
 * spawn, or right after the server answered the k-th tool call of the run), edits between
 * some runs, the state checked after every kill, then one clean run and the same checks.
 *
 * Everything is loopback, bounded in count and time, and every child is killed in a
 * finally block.
 *
 * Over 300 lines: the two scenarios share their set-up, drain and final passes, and each
 * reads top to bottom as the story of one run.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadState } from '../../src/lib/state/state.js';
import { startGraphitiServer, type FaultOptions, type GraphitiTestServer, type ToolCallLog } from './graphiti-server.js';
import { SoakCorpus } from './soak-corpus.js';
import { Procs, type Proc } from './soak-procs.js';
import { recordFacts, verifySoak, type Figures, type VerifyResult } from './soak-verify.js';
import { isolatedEnv } from './isolated-env.js';
import { makeTempDirSync } from './temp-dir.js';

export interface SoakOptions {
  files: number;
  /** Length of the chaos phase (processes + edits running together), ms. */
  chaosMs: number;
  /** Manual `sync` processes started during the chaos phase. */
  syncs: number;
  /** Hook invocations (alternating Stop / SessionStart) during the chaos phase. */
  hooks: number;
  /** File mutations (create/edit/delete/rename/touch) during the chaos phase. */
  mutations: number;
  seed: number;
  faults: FaultOptions;
  /**
   * Faults stay on past the chaos phase until the seeded fault schedule has met this many eligible
   * requests (bounded by FAULT_REQUESTS_WAIT_MS). The chaos phase is timed, and a loaded machine gets
   * fewer requests to the server in it (2–3 faults hit in 12 s at load 12–19, note 14); counted by
   * requests, the faults a run meets are set by the seed and the run's work, not the machine's speed.
   */
  faultRequests?: number;
  maxEpisodeChars: number;
  /** Bound for the final confirmation passes. */
  finalPasses?: number;
  log?: (line: string) => void;
  /** Keep the temp folder (for debugging). */
  keep?: boolean;
}

export interface SoakReport extends VerifyResult {
  figures: Figures & {
    wallMs: number;
    mutations: number;
    manualSyncs: number;
    hookRuns: number;
    workersSpawned: number;
    watchPasses: number;
    finalPasses: number;
    watchExitCode: number | null;
    /** Eligible requests the fault schedule had met when the faults were turned off. */
    faultScheduleMet: number;
  };
  root: string;
}

/** How long faults stay on past the chaos phase at most, waiting for `faultRequests` (the processes keep working, and retrying, meanwhile). */
const FAULT_REQUESTS_WAIT_MS = 60_000;

const DEFAULT_GROUP = 'main';

function baseEnv(root: string, url: string, maxEpisodeChars: number): Record<string, string> {
  return isolatedEnv(root, url, {
    MADEINOZ_KNOWLEDGE_GROUP_ID: DEFAULT_GROUP,
    MADEINOZ_KNOWLEDGE_SOURCE_GROUPS: 'auto-memory={project}',
    MADEINOZ_KNOWLEDGE_RETRIES: '5',
    MADEINOZ_KNOWLEDGE_TIMEOUT: '2000',
    MADEINOZ_KNOWLEDGE_RETRY_DEADLINE: '20000',
    MADEINOZ_KNOWLEDGE_MAX_EPISODE_CHARS: String(maxEpisodeChars),
    // Under a 10% drop rate a part can be dropped several times in a row; the default of 3
    // re-sends would (correctly) mark such a file failed, which is not what the soak is about.
    MADEINOZ_KNOWLEDGE_MAX_RESENDS: '30',
    MADEINOZ_KNOWLEDGE_LOG_LEVEL: 'debug',
    MADEINOZ_KNOWLEDGE_WATCH_DEBOUNCE: '300',
    GMS_WORKER_TIMEOUT_MS: '120000',
    GMS_TEST: '1',
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A timeout for Promise.race that does not keep the process alive once the race is decided. */
function nap(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)).unref());
}

async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([promise, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms: ${what}`)), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

interface FinalSummary {
  pending: number;
  queued: number;
  failed: number;
  confirmed: number;
  serverReachable: boolean;
  problems: Array<{ id: string; reason: string; message: string }>;
}

/** `sync --json --wait` passes (faults off) until nothing is pending, queued or failed and no orphan is left (bounded). */
async function finalPasses(procs: Procs, server: GraphitiTestServer, stateDir: string, maxPasses: number, log: (l: string) => void): Promise<{ passes: number; clean: boolean; firstExitCode: number | null }> {
  let firstExitCode: number | null = null;
  for (let pass = 1; pass <= maxPasses; pass++) {
    const run = procs.cli(['sync', '--json', '--wait', '20000'], { MADEINOZ_KNOWLEDGE_CONFIRM_MAX_AGE: '2000' }, `final sync ${pass}`);
    const result = await withTimeout(run.done, 90_000, 'final sync pass');
    if (pass === 1) firstExitCode = result.code;
    await withTimeout(server.whenIdle(), 30_000, 'server idle');
    const summary = run.lines.find((l) => 'pending' in l) as unknown as FinalSummary | undefined;
    const state = (await loadState(stateDir, { readOnly: true })).state;
    const leftovers = state.orphans.length + Object.values(state.files).reduce((n, r) => n + r.superseded.length, 0);
    // The files still waiting, as their records say (status, each part's history, the group's next look): why a pass was not clean.
    const waiting = Object.values(state.files).filter((r) => r.status !== 'confirmed' && r.status !== 'skipped');
    log(
      `final pass ${pass}: exit ${result.code}, ${summary === undefined ? 'no summary' : `pending ${summary.pending}, queued ${summary.queued}, failed ${summary.failed}, confirmed ${summary.confirmed}`}, leftovers ${leftovers}${waiting
        .slice(0, 5)
        .map((r) => `\n  ${recordFacts(r, state)}`)
        .join('')}`,
    );
    if (summary !== undefined && summary.pending === 0 && summary.queued === 0 && summary.failed === 0 && summary.serverReachable && leftovers === 0 && result.code === 0) {
      return { passes: pass, clean: true, firstExitCode };
    }
  }
  return { passes: maxPasses, clean: false, firstExitCode };
}

// ------------------------------------------------------------------ soak

export async function runSoak(options: SoakOptions): Promise<SoakReport> {
  const log = options.log ?? (() => undefined);
  const started = performance.now();
  const { dir: root, cleanup } = makeTempDirSync('gms-soak-');
  let server: GraphitiTestServer | undefined;
  let procs: Procs | undefined;
  let mutating = false;
  try {
    server = await startGraphitiServer({ processingDelayMs: 2, logLimit: 2_000_000, faults: options.faults });
    const env = baseEnv(root, server.url, options.maxEpisodeChars);
    const stateDir = env.MADEINOZ_KNOWLEDGE_STATE_DIR as string;
    const corpus = new SoakCorpus({ root, seed: options.seed });
    for (let i = 0; i < options.files; i++) corpus.create();
    // Project folders the hooks run in (with .git, so the project detection is the real one).
    const projects = ['alpha', 'beta', 'gamma'].map((name) => {
      const dir = join(root, 'code', name);
      mkdirSync(join(dir, '.git'), { recursive: true });
      return dir;
    });
    log(`corpus: ${options.files} files under ${root}; faults ${JSON.stringify(options.faults)}`);
    procs = new Procs(env, stateDir);
    const p = procs;

    // ---------------------------------------------------------- chaos
    const watch = p.cli(['watch', '--json'], {}, 'watch');
    await watch.waitForLine((l) => l.event === 'ready', 30_000);
    log('watch ready');

    const chaosStart = Date.now();
    const at = (fraction: number) => chaosStart + fraction * options.chaosMs;
    const manual: Proc[] = [];
    const hooks: Proc[] = [];
    let mutations = 0;
    const mutationKinds: Record<string, number> = {};
    mutating = true;
    const mutator = (async () => {
      for (let i = 0; i < options.mutations && mutating; i++) {
        const wait = at((i + 1) / (options.mutations + 1)) - Date.now();
        if (wait > 0) await sleep(wait);
        if (!mutating) break;
        const what = corpus.mutate();
        mutations++;
        const kind = what.split(' ')[0] as string;
        mutationKinds[kind] = (mutationKinds[kind] ?? 0) + 1;
      }
    })();
    const chaosEnd = chaosStart + options.chaosMs;
    const until = async (t: number) => {
      const wait = t - Date.now();
      if (wait > 0) await sleep(wait);
    };
    const syncLoop = (async () => {
      for (let i = 0; i < options.syncs; i++) {
        await until(at((i + 0.5) / options.syncs));
        // At most two manual syncs at once (more would only queue on the lock): wait for a slot, not past the chaos phase.
        while (manual.filter((m) => m.running).length >= 2 && Date.now() < chaosEnd) {
          await Promise.race([...manual.filter((m) => m.running).map((m) => m.done), nap(chaosEnd - Date.now())]);
        }
        if (Date.now() >= chaosEnd) break;
        manual.push(p.cli(['sync', '--json'], {}, `sync ${i + 1}`));
      }
    })();
    const hookLoop = (async () => {
      for (let i = 0; i < options.hooks; i++) {
        await until(at((i + 0.25) / options.hooks));
        const cwd = projects[i % projects.length] as string;
        const input =
          i % 2 === 0
            ? { session_id: `soak-${i}`, transcript_path: join(root, 't.jsonl'), cwd, hook_event_name: 'Stop', stop_hook_active: false }
            : { session_id: `soak-${i}`, transcript_path: join(root, 't.jsonl'), cwd, hook_event_name: 'SessionStart', source: 'startup' };
        hooks.push(p.hook(i % 2 === 0 ? 'stop' : 'session-start', input));
      }
    })();
    await Promise.all([syncLoop, hookLoop]);
    await mutator;
    mutating = false;
    log(`chaos done: ${mutations} mutations ${JSON.stringify(mutationKinds)}, ${manual.length} manual syncs, ${hooks.length} hook runs`);

    // ---------------------------------------------------------- quiesce
    if (options.faultRequests !== undefined && server.faultScheduleMet < options.faultRequests) {
      const from = server.faultScheduleMet;
      const met = await Promise.race([server.whenFaultScheduleMet(options.faultRequests).then(() => true), nap(FAULT_REQUESTS_WAIT_MS).then(() => false)]);
      log(`faults kept on past the chaos phase: the schedule met ${from} eligible requests in it, ${server.faultScheduleMet} now${met ? '' : ` (not ${options.faultRequests} within ${FAULT_REQUESTS_WAIT_MS / 1000} s)`}`);
    }
    const faultScheduleMet = server.faultScheduleMet;
    server.setOptions({ faults: {} });
    log(`faults off after ${faultScheduleMet} eligible requests; waiting for syncs, hooks and workers`);
    const others = p.all.filter((x) => x !== watch);
    await Promise.race([Promise.all(others.map((x) => x.done)), nap(120_000)]);
    const stuck = others.filter((x) => x.running).map((x) => x.name);
    const killedWorkers = await p.settleWorkers(120_000);
    for (const x of others) x.kill('SIGKILL');
    const hookResults = await Promise.all(hooks.map((h) => h.done));
    const badHooks = hookResults.filter((r) => r.code !== 0).map((r) => `${r.name} exit ${r.code ?? r.signal}`);
    const manualResults = await Promise.all(manual.map((m) => m.done));
    const badManual = manualResults.filter((r) => r.code !== 0 && r.code !== 1).map((r) => `${r.name} exit ${r.code ?? r.signal}: ${r.stderr.slice(-300)}`);
    const manualExits = manualResults.map((r) => String(r.code ?? r.signal)).join(' ');
    log(`manual syncs exited: ${manualExits}; stderr of non-zero ones: ${manualResults.filter((r) => r.code !== 0).map((r) => r.stderr.trim().split('\n').pop()).join(' | ')}`);

    watch.kill('SIGTERM');
    const watchResult = await withTimeout(watch.done, 30_000, 'watch to stop after SIGTERM').catch((error: Error) => {
      watch.kill('SIGKILL');
      return { code: null, signal: null, stderr: error.message, stdout: '' } as { code: number | null; signal: NodeJS.Signals | null; stderr: string; stdout: string };
    });
    const watchPasses = watch.lines.filter((l) => l.event === 'pass').length;
    const rel = (l: { receivedAt?: number }) => `${(((l.receivedAt ?? chaosStart) - chaosStart) / 1000).toFixed(1)}s`;
    const timeline = watch.lines
      .filter((l) => l.event === 'pass-start' || l.event === 'pass' || l.event === 'backoff')
      .map((l) =>
        l.event === 'pass-start'
          ? `${rel(l)} pass ${String(l.pass)} starts (${String(l.reason)})`
          : l.event === 'pass'
            ? `${rel(l)} pass ${String(l.pass)} done in ${(Number(l.durationMs) / 1000).toFixed(1)}s (+${String(l.added)} ~${String(l.updated)} -${String(l.deleted)}, pending ${String(l.pending)}, queued ${String(l.queued)})`
            : `${rel(l)} backoff (${String(l.reason)}) ${String(l.delayMs)}ms`,
      );
    log(`watch timeline: ${timeline.slice(0, 40).join('; ')}${timeline.length > 40 ? ` … (${timeline.length} events)` : ''}`);
    log(`manual syncs: ${manualResults.map((r) => `${r.name} ${(r.ms / 1000).toFixed(1)}s exit ${r.code}`).join(', ')}`);
    log(`watch stopped: exit ${watchResult.code ?? watchResult.signal} after ${watchPasses} passes`);
    await withTimeout(server.whenIdle(), 30_000, 'server idle');

    const final = await finalPasses(p, server, stateDir, options.finalPasses ?? 6, log);

    // ---------------------------------------------------------- verify
    const verified = await verifySoak({ server, corpus, stateDir, maxEpisodeChars: options.maxEpisodeChars, projectGroups: true, outputs: p.outputs() });
    const problems = [...verified.problems];
    if (watchResult.code !== 0) problems.unshift(`watch: exit ${watchResult.code ?? watchResult.signal} after SIGTERM (expected 0): ${watchResult.stderr.slice(-500)}`);
    if (stuck.length > 0) problems.unshift(`processes still running 120 s after faults were turned off: ${stuck.join(', ')}`);
    if (killedWorkers > 0) problems.unshift(`${killedWorkers} hook worker(s) still running 120 s after faults were turned off`);
    if (badHooks.length > 0) problems.unshift(`hooks exited non-zero: ${badHooks.join('; ')}`);
    if (badManual.length > 0) problems.unshift(`manual syncs crashed: ${badManual.join('; ')}`);
    if (!final.clean) problems.unshift(`final sync passes did not reach a clean state within ${final.passes} passes`);
    return {
      ok: problems.length === 0,
      problems,
      root,
      figures: {
        ...verified.figures,
        wallMs: performance.now() - started,
        mutations,
        manualSyncs: manual.length,
        hookRuns: hooks.length,
        workersSpawned: p.workerPids().length,
        watchPasses,
        finalPasses: final.passes,
        watchExitCode: watchResult.code,
        faultScheduleMet,
      },
    };
  } finally {
    mutating = false;
    await procs?.killAll();
    await server?.close();
    if (options.keep !== true) cleanup();
  }
}

// ------------------------------------------------------------------ crash loop

export interface CrashLoopOptions {
  files: number;
  kills: number;
  seed: number;
  /** Mutate a few files before every n-th run. */
  editEvery: number;
  /** How many mutations then (min, max); default [2, 6]. */
  editsPerRound?: [number, number];
  faults: FaultOptions;
  maxEpisodeChars: number;
  log?: (line: string) => void;
  keep?: boolean;
}

export interface CrashLoopReport extends VerifyResult {
  figures: Figures & {
    wallMs: number;
    runs: number;
    killed: number;
    finishedBeforeKill: number;
    killedAfterCalls: number;
    killedAfterDelay: number;
    mutations: number;
    firstCleanExitCode: number | null;
    finalPasses: number;
  };
  root: string;
}

export async function runCrashLoop(options: CrashLoopOptions): Promise<CrashLoopReport> {
  const log = options.log ?? (() => undefined);
  const started = performance.now();
  const { dir: root, cleanup } = makeTempDirSync('gms-crash-');
  let server: GraphitiTestServer | undefined;
  let procs: Procs | undefined;
  try {
    server = await startGraphitiServer({ processingDelayMs: 2, logLimit: 2_000_000, faults: options.faults });
    const s = server;
    const env = baseEnv(root, server.url, options.maxEpisodeChars);
    // No retries to speak of: a kill must hit the engine, not a long retry sleep.
    env.MADEINOZ_KNOWLEDGE_RETRIES = '2';
    const stateDir = env.MADEINOZ_KNOWLEDGE_STATE_DIR as string;
    const corpus = new SoakCorpus({ root, seed: options.seed });
    for (let i = 0; i < options.files; i++) corpus.create();
    procs = new Procs(env, stateDir);
    const problems: string[] = [];
    let killed = 0;
    let finishedBeforeKill = 0;
    let killedAfterCalls = 0;
    let killedAfterDelay = 0;
    let mutations = 0;

    // Runs go on until `kills` of them were really killed: a run can finish before its kill point
    // (little left to do), and such a run does not count as a crash.
    let run = 0;
    while (killed < options.kills && run < options.kills * 3) {
      run++;
      if (run > 1 && run % options.editEvery === 0) {
        const [min, max] = options.editsPerRound ?? [2, 6];
        const n = corpus.int(min, max);
        for (let i = 0; i < n; i++) corpus.mutate();
        mutations += n;
      }
      // The first run always dies mid-send (everything is pending then), so every loop kills at least once.
      const byCalls = run === 1 || corpus.chance(0.6);
      const proc = procs.cli(['sync', '--json'], {}, `crash run ${run}`);
      let how = '';
      let onCall: ((c: ToolCallLog) => void) | undefined;
      let timer: NodeJS.Timeout | undefined;
      if (byCalls) {
        // Right after the server answered the k-th tool call of this run (get_episodes, add_memory, delete_episode).
        const k = run === 1 ? corpus.int(3, 12) : corpus.int(1, 25);
        let seen = 0;
        how = `after ${k} tool call(s)`;
        onCall = () => {
          if (++seen === k && proc.running) {
            proc.kill('SIGKILL');
            killedAfterCalls++;
          }
        };
        s.events.on('call', onCall);
      } else {
        const delay = corpus.int(50, 2500);
        how = `${delay} ms after spawn`;
        timer = setTimeout(() => {
          if (proc.running) {
            proc.kill('SIGKILL');
            killedAfterDelay++;
          }
        }, delay);
      }
      // A run that never reaches its kill point ends by itself; bounded anyway.
      const guard = setTimeout(() => proc.kill('SIGKILL'), 60_000);
      const result = await proc.done;
      clearTimeout(guard);
      clearTimeout(timer);
      if (onCall !== undefined) s.events.off('call', onCall);
      if (result.signal === 'SIGKILL') killed++;
      else finishedBeforeKill++;
      const loaded = await loadState(stateDir, { readOnly: true });
      const state = loaded.state;
      const counts: Record<string, number> = {};
      for (const r of Object.values(state.files)) counts[r.status] = (counts[r.status] ?? 0) + 1;
      log(`run ${run}: ${result.signal === 'SIGKILL' ? `killed ${how}` : `finished (exit ${result.code}) before its kill point (${how})`}; adds so far ${s.calls.filter((c) => c.tool === 'add_memory').length}; state ${JSON.stringify(counts)}`);
      if (loaded.recovered !== undefined) problems.push(`run ${run}: state damaged after the kill (${loaded.recovered.reason})`);
      if (result.signal !== 'SIGKILL' && result.code !== 0 && result.code !== 1) problems.push(`run ${run}: exit ${result.code}: ${result.stderr.slice(-500)}`);
      if (/Timed out .* waiting for lock/i.test(result.stderr)) problems.push(`run ${run}: blocked by a leftover lock: ${result.stderr.slice(-300)}`);
    }

    if (killed < options.kills) problems.push(`only ${killed} of ${run} runs reached their kill point (wanted ${options.kills})`);

    // ---------------------------------------------------------- the clean run
    server.setOptions({ faults: {} });
    await withTimeout(server.whenIdle(), 30_000, 'server idle');
    const final = await finalPasses(procs, server, stateDir, 4, log);
    if (final.firstExitCode !== 0) problems.push(`the first clean run after the kills exited ${final.firstExitCode} (expected 0)`);
    if (!final.clean) problems.push(`final sync passes did not reach a clean state within ${final.passes} passes`);
    const verified = await verifySoak({ server, corpus, stateDir, maxEpisodeChars: options.maxEpisodeChars, projectGroups: true, outputs: procs.outputs() });
    problems.push(...verified.problems);
    return {
      ok: problems.length === 0,
      problems,
      root,
      figures: {
        ...verified.figures,
        wallMs: performance.now() - started,
        runs: run,
        killed,
        finishedBeforeKill,
        killedAfterCalls,
        killedAfterDelay,
        mutations,
        firstCleanExitCode: final.firstExitCode,
        finalPasses: final.passes,
      },
    };
  } finally {
    await procs?.killAll();
    await server?.close();
    if (options.keep !== true) cleanup();
  }
}
