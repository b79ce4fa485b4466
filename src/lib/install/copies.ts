/**
 * Every copy of the tool Claude Code runs for this user and folder, for `status`: the settings
 * hooks `install` wrote (user, project and local scope) and the plugin, each with the folder it
 * runs from, its version and the state format its worker writes.
 *
 * Why: two copies of different ages may run side by side (an older plugin beside a newer global
 * install, or the other way round), and a copy older than the state folder's format refuses it
 * and syncs nothing. Nothing in a session shows that (hooks say nothing), and every build so far
 * says version 0.1.0 (the plugin's with a content hash after it: install/plugin-version.ts), so
 * the state format is read from the copy's own files: the worker's bundle (or
 * the state module it was built from) declares `STATE_VERSION = <n>`, in every build so far.
 *
 * Where Claude Code runs the plugin from (measured with Claude Code 2.1.330): a directory
 * marketplace's plugin from that folder (`known_marketplaces.json` names it, the marketplace's
 * manifest the plugin's subfolder); any other marketplace's from the copy in the plugin cache
 * (`installed_plugins.json` `installPath`).
 */
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { claudeConfigDirFromEnvironment } from '../config/env-file.js';
import { processEnv } from '../config/process-env.js';
import { routeOfPackage, type InstallRoute } from '../util/install-route.js';
import { codeOpenToOthers, incompleteBundles, PACKAGE_BUNDLES, PLUGIN_BUNDLES, type BundleLayout } from './bundle-check.js';
import { HOOK_BIN } from './hook-launcher.js';
import { hookLaunch, isOurHandler } from './hook-entries.js';
import { homeOf, settingsPath } from './paths.js';
import { isObject, MARKER, type InstallOptions, type InstallScope } from './types.js';

/** One of our hook commands in a settings file. */
export interface HookCommand {
  scope: InstallScope;
  file: string;
  event: 'SessionStart' | 'Stop';
  command: string;
}

/** Our hook commands in every scope's settings file (each file once). */
export function ourHookCommands(options: Pick<InstallOptions, 'env' | 'cwd' | 'home'>): HookCommand[] {
  const out: HookCommand[] = [];
  const seen = new Set<string>();
  for (const scope of ['user', 'project', 'local'] as const) {
    const file = settingsPath({ ...options, scope });
    if (seen.has(file)) continue;
    seen.add(file);
    const settings = readJson(file);
    const hooks = isObject(settings) ? settings.hooks : undefined;
    if (!isObject(hooks)) continue;
    for (const event of ['SessionStart', 'Stop'] as const) {
      const groups = hooks[event];
      if (!Array.isArray(groups)) continue;
      for (const group of groups) {
        if (!isObject(group) || !Array.isArray(group.hooks)) continue;
        for (const handler of group.hooks) {
          if (isOurHandler(handler, event) && isObject(handler) && typeof handler.command === 'string') out.push({ scope, file, event, command: handler.command });
        }
      }
    }
  }
  return out;
}

/** The first `graphiti-memory-sync-hook` on PATH, as a hook would run it. */
export function hookBinOnPath(path: string | undefined): string | undefined {
  for (const dir of (path ?? '').split(delimiter)) {
    if (dir !== '' && existsSync(join(dir, HOOK_BIN))) return join(dir, HOOK_BIN);
  }
  return undefined;
}

/** How a copy was put where it is: it decides the step that updates it (util/install-route.ts owns the rule and the steps). */
export type CopyKind = InstallRoute;

export interface ToolCopy {
  /** `settings hooks` (install) or `plugin`. */
  registration: 'settings hooks' | 'plugin';
  kind: CopyKind;
  /** Where it is registered: the settings file (and scope), or the plugin id `graphiti-memory-sync@<marketplace>`. */
  registeredIn: string;
  scope?: InstallScope;
  /** The plugin's marketplace (plugin copies). */
  marketplace?: string;
  /** The copy's folder (the package root, or the plugin's root); undefined when it cannot be found. */
  root?: string;
  /** package.json's (or plugin.json's) version. */
  version?: string;
  /** The state format its worker writes; undefined when its files do not say. */
  stateFormat?: number;
  /**
   * Whether its hooks start a worker of their own state format (worker/spawn.ts `workerFiles`), never
   * waiting for another format's; false for the builds before that, which shared one lease.
   */
  leasePerFormat?: boolean;
  /** Whether it reads the state written while a part is held as another machine's (`readsHeldStateOf`). */
  readsHeldState?: boolean;
  /** The version it writes a held state as (`heldStateFormatOf`): a copy whose held version is older than this build's refuses this build's. */
  heldStateFormat?: number;
  /** Whether it reads `pulled.json` written while notes are marked lost with their emptied group (`readsEmptiedLedgerOf`). */
  readsEmptiedLedger?: boolean;
  /** Its hook bundles that are missing, empty or cut short (an update that stopped half-way: install/bundle-check.ts); absent when whole. */
  incomplete?: string[];
  /** Why another local user can change its hook code (install/bundle-check.ts CODE_OURS_ALONE); absent when no one else can. */
  openToOthers?: string;
}

/** The files of a copy that hold its state module (the worker bundle first). */
const STATE_MODULE_FILES = ['hooks/worker.cjs', 'hooks/worker.mjs', 'dist/hooks/worker.js', 'dist/lib/state/format.js', 'dist/lib/state/types.js', 'src/lib/state/format.ts', 'src/lib/state/types.ts'];

/** What the first of a copy's state-module files that declares `STATE_VERSION` says, read by `read`. */
function fromStateModule<T>(root: string, read: (text: string) => T): T | undefined {
  for (const rel of STATE_MODULE_FILES) {
    const file = join(root, rel);
    if (!existsSync(file)) continue;
    try {
      const text = readFileSync(file, 'utf8');
      if (/\bSTATE_VERSION = \d+;/.test(text)) return read(text);
    } catch {
      // unreadable: try the next
    }
  }
  return undefined;
}

/** The state format a copy at `root` writes, from its own files (the worker bundle first). */
export function stateFormatOf(root: string): number | undefined {
  return fromStateModule(root, (text) => Number(/\bSTATE_VERSION = (\d+);/.exec(text)?.[1]));
}

/**
 * Whether the copy at `root` reads the state written while a part is held as another machine's
 * (state/format.ts HELD_STATE_VERSION): false for builds from before COPY_HOLD, which refuse it.
 */
export function readsHeldStateOf(root: string): boolean | undefined {
  return fromStateModule(root, (text) => /\bHELD_STATE_VERSION = \d+;/.test(text));
}

/** The version the copy at `root` writes a held state as (its HELD_STATE_VERSION); undefined for builds from before COPY_HOLD. */
export function heldStateFormatOf(root: string): number | undefined {
  return fromStateModule(root, (text) => {
    const found = /\bHELD_STATE_VERSION = (\d+);/.exec(text)?.[1];
    return found === undefined ? undefined : Number(found);
  });
}

/**
 * Whether the copy at `root` reads `pulled.json` written as EMPTIED_PULLED_VERSION (state/format.ts
 * EMPTIED_NEEDS_NEWER_LEDGER): false for builds from before that rule, which refuse it while a note is
 * marked lost with its emptied group.
 */
export function readsEmptiedLedgerOf(root: string): boolean | undefined {
  return fromStateModule(root, (text) => /\bEMPTIED_PULLED_VERSION = \d+;/.test(text));
}

/** Whether the copy at `root` keeps a worker lease per state format (worker/spawn.ts, `worker/format-<n>/`), from its Stop hook's files. */
export function leasePerFormatOf(root: string): boolean | undefined {
  // The Stop hook's bundle: <name>-main behind the version gate (hooks/node-gate.ts), or in earlier builds the file the command names.
  const candidates = ['hooks/stop-main.cjs', 'hooks/stop.cjs', 'hooks/stop.mjs', 'dist/hooks/stop-main.js', 'dist/hooks/stop.js', 'dist/lib/worker/spawn.js', 'src/lib/worker/spawn.ts'];
  for (const rel of candidates) {
    const file = join(root, rel);
    if (!existsSync(file)) continue;
    try {
      return /["']worker["'],\s*`format-\$\{/.test(readFileSync(file, 'utf8'));
    } catch {
      // unreadable: try the next
    }
  }
  return undefined;
}

/** What a copy's own files say of it. */
function builtWith(root: string | undefined, manifest: string, bundles: BundleLayout): Pick<ToolCopy, 'root' | 'version' | 'stateFormat' | 'leasePerFormat' | 'readsHeldState' | 'heldStateFormat' | 'readsEmptiedLedger' | 'incomplete' | 'openToOthers'> {
  if (root === undefined) return {};
  const incomplete = incompleteBundles(root, bundles);
  const openToOthers = codeOpenToOthers(root, bundles);
  const version = versionAt(join(root, manifest));
  const stateFormat = stateFormatOf(root);
  const leasePerFormat = leasePerFormatOf(root);
  const readsHeldState = readsHeldStateOf(root);
  const heldStateFormat = heldStateFormatOf(root);
  const readsEmptiedLedger = readsEmptiedLedgerOf(root);
  return {
    root,
    ...(version === undefined ? {} : { version }),
    ...(stateFormat === undefined ? {} : { stateFormat }),
    ...(leasePerFormat === undefined ? {} : { leasePerFormat }),
    ...(readsHeldState === undefined ? {} : { readsHeldState }),
    ...(heldStateFormat === undefined ? {} : { heldStateFormat }),
    ...(readsEmptiedLedger === undefined ? {} : { readsEmptiedLedger }),
    ...(incomplete.length === 0 ? {} : { incomplete }),
    ...(openToOthers === undefined ? {} : { openToOthers }),
  };
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as unknown;
  } catch {
    return undefined;
  }
}

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

function versionAt(file: string): string | undefined {
  const value = readJson(file);
  return isObject(value) && typeof value.version === 'string' ? value.version : undefined;
}

/** The package a settings-hook command runs: its root and how it got there. */
function packageOf(command: string, projectDir: string, path: string | undefined): { root?: string; kind: CopyKind } {
  const launch = hookLaunch(command);
  if (launch === undefined) return { kind: 'folder' };
  if (launch.kind === 'bin') {
    // The bin on PATH, else the launcher file the entry runs without it (hook-entries.ts LAUNCHER_OR_ITS_FILE): <root>/dist/hooks/hook.js.
    const launcher = hookBinOnPath(path) ?? (launch.file !== undefined && existsSync(launch.file) ? launch.file : undefined);
    return launcher === undefined ? { kind: 'global' } : { root: dirname(dirname(dirname(real(launcher)))), kind: 'global' };
  }
  const script = launch.file.replace(/^\$\{?CLAUDE_PROJECT_DIR\}?/, projectDir);
  const abs = real(resolve(script));
  // <root>/dist/hooks/<hook>.js, or this repository's own <root>/hooks/run.mjs.
  const m = /^(.*)[\\/]dist[\\/]hooks[\\/][^\\/]+$/.exec(abs) ?? /^(.*)[\\/]hooks[\\/]run\.mjs$/.exec(abs);
  // A path through $CLAUDE_PROJECT_DIR into node_modules is the project's; any other path is judged where it leads.
  const viaProject = script !== launch.file && /[\\/]node_modules[\\/]/.test(script);
  const kind: CopyKind = viaProject ? 'project' : routeOfPackage(m?.[1] ?? dirname(abs), { cwd: projectDir }).route;
  return m?.[1] === undefined ? { kind } : { root: m[1], kind };
}

/** The settings-hook copies: one per settings file and package (SessionStart and Stop of one copy are one copy). */
function settingsCopies(options: Pick<InstallOptions, 'env' | 'cwd' | 'home'>): ToolCopy[] {
  const projectDir = options.cwd ?? process.cwd();
  const copies = new Map<string, ToolCopy>();
  for (const h of ourHookCommands(options)) {
    const { root, kind } = packageOf(h.command, projectDir, (options.env ?? processEnv()).PATH);
    const key = `${h.file}\0${root ?? h.command}`;
    if (copies.has(key)) continue;
    copies.set(key, { registration: 'settings hooks', kind, registeredIn: h.file, scope: h.scope, ...builtWith(root, 'package.json', PACKAGE_BUNDLES) });
  }
  return [...copies.values()];
}

/** Where Claude Code runs the plugin `<name>@<marketplace>` from (see the header). */
function pluginRoot(claudeDir: string, id: string, marketplace: string): { root?: string; kind: CopyKind } {
  const known = readJson(join(claudeDir, 'plugins', 'known_marketplaces.json'));
  const entry = isObject(known) ? known[marketplace] : undefined;
  const source = isObject(entry) && isObject(entry.source) ? entry.source : undefined;
  if (source?.source === 'directory' && isObject(entry)) {
    const dir = typeof entry.installLocation === 'string' ? entry.installLocation : typeof source.path === 'string' ? source.path : undefined;
    if (dir !== undefined) {
      const manifest = readJson(join(dir, '.claude-plugin', 'marketplace.json'));
      const plugins = isObject(manifest) && Array.isArray(manifest.plugins) ? manifest.plugins : [];
      const ours = plugins.find((p) => isObject(p) && p.name === MARKER);
      const sub = isObject(ours) && typeof ours.source === 'string' ? ours.source : '.';
      return { root: resolve(dir, sub), kind: 'plugin-folder' };
    }
  }
  const installed = readJson(join(claudeDir, 'plugins', 'installed_plugins.json'));
  const plugins = isObject(installed) && isObject(installed.plugins) ? installed.plugins : undefined;
  const installs = plugins?.[id];
  const first = Array.isArray(installs) ? installs.find((i) => isObject(i) && typeof i.installPath === 'string') : undefined;
  return isObject(first) && typeof first.installPath === 'string' ? { root: first.installPath, kind: 'plugin-cache' } : { kind: 'plugin-cache' };
}

/** The plugin copies: one per marketplace our plugin is enabled from (in any scope's settings). */
function pluginCopies(options: Pick<InstallOptions, 'env' | 'cwd' | 'home'>): ToolCopy[] {
  const env = options.env ?? processEnv();
  const claudeDir = claudeConfigDirFromEnvironment({ ...env, HOME: homeOf({ ...options, scope: 'user' }, env) });
  const copies = new Map<string, ToolCopy>();
  for (const scope of ['user', 'project', 'local'] as const) {
    const file = settingsPath({ ...options, scope });
    const settings = readJson(file);
    const enabled = isObject(settings) ? settings.enabledPlugins : undefined;
    if (!isObject(enabled)) continue;
    for (const [id, on] of Object.entries(enabled)) {
      if (on !== true || !id.startsWith(`${MARKER}@`) || copies.has(id)) continue;
      const marketplace = id.slice(MARKER.length + 1);
      const { root, kind } = pluginRoot(claudeDir, id, marketplace);
      copies.set(id, { registration: 'plugin', kind, registeredIn: id, scope, marketplace, ...builtWith(root, join('.claude-plugin', 'plugin.json'), PLUGIN_BUNDLES) });
    }
  }
  return [...copies.values()];
}

/** Every copy of the tool Claude Code runs here: the plugin first, then the settings hooks by scope. */
export function toolCopies(options: Pick<InstallOptions, 'env' | 'cwd' | 'home'>): ToolCopy[] {
  return [...pluginCopies(options), ...settingsCopies(options)];
}
