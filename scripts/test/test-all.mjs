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
 * side by side: the real Graphiti server alone (the longest), and the hooks from dist, conformance,
 * old Node.js, the real Claude Code CLI and the package routes one after another. They share no port,
 * cache folder or build: each lane's processes carry their own run's name (test/setup/stray-processes.ts),
 * the Graphiti environments and Claude Code installs live in their own cache folders,
 * and the Claude Code suite uses the dist/ built here (GMS_CLAUDE_SKIP_BUILD) instead of rebuilding it
 * under the other lane. Each suite's output is printed whole when it ends, so the log reads suite by
 * suite (and when the run is stopped, what each running suite printed so far: OUTPUT_OUTLIVES_STOP).
 */
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { npm, npx, runVitest, runVitestAsync, SUITE_GROUP } from './vitest-run.mjs';

// Every suite's failed tests, by name, for the end of the log (vitest-run.mjs appends them).
const failuresDir = mkdtempSync(join(tmpdir(), 'gms-failures-'));
process.env.GMS_FAILURES_FILE = join(failuresDir, 'failed.txt');

const realPeers = process.argv.includes('--real-peers');
let passed = 0;
let failed = 0;
let skipped = 0;
let broken = false;

function step(name, cmd, args) {
  process.stdout.write(`\n== ${name}: ${cmd} ${args.join(' ')}\n`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: process.env });
  if (r.status !== 0) {
    broken = true;
    process.stdout.write(`== ${name} FAILED (exit ${r.status ?? r.signal})\n`);
  }
  return r.status === 0;
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
function script(name, scriptName, env = {}) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(npm, ['run', '--silent', scriptName], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], ...SUITE_GROUP });
    let stdout = '';
    let stderr = '';
    running.set(name, { child, output: () => `${stdout}${stderr}` });
    child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
    child.once('error', (error) => (stderr += `${error.message}\n`));
    child.once('close', (code, signal) => {
      running.delete(name);
      process.stdout.write(`\n== ${name}: npm run ${scriptName}\n${stdout}${stderr}`);
      // The closing line is the last match (per-scenario lines of the conformance runner say "succeeded").
      const m = [...stdout.matchAll(/^(\d+) passed, (\d+) failed/gm)].pop();
      const ok = code === 0 && m !== undefined;
      add({ passed: Number(m?.[1] ?? 0), failed: Number(m?.[2] ?? 0), ok });
      // SUITE_FAILURE_NAMED: a suite that failed is named in the list at the end of the log, whichever lane ran it; its
      // tests name themselves there only when vitest ran them (not an environment that could not be built, nor a crash).
      if (!ok) appendFileSync(process.env.GMS_FAILURES_FILE, `  ${name}: npm run ${scriptName} exited with ${code ?? signal}${m === undefined ? ' without its closing count' : ''}: see its output above\n`);
      process.stdout.write(`== ${name}: ${((Date.now() - started) / 1000).toFixed(0)} s, exit ${code ?? signal}\n`);
      resolve();
    });
  });
}

/** Suites one after another (one lane of PEER_LANES). */
async function lane(suites) {
  for (const suite of suites) await suite();
}

step('typecheck', npx, ['tsc', '-p', 'tsconfig.json', '--noEmit']);
step('build', npm, ['run', '--silent', 'build']);
add(runVitest('vitest', []));
// The hooks again, as Claude Code runs them: the built (bundled) dist/hooks/*.js under plain node.
const hooksFromDist = async () => add(await runVitestAsync('hooks from dist', ['test/hooks', 'test/install/plugin.test.ts', 'test/context/context-cli.test.ts'], { GMS_HOOK_RUNNER: 'dist' }, running));
const conformance = () => script('conformance', 'test:conformance');
// The built hooks and command line under real Node.js binaries older than we need (from committed hashed locks, like the conformance suite's Node 22: scripts/test/locked-node.mjs).
const oldNode = () => script('old Node.js', 'test:old-node');
if (realPeers) {
  // PEER_LANES: the real Graphiti server beside the rest; dist/ was built above.
  const started = Date.now();
  await Promise.all([
    lane([() => script('real Graphiti server', 'test:graphiti')]),
    lane([hooksFromDist, conformance, oldNode, () => script('real Claude Code CLI', 'test:claude', { GMS_CLAUDE_SKIP_BUILD: '1' }), () => script('package routes', 'test:package')]),
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
