/**
 * Where Claude Code keeps auto memory, and whether it keeps any, from its own settings and variables
 * (read from the CLI bundle's memory-folder resolver and measured on 2.1.330, 2.1.332 and 2.1.337:
 * test/claude/memory-location.claude.test.ts), so that the sync and the SessionStart hook look where
 * Claude Code writes. The settings files it reads, highest priority first (SETTINGS_LAYERS):
 * the managed settings (MANAGED_SETTINGS_DIR, the platform's own folder: managed-settings.json with the managed-settings.d/*.json
 * drop-ins merged on top in name order), `--settings`, the project's local settings
 * (`<project>/.claude/settings.local.json`), the checked-in project settings, the user settings
 * (`<CLAUDE_CONFIG_DIR>/settings.json`).
 *
 * AUTO_MEMORY_SWITCH, for one project (the first that applies wins):
 * 1. `CLAUDE_CODE_DISABLE_AUTO_MEMORY` from the settings' `env` (the first layer that sets it: Claude
 *    Code puts settings' env over its own environment, measured), else from the environment: true
 *    (1/true/yes/on) turns auto memory off; false (0/false/no/off) keeps it on whatever the settings say;
 * 2. `autoMemoryEnabled` of the first layer that sets it (managed `true` beats a user `false`);
 * 3. on.
 * Off means no folder: nothing new is read or sent from it (off for every project but on in one
 * project's local settings: that project's folder, ON_IN_ONE_PROJECT; for one project off by its own local
 * settings, MEMORY_OFF_LEFT_OUT: its `projects/<key>/memory` is left out of the scan of the default
 * and remote `projects` folders, and `status` says so). The notes already in the graph stay
 * there, searchable and in the session context: they are the person's knowledge, and the source
 * merely goes unseen (a run that does not see a folder never takes its notes for deleted). Turn it
 * on again and the sync catches up with whatever changed there meanwhile.
 *
 * MEMORY_FOLDER, for one project (the first that applies wins):
 * 1. `CLAUDE_COWORK_MEMORY_PATH_OVERRIDE`: that folder, as written (no `~` expansion), for every project;
 * 2. `autoMemoryDirectory` of the first layer that sets it, `~/` expanded; a value Claude Code cannot
 *    use (relative, the root) means the default, not the next layer (measured: it stops at the first);
 * 3. `<CLAUDE_CODE_REMOTE_MEMORY_DIR or CLAUDE_CONFIG_DIR>/projects/<project key>/memory`.
 * A moved folder holds the memory itself (`<folder>/*.md`, `<folder>/team/<store>/…`), not per-project folders.
 *
 * Two layers Claude Code reads are not ours to follow:
 * - `--settings` (a file or JSON on the command line): nothing a hook receives names it (not its
 *   input, not its environment; only an `env` in it reaches the hook, as variables), and a terminal
 *   run of the CLI has no way to know it. A folder moved only there is not synced (said in docs);
 * - the checked-in project settings: Claude Code follows them in a trusted workspace (always in `-p`),
 *   but a repository must not choose which of a person's folders go to a shared graph (a clone could
 *   name `~/`); their notes are said by `status` (unsyncedProjectMemory), and their switches not
 *   followed either (one rule for the file: it only ever means a folder we keep syncing).
 *
 * Synchronous and small: the SessionStart hook uses it (no memory/ module may load there).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { isAbsolute, join, normalize, resolve } from 'node:path';
import { resolveProjectKey } from '../util/claude-project-key.js';

type Env = Record<string, string | undefined>;
type Settings = Record<string, unknown>;

/**
 * MANAGED_SETTINGS_PLACE: the folder of Claude Code's managed settings on this platform, fixed in
 * Claude Code (no variable moves it; measured on Linux 2.1.330–2.1.337): each platform has its own,
 * as the CLI bundle's resolver says (2.1.337): `/Library/Application Support/ClaudeCode` on macOS,
 * `C:\Program Files\ClaudeCode` on Windows, `/etc/claude-code` on Linux, WSL and the rest. Taken as
 * `/etc/claude-code` everywhere, a Mac's managed settings (a company's folder, its switch) were never read.
 * (macOS's MDM profiles and Windows' registry policies are not files: not followed.)
 */
function managedSettingsDir(platform: NodeJS.Platform = process.platform): string {
  if (platform === 'darwin') return '/Library/Application Support/ClaudeCode';
  if (platform === 'win32') return 'C:\\Program Files\\ClaudeCode';
  return '/etc/claude-code';
}

/** This platform's managed-settings folder (MANAGED_SETTINGS_PLACE). */
export const MANAGED_SETTINGS_DIR = managedSettingsDir();

/** A folder of Claude Code auto memory to sync: `projects` holds `<key>/memory/`, `folder` is a memory folder itself. */
export interface AutoMemoryFolder {
  /** The source's name (file ids, `--source`, group overrides). */
  name: string;
  root: string;
  layout: 'projects' | 'folder';
  /** The setting that put it there, for status and logs. */
  via: string;
  /** Layout `projects` only: the projects whose folder here is not scanned, auto memory being off for them (MEMORY_OFF_LEFT_OUT). */
  leftOut?: LeftOutProject[];
  /** Layout `projects` only, auto memory off for every project: the folder names here of the projects turned on, the only ones scanned (ON_ONLY_WHERE_TURNED_ON). */
  onlyProjects?: string[];
}

/** A project Claude Code keeps no auto memory for, by its own local settings, while the others keep theirs. */
export interface LeftOutProject {
  /** The project's folder. */
  project: string;
  /** Its folder name under `projects/`, left out of the scan. */
  key: string;
  /** The settings file that turns it off. */
  settingsFile: string;
}

/** Claude Code's truthy spellings for a switch variable. */
export function claudeSwitchOn(value: string | undefined): boolean {
  return value !== undefined && ['1', 'true', 'yes', 'on'].includes(value.trim().toLowerCase());
}

/** Claude Code's falsy spellings: a switch set to one of them is forced, not merely unset. */
function claudeSwitchOff(value: string | undefined): boolean {
  return value !== undefined && ['0', 'false', 'no', 'off'].includes(value.trim().toLowerCase());
}

function readSettings(file: string): Settings | undefined {
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Settings) : undefined;
  } catch {
    return undefined; // missing or unreadable settings: Claude Code uses its default too
  }
}

function settingsValue(file: string, key: string): unknown {
  return readSettings(file)?.[key];
}

/** One settings file's variables (`env`), the strings only. */
function envOf(settings: Settings | undefined): Env {
  const env = settings?.env;
  return typeof env === 'object' && env !== null ? Object.fromEntries(Object.entries(env).filter(([, v]) => typeof v === 'string')) : {};
}

/** One settings layer Claude Code reads, as far as auto memory goes. */
interface SettingsLayer {
  name: 'managed settings' | 'local settings' | 'user settings';
  settings: Settings;
}

/**
 * The managed settings as Claude Code merges them: managed-settings.json, then each
 * managed-settings.d/*.json in name order on top (a later file wins a key; `env` merges by variable).
 * Measured: a drop-in moves the folder over the base file, and counts with no base file at all.
 */
function managedSettings(dir: string): Settings {
  let files: string[] = [];
  try {
    files = readdirSync(join(dir, 'managed-settings.d')).filter((f) => f.endsWith('.json') && !f.startsWith('.')).sort();
  } catch {
    // no drop-in folder: the base file alone
  }
  let merged: Settings = {};
  for (const file of [join(dir, 'managed-settings.json'), ...files.map((f) => join(dir, 'managed-settings.d', f))]) {
    const settings = readSettings(file);
    if (settings !== undefined) merged = { ...merged, ...settings, env: { ...envOf(merged), ...envOf(settings) } };
  }
  return merged;
}

/** SETTINGS_LAYERS we follow, highest priority first; the local settings only for one project. */
function settingsLayers(claudeConfigDir: string, managedDir: string, projectRoot?: string): SettingsLayer[] {
  const layers: SettingsLayer[] = [{ name: 'managed settings', settings: managedSettings(managedDir) }];
  if (projectRoot !== undefined) layers.push({ name: 'local settings', settings: readSettings(join(projectRoot, '.claude', 'settings.local.json')) ?? {} });
  layers.push({ name: 'user settings', settings: readSettings(join(claudeConfigDir, 'settings.json')) ?? {} });
  return layers;
}

/** The first layer that sets `pick` (not undefined or null, as Claude Code's own loop). */
function firstSet<T>(layers: SettingsLayer[], pick: (s: Settings) => T | undefined | null): { value: T; layer: SettingsLayer } | undefined {
  for (const layer of layers) {
    const value = pick(layer.settings);
    if (value !== undefined && value !== null) return { value, layer };
  }
  return undefined;
}

/** AUTO_MEMORY_SWITCH (see the head of this file) over the given layers. */
function autoMemoryOff(env: Env, layers: SettingsLayer[]): boolean {
  const variable = firstSet(layers, (s) => envOf(s).CLAUDE_CODE_DISABLE_AUTO_MEMORY)?.value ?? env.CLAUDE_CODE_DISABLE_AUTO_MEMORY;
  if (claudeSwitchOn(variable)) return true;
  if (claudeSwitchOff(variable)) return false;
  return firstSet(layers, (s) => (typeof s.autoMemoryEnabled === 'boolean' ? s.autoMemoryEnabled : undefined))?.value === false;
}

/** A folder setting as Claude Code accepts it: absolute after `~/` expansion (when allowed), else ignored. */
function folderSetting(value: unknown, homeDir: string, expandTilde: boolean): string | undefined {
  if (typeof value !== 'string' || value.trim() === '' || value.includes('\0')) return undefined;
  let path = value.trim();
  if (expandTilde && (path.startsWith('~/') || path.startsWith('~\\'))) path = join(homeDir, path.slice(2));
  if (!isAbsolute(path)) return undefined;
  const folder = normalize(path).replace(/[/\\]+$/, '');
  return folder.length < 2 ? undefined : folder;
}

/** `autoMemoryDirectory` of one settings file, `~/` expanded; undefined when unset or not usable. */
export function autoMemoryDirectoryIn(settingsFile: string, homeDir: string): string | undefined {
  return folderSetting(settingsValue(settingsFile, 'autoMemoryDirectory'), homeDir, true);
}

/**
 * MEMORY_FOLDER's points 1 and 2 over the given layers: the moved folder, `null` when the first
 * layer that sets `autoMemoryDirectory` sets one Claude Code cannot use (the default then), or
 * undefined when nothing moves it.
 */
function movedFolder(env: Env, homeDir: string, layers: SettingsLayer[]): { root: string; via: string } | null | undefined {
  const cowork = folderSetting(env.CLAUDE_COWORK_MEMORY_PATH_OVERRIDE, homeDir, false);
  if (cowork !== undefined) return { root: cowork, via: 'CLAUDE_COWORK_MEMORY_PATH_OVERRIDE' };
  const set = firstSet(layers, (s) => s.autoMemoryDirectory);
  if (set === undefined) return undefined;
  const root = folderSetting(set.value, homeDir, true);
  return root === undefined ? null : { root, via: `autoMemoryDirectory (${set.layer.name})` };
}

/** The base of the per-project layout: `CLAUDE_CODE_REMOTE_MEMORY_DIR`, else the Claude config folder. */
function projectsBase(env: Env, claudeConfigDir: string): { base: string; remote: boolean } {
  const remote = folderSetting(env.CLAUDE_CODE_REMOTE_MEMORY_DIR, '', false);
  return remote === undefined ? { base: claudeConfigDir, remote: false } : { base: remote, remote: true };
}

/**
 * One project's auto-memory folder, wherever Claude Code puts it; undefined when auto memory is off.
 * `key` is the project's folder name under `projects/` (context/project.ts).
 */
export function projectMemoryFolder(env: Env, claudeConfigDir: string, homeDir: string, projectRoot: string, key: string, managedDir = MANAGED_SETTINGS_DIR): { dir: string; via: string } | undefined {
  const layers = settingsLayers(claudeConfigDir, managedDir, projectRoot);
  if (autoMemoryOff(env, layers)) return undefined;
  const moved = movedFolder(env, homeDir, layers);
  if (moved) return { dir: moved.root, via: moved.via };
  const { base, remote } = projectsBase(env, claudeConfigDir);
  return { dir: join(base, 'projects', key, 'memory'), via: remote ? 'CLAUDE_CODE_REMOTE_MEMORY_DIR' : 'default' };
}

/** A short stable name for a folder (32-bit string hash in base 36: no crypto module on the hook path). */
function shortId(path: string): string {
  let h = 0;
  for (let i = 0; i < path.length; i++) h = ((h << 5) - h + path.charCodeAt(i)) | 0;
  return (h >>> 0).toString(36);
}

/**
 * Project folders Claude Code knows (the `projects` of its global config file), for their local
 * settings. The interactive UI records a project there (its trust dialog); a `-p` run records none
 * (measured, 2.1.330): a project only ever run with `-p` is not known, and its local settings unread.
 */
export function knownProjects(env: Env, claudeConfigDir: string, homeDir: string): string[] {
  const file = env.CLAUDE_CONFIG_DIR !== undefined && env.CLAUDE_CONFIG_DIR !== '' ? join(claudeConfigDir, '.claude.json') : join(homeDir, '.claude.json');
  const projects = settingsValue(file, 'projects');
  return typeof projects === 'object' && projects !== null ? Object.keys(projects).filter((p) => isAbsolute(p)) : [];
}

/**
 * Every auto-memory folder to sync: the default `projects` folder (kept even when memory moved:
 * files Claude Code wrote there before stay the user's notes), the remote one, the folder all
 * projects moved to, and each known project's own moved folder. None when auto memory is off.
 * Each gets its own source name, so a run that does not see a variable (a terminal without it)
 * leaves that folder's notes alone instead of taking them for deleted.
 *
 * ON_IN_ONE_PROJECT: off for every project (the variable, the managed or user settings) but on
 * again in a project's local settings (`autoMemoryEnabled: true`, or its `env` setting
 * CLAUDE_CODE_DISABLE_AUTO_MEMORY false: AUTO_MEMORY_SWITCH's first layer that sets it), Claude Code
 * writes that project's notes, and the hook reads them: the folders such projects use are synced,
 * under the names they have when auto memory is on (a switch flipped later changes no file id).
 */
export function autoMemoryFolders(env: Env, claudeConfigDir: string, homeDir: string, managedDir = MANAGED_SETTINGS_DIR): AutoMemoryFolder[] {
  const layers = settingsLayers(claudeConfigDir, managedDir);
  const off = autoMemoryOff(env, layers);
  const projects = knownProjects(env, claudeConfigDir, homeDir);
  // Each known project's folder where its own layers keep auto memory on.
  const used = projects.flatMap((project) => {
    const own = projectMemoryFolder(env, claudeConfigDir, homeDir, project, '', managedDir);
    return own === undefined ? [] : [{ project, ...own }];
  });
  if (off && used.length === 0) return [];
  const folders: AutoMemoryFolder[] = [{ name: 'auto-memory', root: resolve(claudeConfigDir, 'projects'), layout: 'projects', via: 'default' }];
  const { base, remote } = projectsBase(env, claudeConfigDir);
  if (remote) folders.push({ name: 'auto-memory-remote', root: resolve(base, 'projects'), layout: 'projects', via: 'CLAUDE_CODE_REMOTE_MEMORY_DIR' });
  const moved = movedFolder(env, homeDir, layers);
  if (moved) folders.push({ name: 'auto-memory-dir', root: resolve(moved.root), layout: 'folder', via: moved.via });
  for (const own of used) {
    // Each project's own folder, where its local settings move it and keep auto memory on.
    if (own.via !== 'autoMemoryDirectory (local settings)' || folders.some((f) => f.root === resolve(own.dir))) continue;
    const id = shortId(resolve(own.dir));
    folders.push({ name: `auto-memory-dir-${id}`, root: resolve(own.dir), layout: 'folder', via: `autoMemoryDirectory (local settings of ${own.project})` });
  }
  // ON_IN_ONE_PROJECT: only the folders the projects turned on use (a `projects` layout by its setting, a folder by its path).
  const kept = off ? folders.filter((f) => used.some((u) => (f.layout === 'folder' ? f.root === resolve(u.dir) : f.via === u.via))) : folders;
  // MEMORY_OFF_LEFT_OUT: the known projects whose own layers turn it off, inside the `projects` folders kept.
  const offProjects = projects.filter((project) => !used.some((u) => u.project === project));
  // Off for every project (ON_IN_ONE_PROJECT keeps a `projects` folder for the projects turned on), the others are
  // left out by the switch for all of them, not by their own local settings: status names what turned them off.
  const offBy = off ? OFF_FOR_EVERY_PROJECT : undefined;
  // ON_ONLY_WHERE_TURNED_ON: off for every project, a `projects` folder is scanned for the projects turned on alone. Leaving
  // out only the other known projects scanned every folder of a project Claude Code does not know (run only with `-p`,
  // moved, gone), where memory is off too: its notes from before were sent though auto memory was off for it.
  const only = (f: AutoMemoryFolder) => (off && f.layout === 'projects' ? { onlyProjects: used.filter((u) => u.via === f.via).map((u) => resolveProjectKey(u.project, f.root, {})) } : {});
  return kept.map((f) => (f.layout === 'projects' ? { ...f, ...(offProjects.length === 0 ? {} : { leftOut: leftOutIn(f.root, offProjects, offBy) }), ...only(f) } : f));
}

/**
 * MEMORY_OFF_LEFT_OUT: a project whose local settings turn auto memory off (on for every other
 * project: AUTO_MEMORY_SWITCH over its layers) has no memory folder for Claude Code, measured on
 * 2.1.330–2.1.337 (test/claude/memory-location.claude.test.ts): its `projects/<key>/memory`, which
 * Claude Code neither reads nor writes then, is not scanned either, as the SessionStart hook already
 * reads none for it. Its notes in the graph stay (files there are unknown, not deleted: sync/plan.ts).
 * The key is the project's folder name as Claude Code makes it under that `projects` folder.
 */
const OFF_FOR_EVERY_PROJECT = 'CLAUDE_CODE_DISABLE_AUTO_MEMORY, or autoMemoryEnabled false in the managed or user settings';

function leftOutIn(projectsRoot: string, projects: string[], offBy?: string): LeftOutProject[] {
  return projects.map((project) => ({ project, key: resolveProjectKey(project, projectsRoot, {}), settingsFile: offBy ?? join(project, '.claude', 'settings.local.json') }));
}

/** A memory folder Claude Code uses that is not synced, and why (status says so, with the fix). */
export interface UnsyncedMemoryFolder {
  project: string;
  dir: string;
  settingsFile: string;
}

/**
 * Projects whose checked-in `.claude/settings.json` moves auto memory (`autoMemoryDirectory`)
 * where nothing we follow points: Claude Code writes that project's notes there, but the tool does
 * not sync them (point 3 above: a repository does not choose which of a person's folders go to a
 * graph). Said by `status`, with the setting that syncs them, so the notes are not lost unseen.
 */
export function unsyncedProjectMemory(env: Env, claudeConfigDir: string, homeDir: string, managedDir = MANAGED_SETTINGS_DIR): UnsyncedMemoryFolder[] {
  // Per project, not by the switch for every project: a project's local settings may turn it on (ON_IN_ONE_PROJECT).
  const out: UnsyncedMemoryFolder[] = [];
  for (const project of knownProjects(env, claudeConfigDir, homeDir)) {
    const settingsFile = join(project, '.claude', 'settings.json');
    const checkedIn = autoMemoryDirectoryIn(settingsFile, homeDir);
    if (checkedIn === undefined) continue;
    const followed = projectMemoryFolder(env, claudeConfigDir, homeDir, project, '', managedDir);
    // Auto memory off there, or our own layers (managed, local, user, cowork) move it anyway: Claude Code takes those first too.
    if (followed === undefined || (followed.via !== 'default' && followed.via !== 'CLAUDE_CODE_REMOTE_MEMORY_DIR')) continue;
    out.push({ project, dir: checkedIn, settingsFile });
  }
  return out;
}
