/** Where Claude Code keeps each scope's settings and MCP servers, and where our records go. */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { claudeConfigDirFromEnvironment, claudeJsonPathFromEnvironment, defaultStateDir } from '../config/env-file.js';
import type { InstallOptions } from './types.js';
import { processEnv } from '../config/process-env.js';

type Env = Record<string, string | undefined>;

export function homeOf(options: InstallOptions, env: Env): string {
  if (options.home !== undefined) return options.home;
  return env.HOME && env.HOME !== '' ? env.HOME : homedir();
}

function claudeDir(options: InstallOptions, env: Env): string {
  return claudeConfigDirFromEnvironment({ ...env, HOME: homeOf(options, env) });
}

/** The settings file for a scope. */
export function settingsPath(options: InstallOptions): string {
  const env = options.env ?? processEnv();
  const cwd = resolve(options.cwd ?? process.cwd());
  if (options.scope === 'user') return join(claudeDir(options, env), 'settings.json');
  if (options.scope === 'project') return join(cwd, '.claude', 'settings.json');
  return join(cwd, '.claude', 'settings.local.json');
}

/** Where Claude Code reads MCP servers for a scope, and the key path of `mcpServers` in it. */
export function mcpLocation(options: InstallOptions): { file: string; path: string[] } {
  const env = options.env ?? processEnv();
  const cwd = resolve(options.cwd ?? process.cwd());
  const global = claudeJsonPathFromEnvironment({ ...env, HOME: homeOf(options, env) });
  if (options.scope === 'project') return { file: join(cwd, '.mcp.json'), path: ['mcpServers'] };
  if (options.scope === 'local') return { file: global, path: ['projects', cwd, 'mcpServers'] };
  return { file: global, path: ['mcpServers'] };
}

/** POSIX single-quoting (also what Git Bash on Windows runs hook commands with). */

export function stateDirOf(options: InstallOptions): string {
  if (options.stateDir !== undefined) return options.stateDir;
  const env = options.env ?? processEnv();
  return defaultStateDir({ ...env, HOME: homeOf(options, env) });
}
