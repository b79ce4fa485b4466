/**
 * A laptop pointed at another server for a while, then back (state/server-of-record.ts
 * SERVER_OF_RECORD), with real Graphiti 0.31.2 on FalkorDB (stand-in LLM) as the home server and
 * the test server as the other one: what the home graph holds afterwards is judged on the real
 * server, whose deletes and listings the rule relies on (the fast case is
 * test/pull/another-server.test.ts). On cd4bacd the home graph kept the old version of the edited
 * note, lost the untouched note the other server's pull took for deleted, and never got the note
 * written meanwhile.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGraphitiServer, type GraphitiTestServer } from '../support/graphiti-server.js';
import { startRealGraphiti, type RealGraphiti } from '../support/real-graphiti.js';
import { link, machine, topic, type Machine } from '../pull/homes.js';
import { runPull } from '../../src/lib/pull/pull.js';
import { runSync } from '../../src/lib/sync/sync.js';
import { AWAY, awayAndBack } from '../pull/away-and-back.js';

const GENERATION = '0.31.2';
const GROUP = 'gms_moved';

describe(`a machine pointed at another server, then back: real Graphiti ${GENERATION} at home`, () => {
  let real: RealGraphiti;
  let other: GraphitiTestServer;
  const machines: Machine[] = [];
  const make = (place: string, remote = 'git@github.com:me/app.git') => {
    const m = machine({ url: real.url }, place, remote, { MADEINOZ_KNOWLEDGE_DB: 'falkordb', MADEINOZ_KNOWLEDGE_GROUP_ID: GROUP, MADEINOZ_KNOWLEDGE_TIMEOUT: '30000', MADEINOZ_KNOWLEDGE_RETRY_DEADLINE: '30000' }, 180_000);
    machines.push(m);
    return m;
  };
  /** The home graph's episodes as `name: last line of the body`, sorted. */
  const home = async () => (await real.query('MATCH (e:Episodic) RETURN e.name, e.content')).map(([name, content]) => `${String(name)}: ${String(content).split('\n').at(-1)}`).sort();

  beforeAll(async () => {
    real = await startRealGraphiti({ generation: GENERATION, transport: 'http', groupId: GROUP });
    other = await startGraphitiServer({ processingDelayMs: 0 });
  }, 600_000);
  afterAll(async () => {
    await other?.close();
    await real?.stop();
    for (const m of machines) m.box.cleanup();
  }, 60_000);

  it('nothing is taken for deleted on either server; back home the graph holds each note once, at its newest version', async () => {
    const laptop = make('laptop');
    const desktop = make('desktop/src');
    await link(laptop, desktop);
    const r = await awayAndBack(laptop, desktop, other.url, 5000);
    expect(r.there.removed).toEqual([]);
    expect(r.betaKeptThere).toBe(true);
    expect(r.back.removed).toEqual([]);
    expect(r.back.deletedInGraph).toBe(0);
    for (const file of Object.values(r.files)) expect(existsSync(file)).toBe(true);
    expect(await home()).toEqual([`Alpha: ${AWAY.alpha[1]}`, `Beta: ${AWAY.beta}`, `Gamma: ${AWAY.gamma}`, `Pai: ${AWAY.pai[1]}`]);
    expect(r.onDesktop.removed).toEqual([]);
    expect(readFileSync(join(desktop.memoryDir, 'alpha.md'), 'utf8')).toContain(AWAY.alpha[1]);
    expect(readFileSync(join(desktop.memoryDir, 'gamma.md'), 'utf8')).toContain(AWAY.gamma);
  });

  // pull/writer-back.ts MOVED_NOTE_WRITER_BACK, with the real server as the new one: its episodes'
  // created_at is what tells that the laptop has synced there since the desktop's first pull.
  it('both machines moved to this server, a note deleted on the laptop meanwhile: removed on the desktop once the laptop has synced here; the other stays', async () => {
    const laptop = make('laptop2', 'git@github.com:me/moved.git');
    const desktop = make('desktop2/src', 'git@github.com:me/moved.git');
    await link(laptop, desktop);
    const before = { MADEINOZ_KNOWLEDGE_MCP_URL: other.url };
    const drop = laptop.write('drop.md', topic('Drop', 'Basalt used Jenkins once.'));
    laptop.write('keep.md', topic('Keep', 'Basalt deploys through canary.'));
    await runSync(laptop.box.config(before), { waitMs: 5000 });
    await runPull(desktop.box.config(before), { env: { ...desktop.box.env, ...before } });
    const files = { keep: join(desktop.memoryDir, 'keep.md'), drop: join(desktop.memoryDir, 'drop.md') };
    expect(existsSync(files.keep) && existsSync(files.drop)).toBe(true);
    // The desktop moves first, ten minutes before the laptop syncs here: nothing listed, nothing removed.
    expect((await desktop.pull({ now: () => Date.now() - 10 * 60_000 })).removed).toEqual([]);
    rmSync(drop);
    await laptop.sync();
    const first = await desktop.pull();
    const later = await desktop.pull({ now: () => Date.now() + 2 * 3_600_000 });
    expect([...first.removed, ...later.removed]).toEqual([files.drop]);
    expect(existsSync(files.keep)).toBe(true);
  });
});
