/**
 * A note whose writer wrote part of it, paused longer than both of STABLE_READ's reads, then wrote
 * the rest (sync/mid-write.ts CUT_SHORT): a script or tool writing chunk by chunk, a model's output
 * streamed into the file. Both reads returned the same start and the stat held still, so the start
 * was sent as the note; cut inside the frontmatter, it was sent whole as text, a `private: true`
 * further down included. The run's clock and its settle wait are the test's (`now`, `sleep`: the
 * writer goes on during the wait), no sleeps.
 */
import { statSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runSync } from '../../src/lib/sync/sync.js';
import { cutShortWait, looksCut, MID_WRITE_SETTLE_MS } from '../../src/lib/sync/mid-write.js';
import type { GraphitiTestServer } from '../support/graphiti-server.js';
import { learning, type Sandbox } from '../support/sandbox.js';
import { useServerAndSandbox } from '../helpers/use-server-and-sandbox.js';

let server: GraphitiTestServer;
let box: Sandbox;
useServerAndSandbox((s, b) => {
  server = s;
  box = b;
});

const bodies = () => server.calls.filter((c) => c.tool === 'add_memory').map((c) => String(c.args.episode_body));
const NOTE = learning('Alpha', 'Alpha knows the deploy runs from the staging branch on Mondays, after the freeze.');
/** Where the writer paused: in the middle of a line. */
const MID_LINE = NOTE.indexOf(' on Mondays');
const PRIVATE = '---\nname: Vault\ndescription: where the keys are\nprivate: true\n---\nThe vault key sits in the blue binder in the second drawer.\n';
/** Where the writer paused: inside the frontmatter, before `private: true`. */
const IN_FRONTMATTER = PRIVATE.indexOf('private:');

/** The run's clock `afterMs` past the file's mtime, and a wait that lets the writer write the rest. */
function clockAfterWrite(file: string, afterMs: number, rest?: () => void) {
  const waits: number[] = [];
  let clock = statSync(file).mtimeMs + afterMs;
  return {
    waits,
    now: () => clock,
    sleep: async (ms: number) => {
      waits.push(ms);
      clock += ms;
      rest?.();
    },
  };
}

describe('a note whose writer paused after writing its start (CUT_SHORT)', () => {
  it('cut in the middle of a line, read 100 ms after the write: read again once still for the settle; only the whole note is sent', async () => {
    const file = box.pai('LEARNING/SYSTEM/alpha.md', NOTE.slice(0, MID_LINE));
    const run = clockAfterWrite(file, 100, () => writeFileSync(file, NOTE));
    expect(await runSync(box.config(), run)).toMatchObject({ added: 1 });
    expect(run.waits).toEqual([MID_WRITE_SETTLE_MS - 100]);
    expect(bodies()).toHaveLength(1);
    expect(bodies()[0]).toContain('staging branch on Mondays, after the freeze.');
  });

  it('cut inside the frontmatter, before `private: true`: nothing of the note leaves the machine', async () => {
    const file = box.pai('LEARNING/SYSTEM/vault.md', PRIVATE.slice(0, IN_FRONTMATTER));
    const run = clockAfterWrite(file, 10, () => writeFileSync(file, PRIVATE));
    expect(await runSync(box.config(), run)).toMatchObject({ added: 0, skipped: 1 });
    expect(run.waits).toEqual([MID_WRITE_SETTLE_MS - 10]);
    expect(server.calls.filter((c) => c.tool === 'add_memory')).toEqual([]);
  });

  it('an edit of a confirmed note cut short: the confirmed version stays until the whole edit is read; one version sent', async () => {
    const file = box.pai('LEARNING/SYSTEM/alpha.md', learning('Alpha', 'Alpha knows the deploy runs on Fridays.'));
    await runSync(box.config());
    await server.whenIdle();
    writeFileSync(file, NOTE.slice(0, MID_LINE));
    const run = clockAfterWrite(file, 400, () => writeFileSync(file, NOTE));
    expect(await runSync(box.config(), run)).toMatchObject({ updated: 1 });
    expect(run.waits).toEqual([MID_WRITE_SETTLE_MS - 400]);
    expect(bodies()).toHaveLength(2);
    expect(bodies()[1]).toContain('after the freeze.');
  });

  it('many notes being written at once: the run waits once for them all', async () => {
    const files = Array.from({ length: 20 }, (_, i) => box.pai(`LEARNING/SYSTEM/n${i}.md`, NOTE.slice(0, MID_LINE)));
    const newest = Math.max(...files.map((f) => statSync(f).mtimeMs));
    const waits: number[] = [];
    let clock = newest + 1;
    const summary = await runSync(box.config(), {
      now: () => clock,
      sleep: async (ms) => {
        waits.push(ms);
        clock += ms;
        for (const f of files) writeFileSync(f, NOTE);
      },
    });
    expect(waits).toHaveLength(1);
    expect(summary).toMatchObject({ added: 20 });
    expect(bodies().every((b) => b.includes('after the freeze.'))).toBe(true);
  });

  it('never waits for good: a note that really ends without a line break is sent after one wait, as it is', async () => {
    const text = NOTE.trimEnd();
    const file = box.pai('LEARNING/SYSTEM/alpha.md', text);
    const run = clockAfterWrite(file, 0);
    expect(await runSync(box.config(), run)).toMatchObject({ added: 1 });
    expect(run.waits).toEqual([MID_WRITE_SETTLE_MS]);
    expect(bodies()[0]).toContain('after the freeze.');
  });

  it('control: a whole note written just now (it ends with a line break, its frontmatter closed) is sent without a wait', async () => {
    const file = box.pai('LEARNING/SYSTEM/alpha.md', NOTE);
    const run = clockAfterWrite(file, 0);
    expect(await runSync(box.config(), run)).toMatchObject({ added: 1 });
    expect(run.waits).toEqual([]);
  });

  it('what cannot be told: the same start written longer ago than the settle is taken for the note (the next run sends the rest)', async () => {
    const file = box.pai('LEARNING/SYSTEM/alpha.md', NOTE.slice(0, MID_LINE));
    const run = clockAfterWrite(file, MID_WRITE_SETTLE_MS);
    expect(await runSync(box.config(), run)).toMatchObject({ added: 1 });
    expect(run.waits).toEqual([]);
  });
});

describe('looksCut and cutShortWait (the rule)', () => {
  const bytes = (s: string) => Buffer.from(s);
  it('no line break at the end, or a frontmatter block opened and never closed, looks cut; a whole note, a note without frontmatter, and an empty file (MID_WRITE\'s) do not', () => {
    expect(looksCut(bytes('---\nname: a\n---\nbody'))).toBe(true);
    expect(looksCut(bytes('---\nname: a\ndescr'))).toBe(true);
    expect(looksCut(bytes('---\nname: a\n'))).toBe(true);
    expect(looksCut(bytes('---\nname: a\n---\nbody\n'))).toBe(false);
    expect(looksCut(bytes('# Just markdown\n'))).toBe(false);
    expect(looksCut(bytes('--- Meeting notes ---\nbody\n'))).toBe(false);
    expect(looksCut(bytes('body\r\n'))).toBe(false);
    expect(looksCut(bytes(''))).toBe(false);
  });
  it('waits only while the write is younger than the settle, either way from now (a clock set back)', () => {
    const cut = bytes('body');
    expect(cutShortWait(cut, 1_000_000, 1_000_250)).toBe(MID_WRITE_SETTLE_MS - 250);
    expect(cutShortWait(cut, 1_000_000, 1_000_000 + MID_WRITE_SETTLE_MS)).toBeUndefined();
    expect(cutShortWait(cut, 1_000_300, 1_000_000)).toBe(MID_WRITE_SETTLE_MS - 300);
    expect(cutShortWait(bytes('body\n'), 1_000_000, 1_000_250)).toBeUndefined();
  });
});
