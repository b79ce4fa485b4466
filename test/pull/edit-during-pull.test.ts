/**
 * An edit saved while `pull` is about to write over the note (issue 42): the pull journals each write
 * (fsynced) between judging the file and writing it, and an edit made in that window is never
 * written over. The window is opened deterministically: the journal's open runs the edit first.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startGraphitiServer, type GraphitiTestServer } from '../support/graphiti-server.js';
import { link, machine, topic, type Machine } from './homes.js';

const onJournalOpen: { run: (() => void) | undefined } = { run: undefined };
vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>();
  const open: typeof real.open = async (...args) => {
    if (String(args[0]).endsWith('pulled.writing.jsonl')) {
      const run = onJournalOpen.run;
      onJournalOpen.run = undefined;
      run?.();
    }
    return real.open(...args);
  };
  return { ...real, open, default: { ...real, open } };
});

let server: GraphitiTestServer;
const machines: Machine[] = [];
beforeEach(async () => {
  server = await startGraphitiServer({ processingDelayMs: 0 });
});
afterEach(async () => {
  await server.close();
  for (const m of machines.splice(0)) m.box.cleanup();
});

describe('pull: an edit saved while pull writes', () => {
  it('an untouched copy edited between the judgement and the write is not written over; the next pull puts the newer version beside it', async () => {
    const a = machine(server, 'laptop');
    const b = machine(server, 'desktop');
    machines.push(a, b);
    await link(a, b);
    a.write('n.md', topic('N', 'First.'));
    await a.sync();
    await b.pull();
    a.write('n.md', topic('N', 'Second, from A.'));
    await a.sync();
    onJournalOpen.run = () => b.write('n.md', topic('N', 'First, and an edit saved on B just now.'));
    const r = await b.pull();
    expect(onJournalOpen.run).toBeUndefined();
    expect(r.written).toEqual([]);
    expect(readFileSync(join(b.memoryDir, 'n.md'), 'utf8')).toContain('an edit saved on B just now');
    const next = await b.pull();
    expect(next.copies.map((c) => c.why)).toEqual(['both-changed']);
    expect(readFileSync(join(b.memoryDir, 'n.md'), 'utf8')).toContain('an edit saved on B just now');
  });
});
