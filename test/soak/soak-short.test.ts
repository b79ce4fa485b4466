/**
 * A short soak inside the suite (the full one is `npm run soak`): 60 memory files, a
 * `watch --json` process, manual `sync` processes and the real Stop / SessionStart hooks
 * (spawning the background worker) share one state dir and one Graphiti-shaped server that
 * injects 503s, 429s with Retry-After, connection resets, lost sessions, silently dropped
 * episodes and latency on every POST, while files are created, edited, renamed and deleted.
 * After quiescing, every file must be in the graph exactly once per part with its current
 * content, deleted files gone, the state valid, and no planted secret anywhere.
 */
import { describe, expect, it } from 'vitest';
import { runSoak } from '../support/soak-scenarios.js';
import { formatFigures, notUnderFire } from '../support/soak-verify.js';

/**
 * Eligible requests the fault schedule meets before the faults go off. Counted by requests, not
 * by time: on a loaded machine the 12 s chaos phase got only 2–3 faults to the server (note 14).
 */
const FAULT_REQUESTS = 60;

describe('soak (short)', () => {
  it('concurrent watcher, syncs and hooks under faults and edits: exactly once, nothing lost, no secret leaked', async () => {
    const seed = Number(process.env.GMS_SOAK_SEED ?? 20260104);
    // The run's story (watch timeline, manual syncs, each final pass with the files still waiting):
    // printed only when a check fails, since the interleaving that failed may not come back.
    const story: string[] = [];
    // Faults after initialize only: the server's sessionLoss fault on a session-less initialize is a
    // 404 no real server sends (see bench/soak.ts).
    const report = await runSoak({
      files: 60,
      chaosMs: 12_000,
      syncs: 4,
      hooks: 6,
      mutations: 30,
      seed,
      maxEpisodeChars: 4000,
      // Faults are off in the final passes: one settles every run on record, three leave a margin. The
      // default six, 20 s of --wait each, would reach this test's 150 s limit before the story is printed.
      finalPasses: 3,
      faults: { rate503: 0.1, rate429: 0.05, retryAfterSeconds: 1, rateReset: 0.05, rateSessionLoss: 0.05, dropRate: 0.1, latencyMs: 15, seed, methods: ['tools/call', 'tools/list', 'notifications/initialized'] },
      // Faults on until the seeded schedule has met 60 eligible requests (if the chaos phase did not
      // get that many to the server): with this seed, 15 of them are faults, whatever the machine's load.
      faultRequests: FAULT_REQUESTS,
      log: (line) => story.push(line),
    });
    console.log(`short soak (seed ${seed}), faults on for ${report.figures.faultScheduleMet} eligible requests:\n${formatFigures(report.figures)}`);
    expect(report.problems, `soak log (seed ${seed}):\n${story.join('\n')}`).toEqual([]);
    expect(report.figures).toMatchObject({ duplicates: 0, lost: 0, stale: 0, secretLeaks: 0, watchExitCode: 0 });
    // The run really was under fire: the fault schedule met its requests, and more than 5 faults hit (UNDER_FIRE).
    expect(notUnderFire(report.figures, FAULT_REQUESTS)).toEqual([]);
    expect(report.figures.mutations).toBe(30);
    expect(report.figures.hookRuns).toBe(6);
  }, 150_000);
});
