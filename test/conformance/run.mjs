#!/usr/bin/env node
/**
 * Runs the official MCP conformance suite (@modelcontextprotocol/conformance) against
 * our client (test/conformance/client.ts) for the client scenarios we support.
 *
 *   npm run test:conformance            (= node scripts/test/locked-node.mjs 22.23.3 test/conformance/run.mjs)
 *
 * The suite needs Node >= 22: `npm run test:conformance` runs it under Node.js 22.23.3 installed
 * from its committed hashed lock (scripts/test/locked-node.mjs; not a devDependency, because its
 * `node` bin would shadow the system Node 20 for every npm script). Our client runs under the Node named by
 * GMS_CLIENT_NODE (the script passes the system node), through tsx. Offline: the suite's mock servers listen on localhost.
 * Prints one summary line per scenario and finally `N passed, M failed` (checks);
 * exits non-zero when a check failed or a scenario errored, or when a process the scenarios
 * started outlived them (the guard every vitest suite has too: test/setup/stray-processes.ts).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const suite = join(root, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const tsxCli = join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs');
const clientNode = process.env.GMS_CLIENT_NODE || 'node';
const client = join(root, 'test', 'conformance', 'client.ts');
const DEFAULT_SCENARIOS = ['initialize', 'tools_call', 'sse-retry'];
const scenarios = process.argv.length > 2 ? process.argv.slice(2) : DEFAULT_SCENARIOS;
const verbose = process.env.CONFORMANCE_VERBOSE === '1';

function run(scenario, outDir) {
  return new Promise((resolvePromise) => {
    const args = [suite, 'client', '--command', `${clientNode} ${tsxCli} ${client}`, '--scenario', scenario, '-o', outDir];
    // The scenario's name for what its client leaves running (test/setup/stray-processes.ts).
    const env = { ...process.env, [TEST_FILE_VAR]: `test/conformance/run.mjs ${scenario}` };
    const child = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', (error) => resolvePromise({ code: -1, output: `${output}\n${error.message}` }));
    child.on('close', (code) => resolvePromise({ code: code ?? -1, output }));
  });
}

function readChecks(outDir, scenario) {
  const prefix = `${scenario.replace(/\//g, '-')}-`;
  const dirs = existsSync(outDir) ? readdirSync(outDir).filter((name) => name.startsWith(prefix)) : [];
  for (const dir of dirs.sort().reverse()) {
    const file = join(outDir, dir, 'checks.json');
    if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8'));
  }
  return undefined;
}

let passed = 0;
let failed = 0;
let errored = 0;

// The run is named before anything starts; the clients the suite starts inherit the name.
const strayGuard = await tsImport('../setup/stray-processes.ts', import.meta.url);
const { TEST_FILE_VAR } = await tsImport('../support/test-run.ts', import.meta.url);
strayGuard.setup();

for (const scenario of scenarios) {
  const outDir = mkdtempSync(join(tmpdir(), 'gms-conformance-'));
  try {
    const { code, output } = await run(scenario, outDir);
    let checks;
    try {
      checks = readChecks(outDir, scenario);
    } catch (error) {
      checks = undefined;
      console.log(`  (could not parse checks.json: ${error.message})`);
    }
    const graded = Array.isArray(checks) ? checks.filter((c) => c.status !== 'INFO') : [];
    const ok = graded.filter((c) => c.status === 'SUCCESS');
    const bad = graded.filter((c) => c.status === 'FAILURE');
    const warnings = graded.filter((c) => c.status === 'WARNING');
    passed += ok.length;
    failed += bad.length;
    const scenarioError = graded.length === 0 || (code !== 0 && bad.length === 0);
    if (scenarioError) errored++;
    const verdict = scenarioError ? 'ERROR' : bad.length > 0 ? 'FAIL' : 'PASS';
    const extra = warnings.length > 0 ? `, ${warnings.length} warning(s)` : '';
    // Not "N passed, M failed": only the closing line may match that pattern.
    console.log(`${verdict} ${scenario}: ${ok.length} succeeded, ${bad.length} failed${extra} (suite exit code ${code})`);
    for (const check of [...bad, ...warnings]) console.log(`  ${check.status} ${check.id}: ${check.errorMessage ?? check.description}`);
    if (scenarioError || bad.length > 0 || verbose) console.log(output.replace(/\u001b\[[0-9;]*m/g, '').replace(/^/gm, '  | '));
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

let strays = false;
try {
  await strayGuard.teardown();
} catch (error) {
  strays = true;
  console.log(error.message);
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 || errored > 0 || strays ? 1 : 0);
