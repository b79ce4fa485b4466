/** Project identity across machines and worktrees (issue 42): the remote, normalised; else the root commit. */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { clonedFrom, gitMainRoot, normalizeRemoteUrl, projectIdentity, remoteUrls } from '../../src/lib/util/git-identity.js';
import { useTempDir } from '../helpers/use-temp-dir.js';

const git = (cwd: string, ...args: string[]) => execFileSync('git', ['-C', cwd, ...args], { encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t', GIT_CONFIG_NOSYSTEM: '1', HOME: cwd } });

describe('normalizeRemoteUrl', () => {
  it('the spellings of one repository agree; credentials, ports of the scheme, .git and slashes do not count', () => {
    const forms = ['git@github.com:me/app.git', 'ssh://git@github.com/me/app', 'https://user:tok3n@GitHub.com/me/app.git/', 'https://github.com/me/app', 'git+ssh://git@github.com:22/me/app.git'];
    expect(new Set(forms.map(normalizeRemoteUrl))).toEqual(new Set(['github.com/me/app']));
    expect(normalizeRemoteUrl('https://github.com/me/other')).toBe('github.com/me/other');
  });
  it('a path on this machine is no identity (it differs between machines)', () => {
    expect(normalizeRemoteUrl('/srv/git/app.git')).toBeUndefined();
    expect(normalizeRemoteUrl('file:///srv/git/app.git')).toBeUndefined();
    expect(normalizeRemoteUrl('')).toBeUndefined();
  });
  it('remoteUrls reads a git config, origin first', () => {
    expect(remoteUrls('[core]\n\tbare = false\n[remote "upstream"]\n\turl = git@h:a/b\n[remote "origin"]\n\turl = https://h/c/d\n[branch "x"]\n\turl = nope\n')).toEqual(['https://h/c/d', 'git@h:a/b']);
  });
});

describe('projectIdentity', () => {
  const tmp = { dir: '' };
  useTempDir('gms-gitid-', (d) => (tmp.dir = d));
  it('two clones at different paths with one remote, and a worktree of one, share the identity; another remote differs', () => {
    const a = join(tmp.dir, 'laptop', 'app');
    const b = join(tmp.dir, 'desktop', 'work', 'app-clone');
    for (const dir of [a, b]) {
      mkdirSync(dir, { recursive: true });
      git(dir, 'init', '-q');
    }
    git(a, 'remote', 'add', 'origin', 'git@github.com:me/app.git');
    git(b, 'remote', 'add', 'origin', 'https://github.com/me/app');
    writeFileSync(join(a, 'f'), 'x');
    git(a, 'add', 'f');
    git(a, 'commit', '-qm', 'one');
    const wt = join(tmp.dir, 'laptop', 'app-wt');
    git(a, 'worktree', 'add', '-q', wt);
    const idA = projectIdentity(a);
    expect(idA?.via).toBe('remote');
    expect(projectIdentity(b)).toEqual(idA);
    expect(projectIdentity(wt)).toEqual(idA);
    expect(gitMainRoot(join(wt))).toBe(a);
    expect(gitMainRoot(a)).toBe(a);
    const c = join(tmp.dir, 'other');
    mkdirSync(c);
    git(c, 'init', '-q');
    git(c, 'remote', 'add', 'origin', 'git@github.com:me/other.git');
    expect(projectIdentity(c)?.id).not.toBe(idA?.id);
  });
  it('without a remote: the root commit, the same in a copy of the repository; no commit and no remote: none', () => {
    const a = join(tmp.dir, 'local');
    mkdirSync(a);
    git(a, 'init', '-q');
    expect(projectIdentity(a)).toBeUndefined();
    writeFileSync(join(a, 'f'), 'x');
    git(a, 'add', 'f');
    git(a, 'commit', '-qm', 'root');
    const copy = join(tmp.dir, 'copy');
    execFileSync('git', ['clone', '-q', '--no-local', a, copy]);
    git(copy, 'remote', 'remove', 'origin');
    const id = projectIdentity(a);
    expect(id?.via).toBe('root-commit');
    expect(projectIdentity(copy)).toEqual(id);
    expect(projectIdentity(tmp.dir)).toBeUndefined();
  });
});

describe('clonedFrom', () => {
  const tmp = { dir: '' };
  useTempDir('gms-gitclone-', (d) => (tmp.dir = d));
  it('the URL a checkout was cloned by, as git logged it at the clone: kept across `remote set-url`, in a worktree too; none for `git init` or a clone from a path', () => {
    const origin = join(tmp.dir, 'origin');
    mkdirSync(origin);
    git(origin, 'init', '-q');
    git(origin, 'commit', '-q', '--allow-empty', '-m', 'root');
    const host = join(tmp.dir, 'host.git');
    execFileSync('git', ['clone', '-q', '--bare', origin, host]);
    const url = 'https://me:secret@github.com/me/app.git';
    const clone = join(tmp.dir, 'clone');
    execFileSync('git', ['-c', `url.${host}.insteadOf=${url}`, 'clone', '-q', url, clone]);
    git(clone, 'remote', 'set-url', 'origin', 'git@github.com:me/app-renamed.git');
    git(clone, 'commit', '-q', '--allow-empty', '-m', 'later');
    const from = clonedFrom(clone);
    expect(from?.remote).toBe('github.com/me/app');
    // The same id as a checkout whose remote is that URL.
    const other = join(tmp.dir, 'other');
    mkdirSync(other);
    git(other, 'init', '-q');
    git(other, 'remote', 'add', 'origin', 'git@github.com:me/app.git');
    expect(from?.id).toBe(projectIdentity(other)?.id);
    const wt = join(tmp.dir, 'clone-wt');
    git(clone, 'worktree', 'add', '-q', wt);
    expect(clonedFrom(wt)).toEqual(from);
    expect(clonedFrom(other)).toBeUndefined();
    expect(clonedFrom(origin)).toBeUndefined();
    const fromPath = join(tmp.dir, 'from-path');
    execFileSync('git', ['clone', '-q', origin, fromPath]);
    expect(clonedFrom(fromPath)).toBeUndefined();
  });
});
