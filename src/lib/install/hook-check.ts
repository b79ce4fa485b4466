/**
 * Whether the hook entries `install` recorded can still run here, for `status`: a hook command
 * that names a copy of the package which is gone (a checkout moved, a global install removed, a
 * project whose `npm install` has not run) fails in every session, and Claude Code shows that
 * only in its debug log. Each problem carries the command that fixes it.
 *
 * The forms `install` writes (hook-entries.ts): `graphiti-memory-sync-hook <name>` (the bin on
 * PATH), `node '<absolute path>'`, and `node "$CLAUDE_PROJECT_DIR/<path>"` (project scope, and
 * this repository's own `hooks/run.mjs`).
 */
import { existsSync } from 'node:fs';
import { hookBinOnPath, ourHookCommands, scriptOf } from './copies.js';
import { HOOK_BIN } from './hook-launcher.js';
import type { InstallOptions, InstallScope } from './types.js';

export interface HookProblem {
  scope: InstallScope;
  file: string;
  command: string;
  /** Why it cannot run, and what to run. */
  message: string;
}

function why(scope: InstallScope, command: string, projectDir: string, path: string | undefined): string | undefined {
  const again = `run "graphiti-memory-sync install --scope ${scope}" from the copy of graphiti-memory-sync you use now`;
  if (command.trim().startsWith(`${HOOK_BIN} `)) {
    return hookBinOnPath(path) !== undefined ? undefined : `${HOOK_BIN} is not on your PATH (the global install is gone): install the package globally again (see the README's Install), or ${again}`;
  }
  const script = scriptOf(command, projectDir);
  if (script === undefined || existsSync(script)) return undefined;
  if (/\$\{?CLAUDE_PROJECT_DIR/.test(command) && /[\\/]node_modules[\\/]/.test(script)) {
    return `${script} does not exist: run "npm install" in ${projectDir} (graphiti-memory-sync is a dev dependency of the project)`;
  }
  return `${script} does not exist (that copy moved or was removed): ${again}`;
}

/** Our hook entries, in every scope's settings file, that cannot run from here. */
export function hookProblems(options: Pick<InstallOptions, 'env' | 'cwd' | 'home'>): HookProblem[] {
  const projectDir = options.cwd ?? process.cwd();
  const problems: HookProblem[] = [];
  for (const { scope, file, command } of ourHookCommands(options)) {
    const message = why(scope, command, projectDir, options.env?.PATH);
    if (message !== undefined) problems.push({ scope, file, command, message });
  }
  return problems;
}
