/**
 * A home copied to a new machine while the old one stays in use (sync/copy-hold.ts COPY_HOLD)
 * against the real Graphiti MCP server on FalkorDB with the stand-in LLM, on a generation whose
 * edits delete the old version first (break-before-make, docs/semantics.md): the copy's edit and
 * deletion leave the old machine's episodes in the graph, and its new version is still stored
 * (a held old version must not hold it back); and the old machine's edit and deletion of notes the
 * copy still has unchanged, after which the copy sends its text of them again (COPY_WATCH); and the
 * group cleared by the user, which the copy leaves cleared (DELETED_ON_PURPOSE: the real server's
 * listing of a cleared group is what tells it), also once another writer wrote to it again before
 * the copy looked (CLEARED_WITNESS); and a note the old machine deleted and wrote again with the
 * very text the copy had sent again, which the copy finds listed twice (TAKEN_BACK: the real
 * server stores the second copy before the old machine's next listing, so the copy's look can land
 * between). Lean: one server, five scenarios (the third and fourth clear the group); the cases in
 * full run on the fake server (test/sync/origin-copy.test.ts).
 */
import { cpSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadState } from '../../src/lib/state/state.js';
import { partsHeldAsCopy } from '../../src/lib/sync/copy-hold.js';
import { runSync } from '../../src/lib/sync/sync.js';
import { eventually, runCli, startRealGraphiti, type RealGraphiti } from '../support/real-graphiti.js';
import { makeSandbox, type Sandbox } from '../support/sandbox.js';
import { lookAgainLater, note } from '../helpers/two-machines.js';
import { GraphitiClient } from '../../src/lib/graphiti/graphiti.js';

const GENERATION = process.env.GMS_ORIGIN_COPY_GENERATION ?? '0.31.1';
const GROUP = 'gms_copy';
const PROJECT = '-home-me-app';

describe(`a copied home in use on two machines: real Graphiti ${GENERATION} on FalkorDB, stand-in LLM`, () => {
  let real: RealGraphiti;
  const boxes: Sandbox[] = [];
  const make = (machineId: string) => {
    const box = makeSandbox(real.url, { MADEINOZ_KNOWLEDGE_DB: 'falkordb', MADEINOZ_KNOWLEDGE_GROUP_ID: GROUP, MADEINOZ_KNOWLEDGE_TIMEOUT: '30000', MADEINOZ_KNOWLEDGE_RETRY_DEADLINE: '30000', MADEINOZ_KNOWLEDGE_MACHINE_ID: machineId });
    boxes.push(box);
    return box;
  };
  /** Syncs until nothing waits (the sync waits for the real server's processing itself). */
  const sync = async (box: Sandbox) => {
    for (let round = 0; round < 4; round++) {
      const s = await runSync(box.config(), { waitMs: 180_000 });
      if (s.queued === 0 && s.pending === 0 && s.failed === 0) return;
    }
    throw new Error('the sync did not settle');
  };
  /** `copy` takes over `from`'s Claude Code folder and state, as a copied home does. */
  const copyHome = (from: Sandbox, copy: Sandbox) => {
    rmSync(copy.path('claude'), { recursive: true, force: true });
    cpSync(from.path('claude'), copy.path('claude'), { recursive: true, preserveTimestamps: true });
    cpSync(from.path('state'), copy.path('state'), { recursive: true, preserveTimestamps: true });
  };
  /** The user clears the whole group (`clear_graph`), from `box`'s settings. */
  const clearTheGroup = async (box: Sandbox) => {
    const client = new GraphitiClient(box.config());
    try {
      expect(await client.clearGroup(GROUP)).toBe(true);
    } finally {
      await client.close();
    }
  };
  /** Two looks by the copy `box`, each once one is due: the first sees an absence, the next judges it settled. */
  const twoLooks = async (box: Sandbox) => {
    const out = [];
    for (let look = 0; look < 2; look++) {
      await lookAgainLater(box.config().stateDir);
      out.push(await runSync(box.config(), { waitMs: 0 }));
    }
    return out;
  };
  /** Each episode's name and last line, sorted. */
  const graph = async () => (await real.query('MATCH (e:Episodic) RETURN e.name, e.content')).map(([name, content]) => `${String(name)}: ${String(content).trim().split('\n').at(-1) ?? ''}`).sort();

  beforeAll(async () => {
    real = await startRealGraphiti({ generation: GENERATION, transport: 'http', groupId: GROUP });
  }, 600_000);
  afterAll(async () => {
    await real?.stop();
    for (const b of boxes) b.cleanup();
  }, 60_000);

  it('the copy\'s edit and deletion leave the old machine\'s episodes; its new version is stored; nothing is sent twice', async () => {
    const a = make('machine-a');
    a.auto(PROJECT, 'one.md', note('One', 'Aurora builds with Bun.'));
    a.auto(PROJECT, 'two.md', note('Two', 'Basalt talks to Cobalt over gRPC.'));
    await sync(a);
    expect(await graph()).toEqual(['One: Aurora builds with Bun.', 'Two: Basalt talks to Cobalt over gRPC.']);

    const b = make('machine-b');
    copyHome(a, b);
    b.auto(PROJECT, 'one.md', note('One', 'Aurora builds with Deno now.'));
    rmSync(join(b.path('claude', 'projects', PROJECT, 'memory'), 'two.md'));
    await sync(b);
    expect(await graph()).toEqual(['One: Aurora builds with Bun.', 'One: Aurora builds with Deno now.', 'Two: Basalt talks to Cobalt over gRPC.']);
    expect(partsHeldAsCopy((await loadState(b.config().stateDir, { readOnly: true })).state)).toHaveLength(2);

    // Both go on: another run of each sends and deletes nothing.
    const again = [await runSync(a.config(), { waitMs: 0 }), await runSync(b.config(), { waitMs: 0 })];
    expect(again.map((s) => [s.added, s.updated, s.deleted])).toEqual([
      [0, 0, 0],
      [0, 0, 0],
    ]);
    expect(await graph()).toHaveLength(3);
  });

  it('the old machine\'s edit and deletion of notes the copy has unchanged: the copy sends its text of both again, once; nothing of the old machine\'s is touched', async () => {
    const other = '-home-me-other';
    const ours = async () => (await graph()).filter((line) => line.startsWith('Three:') || line.startsWith('Four:'));
    const c = make('machine-c');
    c.auto(other, 'three.md', note('Three', 'Cedar caches with Redis.'));
    c.auto(other, 'four.md', note('Four', 'Dune deploys on Fridays.'));
    await sync(c);
    const d = make('machine-d');
    copyHome(c, d);
    await sync(d); // takes the copy up: nothing to send

    c.auto(other, 'three.md', note('Three', 'Cedar caches with Valkey now.'));
    rmSync(join(c.path('claude', 'projects', other, 'memory'), 'four.md'));
    await sync(c);
    expect(await ours()).toEqual(['Three: Cedar caches with Valkey now.']);

    await lookAgainLater(d.config().stateDir);
    await sync(d);
    expect(await ours()).toEqual(['Four: Dune deploys on Fridays.', 'Three: Cedar caches with Redis.', 'Three: Cedar caches with Valkey now.']);

    // Both go on: nothing is sent or deleted again.
    await lookAgainLater(d.config().stateDir);
    const again = [await runSync(c.config(), { waitMs: 0 }), await runSync(d.config(), { waitMs: 0 })];
    expect(again.map((s) => [s.added, s.updated, s.deleted, s.resent])).toEqual([
      [0, 0, 0, 0],
      [0, 0, 0, 0],
    ]);
    expect(await ours()).toHaveLength(3);
  });

  it('the user clears the group while the copy is not settled: the copy sends nothing again, as a machine never copied does', async () => {
    const third = '-home-me-third';
    const e = make('machine-e');
    e.auto(third, 'five.md', note('Five', 'Ember ships on Mondays.'));
    await sync(e);
    const f = make('machine-f');
    copyHome(e, f);
    await sync(f);
    expect(await graph()).toContain('Five: Ember ships on Mondays.');

    await clearTheGroup(e);
    expect(await graph()).toEqual([]);

    // Two looks: the first sees the absence, the next (the absence settled) leaves the note deleted for good.
    const after = await twoLooks(f);
    after.push(await runSync(e.config(), { waitMs: 0 }));
    expect(after.map((s) => [s.added, s.updated, s.resent])).toEqual([
      [0, 0, 0],
      [0, 0, 0],
      [0, 0, 0],
    ]);
    expect(await graph()).toEqual([]);
    const { state } = await loadState(f.config().stateDir, { readOnly: true });
    expect(Object.values(state.files).flatMap((r) => r.episodes.map((p) => p.deletedElsewhere !== undefined))).toEqual([true]);
  });

  it('a busy group cleared and written to again by another writer before the copy looks: the copy sends nothing again (CLEARED_WITNESS)', async () => {
    const fourth = '-home-me-fourth';
    const writer = make('machine-w');
    writer.auto(fourth, 'team.md', note('Team', 'Garnet deploys on Tuesdays.'));
    await sync(writer);
    const g = make('machine-g');
    g.auto(fourth, 'six.md', note('Six', 'Flint caches with Redis.'));
    await sync(g);
    const h = make('machine-h');
    copyHome(g, h);
    // The copy's first sync looks, and sees the other writer's episode there.
    await sync(h);

    await clearTheGroup(g);
    writer.auto(fourth, 'after.md', note('After', 'Jasper reviews on Thursdays.'));
    await sync(writer);
    expect(await graph()).toEqual(['After: Jasper reviews on Thursdays.']);

    const after = await twoLooks(h);
    expect(after.map((s) => [s.added, s.updated, s.resent])).toEqual([
      [0, 0, 0],
      [0, 0, 0],
    ]);
    expect(await graph()).toEqual(['After: Jasper reviews on Thursdays.']);
  });
  it('the old machine writes a deleted note again with the very text the copy sent again, and the copy looks while both copies are listed: that episode rests on the old machine now, and `origin --split` leaves it to it (TAKEN_BACK)', async () => {
    const third = '-home-me-third';
    const k = make('machine-k');
    k.auto(third, 'five.md', note('Five', 'Ember ships on Tuesdays.'));
    k.auto(third, 'six.md', note('Six', 'Flint stores blobs in S3.'));
    await sync(k);
    const l = make('machine-l');
    copyHome(k, l);
    await sync(l); // takes the copy up: nothing to send
    rmSync(join(k.path('claude', 'projects', third, 'memory'), 'six.md'));
    await sync(k);
    await lookAgainLater(l.config().stateDir);
    await sync(l); // sends its text of Six again (COPY_WATCH)
    const sixes = async () => (await real.query("MATCH (e:Episodic) WHERE e.name = 'Six' RETURN e.uuid")).map(([uuid]) => String(uuid));
    const [resent] = await sixes();
    expect(await sixes()).toHaveLength(1);

    // The old machine writes Six again, the very same text: its sync sends its own copy (it waits
    // for nothing), and once the real server lists both the copy looks, before that machine lists
    // the group again.
    k.auto(third, 'six.md', note('Six', 'Flint stores blobs in S3.'));
    expect(await runSync(k.config(), { waitMs: 0 })).toMatchObject({ added: 1 });
    await eventually('the old machine\'s copy of Six stored beside the one the copy sent', async () => (await sixes()).length === 2, 180_000);
    await lookAgainLater(l.config().stateDir);
    await sync(l);
    const onCopy = Object.values((await loadState(l.config().stateDir, { readOnly: true })).state.files).flatMap((r) => r.episodes);
    expect(onCopy.find((ref) => ref.uuid === resent)).toMatchObject({ foreign: true });
    await sync(k);
    // Both keep the episode the copy sent, the earlier (the keeper rule), as their current one.
    expect(await sixes()).toEqual([resent]);

    expect((await runCli(l.env, ['origin', '--split'])).code).toBe(0);
    await sync(l);
    await sync(k);
    // The old machine's Six (the episode the copy had sent) stays; the copy sent its own.
    const after = await sixes();
    expect(after).toContain(resent);
    expect(after).toHaveLength(2);
  });
});
