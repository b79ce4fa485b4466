#!/usr/bin/env node
/**
 * The real Claude Code CLI for `npm run test:claude` and `npm run bench`, pinned EXACTLY.
 *
 * It is installed into a cache folder (GMS_CLAUDE_CODE_DIR, default
 * ~/.cache/graphiti-memory-sync/claude-code-<version>), not as a devDependency: Claude Code runs
 * `npm ci` in a plugin's copy of this repository, and a 200 MB test tool there would make every
 * plugin install slower (issue 13). The package's postinstall (which links the platform's native
 * binary) runs explicitly, as npm asks to approve it.
 *
 * Every generation users run is pinned (CLAUDE_CODE_VERSIONS); GMS_CLAUDE_CODE_VERSION picks the one
 * a run uses (default the oldest). The npm package of 2.1.332 requires Node >= 22: its suite runs
 * under a Node 22 from the npm registry (scripts/test/test-claude.mjs, as the conformance suite does).
 *
 *   node scripts/test/claude-code.mjs          prints the path of the `claude` binary (installs if needed)
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The pinned generations, oldest first, and the Node major each one's npm package requires. */
export const CLAUDE_CODE_VERSIONS = ['2.1.330', '2.1.332'];
export const CLAUDE_CODE_NODE = { '2.1.330': 18, '2.1.332': 22 };
/** The Node 22 the 2.1.332 suite runs under (npx -p node@…), pinned exactly like the conformance suite's. */
export const NODE_22_PACKAGE = 'node@22.23.3';

/** The version this run uses: GMS_CLAUDE_CODE_VERSION (one of the pinned), else the oldest. */
export function claudeCodeVersion(env = process.env) {
  const wanted = env.GMS_CLAUDE_CODE_VERSION || CLAUDE_CODE_VERSIONS[0];
  if (!CLAUDE_CODE_VERSIONS.includes(wanted)) throw new Error(`GMS_CLAUDE_CODE_VERSION=${wanted} is not pinned: use one of ${CLAUDE_CODE_VERSIONS.join(', ')} (scripts/test/claude-code.mjs)`);
  return wanted;
}

/** Kept for existing callers: the version of this run. */
export const CLAUDE_CODE_VERSION = claudeCodeVersion();

export function claudeCodeDir(env = process.env, version = claudeCodeVersion(env)) {
  return env.GMS_CLAUDE_CODE_DIR || join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'graphiti-memory-sync', `claude-code-${version}`);
}

function works(bin, version) {
  try {
    return execFileSync(bin, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 30_000 }).startsWith(`${version} `);
  } catch {
    return false;
  }
}

/** The `claude` binary of the pinned version, installed on first use. */
export function ensureClaudeCode(env = process.env, version = claudeCodeVersion(env)) {
  const major = Number(process.versions.node.split('.')[0]);
  if (major < CLAUDE_CODE_NODE[version]) {
    throw new Error(`Claude Code ${version} requires Node >= ${CLAUDE_CODE_NODE[version]} (this is ${process.version}): run it through npm run test:claude, which uses ${NODE_22_PACKAGE} from the npm registry`);
  }
  const dir = claudeCodeDir(env, version);
  const bin = join(dir, 'node_modules', '.bin', 'claude');
  if (existsSync(bin) && works(bin, version)) return bin;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), '{"private":true}\n');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  execFileSync(npm, ['install', '--no-save', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error', `@anthropic-ai/claude-code@${version}`], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
  execFileSync(process.execPath, [join(dir, 'node_modules', '@anthropic-ai', 'claude-code', 'install.cjs')], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
  if (!works(bin, version)) throw new Error(`Claude Code ${version} did not install into ${dir}`);
  return bin;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.stdout.write(`${ensureClaudeCode()}\n`);
