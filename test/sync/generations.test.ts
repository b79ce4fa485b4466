/**
 * What the graph knows stays true on every server generation (issue 24): the fast test server set
 * up with each generation's delete rule (graphiti/semantics.ts; the real servers prove the same in
 * test/real-graphiti/suite.ts). Facts, not episodes, are what is asserted: an episode ledger that is
 * exactly right can still leave the graph wrong.
 */
import { existsSync, mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatMarker } from '../../src/lib/memory/episode.js';
import { SEMANTICS_FILE } from '../../src/lib/graphiti/server-rules.js';
import { runSync } from '../../src/lib/sync/sync.js';
import { loadNotesBetweenVersions } from '../../src/lib/state/between-versions.js';
import { collectStatus } from '../../src/commands/reports.js';
import { nullLogger } from '../../src/lib/util/log.js';
import { startGraphitiServer, type GraphitiServerOptions, type GraphitiTestServer } from '../support/graphiti-server.js';
import { learning, makeSandbox, type Sandbox } from '../support/sandbox.js';

/** The test server set up like each generation's delete and merge rules (and tool surface). */
const GENERATIONS: Record<string, GraphitiServerOptions> = {
  '0.28.2': { deleteMode: 'node-only' },
  '0.29.3': { deleteMode: 'cascade', mainParams: true },
  '0.31.1': { deleteMode: 'cascade', mainParams: true, graphPerGroup: true },
  '0.31.2': { deleteMode: 'detach', mainParams: true, graphPerGroup: true },
};
const EXPECTED = {
  '0.28.2': { deleteRemoves: 'episode-only', source: 'generation', order: 'make' },
  '0.29.3': { deleteRemoves: 'facts-first-created', source: 'generation', order: 'break' },
  '0.31.1': { deleteRemoves: 'facts-first-created', source: 'probe', order: 'break' },
  '0.31.2': { deleteRemoves: 'facts-unsupported', source: 'probe', order: 'make' },
} as const;

let server: GraphitiTestServer;
const boxes: Sandbox[] = [];
afterEach(async () => {
  await server?.close();
  for (const b of boxes.splice(0)) b.cleanup();
});

function sandbox(env: Record<string, string> = {}): Sandbox {
  const b = makeSandbox(server.url, env);
  boxes.push(b);
  return b;
}

let tick = 0;
function writeNote(path: string, content: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
  const t = Date.now() / 1000 + ++tick / 1000;
  utimesSync(path, t, t);
}

/** Fact texts in the group (what any search could return). */
const facts = () => server.facts('main').map((f) => f.fact).sort();
/** A call in the semantics probe's scratch group. */
const inProbe = (c: { args: Record<string, unknown> }) => String(c.args.group_id ?? '').startsWith('gms_probe_');
const calls = (tool: string) => server.calls.filter((c) => c.tool === tool && !inProbe(c));

async function settle(b: Sandbox): Promise<void> {
  await runSync(b.config(), { waitMs: 5000 });
  await server.whenIdle();
}

describe.each(Object.keys(GENERATIONS))('Graphiti %s rules (fast test server)', (generation) => {
  const expected = EXPECTED[generation as keyof typeof EXPECTED];
  beforeEach(async () => {
    server = await startGraphitiServer({ processingDelayMs: 0, ...GENERATIONS[generation] });
  });

  it('the engine learns what the server deletes (from its tools, else one probe by the first run that replaces, cached) and says so', async () => {
    const box = sandbox();
    box.pai('LEARNING/SYSTEM/a.md', learning('Alpha', 'Alpha uses Kafka.'));
    const first = await runSync(box.config(), { waitMs: 5000 });
    // A run that only adds does not probe (sync.ts PROBE_WHEN_NEEDED): the cautious rules, saying why.
    if (expected.source === 'probe') expect(first.semantics).toMatchObject({ deleteRemoves: 'facts-first-created', source: 'assumed', why: expect.stringMatching(/probed only by a run that deletes or replaces/) });
    else expect(first.semantics).toMatchObject({ deleteRemoves: expected.deleteRemoves, source: expected.source });
    box.pai('LEARNING/SYSTEM/a.md', learning('Alpha', 'Alpha uses Pulsar.'));
    const second = await runSync(box.config(), { waitMs: 5000 });
    expect(second.semantics).toMatchObject({ deleteRemoves: expected.deleteRemoves, source: expected.source });
    // Probed at most once per server: the answer is cached in the state folder.
    const probes = server.calls.filter((c) => c.tool === 'add_memory' && inProbe(c));
    expect(probes).toHaveLength(expected.source === 'probe' ? 2 : 0);
    if (expected.source === 'probe') expect(server.episodes().filter((e) => e.group_id.startsWith('gms_probe_'))).toEqual([]);
    if (expected.source === 'probe') expect(existsSync(join(box.config().stateDir, SEMANTICS_FILE))).toBe(true);
  });

  it.runIf(expected.source === 'probe')('runs that only add notes never probe, queued or seen (PROBE_WHEN_NEEDED: the probe costs the user two extractions)', async () => {
    const box = sandbox();
    for (const name of ['Alpha', 'Beta', 'Gamma']) box.pai(`LEARNING/SYSTEM/${name}.md`, learning(name, `${name} uses Kafka.`));
    server.pauseProcessing();
    const first = await runSync(box.config());
    expect(first).toMatchObject({ added: 3, queued: 3, failed: 0 });
    // Nothing to delete: no probe, and the cautious rules, saying why.
    expect(server.calls.filter(inProbe)).toEqual([]);
    expect(first.semantics).toMatchObject({ source: 'assumed', deleteRemoves: 'facts-first-created' });
    expect(first.semantics?.why).toMatch(/probed only by a run that deletes or replaces/);
    server.resumeProcessing();
    await server.whenIdle();
    // The run that sees them all (its queue clear of ours) has nothing to delete either.
    const second = await runSync(box.config(), { waitMs: 5000 });
    expect(second).toMatchObject({ failed: 0, queued: 0 });
    expect(second.semantics).toMatchObject({ source: 'assumed' });
    box.pai('LEARNING/SYSTEM/Delta.md', learning('Delta', 'Delta uses Kafka.'));
    expect(await runSync(box.config(), { waitMs: 5000 })).toMatchObject({ added: 1, queued: 0, semantics: { source: 'assumed' } });
    expect(server.calls.filter(inProbe)).toEqual([]);
    expect(calls('add_memory')).toHaveLength(4);
  });

  it.runIf(expected.source === 'probe')('the probe never runs beside our notes: a deletion with ours still queued puts it off, and the run that sees them all probes at its end (issue 43)', async () => {
    // The probe's scratch group is not processed beside ours (sync.ts oursQueued: graphiti-core
    // before 0.30.2 wrote across groups' graphs on FalkorDB, graphiti #1331).
    const box = sandbox();
    for (const name of ['Alpha', 'Beta']) box.pai(`LEARNING/SYSTEM/${name}.md`, learning(name, `${name} uses Kafka.`));
    await runSync(box.config(), { waitMs: 5000 });
    box.pai('LEARNING/SYSTEM/Gamma.md', learning('Gamma', 'Gamma uses Kafka.'));
    server.pauseProcessing();
    expect(await runSync(box.config())).toMatchObject({ added: 1, queued: 1 });
    rmSync(box.path('pai', 'MEMORY', 'LEARNING', 'SYSTEM', 'Alpha.md'));
    const first = await runSync(box.config());
    // Ours still queued: no probe, and the cautious rules, saying why.
    expect(server.calls.filter(inProbe)).toEqual([]);
    expect(first.semantics).toMatchObject({ source: 'assumed', deleteRemoves: 'facts-first-created' });
    expect(first.semantics?.why).toMatch(/nothing of ours is in its queue/);
    server.resumeProcessing();
    await server.whenIdle();
    const second = await runSync(box.config(), { waitMs: 5000 });
    expect(second).toMatchObject({ failed: 0, queued: 0 });
    expect(second.semantics).toMatchObject({ deleteRemoves: expected.deleteRemoves, source: 'probe' });
    // Every probe call came after the last of ours was seen, and nothing of ours was sent twice.
    const firstProbe = server.calls.findIndex(inProbe);
    const lastListing = server.calls.findLastIndex((c, i) => i < firstProbe && c.tool === 'get_episodes' && !inProbe(c));
    expect(firstProbe).toBeGreaterThan(lastListing);
    expect(lastListing).toBeGreaterThanOrEqual(0);
    expect(calls('add_memory')).toHaveLength(3);
    // Deleted by the rules found (where a delete takes the facts it created, Alpha's frontmatter facts, restated by the others, hold it).
    expect(server.episodes('main').map((e) => e.name).sort()).toEqual(expected.deleteRemoves === 'facts-unsupported' ? ['Beta', 'Gamma'] : ['Alpha', 'Beta', 'Gamma']);
    expect(existsSync(join(box.config().stateDir, SEMANTICS_FILE))).toBe(true);
  });

  it.runIf(expected.source === 'probe')('an edit whose server rule is not cached yet probes first (nothing of ours queued), then goes in the order the rule found allows', async () => {
    const box = sandbox();
    box.pai('LEARNING/SYSTEM/a.md', learning('Alpha', 'Alpha uses Kafka.'));
    await settle(box);
    rmSync(join(box.config().stateDir, SEMANTICS_FILE), { force: true });
    server.clearLogs();
    box.pai('LEARNING/SYSTEM/a.md', learning('Alpha', 'Alpha uses Pulsar.'));
    expect(await runSync(box.config(), { waitMs: 10_000 })).toMatchObject({ updated: 1, failed: 0, queued: 0, semantics: { source: 'probe', deleteRemoves: expected.deleteRemoves } });
    // The probe's whole work (its episodes, its delete) before anything of the edit is sent or deleted.
    const order = server.calls.filter((c) => c.tool === 'delete_episode' || c.tool === 'add_memory');
    const oldDeleted = order.findIndex((c) => c.tool === 'delete_episode' && !inProbe(c));
    const newSent = order.findIndex((c) => c.tool === 'add_memory' && !inProbe(c));
    const probeDone = order.findLastIndex((c) => inProbe(c));
    expect(probeDone).toBeGreaterThanOrEqual(0);
    expect(Math.min(oldDeleted, newSent)).toBeGreaterThan(probeDone);
    // The order the found rule allows: break before make where deleting later would take the kept facts.
    if (expected.order === 'break') expect(newSent).toBeGreaterThan(oldDeleted);
    else expect(oldDeleted).toBeGreaterThan(newSent);
    expect(server.episodes('main').map((e) => e.content)).toEqual([expect.stringContaining('Pulsar')]);
  });

  it('an edit that keeps a sentence keeps its fact; facts only the old version stated are gone', async () => {
    const box = sandbox();
    box.pai('LEARNING/SYSTEM/z.md', learning('Zephyr bus', 'Zephyr uses Kafka for the event bus. Kafka feeds Postgres nightly.'));
    await settle(box);
    expect(facts()).toContain('Zephyr uses Kafka for the event bus.');
    box.pai('LEARNING/SYSTEM/z.md', learning('Zephyr bus', 'Zephyr uses Kafka for the event bus. Zephyr archives to Glacier.'));
    // While the new version waits in the server's queue (where the edit's run probes the rules first,
    // from the moment the probe has seen its delete: what it reads after needs no processing):
    if (expected.source === 'probe') {
      const pauseAfterProbe = (c: { tool: string; args: Record<string, unknown> }) => {
        if (c.tool !== 'delete_episode' || !inProbe(c)) return;
        server.events.off('call', pauseAfterProbe);
        server.pauseProcessing();
      };
      server.events.on('call', pauseAfterProbe);
    } else server.pauseProcessing();
    expect(await runSync(box.config())).toMatchObject({ updated: 1, queued: 1 });
    const between = server.episodes('main').filter((e) => e.name === 'Zephyr bus');
    if (expected.order === 'break') {
      // the old version is gone already, and the note is marked between versions: the worker keeps the last good context (hooks/worker.ts).
      expect(between).toEqual([]);
      expect((await loadNotesBetweenVersions(box.config()))).toBe(1);
    } else {
      // the old version is all the graph has of the note, and it stays until the new one is in.
      expect(between.map((e) => e.content)).toEqual([expect.stringContaining('Postgres nightly')]);
      expect((await loadNotesBetweenVersions(box.config()))).toBe(0);
    }
    server.resumeProcessing();
    await server.whenIdle();
    const run = await runSync(box.config(), { waitMs: 5000 });
    await server.whenIdle();
    expect(run).toMatchObject({ confirmed: 1, queued: 0, failed: 0 });
    expect((await loadNotesBetweenVersions(box.config()))).toBe(0);
    expect(facts()).toContain('Zephyr uses Kafka for the event bus.');
    expect(facts()).toContain('Zephyr archives to Glacier.');
    expect(facts()).not.toContain('Kafka feeds Postgres nightly.');
    expect(server.episodes('main').filter((e) => e.name === 'Zephyr bus').map((e) => e.content)).toEqual([expect.stringContaining('Glacier')]);
    // The order follows the delete rule: the old version goes before the new one is sent only where deleting it later would take the kept facts.
    const order = server.calls.filter((c) => (c.tool === 'add_memory' || c.tool === 'delete_episode') && !inProbe(c)).map((c) => c.tool);
    expect(order.slice(1)).toEqual(expected.order === 'break' ? ['delete_episode', 'add_memory'] : ['add_memory', 'delete_episode']);
  });

  it('a duplicate pair resolves without losing facts: the copy processed first (which created them) stays', async () => {
    const box = sandbox();
    box.pai('LEARNING/SYSTEM/d.md', learning('Dingo cache', 'Dingo caches sessions in Redis.'));
    await settle(box);
    const [first] = server.episodes('main');
    // A second copy of the same version (a re-send after a crash, a race), processed later.
    server.seedEpisode({ name: first!.name, content: first!.content, source_description: first!.source_description, group_id: 'main' }, { extract: true });
    expect(server.facts('main').find((f) => f.fact === 'Dingo caches sessions in Redis.')?.episodes).toHaveLength(2);
    // The state is lost, so the next run lists the group and meets both copies.
    rmSync(join(box.config().stateDir, 'state.json'));
    const run = await runSync(box.config(), { waitMs: 5000 });
    await server.whenIdle();
    expect(run).toMatchObject({ confirmed: 1, duplicatesRemoved: 1 });
    expect(server.episodes('main').map((e) => e.uuid)).toEqual([first!.uuid]);
    expect(facts()).toContain('Dingo caches sessions in Redis.');
  });

  it('a fact another origin also states survives when we delete our note (or status says why its episode stays)', async () => {
    const box = sandbox({ MADEINOZ_KNOWLEDGE_ORIGIN: 'm-alice' });
    box.pai('LEARNING/SYSTEM/k.md', learning('Kafka notes', 'Kafka feeds Postgres nightly. Kafka keeps seven days of logs.'));
    await settle(box);
    // A teammate's note states one of the same facts, processed after ours (so ours created it).
    const theirs = formatMarker({ fileId: 'teammate0000000a', hash: 'abcdefabcdef', part: 1, parts: 1, origin: 'm-bob' });
    server.seedEpisode({ name: 'Bob on Kafka', content: 'Kafka feeds Postgres nightly.', source_description: `pai memory ${theirs}`, group_id: 'main' }, { extract: true });
    rmSync(box.path('pai', 'MEMORY', 'LEARNING', 'SYSTEM', 'k.md'));
    const run = await runSync(box.config(), { waitMs: 5000 });
    await server.whenIdle();
    expect(run).toMatchObject({ deleted: 1, failed: 0 });
    expect(facts()).toContain('Kafka feeds Postgres nightly.');
    expect(facts()).not.toContain('Kafka keeps seven days of logs.');
    expect(server.episodes('main').map((e) => e.name)).toContain('Bob on Kafka');
    const status = await collectStatus(box.config(), nullLogger);
    if (expected.deleteRemoves === 'facts-first-created') {
      // Deleting our episode would delete the shared fact: it is kept, its own fact removed, and status says so.
      expect(run.held).toBe(1);
      expect(status.held).toMatchObject({ episodes: 1 });
      expect(status.held?.why).toMatch(/another episode still states/);
    } else {
      expect(server.episodes('main').map((e) => e.name)).toEqual(['Bob on Kafka']);
      expect(status.held).toBeUndefined();
    }
  });

  it('entity summaries: rebuilt from the remaining episodes where the server does so (0.31.2), else they keep the deleted note\'s words', async () => {
    const box = sandbox();
    box.pai('LEARNING/SYSTEM/z.md', learning('Zephyr bus', 'Zephyr publishes through Kafka.'));
    box.pai('LEARNING/SYSTEM/l.md', learning('Ledger feed', 'Ledger exports through Kafka.'));
    await settle(box);
    const kafka = () => server.nodes('main').find((n) => n.name === 'Kafka')?.summary ?? '';
    expect(kafka()).toContain('Zephyr publishes through Kafka.');
    rmSync(box.path('pai', 'MEMORY', 'LEARNING', 'SYSTEM', 'z.md'));
    expect(await runSync(box.config(), { waitMs: 5000 })).toMatchObject({ deleted: 1 });
    expect(kafka()).toContain('Ledger exports through Kafka.');
    if (generation === '0.31.2') expect(kafka()).not.toContain('Zephyr');
    else expect(kafka()).toContain('Zephyr publishes through Kafka.');
  });

  it('a fresh co-owner of a shared source who is behind deletes nothing newer, and all converge on the newest version', async () => {
    // Each owner's clone of the team's notes lives in that owner's own home.
    const owner = (origin: string) => {
      const home = sandbox();
      const dir = home.path('team');
      return { dir, box: sandbox({ MADEINOZ_KNOWLEDGE_SYNC_PATHS: `team=${dir}`, MADEINOZ_KNOWLEDGE_SHARED_SOURCES: 'team=team-notes', MADEINOZ_KNOWLEDGE_ORIGIN: origin }) };
    };
    const { dir: aliceDir, box: a } = owner('m-alice');
    const { dir: bobDir, box: b } = owner('m-bob');
    const v1 = learning('Rollback', 'Roll back with helm rollback. Helm keeps ten revisions.');
    const v2 = learning('Rollback', 'Roll back with argo rollouts undo. Helm keeps ten revisions.');
    writeNote(join(aliceDir, 'rollback.md'), v1);
    await settle(a);
    writeNote(join(aliceDir, 'rollback.md'), v2);
    await settle(a);
    await settle(a);
    const newest = () => server.episodes('main').filter((e) => e.content.includes('argo rollouts'));
    const older = () => server.episodes('main').filter((e) => e.content.includes('helm rollback'));
    expect(newest()).toHaveLength(1);
    // A shared note's older version goes only once its replacement is confirmed. Where deleting it
    // then would take the fact the new version restates (0.29.3 – 0.31.1), it is held instead.
    expect(older()).toHaveLength(expected.order === 'break' ? 1 : 0);
    expect(facts()).not.toContain('Roll back with helm rollback.');
    // Bob, on a new machine with an empty state and a clone still at v1, syncs.
    writeNote(join(bobDir, 'rollback.md'), v1);
    const deletesBefore = calls('delete_episode').length;
    await settle(b);
    await settle(b);
    expect(newest()).toHaveLength(1);
    expect(calls('delete_episode')).toHaveLength(deletesBefore);
    // Bob pulls v2: everybody ends with the one newest episode, and its facts.
    writeNote(join(bobDir, 'rollback.md'), v2);
    await settle(b);
    await settle(b);
    await settle(a);
    expect(newest()).toHaveLength(1);
    expect(older()).toHaveLength(expected.order === 'break' ? 1 : 0);
    if (expected.order === 'break') expect((await collectStatus(a.config(), nullLogger)).held).toMatchObject({ episodes: 1 });
    expect(facts()).toContain('Helm keeps ten revisions.');
    expect(facts()).toContain('Roll back with argo rollouts undo.');
    expect(facts()).not.toContain('Roll back with helm rollback.');
    for (const o of [a, b]) expect((await runSync(o.config(), { waitMs: 5000 })).confirmed).toBe(1);
  });
});

describe('a note between versions (break before make)', () => {
  it('stops holding the context back once its new version, and the old one sent again, have failed', async () => {
    server = await startGraphitiServer({ processingDelayMs: 0, ...GENERATIONS['0.29.3'] });
    const box = sandbox({ MADEINOZ_KNOWLEDGE_MAX_RESENDS: '0', MADEINOZ_KNOWLEDGE_CONFIRM_MAX_AGE: '1000' });
    box.pai('LEARNING/SYSTEM/z.md', learning('Zephyr bus', 'Zephyr uses Kafka for the event bus.'));
    await settle(box);
    // Every new episode is dropped silently from now on.
    server.setOptions({ faults: { dropRate: 1 } });
    box.pai('LEARNING/SYSTEM/z.md', learning('Zephyr bus', 'Zephyr moved to Pulsar for the event bus.'));
    await runSync(box.config());
    await server.whenIdle();
    expect(await loadNotesBetweenVersions(box.config())).toBe(1);
    let clock = Date.now() + 60_000;
    const later = await runSync(box.config(), { now: () => (clock += 1000) });
    await server.whenIdle();
    // The new version failed: the old one's text is sent again (sync/restore.ts), and the note is still between versions until it is in.
    expect(later.problems).toEqual([expect.objectContaining({ reason: 'dropped' })]);
    expect(server.calls.filter((c) => c.tool === 'add_memory').at(-1)?.args.episode_body).toContain('Kafka');
    expect(await loadNotesBetweenVersions(box.config())).toBe(1);
    clock += 60_000;
    const last = await runSync(box.config(), { now: () => (clock += 1000) });
    expect(last.failed).toBe(1);
    expect(await loadNotesBetweenVersions(box.config())).toBe(0);
  });
});
