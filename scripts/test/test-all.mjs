#!/usr/bin/env node
/**
 * The whole test suite: typecheck, build, vitest, the hooks again from the built bundles, then the
 * official MCP conformance scenarios under Node 22, and the built hooks and command line under real
 * Node.js binaries older than we need (npm run test:old-node). With `--real-peers` (what CI runs) also the
 * suites against the real peers: the real Graphiti MCP server (npm run test:graphiti, three
 * generations, plus the `server` command), the real Claude Code CLI (npm run test:claude), and the
 * package made from a fresh clone, installed and run under that CLI (npm run test:package).
 * Prints one closing line "N passed, M failed, K skipped" over every suite, the failed tests by name
 * before it, and exits non-zero if any step failed.
 *
 * PEER_LANES: after the fast suite (two vitest workers, both cores busy), the rest runs in two lanes
 * side by side: the hooks from dist then the real Graphiti server, and conformance, old Node.js, the
 * real Claude Code CLI and the package routes one after another. LANES_BALANCED: the two lanes take
 * about as long (ci-5: Graphiti 821 s, Claude Code 832 s of 967 s in its lane); the hooks from dist sit
 * before Graphiti because they install nothing that the other lane installs too (the Node.js binaries
 * of conformance and old Node.js, the Claude Code installs of the package routes are the Claude Code
 * suite's as well, and an install is not safe to run twice at once). They share no port,
 * cache folder or build: each lane's processes carry their own run's name (test/setup/stray-processes.ts),
 * the Graphiti environments and Claude Code installs live in their own cache folders,
 * and the Claude Code suite uses the dist/ built here (GMS_CLAUDE_SKIP_BUILD) instead of rebuilding it
 * under the other lane. Each suite's output is printed whole when it ends, so the log reads suite by
 * suite (and when the run is stopped, what each running suite printed so far: OUTPUT_OUTLIVES_STOP).
 */
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { npm, npx, runHeld, runVitest, runVitestAsync } from './vitest-run.mjs';

// Every suite's failed tests, by name, for the end of the log (vitest-run.mjs appends them).
const failuresDir = mkdtempSync(join(tmpdir(), 'gms-failures-'));
process.env.GMS_FAILURES_FILE = join(failuresDir, 'failed.txt');

const realPeers = process.argv.includes('--real-peers');
let passed = 0;
let failed = 0;
let skipped = 0;
let broken = false;

/**
 * A step before the tests (typecheck, build); its output is printed whole when it ends, with its
 * time (BUILD_BESIDE_TYPECHECK: the two run side by side). STEP_ENDS_WHOLE: in a process group of its
 * own, like a suite (runHeld), so a run stopped during the typecheck or build ends what npx or npm started.
 */
async function step(name, cmd, args) {
  const started = Date.now();
  const { code, signal, output } = await runHeld(name, cmd, args, {}, running);
  process.stdout.write(`\n== ${name}: ${cmd} ${args.join(' ')}\n${output}`);
  if (code !== 0) {
    broken = true;
    process.stdout.write(`== ${name} FAILED (exit ${code ?? signal})\n`);
    // SUITE_FAILURE_NAMED: a failed typecheck or build is named in the list at the end of the log too.
    appendFileSync(process.env.GMS_FAILURES_FILE, `  ${name}: ${cmd} ${args.join(' ')} exited with ${code ?? signal}: see its output above\n`);
  }
  process.stdout.write(`== ${name}: ${((Date.now() - started) / 1000).toFixed(0)} s, exit ${code ?? signal}\n`);
  return code === 0;
}

function add(counts) {
  passed += counts.passed;
  failed += counts.failed;
  skipped += counts.skipped ?? 0;
  if (!counts.ok) broken = true;
}

/**
 * OUTPUT_OUTLIVES_STOP: the suites running now, each with what it printed so far. A suite's output is
 * held until it ends (PEER_LANES), so a run stopped meanwhile (a CI job's time limit, Ctrl-C) would
 * lose it, the hung suite's last words first: stopped, the run prints each running suite's output,
 * ends the suite (a child left running would outlive the run) and exits as stopped.
 */
const running = new Map();
/** A stop ends a running suite's process group, not only the process spawned (vitest-run.mjs SUITE_ENDS_WHOLE). */
function endSuite(child, signal) {
  try {
    process.kill(-child.pid, signal);
  } catch {
    child.kill(signal); // no group (not started, or already gone)
  }
}
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.once(signal, () => {
    for (const [name, suite] of running) {
      process.stdout.write(`\n== ${name} (stopped by ${signal}; what it printed so far):\n${suite.output()}`);
      endSuite(suite.child, signal);
    }
    process.stdout.write(`\n== stopped by ${signal}\n`);
    process.exit(signal === 'SIGINT' ? 130 : 143);
  });
}

/**
 * A suite run by its own npm script, counted from its closing "N passed, M failed" line; its output
 * is printed whole when it ends (another lane's suite may run meanwhile: PEER_LANES).
 */
async function script(name, scriptName, env = {}) {
  const started = Date.now();
  const { code, signal, stdout, stderr } = await runHeld(name, npm, ['run', '--silent', scriptName], env, running);
  process.stdout.write(`\n== ${name}: npm run ${scriptName}\n${stdout}${stderr}`);
  // The closing line is the last match (per-scenario lines of the conformance runner say "succeeded").
  const m = [...stdout.matchAll(/^(\d+) passed, (\d+) failed/gm)].pop();
  const ok = code === 0 && m !== undefined;
  add({ passed: Number(m?.[1] ?? 0), failed: Number(m?.[2] ?? 0), ok });
  // SUITE_FAILURE_NAMED: a suite that failed is named in the list at the end of the log, whichever lane ran it; its
  // tests name themselves there only when vitest ran them (not an environment that could not be built, nor a crash).
  if (!ok) appendFileSync(process.env.GMS_FAILURES_FILE, `  ${name}: npm run ${scriptName} exited with ${code ?? signal}${m === undefined ? ' without its closing count' : ''}: see its output above\n`);
  process.stdout.write(`== ${name}: ${((Date.now() - started) / 1000).toFixed(0)} s, exit ${code ?? signal}\n`);
}

/** Suites one after another (one lane of PEER_LANES). */
async function lane(suites) {
  for (const suite of suites) await suite();
}

// BUILD_BESIDE_TYPECHECK: two processes that only read src/ (the build writes dist/, the typecheck
// nothing), one core each; the tests wait for both.
await Promise.all([step('typecheck', npx, ['tsc', '-p', 'tsconfig.json', '--noEmit']), step('build', npm, ['run', '--silent', 'build'])]);
const fastStarted = Date.now();
add(runVitest('vitest', []));
process.stdout.write(`== vitest: ${((Date.now() - fastStarted) / 1000).toFixed(0)} s\n`);
// The hooks again, as Claude Code runs them: the built (bundled) dist/hooks/*.js under plain node.
const hooksFromDist = async () => add(await runVitestAsync('hooks from dist', ['test/hooks', 'test/install/plugin.test.ts', 'test/context/context-cli.test.ts'], { GMS_HOOK_RUNNER: 'dist' }, running));
const conformance = () => script('conformance', 'test:conformance');
// The built hooks and command line under real Node.js binaries older than we need (from committed hashed locks, like the conformance suite's Node 22: scripts/test/locked-node.mjs).
const oldNode = () => script('old Node.js', 'test:old-node');
if (realPeers) {
  // PEER_LANES, LANES_BALANCED: the real Graphiti server beside the rest; dist/ was built above.
  const started = Date.now();
  await Promise.all([
    lane([hooksFromDist, () => script('real Graphiti server', 'test:graphiti')]),
    lane([conformance, oldNode, () => script('real Claude Code CLI', 'test:claude', { GMS_CLAUDE_SKIP_BUILD: '1' }), () => script('package routes', 'test:package')]),
  ]);
  process.stdout.write(`\n== peer lanes: ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
} else {
  await lane([hooksFromDist, conformance, oldNode]);
}

let failures = '';
try {
  failures = readFileSync(process.env.GMS_FAILURES_FILE, 'utf8');
} catch {
  // No suite failed a test.
}
rmSync(failuresDir, { recursive: true, force: true });
if (failures !== '') process.stdout.write(`\nFailed tests:\n${failures}`);
process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`);
process.exit(broken || failed > 0 ? 1 : 0);
