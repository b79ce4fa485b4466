/**
 * Registers (and removes) our hooks in a Claude Code settings file, carefully.
 *
 * Settings files belong to the user, so:
 * - an unparsable file (JSON with comments, garbage, a non-object) is REFUSED with an error
 *   naming the file and the parse error, and nothing is written;
 * - an empty file counts as `{}`; a missing file (and its folder) is created;
 * - only our own entries are touched: a handler is ours when its command line names one of
 *   our hook scripts AND contains "graphiti-memory-sync" (the install appends the marker
 *   argument `--graphiti-memory-sync`, so a checkout in any folder is recognised); other
 *   matchers, other tools' hooks in the same event and every other key are kept as they are;
 * - re-running is idempotent (byte-identical: no write, no backup), a moved install path is
 *   updated in place, and uninstall removes exactly our entries plus the arrays/objects that
 *   became empty by that removal, so install + uninstall restores the original (byte-equal
 *   when it was 2-space JSON);
 * - a timestamped backup is written into the state dir before an existing file changes, the
 *   file's exact pre-install bytes are remembered there so uninstall restores them (or removes a
 *   file that did not exist), see install-record.ts; the new content is written atomically
 *   (temp + fsync + rename) with the file's mode.
 *
 * Hook handlers use a single `command` string (`node '<abs path>' --graphiti-memory-sync`),
 * which every Claude Code version with hooks understands; the exec form (`command` + `args`)
 * is newer. Timeouts are in SECONDS.
 *
 * `withMcp` also registers the Graphiti MCP server (`{"type":"http","url":…}`) so Claude can
 * search the graph during a session: user scope → `~/.claude.json` (`$CLAUDE_CONFIG_DIR/.claude.json`)
 * top-level `mcpServers`; project → `<cwd>/.mcp.json`; local → `~/.claude.json`
 * `projects[<cwd>].mcpServers`. An existing `graphiti` server with other settings is left
 * alone (reported), and uninstall removes it only when it is exactly what we wrote.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { isRecord } from '../util/json.js';
import { packageRoot } from '../util/package-root.js';
import type { Config } from '../config/config.js';
import { writeFileAtomic } from '../util/fs-atomic.js';
import { backupInto, forgetPrior, readPrior, rememberPrior, restorePrior } from './record.js';

export type InstallScope = 'user' | 'project' | 'local';

type Env = Record<string, string | undefined>;
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

export const MARKER = 'graphiti-memory-sync';
export const MARKER_ARG = '--graphiti-memory-sync';
export const MCP_SERVER_NAME = 'graphiti';
/**
 * Fresh context where the conversation has none of it: a new session, after /clear, after
 * compaction. A resumed or forked transcript already holds the block, so by default the hook is
 * not even registered for them; with MADEINOZ_KNOWLEDGE_CONTEXT_ON_RESUME=true install
 * registers it there too (the hook itself also checks the setting).
 */
export const SESSION_START_MATCHER = 'startup|clear|compact';
export const SESSION_START_MATCHER_WITH_RESUME = 'startup|resume|clear|compact|fork';
export const SESSION_START_TIMEOUT_S = 10;
/**
 * Stop is registered WITHOUT `async`: under `claude -p` Claude Code cancels an async hook (SIGTERM)
 * before it loads, and any async hook delays the exit by ~1.4 s. Ours only marks work and spawns
 * a detached worker, so running in the foreground costs ~0.1 s and always reaches the worker.
 */
export const STOP_TIMEOUT_S = 10;

const HOOK_SCRIPTS: Record<'SessionStart' | 'Stop', string> = { SessionStart: 'session-start', Stop: 'stop' };

export interface InstallOptions {
  scope: InstallScope;
  dryRun?: boolean;
  withMcp?: boolean;
  /** Project folder for project/local scope (default process.cwd()). */
  cwd?: string;
  /** Home folder (default $HOME / os.homedir()). */
  home?: string;
  /** Root of this package; hooks point at `<packageRoot>/dist/hooks/*.js`. */
  packageRoot?: string;
  /** Environment (CLAUDE_CONFIG_DIR); default process.env. */
  env?: Env;
  /** Graphiti MCP URL for `withMcp`; default config.mcpUrl, else http://localhost:8000/mcp. */
  mcpUrl?: string;
  /** The loaded configuration (its mcpUrl is used when mcpUrl is not given). */
  config?: Pick<Config, 'mcpUrl'> & Partial<Pick<Config, 'contextOnResume'>>;
  /** Clock for backup names (tests). */
  now?: Date;
  /** Where backups and pre-install records go (default config.stateDir, else ~/.local/state/graphiti-memory-sync). */
  stateDir?: string;
}

export interface FileResult {
  file: string;
  kind: 'settings' | 'mcp';
  existed: boolean;
  /** The content differs from what was there. */
  changed: boolean;
  /** Actually written (changed and not a dry run). */
  written: boolean;
  backup: string | undefined;
  /** Uninstall put back the exact pre-install state (bytes, or no file). */
  restored?: boolean;
  /** What was added/updated/removed, e.g. "SessionStart: added". */
  entries: string[];
  warnings: string[];
  /** A small line diff of before → after ('' when unchanged). */
  diff: string;
  before: string;
  after: string;
}

export interface InstallResult {
  action: 'install' | 'uninstall';
  scope: InstallScope;
  dryRun: boolean;
  files: FileResult[];
  warnings: string[];
}

export class InstallError extends Error {
  constructor(
    message: string,
    readonly file: string,
  ) {
    super(message);
    this.name = 'InstallError';
  }
}

export interface HookHandler {
  type: 'command';
  command: string;
  timeout: number;
  statusMessage?: string;
  async?: boolean;
}

export interface MatcherGroup {
  matcher?: string;
  hooks: HookHandler[];
}

function homeOf(options: InstallOptions, env: Env): string {
  if (options.home !== undefined) return options.home;
  return env.HOME && env.HOME !== '' ? env.HOME : homedir();
}

function claudeDir(options: InstallOptions, env: Env): string {
  const dir = env.CLAUDE_CONFIG_DIR?.trim();
  return dir !== undefined && dir !== '' ? resolve(dir) : join(homeOf(options, env), '.claude');
}

/** The settings file for a scope. */
export function settingsPath(options: InstallOptions): string {
  const env = options.env ?? process.env;
  const cwd = resolve(options.cwd ?? process.cwd());
  if (options.scope === 'user') return join(claudeDir(options, env), 'settings.json');
  if (options.scope === 'project') return join(cwd, '.claude', 'settings.json');
  return join(cwd, '.claude', 'settings.local.json');
}

/** Where Claude Code reads MCP servers for a scope, and the key path of `mcpServers` in it. */
export function mcpLocation(options: InstallOptions): { file: string; path: string[] } {
  const env = options.env ?? process.env;
  const cwd = resolve(options.cwd ?? process.cwd());
  const dir = env.CLAUDE_CONFIG_DIR?.trim();
  const global = dir !== undefined && dir !== '' ? join(resolve(dir), '.claude.json') : join(homeOf(options, env), '.claude.json');
  if (options.scope === 'project') return { file: join(cwd, '.mcp.json'), path: ['mcpServers'] };
  if (options.scope === 'local') return { file: global, path: ['projects', cwd, 'mcpServers'] };
  return { file: global, path: ['mcpServers'] };
}

/** POSIX single-quoting (also what Git Bash on Windows runs hook commands with). */
function shellQuote(s: string): string {
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
        'Use --scope local (this machine only, not committed) or --scope user, install the plugin, or add graphiti-memory-sync to the project (npm install -D graphiti-memory-sync) and run "npx graphiti-memory-sync install --scope project" from there. Nothing was written.',
      file,
    );
  }
  if (!/^[A-Za-z0-9_./@+-]*$/.test(rel)) throw new InstallError(`Refusing --scope project: the package path "${rel}" has characters a shared hook command cannot carry safely; nothing was written.`, file);
  return rel;
}

/**
 * The matcher groups we install, pointing at `<packageRoot>/dist/hooks/`: an absolute path, or with
 * `projectRelative` the path under "$CLAUDE_PROJECT_DIR" (which Claude Code sets for every hook).
 */
export function ourHookGroups(packageRoot: string, options: { onResume?: boolean; projectRelative?: string } = {}): Record<'SessionStart' | 'Stop', MatcherGroup> {
  const script = (name: string) =>
    options.projectRelative !== undefined
      ? `"$CLAUDE_PROJECT_DIR/${[options.projectRelative, 'dist', 'hooks', `${name}.js`].filter((p) => p !== '').join('/')}"`
      : shellQuote(join(resolve(packageRoot), 'dist', 'hooks', `${name}.js`).replace(/\\/g, '/'));
  return {
    SessionStart: {
      matcher: options.onResume === true ? SESSION_START_MATCHER_WITH_RESUME : SESSION_START_MATCHER,
      hooks: [{ type: 'command', command: `node ${script('session-start')} ${MARKER_ARG}`, timeout: SESSION_START_TIMEOUT_S, statusMessage: 'Loading memory' }],
    },
    Stop: {
      hooks: [{ type: 'command', command: `node ${script('stop')} ${MARKER_ARG}`, timeout: STOP_TIMEOUT_S }],
    },
  };
}

function isObject(v: unknown): v is JsonObject {
  return isRecord(v);
}

/** A handler is ours when its command line names our hook script for this event and our marker. */
export function isOurHandler(handler: unknown, event: 'SessionStart' | 'Stop'): boolean {
  if (!isObject(handler)) return false;
  const parts = [handler.command, ...(Array.isArray(handler.args) ? handler.args : [])].filter((p): p is string => typeof p === 'string');
  const line = parts.join(' ');
  if (!line.includes(MARKER)) return false;
  const script = HOOK_SCRIPTS[event];
  return new RegExp(`(^|[\\\\/'"\\s])${script}\\.(js|mjs|ts)\\b|run\\.mjs['"]?\\s+${script}\\b`).test(line);
}

function deepEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

interface ParsedFile {
  existed: boolean;
  text: string;
  value: JsonObject;
  bom: boolean;
  mode: number | undefined;
}

function readJsonObject(file: string): ParsedFile {
  let text: string;
  let mode: number | undefined;
  try {
    text = readFileSync(file, 'utf8');
    mode = statSync(file).mode & 0o777;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { existed: false, text: '', value: {}, bom: false, mode: undefined };
    throw new InstallError(`Cannot read ${file}: ${(error as Error).message}`, file);
  }
  const bom = text.startsWith('\uFEFF');
  const body = bom ? text.slice(1) : text;
  if (body.trim() === '') return { existed: true, text, value: {}, bom, mode };
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (error) {
    throw new InstallError(
      `Refusing to modify ${file}: it is not valid JSON (${(error as Error).message}). Comments and trailing commas are not JSON. Fix the file by hand; nothing was written.`,
      file,
    );
  }
  if (!isObject(value)) throw new InstallError(`Refusing to modify ${file}: the top level is not a JSON object; nothing was written.`, file);
  return { existed: true, text, value, bom, mode };
}

function serialize(value: JsonObject, original: ParsedFile): string {
  const trailingNewline = !original.existed || original.text.trim() === '' || /\n\s*$/.test(original.text);
  const json = JSON.stringify(value, null, 2);
  return `${original.bom ? '\uFEFF' : ''}${json}${trailingNewline ? '\n' : ''}`;
}

/** A compact line diff (common prefix/suffix trimmed; the middle shown as -/+). */
export function lineDiff(before: string, after: string): string {
  if (before === after) return '';
  const a = before.split('\n');
  const b = after.split('\n');
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length - 1;
  let endB = b.length - 1;
  while (endA >= start && endB >= start && a[endA] === b[endB]) {
    endA--;
    endB--;
  }
  const out = [`@@ line ${start + 1} @@`];
  for (const l of a.slice(Math.max(0, start - 2), start)) out.push(`  ${l}`);
  for (const l of a.slice(start, endA + 1)) out.push(`- ${l}`);
  for (const l of b.slice(start, endB + 1)) out.push(`+ ${l}`);
  for (const l of a.slice(endA + 1, endA + 3)) out.push(`  ${l}`);
  return out.join('\n');
}

function hooksObject(settings: JsonObject, file: string): JsonObject | undefined {
  const hooks = settings.hooks;
  if (hooks === undefined) return undefined;
  if (!isObject(hooks)) throw new InstallError(`Refusing to modify ${file}: "hooks" is not an object; nothing was written.`, file);
  return hooks;
}

function eventArray(hooks: JsonObject, event: string, file: string): Json[] | undefined {
  const arr = hooks[event];
  if (arr === undefined) return undefined;
  if (!Array.isArray(arr)) throw new InstallError(`Refusing to modify ${file}: "hooks.${event}" is not an array; nothing was written.`, file);
  return arr;
}

/** Adds/updates our hook groups in a parsed settings object (pure; returns a new object). */
export function mergeHooks(settings: JsonObject, packageRoot: string, file = 'settings', hookOptions: { onResume?: boolean; projectRelative?: string } = {}): { settings: JsonObject; entries: string[] } {
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

function getPath(obj: JsonObject, path: string[]): Json | undefined {
  let cur: Json | undefined = obj;
  for (const key of path) {
    if (!isObject(cur)) return undefined;
    cur = cur[key];
  }
  return cur;
}

/** Adds `mcpServers.graphiti` at `path` unless a different `graphiti` server is already there. */
export function mergeMcp(value: JsonObject, path: string[], url: string, file = 'mcp'): { value: JsonObject; entries: string[]; warnings: string[] } {
  const next = structuredClone(value);
  const desired: JsonObject = { type: 'http', url };
  let cur: JsonObject = next;
  for (const key of path) {
    const child = cur[key];
    if (child === undefined) cur[key] = {};
    else if (!isObject(child)) throw new InstallError(`Refusing to modify ${file}: "${path.join('.')}" is not an object; nothing was written.`, file);
    cur = cur[key] as JsonObject;
  }
  const existing = cur[MCP_SERVER_NAME];
  if (existing === undefined) {
    cur[MCP_SERVER_NAME] = desired;
    return { value: next, entries: [`mcpServers.${MCP_SERVER_NAME}: added`], warnings: [] };
  }
  if (deepEqual(existing, desired)) return { value: next, entries: [`mcpServers.${MCP_SERVER_NAME}: unchanged`], warnings: [] };
  return {
    value: structuredClone(value),
    entries: [`mcpServers.${MCP_SERVER_NAME}: kept (already configured differently)`],
    warnings: [`${file} already has an MCP server "${MCP_SERVER_NAME}" with other settings (${JSON.stringify(existing).slice(0, 200)}); left unchanged.`],
  };
}

/** Removes `mcpServers.graphiti` when it is exactly what we write, and the containers emptied by that. */
export function removeMcp(value: JsonObject, path: string[], url: string | undefined): { value: JsonObject; entries: string[]; warnings: string[] } {
  const next = structuredClone(value);
  const servers = getPath(next, path);
  if (!isObject(servers) || servers[MCP_SERVER_NAME] === undefined) return { value: next, entries: [`mcpServers.${MCP_SERVER_NAME}: not installed`], warnings: [] };
  const existing = servers[MCP_SERVER_NAME];
  const ours = isObject(existing) && existing.type === 'http' && Object.keys(existing).length === 2 && typeof existing.url === 'string' && (url === undefined || existing.url === url);
  if (!ours) {
    return { value: next, entries: [`mcpServers.${MCP_SERVER_NAME}: kept (not ours)`], warnings: [`MCP server "${MCP_SERVER_NAME}" does not match what install writes; left in place.`] };
  }
  delete servers[MCP_SERVER_NAME];
  // Remove containers that became empty, innermost first (they were non-empty before).
  for (let depth = path.length; depth > 0; depth--) {
    const parent = depth === 1 ? next : getPath(next, path.slice(0, depth - 1));
    const key = path[depth - 1] as string;
    if (!isObject(parent)) break;
    const child = parent[key];
    if (isObject(child) && Object.keys(child).length === 0) delete parent[key];
    else break;
  }
  return { value: next, entries: [`mcpServers.${MCP_SERVER_NAME}: removed`], warnings: [] };
}

function stateDirOf(options: InstallOptions): string {
  if (options.stateDir !== undefined) return options.stateDir;
  return join(homeOf(options, options.env ?? process.env), '.local', 'state', 'graphiti-memory-sync');
}

/** The JSON object a remembered text holds ('' is {}), or undefined when it is not one. */
function parseRemembered(text: string): JsonObject | undefined {
  const body = text.replace(/^\uFEFF/, '');
  if (body.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(body);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

type Change = { value: JsonObject; entries: string[]; warnings?: string[] };

/**
 * `install`: `transform` adds our entries, `undo` removes them (to tell whether the file was clean,
 * i.e. a true "before" worth remembering). `uninstall`: `transform` removes them.
 */
async function applyChange(
  file: string,
  kind: 'settings' | 'mcp',
  step: { action: 'install'; transform: (value: JsonObject) => Change; undo: (value: JsonObject) => JsonObject } | { action: 'uninstall'; transform: (value: JsonObject) => Change },
  options: InstallOptions,
): Promise<FileResult> {
  const parsed = readJsonObject(file);
  const { value, entries, warnings = [] } = step.transform(parsed.value);
  const stateDir = stateDirOf(options);
  const now = options.now ?? new Date();
  const prior = readPrior(stateDir, file);
  if (step.action === 'uninstall' && options.dryRun !== true && prior !== undefined) {
    // Nothing else changed since install: the exact earlier bytes (or no file) come back.
    const priorValue = prior.existed ? parseRemembered(prior.text) : {};
    if (priorValue !== undefined && deepEqual(priorValue, value)) {
      const backup = parsed.existed ? backupInto(stateDir, file, now) : undefined;
      await restorePrior(prior, parsed.mode);
      forgetPrior(stateDir, file);
      const diff = lineDiff(parsed.text, prior.text);
      return { file, kind, existed: parsed.existed, changed: true, written: true, restored: true, backup, entries, warnings, diff, before: parsed.text, after: prior.text };
    }
  }
  const after = serialize(value, parsed);
  // Unchanged content (semantically) never rewrites the file, whatever its formatting.
  const changed = !parsed.existed || !deepEqual(parsed.value, value);
  const result: FileResult = {
    file,
    kind,
    existed: parsed.existed,
    changed,
    written: false,
    backup: undefined,
    entries,
    warnings,
    diff: changed ? lineDiff(parsed.text, after) : '',
    before: parsed.text,
    after: changed ? after : parsed.text,
  };
  if (!changed || options.dryRun === true) return result;
  if (step.action === 'install' && deepEqual(step.undo(parsed.value), parsed.value)) {
    // The file holds none of our entries: this is the true "before" to come back to.
    await rememberPrior(stateDir, { file, existed: parsed.existed, dirExisted: existsSync(dirname(file)), text: parsed.text });
  }
  if (step.action === 'uninstall') forgetPrior(stateDir, file);
  if (parsed.existed) result.backup = backupInto(stateDir, file, now);
  await writeFileAtomic(file, after, { mode: parsed.mode ?? 0o644, mkdirMode: 0o755 });
  result.written = true;
  return result;
}

function packageRootOf(options: InstallOptions): string {
  if (options.packageRoot !== undefined) return resolve(options.packageRoot);
  return packageRoot();
}

function mcpUrlOf(options: InstallOptions): string {
  return options.mcpUrl ?? options.config?.mcpUrl ?? 'http://localhost:8000/mcp';
}

/**
 * The settings files that enable our plugin (`enabledPlugins["graphiti-memory-sync@<marketplace>"]`
 * in any scope). With the plugin on, install's hooks would be a second registration: the
 * SessionStart hook still injects once per session (injection-claim.ts), but one is enough.
 */
export function pluginEnabledIn(options: InstallOptions): string[] {
  const files = (['user', 'project', 'local'] as const).map((scope) => settingsPath({ ...options, scope }));
  return [...new Set(files)].filter((file) => {
    try {
      const value: unknown = JSON.parse(readFileSync(file, 'utf8'));
      const enabled = isObject(value) ? value.enabledPlugins : undefined;
      return isObject(enabled) && Object.entries(enabled).some(([k, v]) => k.startsWith(`${MARKER}@`) && v === true);
    } catch {
      return false;
    }
  });
}

/** Installs our hooks (and optionally the MCP server) for a scope. Throws InstallError on a file it will not touch. */
export async function runInstall(options: InstallOptions): Promise<InstallResult> {
  const root = packageRootOf(options);
  const warnings: string[] = [];
  if (!existsSync(join(root, 'dist', 'hooks', 'session-start.js'))) {
    warnings.push(`${join(root, 'dist', 'hooks')} does not exist yet: run "npm run build" in ${root}, or the hooks will fail to start.`);
  }
  const settingsFile = settingsPath(options);
  const projectRelative = options.scope === 'project' ? projectRelativeRoot(root, options.cwd ?? process.cwd(), settingsFile) : undefined;
  const plugin = pluginEnabledIn(options);
  if (plugin.length > 0) {
    warnings.push(
      `the graphiti-memory-sync plugin is enabled too (${plugin.join(', ')}): both would run; the session-start block is still injected once per session, but you need only one. Keep the plugin and run "uninstall --scope ${options.scope}", or remove the plugin with "claude plugin uninstall graphiti-memory-sync".`,
    );
  }
  // Parse everything first so a refused file means nothing at all is written.
  readJsonObject(settingsFile);
  const mcp = options.withMcp === true ? mcpLocation(options) : undefined;
  if (mcp !== undefined) readJsonObject(mcp.file);

  const files: FileResult[] = [];
  files.push(
    await applyChange(
      settingsFile,
      'settings',
      {
        action: 'install',
        transform: (value) => {
          const r = mergeHooks(value, root, settingsFile, { onResume: options.config?.contextOnResume === true, projectRelative });
          return { value: r.settings, entries: r.entries };
        },
        undo: (value) => removeHooks(value, settingsFile).settings,
      },
      options,
    ),
  );
  if (mcp !== undefined) {
    const url = mcpUrlOf(options);
    const result = await applyChange(mcp.file, 'mcp', { action: 'install', transform: (value) => mergeMcp(value, mcp.path, url, mcp.file), undo: (value) => removeMcp(value, mcp.path, url).value }, options);
    if (options.scope !== 'project' && result.changed) {
      result.warnings.push(`Claude Code rewrites ${mcp.file} while it runs; if the "${MCP_SERVER_NAME}" server is missing later, run: claude mcp add --scope ${options.scope} --transport http ${MCP_SERVER_NAME} ${url}`);
    }
    files.push(result);
  }
  return { action: 'install', scope: options.scope, dryRun: options.dryRun === true, files, warnings };
}

/** Removes our hooks (and, with withMcp, our MCP server entry) for a scope. */
export async function runUninstall(options: InstallOptions): Promise<InstallResult> {
  const settingsFile = settingsPath(options);
  const mcp = options.withMcp === true ? mcpLocation(options) : undefined;
  const files: FileResult[] = [];
  const present = (file: string) => existsSync(file);
  if (present(settingsFile)) readJsonObject(settingsFile);
  if (mcp !== undefined && present(mcp.file)) readJsonObject(mcp.file);
  if (present(settingsFile)) {
    files.push(
      await applyChange(
        settingsFile,
        'settings',
        {
          action: 'uninstall',
          transform: (value) => {
            const r = removeHooks(value, settingsFile);
            return { value: r.settings, entries: r.entries };
          },
        },
        options,
      ),
    );
  }
  if (mcp !== undefined && present(mcp.file)) {
    files.push(await applyChange(mcp.file, 'mcp', { action: 'uninstall', transform: (value) => removeMcp(value, mcp.path, undefined) }, options));
  }
  return { action: 'uninstall', scope: options.scope, dryRun: options.dryRun === true, files, warnings: [] };
}

/** Human-readable report of an install/uninstall run (for the CLI). */
export function formatInstallResult(result: InstallResult): string {
  const lines: string[] = [];
  const verb = result.action === 'install' ? 'install' : 'uninstall';
  lines.push(`${verb} (${result.scope} scope)${result.dryRun ? ' — dry run, nothing written' : ''}`);
  for (const f of result.files) {
    const state = !f.changed ? 'unchanged' : result.dryRun ? 'would change' : f.restored === true ? (existsSync(f.file) ? 'restored to its state before install' : 'removed (it did not exist before install)') : f.existed ? 'updated' : 'created';
    lines.push(`  ${f.file}: ${state}`);
    for (const e of f.entries) lines.push(`    ${e}`);
    if (f.backup !== undefined) lines.push(`    backup: ${f.backup}`);
    for (const w of f.warnings) lines.push(`    warning: ${w}`);
    if (result.dryRun && f.diff !== '') {
      for (const d of f.diff.split('\n')) lines.push(`    ${d}`);
    }
  }
  for (const w of result.warnings) lines.push(`  warning: ${w}`);
  if (result.files.length === 0) lines.push('  nothing to do (no settings file)');
  return `${lines.join('\n')}\n`;
}
