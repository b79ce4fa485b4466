/**
 * The id a checkout goes by across a rename on its host (issue 42, state/checkout-ids.ts): kept when
 * the remote changes and the first commit does not; new for another repository at the path, and for
 * a remote added to a local-only repository (its clones elsewhere know it by the remote); an old URL
 * declared in the git config; a second clone with the new URL joins the renamed one.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveCheckouts, type CheckoutRecord } from '../../src/lib/state/checkout-ids.js';
import { previousRemotes, projectIdentity } from '../../src/lib/util/git-identity.js';
import { useTempDir } from '../helpers/use-temp-dir.js';

const git = (cwd: string, ...args: string[]) => execFileSync('git', ['-C', cwd, ...args], { encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t', GIT_CONFIG_NOSYSTEM: '1', HOME: cwd } });

describe('resolveCheckouts', () => {
  const tmp = { dir: '' };
  useTempDir('gms-checkouts-', (d) => (tmp.dir = d));
  const repo = (name: string, remote: string | undefined, message = 'root'): string => {
    const dir = join(tmp.dir, name);
    mkdirSync(dir, { recursive: true });
    git(dir, 'init', '-q');
    if (remote !== undefined) git(dir, 'remote', 'add', 'origin', remote);
    git(dir, '-c', 'commit.gpgsign=false', 'commit', '-q', '--allow-empty', '-m', message);
    return dir;
  };
  const records = (roots: string[], known: Record<string, CheckoutRecord>) => Object.fromEntries([...resolveCheckouts(roots, known, true)].map(([root, c]) => [root, c.record]));
  const idOf = (url: string) => {
    const d = repo(`probe-${Math.random().toString(36).slice(2)}`, url);
    return projectIdentity(d)?.id;
  };

  it('the remote changed, the first commit the same: the id it had is kept (and on the next run, from the record)', () => {
    const a = repo('a', 'git@github.com:me/app.git');
    const before = records([a], {});
    git(a, 'remote', 'set-url', 'origin', 'https://github.com/me/app-renamed');
    const after = resolveCheckouts([a], before, true).get(a);
    expect(after).toMatchObject({ id: idOf('git@github.com:me/app.git'), current: idOf('https://github.com/me/app-renamed'), change: 'renamed' });
    expect(after?.record.remote).toBe('github.com/me/app');
    const again = resolveCheckouts([a], { [a]: after!.record }, true).get(a);
    expect(again?.id).toBe(after?.id);
    expect(again?.change).toBeUndefined();
  });

  it('another repository at the path (another first commit), or one whose first commit was never known: the new id', () => {
    const a = repo('a', 'git@github.com:me/app.git');
    const before = records([a], {});
    rmSync(join(a, '.git'), { recursive: true });
    git(a, 'init', '-q');
    git(a, 'remote', 'add', 'origin', 'git@github.com:me/other.git');
    git(a, '-c', 'commit.gpgsign=false', 'commit', '-q', '--allow-empty', '-m', 'another');
    expect(resolveCheckouts([a], before, true).get(a)).toMatchObject({ id: idOf('git@github.com:me/other.git'), change: 'replaced' });
    const unknown = { [a]: { ...before[a]!, rootCommit: undefined } as CheckoutRecord };
    expect(resolveCheckouts([a], unknown, true).get(a)?.change).toBe('replaced');
  });

  it('recorded before its first commit: the commit is recorded once there is one, and a rename after is told', () => {
    const dir = join(tmp.dir, 'young');
    mkdirSync(dir, { recursive: true });
    git(dir, 'init', '-q');
    git(dir, 'remote', 'add', 'origin', 'git@github.com:me/young.git');
    const first = records([dir], {});
    expect(first[dir]?.rootCommit).toBeUndefined();
    git(dir, '-c', 'commit.gpgsign=false', 'commit', '-q', '--allow-empty', '-m', 'root');
    const second = records([dir], first);
    expect(second[dir]?.rootCommit).toMatch(/^[0-9a-f]{40}$/);
    git(dir, 'remote', 'set-url', 'origin', 'git@github.com:me/grown.git');
    expect(resolveCheckouts([dir], second, true).get(dir)).toMatchObject({ id: first[dir]?.id, change: 'renamed' });
  });

  it('a remote added to a local-only repository is the id its clones elsewhere have, not a rename', () => {
    const a = repo('a', undefined);
    const before = records([a], {});
    git(a, 'remote', 'add', 'origin', 'git@github.com:me/app.git');
    expect(resolveCheckouts([a], before, true).get(a)).toMatchObject({ id: idOf('git@github.com:me/app.git'), change: 'replaced' });
  });

  it('an old URL declared in the git config (any spelling): the id goes by it; a second clone with the renamed one\'s new URL joins it', () => {
    const a = repo('a', 'git@github.com:me/app-renamed.git');
    git(a, 'config', '--add', 'graphiti-memory-sync.previousUrl', 'https://github.com/me/app.git');
    expect(previousRemotes(a)).toEqual([{ id: idOf('git@github.com:me/app.git'), remote: 'github.com/me/app' }]);
    expect(resolveCheckouts([a], {}, true).get(a)).toMatchObject({ id: idOf('git@github.com:me/app.git'), declared: true, record: { remote: 'github.com/me/app' } });
    const b = repo('b', 'git@github.com:me/old.git');
    const before = records([b], {});
    git(b, 'remote', 'set-url', 'origin', 'git@github.com:me/new.git');
    const c = repo('c', 'git@github.com:me/new.git');
    const both = resolveCheckouts([b, c], before, true);
    expect(both.get(c)).toMatchObject({ id: idOf('git@github.com:me/old.git'), record: { remote: 'github.com/me/old' } });
    expect(both.get(b)?.id).toBe(idOf('git@github.com:me/old.git'));
  });
});
