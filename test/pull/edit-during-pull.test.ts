/**
 * An edit saved while `pull` is about to write over the note (issue 42): the pull journals each write
 * (fsynced) between judging the file and writing it, and an edit made in that window is never
 * written over. The window is opened deterministically: the journal's open runs the edit first.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { usePullMachines } from '../helpers/use-pull-machines.js';
import { link, topic } from './homes.js';

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

const machines = usePullMachines();
const { make, pair } = machines;

describe('pull: an edit saved while pull writes', () => {
  it('an untouched copy edited between the judgement and the write is not written over; the next pull puts the newer version beside it', async () => {
    const a = make('laptop');
    const b = make('desktop');
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
