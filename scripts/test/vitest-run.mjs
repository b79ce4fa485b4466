/**
 * One vitest run with a JSON report, for the test scripts (test-all, test-graphiti, test-claude):
 * returns its counts, and `ok: false` when vitest failed, wrote no report or ran no test.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
export const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** @returns {{ passed: number, failed: number, skipped: number, ok: boolean }} */
export function runVitest(name, args, env = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'gms-vitest-'));
  const report = join(dir, 'vitest.json');
  process.stdout.write(`\n== ${name}: vitest run ${args.join(' ')}\n`);
  const r = spawnSync(npx, ['vitest', 'run', ...args, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`], {
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  const counts = { passed: 0, failed: 0, skipped: 0, ok: r.status === 0 };
  try {
    const json = JSON.parse(readFileSync(report, 'utf8'));
    counts.passed = json.numPassedTests ?? 0;
    counts.failed = json.numFailedTests ?? 0;
    counts.skipped = (json.numPendingTests ?? 0) + (json.numTodoTests ?? 0);
    if ((json.numTotalTests ?? 0) === 0) counts.ok = false;
  } catch {
    counts.ok = false;
    process.stdout.write(`== ${name} wrote no report\n`);
  }
  rmSync(dir, { recursive: true, force: true });
  return counts;
}
