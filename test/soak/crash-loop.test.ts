/**
 * A short crash loop inside the suite (the full one is `tsx bench/crash-loop.ts`): `sync`
 * processes killed with SIGKILL at random moments (a delay after spawn, or right after the
 * server answered the k-th tool call of the run), edits between some runs, the state checked
 * after every kill; then one clean run must exit 0 and leave every file in the graph exactly
 * once with its current content.
 */
import { describe, expect, it } from 'vitest';
import { runCrashLoop } from '../support/soak-scenarios.js';
import { formatFigures } from '../support/soak-verify.js';

describe('crash loop (short)', () => {
  it('SIGKILL at random moments: state always valid, no leftover lock, then exactly once and nothing lost', async () => {
    const seed = Number(process.env.GMS_SOAK_SEED ?? 4242);
    const report = await runCrashLoop({ files: 60, kills: 6, seed, editEvery: 2, maxEpisodeChars: 4000, faults: { latencyMs: 10, dropRate: 0.05, seed } });
    console.log(`short crash loop (seed ${seed}):\n${formatFigures(report.figures)}`);
    expect(report.problems).toEqual([]);
    expect(report.figures).toMatchObject({ duplicates: 0, lost: 0, stale: 0, secretLeaks: 0, firstCleanExitCode: 0 });
    expect(report.figures.killed).toBeGreaterThan(0);
  }, 150_000);
});
