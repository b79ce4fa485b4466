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
 *   file that did not exist), see record.ts; the new content is written atomically
 *   (temp + fsync + rename) with the file's mode;
 * - a symlinked file (dotfiles: stow, chezmoi, ln -s) is written THROUGH the link, which stays;
 *   a target we must not write (Nix store, read-only, another user's) is refused and the entries
 *   are printed for the user's own configuration (settings-target.ts, manual-entries.ts);
 * - no lost update: the file is read again right before the write and the change planned again
 *   when someone (Claude Code) changed it meanwhile.
 *
 * Hook handlers use a single `command` string, which every Claude Code version with hooks
 * understands (the exec form, `command` + `args`, is newer and has no shell to ask whether the
 * file is there): `test -f '<abs path>' || exit 0; exec node '<abs path>' --graphiti-memory-sync`,
 * or the same with `graphiti-memory-sync-hook <name>` for a global install (hook-launcher.ts);
 * hook-entries.ts `guarded` says why the guard. Timeouts are in SECONDS.
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
import { chmodSync, existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { paiDirFromEnvironment } from '../config/env-file.js';
import { writeFileAtomic } from '../util/fs-atomic.js';
import { packageRoot } from '../util/package-root.js';
import { mergeHooks, projectRelativeRoot, removeHooks, removePriorHooks, shellQuote } from './hook-entries.js';
import { launcherOnPath, projectPackagePath } from './hook-launcher.js';
import { HEADERS_HELPER_ARGS, mergeMcp, removeMcp } from './mcp-entry.js';
import { isLocalFrontUrl, liveServer } from '../config/server-runtime.js';
import { mcpLocation, settingsPath, stateDirOf } from './paths.js';
import { addedPart, manualEntries } from './manual-entries.js';
import { backupInto, forgetPrior, readPrior, rememberPrior, restorePrior, type PriorState } from './record.js';
import { lineDiff, parseRemembered, readJsonObject, serialize, type ParsedFile } from './settings-file.js';
import { resolveSettingsTarget, whyNotWritable, type SettingsTarget } from './settings-target.js';
import { deepEqual, InstallError, isObject, MARKER, MCP_SERVER_NAME, type FileResult, type InstallOptions, type InstallResult, type JsonObject } from './types.js';
import { processEnv } from '../config/process-env.js';
import { cli } from '../util/install-route.js';

export * from './types.js';
export { isOurHandler, isPriorMadeinozHandler, mergeHooks, ourHookGroups, projectRelativeRoot, removeHooks, removePriorHooks } from './hook-entries.js';
export { mergeMcp, removeMcp } from './mcp-entry.js';
export { mcpLocation, settingsPath } from './paths.js';
export { lineDiff } from './settings-file.js';

const REMOVED_NOTE = '(it did not exist before install)';

type Change = { value: JsonObject; entries: string[]; warnings?: string[] };
type Step = { action: 'install'; transform: (value: JsonObject) => Change; undo: (value: JsonObject) => JsonObject } | { action: 'uninstall'; transform: (value: JsonObject) => Change };

/** A change worked out from one read of the file, not yet written. */
interface Planned {
  result: FileResult;
  where: SettingsTarget;
  parsed: ParsedFile;
  /** Uninstall: the remembered pre-install state to put back (bytes, or no file). */
  restore: PriorState | undefined;
}

/**
 * Reads the file (through a symlink) and works out the change. `install`: `transform` adds our
 * entries, `undo` removes them (to tell whether the file was clean, i.e. a true "before" worth
 * remembering). `uninstall`: `transform` removes them, or the remembered bytes come back when
 * nothing else changed since install (also in a dry run, so it shows what the real run does).
 */
function planChange(file: string, kind: 'settings' | 'mcp', step: Step, options: InstallOptions): Planned {
  const where = resolveSettingsTarget(file);
  const parsed = readJsonObject(file);
  const { value, entries, warnings = [] } = step.transform(parsed.value);
  const base = { file, kind, existed: parsed.existed, backup: undefined, entries, warnings, before: parsed.text, ...(where.linked ? { target: where.target } : {}) };
  const prior = step.action === 'uninstall' ? readPrior(stateDirOf(options), file) : undefined;
  let result: FileResult;
  let restore: PriorState | undefined;
  const priorValue = prior === undefined ? undefined : prior.existed ? parseRemembered(prior.text) : {};
  // The madeinoz hook that install replaced counts as ours here: uninstall puts it back.
  if (prior !== undefined && priorValue !== undefined && (deepEqual(priorValue, value) || deepEqual(removePriorHooks(priorValue).settings, value))) {
    restore = prior;
    const diff = prior.existed ? lineDiff(parsed.text, prior.text) : `${where.target}: removed ${REMOVED_NOTE}`;
    result = { ...base, changed: true, written: false, restored: true, diff, after: prior.text };
  } else {
    const after = serialize(value, parsed);
    // Unchanged content (semantically) never rewrites the file, whatever its formatting.
    const changed = !parsed.existed || !deepEqual(parsed.value, value);
    result = { ...base, changed, written: false, diff: changed ? lineDiff(parsed.text, after) : '', after: changed ? after : parsed.text };
  }
  if (result.changed) {
    const why = whyNotWritable(where.target);
    if (why !== undefined) {
      const ours = step.action === 'install' ? addedPart(parsed.value, value) : addedPart(value, parsed.value);
      const manual = manualEntries(isObject(ours) ? ours : {}, kind);
      result.refused = { reason: why, action: step.action === 'install' ? 'add' : 'remove', ...manual };
    }
  }
  return { result, where, parsed, restore };
}

/** ~/.claude.json (where user and local scope MCP entries go): the user's alone. */
function privateToUser(kind: 'settings' | 'mcp', options: InstallOptions): boolean {
  return kind === 'mcp' && options.scope !== 'project';
}

/**
 * Writes a planned change. No lost update: Claude Code itself rewrites its settings (a permission
 * granted from the UI), so the file is read again right before the write; when it changed since
 * the plan was made, the change is planned again on the new content (which keeps theirs) up to a
 * few times, then the command stops and says so. What is left is the moment between that last
 * read and the rename, which no advisory lock could close: Claude Code takes none.
 */
async function commitChange(planned: Planned, kind: 'settings' | 'mcp', step: Step, options: InstallOptions): Promise<FileResult> {
  const stateDir = stateDirOf(options);
  const now = options.now ?? new Date();
  let current = planned;
  for (let attempt = 0; ; attempt++) {
    const { result, where, parsed, restore } = current;
    if (!result.changed || options.dryRun === true || result.refused !== undefined) return result;
    options.beforeWrite?.(result.file);
    const fresh = readJsonObject(result.file);
    if (fresh.text !== parsed.text || fresh.existed !== parsed.existed) {
      if (attempt >= 3) throw new InstallError(`${result.file} kept changing while ${step.action} was writing it (another program is editing it); nothing was written. Run "graphiti-memory-sync ${step.action}" again.`, result.file);
      current = planChange(result.file, kind, step, options);
      continue;
    }
    if (restore !== undefined) {
      const backup = parsed.existed ? backupInto(stateDir, result.file, now) : undefined;
      await restorePrior(restore, where.target, privateToUser(kind, options) ? 0o600 : parsed.mode);
      forgetPrior(stateDir, result.file);
      return { ...result, written: true, backup };
    }
    if (step.action === 'install' && deepEqual(step.undo(parsed.value), parsed.value)) {
      // The file holds none of our entries: this is the true "before" to come back to.
      await rememberPrior(stateDir, { file: result.file, existed: parsed.existed, dirExisted: existsSync(dirname(where.target)), text: parsed.text });
    }
    if (step.action === 'uninstall') forgetPrior(stateDir, result.file);
    const backup = parsed.existed ? backupInto(stateDir, result.file, now) : undefined;
    // Through the link: the temp file and the rename are in the target's folder, the link stays.
    // Claude Code's own ~/.claude.json (user and local scope MCP entries) is 0600 whatever made it:
    // it may hold tokens (an entry from an earlier version, other servers' headers).
    await writeFileAtomic(where.target, result.after, { mode: privateToUser(kind, options) ? 0o600 : (parsed.mode ?? 0o644), mkdirMode: 0o755 });
    return { ...result, written: true, backup };
  }
}

/** Plans every file first, so a refused or unreadable file means nothing at all is written. */
async function applyChanges(changes: Array<{ file: string; kind: 'settings' | 'mcp'; step: Step }>, options: InstallOptions): Promise<FileResult[]> {
  const planned = changes.map((c) => planChange(c.file, c.kind, c.step, options));
  if (planned.some((p) => p.result.refused !== undefined)) return planned.map((p) => p.result);
  const out: FileResult[] = [];
  for (const [i, c] of changes.entries()) {
    const plan = planned[i] as Planned;
    out.push(await commitChange(plan, c.kind, c.step, options));
    if (privateToUser(c.kind, options) && options.dryRun !== true) tightenToUser(plan.where.target);
  }
  return out;
}

/** ~/.claude.json left wider than 0600 (by whoever made it) is tightened even when install changes nothing in it. */
function tightenToUser(file: string): void {
  try {
    if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
  } catch {
    // not there (an uninstall that removed it)
  }
}

/** Settings files of the other scopes (and $PAI_DIR/settings.json) that still register the madeinoz hook. */
function priorHooksElsewhere(options: InstallOptions, target: string): string[] {
  const env = options.env ?? processEnv();
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
 * The local server (`server start`) requires its token, new at every start: the entry stores none
 * but names a `headersHelper`, the command Claude Code runs at each connection to get headers
 * (`server headers`: the current token, only for the server's proven front). Only in the user's
 * own files (user and local scope, ~/.claude.json): a project's .mcp.json is shared and
 * committed, so there the entry goes in without it, with a warning saying what to run.
 */
function localServerAuth(options: InstallOptions, url: string, root: string): { headersHelper?: string; warnings: string[] } {
  const local = options.stateDir === undefined ? undefined : liveServer(options.stateDir);
  if (!isLocalFrontUrl(url, local)) return { warnings: [] };
  if (options.scope === 'project') {
    return { warnings: [`${url} is your local server, which requires your personal token: it is not written into the shared .mcp.json. Run "install --with-mcp --scope local" (or --scope user) instead.`] };
  }
  const cli = join(resolve(root), 'dist', 'cli.js').replace(/\\/g, '/');
  const helper = `node ${shellQuote(cli)} ${HEADERS_HELPER_ARGS}`;
  // Claude Code takes printable ASCII only there (and no run of 4 spaces).
  if (/[^\x20-\x7E]| {4,}/.test(helper)) {
    return { warnings: [`${url} is your local server, but the path ${cli} cannot go into Claude Code's headersHelper (printable ASCII only): the entry has no token; install graphiti-memory-sync under a plain path.`] };
  }
  return { headersHelper: helper, warnings: [] };
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
    warnings.push(`${join(root, 'dist', 'hooks')} does not exist yet: run "npm run build" in ${root}, or the hooks will do nothing (they skip quietly while their files are missing).`);
  }
  const settingsFile = settingsPath(options);
  const cwd = options.cwd ?? process.cwd();
  const projectRelative = options.scope === 'project' ? projectRelativeRoot(projectPackagePath(root, cwd), cwd, settingsFile) : undefined;
  // A global install is named by its bin on PATH, so the hooks outlive a reinstall elsewhere.
  const onPath = projectRelative === undefined && launcherOnPath(root, (options.env ?? processEnv()).PATH) !== undefined;
  const plugin = pluginEnabledIn(options);
  if (plugin.length > 0) {
    warnings.push(
      `the graphiti-memory-sync plugin is enabled too (${plugin.join(', ')}): both would run; the session-start block is still injected once per session, but you need only one. Keep the plugin and run "uninstall --scope ${options.scope}", or remove the plugin with "claude plugin uninstall graphiti-memory-sync".`,
    );
  }
  warnings.push(...priorHooksElsewhere(options, settingsFile));
  // The local server's recorded address while it is down (config.ts LOCAL_SERVER_KEPT) is not given
  // to Claude Code: its tool calls (notes in add_memory) would go to whatever listens there meanwhile.
  const localDown = options.withMcp === true && options.mcpUrl === undefined && options.config?.mcpUrlSource === 'local-server' && (options.stateDir === undefined || liveServer(options.stateDir) === undefined);
  if (localDown) warnings.push(`the local Graphiti server (server start) is not running, so Claude Code's MCP entry was not written (anyone may listen at its address meanwhile): run "${cli()} server start", then this install --with-mcp again.`);
  const mcp = options.withMcp === true && !localDown ? mcpLocation(options) : undefined;

  const changes: Array<{ file: string; kind: 'settings' | 'mcp'; step: Step }> = [
    {
      file: settingsFile,
      kind: 'settings',
      step: {
        action: 'install',
        transform: (value) => {
          // The madeinoz memory-sync hook is replaced: both would ingest every note.
          const prior = removePriorHooks(value, settingsFile);
          const r = mergeHooks(prior.settings, root, settingsFile, { onResume: options.config?.contextOnResume === true, projectRelative, launcherOnPath: onPath });
          return { value: r.settings, entries: [...prior.entries, ...r.entries] };
        },
        undo: (value) => removeHooks(value, settingsFile).settings,
      },
    },
  ];
  const url = mcpUrlOf(options);
  const auth: ReturnType<typeof localServerAuth> = mcp === undefined ? { warnings: [] } : localServerAuth(options, url, root);
  if (mcp !== undefined) {
    changes.push({ file: mcp.file, kind: 'mcp', step: { action: 'install', transform: (value) => mergeMcp(value, mcp.path, url, mcp.file, auth.headersHelper), undo: (value) => removeMcp(value, mcp.path, url).value } });
  }
  const files = await applyChanges(changes, options);
  for (const result of files) {
    if (result.kind !== 'mcp') continue;
    result.warnings.push(...auth.warnings);
    if (options.scope !== 'project' && result.changed && result.refused === undefined) {
      const again = auth.headersHelper === undefined ? `claude mcp add --scope ${options.scope} --transport http ${MCP_SERVER_NAME} ${url}` : `${cli()} install --with-mcp --scope ${options.scope}`;
      result.warnings.push(`Claude Code rewrites ${result.file} while it runs; if the "${MCP_SERVER_NAME}" server is missing later, run: ${again}`);
    }
  }
  return { action: 'install', scope: options.scope, dryRun: options.dryRun === true, files, warnings };
}

/** Removes our hooks (and, with withMcp, our MCP server entry) for a scope. */
export async function runUninstall(options: InstallOptions): Promise<InstallResult> {
  const settingsFile = settingsPath(options);
  const mcp = options.withMcp === true ? mcpLocation(options) : undefined;
  const present = (file: string) => existsSync(file);
  const changes: Array<{ file: string; kind: 'settings' | 'mcp'; step: Step }> = [];
  if (present(settingsFile)) {
    changes.push({
      file: settingsFile,
      kind: 'settings',
      step: {
        action: 'uninstall',
        transform: (value) => {
          const r = removeHooks(value, settingsFile);
          return { value: r.settings, entries: r.entries };
        },
      },
    });
  }
  if (mcp !== undefined && present(mcp.file)) {
    changes.push({ file: mcp.file, kind: 'mcp', step: { action: 'uninstall', transform: (value) => removeMcp(value, mcp.path, undefined) } });
  }
  const files = await applyChanges(changes, options);
  return { action: 'uninstall', scope: options.scope, dryRun: options.dryRun === true, files, warnings: [] };
}

/** The file as the user knows it, and where its link leads (what is written). */
function fileLabel(f: FileResult): string {
  return f.target === undefined ? f.file : `${f.file} -> ${f.target}`;
}

function stateOf(f: FileResult, dryRun: boolean): string {
  if (!f.changed) return 'unchanged';
  if (f.restored === true) {
    const removes = f.diff.endsWith(REMOVED_NOTE);
    if (dryRun) return removes ? `would be removed ${REMOVED_NOTE}` : 'would be restored to its state before install';
    return removes ? `removed ${REMOVED_NOTE}` : 'restored to its state before install';
  }
  if (dryRun) return f.existed ? 'would change' : 'would be created';
  return f.existed ? 'updated' : 'created';
}

/** True when some file was refused: the CLI exits 1 (also for a dry run, which shows the same). */
export function installRefused(result: InstallResult): boolean {
  return result.files.some((f) => f.refused !== undefined);
}

/** Human-readable report of an install/uninstall run (for the CLI). */
export function formatInstallResult(result: InstallResult): string {
  const lines: string[] = [];
  const verb = result.action === 'install' ? 'install' : 'uninstall';
  const refused = installRefused(result);
  lines.push(`${verb} (${result.scope} scope)${result.dryRun ? ' — dry run, nothing written' : refused ? ' — nothing written' : ''}`);
  for (const f of result.files) {
    if (f.refused !== undefined) {
      lines.push(`  ${fileLabel(f)}: not written: ${f.refused.reason}`);
      const verbing = f.refused.action === 'add' ? 'Add these entries to' : 'Remove these entries from';
      lines.push(`    ${verbing} your own configuration of ${f.file} (where it is generated), then apply it:`);
      for (const l of f.refused.json.split('\n')) lines.push(`      ${l}`);
      lines.push(`    With home-manager, ${f.refused.action === 'add' ? 'merge this into' : 'take this out of'} your configuration and run "home-manager switch":`);
      for (const l of f.refused.nix.split('\n')) lines.push(`      ${l}`);
      continue;
    }
    lines.push(`  ${fileLabel(f)}: ${refused && f.changed ? 'not written (another file was refused)' : stateOf(f, result.dryRun)}`);
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
