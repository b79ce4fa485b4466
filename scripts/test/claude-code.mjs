#!/usr/bin/env node
/**
 * The real Claude Code CLI for `npm run test:claude` and `npm run bench`, pinned EXACTLY.
 *
 * It is installed into a cache folder (GMS_CLAUDE_CODE_DIR, default
 * ~/.cache/graphiti-memory-sync/claude-code-<version>), not as a devDependency: Claude Code runs
 * `npm ci` in a plugin's copy of this repository, and a 200 MB test tool there would make every
 * plugin install slower (issue 13).
 *
 * Nothing unhashed is installed or run: each generation is installed with `npm ci` from the lockfile
 * committed in scripts/test/claude-code-locks/<version>/, which pins the package AND every platform's
 * native package to a sha512 (scripts/test/locked-install.mjs). The package's postinstall (which
 * copies the platform's native binary over bin/claude.exe) runs explicitly, after npm verified both.
 * A cache folder installed otherwise (older code ran a bare `npm install`) is installed again.
 *
 * Every generation users run is pinned (CLAUDE_CODE_VERSIONS); GMS_CLAUDE_CODE_VERSION picks the one
 * a run uses (default the oldest). The npm packages of 2.1.332 and 2.1.337 require Node >= 22: their
 * suites run under the Node 22 of a committed hashed lock (scripts/test/locked-node.mjs, run by
 * scripts/test/test-claude.mjs, as the conformance suite is).
 *
 *   node scripts/test/claude-code.mjs                  prints the path of the `claude` binary (installs if needed)
 *   node scripts/test/claude-code.mjs --lock 2.1.338   writes the lock folder of a new generation (then
 *                                                      add it to CLAUDE_CODE_VERSIONS and review the hashes)
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installLocked, installedFromLock } from './locked-install.mjs';
import { NODE_22_VERSION } from './locked-node.mjs';

/** The pinned generations, oldest first, and the Node major each one's npm package requires. */
export const CLAUDE_CODE_VERSIONS = ['2.1.330', '2.1.332', '2.1.337'];
export const CLAUDE_CODE_NODE = { '2.1.330': 18, '2.1.332': 22, '2.1.337': 22 };

/** The version this run uses: GMS_CLAUDE_CODE_VERSION (one of the pinned), else the oldest. */
export function claudeCodeVersion(env = process.env) {
  const wanted = env.GMS_CLAUDE_CODE_VERSION || CLAUDE_CODE_VERSIONS[0];
  if (!CLAUDE_CODE_VERSIONS.includes(wanted)) throw new Error(`GMS_CLAUDE_CODE_VERSION=${wanted} is not pinned: use one of ${CLAUDE_CODE_VERSIONS.join(', ')} (scripts/test/claude-code.mjs)`);
  return wanted;
}

/** Kept for existing callers: the version of this run. */
export const CLAUDE_CODE_VERSION = claudeCodeVersion();

/** The committed lock folder of a generation: package.json + package-lock.json with every sha512. */
export function claudeCodeLockDir(version) {
  return join(dirname(fileURLToPath(import.meta.url)), 'claude-code-locks', version);
}

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

/** The `claude` binary of the pinned version, installed on first use from its committed lock. */
export function ensureClaudeCode(env = process.env, version = claudeCodeVersion(env)) {
  const major = Number(process.versions.node.split('.')[0]);
  if (major < CLAUDE_CODE_NODE[version]) {
    throw new Error(`Claude Code ${version} requires Node >= ${CLAUDE_CODE_NODE[version]} (this is ${process.version}): run it through npm run test:claude, which runs it under Node.js ${NODE_22_VERSION} from its committed lock (scripts/test/locked-node.mjs)`);
  }
  const dir = claudeCodeDir(env, version);
  const bin = join(dir, 'node_modules', '.bin', 'claude');
  const lockDir = claudeCodeLockDir(version);
  if (!existsSync(join(lockDir, 'package-lock.json'))) throw new Error(`Claude Code ${version} has no committed lock in ${lockDir}: run node scripts/test/claude-code.mjs --lock ${version} and commit it`);
  if (installedFromLock(dir, lockDir) && existsSync(bin) && works(bin, version)) return bin;
  installLocked({ lockDir, dir, env, lockStep: `node scripts/test/claude-code.mjs --lock ${version}` });
  execFileSync(process.execPath, [join(dir, 'node_modules', '@anthropic-ai', 'claude-code', 'install.cjs')], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
  if (!works(bin, version)) throw new Error(`Claude Code ${version} did not install into ${dir}`);
  return bin;
}

/**
 * Writes the lock folder of a generation from the registry (`npm install --package-lock-only`: nothing
 * is downloaded but metadata, nothing runs). The hashes it records are the registry's of today: review
 * the diff before committing it.
 */
export function writeClaudeCodeLock(version) {
  const lockDir = claudeCodeLockDir(version);
  mkdirSync(lockDir, { recursive: true });
  rmSync(join(lockDir, 'package-lock.json'), { force: true });
  writeFileSync(join(lockDir, 'package.json'), '{\n  "private": true\n}\n');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  execFileSync(npm, ['install', '--package-lock-only', '--ignore-scripts', '--save-exact', '--no-audit', '--no-fund', '--loglevel=error', `@anthropic-ai/claude-code@${version}`], { cwd: lockDir, stdio: ['ignore', 'ignore', 'inherit'] });
  return lockDir;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const lock = process.argv.indexOf('--lock');
  if (lock !== -1) process.stdout.write(`${writeClaudeCodeLock(process.argv[lock + 1] ?? claudeCodeVersion())}\n`);
  else process.stdout.write(`${ensureClaudeCode()}\n`);
}
