/**
 * A note whose name is spelt in another Unicode form on the other machine (exploratory QA): macOS
 * hands out `cafe\u0301.md` (NFD), Linux keeps `caf\u00e9.md` (NFC), and a copy tool or a disk may
 * turn one into the other. The path is compared byte for byte (the file id, the note tag's path),
 * so the other form is a rename: the machine that sees it sends the note under its new name, and
 * the other machine, at its next pull, takes the new name and lets the old one go. It ends with one
 * file on each machine and one note in the graph, and stays there: nothing doubled, nothing lost,
 * no rename back and forth.
 */
import { readdirSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { usePullMachines } from '../helpers/use-pull-machines.js';
import { topic, type Machine } from './homes.js';

const machines = usePullMachines();
const NFD = 'cafe\u0301.md';
const NFC = 'caf\u00e9.md';
const BODY = 'The cafe opens at nine.';
const TEXT = topic('Cafe', BODY);

/** The memory files of a machine besides its MEMORY.md index, each with whether it holds the note (a pulled copy has a footer more). */
const notesOf = (m: Machine) => readdirSync(m.memoryDir).filter((n) => n !== 'MEMORY.md').map((n) => [n, readFileSync(join(m.memoryDir, n), 'utf8').includes(BODY)]);
const adds = () => machines.server.calls.filter((c) => c.tool === 'add_memory').length;

describe('pull: a note name in another Unicode form on the other machine', () => {
  it('NFD sent from one machine, turned NFC by the disk on the other: one file each, one note in the graph, and it stays so', async () => {
    const [a, b] = await machines.pair();
    a.write(NFD, TEXT);
    await a.sync();
    await b.pull();
    await b.sync();
    expect(notesOf(b)).toEqual([[NFD, true]]);
    renameSync(join(b.memoryDir, NFD), join(b.memoryDir, NFC));
    await b.sync();
    for (const m of [a, b, a, b]) {
      await m.pull();
      await m.sync();
    }
    expect(notesOf(a)).toEqual([[NFC, true]]);
    expect(notesOf(b)).toEqual([[NFC, true]]);
    expect(machines.server.episodes('main').map((e) => e.name)).toEqual(['Cafe']);
    // Settled: another round on both machines writes, removes and sends nothing.
    const sent = adds();
    for (const m of [a, b]) expect(await m.pull()).toMatchObject({ written: [], removed: [], copies: [] });
    for (const m of [a, b]) await m.sync();
    expect(adds()).toBe(sent);
    expect(notesOf(a)).toEqual([[NFC, true]]);
    expect(notesOf(b)).toEqual([[NFC, true]]);
  });
});
