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
 */
import { firstBatch } from '../test/support/busy-queue.js';
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
  return rows;
}
