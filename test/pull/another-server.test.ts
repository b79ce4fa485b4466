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
import { runPull } from '../../src/lib/pull/pull.js';
import { runSync } from '../../src/lib/sync/sync.js';
import { startGraphitiServer } from '../support/graphiti-server.js';
import { usePullMachines } from '../helpers/use-pull-machines.js';
import { topic } from './homes.js';

const machines = usePullMachines();
/** Each episode as `name: last line of its body`, sorted. */
const graphOf = (server: { episodes(): Array<{ name: string; content: string }> }) => server.episodes().map((e) => `${e.name}: ${e.content.split('\n').at(-1)}`).sort();

describe('a machine pointed at another server, then back', () => {
  it('nothing is taken for deleted on either server; back on the first, it holds each note once, at its newest version, and the other machines get the notes written meanwhile', async () => {
    const [laptop, desktop] = await machines.pair();
    const other = await startGraphitiServer({ processingDelayMs: 0 });
    try {
      const alpha = laptop.write('alpha.md', topic('Alpha', 'Alpha one.'));
      const beta = laptop.write('beta.md', topic('Beta', 'Beta one.'));
      laptop.box.pai('LEARNING/p.md', '# P\n\nPai one.\n');
      await laptop.sync();
      await laptop.pull();
      await desktop.pull();

      // Pointed at the other server: an edit, a new note, a PAI edit, synced there; the worker pulls there.
      const wrong = { MADEINOZ_KNOWLEDGE_MCP_URL: other.url };
      laptop.write('alpha.md', topic('Alpha', 'Alpha two.'));
      const gamma = laptop.write('gamma.md', topic('Gamma', 'Gamma one.'));
      laptop.box.pai('LEARNING/p.md', '# P\n\nPai two.\n');
      expect(await runSync(laptop.box.config(wrong), { waitMs: 3000 })).toMatchObject({ failed: 0, pending: 0 });
      const there = await runPull(laptop.box.config(wrong), { env: { ...laptop.box.env, ...wrong } });
      expect(there.removed).toEqual([]);
      expect(there.deletedInGraph).toBe(0);
      expect(existsSync(beta)).toBe(true);

      // Back on the first server.
      await laptop.sync();
      const back = await laptop.pull();
      await laptop.sync();
      expect(back.removed).toEqual([]);
      expect(back.deletedInGraph).toBe(0);
      for (const file of [alpha, beta, gamma]) expect(existsSync(file)).toBe(true);
      expect(graphOf(machines.server)).toEqual(['Alpha: Alpha two.', 'Beta: Beta one.', 'Gamma: Gamma one.', 'P: Pai two.']);
      const onDesktop = await desktop.pull();
      expect(onDesktop.removed).toEqual([]);
      expect(readFileSync(join(desktop.memoryDir, 'alpha.md'), 'utf8')).toContain('Alpha two.');
      expect(readFileSync(join(desktop.memoryDir, 'gamma.md'), 'utf8')).toContain('Gamma one.');
      expect(existsSync(join(desktop.memoryDir, 'beta.md'))).toBe(true);
    } finally {
      await other.close();
    }
  });
});
