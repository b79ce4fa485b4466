/**
 * Where Claude Code keeps auto memory, from its own settings and variables (read from the 2.1.332
 * CLI bundle, its memory-folder resolver; the same in 2.1.337's), so that the sync and the
 * SessionStart hook look where Claude Code writes. For one project, the first that applies wins:
 *
 * 1. `CLAUDE_CODE_DISABLE_AUTO_MEMORY` true (1/true/yes/on): no auto memory at all;
 * 2. `CLAUDE_COWORK_MEMORY_PATH_OVERRIDE`: that folder, as written (no `~` expansion), for every project;
 * 3. `autoMemoryDirectory` in the project's local settings (`<project>/.claude/settings.local.json`),
 *    then in the user settings (`<CLAUDE_CONFIG_DIR>/settings.json`): that folder, `~/` expanded.
 *    Never from the checked-in project settings (`.claude/settings.json`). Claude Code reads it
 *    there too in a trusted workspace (always in `-p`: measured on 2.1.330, 2.1.332 and 2.1.337),
 *    but a repository must not choose which of a person's folders go to a shared graph (a clone could
 *    name `~/`); notes Claude Code writes to such a folder are not synced;
 * 4. `<CLAUDE_CODE_REMOTE_MEMORY_DIR or CLAUDE_CONFIG_DIR>/projects/<project key>/memory`.
 * A moved folder holds the memory itself (`<folder>/*.md`, `<folder>/team/<store>/…`), not per-project folders.
 *
 * Synchronous and small: the SessionStart hook uses it (no memory/ module may load there).
 */
import { readFileSync } from 'node:fs';
import { isAbsolute, join, normalize, resolve } from 'node:path';

type Env = Record<string, string | undefined>;

/** A folder of Claude Code auto memory to sync: `projects` holds `<key>/memory/`, `folder` is a memory folder itself. */
export interface AutoMemoryFolder {
  /** The source's name (file ids, `--source`, group overrides). */
  name: string;
  root: string;
  layout: 'projects' | 'folder';
  /** The setting that put it there, for status and logs. */
  via: string;
}

/** Claude Code's truthy spellings for a switch variable. */
export function claudeSwitchOn(value: string | undefined): boolean {
  return value !== undefined && ['1', 'true', 'yes', 'on'].includes(value.trim().toLowerCase());
}

export function autoMemoryDisabled(env: Env): boolean {
  return claudeSwitchOn(env.CLAUDE_CODE_DISABLE_AUTO_MEMORY);
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

function settingsValue(file: string, key: string): unknown {
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>)[key] : undefined;
  } catch {
    return undefined; // missing or unreadable settings: Claude Code uses its default too
  }
}

/** `autoMemoryDirectory` of one settings file, `~/` expanded; undefined when unset or not usable. */
export function autoMemoryDirectoryIn(settingsFile: string, homeDir: string): string | undefined {
  return folderSetting(settingsValue(settingsFile, 'autoMemoryDirectory'), homeDir, true);
}

/** The folder every project's memory moved to (cowork override, else the user settings), if any. */
function movedForAll(env: Env, claudeConfigDir: string, homeDir: string): { root: string; via: string } | undefined {
  const cowork = folderSetting(env.CLAUDE_COWORK_MEMORY_PATH_OVERRIDE, homeDir, false);
  if (cowork !== undefined) return { root: cowork, via: 'CLAUDE_COWORK_MEMORY_PATH_OVERRIDE' };
  const user = autoMemoryDirectoryIn(join(claudeConfigDir, 'settings.json'), homeDir);
  return user === undefined ? undefined : { root: user, via: 'autoMemoryDirectory (user settings)' };
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
export function projectMemoryFolder(env: Env, claudeConfigDir: string, homeDir: string, projectRoot: string, key: string): { dir: string; via: string } | undefined {
  if (autoMemoryDisabled(env)) return undefined;
  const cowork = folderSetting(env.CLAUDE_COWORK_MEMORY_PATH_OVERRIDE, homeDir, false);
  if (cowork !== undefined) return { dir: cowork, via: 'CLAUDE_COWORK_MEMORY_PATH_OVERRIDE' };
  const local = autoMemoryDirectoryIn(join(projectRoot, '.claude', 'settings.local.json'), homeDir);
  if (local !== undefined) return { dir: local, via: 'autoMemoryDirectory (local settings)' };
  const moved = movedForAll(env, claudeConfigDir, homeDir);
  if (moved !== undefined) return { dir: moved.root, via: moved.via };
  const { base, remote } = projectsBase(env, claudeConfigDir);
  return { dir: join(base, 'projects', key, 'memory'), via: remote ? 'CLAUDE_CODE_REMOTE_MEMORY_DIR' : 'default' };
}

/** A short stable name for a folder (32-bit string hash in base 36: no crypto module on the hook path). */
function shortId(path: string): string {
  let h = 0;
  for (let i = 0; i < path.length; i++) h = ((h << 5) - h + path.charCodeAt(i)) | 0;
  return (h >>> 0).toString(36);
}

/** Project folders Claude Code knows (the `projects` of its global config file), for their local settings. */
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
 */
export function autoMemoryFolders(env: Env, claudeConfigDir: string, homeDir: string): AutoMemoryFolder[] {
  if (autoMemoryDisabled(env)) return [];
  const folders: AutoMemoryFolder[] = [{ name: 'auto-memory', root: resolve(claudeConfigDir, 'projects'), layout: 'projects', via: 'default' }];
  const { base, remote } = projectsBase(env, claudeConfigDir);
  if (remote) folders.push({ name: 'auto-memory-remote', root: resolve(base, 'projects'), layout: 'projects', via: 'CLAUDE_CODE_REMOTE_MEMORY_DIR' });
  const moved = movedForAll(env, claudeConfigDir, homeDir);
  if (moved !== undefined) folders.push({ name: 'auto-memory-dir', root: resolve(moved.root), layout: 'folder', via: moved.via });
  for (const project of knownProjects(env, claudeConfigDir, homeDir)) {
    const local = autoMemoryDirectoryIn(join(project, '.claude', 'settings.local.json'), homeDir);
    if (local === undefined || folders.some((f) => f.root === resolve(local))) continue;
    const id = shortId(resolve(local));
    folders.push({ name: `auto-memory-dir-${id}`, root: resolve(local), layout: 'folder', via: `autoMemoryDirectory (local settings of ${project})` });
  }
  return folders;
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
export function unsyncedProjectMemory(env: Env, claudeConfigDir: string, homeDir: string): UnsyncedMemoryFolder[] {
  if (autoMemoryDisabled(env)) return [];
  const out: UnsyncedMemoryFolder[] = [];
  for (const project of knownProjects(env, claudeConfigDir, homeDir)) {
    const settingsFile = join(project, '.claude', 'settings.json');
    const checkedIn = autoMemoryDirectoryIn(settingsFile, homeDir);
    if (checkedIn === undefined) continue;
    const followed = projectMemoryFolder(env, claudeConfigDir, homeDir, project, '');
    // Our own settings (local, user, cowork) move it anyway: Claude Code takes those first too.
    if (followed !== undefined && followed.via !== 'default' && followed.via !== 'CLAUDE_CODE_REMOTE_MEMORY_DIR') continue;
    out.push({ project, dir: checkedIn, settingsFile });
  }
  return out;
}
