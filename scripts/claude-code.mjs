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
 *   node scripts/claude-code.mjs          prints the path of the `claude` binary (installs if needed)
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CLAUDE_CODE_VERSION = '2.1.330';

export function claudeCodeDir(env = process.env) {
  return env.GMS_CLAUDE_CODE_DIR || join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'graphiti-memory-sync', `claude-code-${CLAUDE_CODE_VERSION}`);
}

function works(bin) {
  try {
    return execFileSync(bin, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 30_000 }).startsWith(`${CLAUDE_CODE_VERSION} `);
  } catch {
    return false;
  }
}

/** The `claude` binary of the pinned version, installed on first use. */
export function ensureClaudeCode(env = process.env) {
  const dir = claudeCodeDir(env);
  const bin = join(dir, 'node_modules', '.bin', 'claude');
  if (existsSync(bin) && works(bin)) return bin;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), '{"private":true}\n');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  execFileSync(npm, ['install', '--no-save', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error', `@anthropic-ai/claude-code@${CLAUDE_CODE_VERSION}`], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
  execFileSync(process.execPath, [join(dir, 'node_modules', '@anthropic-ai', 'claude-code', 'install.cjs')], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
  if (!works(bin)) throw new Error(`Claude Code ${CLAUDE_CODE_VERSION} did not install into ${dir}`);
  return bin;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.stdout.write(`${ensureClaudeCode()}\n`);
