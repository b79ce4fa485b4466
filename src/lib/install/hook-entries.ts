/**
 * Our hook entries in a settings object, as pure transforms: the matcher groups we install, how a
 * handler is recognised as ours, merging them in (idempotent, a moved install updated in place)
 * and removing exactly them (plus what became empty by that removal).
 */
import { isAbsolute, join, relative, resolve } from 'node:path';
import {
  deepEqual,
  HOOK_SCRIPTS,
  InstallError,
  isObject,
  MARKER,
  MARKER_ARG,
  refusedFile,
  SESSION_START_MATCHER,
  SESSION_START_MATCHER_WITH_RESUME,
  SESSION_START_TIMEOUT_S,
  STOP_TIMEOUT_S,
  type Json,
  type JsonObject,
  type MatcherGroup,
} from './types.js';
import { HOOK_BIN } from './hook-launcher.js';
import { nodeGuard, NODE_GUARD_END, type HookEvent } from './node-guard.js';

export function shellQuote(s: string): string {
  return /^[A-Za-z0-9_/.:@%+=,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * A project-scope install goes into `.claude/settings.json`, which teams commit: an absolute path
 * would exist only on this machine (elsewhere Node's "Cannot find module", seen only in Claude
 * Code's debug log). So the package must live inside the project (e.g. node_modules/ after
 * `npm install -D graphiti-memory-sync`, or the project is this checkout) and the command names
 * it relative to `$CLAUDE_PROJECT_DIR`; otherwise install refuses with the alternatives.
 */
export function projectRelativeRoot(packageRoot: string, projectDir: string, file: string): string {
  const rel = relative(resolve(projectDir), resolve(packageRoot)).replace(/\\/g, '/');
  if (rel.startsWith('..') || isAbsolute(rel)) {
    throw new InstallError(
      `Refusing --scope project: ${file} is shared with your team, but this copy of graphiti-memory-sync lives outside the project (${packageRoot}), so the hook command would only work on this machine. ` +
        'Use --scope local (this machine only, not committed) or --scope user, install the plugin, or add graphiti-memory-sync to the project (npm install -D git+<URL of the repository>, or the tarball: README, "Install"; once published, npm install -D graphiti-memory-sync) and run "npx graphiti-memory-sync install --scope project" from there. Nothing was written.',
      file,
    );
  }
  if (!/^[A-Za-z0-9_./@+-]*$/.test(rel)) throw new InstallError(`Refusing --scope project: the package path "${rel}" has characters a shared hook command cannot carry safely; nothing was written.`, file);
  return rel;
}

/** How the hook command reaches the hooks (hook-launcher.ts says when which). */
export interface HookCommandOptions {
  onResume?: boolean;
  /** Project scope: the package's path under "$CLAUDE_PROJECT_DIR" (which Claude Code sets for every hook). */
  projectRelative?: string;
  /** The `graphiti-memory-sync-hook` bin on PATH leads to this package: name it, not a path. */
  launcherOnPath?: boolean;
}

/**
 * A hook command: `<target is there> || exit 0; <node is there> || <say so>; exec <run the hook>`.
 *
 * Claude Code runs a `command` through a POSIX shell (`sh -c` on Linux and macOS, Git Bash on
 * Windows) and shows any exit but 0 as a hook error, in every session. When the file the command
 * names is gone, Node fails before our code runs ("Cannot find module", exit 1), and a bin gone
 * from PATH is "command not found" (127): a teammate's clone opened before `npm install`, a global
 * package removed with `npm rm -g` and no `uninstall`, a checkout moved, dist/ mid-rebuild. So the
 * shell first asks whether the target is there, with a builtin that starts no process (`test -f`,
 * `command -v`), and ends quietly when it is not; `status` says so and what to run (hook-check.ts).
 * Then whether `node` is there (node-guard.ts: without it, exit 0 too, and SessionStart tells the
 * user, since nothing else can). The order: a file first, so a teammate whose clone has no
 * node_modules (who may not use the tool at all) hears nothing from us; the launcher after node,
 * since under nvm the global bin sits beside node and goes missing with it: node's absence is the
 * news there, not silence. When another node is there instead (nvm switched versions), the
 * launcher file of the install is run (LAUNCHER_OR_ITS_FILE).
 * When both are there, `exec` replaces the shell with the hook: the one process Claude Code times,
 * feeds stdin and kills on timeout, with the same output and exit code as the bare
 * `node <file> …` / `graphiti-memory-sync-hook …` earlier versions wrote (`hookLaunch` still reads
 * those). `test`, not `[`: Claude Code's debug log shows the command inside `[…]`.
 */
function guarded(steps: string[], run: string): string {
  return `${steps.join('; ')}; exec ${run}`;
}

/**
 * LAUNCHER_OR_ITS_FILE: the step before a global install's launcher. The launcher is named on PATH
 * so that whichever install is there at session time runs (an upgrade, a reinstall into another
 * prefix). But nvm keeps a global install beside the node it was made with: after `nvm use 22`
 * (or a new default) Claude Code's PATH has a node and no launcher, and the hooks ended quietly in
 * every session, nothing synced or loaded, with nothing to say so (`status` is not on that PATH
 * either). So without the launcher on PATH the command runs the launcher file of the install it
 * was made from (`launcher`, `<root>/dist/hooks/hook.js`: the launcher's own version gate judges
 * the node found), and ends quietly only when that is gone too (`npm rm -g`, `nvm uninstall 20`).
 */
function launcherOrItsFile(launcher: string, args: string): string {
  return `command -v ${HOOK_BIN} >/dev/null 2>&1 || { test -f ${launcher} || exit 0; exec node ${launcher} ${args}; }`;
}

/** A path as a hook command writes it: quoted by `shellQuote`, in double quotes, or bare. */
const PATH_ARG = String.raw`(?:'(?:[^']|'\\'')*'|"[^"]*"|\S+)`;
/** LAUNCHER_OR_ITS_FILE's step as written: `file` the pattern of its launcher file where `test -f` names it, `again` where `exec node` does. */
const launcherFileStep = (file: string, again = file) => String.raw`command -v ${HOOK_BIN} >\/dev\/null 2>&1 \|\| \{ test -f ${file} \|\| exit 0; exec node ${again} [^;]*; \}`;
/** That step, its launcher file captured (for `hookLaunch`). */
const LAUNCHER_FILE = new RegExp(launcherFileStep(`(${PATH_ARG})`, String.raw`\1`));

/** One step `guarded` puts before the run, as written. */
const STEP = String.raw`(?:(?:test -f ${PATH_ARG}|command -v \S+ >\/dev\/null 2>&1) \|\| ${NODE_GUARD_END}|${launcherFileStep(PATH_ARG)}); `;
const GUARD = new RegExp(`^(?:${STEP})+exec `);

/**
 * The matcher groups we install: `node` with `<packageRoot>/dist/hooks/<name>.js` (an absolute
 * path, or with `projectRelative` the path under "$CLAUDE_PROJECT_DIR"), or with `launcherOnPath`
 * the bin `graphiti-memory-sync-hook <name>`; each behind the steps of `guarded`.
 */
export function ourHookGroups(packageRoot: string, options: HookCommandOptions = {}): Record<'SessionStart' | 'Stop', MatcherGroup> {
  const script = (name: string) =>
    options.projectRelative !== undefined
      ? `"$CLAUDE_PROJECT_DIR/${[options.projectRelative, 'dist', 'hooks', `${name}.js`].filter((p) => p !== '').join('/')}"`
      : shellQuote(join(resolve(packageRoot), 'dist', 'hooks', `${name}.js`).replace(/\\/g, '/'));
  const command = (name: string, event: HookEvent) =>
    options.launcherOnPath === true && options.projectRelative === undefined
      ? guarded([nodeGuard(event), launcherOrItsFile(script('hook'), `${name} ${MARKER_ARG}`)], `${HOOK_BIN} ${name} ${MARKER_ARG}`)
      : guarded([`test -f ${script(name)} || exit 0`, nodeGuard(event)], `node ${script(name)} ${MARKER_ARG}`);
  return {
    SessionStart: {
      matcher: options.onResume === true ? SESSION_START_MATCHER_WITH_RESUME : SESSION_START_MATCHER,
      hooks: [{ type: 'command', command: command('session-start', 'SessionStart'), timeout: SESSION_START_TIMEOUT_S, statusMessage: 'Loading memory' }],
    },
    Stop: {
      hooks: [{ type: 'command', command: command('stop', 'Stop'), timeout: STOP_TIMEOUT_S }],
    },
  };
}

/**
 * What a hook command of ours runs: the bin on PATH, or a file (as written: `$CLAUDE_PROJECT_DIR`
 * not put in); `guarded` when it ends quietly without it (`guarded`), not with a hook error. A bin
 * entry written with LAUNCHER_OR_ITS_FILE names the launcher file it runs when the bin is not on PATH.
 */
export type HookLaunch = { kind: 'bin'; guarded: boolean; file?: string } | { kind: 'file'; file: string; guarded: boolean };

/**
 * What a command line `install` wrote runs, in every form it ever wrote: guarded (`guarded`) or
 * bare, `graphiti-memory-sync-hook <name> …`, `node '<absolute path>' …`, `node <path> …` or
 * `node "$CLAUDE_PROJECT_DIR/<path>" …`. Undefined for any other command.
 */
export function hookLaunch(command: string): HookLaunch | undefined {
  const line = command.trim();
  const run = line.replace(GUARD, '');
  const isGuarded = run !== line;
  if (run.startsWith(`${HOOK_BIN} `)) {
    const launcher = LAUNCHER_FILE.exec(line)?.[1];
    return launcher === undefined ? { kind: 'bin', guarded: isGuarded } : { kind: 'bin', guarded: isGuarded, file: unquote(launcher) };
  }
  const m = /^node\s+(?:'((?:[^']|'\\'')*)'|"([^"]+)"|(\S+))/.exec(run);
  const file = m?.[1]?.replace(/'\\''/g, "'") ?? m?.[2] ?? m?.[3];
  return file === undefined ? undefined : { kind: 'file', file, guarded: isGuarded };
}

/** A path as `shellQuote` (or a double-quoted project path) wrote it, as the shell reads it. */
function unquote(arg: string): string {
  if (arg.startsWith("'")) return arg.slice(1, -1).replace(/'\\''/g, "'");
  if (arg.startsWith('"')) return arg.slice(1, -1);
  return arg;
}

/**
 * The ways a command line of ours names a hook: a script of that name (any install, any build),
 * the repository's own launcher `hooks/run.mjs <name>`, or the bin `graphiti-memory-sync-hook <name>`.
 */
function hookCommandPattern(script: string): RegExp {
  const forms = [`(^|[\\\\/'"\\s])${script}\\.(js|mjs|cjs|ts)\\b`, `run\\.mjs['"]?\\s+${script}\\b`, `(^|[\\\\/'"\\s])${HOOK_BIN}['"]?\\s+${script}\\b`];
  return new RegExp(forms.join('|'));
}

/** A handler is ours when its command line names our hook script for this event and our marker. */
export function isOurHandler(handler: unknown, event: 'SessionStart' | 'Stop'): boolean {
  if (!isObject(handler)) return false;
  const parts = [handler.command, ...(Array.isArray(handler.args) ? handler.args : [])].filter((p): p is string => typeof p === 'string');
  const line = parts.join(' ');
  if (!line.includes(MARKER)) return false;
  return hookCommandPattern(HOOK_SCRIPTS[event]).test(line);
}


function hooksObject(settings: JsonObject, file: string): JsonObject | undefined {
  const hooks = settings.hooks;
  if (hooks === undefined) return undefined;
  if (!isObject(hooks)) throw new InstallError(refusedFile(file, '"hooks" is not an object'), file);
  return hooks;
}

function eventArray(hooks: JsonObject, event: string, file: string): Json[] | undefined {
  const arr = hooks[event];
  if (arr === undefined) return undefined;
  if (!Array.isArray(arr)) throw new InstallError(refusedFile(file, `"hooks.${event}" is not an array`), file);
  return arr;
}

/** Adds/updates our hook groups in a parsed settings object (pure; returns a new object). */
export function mergeHooks(settings: JsonObject, packageRoot: string, file = 'settings', hookOptions: HookCommandOptions = {}): { settings: JsonObject; entries: string[] } {
  const next = structuredClone(settings);
  const entries: string[] = [];
  const ours = ourHookGroups(packageRoot, hookOptions);
  let hooks = hooksObject(next, file);
  if (hooks === undefined) {
    hooks = {};
    next.hooks = hooks;
  }
  for (const event of ['SessionStart', 'Stop'] as const) {
    const desired = ours[event] as unknown as JsonObject;
    let arr = eventArray(hooks, event, file);
    if (arr === undefined) {
      arr = [];
      hooks[event] = arr;
    }
    // Our own group: a group whose every handler is ours (the first one found is kept in place).
    let ownIndex = -1;
    let removedElsewhere = 0;
    for (let i = 0; i < arr.length; i++) {
      const group = arr[i];
      if (!isObject(group) || !Array.isArray(group.hooks)) continue;
      const mine = group.hooks.filter((h) => isOurHandler(h, event));
      if (mine.length === 0) continue;
      if (mine.length === group.hooks.length && ownIndex === -1) {
        ownIndex = i;
        continue;
      }
      // Duplicates, or our handler inside someone else's group: take ours out.
      group.hooks = group.hooks.filter((h) => !isOurHandler(h, event));
      removedElsewhere += mine.length;
    }
    // Drop groups we emptied (never groups that were empty before).
    if (removedElsewhere > 0) {
      const kept = arr.filter((g, i) => i === ownIndex || !(isObject(g) && Array.isArray(g.hooks) && g.hooks.length === 0 && wasOurs(settings, event, i)));
      if (ownIndex !== -1) ownIndex = kept.indexOf(arr[ownIndex] as Json);
      arr.splice(0, arr.length, ...kept);
    }
    if (ownIndex === -1) {
      arr.push(structuredClone(desired));
      entries.push(`${event}: added`);
    } else if (!deepEqual(arr[ownIndex], desired)) {
      arr[ownIndex] = structuredClone(desired);
      entries.push(`${event}: updated`);
    } else if (removedElsewhere > 0) {
      entries.push(`${event}: duplicates removed`);
    } else {
      entries.push(`${event}: unchanged`);
    }
  }
  return { settings: next, entries };
}

function wasOurs(original: JsonObject, event: 'SessionStart' | 'Stop', index: number): boolean {
  const hooks = original.hooks;
  if (!isObject(hooks)) return false;
  const arr = hooks[event];
  if (!Array.isArray(arr)) return false;
  const group = arr[index];
  return isObject(group) && Array.isArray(group.hooks) && group.hooks.some((h) => isOurHandler(h, event));
}

/** Removes our handlers (and the groups/arrays/objects emptied by that) from a parsed settings object. */
export function removeHooks(settings: JsonObject, file = 'settings'): { settings: JsonObject; entries: string[] } {
  const next = structuredClone(settings);
  const entries: string[] = [];
  const hooks = hooksObject(next, file);
  if (hooks === undefined) return { settings: next, entries: ['SessionStart: not installed', 'Stop: not installed'] };
  for (const event of ['SessionStart', 'Stop'] as const) {
    const arr = eventArray(hooks, event, file);
    if (arr === undefined) {
      entries.push(`${event}: not installed`);
      continue;
    }
    let removed = 0;
    const kept: Json[] = [];
    for (const group of arr) {
      if (isObject(group) && Array.isArray(group.hooks)) {
        const before = group.hooks.length;
        const rest = group.hooks.filter((h) => !isOurHandler(h, event));
        removed += before - rest.length;
        if (before > 0 && rest.length === 0) continue; // a group we emptied
        if (rest.length !== before) group.hooks = rest;
      }
      kept.push(group);
    }
    if (removed === 0) {
      entries.push(`${event}: not installed`);
      continue;
    }
    if (kept.length === 0) delete hooks[event];
    else hooks[event] = kept;
    entries.push(`${event}: removed`);
  }
  if (Object.keys(hooks).length === 0 && isObject(settings.hooks) && Object.keys(settings.hooks).length > 0) delete next.hooks;
  return { settings: next, entries };
}

/**
 * The madeinoz Knowledge system's own memory-sync hooks, which this tool replaces:
 * `sync-memory-to-knowledge.ts` on SessionStart, and in older versions `sync-learning-realtime.ts`
 * on Stop and SubagentStop. Left in place, every note would be ingested twice.
 */
const PRIOR_HOOK = /\b(sync-memory-to-knowledge|sync-learning-realtime)\.(ts|js|mjs)\b/;
const PRIOR_EVENTS = ['SessionStart', 'Stop', 'SubagentStop'] as const;

export function isPriorMadeinozHandler(handler: unknown): boolean {
  if (!isObject(handler)) return false;
  const parts = [handler.command, ...(Array.isArray(handler.args) ? handler.args : [])].filter((p): p is string => typeof p === 'string');
  return PRIOR_HOOK.test(parts.join(' '));
}

/** Removes the madeinoz memory-sync hooks (and the groups/arrays emptied by that); `entries` names each removal. */
export function removePriorHooks(settings: JsonObject, file = 'settings'): { settings: JsonObject; entries: string[] } {
  const next = structuredClone(settings);
  const entries: string[] = [];
  const hooks = hooksObject(next, file);
  if (hooks === undefined) return { settings: next, entries };
  for (const event of PRIOR_EVENTS) {
    const arr = hooks[event];
    if (!Array.isArray(arr)) continue;
    const kept: Json[] = [];
    for (const group of arr) {
      if (isObject(group) && Array.isArray(group.hooks)) {
        const before = group.hooks.length;
        const removed = group.hooks.filter((h) => isPriorMadeinozHandler(h));
        for (const h of removed) entries.push(`${event}: replaced the madeinoz hook ${(PRIOR_HOOK.exec(String((h as JsonObject).command ?? '')) ?? ['prior hook'])[0]}`);
        const rest = group.hooks.filter((h) => !isPriorMadeinozHandler(h));
        if (before > 0 && rest.length === 0) continue;
        if (rest.length !== before) group.hooks = rest;
      }
      kept.push(group);
    }
    if (kept.length === 0) delete hooks[event];
    else hooks[event] = kept;
  }
  if (Object.keys(hooks).length === 0 && isObject(settings.hooks) && Object.keys(settings.hooks).length > 0) delete next.hooks;
  return { settings: next, entries };
}
