/**
 * One person's laptop pointed at another Graphiti server by mistake for a while (a project `.env`
 * naming a test server, a URL typed wrong), then back (exploratory QA, one person on several
 * machines): state/server-of-record.ts SERVER_OF_RECORD. On cd4bacd the pull on the other server
 * took every note it did not list for deleted elsewhere (an untouched note's file removed here),
 * and back on the first server it removed the note written meanwhile and deleted the removed
 * note's episode there, so both left every linked machine; the edits made meanwhile never reached
 * the first server, whose sessions kept the old versions.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startGraphitiServer } from '../support/graphiti-server.js';
import { usePullMachines } from '../helpers/use-pull-machines.js';
import { AWAY, awayAndBack } from './away-and-back.js';

const machines = usePullMachines();
/** Each episode as `name: last line of its body`, sorted. */
const graphOf = (server: { episodes(): Array<{ name: string; content: string }> }) => server.episodes().map((e) => `${e.name}: ${e.content.split('\n').at(-1)}`).sort();

describe('a machine pointed at another server, then back', () => {
  it('nothing is taken for deleted on either server; back on the first, it holds each note once, at its newest version, and the other machines get the notes written meanwhile', async () => {
    const [laptop, desktop] = await machines.pair();
    const other = await startGraphitiServer({ processingDelayMs: 0 });
    try {
      const r = await awayAndBack(laptop, desktop, other.url, 3000);
      expect(r.there.removed).toEqual([]);
      expect(r.there.deletedInGraph).toBe(0);
      expect(r.betaKeptThere).toBe(true);
      expect(r.back.removed).toEqual([]);
      expect(r.back.deletedInGraph).toBe(0);
      for (const file of Object.values(r.files)) expect(existsSync(file)).toBe(true);
      expect(graphOf(machines.server)).toEqual([`Alpha: ${AWAY.alpha[1]}`, `Beta: ${AWAY.beta}`, `Gamma: ${AWAY.gamma}`, `Pai: ${AWAY.pai[1]}`]);
      expect(r.onDesktop.removed).toEqual([]);
      expect(readFileSync(join(desktop.memoryDir, 'alpha.md'), 'utf8')).toContain(AWAY.alpha[1]);
      expect(readFileSync(join(desktop.memoryDir, 'gamma.md'), 'utf8')).toContain(AWAY.gamma);
      expect(existsSync(join(desktop.memoryDir, 'beta.md'))).toBe(true);
    } finally {
      await other.close();
    }
  });
});
