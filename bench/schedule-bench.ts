/**
 * The listing schedule (sync/schedule.ts, sync/pace.ts) replayed against the simulated busy group of
 * test/sync/schedule.test.ts (test/support/busy-queue.ts): no server, milliseconds per run, so whole
 * grids of first batches with their pace unknown. Each cell is five draws of the uuids, the replies'
 * order and the jitter; its figure is the run's time to the look that confirms the last note, over
 * the floor (the server's own time for the batch), and how many looks it took.
 *
 * Issue 43's grid is what the schedule's constants were checked on (20 to 500 notes, 0.4 to 6 s per
 * episode, listings of 1.1 and 1.8 s), with a few notes and 30 s per episode (a real LLM's pace)
 * beside it; the last grid was never tuned on (another group size and listing cost, a wider spread,
 * other paces), reported on its own.
 *
 * Later batches (`laterBatch`): the group's pace remembered from earlier batches, and the server now
 * as fast as remembered or several times faster or slower (a rate limit lifted or hit, another model,
 * another build behind the address). The first grid is what the rules for them (schedule.ts
 * NEW_BATCH and SILENT_SAMPLE, pace.ts PACE_CHANGED) were designed on; the second was looked at
 * while designing them (a guard for short batches came from it); the third was run once, on the
 * final rules and the code before them, and never before.
 *
 * Batches whose pace drifts as they run (schedule.ts DRIFT): the first grid is the one the rule was
 * chosen on (after a real-server run showed the case), the second was run once, on the final rule
 * and the code before it.
 */
import { driftBatch, firstBatch, laterBatch, type BusyRun } from '../test/support/busy-queue.js';
import type { Row } from './util.js';

interface Grid {
  name: string;
  counts: number[];
  stepsMs: number[];
  listingsMs: number[];
  foreign?: number;
  spread?: number;
}

const GRIDS: Grid[] = [
  { name: "issue 43's grid: 20-500 notes, 0.4-6 s per episode, listings 1.1/1.8 s, 10,000 others", counts: [20, 80, 200, 500], stepsMs: [400, 1_000, 6_000], listingsMs: [1_100, 1_800] },
  { name: 'a few notes: 1-10 notes, 0.4-30 s per episode, listings 1.1/1.8 s, 10,000 others', counts: [1, 3, 5, 10], stepsMs: [400, 1_000, 6_000, 30_000], listingsMs: [1_100, 1_800] },
  { name: 'a real LLM’s pace: 20-500 notes at 30 s per episode, listings 1.1/1.8 s, 10,000 others', counts: [20, 80, 200, 500], stepsMs: [30_000], listingsMs: [1_100, 1_800] },
  { name: 'not tuned on: 1-200 notes, 0.3/2/12 s per episode, listings 0.4/0.7 s, 3,000 others, ±40 % per episode', counts: [1, 3, 5, 10, 20, 80, 200], stepsMs: [300, 2_000, 12_000], listingsMs: [400, 700], foreign: 3_000, spread: 0.4 },
];

const SEEDS = 5;

/** One cell over SEEDS draws: the mean time to confirm over the floor, looks, and how long after the server the run ended (ms). */
function cellOf(run: (seed: number) => BusyRun): { ratio: number; looks: number; lateMs: number } {
  const cell = { ratio: 0, looks: 0, lateMs: 0 };
  for (let seed = 1; seed <= SEEDS; seed++) {
    const r = run(seed);
    cell.ratio += r.confirmedAfterMs / r.floorMs / SEEDS;
    cell.looks += r.listings / SEEDS;
    cell.lateMs += (r.confirmedAfterMs - r.doneMs) / SEEDS;
  }
  return cell;
}

/** The mean of `cells`' figures. */
function meanOf(cells: ReadonlyArray<ReturnType<typeof cellOf>>): ReturnType<typeof cellOf> {
  const n = Math.max(1, cells.length);
  return { ratio: cells.reduce((a, c) => a + c.ratio, 0) / n, looks: cells.reduce((a, c) => a + c.looks, 0) / n, lateMs: cells.reduce((a, c) => a + c.lateMs, 0) / n };
}

interface LaterGrid {
  name: string;
  counts: number[];
  rememberedMs: number[];
  /** The server's processing time now, as a share of the remembered one. */
  factors: number[];
  listingsMs: number[];
  foreign: number;
  spread: number;
}

const LATER_GRIDS: LaterGrid[] = [
  { name: 'later batches, designed on: 5-200 notes, 1/5 s remembered, 10,000 others, listings 1.1/1.8 s', counts: [5, 20, 80, 200], rememberedMs: [1_000, 5_000], factors: [1, 0.33, 0.1, 3], listingsMs: [1_100, 1_800], foreign: 10_000, spread: 0.1 },
  { name: 'later batches, looked at while designing: 3-300 notes, 2/12 s remembered, 3,000 others, listings 0.4/0.7 s, ±40 %', counts: [3, 10, 40, 120, 300], rememberedMs: [2_000, 12_000], factors: [1, 0.5, 0.2, 2, 5], listingsMs: [400, 700], foreign: 3_000, spread: 0.4 },
  { name: 'later batches, not tuned on: 2-150 notes, 3/20 s remembered, 6,000 others, listings 0.25/2.5 s, ±25 %', counts: [2, 7, 30, 150], rememberedMs: [3_000, 20_000], factors: [1, 0.4, 0.15, 2.5], listingsMs: [250, 2_500], foreign: 6_000, spread: 0.25 },
];

interface DriftGrid {
  name: string;
  shapes: Array<[string, (i: number, count: number) => number]>;
  counts: number[];
  stepsMs: number[];
  listingsMs: number[];
  foreign: number;
  spread: number;
  jitterSeed: number;
}

const DRIFT_GRIDS: DriftGrid[] = [
  {
    name: 'drifting batches, chosen on: 80-500 notes, 0.85/3 s, 10,000 others, listings 1.1/1.8 s',
    shapes: [['first third 30 % slower', (i, n) => (i < 0.3 * n ? 1.3 : 1)], ['first third 30 % faster', (i, n) => (i < 0.3 * n ? 1 : 1.3)], ['steady', () => 1]],
    counts: [80, 200, 500],
    stepsMs: [850, 3_000],
    listingsMs: [1_100, 1_800],
    foreign: 10_000,
    spread: 0.1,
    jitterSeed: 300,
  },
  {
    name: 'drifting batches, not tuned on: 120/300 notes, 0.5/2 s, 5,000 others, listings 0.7/1.3 s, ±30 %',
    shapes: [['1.4x falling to 1x', (i, n) => 1.4 - (0.4 * i) / n], ['1x rising to 1.4x', (i, n) => 1 + (0.4 * i) / n], ['middle half 1.5x', (i, n) => (i > 0.25 * n && i < 0.75 * n ? 1.5 : 1)], ['steady', () => 1]],
    counts: [120, 300],
    stepsMs: [500, 2_000],
    listingsMs: [700, 1_300],
    foreign: 5_000,
    spread: 0.3,
    jitterSeed: 700,
  },
];

function benchDrift(grid: DriftGrid): Row {
  const all: Array<ReturnType<typeof cellOf>> = [];
  const perShape = grid.shapes.map(([label, shape]) => {
    const cells = grid.counts.flatMap((count) => grid.stepsMs.flatMap((step) => grid.listingsMs.map((listing) => cellOf((seed) => driftBatch(count, step, shape, listing, seed, { foreign: grid.foreign, spread: grid.spread, jitterSeed: grid.jitterSeed })))));
    all.push(...cells);
    const m = meanOf(cells);
    return `${label} ${m.ratio.toFixed(4)}x (ended ${(m.lateMs / 1000).toFixed(1)} s after the server)`;
  });
  const mean = meanOf(all).ratio;
  return { name: `${grid.name}: mean time to confirm, over the floor`, value: Number(mean.toFixed(4)), unit: 'x', note: `${all.length} cells of ${SEEDS} draws; ${perShape.join(', ')}` };
}

function benchLater(grid: LaterGrid): Row {
  const all: Array<ReturnType<typeof cellOf>> = [];
  const perFactor = grid.factors.map((factor) => {
    const cells = grid.counts.flatMap((count) => grid.rememberedMs.flatMap((remembered) => grid.listingsMs.map((listing) => cellOf((seed) => laterBatch(count, remembered, remembered * factor, listing, seed, { foreign: grid.foreign, spread: grid.spread })))));
    all.push(...cells);
    const m = meanOf(cells);
    return `${factor === 1 ? 'as remembered' : factor < 1 ? `${(1 / factor).toFixed(1)}x faster` : `${factor}x slower`} ${m.ratio.toFixed(3)}x (${m.looks.toFixed(2)} looks)`;
  });
  const mean = meanOf(all).ratio;
  return { name: `${grid.name}: mean time to confirm, over the floor`, value: Number(mean.toFixed(4)), unit: 'x', note: `${all.length} cells of ${SEEDS} draws; by the server's pace now: ${perFactor.join(', ')}` };
}

export async function benchSchedule(): Promise<Row[]> {
  const rows: Row[] = [];
  for (const grid of GRIDS) {
    const cells: Array<{ cell: string; ratio: number; looks: number }> = [];
    for (const count of grid.counts) {
      for (const step of grid.stepsMs) {
        for (const listing of grid.listingsMs) {
          let ratio = 0;
          let looks = 0;
          for (let seed = 1; seed <= SEEDS; seed++) {
            const run = firstBatch(count, step, listing, seed, { ...(grid.foreign === undefined ? {} : { foreign: grid.foreign }), ...(grid.spread === undefined ? {} : { spread: grid.spread }) });
            ratio += run.confirmedAfterMs / run.floorMs / SEEDS;
            looks += run.listings / SEEDS;
          }
          cells.push({ cell: `${count} note${count === 1 ? '' : 's'} at ${step / 1000} s, listing ${listing / 1000} s`, ratio, looks });
        }
      }
    }
    const mean = cells.reduce((a, c) => a + c.ratio, 0) / cells.length;
    const looks = cells.reduce((a, c) => a + c.looks, 0) / cells.length;
    const worst = [...cells].sort((a, b) => b.ratio - a.ratio).slice(0, 3);
    rows.push({ name: `${grid.name}: mean time to confirm, over the floor`, value: Number(mean.toFixed(4)), unit: 'x', note: `${mean.toFixed(4)}x; ${cells.length} cells of ${SEEDS} draws; ${looks.toFixed(2)} looks on average; slowest ${worst.map((c) => `${c.cell} ${c.ratio.toFixed(2)}x (${c.looks.toFixed(1)} looks)`).join(', ')}` });
  }
  for (const grid of LATER_GRIDS) rows.push(benchLater(grid));
  for (const grid of DRIFT_GRIDS) rows.push(benchDrift(grid));
  return rows;
}
