/**
 * A pull on a server restarted without its data (pull.ts EMPTIED_GROUP; sync/force-look.ts
 * EMPTIED_GRAPH). The session start's worker runs sync, then pull: on an emptied graph every note this
 * machine wrote itself (remembered by pull: `remember-own`) looked deleted elsewhere, and pull
 * removed its file at once (after the patience on a break-before-make server): the person's own
 * notes gone from disk and graph, and `sync --force`, which the session start names, had nothing to
 * send again.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { runInstall } from '../../src/lib/install/install.js';
import { collectStatus, formatStatus } from '../../src/commands/reports.js';
import { formatPullReport } from '../../src/commands/pull-report.js';
import { readSetAside, SET_ASIDE_DAYS } from '../../src/lib/state/set-aside.js';
import { takeSetAsideNote } from '../../src/lib/context/set-aside-note.js';
import { futureFormat, HELD_STATE_VERSION, STATE_VERSION } from '../../src/lib/state/format.js';
import { PULLED_FILE } from '../../src/lib/state/pulled.js';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runSync } from '../../src/lib/sync/sync.js';
import { realSteps } from '../../src/hooks/worker.js';
import { nullLogger } from '../../src/lib/util/log.js';
import { usePullMachines } from '../helpers/use-pull-machines.js';
import { topic, type Machine } from './homes.js';

const machines = usePullMachines();

/** Two linked machines; A wrote two notes of one group, B pulled them, and A's pull remembers them as its own. */
async function twoNotesOnBoth(): Promise<{ a: Machine; b: Machine; file: string; fileB: string }> {
  const [a, b] = await machines.pair();
  const file = a.write('build.md', topic('Build', 'The build uses Bun.'));
  a.write('lint.md', topic('Lint', 'The lint runs on push.'));
  await a.sync();
  const fileB = join(b.memoryDir, 'build.md');
  expect((await b.pull()).written.map((w) => w.file)).toContain(fileB);
  await a.pull();
  return { a, b, file, fileB };
}

/**
 * On 0.31.2 as the fast server (pull holds an absence for the group's patience: EDIT_GAP_ELSEWHERE):
 * twoNotesOnBoth, then B's copy of build.md deleted on purpose, and A's pull waiting on its absence.
 */
async function deletedOnBWhileAWaits(): Promise<{ a: Machine; b: Machine; file: string; fileB: string }> {
  await machines.restartWith({ deleteMode: 'detach', mainParams: true, graphPerGroup: true });
  const both = await twoNotesOnBoth();
  rmSync(both.fileB);
  expect((await both.b.pull()).deletedInGraph).toBe(1);
  await machines.server.whenIdle();
  // The premise: A's pull waits (the absence may be an edit in flight); the file is still here.
  expect((await both.a.pull()).absent).toEqual([both.file]);
  return both;
}

describe('a pull on a graph emptied behind our back (EMPTIED_GROUP)', () => {
  it("keeps the notes it held there, its own and those it pulled, whatever the patience, so that sync --force puts them back once each", async () => {
    // A's pull remembers its own notes (what lets a deletion elsewhere reach it).
    const { a, b, file, fileB } = await twoNotesOnBoth();
    await machines.server.restart({ data: 'lost' });
    const t0 = Date.now();
    const first = await a.pull({ now: () => t0 });
    const later = await a.pull({ now: () => t0 + a.config().confirmMaxAgeMs + 60_000 });
    const onB = await b.pull({ now: () => t0 + b.config().confirmMaxAgeMs + 60_000 });
    expect([first.removed, later.removed, onB.removed]).toEqual([[], [], []]);
    expect(readFileSync(file, 'utf8')).toContain('The build uses Bun.');
    // The step the session start names puts them back, once each.
    const forced = await runSync(a.config(), { force: true, waitMs: 5000 });
    expect(forced.resent).toBe(2);
    await machines.server.whenIdle();
    expect(machines.server.episodes('main').filter((e) => e.content.includes('The build uses Bun.'))).toHaveLength(1);
    // B's copies, pulled notes that lost their episodes together, were kept as well.
    expect(readFileSync(fileB, 'utf8')).toContain('The build uses Bun.');
    const afterForce = await b.pull();
    expect([afterForce.removed, afterForce.written, afterForce.copies]).toEqual([[], [], []]);
    expect(readFileSync(fileB, 'utf8')).toContain('The build uses Bun.');
  });

  it('keeps them as well when the group was written to again before the pull (a new note synced after the wipe, before anyone ran sync --force)', async () => {
    const { a, b, file, fileB } = await twoNotesOnBoth();
    await machines.server.restart({ data: 'lost' });
    // The next session: a new note is written and synced before the worker's pull.
    a.write('deploy.md', topic('Deploy', 'Deploys go out on Tuesdays.'));
    await a.sync();
    await machines.server.whenIdle();
    const t0 = Date.now();
    const first = await a.pull({ now: () => t0 });
    const later = await a.pull({ now: () => t0 + a.config().confirmMaxAgeMs + 60_000 });
    const onB = await b.pull({ now: () => t0 + b.config().confirmMaxAgeMs + 60_000 });
    expect([first.removed, later.removed, onB.removed]).toEqual([[], [], []]);
    expect([existsSync(file), existsSync(join(a.memoryDir, 'lint.md')), existsSync(fileB)]).toEqual([true, true, true]);
    const forced = await runSync(a.config(), { force: true, waitMs: 5000 });
    expect(forced.resent).toBe(2);
    await machines.server.whenIdle();
    for (const text of ['The build uses Bun.', 'The lint runs on push.', 'Deploys go out on Tuesdays.']) expect(machines.server.episodes('main').filter((e) => e.content.includes(text))).toHaveLength(1);
    const afterForce = await b.pull();
    expect(afterForce.removed).toEqual([]);
    expect(readFileSync(fileB, 'utf8')).toContain('The build uses Bun.');
  });

  it('control: a deletion on the linked machine still reaches this one while the group lists other notes', async () => {
    const { a, b, file, fileB } = await twoNotesOnBoth();
    rmSync(fileB);
    await b.pull();
    await machines.server.whenIdle();
    const t0 = Date.now();
    const removed = [...(await a.pull({ now: () => t0 })).removed, ...(await a.pull({ now: () => t0 + a.config().confirmMaxAgeMs + 60_000 })).removed];
    expect(removed).toEqual([file]);
    expect(existsSync(file)).toBe(false);
  });

  it('sync --force while this machine still waits on a note deleted on the linked machine (its pull not settled yet) does not send it again: the deletion stands on both (PULL_WAITS_ON_IT)', async () => {
    const { a, b, file, fileB } = await deletedOnBWhileAWaits();
    const forced = await runSync(a.config(), { force: true, waitMs: 5000 });
    expect(forced.resent).toBe(0);
    await machines.server.whenIdle();
    expect(machines.server.episodes('main').filter((e) => e.content.includes('The build uses Bun.'))).toEqual([]);
    expect((await b.pull()).written).toEqual([]);
    expect(existsSync(fileB)).toBe(false);
    expect((await a.pull({ now: () => Date.now() + a.config().confirmMaxAgeMs + 60_000 })).removed).toEqual([file]);
  });

  it('the session start names sync --force only for notes it sends again: not for one pull already counts as deleted on a linked machine (EMPTIED_GRAPH agrees with PULL_WAITS_ON_IT)', async () => {
    // 0.31.2 as the fast server: pull holds an absence for the group's patience (EDIT_GAP_ELSEWHERE).
    await machines.restartWith({ deleteMode: 'detach', mainParams: true, graphPerGroup: true });
    const [a, b] = await machines.pair();
    const file = a.write('build.md', topic('Build', 'The build uses Bun.'));
    await a.sync();
    expect((await b.pull()).written).toHaveLength(1);
    await a.pull();
    // The group's only note leaves the graph (wiped here; the linked machine's pull deleting it on purpose looks the same).
    await machines.server.restart({ data: 'lost' });
    // The worker's pass: its pull counts the absence as a deletion elsewhere, then the refresh finds nothing.
    expect((await a.pull()).absent).toEqual([file]);
    const steps = realSteps(a.config(), nullLogger);
    let seen;
    try {
      seen = await steps.refreshContext(a.config(), a.repo, { logger: nullLogger, signal: new AbortController().signal });
    } finally {
      await steps.close();
    }
    const promised = (seen?.emptied ?? []).reduce((n, e) => n + e.notes, 0);
    // What the note says `sync --force` sends again ("sends them again, once each") is what it sends.
    const forced = await runSync(a.config(), { force: true, waitMs: 5000 });
    expect(promised).toBe(forced.resent);
  });

  it('sync --force --source pai leaves to pull what pull waits on in every source, not only the run\'s: the deletion made on the linked machine stands (PULL_WAITS_ON_IT)', async () => {
    const { a, b, fileB } = await deletedOnBWhileAWaits();
    // Another source named: the auto-memory note is not this run's to send, nor to take for lost.
    expect((await runSync(a.config(), { force: true, source: 'pai', waitMs: 5000 })).resent).toBe(0);
    // Nor the next run's: its part was never marked to be sent again.
    expect((await runSync(a.config(), { waitMs: 5000 })).resent).toBe(0);
    await machines.server.whenIdle();
    expect(machines.server.episodes('main').filter((e) => e.content.includes('The build uses Bun.'))).toEqual([]);
    expect((await b.pull()).written).toEqual([]);
    expect(existsSync(fileB)).toBe(false);
  });

  it('once sync --force has put them back, a later deletion on the linked machine reaches this one again (emptiedSince ends when the note is listed)', async () => {
    const { a, b, file, fileB } = await twoNotesOnBoth();
    await machines.server.restart({ data: 'lost' });
    const t0 = Date.now();
    expect((await a.pull({ now: () => t0 })).removed).toEqual([]);
    expect((await runSync(a.config(), { force: true, waitMs: 5000 })).resent).toBe(2);
    await machines.server.whenIdle();
    await a.pull({ now: () => t0 + 1000 });
    await b.pull({ now: () => t0 + 1000 });
    // Then deleted on purpose on the linked machine.
    rmSync(fileB);
    expect((await b.pull({ now: () => t0 + 2000 })).deletedInGraph).toBe(1);
    await machines.server.whenIdle();
    const removed = [...(await a.pull({ now: () => t0 + 3000 })).removed, ...(await a.pull({ now: () => t0 + 3000 + a.config().confirmMaxAgeMs + 60_000 })).removed];
    expect(removed).toEqual([file]);
  });

  it('while notes are marked lost with their group, the ledger is written in a version builds before EMPTIED_GROUP refuse (their pull removed those files: checked with 1e0cb7b); once put back, as before', async () => {
    const { a } = await twoNotesOnBoth();
    const ledger = () => JSON.parse(readFileSync(join(a.config().stateDir, PULLED_FILE), 'utf8')) as { version: number; compatibleWith?: number };
    // What a build that writes and reads version 1 does with it (state/pulled.ts: futureFormat against its PULLED_VERSION, 1).
    const refusedByOlder = () => futureFormat({ path: PULLED_FILE, what: 'The pull ledger', version: ledger().version, compatibleWith: ledger().compatibleWith }, 1) !== undefined;
    expect(refusedByOlder()).toBe(false);
    await machines.server.restart({ data: 'lost' });
    await a.pull();
    expect(refusedByOlder()).toBe(true);
    // This build reads it, marks and all.
    expect(Object.values((await a.pull()).removed)).toEqual([]);
    expect(await runSync(a.config(), { force: true, waitMs: 5000 })).toMatchObject({ resent: 2 });
    await machines.server.whenIdle();
    await a.pull();
    expect(refusedByOlder()).toBe(false);
  });

  it('while notes are marked so, status names an older copy beside this one that refuses that ledger, with its step; once put back, it does not (EMPTIED_NEEDS_NEWER_LEDGER)', async () => {
    const { a } = await twoNotesOnBoth();
    // An older build's settings hooks in A's Claude Code: its state module knows this state format, not EMPTIED_PULLED_VERSION.
    const pkg = join(a.box.root, 'older-checkout');
    mkdirSync(join(pkg, 'dist', 'hooks'), { recursive: true });
    for (const f of ['hook', 'session-start']) writeFileSync(join(pkg, 'dist', 'hooks', `${f}.js`), '');
    writeFileSync(join(pkg, 'dist', 'hooks', 'worker.js'), `var STATE_VERSION, HELD_STATE_VERSION, PULLED_VERSION;\n  init() {\n    STATE_VERSION = ${STATE_VERSION};\n    HELD_STATE_VERSION = ${HELD_STATE_VERSION};\n    PULLED_VERSION = 1;\n  }\n`);
    writeFileSync(join(pkg, 'dist', 'hooks', 'stop.js'), 'const dir = (0, import_node_path7.join)(stateDir, "worker", `format-${format}`);\n');
    writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: 'graphiti-memory-sync', version: '0.1.0' }));
    await runInstall({ scope: 'user', home: a.box.root, cwd: a.repo, env: a.box.env, packageRoot: pkg });
    const refused = /from before the rule that keeps notes lost with an emptied group: .*pulls and syncs nothing until you update it/;
    expect(formatStatus(await collectStatus(a.config(), nullLogger))).not.toMatch(refused);
    await machines.server.restart({ data: 'lost' });
    await a.pull();
    const status = formatStatus(await collectStatus(a.config(), nullLogger));
    expect(status).toMatch(refused);
    expect(status.slice(status.search(refused))).toMatch(/\n {4}Next: /);
    expect(await runSync(a.config(), { force: true, waitMs: 5000 })).toMatchObject({ resent: 2 });
    await machines.server.whenIdle();
    await a.pull();
    expect(formatStatus(await collectStatus(a.config(), nullLogger))).not.toMatch(refused);
  });

  it('a group\'s only note lost to a wipe: each linked machine removes it (one note cannot be told from a deletion) but keeps its text aside and says where, in the pull, status and the next session; moved back with sync --force, it is in the graph again (SET_ASIDE_WHEN_GROUP_EMPTY)', async () => {
    const [a, b] = await machines.pair();
    const file = a.write('build.md', topic('Build', 'The build uses Bun.'));
    await a.sync();
    const fileB = join(b.memoryDir, 'build.md');
    expect((await b.pull()).written.map((w) => w.file)).toEqual([fileB]);
    await a.pull();
    await machines.server.restart({ data: 'lost' });
    const t0 = Date.now();
    const settled = (m: typeof a) => ({ now: () => t0 + m.config().confirmMaxAgeMs + 60_000 });
    // A, which wrote it, removes its own file too (its worker's pull: due again, a minute on), B by hand: before this rule its text was then nowhere.
    const stamp = (Date.now() - 120_000) / 1000;
    utimesSync(join(a.config().stateDir, PULLED_FILE), stamp, stamp);
    const steps = realSteps(a.config(), nullLogger);
    try {
      await steps.pull?.(a.config(), [a.repo], { logger: nullLogger, signal: new AbortController().signal });
    } finally {
      await steps.close();
    }
    expect(existsSync(file)).toBe(false);
    const onB = await b.pull(settled(b));
    expect(onB.removed).toEqual([fileB]);
    const [asideOnA] = readSetAside(a.config().stateDir);
    expect([asideOnA?.file, asideOnA?.group]).toEqual([file, 'main']);
    const kept = asideOnA?.kept as string;
    expect(readFileSync(kept, 'utf8')).toContain('The build uses Bun.');
    expect(readFileSync(onB.setAside[0]?.kept as string, 'utf8')).toContain('The build uses Bun.');
    // Said in the pull's report, in status and once in the next session, each naming the kept text and both steps.
    const said = new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} was removed by pull .*group main lists nothing at all.*Its text is kept at ${kept.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} until .*If the graph was wiped, move it back to .* and run \`sync --force\` .*; if it was deleted on purpose, nothing to do`);
    expect(formatPullReport(onB)).toMatch(new RegExp(`${fileB.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} was removed by pull .*group main lists nothing at all.*Its text is kept at `));
    expect(formatStatus(await collectStatus(a.config(), nullLogger))).toMatch(new RegExp(`^Warning: ${said.source}`, 'm'));
    const note = takeSetAsideNote(a.config().stateDir);
    expect(note).toMatch(said);
    expect(note).toMatch(/^Note for the user from graphiti-memory-sync: /);
    expect(takeSetAsideNote(a.config().stateDir)).toBeUndefined();
    // The step: moved back and sync --force (the sync's state still holds it confirmed), and B's pull brings it back.
    renameSync(kept, file);
    expect(await runSync(a.config(), { force: true, waitMs: 5000 })).toMatchObject({ resent: 1 });
    await machines.server.whenIdle();
    expect(machines.server.episodes('main').filter((e) => e.content.includes('The build uses Bun.'))).toHaveLength(1);
    expect((await b.pull()).written.map((w) => w.file)).toEqual([fileB]);
    expect(formatStatus(await collectStatus(a.config(), nullLogger))).not.toContain('was removed by pull');
  });

  it('a text that cannot be set aside (a file where its folder goes) is not removed: the note stays, and the next pull that can keep it sets it aside then (SET_ASIDE_WHEN_GROUP_EMPTY: nothing lost)', async () => {
    const [a, b] = await machines.pair();
    a.write('build.md', topic('Build', 'The build uses Bun.'));
    await a.sync();
    const fileB = join(b.memoryDir, 'build.md');
    expect((await b.pull()).written.map((w) => w.file)).toEqual([fileB]);
    await machines.server.restart({ data: 'lost' });
    const t0 = Date.now();
    const settled = { now: () => t0 + b.config().confirmMaxAgeMs + 60_000 };
    const blocker = join(b.config().stateDir, 'set-aside');
    writeFileSync(blocker, 'not a folder');
    const blocked = await b.pull(settled);
    expect([blocked.removed, blocked.setAside]).toEqual([[], []]);
    expect(readFileSync(fileB, 'utf8')).toContain('The build uses Bun.');
    rmSync(blocker);
    const kept = await b.pull(settled);
    expect(kept.removed).toEqual([fileB]);
    expect(readFileSync(kept.setAside[0]?.kept as string, 'utf8')).toContain('The build uses Bun.');
  });

  it("a set-aside index that cannot be read keeps the note here and says so, with the step (INDEX_READ_OR_NOTHING; on 6acbf28 not a word: the deletion stayed undone at every pull, the index's step unsaid)", async () => {
    const [a, b] = await machines.pair();
    a.write('build.md', topic('Build', 'The build uses Bun.'));
    await a.sync();
    const fileB = join(b.memoryDir, 'build.md');
    expect((await b.pull()).written.map((w) => w.file)).toEqual([fileB]);
    await machines.server.restart({ data: 'lost' });
    const t0 = Date.now();
    mkdirSync(join(b.config().stateDir, 'set-aside'), { recursive: true });
    writeFileSync(join(b.config().stateDir, 'set-aside', 'index.json'), '[{"file": "torn');
    const warned: string[] = [];
    const logger = { ...nullLogger, warn: (msg: string, fields?: Record<string, unknown>) => void warned.push(`${msg} ${JSON.stringify(fields ?? {})}`), child: () => logger };
    const blocked = await b.pull({ now: () => t0 + b.config().confirmMaxAgeMs + 60_000, logger });
    expect([blocked.removed, blocked.setAside]).toEqual([[], []]);
    expect(readFileSync(fileB, 'utf8')).toContain('The build uses Bun.');
    expect(warned.join('\n')).toMatch(/cannot be read.*move it away to start a new one.*build\.md/s);
  });

  it('control: a text set aside is not kept for ever (a deletion on purpose): it goes after SET_ASIDE_DAYS; a note deleted elsewhere while its group lists others is removed as before, nothing kept', async () => {
    const { a, b, file, fileB } = await twoNotesOnBoth();
    rmSync(fileB);
    await b.pull();
    await machines.server.whenIdle();
    const t0 = Date.now();
    const r = await a.pull({ now: () => t0 + a.config().confirmMaxAgeMs + 60_000 });
    expect([r.removed, r.setAside]).toEqual([[file], []]);
    // The other note, the group's last, deleted on B too: set aside here, then gone after its time.
    const lint = join(a.memoryDir, 'lint.md');
    rmSync(join(b.memoryDir, 'lint.md'));
    await b.pull();
    await machines.server.whenIdle();
    const last = await a.pull({ now: () => t0 + 2 * (a.config().confirmMaxAgeMs + 60_000) });
    expect(last.removed).toEqual([lint]);
    const kept = last.setAside[0]?.kept as string;
    expect(existsSync(kept)).toBe(true);
    await a.pull({ now: () => t0 + (SET_ASIDE_DAYS + 1) * 86_400_000 });
    expect(existsSync(kept)).toBe(false);
    expect(formatStatus(await collectStatus(a.config(), nullLogger))).not.toContain('was removed by pull');
  });
});
