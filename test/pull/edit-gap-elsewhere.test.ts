/**
 * Whether another machine's edit may leave the graph without the note for a while
 * (graphiti/server-rules.ts EDIT_GAP_ELSEWHERE). The gap is made by the editing machine's order:
 * a sync that does not know the server's rules yet edits break-before-make (cautious), also on a
 * make-before-break server (0.31.2), e.g. when its own notes are still in the queue and the probe is
 * put off. A pull on a machine that knew the server was 0.31.2 took the note for deleted at once:
 * its copy and its MEMORY.md line removed, written back by the next pull once the edit was in.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SEMANTICS_FILE } from '../../src/lib/graphiti/server-rules.js';
import { runSync } from '../../src/lib/sync/sync.js';
import { usePullMachines } from '../helpers/use-pull-machines.js';
import { link, topic, type Machine } from './homes.js';

const machines = usePullMachines();
/** The fast server as graphiti-core 0.31.2 (MCP server 1.1.2): its tools do not tell its generation; only a probe does. */
const SERVER_0_31_2 = { deleteMode: 'detach', mainParams: true, graphPerGroup: true } as const;

const index = (m: Machine) => {
  const file = join(m.memoryDir, 'MEMORY.md');
  return existsSync(file) ? readFileSync(file, 'utf8') : '';
};

/** A (rules not known: it never deleted anything) and B, which knows the server is 0.31.2 (`rules`), linked; A's note pulled on B. */
async function pulledOnB(rules: Record<string, string>) {
  await machines.restartWith(SERVER_0_31_2);
  const a = machines.make('laptop');
  const b = machines.make('desktop/src', undefined, rules);
  await link(a, b);
  a.write('build.md', topic('Build', 'The build uses Bun.'));
  await a.sync();
  const fileB = join(b.memoryDir, 'build.md');
  expect((await b.pull()).written.map((w) => w.file)).toEqual([fileB]);
  return { a, b, fileB };
}

describe('a pull during an edit made elsewhere under the cautious rules, on a make-before-break server known here (EDIT_GAP_ELSEWHERE)', () => {
  it('A edits while its other note is still queued (the probe put off: old version deleted first); B, pinned to 0.31.2, keeps the copy and its line; the edit arrives', async () => {
    const { a, b, fileB } = await pulledOnB({ MADEINOZ_KNOWLEDGE_SERVER_RULES: '0.31.2' });
    machines.server.pauseProcessing();
    a.write('other.md', topic('Other', 'The lint runs on push.'));
    await runSync(a.config(), { waitMs: 0 });
    a.write('build.md', topic('Build', 'The build uses Bun 2.'));
    const edit = await runSync(a.config(), { waitMs: 0 });
    // The premise: A went by the cautious rules, and the graph holds no version of the note now.
    expect(edit.semantics).toMatchObject({ source: 'assumed', deleteRemoves: 'facts-first-created' });
    expect(machines.server.episodes('main').filter((e) => e.content.includes('The build uses Bun'))).toEqual([]);
    const during = await b.pull();
    expect([during.removed, during.absent]).toEqual([[], [fileB]]);
    expect(readFileSync(fileB, 'utf8')).toContain('The build uses Bun.');
    expect(index(b)).toContain('build.md');
    machines.server.resumeProcessing();
    await machines.server.whenIdle();
    await a.sync();
    const after = await b.pull();
    expect(after.written.map((w) => w.file)).toContain(fileB);
    expect(readFileSync(fileB, 'utf8')).toContain('The build uses Bun 2.');
  });

  it('a real deletion elsewhere still reaches B: after the patience', async () => {
    const { a, b, fileB } = await pulledOnB({ MADEINOZ_KNOWLEDGE_SERVER_RULES: '0.31.2' });
    rmSync(join(a.memoryDir, 'build.md'));
    await a.sync();
    const t0 = Date.now();
    expect((await b.pull({ now: () => t0 })).absent).toEqual([fileB]);
    expect((await b.pull({ now: () => t0 + b.config().confirmMaxAgeMs })).removed).toEqual([fileB]);
    expect(index(b)).not.toContain('build.md');
  });

  it('control: a server whose tools say it is 0.28.2 (every sync edits make-before-break there): a deletion elsewhere is taken at once', async () => {
    await machines.restartWith({ deleteMode: 'node-only' });
    const [a, b] = await machines.pair();
    a.write('build.md', topic('Build', 'The build uses Bun.'));
    await a.sync();
    const fileB = join(b.memoryDir, 'build.md');
    expect((await b.pull()).written.map((w) => w.file)).toEqual([fileB]);
    rmSync(join(a.memoryDir, 'build.md'));
    await a.sync();
    expect((await b.pull()).removed).toEqual([fileB]);
  });
});

describe('a pull reads the rules as they are known now, and records a sentinel it found answering (server-rules.ts IDLE_LOSS_EXPLAINED)', () => {
  it('B learnt the rules by a probe; a pull (under the state lock it holds) that finds the probe\'s sentinel answering records when, as a sync would', async () => {
    const { b } = await pulledOnB({});
    // B edits a note of its own: a run that replaces probes the server (PROBE_WHEN_NEEDED).
    b.write('lint.md', topic('Lint', 'The lint runs on push.'));
    await b.sync();
    b.write('lint.md', topic('Lint', 'The lint runs on every push.'));
    await b.sync();
    const rules = () => (JSON.parse(readFileSync(join(b.config().stateDir, SEMANTICS_FILE), 'utf8')) as { servers: Record<string, { answer?: { at: string; sentinelAnswered?: string } }> }).servers[b.config().mcpUrl]?.answer;
    // The premise: the probe answered, and no run since has found its sentinel answering.
    expect(rules()).toMatchObject({ at: expect.any(String) });
    expect(rules()?.sentinelAnswered).toBeUndefined();
    await b.pull();
    expect(rules()?.sentinelAnswered).toEqual(expect.any(String));
  });
});
