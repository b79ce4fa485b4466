/**
 * LOST_SEEN_IN_PASSING (sync/force-look.ts) under `watch`: a pass whose listing no longer shows
 * notes this machine had confirmed records the line the next session is told
 * (context/graph-problem.ts `recordLostSeen`), as the worker does. Recording it must not cost the
 * pass, nor the worker's sync: the same rule as the set-aside line (test/watch/set-aside-told.test.ts).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GRAPH_PROBLEM_FILE, readGraphProblem, recordGraphProblem, takeGraphProblemNote } from '../../src/lib/context/graph-problem.js';
import { runSync } from '../../src/lib/sync/sync.js';
import { createLogger, nullLogger } from '../../src/lib/util/log.js';
import { realSteps } from '../../src/hooks/worker.js';
import { runWorker } from '../../src/lib/worker/loop.js';
import { PassProcess } from '../../src/lib/watch/pass-process.js';
import type { GraphitiTestServer } from '../support/graphiti-server.js';
import { learning, type Sandbox } from '../support/sandbox.js';
import { useServerAndSandbox } from '../helpers/use-server-and-sandbox.js';

let server: GraphitiTestServer;
let box: Sandbox;
useServerAndSandbox((s, b) => {
  server = s;
  box = b;
});

/** A note confirmed, the graph emptied behind the same address, a new note sent and not yet confirmed: the next pass lists the group. */
async function lostBeforeAPass(): Promise<void> {
  box.pai('LEARNING/2026-07/a.md', learning('Alpha', 'Alpha runs on Fastify.'));
  expect(await runSync(box.config(), { waitMs: 5000 })).toMatchObject({ confirmed: 1 });
  await server.restart({ data: 'lost' });
  box.pai('LEARNING/2026-07/b.md', learning('Beta', 'Beta stores rows in Postgres.'));
  expect(await runSync(box.config())).toMatchObject({ added: 1 });
  await server.whenIdle();
}

async function onePass(): Promise<Awaited<ReturnType<PassProcess['run']>>> {
  const passes = new PassProcess({ config: box.config(), logger: createLogger({ level: 'silent' }), lockTimeoutMs: 5000, idleMs: 60_000 });
  try {
    return await passes.run(new AbortController().signal);
  } finally {
    await passes.close();
  }
}

describe("what a watch pass's listing no longer shows", () => {
  it('is recorded for the next session', async () => {
    await lostBeforeAPass();
    const summary = await onePass();
    // Since LOST_OWNS_ITS_NOTES the summary also names the note's part (its id and the episode seen missing).
    expect(summary.lostSeen).toMatchObject([{ group: 'main', notes: 1, parts: [{ id: expect.any(String), uuid: expect.any(String) }] }]);
    expect(readGraphProblem(box.config().stateDir)).toMatchObject({ kind: 'lost', groups: [{ group: 'main', notes: 1 }] });
  }, 30_000);

  it("a line that cannot be recorded costs the pass nothing: it ends with its summary, as the worker's does (on 6acbf28 the error ended the pass process: the pass failed, its summary lost)", async () => {
    await lostBeforeAPass();
    // Where the session's line goes, something that cannot be replaced by a file.
    mkdirSync(join(box.config().stateDir, GRAPH_PROBLEM_FILE, 'in-the-way'), { recursive: true });
    const summary = await onePass();
    expect(summary).toMatchObject({ serverReachable: true, lostSeen: [{ group: 'main', notes: 1 }] });
  }, 30_000);

  it("nor the worker's sync step: it gives its summary, not an error that counts the sync failed (on 6acbf28 it threw)", async () => {
    await lostBeforeAPass();
    mkdirSync(join(box.config().stateDir, GRAPH_PROBLEM_FILE, 'in-the-way'), { recursive: true });
    const steps = realSteps(box.config(), nullLogger);
    try {
      await expect(steps.sync(box.config(), { logger: nullLogger, signal: new AbortController().signal })).resolves.toMatchObject({ serverReachable: true });
    } finally {
      await steps.close();
    }
  }, 30_000);

  it('an outage on record from before does not swallow it: the sync that listed the group reached the server, and the refresh that ends the outage then would leave the loss untold (on 6acbf28 nothing was told)', async () => {
    const cwd = box.path('code', 'webapp');
    mkdirSync(cwd, { recursive: true });
    await lostBeforeAPass();
    // An earlier worker pass found the server down (it was restarting without its data).
    recordGraphProblem(box.config().stateDir, 'unreachable', 'connect ECONNREFUSED 127.0.0.1');
    // A Stop's pass: the new note to confirm lists the group, then the refresh works.
    const steps = realSteps(box.config(), nullLogger);
    try {
      await runWorker({ config: box.config(), logger: nullLogger, steps, initial: [{ cwd, reason: 'stop' }] });
    } finally {
      await steps.close();
    }
    expect(takeGraphProblemNote(box.config().stateDir) ?? 'nothing told').toContain('no longer holds memory notes this machine sent to it and it had confirmed (1 note in group main)');
  }, 30_000);

  it("nor the command line's sync: it prints its summary and exits 0 (on 6acbf28 it ended with the error, the sync's summary unsaid)", async () => {
    await lostBeforeAPass();
    mkdirSync(join(box.config().stateDir, GRAPH_PROBLEM_FILE, 'in-the-way'), { recursive: true });
    const { main } = await import('../../src/cli-main.js');
    let out = '';
    const code = await main(['sync', '--json'], { stdout: (t) => void (out += t), stderr: () => undefined, isTTY: false, env: box.env, cwd: box.path() });
    expect(code).toBe(0);
    expect(JSON.parse(out)).toMatchObject({ lostSeen: [{ group: 'main', notes: 1 }] });
  }, 30_000);
  it("a later refresh that finds another group emptied keeps this group's loss told beside it (LOSS_PER_GROUP; on 539ca3f5 the emptied group replaced it)", async () => {
    const cwd = box.path('code', 'webapp');
    mkdirSync(cwd, { recursive: true });
    await lostBeforeAPass();
    const steps = realSteps(box.config(), nullLogger);
    try {
      // The worker's sync lists the group and records the loss; its refresh of another project then finds that project's group listing nothing.
      await steps.sync(box.config(), { logger: nullLogger, signal: new AbortController().signal });
      expect(readGraphProblem(box.config().stateDir)).toMatchObject({ kind: 'lost', detail: '1 note in group main' });
      steps.graphSeen?.(box.config(), { shown: ['main'], listed: [], emptied: [{ group: 'team_other', notes: 2 }] });
    } finally {
      await steps.close();
    }
    const note = takeGraphProblemNote(box.config().stateDir) ?? 'nothing told';
    expect(note).toContain('2 notes in group team_other');
    expect(note).toContain('no longer holds others it had confirmed (1 note in group main)');
  }, 30_000);
});
