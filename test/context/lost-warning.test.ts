/**
 * The `lost` warning (sync/force-look.ts LOST_SEEN_IN_PASSING) over what happens after it, on the
 * fake server taught what the real one does when started again without its data:
 * - LOST_OWNS_ITS_NOTES (context/graph-problem.ts, context/lost-notes.ts): it names the notes, and
 *   lets each go once it is removed here or sent again; it held counts, and told every session of
 *   notes long gone;
 * - LOSS_OUTLIVES_OUTAGE: a server briefly unreachable after the loss (or before it) does not make
 *   the person forget it; an outage ends by itself, a loss only by its step.
 */
import { mkdirSync, renameSync, rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { clearEmptiedGraph, clearGraphProblem, readGraphProblem, recordEmptiedGraph, recordGraphProblem, recordLostSeen, takeGraphProblemNote } from '../../src/lib/context/graph-problem.js';
import type { GraphitiTestServer } from '../support/graphiti-server.js';
import { learning, type Sandbox } from '../support/sandbox.js';
import { useServerAndSandbox } from '../helpers/use-server-and-sandbox.js';
import { sessionStartWorker } from '../support/worker-session.js';

let server: GraphitiTestServer;
let box: Sandbox;
useServerAndSandbox((s, b) => {
  server = s;
  box = b;
});

const NOTES = ['Alpha', 'Beta', 'Gamma'];
const notePath = (name: string) => `LEARNING/2026-07/${name}.md`;

/** `graphiti-memory-sync <args>` in the test's process, as a person runs it. */
async function cli(args: string[], cwd: string): Promise<{ code: number; out: string }> {
  const { main } = await import('../../src/cli-main.js');
  let out = '';
  const code = await main(args, { stdout: (t) => void (out += t), stderr: () => undefined, isTTY: false, env: { ...box.env, MADEINOZ_KNOWLEDGE_CONFIRM_MAX_AGE: '2000' }, cwd });
  await server.whenIdle();
  return { code, out };
}

/** Three notes confirmed, then the graph emptied while a sync of three newer ones is in flight: the sync records the three as lost. */
async function lostWhileInFlight(): Promise<string> {
  const cwd = box.path('code', 'webapp');
  mkdirSync(cwd, { recursive: true });
  for (const name of NOTES) box.pai(notePath(name), learning(name, `${name} runs on Fastify.`));
  expect((await cli(['sync', '--wait', '5000'], cwd)).code).toBe(0);
  server.setOptions({ processingDelayMs: 200 });
  for (const name of ['Delta', 'Epsilon', 'Zeta']) box.pai(notePath(name), learning(name, `${name} runs on Hono.`));
  let adds = 0;
  const wipe = (c: { tool: string }) => {
    if (c.tool !== 'add_memory' || ++adds !== 2) return;
    server.events.off('call', wipe);
    void server.restart({ data: 'lost' });
  };
  server.events.on('call', wipe);
  expect((await cli(['sync', '--wait', '15000'], cwd)).code).toBe(0);
  server.setOptions({ processingDelayMs: 0 });
  expect(readGraphProblem(box.config().stateDir)).toMatchObject({ kind: 'lost', detail: '3 notes in group main' });
  return cwd;
}

describe('a lost warning names its notes (LOST_OWNS_ITS_NOTES)', () => {
  it('a note removed here leaves it, one sent again (edited) too; it ends with the last, and the session is told only of notes still missing', async () => {
    const cwd = await lostWhileInFlight();
    const stateDir = box.config().stateDir;
    // Removed here (by the person, or by pull for a deletion on a linked machine): the next sync forgets it.
    rmSync(box.path('pai', 'MEMORY', notePath('Alpha')));
    expect((await cli(['sync', '--wait', '5000'], cwd)).code).toBe(0);
    expect(readGraphProblem(stateDir)).toMatchObject({ kind: 'lost', detail: '2 notes in group main' });
    // Edited: its new version is sent, the knowledge is back.
    box.pai(notePath('Beta'), learning('Beta', 'Beta runs on Koa now.'));
    await sessionStartWorker(box.config(), cwd); // the worker's sync, as a session start runs it
    expect(readGraphProblem(stateDir)).toMatchObject({ kind: 'lost', detail: '1 note in group main' });
    const note = takeGraphProblemNote(stateDir);
    expect(note).toContain('(1 note in group main)');
    rmSync(box.path('pai', 'MEMORY', notePath('Gamma')));
    expect((await cli(['sync', '--wait', '5000'], cwd)).code).toBe(0);
    expect(readGraphProblem(stateDir)).toBeUndefined();
    // Nothing was sent twice: Beta's new version once, nothing of the removed notes.
    expect(server.episodes('main').map((e) => e.name).sort()).toEqual(['Beta', 'Delta', 'Epsilon', 'Zeta']);
  });

  it('a note renamed here still rests on the episode seen missing: the warning keeps it, as one note, not two (LOST_PART_IS_ITS_EPISODE; on 043cc918 it let it go)', async () => {
    const cwd = await lostWhileInFlight();
    const stateDir = box.config().stateDir;
    // The same text under a new name: a rename keeps the note's episode (plan.ts), under the new file's id.
    renameSync(box.path('pai', 'MEMORY', notePath('Alpha')), box.path('pai', 'MEMORY', notePath('Alpha-renamed')));
    expect((await cli(['sync', '--wait', '5000'], cwd)).code).toBe(0);
    expect(readGraphProblem(stateDir)).toMatchObject({ kind: 'lost', detail: '3 notes in group main' });
    // Seen missing again by a later listing, under its new id: the same note, no news.
    takeGraphProblemNote(stateDir);
    expect((await cli(['sync', '--wait', '5000'], cwd)).code).toBe(0);
    expect(readGraphProblem(stateDir)).toMatchObject({ kind: 'lost', detail: '3 notes in group main', told: true });
    // The warning is true: the renamed note is still missing from the graph.
    expect(server.episodes('main').map((e) => e.name)).not.toContain('Alpha');
  });

  it('a note seen lost again is no news, a newly lost one is: the warning is told again', () => {
    const stateDir = box.config().stateDir;
    mkdirSync(stateDir, { recursive: true });
    recordLostSeen(stateDir, [{ group: 'main', notes: 1, parts: [{ id: 'a', uuid: 'u1' }] }]);
    expect(takeGraphProblemNote(stateDir)).toContain('(1 note in group main)');
    recordLostSeen(stateDir, [{ group: 'main', notes: 1, parts: [{ id: 'a', uuid: 'u1' }] }]);
    expect(takeGraphProblemNote(stateDir)).toBeUndefined();
    recordLostSeen(stateDir, [{ group: 'main', notes: 1, parts: [{ id: 'b', uuid: 'u2' }] }]);
    expect(takeGraphProblemNote(stateDir)).toContain('(2 notes in group main)');
  });
});

describe('a loss outlives an outage, whichever comes first (LOSS_OUTLIVES_OUTAGE)', () => {
  it('the server unreachable after the loss: the next session is told the loss and its step, not that the server could not be reached', async () => {
    const cwd = await lostWhileInFlight();
    const stateDir = box.config().stateDir;
    await server.stop();
    await sessionStartWorker(box.config(), cwd); // its sync and refresh find the server unreachable
    expect(readGraphProblem(stateDir)?.kind).toBe('lost');
    const note = takeGraphProblemNote(stateDir);
    expect(note).toContain('no longer holds memory notes this machine sent to it and it had confirmed (3 notes in group main)');
    expect(note).toContain('sync --force`');
  });

  it('the loss seen while an outage is on record replaces it', () => {
    const stateDir = box.config().stateDir;
    mkdirSync(stateDir, { recursive: true });
    recordGraphProblem(stateDir, 'unreachable', '');
    recordLostSeen(stateDir, [{ group: 'main', notes: 1, parts: [{ id: 'a', uuid: 'u1' }] }]);
    expect(readGraphProblem(stateDir)).toMatchObject({ kind: 'lost', detail: '1 note in group main', told: false });
  });

  it('each outage kind leaves a lost or an emptied graph as it is, told or not; once the loss is over, an outage is recorded again', () => {
    const stateDir = box.config().stateDir;
    mkdirSync(stateDir, { recursive: true });
    const losses = { lost: () => recordLostSeen(stateDir, [{ group: 'main', notes: 1, parts: [{ id: 'a', uuid: 'u1' }] }]), emptied: () => recordEmptiedGraph(stateDir, [{ group: 'main', notes: 2 }]) };
    for (const [kind, record] of Object.entries(losses)) {
      for (const told of [false, true]) {
        clearGraphProblem(stateDir);
        record();
        if (told) takeGraphProblemNote(stateDir);
        const before = readGraphProblem(stateDir);
        expect(before).toMatchObject({ kind, told });
        for (const outage of ['unreachable', 'not-graphiti', 'searches-failing'] as const) recordGraphProblem(stateDir, outage, 'boom');
        expect(readGraphProblem(stateDir)).toEqual(before);
      }
      clearEmptiedGraph(stateDir); // sync --force ends the loss
      recordGraphProblem(stateDir, 'unreachable', '');
      expect(readGraphProblem(stateDir)?.kind).toBe('unreachable');
    }
  });
});
