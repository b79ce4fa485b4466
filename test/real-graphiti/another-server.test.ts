/**
 * A laptop pointed at another server for a while, then back (state/server-of-record.ts
 * SERVER_OF_RECORD), with real Graphiti 0.31.2 on FalkorDB (stand-in LLM) as the home server and
 * the test server as the other one: what the home graph holds afterwards is judged on the real
 * server, whose deletes and listings the rule relies on (the fast case is
 * test/pull/another-server.test.ts). On cd4bacd the home graph kept the old version of the edited
 * note, lost the untouched note the other server's pull took for deleted, and never got the note
 * written meanwhile.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPull } from '../../src/lib/pull/pull.js';
import { runSync } from '../../src/lib/sync/sync.js';
import { startGraphitiServer, type GraphitiTestServer } from '../support/graphiti-server.js';
import { startRealGraphiti, type RealGraphiti } from '../support/real-graphiti.js';
import { link, machine, topic, type Machine } from '../pull/homes.js';

const GENERATION = '0.31.2';
const GROUP = 'gms_moved';

describe(`a machine pointed at another server, then back: real Graphiti ${GENERATION} at home`, () => {
  let real: RealGraphiti;
  let other: GraphitiTestServer;
  const machines: Machine[] = [];
  const make = (place: string) => {
    const m = machine({ url: real.url }, place, 'git@github.com:me/app.git', { MADEINOZ_KNOWLEDGE_DB: 'falkordb', MADEINOZ_KNOWLEDGE_GROUP_ID: GROUP, MADEINOZ_KNOWLEDGE_TIMEOUT: '30000', MADEINOZ_KNOWLEDGE_RETRY_DEADLINE: '30000' }, 180_000);
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
    const alpha = laptop.write('alpha.md', topic('Alpha', 'Basalt deploys through staging.'));
    const beta = laptop.write('beta.md', topic('Beta', 'Aurora stores sessions in Redis.'));
    laptop.box.pai('LEARNING/p.md', '# Pai\n\nThe CI runs on Node 20.\n');
    await laptop.sync();
    await laptop.pull();
    await desktop.pull();

    const wrong = { MADEINOZ_KNOWLEDGE_MCP_URL: other.url };
    laptop.write('alpha.md', topic('Alpha', 'Basalt deploys through canary.'));
    const gamma = laptop.write('gamma.md', topic('Gamma', 'Quartz caches builds in S3.'));
    laptop.box.pai('LEARNING/p.md', '# Pai\n\nThe CI runs on Node 22.\n');
    expect(await runSync(laptop.box.config(wrong), { waitMs: 5000 })).toMatchObject({ failed: 0, pending: 0 });
    const there = await runPull(laptop.box.config(wrong), { env: { ...laptop.box.env, ...wrong } });
    expect(there.removed).toEqual([]);
    expect(existsSync(beta)).toBe(true);

    await laptop.sync();
    const back = await laptop.pull();
    await laptop.sync();
    expect(back.removed).toEqual([]);
    expect(back.deletedInGraph).toBe(0);
    for (const file of [alpha, beta, gamma]) expect(existsSync(file)).toBe(true);
    expect(await home()).toEqual(['Alpha: Basalt deploys through canary.', 'Beta: Aurora stores sessions in Redis.', 'Gamma: Quartz caches builds in S3.', 'Pai: The CI runs on Node 22.']);
    const onDesktop = await desktop.pull();
    expect(onDesktop.removed).toEqual([]);
    expect(readFileSync(join(desktop.memoryDir, 'alpha.md'), 'utf8')).toContain('through canary');
    expect(readFileSync(join(desktop.memoryDir, 'gamma.md'), 'utf8')).toContain('Quartz');
  });
});
