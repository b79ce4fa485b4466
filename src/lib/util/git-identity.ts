/**
 * A project's identity that survives machines and checkouts: the same repository cloned at
 * different paths, on different machines, or checked out as several worktrees, gets one id.
 *
 * - First choice: the `origin` remote's URL (else the first remote's), normalised so that the
 *   spellings one host accepts for one repository agree: `git@github.com:me/app.git`,
 *   `ssh://git@github.com/me/app`, `https://user:token@GitHub.com/me/app.git/` → `github.com/me/app`.
 *   Credentials in a URL never take part (and the id is a hash: the URL itself never leaves).
 * - Else the repository's root commit (the first commit with no parent; the smallest hash when
 *   histories were merged): a local-only repository copied to another machine keeps it.
 * The id is `sha256("graphiti-memory-sync project\0" + what)` cut to 16 hex characters.
 *
 * Reading the remote is a file read (`<common git dir>/config`); the root commit needs `git`
 * (`rev-list --max-parents=0 HEAD`, 5 s at most), so it is asked only without a remote.
 * Not on the hooks' path.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';

export interface ProjectIdentity {
  /** 16 hex characters. */
  id: string;
  via: 'remote' | 'root-commit';
  /** The normalised remote (`github.com/me/app`) for `remote`: shown on this machine only, never sent. */
  remote?: string;
}

/** A remote URL as `host/path`, lower-case host, no scheme, user, password, port of ssh, `.git` or trailing slash. Undefined for a local path. */
export function normalizeRemoteUrl(url: string): string | undefined {
  let u = url.trim();
  if (u === '') return undefined;
  let host: string;
  let path: string;
  const scp = /^(?:[^@/\s]+@)?([^:/\s]+):(?!\/\/)(.+)$/.exec(u);
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/]*@)?([^/]+)(\/.*)?$/i.exec(u);
  if (withScheme !== null) {
    host = (withScheme[1] ?? '').replace(/:\d+$/, '');
    path = withScheme[2] ?? '';
    if (/^file:/i.test(u)) return undefined;
  } else if (scp !== null && !isAbsolute(u)) {
    host = scp[1] ?? '';
    path = scp[2] ?? '';
  } else {
    return undefined; // a path on this machine: not the same on another one
  }
  u = path.replace(/\/+$/, '').replace(/\.git$/i, '').replace(/^\/+/, '').replace(/^~/, '');
  if (host === '' || u === '') return undefined;
  return `${host.toLowerCase()}/${u}`;
}

/** The remotes' URLs in a git config file's text, `origin` first. */
export function remoteUrls(configText: string): string[] {
  const out: Array<{ name: string; url: string }> = [];
  let remote: string | undefined;
  for (const line of configText.split(/\r?\n/)) {
    const section = /^\s*\[\s*remote\s+"([^"]+)"\s*\]/.exec(line);
    if (section !== null) {
      remote = section[1];
      continue;
    }
    if (/^\s*\[/.test(line)) {
      remote = undefined;
      continue;
    }
    const url = /^\s*url\s*=\s*(.+?)\s*$/.exec(line);
    if (remote !== undefined && url?.[1] !== undefined) out.push({ name: remote, url: url[1].replace(/^"(.*)"$/, '$1') });
  }
  out.sort((a, b) => Number(b.name === 'origin') - Number(a.name === 'origin'));
  return out.map((r) => r.url);
}

function remoteId(normalised: string): string {
  return hashId(`remote\0${normalised}`);
}

function hashId(what: string): string {
  return createHash('sha256').update(`graphiti-memory-sync project\0${what}`).digest('hex').slice(0, 16);
}

/** The common git dir of a checkout (a linked worktree's `.git` file points into `<main>/.git/worktrees/<name>`). */
function commonGitDir(root: string): string | undefined {
  const dotGit = join(root, '.git');
  let st;
  try {
    st = statSync(dotGit);
  } catch {
    return undefined;
  }
  if (st.isDirectory()) return dotGit;
  try {
    const m = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(dotGit, 'utf8'));
    if (m?.[1] === undefined) return undefined;
    const gitDir = isAbsolute(m[1]) ? m[1] : resolve(root, m[1]);
    try {
      const common = readFileSync(join(gitDir, 'commondir'), 'utf8').trim();
      return isAbsolute(common) ? common : resolve(gitDir, common);
    } catch {
      return gitDir;
    }
  } catch {
    return undefined;
  }
}

/** The root commit of the checkout at `root` (the smallest when histories were merged), undefined without git or commits. */
export function rootCommit(root: string): string | undefined {
  try {
    const out = execFileSync('git', ['-C', root, 'rev-list', '--max-parents=0', 'HEAD'], { encoding: 'utf8', timeout: 5000, stdio: ['ignore', 'pipe', 'ignore'] });
    const commits = out.split('\n').map((l) => l.trim()).filter((l) => /^[0-9a-f]{40,64}$/.test(l)).sort();
    return commits[0];
  } catch {
    return undefined;
  }
}

/** The identity of the git checkout rooted at `root` (a worktree's own root or the main one: both give the same). Undefined outside git or in a repository with neither remote nor commit. */
export function projectIdentity(root: string): ProjectIdentity | undefined {
  const common = commonGitDir(root);
  if (common === undefined) return undefined;
  let config = '';
  try {
    config = readFileSync(join(common, 'config'), 'utf8');
  } catch {
    // no config: no remote
  }
  for (const url of remoteUrls(config)) {
    const normalised = normalizeRemoteUrl(url);
    if (normalised !== undefined) return { id: remoteId(normalised), via: 'remote', remote: normalised };
  }
  const commit = rootCommit(root);
  return commit === undefined ? undefined : { id: hashId(`root-commit\0${commit}`), via: 'root-commit' };
}

/**
 * The remotes (normalised, with their project ids) a checkout's git config declares it was known by before its host renamed it:
 * `git config --add graphiti-memory-sync.previousUrl <old URL>` (in the common git dir's config, so
 * every worktree has it), in the order written. A machine whose clone has only the new URL joins the
 * machines that know the project by the old one (state/checkout-ids.ts).
 */
export function previousRemotes(root: string): Array<{ id: string; remote: string }> {
  return declaredRemotes(root, 'previousurl');
}

/**
 * The remotes a checkout's git config declares it a fork of, not that repository renamed:
 * `git config --add graphiti-memory-sync.forkOf <URL>`. The person's answer to the question `pull`
 * and `status` ask of a checkout cloned from that URL (pull/projects.ts `clonedFromHere`), so that
 * they stop asking; the project's notes stay held, as they did.
 */
export function forkedFrom(root: string): Array<{ id: string; remote: string }> {
  return declaredRemotes(root, 'forkof');
}

/** The URLs under `graphiti-memory-sync.<key>` (the key in lower case) in a checkout's git config, normalised, each once, in the order written. */
function declaredRemotes(root: string, key: 'previousurl' | 'forkof'): Array<{ id: string; remote: string }> {
  const common = commonGitDir(root);
  if (common === undefined) return [];
  let config: string;
  try {
    config = readFileSync(join(common, 'config'), 'utf8');
  } catch {
    return [];
  }
  const out: Array<{ id: string; remote: string }> = [];
  let inSection = false;
  for (const line of config.split(/\r?\n/)) {
    // Section and key names are case-insensitive in git config.
    const section = /^\s*\[\s*([^\]\s]+)\s*\]/.exec(line);
    if (section !== null) {
      inSection = section[1]?.toLowerCase() === 'graphiti-memory-sync';
      continue;
    }
    const value = /^\s*([A-Za-z]+)\s*=\s*(.+?)\s*$/.exec(line);
    const normalised = inSection && value?.[1]?.toLowerCase() === key && value[2] !== undefined ? normalizeRemoteUrl(value[2].replace(/^"(.*)"$/, '$1')) : undefined;
    if (normalised !== undefined && !out.some((p) => p.remote === normalised)) out.push({ id: remoteId(normalised), remote: normalised });
  }
  return out;
}

/**
 * The remote a checkout was cloned from, as git's own log of HEAD recorded it at the clone (its
 * first line: `clone: from <URL>`, user names left out by git): normalised, with its project id.
 * It outlives a `git remote set-url`, so a checkout whose repository was renamed on its host names
 * the old URL here. Evidence, not proof: people clone a repository and then point `origin` at their
 * fork of it the same way. Undefined for a checkout made otherwise (`git init`), a clone from a path,
 * or a log expired or removed.
 */
export function clonedFrom(root: string): { id: string; remote: string } | undefined {
  const common = commonGitDir(root);
  if (common === undefined) return undefined;
  let head: string;
  try {
    // The first line only: the log grows with every commit and checkout.
    const fd = openSync(join(common, 'logs', 'HEAD'), 'r');
    try {
      const buffer = Buffer.alloc(4096);
      head = buffer.toString('utf8', 0, readSync(fd, buffer, 0, buffer.length, 0)).split('\n')[0] ?? '';
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
  const url = /\tclone: from (\S+)\s*$/.exec(head)?.[1];
  const normalised = url === undefined ? undefined : normalizeRemoteUrl(url);
  return normalised === undefined ? undefined : { id: remoteId(normalised), remote: normalised };
}

/**
 * The main checkout's root for a folder inside a git checkout (a linked worktree's main
 * repository; the folder itself outside git): the folder Claude Code keys a project's memory by.
 * context/project.ts `findGitRoot` is the hooks' own walk (no crypto, no subprocess on their path).
 */
export function gitMainRoot(path: string): string {
  let dir = resolve(path);
  for (let depth = 0; depth < 256; depth++) {
    const common = commonGitDir(dir);
    if (common !== undefined) return common.endsWith(`${'/'}.git`) || common.endsWith('\\.git') ? resolve(common, '..') : dir;
    const parent = resolve(dir, '..');
    if (parent === dir) return resolve(path);
    dir = parent;
  }
  return resolve(path);
}
