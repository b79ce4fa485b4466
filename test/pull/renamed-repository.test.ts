/**
 * A repository renamed on its host (issue 42): the project id is the normalised remote URL, so a
 * `git remote set-url` on one machine (after GitHub renamed the repository; the other machines keep
 * the old URL, which GitHub redirects) would split one project in two. The machine whose remote
 * changed keeps the id it had when the root commit is the same (state/checkout-ids.ts); a fresh
 * clone that knows only the new URL is told how to join, and joins once told; another repository
 * at the same path never gets the old project's notes.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatPullReport } from '../../src/commands/pull-report.js';
import { collectStatus, formatStatus } from '../../src/commands/reports.js';
import { nullLogger } from '../../src/lib/util/log.js';
import { usePullMachines } from '../helpers/use-pull-machines.js';
import { link, topic } from './homes.js';

const machines = usePullMachines();
const { make, pair } = machines;
const read = (file: string) => readFileSync(file, 'utf8');
const adds = () => machines.server.calls.filter((c) => c.tool === 'add_memory').length;
const lastLines = () => machines.server.episodes('main').map((e) => e.content.split('\n').at(-1) ?? '').sort();
const git = (repo: string, ...args: string[]) => execFileSync('git', ['-C', repo, ...args], { env: { ...process.env, GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z', GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z' } });
/** The repository's first commit, the same bytes (and so the same hash) in every clone. */
const firstCommit = (repo: string, message = 'root') => git(repo, '-c', 'user.name=Me', '-c', 'user.email=me@example.com', '-c', 'commit.gpgsign=false', 'commit', '-q', '--allow-empty', '-m', message);
const OLD = 'git@github.com:me/app.git';
const NEW = 'git@github.com:me/app-renamed.git';

/**
 * A's repository, and B's clone of it made by the old URL (the host is a bare copy of A's here),
 * whose `origin` was then pointed at `url` before B's first pull: a rename followed, or a fork.
 */
async function clonedByOldUrlThenPointedAt(url: string) {
  const [a, b] = await pair();
  firstCommit(a.repo);
  const host = join(a.box.root, 'host.git');
  execFileSync('git', ['clone', '-q', '--bare', a.repo, host]);
  rmSync(b.repo, { recursive: true });
  execFileSync('git', ['-c', `url.${host}.insteadOf=${OLD}`, 'clone', '-q', OLD, b.repo]);
  git(b.repo, 'remote', 'set-url', 'origin', url);
  return [a, b] as const;
}

describe('pull: a repository renamed on its host', () => {
  it('the remote changed on A only (B keeps the old URL): notes flow both ways into the right folder, nothing held, nothing doubled; B renaming later changes nothing', async () => {
    const [a, b] = await pair();
    for (const m of [a, b]) firstCommit(m.repo);
    a.write('n.md', topic('N', 'First.'));
    await a.sync();
    await a.pull();
    await b.pull();
    git(a.repo, 'remote', 'set-url', 'origin', NEW);
    a.write('n.md', topic('N', 'Edited on A after the rename.'));
    a.write('new.md', topic('New', 'Written on A after the rename.'));
    await a.sync();
    const onB = await b.pull();
    expect(onB.held).toEqual([]);
    expect(onB.written.map((w) => w.file).sort()).toEqual([join(b.memoryDir, 'n.md'), join(b.memoryDir, 'new.md')]);
    expect(read(join(b.memoryDir, 'n.md'))).toContain('Edited on A after the rename.');
    b.write('n.md', topic('N', 'Edited on B.'));
    await b.sync();
    const onA = await a.pull();
    expect([onA.held, onA.copies]).toEqual([[], []]);
    expect(read(join(a.memoryDir, 'n.md'))).toContain('Edited on B.');
    await a.sync();
    await machines.server.whenIdle();
    expect(lastLines()).toEqual(['Edited on B.', 'Written on A after the rename.']);
    // B follows the rename: nothing is sent again, and the notes still flow.
    git(b.repo, 'remote', 'set-url', 'origin', 'https://github.com/me/app-renamed');
    const sent = adds();
    await b.sync();
    await b.pull();
    await b.sync();
    expect(adds()).toBe(sent);
    a.write('later.md', topic('Later', 'After both renamed.'));
    await a.sync();
    expect((await b.pull()).written.map((w) => w.file)).toEqual([join(b.memoryDir, 'later.md')]);
  });

  it('a fresh clone with only the new URL: its notes and the others\' are held (never written into another project), the report names the fix; once it declares the old URL, its notes are sent again under it and everything flows, once', async () => {
    const [a, b] = await pair();
    for (const m of [a, b]) firstCommit(m.repo);
    a.write('n.md', topic('N', 'From A.'));
    await a.sync();
    await a.pull();
    await b.pull();
    git(a.repo, 'remote', 'set-url', 'origin', NEW);
    await a.pull();
    const c = make('cloud', NEW);
    firstCommit(c.repo);
    await link(a, c);
    c.write('c.md', topic('C', 'From the fresh clone.'));
    await c.sync();
    const onC = await c.pull();
    expect(onC.written).toEqual([]);
    expect(onC.held.map((h) => h.path)).toEqual(['n.md']);
    expect(formatPullReport(onC)).toContain('graphiti-memory-sync.previousUrl');
    const onA = await a.pull();
    expect(onA.written).toEqual([]);
    expect(onA.held.map((h) => h.path)).toEqual(['c.md']);
    // A knows the new URL is this repository's: it names the checkout to fix elsewhere.
    expect(formatPullReport(onA)).toContain('config --add graphiti-memory-sync.previousUrl https://github.com/me/app`');
    git(c.repo, 'config', '--add', 'graphiti-memory-sync.previousUrl', OLD);
    await c.sync();
    await machines.server.whenIdle();
    expect(lastLines()).toEqual(['From A.', 'From the fresh clone.']);
    expect((await c.pull()).written.map((w) => w.file)).toEqual([join(c.memoryDir, 'n.md')]);
    expect((await a.pull()).written.map((w) => w.file)).toEqual([join(a.memoryDir, 'c.md')]);
    expect((await b.pull()).written.map((w) => w.file)).toEqual([join(b.memoryDir, 'c.md')]);
    const sent = adds();
    for (const m of [a, b, c]) await m.sync();
    expect(adds()).toBe(sent);
  });

  it('a checkout cloned from the old URL whose remote changed before any pull recorded it: never joined by itself (a fork is cloned the same way); pull and status name the exact command with the old URL, and running it joins the project, once', async () => {
    // B cloned the repository by its old URL, then followed the rename before its first pull.
    const [a, b] = await clonedByOldUrlThenPointedAt(NEW);
    a.write('n.md', topic('N', 'From A.'));
    await a.sync();
    await a.pull();
    b.write('b.md', topic('B', 'From B.'));
    await b.sync();
    const onB = await b.pull();
    expect(onB.written).toEqual([]);
    expect(existsSync(join(b.memoryDir, 'n.md'))).toBe(false);
    expect(onB.held.map((h) => h.path)).toEqual(['n.md']);
    const command = `git -C ${b.repo} config --add graphiti-memory-sync.previousUrl https://github.com/me/app`;
    const report = formatPullReport(onB);
    expect(report).toContain(`\`${command}\``);
    expect(report).toContain('not a fork of it');
    const status = formatStatus(await collectStatus(b.config(), nullLogger));
    expect(status).toContain(`\`${command}\``);
    expect((await a.pull()).written).toEqual([]);
    // The person says it is the same repository: the exact command, as printed.
    execFileSync('sh', ['-c', command]);
    await b.sync();
    expect((await b.pull()).written.map((w) => w.file)).toEqual([join(b.memoryDir, 'n.md')]);
    expect((await a.pull()).written.map((w) => w.file)).toEqual([join(a.memoryDir, 'b.md')]);
    await machines.server.whenIdle();
    expect(lastLines()).toEqual(['From A.', 'From B.']);
    expect(formatStatus(await collectStatus(b.config(), nullLogger))).not.toContain('previousUrl');
    const sent = adds();
    for (const m of [a, b]) await m.sync();
    expect(adds()).toBe(sent);
  });

  it('a checkout cloned from the original and then pointed at a fork: once it is declared a fork (the exact command pull and status print), the question stops, the notes stay held and nothing is sent under the original', async () => {
    const [a, b] = await clonedByOldUrlThenPointedAt('git@github.com:someone-else/app.git');
    a.write('n.md', topic('N', 'From A.'));
    await a.sync();
    b.write('b.md', topic('B', 'From B.'));
    await b.sync();
    const first = formatPullReport(await b.pull());
    const command = `git -C ${b.repo} config --add graphiti-memory-sync.forkOf https://github.com/me/app`;
    // Before: "If it is a fork, leave it", on every pull and in every status, with no way to answer.
    expect(first).toContain(`\`${command}\``);
    expect(formatStatus(await collectStatus(b.config(), nullLogger))).toContain(`\`${command}\``);
    execFileSync('sh', ['-c', command]);
    await b.sync();
    const onB = await b.pull();
    expect(onB.written).toEqual([]);
    expect(onB.held.map((h) => [h.path, h.clonedHere])).toEqual([['n.md', undefined]]);
    expect(existsSync(join(b.memoryDir, 'n.md'))).toBe(false);
    const report = formatPullReport(onB);
    expect(report).not.toContain('was cloned from');
    expect(report).not.toContain('forkOf');
    const status = formatStatus(await collectStatus(b.config(), nullLogger));
    expect(status).not.toContain('was cloned from');
    expect(status).not.toContain('forkOf');
    // The fork's own note never reaches the original's machines.
    expect((await a.pull()).written).toEqual([]);
    expect(existsSync(join(a.memoryDir, 'b.md'))).toBe(false);
  });

  it('another repository cloned at the same path on A (another root commit): its notes never go into the old project\'s folder on B', async () => {
    const [a, b] = await pair();
    for (const m of [a, b]) firstCommit(m.repo);
    a.write('n.md', topic('N', 'About the app.'));
    await a.sync();
    await a.pull();
    await b.pull();
    rmSync(join(a.repo, '.git'), { recursive: true });
    git(a.repo, 'init', '-q');
    git(a.repo, 'remote', 'add', 'origin', 'git@github.com:me/other.git');
    firstCommit(a.repo, 'another project');
    a.write('other.md', topic('Other', 'About the other project.'));
    await a.sync();
    const onB = await b.pull();
    expect(onB.written).toEqual([]);
    expect(existsSync(join(b.memoryDir, 'other.md'))).toBe(false);
    expect(onB.held.map((h) => h.path)).toEqual(['other.md']);
    expect(read(join(b.memoryDir, 'n.md'))).toContain('About the app.');
  });
});
