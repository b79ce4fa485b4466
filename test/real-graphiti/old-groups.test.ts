/**
 * Several groups on a server whose `delete_episode` takes no group (graphiti-core 0.28.2, 0.29.3:
 * servers 1.0.x) on FalkorDB: one graph per group, and the server's one Graphiti client lists and
 * deletes in the graph of the group it last PROCESSED an episode for (graphiti-core add_episode
 * rebinds its driver; search clones it per call and is not affected). What a user with a `{project}`
 * group beside the main group gets: a delete in a group the server is not on waits until it is
 * (sync/group-reach.ts), never counted as done before; a note the server stored where it is not
 * looking is not sent twice (reconcile.ts, blind listings); `health` and `status` say so
 * (graphiti/semantics.ts `deletesInLastWrittenGroupOnly`). Runs on 0.28.2, 0.29.3 and 0.31.2 (the
 * control, where the delete finds it and nothing is said), one server at a time;
 * GMS_OLD_GROUPS_GENERATION=<generation> runs one.
 */
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectProject } from '../../src/lib/context/project.js';
import { projectGroupId } from '../../src/lib/graphiti/escape.js';
import { GraphitiClient } from '../../src/lib/graphiti/graphiti.js';
import { generation as pinnedGeneration } from '../../src/lib/server/pins.js';
import { loadState } from '../../src/lib/state/state.js';
import { runSync } from '../../src/lib/sync/sync.js';
import { eventually, runCli, startRealGraphiti, type RealGraphiti } from '../support/real-graphiti.js';
import { link, machine, topic, type Machine } from '../pull/homes.js';
import { learning, makeSandbox, type Sandbox } from '../support/sandbox.js';

/** Both generations whose delete takes no group, and 0.31.2 as the control; GMS_OLD_GROUPS_GENERATION runs one. */
const GENERATIONS = process.env.GMS_OLD_GROUPS_GENERATION === undefined ? ['0.28.2', '0.29.3', '0.31.2'] : [process.env.GMS_OLD_GROUPS_GENERATION];
const MAIN = 'gms_old_groups';
const GROUPS = { MADEINOZ_KNOWLEDGE_SOURCE_GROUPS: 'auto-memory={project}' };
const settled = { pending: 0, queued: 0, failed: 0 };

describe.each(GENERATIONS)('several groups on real Graphiti %s (FalkorDB, a graph per group, delete_episode without a group before 0.31)', (GENERATION) => {
  /** 0.31+ (servers 1.1+): delete_episode takes the group; the control, where nothing of this is said or left. */
  const groupedDeletes = pinnedGeneration(GENERATION).graphPerGroup;
  let real: RealGraphiti;
  let box: Sandbox;
  const machines: Machine[] = [];
  beforeAll(async () => {
    real = await startRealGraphiti({ generation: GENERATION, transport: 'http', groupId: MAIN });
    box = makeSandbox(real.url, { MADEINOZ_KNOWLEDGE_DB: 'falkordb', MADEINOZ_KNOWLEDGE_GROUP_ID: MAIN, MADEINOZ_KNOWLEDGE_TIMEOUT: '30000', MADEINOZ_KNOWLEDGE_RETRY_DEADLINE: '30000', ...GROUPS });
  }, 600_000);
  afterAll(async () => {
    await real?.stop();
    box?.cleanup();
    for (const m of machines) m.box.cleanup();
  }, 60_000);

  /** A group's episodes (name, content) as FalkorDB holds them. */
  const episodesIn = async (group: string) =>
    (
      await real.query(`MATCH (e:Episodic) WHERE e.group_id = '${group}' RETURN e.name, e.content`, group).catch((error: Error) => {
        if (/empty key/i.test(error.message)) return []; // a graph never written to
        throw error;
      })
    )
      .map(([name, content]) => `${String(name)}: ${String(content).split('\n').pop()}`)
      .sort();

  it("a note of the main group deleted, or edited, after the last write went to a project's group: health and status say so; the delete waits until a write brings the server back to the group, then the old episodes go (kept only where the server's rules hold them)", async () => {
    const memory = (name: string, body: string) => `---\nname: ${name}\ndescription: how ${name} works\ntype: project\n---\n${body}\n`;
    const alpha = box.path('code', 'alpha');
    mkdirSync(join(alpha, '.git'), { recursive: true });
    const key = detectProject(alpha, box.config(), box.env).key;
    const alphaGroup = projectGroupId('falkordb', key);

    box.pai('LEARNING/2026-09/okapi.md', learning('Okapi queues', 'Okapi queues jobs in Beanstalkd.'));
    box.pai('LEARNING/2026-09/quokka.md', learning('Quokka cache', 'Quokka caches pages in Varnish.'));
    expect(await runSync(box.config(), { waitMs: 90_000 })).toMatchObject({ ...settled, added: 2 });
    // The last write: the project's group.
    box.auto(key, 'project_wombat.md', memory('Wombat builds', 'Wombat builds with Bazel.'));
    expect(await runSync(box.config(), { waitMs: 90_000 })).toMatchObject({ ...settled, added: 1 });
    expect(await episodesIn(MAIN)).toEqual(['Okapi queues: Okapi queues jobs in Beanstalkd.', 'Quokka cache: Quokka caches pages in Varnish.']);
    expect(await episodesIn(alphaGroup)).toEqual(['Wombat builds: Wombat builds with Bazel.']);

    // The user is told, with the next step.
    const health = await runCli(box.env, ['health']);
    expect(health.code, health.stdout + health.stderr).toBe(0);
    if (groupedDeletes) {
      expect(health.stdout).not.toMatch(/WARN|last wrote to/);
      expect((await runCli(box.env, ['status'])).stdout).not.toMatch(/last wrote to/);
      rmSync(box.path('pai', 'MEMORY', 'LEARNING', '2026-09', 'okapi.md'));
      expect(await runSync(box.config(), { waitMs: 90_000 })).toMatchObject({ ...settled, deleted: 1 });
      expect(await episodesIn(MAIN)).toEqual(['Quokka cache: Quokka caches pages in Varnish.']);
      return;
    }
    expect(health.stdout).toMatch(new RegExp(`WARN deletes in several groups: groups ${MAIN}, ${alphaGroup}, one per project, on a server whose delete_episode takes no group`));
    expect(health.stdout).toMatch(/deletes and lists episodes only in the group it last wrote to/);
    expect(health.stdout).toMatch(/fix: upgrade the Graphiti MCP server to 1\.1\.2 \(graphiti-core 0\.31\.2/);
    const status = await runCli(box.env, ['status']);
    expect(status.stdout).toMatch(/^Warning: this Graphiti server \(before 1\.1: its delete_episode takes no group\) on FalkorDB deletes and lists episodes only in the group it last wrote to.*\(groups gms_old_groups, \w+, one per project\)\. Next step: upgrade/m);

    // A deleted note while the server is on the project's group: the delete waits (the server would
    // answer "not found" and keep it), and status says why and what to do.
    rmSync(box.path('pai', 'MEMORY', 'LEARNING', '2026-09', 'okapi.md'));
    expect(await runSync(box.config(), { waitMs: 90_000 })).toMatchObject({ ...settled, deleted: 1, awaitingGroup: 1 });
    expect(await episodesIn(MAIN)).toContain('Okapi queues: Okapi queues jobs in Beanstalkd.');
    expect((await runCli(box.env, ['status'])).stdout).toMatch(/^Deletions waiting: 1 old episode\(s\) in group gms_old_groups .*until it next writes there.*Next step: upgrade/m);
    expect(await runSync(box.config(), { waitMs: 90_000 })).toMatchObject({ ...settled, added: 0, deleted: 0, resent: 0, awaitingGroup: 1 });
    expect(await episodesIn(MAIN)).toContain('Okapi queues: Okapi queues jobs in Beanstalkd.');

    // An edit of a main-group note after another write to the project's group: its new version
    // brings the server back to the main group, where the old version and the deleted note go.
    box.auto(key, 'project_wombat.md', memory('Wombat builds', 'Wombat builds with Bazel. Bazel caches Wombat outputs.'));
    expect(await runSync(box.config(), { waitMs: 90_000 })).toMatchObject({ ...settled, updated: 1 });
    expect(await episodesIn(alphaGroup)).toEqual(['Wombat builds: Wombat builds with Bazel. Bazel caches Wombat outputs.']);
    box.pai('LEARNING/2026-09/quokka.md', learning('Quokka cache', 'Quokka caches pages in Fastly now.'));
    expect(await runSync(box.config(), { waitMs: 90_000 })).toMatchObject({ ...settled, updated: 1, awaitingGroup: 0 });
    // What is left of the old versions is only what the server's rules hold (0.29.3: an episode that
    // created facts another note states, its own facts removed; retire.ts), never a missed delete.
    const { state } = await loadState(box.config().stateDir, { readOnly: true });
    const retired = [...state.orphans, ...Object.values(state.files).flatMap((r) => r.superseded)];
    expect(retired.every((ref) => ref.heldAt !== undefined && ref.awaitsGroupSince === undefined)).toBe(true);
    const main = await episodesIn(MAIN);
    expect(main.filter((e) => e === 'Okapi queues: Okapi queues jobs in Beanstalkd.' || e === 'Quokka cache: Quokka caches pages in Varnish.')).toHaveLength(retired.length);
    expect(main).toContain('Quokka cache: Quokka caches pages in Fastly now.');
    expect((await runCli(box.env, ['status'])).stdout).not.toMatch(/Deletions waiting/);
    expect(await runSync(box.config(), { waitMs: 90_000 })).toMatchObject({ ...settled, added: 0, updated: 0, deleted: 0, resent: 0, awaitingGroup: 0 });
  });

  it("a note of the main group processed before the server last wrote to a project's group: the listing shows nothing of it, and the sync does not send it again; the next write to the group confirms it, one copy", async () => {
    if (groupedDeletes) return;
    const alphaGroup = projectGroupId('falkordb', detectProject(box.path('code', 'alpha'), box.config(), box.env).key);
    box.pai('LEARNING/2026-09/yak.md', learning('Yak logs', 'Yak ships logs to Loki.'));
    expect(await runSync(box.config())).toMatchObject({ added: 1, queued: 1 });
    await eventually('the note is processed', async () => (await episodesIn(MAIN)).includes('Yak logs: Yak ships logs to Loki.'));
    // Someone's episode in the project's group: the server now lists and deletes there.
    const client = new GraphitiClient(box.config());
    try {
      await client.addMemory({ name: 'Team wiki', episodeBody: 'Alpha builds run on Gradle.', groupId: alphaGroup, sourceDescription: 'wiki import' });
    } finally {
      await client.close();
    }
    await eventually("the teammate's episode is processed", async () => (await episodesIn(alphaGroup)).some((e) => e.startsWith('Team wiki')));
    // The wait for a queued note that does not appear, cut short (30 minutes by default): an empty
    // listing from a server on another group is no evidence of a drop.
    const fast = box.config({ MADEINOZ_KNOWLEDGE_CONFIRM_MAX_AGE: '1' });
    expect(await runSync(fast, { waitMs: 4000 })).toMatchObject({ ...settled, queued: 1, resent: 0 });
    expect(await runSync(fast)).toMatchObject({ ...settled, queued: 1, resent: 0 });
    // The next note of the main group brings the server back there: the first is seen, and confirmed.
    box.pai('LEARNING/2026-09/zebu.md', learning('Zebu search', 'Zebu indexes documents with Tantivy.'));
    expect(await runSync(box.config(), { waitMs: 90_000 })).toMatchObject({ ...settled, added: 1, resent: 0 });
    expect((await episodesIn(MAIN)).filter((e) => e.startsWith('Yak'))).toEqual(['Yak logs: Yak ships logs to Loki.']);
  });

  it('pull while the server is on another group: a pulled note of the main group stays on this machine (the listing cannot see its group), nothing taken for deleted', async () => {
    const alphaGroup = projectGroupId('falkordb', detectProject(box.path('code', 'alpha'), box.config(), box.env).key);
    const make = (place: string) => {
      const m = machine({ url: real.url }, place, 'git@github.com:me/app.git', { MADEINOZ_KNOWLEDGE_DB: 'falkordb', MADEINOZ_KNOWLEDGE_GROUP_ID: MAIN, MADEINOZ_KNOWLEDGE_TIMEOUT: '30000', MADEINOZ_KNOWLEDGE_RETRY_DEADLINE: '30000' }, 90_000);
      machines.push(m);
      return m;
    };
    const a = make('laptop');
    const b = make('desktop/src');
    await link(a, b);
    a.write('ibis.md', topic('Ibis cache', 'Ibis caches sessions in Memcached.'));
    await a.sync();
    const copy = (await b.pull()).written.map((w) => w.file);
    expect(copy).toHaveLength(1);
    // Someone's episode in the project's group: the server now lists there.
    const client = new GraphitiClient(box.config());
    try {
      await client.addMemory({ name: 'Team chat', episodeBody: 'Alpha releases ship on Thursdays.', groupId: alphaGroup, sourceDescription: 'chat import' });
    } finally {
      await client.close();
    }
    await eventually("the teammate's episode is processed", async () => (await episodesIn(alphaGroup)).some((e) => e.startsWith('Team chat')));
    const r = await b.pull();
    expect([r.removed, r.absent]).toEqual([[], []]);
    expect(existsSync(copy[0] as string)).toBe(true);
    expect(await episodesIn(MAIN)).toContain('Ibis cache: Ibis caches sessions in Memcached.');
  });
});
