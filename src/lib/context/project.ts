/**
 * Which project a session belongs to, derived from its cwd without any subprocess.
 *
 * This module is on the SessionStart hook path, so it only does a handful of
 * synchronous stat/read calls: walk up for `.git`, compute Claude Code's project
 * folder name, and (for the background worker's queries) read the tail of
 * `.git/logs/HEAD` and the names of recently edited memory topic files.
 *
 * Claude Code's project folder name ("key"), as shipped in its CLI bundle
 * (`sanitizePath`, verified by several third-party tools against v2.1.139–2.1.239):
 *
 *     key = path.replace(/[^a-zA-Z0-9]/g, '-')
 *     if key.length > 200: key = key.slice(0, 200) + '-' + base36(|javaHash(path)|)
 *
 * where javaHash is `h = (h << 5) - h + charCodeAt(i) | 0` over the ORIGINAL path's
 * UTF-16 code units. The Bun build may use `Bun.hash` instead, and v2.1.224 changed the
 * disambiguation of long paths, so for a key longer than 200 characters we prefer an
 * existing `projects/<first 200>-*` folder on disk and only fall back to the computed
 * hash when there is none. `CLAUDE_CODE_PROJECT_DIR_NAME` (v2.1.234) overrides the key, as the
 * CLI takes it (config/claude-memory.ts PROJECT_DIR_NAME_OVERRIDE).
 *
 * The project root is the git repository root: all worktrees and subfolders of a
 * repository share one auto-memory folder (Claude Code v2.1.63+). For a linked
 * worktree (`.git` is a file pointing into `<main>/.git/worktrees/<name>`) that is the
 * MAIN repository's root; outside git it is the cwd itself.
 */
import { closeSync, openSync, readdirSync, readFileSync, readSync, statSync, type Stats } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { homedir } from 'node:os';
import { projectDirNameOverride, projectMemoryFolder } from '../config/claude-memory.js';
import { resolveProjectKey as resolveKeyIn } from '../util/claude-project-key.js';
import type { Config } from '../config/config.js';
import { projectGroupId } from '../graphiti/escape.js';
import { processEnv } from '../config/process-env.js';

export interface ProjectInfo {
  /** The cwd the session reported (resolved to an absolute path). */
  cwd: string;
  /** Git repository root (main worktree for linked worktrees), or the cwd outside git. */
  root: string;
  /** True when a `.git` folder or file was found. */
  isGit: boolean;
  /** The git directory holding HEAD and logs/HEAD for the cwd's worktree (undefined outside git). */
  gitDir: string | undefined;
  /** basename of `root`. */
  name: string;
  /** Claude Code's project folder name under `<claudeConfigDir>/projects/`. */
  key: string;
  /**
   * The project's auto-memory folder wherever Claude Code keeps it (config/claude-memory.ts):
   * `<claudeConfigDir>/projects/<key>/memory` by default. May not exist; with auto memory off, the
   * default place and `memoryDirExists` false.
   */
  memoryDir: string;
  memoryDirExists: boolean;
  /** What put the memory folder there: `default`, a variable, or `autoMemoryDirectory (… settings)`; `disabled` when auto memory is off. */
  memoryVia?: string;
  /** Groups the context searches: config.groupId, plus the per-project group when auto-memory uses `{project}`. */
  groupIds: string[];
}

export { MAX_SANITIZED_LENGTH, claudePathHash, claudeProjectKey } from '../util/claude-project-key.js';

/** The key as Claude Code will have created it on disk (util/claude-project-key.ts), with this process's environment by default. */
export function resolveProjectKey(path: string, projectsDir: string, env: Record<string, string | undefined> = processEnv()): string {
  return resolveKeyIn(path, projectsDir, projectDirNameOverride(env));
}

function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

export interface GitLocation {
  /** The folder containing `.git` (the worktree's own root). */
  worktreeRoot: string;
  /** The git dir of that worktree (HEAD, logs/HEAD). */
  gitDir: string;
  /** The main repository's root: differs from worktreeRoot for linked worktrees. */
  mainRoot: string;
}

function readSmall(path: string, max = 4096): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const buf = Buffer.alloc(max);
    const n = readSync(fd, buf, 0, max, 0);
    return buf.subarray(0, n).toString('utf8');
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Walks up from `start` looking for a `.git` folder or `gitdir:` file. No subprocess. */
export function findGitRoot(start: string): GitLocation | undefined {
  let dir = resolve(start);
  for (let depth = 0; depth < 256; depth++) {
    const dotGit = join(dir, '.git');
    const st = statOrUndefined(dotGit);
    if (st?.isDirectory()) return { worktreeRoot: dir, gitDir: dotGit, mainRoot: dir };
    if (st?.isFile()) {
      const text = readSmall(dotGit);
      const m = text === undefined ? null : /^gitdir:\s*(.+?)\s*$/m.exec(text);
      if (m?.[1] !== undefined) {
        const gitDir = isAbsolute(m[1]) ? m[1] : resolve(dir, m[1]);
        // Linked worktree: <gitDir>/commondir points at the main .git folder.
        const common = readSmall(join(gitDir, 'commondir'))?.trim();
        if (common !== undefined && common !== '') {
          const commonDir = isAbsolute(common) ? common : resolve(gitDir, common);
          const mainRoot = basename(commonDir) === '.git' ? dirname(commonDir) : dir;
          return { worktreeRoot: dir, gitDir, mainRoot };
        }
        // Submodule or plain gitdir file: this folder is its own project.
        return { worktreeRoot: dir, gitDir, mainRoot: dir };
      }
    }
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
  return undefined;
}

type ProjectConfig = Pick<Config, 'claudeConfigDir' | 'groupId' | 'sourceGroups' | 'db'>;

/** Groups to search for a project: the main group, plus the per-project group when auto memory uses `{project}`. */
export function projectSearchGroups(config: ProjectConfig, key: string): string[] {
  const groups = [config.groupId];
  if (config.sourceGroups['auto-memory'] === '{project}') {
    const g = projectGroupId(config.db, key);
    if (!groups.includes(g)) groups.push(g);
  }
  return groups;
}

/** Everything the hook and the worker need to know about the session's project. Cheap and synchronous. */
export function detectProject(cwd: string, config: ProjectConfig, env: Record<string, string | undefined> = processEnv()): ProjectInfo {
  const abs = resolve(cwd);
  const git = findGitRoot(abs);
  const root = git?.mainRoot ?? abs;
  const projectsDir = join(config.claudeConfigDir, 'projects');
  const key = resolveProjectKey(root, projectsDir, env);
  // The main root's local settings, then the session folder's own (claude-memory.ts LOCAL_SETTINGS_OF_A_SESSION).
  const located = projectMemoryFolder(env, config.claudeConfigDir, env.HOME !== undefined && env.HOME !== '' ? env.HOME : homedir(), { mainRoot: root, dir: abs }, key);
  const memoryDir = located?.dir ?? join(projectsDir, key, 'memory');
  return {
    cwd: abs,
    root,
    isGit: git !== undefined,
    gitDir: git?.gitDir,
    name: basename(root) || root,
    key,
    memoryDir,
    memoryDirExists: located !== undefined && (statOrUndefined(memoryDir)?.isDirectory() ?? false),
    memoryVia: located?.via ?? 'disabled',
    groupIds: projectSearchGroups(config, key),
  };
}

function readTail(path: string, maxBytes: number): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const size = statSync(path).size;
    const len = Math.min(size, maxBytes);
    const buf = Buffer.alloc(len);
    const n = readSync(fd, buf, 0, len, size - len);
    let text = buf.subarray(0, n).toString('utf8');
    // Drop a partial first line when we started mid-file.
    if (size > len) text = text.slice(text.indexOf('\n') + 1);
    return text;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Subjects of the most recent commits, newest first, read from the reflog (`logs/HEAD`).
 * Only `commit…:` entries count (not checkouts, resets, rebases' internal steps). Missing
 * reflog, bare repos or a non-git folder give []. `root` may be a repo root or a git dir.
 */
export function recentCommitSubjects(root: string, n: number, gitDir?: string): string[] {
  if (n <= 0) return [];
  const dir = gitDir ?? findGitRoot(root)?.gitDir;
  if (dir === undefined) return [];
  const text = readTail(join(dir, 'logs', 'HEAD'), 64 * 1024);
  if (text === undefined) return [];
  const out: string[] = [];
  const seen = new Set<string>();
  const lines = text.split('\n');
  for (let i = lines.length - 1; i >= 0 && out.length < n; i--) {
    const line = lines[i] as string;
    const tab = line.indexOf('\t');
    if (tab < 0) continue;
    const message = line.slice(tab + 1);
    const m = /^commit(?: \([^)]*\))?: (.+)$/.exec(message);
    const subject = m?.[1]?.trim();
    if (subject === undefined || subject === '' || seen.has(subject)) continue;
    seen.add(subject);
    out.push(subject);
  }
  return out;
}

/** Title of a memory file from its first 2 KB: frontmatter `name:`/`title:`, else the first heading. */
function memoryTitle(path: string, fileName: string): string {
  const head = readSmall(path, 2048) ?? '';
  const fm = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---/.exec(head);
  if (fm?.[1] !== undefined) {
    const m = /^(?:name|title):\s*["']?(.+?)["']?\s*$/m.exec(fm[1]);
    if (m?.[1] !== undefined && m[1] !== '') return m[1];
  }
  const h = /^#{1,6}\s+(.+?)\s*#*\s*$/m.exec(head);
  if (h?.[1] !== undefined && h[1] !== '') return h[1];
  return fileName.replace(/\.md$/i, '').replace(/[_-]+/g, ' ').trim();
}

/** Titles of the `n` most recently modified topic files in an auto-memory folder (MEMORY.md excluded), newest first. */
export function recentMemoryTitles(memoryDir: string, n: number): string[] {
  if (n <= 0) return [];
  let names: string[];
  try {
    names = readdirSync(memoryDir);
  } catch {
    return [];
  }
  const files: Array<{ name: string; path: string; mtimeMs: number }> = [];
  for (const name of names) {
    if (!/\.md$/i.test(name) || name.toUpperCase() === 'MEMORY.MD' || name.startsWith('.')) continue;
    const path = join(memoryDir, name);
    const st = statOrUndefined(path);
    if (st?.isFile()) files.push({ name, path, mtimeMs: st.mtimeMs });
  }
  files.sort((a, b) => b.mtimeMs - a.mtimeMs || a.name.localeCompare(b.name));
  return files.slice(0, n).map((f) => memoryTitle(f.path, f.name));
}
