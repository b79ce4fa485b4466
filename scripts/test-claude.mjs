#!/usr/bin/env node
/**
 * `npm run test:claude`: the real Claude Code CLI suite (test/claude, vitest.claude.config.ts).
 * Builds first (the hooks under test are the built dist/ ones, as `install` registers them),
 * installs the pinned CLI into its cache folder if needed (scripts/claude-code.mjs), runs the
 * suite and ends with one line "N passed, M failed"; exits non-zero on any failure.
 */
import { spawnSync } from 'node:child_process';
import { ensureClaudeCode } from './claude-code.mjs';
import { npm, runVitest } from './vitest-run.mjs';

const built = spawnSync(npm, ['run', '--silent', 'build'], { stdio: 'inherit' }).status === 0;
process.stdout.write(`claude: ${ensureClaudeCode()}\n`);
const r = runVitest('claude', ['-c', 'vitest.claude.config.ts', ...process.argv.slice(2)]);
process.stdout.write(`\n${r.passed} passed, ${r.failed} failed\n`);
process.exit(built && r.ok && r.failed === 0 ? 0 : 1);
