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
import { startGraphitiServer, type GraphitiTestServer } from '../support/graphiti-server.js';
import { startRealGraphiti, type RealGraphiti } from '../support/real-graphiti.js';
import { link, machine, type Machine } from '../pull/homes.js';
import { AWAY, awayAndBack } from '../pull/away-and-back.js';

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
});
