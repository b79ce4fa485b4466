/**
 * One vitest run with a JSON report, for the test scripts (test-all, test-graphiti, test-claude):
 * returns its counts, and `ok: false` when vitest failed, wrote no report or ran no test.
 * The names of failed tests (and files that failed to load) are printed after the run and, when
 * GMS_FAILURES_FILE names a file, appended to it: test-all.mjs repeats them beside its closing line,
 * the part of a long CI log that is read first.
 */
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

export const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
export const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/**
 * SUITE_ENDS_WHOLE (test-all.mjs OUTPUT_OUTLIVES_STOP): a suite run beside another runs in a process group of its
 * own, which a stopped run ends whole. The process spawned is `npm run` or `npx`; ended alone (measured, npm 11.19),
 * it left the script it ran, with its vitest and servers, running on after the run. The price, decided: a SIGKILL
 * sent to test-all.mjs's own group (no handler runs) no longer reaches the suites; every catchable stop does.
 */
export const SUITE_GROUP = { detached: process.platform !== 'win32' };

/**
 * A command run beside others, its output held until it ends (PEER_LANES: lanes' outputs do not interleave), in a
 * process group of its own (SUITE_GROUP); `running` (test-all.mjs OUTPUT_OUTLIVES_STOP) holds it, with its output so
 * far, while it runs. One owner for the typecheck and build steps, the npm scripts and the vitest runs.
 * @returns {Promise<{ code: number | null, signal: NodeJS.Signals | null, stdout: string, stderr: string, output: string }>}
 */
export function runHeld(name, cmd, args, env, running) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], ...SUITE_GROUP });
    let stdout = '';
    let stderr = '';
    let output = ''; // both, in the order they came
    running.set(name, { child, output: () => output });
    child.stdout.setEncoding('utf8').on('data', (d) => ((stdout += d), (output += d)));
    child.stderr.setEncoding('utf8').on('data', (d) => ((stderr += d), (output += d)));
    child.once('error', (error) => ((stderr += `${error.message}\n`), (output += `${error.message}\n`)));
    child.once('close', (code, signal) => {
      running.delete(name);
      resolve({ code, signal, stdout, stderr, output });
    });
  });
}

/**
 * `quiet`: print nothing (a test of this script runs a suite that fails on purpose, whose output in
 * the log would read as a failure).
 * @returns {{ passed: number, failed: number, skipped: number, ok: boolean }}
 */
export function runVitest(name, args, env = {}, { quiet = false } = {}) {
  const run = vitestRun(name, args, quiet);
  if (!quiet) process.stdout.write(run.header);
  const r = spawnSync(npx, run.argv, { stdio: quiet ? 'ignore' : 'inherit', env: { ...process.env, ...env } });
  return run.counts(r.status, r.signal);
}

/**
 * The same run without blocking this process (test-all.mjs runs it beside another suite: PEER_LANES);
 * its output is printed whole when it ends, so it does not interleave with the other suite's.
 * `running` (test-all.mjs OUTPUT_OUTLIVES_STOP) holds it, with its output so far, while it runs.
 * @returns {Promise<{ passed: number, failed: number, skipped: number, ok: boolean }>}
 */
export async function runVitestAsync(name, args, env = {}, running = new Map()) {
  const run = vitestRun(name, args, false);
  const { code, signal, output } = await runHeld(name, npx, run.argv, env, running);
  process.stdout.write(run.header + output);
  return run.counts(code, signal);
}

/** One vitest run's header line, arguments (a JSON report in a folder of its own) and how its counts are read once it ended. */
function vitestRun(name, args, quiet) {
  const dir = mkdtempSync(join(tmpdir(), 'gms-vitest-'));
  const report = join(dir, 'vitest.json');
  const say = (text) => (quiet ? undefined : process.stdout.write(text));
  const header = `\n== ${name}: vitest run ${args.join(' ')}\n`;
  const argv = ['vitest', 'run', ...args, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`];
  const counts = (status, signal) => {
    const counts = { passed: 0, failed: 0, skipped: 0, ok: status === 0 };
    try {
      const json = JSON.parse(readFileSync(report, 'utf8'));
      counts.passed = json.numPassedTests ?? 0;
      counts.failed = json.numFailedTests ?? 0;
      counts.skipped = (json.numPendingTests ?? 0) + (json.numTodoTests ?? 0);
      if ((json.numTotalTests ?? 0) === 0) counts.ok = false;
      const failures = failuresOf(json);
      // Failed with no failed test: an error outside the tests (a global teardown's, such as a process
      // the tests left running, test/setup/stray-processes.ts), printed above; named here too.
      if (status !== 0 && failures.length === 0) failures.push(`vitest exited with ${status ?? signal} though no test failed: see the error printed before its summary`);
      // A run of no test (a filter that matched nothing) fails the run (counts.ok above): named too.
      else if ((json.numTotalTests ?? 0) === 0) failures.push('vitest ran no test: see its output above');
      reportFailures(name, failures, say);
    } catch {
      counts.ok = false;
      say(`== ${name} wrote no report\n`);
      // SUITE_FAILURE_NAMED (test-all.mjs): a run that ended before it wrote its report (a crash, a config
      // that did not load) is named in the list at the end of the log, like a failed test.
      reportFailures(name, [`vitest exited with ${status ?? signal} and wrote no report: see its output above`], () => undefined);
    }
    rmSync(dir, { recursive: true, force: true });
    return counts;
  };
  return { header, argv, counts };
}

/** One line per failed test, or per test file that failed without a failed test (it did not load). */
function failuresOf(json) {
  const lines = [];
  for (const file of json.testResults ?? []) {
    const where = relative(process.cwd(), file.name ?? '');
    const failed = (file.assertionResults ?? []).filter((t) => t.status === 'failed');
    for (const t of failed) lines.push(`${where} > ${t.fullName ?? t.title}: ${firstLine(t.failureMessages?.[0])}`);
    if (failed.length === 0 && file.status === 'failed') lines.push(`${where}: ${firstLine(file.message)}`);
  }
  return lines;
}

const firstLine = (message) => String(message ?? '').split('\n').find((l) => l.trim() !== '')?.trim().slice(0, 300) ?? '';

function reportFailures(name, lines, say) {
  if (lines.length === 0) return;
  const block = lines.map((l) => `  ${name}: ${l}\n`).join('');
  say(`== ${name}: failed\n${block}`);
  if (process.env.GMS_FAILURES_FILE) appendFileSync(process.env.GMS_FAILURES_FILE, block);
}
