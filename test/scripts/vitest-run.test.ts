/**
 * scripts/test/vitest-run.mjs, as CI runs it: a failed test is named at the end of the log (the
 * part of a long CI log that is read first), not only counted.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without types
import { runVitest } from '../../scripts/test/vitest-run.mjs';

const dirs: string[] = [];
afterEach(() => {
  // The stray fixture's process, should its run's guard (test/setup/stray-processes.ts) have missed it.
  for (const d of dirs) killStray(join(d, 'stray.pid'));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  delete process.env.GMS_FAILURES_FILE;
});

function killStray(pidFile: string): void {
  try {
    process.kill(-Number(readFileSync(pidFile, 'utf8')), 'SIGKILL');
  } catch {
    // none, or already gone
  }
}

it('counts a failed test and names it, with its message, in the failures file test-all.mjs prints', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gms-failures-test-'));
  dirs.push(dir);
  process.env.GMS_FAILURES_FILE = join(dir, 'failed.txt');
  const counts = runVitest('fixture', ['-c', 'test/scripts/fixtures/vitest.fixture.config.ts'], {}, { quiet: true }) as { passed: number; failed: number; ok: boolean };
  expect(counts).toMatchObject({ passed: 1, failed: 1, ok: false });
  const lines = readFileSync(process.env.GMS_FAILURES_FILE, 'utf8').trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toContain('fixture: test/scripts/fixtures/one-fails.fixture.ts > fails on purpose');
  expect(lines[0]).toContain("expected 'what CI saw' to be 'what it expected'");
});

it.runIf(process.platform === 'linux')('names a run that failed with no failed test (a process the tests left running)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gms-failures-test-'));
  dirs.push(dir);
  process.env.GMS_FAILURES_FILE = join(dir, 'failed.txt');
  const counts = runVitest('fixture', ['-c', 'test/scripts/fixtures/vitest.stray.config.ts'], { GMS_STRAY_PID_FILE: join(dir, 'stray.pid'), GMS_STRAY_GRACE_MS: '500' }, { quiet: true }) as { passed: number; failed: number; ok: boolean };
  expect(counts).toMatchObject({ passed: 1, failed: 0, ok: false });
  expect(readFileSync(process.env.GMS_FAILURES_FILE, 'utf8')).toBe('  fixture: vitest exited with 1 though no test failed: see the error printed before its summary\n');
});
