/**
 * test/setup/stray-processes.ts, the guard every suite shares (test/setup/shared-config.ts): a
 * process a test starts and leaves running after the run fails the run, named with its test file,
 * and is killed; a server the suite keeps on purpose and stops in its own teardown does not.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { useTempDir } from '../helpers/use-temp-dir.js';
import { REPO_ROOT } from '../support/paths.js';

let dir = '';
useTempDir('gms-stray-', (d) => (dir = d));
const pidFile = () => join(dir, 'stray.pid');

// Should the guard miss it, the fixture's process is not left behind by this test either.
afterEach(() => {
  if (!existsSync(pidFile())) return;
  const pid = Number(readFileSync(pidFile(), 'utf8'));
  if (running(pid)) process.kill(pid, 'SIGKILL');
});

/** Whether `pid` still runs: a killed orphan may be a zombie for a moment, until init reaps it. */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** The fixture suite (test/scripts/fixtures/vitest.stray.config.ts) on one of its files: its output, exit code, and the pid its process wrote. */
function runFixture(fixture: string, env: Record<string, string> = {}): { output: string; status: number | null; pid: number } {
  const run = spawnSync(process.execPath, [join(REPO_ROOT, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '-c', 'test/scripts/fixtures/vitest.stray.config.ts'], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    env: { ...process.env, GMS_STRAY_PID_FILE: pidFile(), GMS_STRAY_GRACE_MS: '500', GMS_STRAY_FIXTURE: fixture, ...env },
    timeout: 60_000,
  });
  return { output: `${run.stdout}${run.stderr}`, status: run.status, pid: Number(readFileSync(pidFile(), 'utf8')) };
}

it.runIf(process.platform === 'linux')('a process a test leaves running fails the run, named with its test file, and is killed', () => {
  const { output, status, pid } = runFixture('leaves-a-process');
  expect(output).toMatch(/1 passed/);
  expect(output).toContain('1 process(es) started by the tests outlived the test run (killed now)');
  expect(output).toContain(`pid ${pid} from test/scripts/fixtures/stray/leaves-a-process.fixture.ts`);
  expect(status).toBe(1);
  expect(running(pid)).toBe(false);
});

it.runIf(process.platform === 'linux')('a server a test starts as the real-peer tests start Graphiti and FalkorDB (environment built from scratch) and never stops fails the run, named with its test file', () => {
  const { output, status, pid } = runFixture('leaves-a-server');
  expect(output).toMatch(/1 passed/);
  expect(output).toContain('1 process(es) started by the tests outlived the test run (killed now)');
  expect(output).toContain(`pid ${pid} from test/scripts/fixtures/stray/leaves-a-server.fixture.ts`);
  expect(status).toBe(1);
  expect(running(pid)).toBe(false);
});

it.runIf(process.platform === 'linux')("a server the suite keeps for all its files and stops in its own global teardown passes; one that teardown leaves running fails the run", () => {
  const kept = runFixture('uses-the-suite-server');
  expect(kept.output).toMatch(/1 passed/);
  expect(kept.output).not.toContain('outlived the test run');
  expect(kept.status).toBe(0);
  expect(running(kept.pid)).toBe(false);

  const leaked = runFixture('uses-the-suite-server', { GMS_STRAY_SUITE_SERVER: 'leak' });
  expect(leaked.output).toMatch(/1 passed/);
  expect(leaked.output).toContain('1 process(es) started by the tests outlived the test run (killed now)');
  expect(leaked.output).toContain(`pid ${leaked.pid} from `);
  expect(leaked.status).toBe(1);
  expect(running(leaked.pid)).toBe(false);
});
