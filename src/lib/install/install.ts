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
 *
 * This module is the orchestration (which files, in which order, what to report); the pure
 * transforms are hook-entries.ts and mcp-entry.ts, the file handling settings-file.ts and
 * record.ts, the locations paths.ts.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { paiDirFromEnvironment } from '../config/env-file.js';
import { writeFileAtomic } from '../util/fs-atomic.js';
import { packageRoot } from '../util/package-root.js';
import { mergeHooks, projectRelativeRoot, removeHooks, removePriorHooks } from './hook-entries.js';
import { mergeMcp, removeMcp } from './mcp-entry.js';
import { localServerToken } from '../config/server-runtime.js';
import { mcpLocation, settingsPath, stateDirOf } from './paths.js';
import { backupInto, forgetPrior, readPrior, rememberPrior, restorePrior } from './record.js';
import { lineDiff, parseRemembered, readJsonObject, serialize } from './settings-file.js';
import { deepEqual, isObject, MARKER, MCP_SERVER_NAME, type FileResult, type InstallOptions, type InstallResult, type JsonObject } from './types.js';

export * from './types.js';
export { isOurHandler, isPriorMadeinozHandler, mergeHooks, ourHookGroups, projectRelativeRoot, removeHooks, removePriorHooks } from './hook-entries.js';
export { mergeMcp, removeMcp } from './mcp-entry.js';
export { mcpLocation, settingsPath } from './paths.js';
export { lineDiff } from './settings-file.js';

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
    // The madeinoz hook that install replaced counts as ours here: uninstall puts it back.
    if (priorValue !== undefined && (deepEqual(priorValue, value) || deepEqual(removePriorHooks(priorValue).settings, value))) {
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

/** Settings files of the other scopes (and $PAI_DIR/settings.json) that still register the madeinoz hook. */
function priorHooksElsewhere(options: InstallOptions, target: string): string[] {
  const env = options.env ?? process.env;
  const candidates = new Map<string, string>();
  for (const scope of ['user', 'project', 'local'] as const) candidates.set(settingsPath({ ...options, scope }), `--scope ${scope}`);
  const pai = paiDirFromEnvironment(env);
  if (pai !== undefined) candidates.set(join(pai, 'settings.json'), 'by hand (PAI settings)');
  const out: string[] = [];
  for (const [file, how] of candidates) {
    if (resolve(file) === resolve(target) || !existsSync(file)) continue;
    try {
      if (removePriorHooks(readJsonObject(file).value, file).entries.length > 0) {
        out.push(`the madeinoz memory-sync hook is still registered in ${file}: both would ingest every note; remove it there (install ${how} replaces it).`);
      }
    } catch {
      // An unreadable or invalid file of another scope is not ours to judge here.
    }
  }
  return out;
}

function packageRootOf(options: InstallOptions): string {
  if (options.packageRoot !== undefined) return resolve(options.packageRoot);
  return packageRoot();
}

function mcpUrlOf(options: InstallOptions): string {
  return options.mcpUrl ?? options.config?.mcpUrl ?? 'http://localhost:8000/mcp';
}

/**
 * The local server (`server start`) requires its token: the entry carries it as a header. Only in
 * the user's own files (user and local scope, ~/.claude.json): a project's .mcp.json is shared
 * and committed, so there the entry goes in without it, with a warning saying what to run.
 */
function localServerAuth(options: InstallOptions, url: string): { headers?: Record<string, string>; warnings: string[] } {
  const token = options.stateDir === undefined ? undefined : localServerToken(options.stateDir, url);
  if (token === undefined) return { warnings: [] };
  if (options.scope === 'project') {
    return { warnings: [`${url} is your local server, which requires your personal token: it is not written into the shared .mcp.json. Run "install --with-mcp --scope local" (or --scope user) instead.`] };
  }
  return { headers: { Authorization: `Bearer ${token}` }, warnings: [] };
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
  warnings.push(...priorHooksElsewhere(options, settingsFile));
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
          // The madeinoz memory-sync hook is replaced: both would ingest every note.
          const prior = removePriorHooks(value, settingsFile);
          const r = mergeHooks(prior.settings, root, settingsFile, { onResume: options.config?.contextOnResume === true, projectRelative });
          return { value: r.settings, entries: [...prior.entries, ...r.entries] };
        },
        undo: (value) => removeHooks(value, settingsFile).settings,
      },
      options,
    ),
  );
  if (mcp !== undefined) {
    const url = mcpUrlOf(options);
    const auth = localServerAuth(options, url);
    const result = await applyChange(mcp.file, 'mcp', { action: 'install', transform: (value) => mergeMcp(value, mcp.path, url, mcp.file, auth.headers), undo: (value) => removeMcp(value, mcp.path, url).value }, options);
    result.warnings.push(...auth.warnings);
    if (options.scope !== 'project' && result.changed) {
      // With a token, not `claude mcp add --header …`: that would put the token in a command line.
      const again = auth.headers === undefined ? `claude mcp add --scope ${options.scope} --transport http ${MCP_SERVER_NAME} ${url}` : `graphiti-memory-sync install --with-mcp --scope ${options.scope}`;
      result.warnings.push(`Claude Code rewrites ${mcp.file} while it runs; if the "${MCP_SERVER_NAME}" server is missing later, run: ${again}`);
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

