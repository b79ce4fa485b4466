#!/usr/bin/env node
/**
 * `npm run test:package`: the package routes (test/package/*.slow.test.ts, vitest.package.config.ts):
 * a fresh clone, the README's install commands, a global install and a dev dependency, their hooks
 * under the real Claude Code CLI (the first pinned generation, fetched into its cache if needed).
 * Ends with one line "N passed, M failed"; exits non-zero on any failure.
 */
import { ensureClaudeCode } from './claude-code.mjs';
import { runVitest } from './vitest-run.mjs';

process.stdout.write(`claude: ${ensureClaudeCode()}\n`);
const r = runVitest('package routes', ['-c', 'vitest.package.config.ts', ...process.argv.slice(2)]);
process.stdout.write(`\n${r.passed} passed, ${r.failed} failed\n`);
process.exit(r.ok && r.failed === 0 ? 0 : 1);
