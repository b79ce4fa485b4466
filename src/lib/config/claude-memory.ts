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
 *   run of the CLI has no way to know it. Only the session's own command line does (measured: the
 *   hook's parent process, `/proc/<pid>/cmdline` on Linux; test/claude/memory-projects.claude.test.ts),
 *   and that names it for one session: a folder learnt there would be seen by that session's hook and
 *   worker alone, not by a terminal's `sync` or `watch`, so its notes would come and go as a source
 *   (a run that does not see a folder leaves its notes alone, but never sends their edits). Following
 *   it means recording the folders sessions used, in the state folder, and when to forget one; not
 *   done. A folder moved only there is not synced (said in docs);
 * - the checked-in project settings: Claude Code follows them in a trusted workspace (always in `-p`),
 *   but a repository must not choose which of a person's folders go to a shared graph (a clone could
 *   name `~/`); their notes are said by `status` (unsyncedProjectMemory), and their switches not
 *   followed either (one rule for the file: it only ever means a folder we keep syncing).
 *
 * Which projects' switches count: those Claude Code recorded, in `.claude.json` or in a session's
 * transcript (PROJECTS_FROM_TRANSCRIPTS); each session reads its main repository root's local settings,
 * then its own folder's (LOCAL_SETTINGS_OF_A_SESSION), and keeps its memory in the main repository's
 * folder (MEMORY_KEY_OF_A_PROJECT), which is left out only when auto memory is off for every project
 * that writes there (ONE_ON_KEEPS_THE_FOLDER). One config build reads each file once (SETTINGS_READ_ONCE).
 *
 * Synchronous and small: the SessionStart hook uses it (no memory/ module may load there).
 */
import { closeSync, openSync, readdirSync, readFileSync, readSync } from 'node:fs';
import { isAbsolute, join, normalize, resolve } from 'node:path';
import { resolveProjectKey } from '../util/claude-project-key.js';
import { gitMainRoot } from '../util/git-identity.js';

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

/**
 * SETTINGS_READ_ONCE: the settings files of one look at Claude Code's settings (one config build),
 * each read at most once and only when asked for. A config build asks every known project's
 * switch, each over the managed, local and user settings, then again for the checked-in folders:
 * about four reads per project of the same few files, `.claude.json` (megabytes for a heavy user)
 * three times. Nothing outlives the look: the next build reads every file afresh, so an edit is
 * never hidden by a cache (no mtime to trust on a disk whose clock is coarse).
 */
export class SettingsFiles {
  private readonly files = new Map<string, Settings | undefined>();
  private readonly managedOf = new Map<string, Settings>();
  private readonly recorded = new Map<string, string[]>();

  read(file: string): Settings | undefined {
    if (!this.files.has(file)) this.files.set(file, readSettings(file));
    return this.files.get(file);
  }

  /** The managed settings of `dir`, merged once (managedSettings). */
  managed(dir: string): Settings {
    let merged = this.managedOf.get(dir);
    if (merged === undefined) this.managedOf.set(dir, (merged = managedSettings(dir, this)));
    return merged;
  }

  /** The projects Claude Code recorded (knownProjects), found once per config folder. */
  projects(key: string, find: () => string[]): string[] {
    let found = this.recorded.get(key);
    if (found === undefined) this.recorded.set(key, (found = find()));
    return found;
  }
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
  /** The file, for a local layer (a project has two in a worktree or a subfolder: LOCAL_SETTINGS_OF_A_SESSION). */
  file?: string;
}

/**
 * Where a session runs, as far as its auto memory goes: `dir` (its cwd, as Claude Code records it)
 * and `mainRoot`, the main repository's root (util/git-identity.ts `gitMainRoot`; `dir` itself
 * outside git), which keys its memory folder (MEMORY_KEY_OF_A_PROJECT).
 *
 * LOCAL_SETTINGS_OF_A_SESSION (measured, 2.1.330–2.1.337, test/claude/memory-projects.claude.test.ts):
 * a session reads the local settings of the main repository's root first, then those of its own
 * folder: in a linked worktree or a subfolder, the main checkout's `autoMemoryEnabled` wins over the
 * worktree's (false there is off in every worktree; true there is on even where the worktree says
 * false), and the worktree's or subfolder's own applies when the main one sets none.
 */
export interface SessionFolder {
  mainRoot: string;
  dir: string;
}

/** A recorded project (a session's folder) with its main repository's root. */
export function sessionFolderOf(dir: string): SessionFolder {
  return { mainRoot: gitMainRoot(dir), dir: resolve(dir) };
}

/**
 * The managed settings as Claude Code merges them: managed-settings.json, then each
 * managed-settings.d/*.json in name order on top (a later file wins a key; `env` merges by variable).
 * Measured: a drop-in moves the folder over the base file, and counts with no base file at all.
 */
function managedSettings(dir: string, files: SettingsFiles): Settings {
  let dropIns: string[] = [];
  try {
    dropIns = readdirSync(join(dir, 'managed-settings.d')).filter((f) => f.endsWith('.json') && !f.startsWith('.')).sort();
  } catch {
    // no drop-in folder: the base file alone
  }
  let merged: Settings = {};
  for (const file of [join(dir, 'managed-settings.json'), ...dropIns.map((f) => join(dir, 'managed-settings.d', f))]) {
    const settings = files.read(file);
    if (settings !== undefined) merged = { ...merged, ...settings, env: { ...envOf(merged), ...envOf(settings) } };
  }
  return merged;
}

/** SETTINGS_LAYERS we follow, highest priority first; the local settings only for one session's folder (LOCAL_SETTINGS_OF_A_SESSION). */
function settingsLayers(files: SettingsFiles, claudeConfigDir: string, managedDir: string, project?: SessionFolder): SettingsLayer[] {
  const layers: SettingsLayer[] = [{ name: 'managed settings', settings: files.managed(managedDir) }];
  for (const dir of project === undefined ? [] : [...new Set([project.mainRoot, project.dir])]) {
    const file = join(dir, '.claude', 'settings.local.json');
    layers.push({ name: 'local settings', settings: files.read(file) ?? {}, file });
  }
  layers.push({ name: 'user settings', settings: files.read(join(claudeConfigDir, 'settings.json')) ?? {} });
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

/** AUTO_MEMORY_SWITCH (see the head of this file) over the given layers: off or on, and the layer that decided (none: the environment or the default). */
function autoMemorySwitch(env: Env, layers: SettingsLayer[]): { off: boolean; by?: SettingsLayer } {
  const set = firstSet(layers, (s) => envOf(s).CLAUDE_CODE_DISABLE_AUTO_MEMORY);
  const variable = set?.value ?? env.CLAUDE_CODE_DISABLE_AUTO_MEMORY;
  if (claudeSwitchOn(variable)) return { off: true, ...(set === undefined ? {} : { by: set.layer }) };
  if (claudeSwitchOff(variable)) return { off: false, ...(set === undefined ? {} : { by: set.layer }) };
  const enabled = firstSet(layers, (s) => (typeof s.autoMemoryEnabled === 'boolean' ? s.autoMemoryEnabled : undefined));
  return { off: enabled?.value === false, ...(enabled === undefined ? {} : { by: enabled.layer }) };
}

function autoMemoryOff(env: Env, layers: SettingsLayer[]): boolean {
  return autoMemorySwitch(env, layers).off;
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
export function autoMemoryDirectoryIn(settingsFile: string, homeDir: string, files = new SettingsFiles()): string | undefined {
  return folderSetting(files.read(settingsFile)?.autoMemoryDirectory, homeDir, true);
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
 * `key` is the project's folder name under `projects/` (context/project.ts). `project` is the
 * session's folder and its main root (LOCAL_SETTINGS_OF_A_SESSION); a path alone is both.
 */
export function projectMemoryFolder(env: Env, claudeConfigDir: string, homeDir: string, project: string | SessionFolder, key: string, managedDir = MANAGED_SETTINGS_DIR, files = new SettingsFiles()): { dir: string; via: string } | undefined {
  const layers = settingsLayers(files, claudeConfigDir, managedDir, typeof project === 'string' ? { mainRoot: project, dir: project } : project);
  return autoMemoryOff(env, layers) ? undefined : memoryFolderOver(env, claudeConfigDir, homeDir, layers, key);
}

/** MEMORY_FOLDER over one project's layers, auto memory being on there. */
function memoryFolderOver(env: Env, claudeConfigDir: string, homeDir: string, layers: SettingsLayer[], key: string): { dir: string; via: string } {
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
 * How much of a transcript's start is read for its `cwd`: its first user line carries it, after a
 * few short queue lines (measured); a long first prompt may push it further, up to the larger read.
 */
const TRANSCRIPT_HEAD_BYTES = [8 * 1024, 64 * 1024];
/** How many transcripts of one project folder are tried before it is taken for one with none. */
const TRANSCRIPTS_TRIED = 3;

/** The first `cwd` recorded in a transcript's start (TRANSCRIPT_HEAD_BYTES), undefined when none. */
function transcriptCwd(file: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    for (const size of TRANSCRIPT_HEAD_BYTES) {
      const buf = Buffer.alloc(size);
      const read = readSync(fd, buf, 0, size, 0);
      const m = /"cwd":("(?:[^"\\]|\\.)*")/.exec(buf.subarray(0, read).toString('utf8'));
      if (m !== null) {
        const cwd: unknown = JSON.parse(m[1] as string);
        return typeof cwd === 'string' && isAbsolute(cwd) ? cwd : undefined;
      }
      if (read < size) break; // the whole file was read
    }
    return undefined;
  } catch {
    return undefined; // unreadable: no project learnt from it
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * PROJECTS_FROM_TRANSCRIPTS: a project only ever run with `claude -p` is not in `.claude.json`
 * (measured, 2.1.330–2.1.337: test/claude/memory-projects.claude.test.ts), but each session's
 * transcript, `<CLAUDE_CONFIG_DIR>/projects/<key of its cwd>/<session>.jsonl`, records its `cwd`.
 * A folder name cannot be turned back into a path (every `/`, `.`, `-` and space became `-`), so the
 * path is read from a transcript: one per project folder (the first by name holding a `cwd`, of at
 * most TRANSCRIPTS_TRIED; every transcript of a folder has the key of one path). A folder holding
 * only `memory/` (a worktree's main repository never opened itself) has no transcript, and needs none:
 * its sessions' folders key their memory to it (MEMORY_KEY_OF_A_PROJECT).
 */
function transcriptProjects(claudeConfigDir: string): string[] {
  const projectsDir = join(claudeConfigDir, 'projects');
  let names: string[];
  try {
    names = readdirSync(projectsDir);
  } catch {
    return [];
  }
  const found: string[] = [];
  for (const name of names) {
    let transcripts: string[];
    try {
      transcripts = readdirSync(join(projectsDir, name)).filter((f) => f.endsWith('.jsonl')).sort().slice(0, TRANSCRIPTS_TRIED);
    } catch {
      continue; // a file, or unreadable
    }
    for (const t of transcripts) {
      const cwd = transcriptCwd(join(projectsDir, name, t));
      if (cwd === undefined) continue;
      found.push(cwd);
      break;
    }
  }
  return found;
}

/**
 * Project folders Claude Code recorded, for their local settings: the `projects` of its global
 * config file (the interactive UI records a project there, its trust dialog; a `-p` run records
 * none, measured), and the `cwd` of the sessions' transcripts (PROJECTS_FROM_TRANSCRIPTS), which a
 * `-p` run writes too. Each is a session's folder: a worktree or a subfolder as it was opened.
 */
export function knownProjects(env: Env, claudeConfigDir: string, homeDir: string, files = new SettingsFiles()): string[] {
  return files.projects(claudeConfigDir, () => {
    const file = env.CLAUDE_CONFIG_DIR !== undefined && env.CLAUDE_CONFIG_DIR !== '' ? join(claudeConfigDir, '.claude.json') : join(homeDir, '.claude.json');
    const projects = files.read(file)?.projects;
    const recorded = typeof projects === 'object' && projects !== null ? Object.keys(projects).filter((p) => isAbsolute(p)) : [];
    return [...new Set([...recorded, ...transcriptProjects(claudeConfigDir)].map((p) => resolve(p)))];
  });
}

/**
 * PROJECT_DIR_NAME_OVERRIDE: `CLAUDE_CODE_PROJECT_DIR_NAME` names every project's folder, as the CLI
 * bundle (2.1.337) takes it: only with `CLAUDE_CONFIG_DIR` set (not empty), only a plain name of 1 to
 * 64 letters, digits, `_` and `-`, as written (no trimming), and not a name Windows reserves (`con`,
 * `nul`, `com1`…); any other value is ignored and the path's own key used (measured: a name with a
 * dot and a space leaves the default folder; test/claude/memory-projects.claude.test.ts). Taken before
 * (any slash-free value, trimmed, without CLAUDE_CONFIG_DIR too), a value the CLI ignores moved our
 * folder where Claude Code never wrote. For util/claude-project-key.ts `resolveProjectKey`.
 */
export function projectDirNameOverride(env: Env): string | undefined {
  const name = env.CLAUDE_CODE_PROJECT_DIR_NAME;
  if (env.CLAUDE_CONFIG_DIR === undefined || env.CLAUDE_CONFIG_DIR === '' || name === undefined) return undefined;
  return /^[A-Za-z0-9_-]{1,64}$/.test(name) && !/^(?:con|prn|aux|nul|com[0-9]|lpt[0-9])$/i.test(name) ? name : undefined;
}

/** A recorded project, its main root, and its memory folder where its own layers keep auto memory on. */
interface ProjectSwitch {
  project: SessionFolder;
  own: { dir: string; via: string } | undefined;
  /** The layer that decided its switch (status names its file). */
  by?: SettingsLayer;
}

/**
 * MEMORY_KEY_OF_A_PROJECT: the folder name under a `projects` folder that holds a recorded project's
 * memory: its main repository root's key (a linked worktree's or a subfolder's memory is the main
 * repository's, measured: test/claude/memory-projects.claude.test.ts), as Claude Code makes it there
 * (util/claude-project-key.ts, CLAUDE_CODE_PROJECT_DIR_NAME included: PROJECT_DIR_NAME_OVERRIDE below).
 * Several recorded projects share one such folder (a repository's worktrees and subfolders, or every
 * project under the override): it is left out only when auto memory is off for all of them, and scanned
 * when it is on for one (ONE_ON_KEEPS_THE_FOLDER): Claude Code writes there from that one's sessions.
 */
function memoryKeyOf(project: SessionFolder, projectsRoot: string, env: Env): string {
  return resolveProjectKey(project.mainRoot, projectsRoot, projectDirNameOverride(env));
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
export function autoMemoryFolders(env: Env, claudeConfigDir: string, homeDir: string, managedDir = MANAGED_SETTINGS_DIR, files = new SettingsFiles()): AutoMemoryFolder[] {
  const layers = settingsLayers(files, claudeConfigDir, managedDir);
  const off = autoMemoryOff(env, layers);
  const switches: ProjectSwitch[] = knownProjects(env, claudeConfigDir, homeDir, files).map((dir) => {
    const project = sessionFolderOf(dir);
    const own = settingsLayers(files, claudeConfigDir, managedDir, project);
    const { off: ownOff, by } = autoMemorySwitch(env, own);
    return { project, own: ownOff ? undefined : memoryFolderOver(env, claudeConfigDir, homeDir, own, ''), ...(by === undefined ? {} : { by }) };
  });
  // Each known project's folder where its own layers keep auto memory on.
  const used = switches.flatMap((s) => (s.own === undefined ? [] : [{ project: s.project, ...s.own }]));
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
    folders.push({ name: `auto-memory-dir-${id}`, root: resolve(own.dir), layout: 'folder', via: `autoMemoryDirectory (local settings of ${own.project.dir})` });
  }
  // ON_IN_ONE_PROJECT: only the folders the projects turned on use (a `projects` layout by its setting, a folder by its path).
  const kept = off ? folders.filter((f) => used.some((u) => (f.layout === 'folder' ? f.root === resolve(u.dir) : f.via === u.via))) : folders;
  return kept.map((f) => {
    if (f.layout !== 'projects') return f;
    // ONE_ON_KEEPS_THE_FOLDER: the keys here of the projects that write to this folder.
    const onKeys = new Set(used.filter((u) => u.via === f.via).map((u) => memoryKeyOf(u.project, f.root, env)));
    // MEMORY_OFF_LEFT_OUT: the known projects whose own layers turn it off, unless a project on shares their folder here.
    // One per folder (status says each once), named by the repository itself where it is recorded, else its first worktree or subfolder.
    const offFirst = switches.filter((s) => s.own === undefined).sort((a, b) => Number(b.project.dir === b.project.mainRoot) - Number(a.project.dir === a.project.mainRoot));
    const leftOut = offFirst.flatMap((s) => leftOutIn(f.root, s, off, env)).filter((l, i, all) => !onKeys.has(l.key) && all.findIndex((o) => o.key === l.key) === i);
    // ON_ONLY_WHERE_TURNED_ON: off for every project, a `projects` folder is scanned for the projects turned on alone. Leaving
    // out only the other known projects scanned every folder of a project Claude Code does not know (moved, gone), where
    // memory is off too: its notes from before were sent though auto memory was off for it.
    return { ...f, ...(leftOut.length === 0 ? {} : { leftOut }), ...(off ? { onlyProjects: [...onKeys] } : {}) };
  });
}

/**
 * MEMORY_OFF_LEFT_OUT: a project whose local settings turn auto memory off (on for every other
 * project: AUTO_MEMORY_SWITCH over its layers) has no memory folder for Claude Code, measured on
 * 2.1.330–2.1.337 (test/claude/memory-location.claude.test.ts): its `projects/<key>/memory`, which
 * Claude Code neither reads nor writes then, is not scanned either, as the SessionStart hook already
 * reads none for it. Its notes in the graph stay (files there are unknown, not deleted: sync/plan.ts).
 * The key is its memory's folder name as Claude Code makes it under that `projects` folder
 * (MEMORY_KEY_OF_A_PROJECT).
 */
const OFF_FOR_EVERY_PROJECT = 'CLAUDE_CODE_DISABLE_AUTO_MEMORY, or autoMemoryEnabled false in the managed or user settings';

function leftOutIn(projectsRoot: string, s: ProjectSwitch, offForEvery: boolean, env: Env): LeftOutProject[] {
  // Off for every project (ON_IN_ONE_PROJECT keeps a `projects` folder for the projects turned on), the others are
  // left out by the switch for all of them, not by their own local settings: status names what turned them off.
  const settingsFile = offForEvery && s.by?.file === undefined ? OFF_FOR_EVERY_PROJECT : (s.by?.file ?? join(s.project.dir, '.claude', 'settings.local.json'));
  return [{ project: s.project.dir, key: memoryKeyOf(s.project, projectsRoot, env), settingsFile }];
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
export function unsyncedProjectMemory(env: Env, claudeConfigDir: string, homeDir: string, managedDir = MANAGED_SETTINGS_DIR, files = new SettingsFiles()): UnsyncedMemoryFolder[] {
  // Per project, not by the switch for every project: a project's local settings may turn it on (ON_IN_ONE_PROJECT).
  const out: UnsyncedMemoryFolder[] = [];
  for (const project of knownProjects(env, claudeConfigDir, homeDir, files)) {
    const settingsFile = join(project, '.claude', 'settings.json');
    const checkedIn = autoMemoryDirectoryIn(settingsFile, homeDir, files);
    if (checkedIn === undefined) continue;
    const followed = projectMemoryFolder(env, claudeConfigDir, homeDir, sessionFolderOf(project), '', managedDir, files);
    // Auto memory off there, or our own layers (managed, local, user, cowork) move it anyway: Claude Code takes those first too.
    if (followed === undefined || (followed.via !== 'default' && followed.via !== 'CLAUDE_CODE_REMOTE_MEMORY_DIR')) continue;
    out.push({ project, dir: checkedIn, settingsFile });
  }
  return out;
}
