/**
 * SERVER_OF_RECORD (state/server-of-record.ts) in the sync alone: one machine, its home server and
 * another one it is pointed at for a while.
 *
 * - LOOK_OWED_TO_SOURCES_LEFT_OUT: the first run on another server that scans one source only
 *   (`sync --source`) looks at that source's notes only (force-look.ts FORCE_LOOK takes the run's
 *   sources). On 8fc2c7a it recorded the new server for the whole state, so no later run looked
 *   again: the other sources' notes, confirmed on the first server, never reached the new one.
 * - DELETED_WHILE_AWAY (sync/deleted-while-away.ts): a note deleted while on the other server. On
 *   8fc2c7a its episode on the first server was asked to be deleted on the other, "not found", taken
 *   for gone, and back on the first server nothing named it any more: it stayed there for good.
 */
import { rmSync } from 'node:fs';
import { loadState } from '../../src/lib/state/state.js';
import { LEFT_LIST_DAYS } from '../../src/lib/sync/deleted-while-away.js';
import { describe, expect, it } from 'vitest';
import { runSync } from '../../src/lib/sync/sync.js';
import { startGraphitiServer, type GraphitiTestServer } from '../support/graphiti-server.js';
import { makeSandbox, type Sandbox } from '../support/sandbox.js';

/** A sandbox synced to `home` with `notes` written, and `other`'s URL as the setting that points it away. */
async function awayFromHome(test: (s: { box: Sandbox; home: GraphitiTestServer; other: GraphitiTestServer; away: Record<string, string> }) => Promise<void>, notes: (box: Sandbox) => void, settings: Record<string, string> = {}): Promise<void> {
  const home = await startGraphitiServer({ processingDelayMs: 0 });
  const other = await startGraphitiServer({ processingDelayMs: 0 });
  const box = makeSandbox(home.url);
  try {
    notes(box);
    const first = await runSync(box.config(settings), { waitMs: 3000 });
    expect(first.pending + first.failed).toBe(0);
    await test({ box, home, other, away: { MADEINOZ_KNOWLEDGE_MCP_URL: other.url } });
  } finally {
    await home.close();
    await other.close();
    box.cleanup();
  }
}

const names = (server: GraphitiTestServer) => server.episodes().map((e) => e.name).sort();

describe('SERVER_OF_RECORD in the sync', () => {
  it('a first run on another server that scans one source leaves the others owed its look: the next run that scans them looks, and the new server gets every note (LOOK_OWED_TO_SOURCES_LEFT_OUT)', async () => {
    await awayFromHome(
      async ({ box, home, other, away }) => {
        expect(names(home)).toEqual(['CI', 'Deploy']);
        await runSync(box.config(away), { source: 'pai', waitMs: 3000 });
        await runSync(box.config(away), { waitMs: 3000 });
        expect(names(other)).toEqual(['CI', 'Deploy']);
      },
      (box) => {
        box.pai('LEARNING/ci.md', '# CI\n\nThe CI runs on Node 22.\n');
        box.auto('-home-me-app', 'deploy.md', '---\nname: Deploy\ndescription: how we deploy\ntype: project\n---\nBasalt deploys through canary.\n');
      },
    );
  });

  /** CI and Old synced home; away (every source, or `source` only), Old deleted; back home: home must hold CI alone. */
  const deletedWhileAway = (source?: string) => {
    let gone = '';
    return awayFromHome(
      async ({ box, home, other, away }) => {
        expect(names(home)).toEqual(['CI', 'Old']);
        const there = { waitMs: 3000, ...(source === undefined ? {} : { source }) };
        await runSync(box.config(away), there);
        rmSync(gone);
        await runSync(box.config(away), there);
        expect(names(other)).toEqual(['CI']);
        await runSync(box.config(), { waitMs: 3000 });
        await runSync(box.config(), { waitMs: 3000 });
        expect(names(home)).toEqual(['CI']);
      },
      (box) => {
        box.pai('LEARNING/ci.md', '# CI\n\nThe CI runs on Node 22.\n');
        gone = box.pai('LEARNING/old.md', '# Old\n\nThe build used Make.\n');
      },
    );
  };

  it('a note deleted while on another server is deleted from the first one once the machine is back (DELETED_WHILE_AWAY)', () => deletedWhileAway());

  it('so is one deleted while away in runs of one source only (DELETED_WHILE_AWAY with LOOK_OWED_TO_SOURCES_LEFT_OUT)', () => deletedWhileAway('pai'));

  it("and the facts its episode left on a server whose delete keeps them are found by the part's words and removed, as for a note deleted at home (on 6acbf28 LEFT_LIST_SLIM dropped the words: searched by its title alone, they stayed)", async () => {
    let gone = '';
    await awayFromHome(
      async ({ box, home, away }) => {
        const made = () => home.facts().filter((f) => f.fact.includes('Make')).length;
        expect(made()).toBeGreaterThan(0);
        await runSync(box.config(away), { waitMs: 3000 });
        rmSync(gone);
        await runSync(box.config(away), { waitMs: 3000 });
        await runSync(box.config(), { waitMs: 3000 });
        await runSync(box.config(), { waitMs: 3000 });
        expect(names(home)).toEqual(['CI']);
        expect(made()).toBe(0);
      },
      (box) => {
        box.pai('LEARNING/ci.md', '# CI\n\nThe CI runs on Node 22.\n');
        gone = box.pai('LEARNING/old.md', '# Old\n\nThe build used Make.\n');
      },
    );
  });

  it('with MADEINOZ_KNOWLEDGE_DELETE_REMOVED=false a note deleted while away keeps its episode on the first server too, as it does on the one it was deleted on (on 7a49815 DELETED_WHILE_AWAY deleted it there)', async () => {
    let gone = '';
    const keep = { MADEINOZ_KNOWLEDGE_DELETE_REMOVED: 'false' };
    await awayFromHome(
      async ({ box, home, other, away }) => {
        expect(names(home)).toEqual(['CI', 'Old']);
        await runSync(box.config({ ...keep, ...away }), { waitMs: 3000 });
        rmSync(gone);
        await runSync(box.config({ ...keep, ...away }), { waitMs: 3000 });
        expect(names(other)).toEqual(['CI', 'Old']);
        await runSync(box.config(keep), { waitMs: 3000 });
        await runSync(box.config(keep), { waitMs: 3000 });
        expect(names(home)).toEqual(['CI', 'Old']);
      },
      (box) => {
        box.pai('LEARNING/ci.md', '# CI\n\nThe CI runs on Node 22.\n');
        gone = box.pai('LEARNING/old.md', '# Old\n\nThe build used Make.\n');
      },
      keep,
    );
  });

  it('a note moved to another group while away leaves no copy in its old group on the first server (on 7a49815 the rebuild there looked only in the groups in use now)', async () => {
    const work = { MADEINOZ_KNOWLEDGE_GROUP_ID: 'work' };
    await awayFromHome(
      async ({ box, home, other, away }) => {
        expect(home.episodes().map((e) => `${e.group_id}/${e.name}`)).toEqual(['main/CI']);
        // Away, the person moves their notes to another group for good (and keeps it once back).
        await runSync(box.config({ ...work, ...away }), { waitMs: 3000 });
        await runSync(box.config({ ...work, ...away }), { waitMs: 3000 });
        expect(other.episodes().map((e) => `${e.group_id}/${e.name}`)).toEqual(['work/CI']);
        await runSync(box.config(work), { waitMs: 3000 });
        await runSync(box.config(work), { waitMs: 3000 });
        expect(home.episodes().map((e) => `${e.group_id}/${e.name}`)).toEqual(['work/CI']);
      },
      (box) => {
        box.pai('LEARNING/ci.md', '# CI\n\nThe CI runs on Node 22.\n');
      },
    );
  });

  const DAY = 86_400_000;
  const leftOn = async (box: Sandbox) => (await loadState(box.config().stateDir, { readOnly: true })).state.leftOn ?? {};

  it('LEFT_LIST_SLIM: what is kept for the server left holds what a delete needs (the search words for the facts it left among them), not each part\'s send history', async () => {
    await awayFromHome(
      async ({ box, away }) => {
        await runSync(box.config(away), { waitMs: 3000 });
        const lists = Object.values(await leftOn(box));
        expect(lists).toHaveLength(1);
        expect(lists[0]).toHaveLength(2);
        for (const ref of lists[0] ?? []) expect(Object.keys(ref).sort()).toEqual(['groupId', 'marker', 'name', 'part', 'parts', 'probe', 'resends', 'uuid']);
      },
      (box) => {
        box.pai('LEARNING/ci.md', '# CI\n\nThe CI runs on Node 22.\n');
        box.pai('LEARNING/old.md', '# Old\n\nThe build used Make.\n');
      },
    );
  });

  it(`LEFT_LIST_BOUND: ${LEFT_LIST_DAYS} days after leaving, the list keeps only what it owes (a note deleted meanwhile), still deleted back home; a note still here is no longer kept`, async () => {
    let gone = '';
    await awayFromHome(
      async ({ box, home, other, away }) => {
        await runSync(box.config(away), { waitMs: 3000 });
        rmSync(gone);
        await runSync(box.config(away), { waitMs: 3000 });
        expect(Object.values(await leftOn(box))[0]).toHaveLength(2);
        // The bound passes while away: only Old's part (owed: its note is gone) is kept.
        const later = Date.now() + (LEFT_LIST_DAYS + 1) * DAY;
        await runSync(box.config(away), { now: () => later });
        const [[homeKey, kept] = []] = Object.entries(await leftOn(box));
        expect(kept?.map((ref) => ref.name)).toEqual(['Old']);
        expect(names(other)).toEqual(['CI']);
        // Back home: what it owed is deleted there; the note still here stays.
        await runSync(box.config(), { waitMs: 3000, now: () => later + DAY });
        await runSync(box.config(), { waitMs: 3000, now: () => later + DAY + 60_000 });
        expect(names(home)).toEqual(['CI']);
        // Home's list is done with (what the state knew on the other server is now kept for it instead).
        expect(Object.keys(await leftOn(box))).not.toContain(homeKey);
      },
      (box) => {
        box.pai('LEARNING/ci.md', '# CI\n\nThe CI runs on Node 22.\n');
        gone = box.pai('LEARNING/old.md', '# Old\n\nThe build used Make.\n');
      },
    );
  });
});
