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
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  delete process.env.GMS_FAILURES_FILE;
});

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
