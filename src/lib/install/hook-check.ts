/**
 * Whether the hook entries `install` recorded can still run here, for `status`: a hook command
 * that names a copy of the package which is gone (a checkout moved, a global install removed, a
 * project whose `npm install` has not run) does nothing in any session, and Claude Code shows that
 * at most in its debug log. Each problem carries the command that fixes it.
 *
 * What a command runs, in every form `install` wrote, is read by `hookLaunch` (hook-entries.ts):
 * the `graphiti-memory-sync-hook` bin on PATH, `node '<absolute path>'`, or
 * `node "$CLAUDE_PROJECT_DIR/<path>"` (project scope, and this repository's own `hooks/run.mjs`).
 * An entry written with the guard ends quietly when its target is missing; an older one fails
 * with a hook error in every session: the message says which the user sees.
 */
import { existsSync } from 'node:fs';
import { hookBinOnPath, ourHookCommands } from './copies.js';
import { HOOK_BIN } from './hook-launcher.js';
import { hookLaunch } from './hook-entries.js';
import { checksForNode } from './node-guard.js';
import type { InstallOptions, InstallScope } from './types.js';
import { cli } from '../util/install-route.js';

export interface HookProblem {
  scope: InstallScope;
  file: string;
  command: string;
  /** Why it cannot run, what a session shows meanwhile, and what to run. */
  message: string;
}

function why(scope: InstallScope, command: string, projectDir: string, path: string | undefined): string | undefined {
  const launch = hookLaunch(command);
  if (launch === undefined) return undefined;
  const meanwhile = launch.guarded
    ? 'until then every session skips this hook quietly (no sync, no context)'
    : 'until then every session shows a hook error (running install again also writes entries that skip quietly when their file is missing)';
  const again = `run "${cli()} install --scope ${scope}" from the copy of graphiti-memory-sync you use now, or remove the entries with "${cli()} uninstall --scope ${scope}"`;
  if (launch.kind === 'bin') {
    // LAUNCHER_OR_ITS_FILE: without the bin on PATH the entry runs the launcher file it names, while that is there.
    const runs = hookBinOnPath(path) !== undefined || (launch.file !== undefined && existsSync(launch.file));
    return runs ? undefined : `${HOOK_BIN} is not on your PATH (the global install is gone): install the package globally again (see the README's Install), or ${again}; ${meanwhile}`;
  }
  const script = launch.file.replace(/^\$\{?CLAUDE_PROJECT_DIR\}?/, projectDir);
  if (existsSync(script)) return undefined;
  if (script !== launch.file && /[\\/]node_modules[\\/]/.test(script)) {
    return `${script} does not exist: run "npm install" in ${projectDir} (graphiti-memory-sync is a dev dependency of the project); ${meanwhile}`;
  }
  return `${script} does not exist (that copy moved or was removed): ${again}; ${meanwhile}`;
}

/**
 * The settings files whose entries of ours run but were written before the node check
 * (node-guard.ts): where Claude Code's PATH has no node they fail with a hook error in every
 * session, and nothing else says why. `install` rewrites them; the plugin updates itself.
 */
export function hooksWithoutNodeCheck(options: Pick<InstallOptions, 'env' | 'cwd' | 'home'>): Array<{ scope: InstallScope; file: string }> {
  const projectDir = options.cwd ?? process.cwd();
  const files = new Map<string, { scope: InstallScope; file: string }>();
  for (const { scope, file, command } of ourHookCommands(options)) {
    if (checksForNode(command) || why(scope, command, projectDir, options.env?.PATH) !== undefined) continue;
    files.set(file, { scope, file });
  }
  return [...files.values()];
}

/**
 * The settings files whose bin entries of ours (a global install's `graphiti-memory-sync-hook`) run
 * but were written before LAUNCHER_OR_ITS_FILE (hook-entries.ts): they name the bin alone, so once
 * Claude Code's PATH leads to a Node without it (nvm switched versions) every session skips them
 * quietly, and `status` is not on that PATH to say so. `install` rewrites them.
 */
export function binHooksWithoutLauncherFile(options: Pick<InstallOptions, 'env' | 'cwd' | 'home'>): Array<{ scope: InstallScope; file: string }> {
  const projectDir = options.cwd ?? process.cwd();
  const files = new Map<string, { scope: InstallScope; file: string }>();
  for (const { scope, file, command } of ourHookCommands(options)) {
    const launch = hookLaunch(command);
    if (launch?.kind !== 'bin' || launch.file !== undefined || why(scope, command, projectDir, options.env?.PATH) !== undefined) continue;
    files.set(file, { scope, file });
  }
  return [...files.values()];
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
