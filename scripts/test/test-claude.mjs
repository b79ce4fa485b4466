#!/usr/bin/env node
/**
 * `npm run test:claude`: the real Claude Code CLI suite (test/claude, vitest.claude.config.ts) on
 * every pinned generation (scripts/test/claude-code.mjs: 2.1.330, 2.1.332 and 2.1.337). Builds first (the
 * hooks under test are the built dist/ ones, as `install` registers them), installs each pinned CLI into
 * its cache folder from its committed lockfile if needed (every package hashed:
 * scripts/test/locked-install.mjs), runs the suite once per generation and ends with one line
 * "N passed, M failed"; exits non-zero on any failure.
 *
 * A generation whose npm package needs a newer Node than this one (2.1.332, 2.1.337: Node >= 22) runs under
 * Node.js 22.23.3 installed from its committed hashed lock (scripts/test/locked-node.mjs, as the
 * conformance suite does), first on PATH: the CLI, vitest and our hooks all run on it then.
 *
 *   npm run test:claude                       every generation
 *   GMS_CLAUDE_CODE_VERSION=2.1.337 npm run test:claude -- -t fork    one generation, vitest arguments after --
 */
import { spawnSync } from 'node:child_process';
import { CLAUDE_CODE_NODE, CLAUDE_CODE_VERSIONS, ensureClaudeCode } from './claude-code.mjs';
import { NODE_22_VERSION, ensureLockedNode, envWithNode } from './locked-node.mjs';
import { npm, runVitest } from './vitest-run.mjs';

const args = process.argv.slice(2);
const only = process.env.GMS_CLAUDE_CODE_VERSION;
const versions = only ? [only] : CLAUDE_CODE_VERSIONS;
const built = process.env.GMS_CLAUDE_SKIP_BUILD === '1' || spawnSync(npm, ['run', '--silent', 'build'], { stdio: 'inherit' }).status === 0;
const major = Number(process.versions.node.split('.')[0]);

let passed = 0;
let failed = 0;
let ok = built;
for (const version of versions) {
  if (major < CLAUDE_CODE_NODE[version]) {
    // This generation under a Node it supports: the same script, for it alone, built already.
    process.stdout.write(`\n== Claude Code ${version} under Node.js ${NODE_22_VERSION}\n`);
    const node = ensureLockedNode(NODE_22_VERSION);
    const child = spawnSync(node.path, ['scripts/test/test-claude.mjs', ...args], {
      stdio: ['inherit', 'pipe', 'inherit'],
      encoding: 'utf8',
      env: envWithNode(node, { ...process.env, GMS_CLAUDE_CODE_VERSION: version, GMS_CLAUDE_SKIP_BUILD: '1' }),
    });
    process.stdout.write(child.stdout ?? '');
    const tally = /(\d+) passed, (\d+) failed\s*$/.exec(child.stdout ?? '');
    passed += Number(tally?.[1] ?? 0);
    failed += Number(tally?.[2] ?? 0);
    ok &&= child.status === 0 && tally !== null;
    continue;
  }
  const env = { GMS_CLAUDE_CODE_VERSION: version };
  process.stdout.write(`claude ${version} (node ${process.version}): ${ensureClaudeCode({ ...process.env, ...env }, version)}\n`);
  const r = runVitest(`claude ${version}`, ['-c', 'vitest.claude.config.ts', ...args], env);
  passed += r.passed;
  failed += r.failed;
  ok &&= r.ok;
}
process.stdout.write(`\n${passed} passed, ${failed} failed\n`);
process.exit(ok && failed === 0 ? 0 : 1);
