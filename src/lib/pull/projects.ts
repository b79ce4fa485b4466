/**
 * Where a project's notes go on this machine (issue 42): project identity → its auto-memory folder
 * here. The projects are those Claude Code knows (`projects` in its global config file, every folder
 * a session was opened in) plus any folder named by the caller (the session's cwd, `--cwd`). Each
 * is taken to its main checkout (worktrees of one repository share one memory folder, as in Claude
 * Code), its identity read (util/git-identity.ts), and its memory folder found as Claude Code finds
 * it (config/claude-memory.ts: CLAUDE_CONFIG_DIR, moved folders, auto memory off).
 * Two clones of one repository on this machine are one project with two memory folders (Claude Code
 * keeps one per checkout path): both get the project's notes, the caller's (the session's) first.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Config } from '../config/config.js';
import { knownProjects, projectDirNameOverride, projectMemoryFolder } from '../config/claude-memory.js';
import { fileIdFor } from '../memory/sources.js';
import { resolveProjectKey } from '../util/claude-project-key.js';
import { resolveCheckouts, type Checkout, type CheckoutRecord } from '../state/checkout-ids.js';
import { clonedFrom, forkedFrom, gitMainRoot, previousRemotes, projectIdentity } from '../util/git-identity.js';

export interface LocalProject {
  id: string;
  root: string;
  /** Claude Code's folder name for the project. */
  key: string;
  memoryDir: string;
  /**
   * The folder as the sync's `auto-memory` source names its files (`<key>/memory`), whose file ids
   * (memory/sources.ts fileIdFor) the markers of this folder's own episodes carry; undefined for a
   * moved folder (its notes are never tagged).
   */
  sourceDir: string | undefined;
  /** The checkout and the id it goes by (to record: state/checkout-ids.ts). */
  checkout: Checkout;
}

/** The marker file id of `path` in a project's memory folder (what the sync sends it under), when its notes are tagged. */
export function fileIdIn(project: LocalProject, path: string): string | undefined {
  return project.sourceDir === undefined ? undefined : fileIdFor({ name: 'auto-memory', origin: '', shared: false, kind: 'auto-memory', layout: 'projects' }, `${project.sourceDir}/${path}`);
}

/**
 * Project id → its memory folders here. Each checkout goes by the id state/checkout-ids.ts gives it
 * (`records`: what the last pull recorded; a repository renamed on its host keeps its id).
 */
export function localProjects(config: Pick<Config, 'claudeConfigDir' | 'knownProjectDirs'>, env: Record<string, string | undefined>, extraRoots: readonly string[] = [], records: Readonly<Record<string, CheckoutRecord>> = {}): Map<string, LocalProject[]> {
  const home = env.HOME !== undefined && env.HOME !== '' ? env.HOME : homedir();
  const out = new Map<string, LocalProject[]>();
  const named = new Set(extraRoots.map(gitMainRoot));
  const roots = knownRoots(config, env, extraRoots);
  for (const [root, checkout] of resolveCheckouts(roots, records, true)) {
    const identity = { id: checkout.id };
    // CLAUDE_CODE_PROJECT_DIR_NAME names the folder of the session's own project (a folder named by the caller), not every project's.
    const key = resolveProjectKey(root, join(config.claudeConfigDir, 'projects'), named.has(root) ? projectDirNameOverride(env) : undefined);
    const folder = projectMemoryFolder(env, config.claudeConfigDir, home, root, key);
    if (folder === undefined) continue; // auto memory off: nothing to write into
    const folders = out.get(identity.id) ?? [];
    // One folder for several checkouts (a moved folder for every project): written once.
    if (folders.some((f) => f.memoryDir === folder.dir)) continue;
    out.set(identity.id, [...folders, { id: identity.id, root, key, memoryDir: folder.dir, sourceDir: folder.via === 'default' ? `${key}/memory` : undefined, checkout }]);
  }
  return out;
}

/** The main checkout roots of the projects Claude Code knows here, the folders named by the caller first. */
export function knownRoots(config: Pick<Config, 'claudeConfigDir' | 'knownProjectDirs'>, env: Record<string, string | undefined>, extraRoots: readonly string[] = []): Set<string> {
  const home = env.HOME !== undefined && env.HOME !== '' ? env.HOME : homedir();
  return new Set([...extraRoots.map(gitMainRoot), ...(config.knownProjectDirs ?? knownProjects(env, config.claudeConfigDir, home)).map(gitMainRoot)]);
}

/** A checkout here that was cloned from the URL a held project goes by (util/git-identity.ts `clonedFrom`), its remote another since. */
export interface CloneHint {
  root: string;
  /** The normalised URL it was cloned from. */
  url: string;
}

/**
 * Project id → the checkout here cloned from the URL of that id while its remote is another now
 * (and it declares no old URL). Such a checkout is either that repository renamed on its host after
 * the clone, or a fork `origin` was pointed at after cloning the original: nothing on this machine
 * tells the two apart (the ids are hashes of URLs, forks share the root commit, and the host's
 * redirect is not visible from a file). So it is never joined by itself: pull and `status` name the
 * exact command that declares the URL (state/checkout-ids.ts), for the person to run if it is a rename,
 * and the one that declares a fork (`forkOf`), after which they ask no more.
 */
export function clonedFromHere(roots: Iterable<string>): Map<string, CloneHint> {
  const out = new Map<string, CloneHint>();
  for (const root of roots) {
    const from = clonedFrom(root);
    if (from === undefined || out.has(from.id) || projectIdentity(root)?.id === from.id) continue;
    // Answered already: the old URL declared (a rename), or the checkout declared a fork of it.
    if (previousRemotes(root).some((p) => p.id === from.id) || forkedFrom(root).some((p) => p.id === from.id)) continue;
    out.set(from.id, { root, url: from.remote });
  }
  return out;
}
