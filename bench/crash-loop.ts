/**
 * `tsx bench/crash-loop.ts`: 20 `sync` runs, each killed with SIGKILL at a random moment
 * (a random delay after spawn, or right after the server answered the k-th tool call of
 * the run), with edits between some runs; the state is checked after every kill; then one
 * clean run (plus confirmation passes) and the exactly-once checks of the soak.
 *
 * Options (environment): CRASH_FILES (300), CRASH_KILLS (20), CRASH_SEED (random),
 * CRASH_KEEP=1 keeps the temp folder. Exit code 0 when every check passed.
 */
import { runCrashLoop } from '../test/support/soak-scenarios.js';
import { formatFigures } from '../test/support/soak-verify.js';

const num = (name: string, fallback: number): number => {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v > 0 ? v : fallback;
};
const seed = num('CRASH_SEED', Math.floor(Math.random() * 2 ** 31));
const log = (line: string) => process.stdout.write(`[${new Date().toISOString().slice(11, 23)}] ${line}\n`);

process.stdout.write(`crash loop: node ${process.version}, seed ${seed}\n`);
const report = await runCrashLoop({
  files: num('CRASH_FILES', 300),
  kills: num('CRASH_KILLS', 20),
  seed,
  editEvery: 2,
  editsPerRound: [3, 12],
  maxEpisodeChars: 4000,
  faults: { latencyMs: 10, dropRate: 0.05, seed },
  keep: process.env.CRASH_KEEP === '1',
  log,
});
process.stdout.write(`\ncrash-loop figures (seed ${seed}):\n${formatFigures(report.figures)}\n`);
if (process.env.CRASH_KEEP === '1') process.stdout.write(`kept: ${report.root}\n`);
if (report.ok) {
  process.stdout.write('\ncrash loop: PASS\n');
} else {
  process.stdout.write(`\ncrash loop: FAIL\n${report.problems.map((p) => `  - ${p}`).join('\n')}\n`);
  process.exitCode = 1;
}
