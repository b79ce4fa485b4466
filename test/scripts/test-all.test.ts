/**
 * scripts/test/test-all.mjs, as CI runs it (`--real-peers`: PEER_LANES), with npm and npx stood in
 * for by two small scripts first on PATH: every suite but one passes, and the real Graphiti suite
 * fails before any test ran (its Python environment could not be built). The run must fail, and the
 * failed suite must be named in the list at the end of the log, the part read first; so must a failed
 * typecheck or build, and a vitest run that crashed before writing its report. And a run
 * stopped (a CI job's time limit) while the lanes run still prints what each running suite said so far.
 */
import { chmodSync, createReadStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawn, spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterEach, expect, it } from 'vitest';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A folder holding the stand-ins for `npm` and `npx`, put first on PATH by `onPath`. */
function fakeBin(npm: string, npx: string): string {
  const bin = mkdtempSync(join(tmpdir(), 'gms-test-all-'));
  dirs.push(bin);
  for (const [name, text] of [['npm', npm], ['npx', npx]] as const) {
    writeFileSync(join(bin, name), text);
    chmodSync(join(bin, name), 0o755);
  }
  return bin;
}

const onPath = (bin: string, env: Record<string, string> = {}): NodeJS.ProcessEnv => ({ ...process.env, PATH: `${bin}${delimiter}${process.env.PATH ?? ''}`, ...env });

/** test-all.mjs as CI runs it, to its end, with the stand-ins of `bin`. */
const runAll = (bin: string) => spawnSync(process.execPath, ['scripts/test/test-all.mjs', '--real-peers'], { encoding: 'utf8', env: onPath(bin), timeout: 60_000 });

/** `npm run --silent <script>`: the build passes, the real Graphiti suite fails with no test run, the others pass. */
const FAKE_NPM = `#!/bin/sh
case "$*" in
  *test:graphiti*) echo "0 passed, 1 failed (no Graphiti server environment)"; exit 1 ;;
  *build*) exit 0 ;;
  *) echo "3 passed, 0 failed"; exit 0 ;;
esac
`;

/** `npx tsc …` passes; `npx vitest run … --outputFile.json=<file>` writes a report of one passed test. */
const FAKE_NPX = `#!/bin/sh
for a in "$@"; do
  case "$a" in
    --outputFile.json=*) printf '%s' '{"numPassedTests":1,"numFailedTests":0,"numPendingTests":0,"numTodoTests":0,"numTotalTests":1,"testResults":[]}' > "\${a#--outputFile.json=}" ;;
  esac
done
exit 0
`;

it.runIf(process.platform !== 'win32')('a suite of either peer lane that fails with no failed test fails the run and is named at its end', () => {
  const bin = fakeBin(FAKE_NPM, FAKE_NPX);
  const r = runAll(bin);
  expect(r.status).toBe(1);
  const tail = r.stdout.slice(r.stdout.lastIndexOf('\nFailed tests:'));
  expect(tail).toMatch(/^\nFailed tests:\n {2}real Graphiti server: npm run test:graphiti exited with 1/);
  expect(r.stdout.trim().split('\n').at(-1)).toBe('14 passed, 1 failed, 0 skipped');
});

/** \`npm run --silent build\` fails; every suite passes. */
const FAKE_NPM_BUILD_FAILS = `#!/bin/sh
case "$*" in
  *build*) echo "build: an error"; exit 1 ;;
  *) echo "3 passed, 0 failed"; exit 0 ;;
esac
`;

/** \`npx tsc …\` fails; the hooks-from-dist vitest run crashes before it writes a report; the other vitest runs pass. */
const FAKE_NPX_TSC_FAILS = `#!/bin/sh
case "$1" in
  tsc) echo "src/x.ts(1,1): error TS2322"; exit 2 ;;
esac
case "$*" in
  *test/hooks*) echo "vitest: a crash before any test"; exit 1 ;;
esac
for a in "$@"; do
  case "$a" in
    --outputFile.json=*) printf '%s' '{"numPassedTests":1,"numFailedTests":0,"numPendingTests":0,"numTodoTests":0,"numTotalTests":1,"testResults":[]}' > "\${a#--outputFile.json=}" ;;
  esac
done
exit 0
`;

it.runIf(process.platform !== 'win32')('a typecheck or build that fails, and a vitest run that ends with no report, are named in the failed list at the end (SUITE_FAILURE_NAMED)', () => {
  const bin = fakeBin(FAKE_NPM_BUILD_FAILS, FAKE_NPX_TSC_FAILS);
  const r = runAll(bin);
  expect(r.status).toBe(1);
  const tail = r.stdout.slice(r.stdout.lastIndexOf('\nFailed tests:'));
  expect(tail).toMatch(/^\nFailed tests:\n/);
  expect(tail).toMatch(/^ {2}typecheck: npx tsc -p tsconfig\.json --noEmit exited with 2: see its output above$/m);
  expect(tail).toMatch(/^ {2}build: npm run --silent build exited with 1: see its output above$/m);
  expect(tail).toMatch(/^ {2}hooks from dist: vitest exited with 1 and wrote no report: see its output above$/m);
});

/** Every vitest run passes, but the hooks-from-dist one ran no test (a file filter that matched nothing). */
const FAKE_NPX_NO_TEST = `#!/bin/sh
total=1
case "$*" in
  *test/hooks*) total=0 ;;
esac
for a in "$@"; do
  case "$a" in
    --outputFile.json=*) printf '{"numPassedTests":%s,"numFailedTests":0,"numPendingTests":0,"numTodoTests":0,"numTotalTests":%s,"testResults":[]}' "$total" "$total" > "\${a#--outputFile.json=}" ;;
  esac
done
exit 0
`;

it.runIf(process.platform !== 'win32')('a vitest run that ran no test fails the run and is named in the failed list at the end (SUITE_FAILURE_NAMED)', () => {
  const bin = fakeBin(FAKE_NPM.replace('*test:graphiti*) echo "0 passed, 1 failed (no Graphiti server environment)"; exit 1 ;;\n', ''), FAKE_NPX_NO_TEST);
  const r = runAll(bin);
  expect(r.status).toBe(1);
  const tail = r.stdout.slice(r.stdout.lastIndexOf('\nFailed tests:'));
  expect(tail).toMatch(/^\nFailed tests:\n {2}hooks from dist: vitest ran no test: see its output above\n/);
});

/** The real Graphiti suite says a line, tells the test through a FIFO that it runs, and runs on (it is stopped). */
const FAKE_NPM_LONG = `#!/bin/sh
case "$*" in
  *test:graphiti*) echo "graphiti: the hung test's last words"; echo running > "$GMS_FAKE_STARTED"; exec sleep 120 ;;
  *build*) exit 0 ;;
  *) echo "3 passed, 0 failed"; exit 0 ;;
esac
`;

it.runIf(process.platform === 'linux')('stopped while the lanes run (SIGTERM): what each running suite printed so far is in the log, and the suite is ended with it (OUTPUT_OUTLIVES_STOP)', async () => {
  const bin = fakeBin(FAKE_NPM_LONG, FAKE_NPX);
  const started = join(bin, 'started');
  expect(spawnSync('mkfifo', [started]).status).toBe(0);
  const child = spawn(process.execPath, ['scripts/test/test-all.mjs', '--real-peers'], { env: onPath(bin, { GMS_FAKE_STARTED: started }), stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  const ended = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  // Opening the FIFO waits for the fake suite's write: the lanes run now.
  await new Promise<void>((resolve, reject) => {
    createReadStream(started).once('data', () => resolve()).once('error', reject);
  });
  child.kill('SIGTERM');
  const code = await ended;
  expect(code).not.toBe(0);
  expect(out).toContain("graphiti: the hung test's last words");
  expect(out).toMatch(/== real Graphiti server \(stopped by SIGTERM/);
});

/**
 * As a real `npm run` is: the suite's own processes are the script's children, not the one test-all.mjs spawned
 * (measured, npm 11.19: SIGTERM to `npm run` ends npm, and the node script it ran, with its vitest and servers,
 * runs on). The suite here starts a process that holds the FIFO `$GMS_FAKE_HELD` open for writing while it lives
 * (its id in `$GMS_FAKE_PID`, for the test to end it should the run not). That process says it runs only once it
 * holds the FIFO: said before, a stop could end it before it opened the FIFO, and the reader, whose open waits for
 * a writer, would wait for ever (seen with three runs at once).
 */
const FAKE_NPM_TREE = `#!/bin/sh
case "$*" in
  *test:graphiti*) sh -c 'echo $$ > "$GMS_FAKE_PID"; echo running > "$GMS_FAKE_STARTED"; exec sleep 120' > "$GMS_FAKE_HELD" & wait ;;
  *build*) exit 0 ;;
  *) echo "3 passed, 0 failed"; exit 0 ;;
esac
`;

/** The held process of FAKE_NPM_TREE, started instead by the typecheck (`npx tsc`, a step before the suites). */
const HOLD = `sh -c 'echo $$ > "$GMS_FAKE_PID"; echo running > "$GMS_FAKE_STARTED"; exec sleep 120' > "$GMS_FAKE_HELD" & wait`;
const FAKE_NPX_TSC_TREE = `#!/bin/sh
case "$1" in
  tsc) ${HOLD} ;;
esac
exit 0
`;

/**
 * test-all.mjs with the stand-ins of `bin`, stopped (SIGTERM) once the held process runs: whether that process ended
 * with the run (the FIFO it holds closes at once) or was left running (it would hold it for its two minutes).
 */
async function heldOutlivesStop(bin: string): Promise<string> {
  const started = join(bin, 'started');
  const held = join(bin, 'held');
  const pidFile = join(bin, 'pid');
  expect(spawnSync('mkfifo', [started, held]).status).toBe(0);
  // The held FIFO ends (EOF) once the held process is gone: no writer is left.
  const heldEnds = new Promise<void>((resolve, reject) => {
    createReadStream(held).on('data', () => undefined).once('end', () => resolve()).once('error', reject);
  });
  const child = spawn(process.execPath, ['scripts/test/test-all.mjs', '--real-peers'], { env: onPath(bin, { GMS_FAKE_STARTED: started, GMS_FAKE_HELD: held, GMS_FAKE_PID: pidFile }), stdio: ['ignore', 'ignore', 'ignore'] });
  const ended = new Promise<void>((resolve) => child.once('close', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    createReadStream(started).once('data', () => resolve()).once('error', reject);
  });
  child.kill('SIGTERM');
  await ended;
  let timer: NodeJS.Timeout | undefined;
  const outcome = await Promise.race([heldEnds.then(() => 'ended'), new Promise<string>((resolve) => (timer = setTimeout(() => resolve('still running after the run ended'), 10_000)))]);
  clearTimeout(timer);
  if (outcome !== 'ended') {
    try {
      process.kill(Number(readFileSync(pidFile, 'utf8')), 'SIGTERM');
    } catch {
      // already gone: the caller's assertion still names what was seen
    }
  }
  return outcome;
}

it.runIf(process.platform === 'linux')('stopped while the lanes run (SIGTERM): the processes a running suite started end with the run, not only the one it spawned (OUTPUT_OUTLIVES_STOP)', async () => {
  expect(await heldOutlivesStop(fakeBin(FAKE_NPM_TREE, FAKE_NPX))).toBe('ended');
}, 30_000);

it.runIf(process.platform === 'linux')('stopped during the typecheck (SIGTERM): the processes the typecheck started end with the run (STEP_ENDS_WHOLE)', async () => {
  expect(await heldOutlivesStop(fakeBin(FAKE_NPM, FAKE_NPX_TSC_TREE))).toBe('ended');
}, 30_000);

/** `npx vitest run …`: the built hooks' run ("hooks from dist", a lane's first suite) crashes before it writes its report. */
const FAKE_NPX_HOOKS_CRASH = `#!/bin/sh
case "$*" in
  *test/hooks*) echo "Error: failed to load the config"; exit 1 ;;
esac
for a in "$@"; do
  case "$a" in
    --outputFile.json=*) printf '%s' '{"numPassedTests":1,"numFailedTests":0,"numPendingTests":0,"numTodoTests":0,"numTotalTests":1,"testResults":[]}' > "\${a#--outputFile.json=}" ;;
  esac
done
exit 0
`;

it.runIf(process.platform !== 'win32')('a vitest suite of a peer lane that ends without its report fails the run and is named at its end (SUITE_FAILURE_NAMED)', () => {
  const passingNpm = FAKE_NPM.replace(/\*test:graphiti\*\)[^\n]*\n/, '');
  const bin = fakeBin(passingNpm, FAKE_NPX_HOOKS_CRASH);
  const r = runAll(bin);
  expect(r.status).toBe(1);
  const at = r.stdout.lastIndexOf('\nFailed tests:');
  expect(at).toBeGreaterThan(-1);
  expect(r.stdout.slice(at)).toContain('  hooks from dist: ');
});
