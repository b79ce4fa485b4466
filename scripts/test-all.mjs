#!/usr/bin/env node
/**
 * The whole test suite, as CI runs it: typecheck, build, vitest, then the official MCP
 * conformance scenarios under Node 22. Prints one closing line "N passed, M failed"
 * (vitest tests + conformance checks) and exits non-zero if any step failed.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
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

step('typecheck', npx, ['tsc', '-p', 'tsconfig.json', '--noEmit']);
step('build', npm, ['run', '--silent', 'build']);

/** Runs vitest with a JSON report and adds its counts to the totals. */
function vitest(name, args, env = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'gms-vitest-'));
  const report = join(dir, 'vitest.json');
  process.stdout.write(`\n== ${name}: vitest run ${args.join(' ')}\n`);
  const r = spawnSync(npx, ['vitest', 'run', ...args, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`], {
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  if (r.status !== 0) broken = true;
  try {
    const json = JSON.parse(readFileSync(report, 'utf8'));
    passed += json.numPassedTests ?? 0;
    failed += json.numFailedTests ?? 0;
    skipped += (json.numPendingTests ?? 0) + (json.numTodoTests ?? 0);
    if ((json.numTotalTests ?? 0) === 0) broken = true;
  } catch {
    broken = true;
    process.stdout.write(`== ${name} wrote no report\n`);
  }
  rmSync(dir, { recursive: true, force: true });
}

vitest('vitest', []);
// The hooks again, as Claude Code runs them: the built (bundled) dist/hooks/*.js under plain node.
vitest('hooks from dist', ['test/hooks', 'test/install/plugin.test.ts', 'test/context/context-cli.test.ts'], { GMS_HOOK_RUNNER: 'dist' });

const conf = spawnSync(npm, ['run', '--silent', 'test:conformance'], { encoding: 'utf8', env: process.env });
process.stdout.write(`\n== conformance\n${conf.stdout ?? ''}${conf.stderr ?? ''}`);
// The closing line is the last match (per-scenario lines say "succeeded").
const m = [...(conf.stdout ?? '').matchAll(/^(\d+) passed, (\d+) failed$/gm)].pop();
if (m) {
  passed += Number(m[1]);
  failed += Number(m[2]);
}
if (conf.status !== 0 || !m) broken = true;

process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`);
process.exit(broken || failed > 0 ? 1 : 0);
