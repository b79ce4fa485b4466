/**
 * `pull` on a server that lists only in the group it last wrote to (servers 1.0.x on FalkorDB:
 * graphiti-core 0.28.2 and 0.29.3; graphiti/semantics.ts `listsInLastWrittenGroup`; the fast test
 * server taught it, options.ts `lastWrittenGroup`). A listing that shows nothing of a group may
 * only mean the server is on another group: a pulled note there is not absent, so this machine's
 * copy is never removed on it (sync/group-reach.ts `groupsInView`). A real deletion still reaches
 * it once the group is in view again.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GraphitiClient } from '../../src/lib/graphiti/graphiti.js';
import { runSync } from '../../src/lib/sync/sync.js';
import { usePullMachines } from '../helpers/use-pull-machines.js';
import { link, topic, type Machine } from './homes.js';

const machines = usePullMachines();
const FALKORDB = { MADEINOZ_KNOWLEDGE_DB: 'falkordb' };

/** Two linked machines on a fresh server that lists only where it last wrote (FalkorDB, 0.28.2 rules). */
async function linkedOnFalkorDb(): Promise<[Machine, Machine]> {
  await machines.restartWith({ db: 'falkordb', lastWrittenGroup: true });
  const a = machines.make('laptop', undefined, FALKORDB);
  const b = machines.make('desktop/src', undefined, FALKORDB);
  await link(a, b);
  return [a, b];
}

describe('pull on a server that lists only where it last wrote (0.28.2 rules on FalkorDB, fast test server)', () => {
  it("a note of the main group is not taken for deleted while the server is on another group; a real deletion reaches the copy once the group is in view", async () => {
    const [a, b] = await linkedOnFalkorDb();
    a.write('build.md', topic('Build', 'The build uses Bun and runs in CI on every push.'));
    a.write('deploy.md', topic('Deploy', 'Deploys go to Fly.io from the main branch.'));
    await a.sync();
    expect((await b.pull()).written).toHaveLength(2);
    const copy = join(b.memoryDir, 'build.md');
    // A teammate's episode in another group: the server now lists there.
    const client = new GraphitiClient(a.config());
    try {
      await client.addMemory({ name: 'Team wiki', episodeBody: 'The team wiki moved to Notion.', groupId: 'team', sourceDescription: 'wiki import' });
    } finally {
      await client.close();
    }
    await machines.server.whenIdle();
    const blind = await b.pull();
    expect(blind.removed).toEqual([]);
    expect(existsSync(copy)).toBe(true);
    // Deleted on A: A's delete waits for the server to be on the main group (its next write there).
    rmSync(join(a.memoryDir, 'build.md'));
    await a.sync();
    expect(machines.server.episodes('main').map((e) => e.name)).toContain('Build');
    expect((await b.pull()).removed).toEqual([]);
    a.write('test.md', topic('Test', 'Tests run with Vitest.'));
    await a.sync();
    await machines.server.whenIdle();
    expect(machines.server.episodes('main').map((e) => e.name)).not.toContain('Build');
    const seen = await b.pull();
    expect(seen.removed).toEqual([copy]);
    expect(existsSync(join(b.memoryDir, 'deploy.md'))).toBe(true);
  });
});

describe('pull deleting in the graph on a server that lists only where it last wrote (fast test server)', () => {
  it('a pulled note deleted here, when the server moves to another group between the listing and the delete: the note stays known, and the next pull that sees the group deletes it (it does not come back)', async () => {
    const [a, b] = await linkedOnFalkorDb();
    a.write('gone.md', topic('Gone', 'To be deleted on B.'));
    a.write('stays.md', topic('Stays', 'Stays everywhere.'));
    await a.sync();
    await a.pull();
    await b.pull();
    rmSync(join(b.memoryDir, 'gone.md'));
    // Right after B's listing, someone's episode in another group moves the server.
    const move = (call: { tool: string }) => {
      if (call.tool !== 'get_episodes') return;
      machines.server.moveToGroup('team');
      machines.server.events.off('call', move);
    };
    machines.server.events.on('call', move);
    const missed = await b.pull();
    expect(missed.deletedInGraph).toBe(0);
    expect(machines.server.episodes('main').map((e) => e.name)).toContain('Gone');
    expect(existsSync(join(b.memoryDir, 'gone.md'))).toBe(false);
    // Still off the group: nothing happens, and nothing comes back.
    expect((await b.pull()).written).toEqual([]);
    expect(existsSync(join(b.memoryDir, 'gone.md'))).toBe(false);
    // The server back on the main group (as a write there brings it): the delete goes through, on B and then on A.
    machines.server.moveToGroup('main');
    const done = await b.pull();
    expect([done.deletedInGraph, done.written]).toEqual([1, []]);
    expect(machines.server.episodes('main').map((e) => e.name)).not.toContain('Gone');
    expect(existsSync(join(b.memoryDir, 'gone.md'))).toBe(false);
    expect((await a.pull()).removed).toEqual([join(a.memoryDir, 'gone.md')]);
  });
});

describe('a wiped graph on a server that lists only where it last wrote, put back as troubleshooting.md says (fast test server)', () => {
  it('one note written first brings the server onto the group; the pulls in between remove nothing, on either machine, and sync --force then sends every lost note once (EMPTIED_GROUP)', async () => {
    const [a, b] = await linkedOnFalkorDb();
    const lint = a.write('lint.md', topic('Lint', 'The lint runs on push.'));
    const deploy = a.write('deploy.md', topic('Deploy', 'Deploys go to Fly.io from the main branch.'));
    await a.sync();
    await b.pull();
    await a.pull();
    await machines.server.restart({ data: 'lost' });
    // The step the docs give: write or edit one note and let it sync first.
    a.write('test.md', topic('Test', 'Tests run with Vitest.'));
    await a.sync();
    await machines.server.whenIdle();
    const t0 = Date.now();
    const pulls = [await a.pull({ now: () => t0 }), await b.pull({ now: () => t0 }), await a.pull({ now: () => t0 + a.config().confirmMaxAgeMs + 60_000 })];
    expect(pulls.map((p) => p.removed)).toEqual([[], [], []]);
    expect([existsSync(lint), existsSync(deploy), existsSync(join(b.memoryDir, 'lint.md'))]).toEqual([true, true, true]);
    const forced = await runSync(a.config(), { force: true, waitMs: 5000 });
    expect(forced.resent).toBe(2);
    await machines.server.whenIdle();
    for (const name of ['Lint', 'Deploy', 'Test']) expect(machines.server.episodes('main').filter((e) => e.name === name)).toHaveLength(1);
    expect((await b.pull()).removed).toEqual([]);
    expect(readFileSync(join(b.memoryDir, 'deploy.md'), 'utf8')).toContain('Deploys go to Fly.io');
  });
});
