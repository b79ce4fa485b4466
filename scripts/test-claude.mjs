#!/usr/bin/env node
/**
 * `npm run test:claude`: the real Claude Code CLI suite (test/claude, vitest.claude.config.ts).
 * Builds first (the hooks under test are the built dist/ ones, as `install` registers them),
 * installs the pinned CLI into its cache folder if needed (scripts/claude-code.mjs), runs the
 * suite and ends with one line "N passed, M failed"; exits non-zero on any failure.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureClaudeCode } from './claude-code.mjs';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
let broken = false;
if (spawnSync(npm, ['run', '--silent', 'build'], { stdio: 'inherit' }).status !== 0) broken = true;
process.stdout.write(`claude: ${ensureClaudeCode()}\n`);

const dir = mkdtempSync(join(tmpdir(), 'gms-vitest-claude-'));
const report = join(dir, 'report.json');
const r = spawnSync(npx, ['vitest', 'run', '-c', 'vitest.claude.config.ts', ...process.argv.slice(2), '--reporter=default', '--reporter=json', `--outputFile.json=${report}`], { stdio: 'inherit' });
let passed = 0;
let failed = 0;
try {
  const json = JSON.parse(readFileSync(report, 'utf8'));
  passed = json.numPassedTests ?? 0;
  failed = json.numFailedTests ?? 0;
  if ((json.numTotalTests ?? 0) === 0) broken = true;
} catch {
  broken = true;
}
rmSync(dir, { recursive: true, force: true });
if (r.status !== 0) broken = true;
process.stdout.write(`\n${passed} passed, ${failed} failed\n`);
process.exit(broken || failed > 0 ? 1 : 0);
