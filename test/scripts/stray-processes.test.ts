/**
 * test/setup/stray-processes.ts, the fast suite's guard: a process a test starts and leaves running
 * after the run fails the run, named with its test file, and is killed.
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
  if (running(pid)) process.kill(-pid, 'SIGKILL');
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

it.runIf(process.platform === 'linux')('a process a test leaves running fails the run, named with its test file, and is killed', () => {
  const run = spawnSync(process.execPath, [join(REPO_ROOT, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '-c', 'test/scripts/fixtures/vitest.stray.config.ts'], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    env: { ...process.env, GMS_STRAY_PID_FILE: pidFile(), GMS_STRAY_GRACE_MS: '500' },
    timeout: 60_000,
  });
  const output = `${run.stdout}${run.stderr}`;
  const pid = Number(readFileSync(pidFile(), 'utf8'));
  expect(output).toMatch(/1 passed/);
  expect(output).toContain('1 process(es) started by the tests outlived the test run (killed now)');
  expect(output).toContain(`pid ${pid} from test/scripts/fixtures/stray/leaves-a-process.fixture.ts`);
  expect(run.status).toBe(1);
  expect(running(pid)).toBe(false);
});
