/**
 * One person's laptop pointed at another Graphiti server by mistake for a while (a project `.env`
 * naming a test server, a URL typed wrong), then back (exploratory QA, one person on several
 * machines): state/server-of-record.ts SERVER_OF_RECORD. On cd4bacd the pull on the other server
 * took every note it did not list for deleted elsewhere (an untouched note's file removed here),
 * and back on the first server it removed the note written meanwhile and deleted the removed
 * note's episode there, so both left every linked machine; the edits made meanwhile never reached
 * the first server, whose sessions kept the old versions.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startGraphitiServer } from '../support/graphiti-server.js';
import { usePullMachines } from '../helpers/use-pull-machines.js';
import { runPull } from '../../src/lib/pull/pull.js';
import { serverOfRecord } from '../../src/lib/state/server-of-record.js';
import { createLogger } from '../../src/lib/util/log.js';
import { AWAY, awayAndBack } from './away-and-back.js';
import { runSync } from '../../src/lib/sync/sync.js';
import { topic, type Machine } from './homes.js';

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

  it('the warning of the first listing of another server names the server pull listed before (on 7a49815 its `before` was read after the ledger took the new one: always empty)', async () => {
    const [laptop] = await machines.pair();
    laptop.write('alpha.md', topic('Alpha', AWAY.alpha[0]));
    await laptop.sync();
    await laptop.pull();
    const other = await startGraphitiServer({ processingDelayMs: 0 });
    try {
      const wrong = { MADEINOZ_KNOWLEDGE_MCP_URL: other.url };
      const lines: Array<Record<string, unknown>> = [];
      const logger = createLogger({ level: 'warn', mirror: (line) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
      await runPull(laptop.box.config(wrong), { env: { ...laptop.box.env, ...wrong }, logger });
      const warning = lines.find((l) => String(l.msg).startsWith('another server than the one pull last listed'));
      expect(warning?.server).toBe(serverOfRecord(laptop.box.config(wrong)));
      expect(warning?.before).toBe(serverOfRecord(laptop.config()));
      expect(warning?.before).not.toBe(warning?.server);
    } finally {
      await other.close();
    }
  });
});

/**
 * MOVED_NOTE_WRITER_BACK (pull/writer-back.ts): both machines move to a new server for good; the
 * desktop pulls there first (nothing listed: every note marked lost, nothing removed); the laptop
 * deletes one of its notes on purpose, then syncs there. On 7a49815 the deleted note's copy stayed on
 * the desktop for good (never listed again, its mark never taken off).
 */
describe('two linked machines moved to a new server, a note deleted on one meanwhile', () => {
  const HOUR = 3_600_000;
  async function moved(test: (s: { laptop: Machine; desktop: Machine; there: (m: Machine) => { sync(): Promise<unknown>; pull(now?: number): ReturnType<typeof runPull> }; files: { keep: string; drop: string } }) => Promise<void>) {
    const [laptop, desktop] = await machines.pair();
    const other = await startGraphitiServer({ processingDelayMs: 0 });
    const away = { MADEINOZ_KNOWLEDGE_MCP_URL: other.url };
    const there = (m: Machine) => ({
      sync: () => runSync(m.box.config(away), { waitMs: 3000 }),
      pull: (now?: number) => runPull(m.box.config(away), { env: { ...m.box.env, ...away }, ...(now === undefined ? {} : { now: () => now }) }),
    });
    try {
      const dropOnLaptop = laptop.write('drop.md', topic('Drop', 'Basalt used Jenkins once.'));
      laptop.write('keep.md', topic('Keep', 'Basalt deploys through canary.'));
      await laptop.sync();
      await desktop.pull();
      const files = { keep: join(desktop.memoryDir, 'keep.md'), drop: join(desktop.memoryDir, 'drop.md') };
      expect(existsSync(files.drop) && existsSync(files.keep)).toBe(true);
      // The desktop moves first (ten minutes before the laptop syncs there): nothing listed, nothing removed.
      expect((await there(desktop).pull(Date.now() - 10 * 60_000)).removed).toEqual([]);
      rmSync(dropOnLaptop);
      await test({ laptop, desktop, there, files });
    } finally {
      await other.close();
    }
  }

  it('once the laptop has synced there, the deleted note is removed on the desktop too (as any deletion elsewhere); the other stays', async () => {
    await moved(async ({ laptop, desktop, there, files }) => {
      await there(laptop).sync();
      // Removed at once or after the group's patience, as any note deleted elsewhere (this server's rules decide which).
      const first = await there(desktop).pull();
      const later = await there(desktop).pull(Date.now() + 2 * HOUR);
      expect([...first.removed, ...later.removed]).toEqual([files.drop]);
      expect(existsSync(files.drop)).toBe(false);
      expect(existsSync(files.keep)).toBe(true);
    });
  });

  it('control: while the laptop has not synced there, nothing is removed however long the desktop waits (nothing lost)', async () => {
    await moved(async ({ desktop, there, files }) => {
      await there(desktop).pull(Date.now() + HOUR);
      expect((await there(desktop).pull(Date.now() + 48 * HOUR)).removed).toEqual([]);
      expect(existsSync(files.drop) && existsSync(files.keep)).toBe(true);
    });
  });
});
