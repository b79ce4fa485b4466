/**
 * A server restarted without its data (sync/force-look.ts FORCE_LOOK and EMPTIED_GRAPH), on the
 * fake server taught what the real one does then (every group lists nothing:
 * test/real-graphiti/wiped-server.test.ts): the usual run believes the notes there, `--force` sends
 * them again once each, and the worker's refresh that finds nothing tells the next session the step.
 */
import { mkdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readGraphProblem, takeGraphProblemNote } from '../../src/lib/context/graph-problem.js';
import { collectStatus, formatStatus, formatSyncSummary } from '../../src/commands/reports.js';
import { nullLogger } from '../../src/lib/util/log.js';
import { runSync } from '../../src/lib/sync/sync.js';
import { startGraphitiServer, type GraphitiTestServer } from '../support/graphiti-server.js';
import { learning, makeSandbox, type Sandbox } from '../support/sandbox.js';
import { useServerAndSandbox } from '../helpers/use-server-and-sandbox.js';
import { sessionStartWorker } from '../support/worker-session.js';
import { detectProject } from '../../src/lib/context/project.js';
import { GraphitiClient } from '../../src/lib/graphiti/graphiti.js';

let server: GraphitiTestServer;
let box: Sandbox;
useServerAndSandbox((s, b) => {
  server = s;
  box = b;
});

const names = () => server.episodes('main').map((e) => e.name).sort();


/** One note confirmed, the server started again without its data, then a session start's worker in a project folder (returned). */
async function wipedAfterOneNote(): Promise<string> {
  const cwd = box.path('code', 'webapp');
  mkdirSync(cwd, { recursive: true });
  box.pai('LEARNING/2026-07/a.md', learning('Alpha', 'Alpha runs on Fastify.'));
  expect(await runSync(box.config(), { waitMs: 5000 })).toMatchObject({ confirmed: 1 });
  await server.restart({ data: 'lost' });
  await sessionStartWorker(box.config(), cwd);
  return cwd;
}

describe('a graph that lost its data behind the same address', () => {
  it('sync --force sends again, once each, what a complete listing no longer shows; nothing the graph still holds', async () => {
    box.pai('LEARNING/2026-07/a.md', learning('Alpha', 'Alpha runs on Fastify.'));
    box.pai('LEARNING/2026-07/b.md', learning('Beta', 'Beta stores rows in Postgres.'));
    expect(await runSync(box.config(), { waitMs: 5000 })).toMatchObject({ added: 2, confirmed: 2 });
    await server.restart({ data: 'lost' });
    expect(names()).toEqual([]);
    expect(await runSync(box.config())).toMatchObject({ unchanged: 2, resent: 0 });
    const forced = await runSync(box.config(), { force: true, waitMs: 5000 });
    expect(forced).toMatchObject({ resent: 2, confirmed: 2, failed: 0 });
    // Said as what happened: the graph lost them, the server dropped nothing (reports.ts RESENT_WORDS).
    expect(formatSyncSummary(forced)).toMatch(/^sent again 2 note\(s\) the graph no longer held/m);
    expect(formatSyncSummary(forced)).not.toContain('dropped');
    expect(names()).toEqual(['Alpha', 'Beta']);
    expect(await runSync(box.config(), { force: true, waitMs: 5000 })).toMatchObject({ resent: 0, confirmed: 2 });
    expect(names()).toEqual(['Alpha', 'Beta']);
    expect(server.calls.filter((c) => c.tool === 'add_memory')).toHaveLength(4);
  });

  it('the session start after an empty refresh names sync --force, once; a graph that still lists an episode says nothing', async () => {
    const cwd = await wipedAfterOneNote();
    const note = takeGraphProblemNote(box.config().stateDir);
    expect(note).toContain('holds none of the memory notes this machine sent to it (1 note in group main)');
    expect(note).toContain('sync --force`');
    expect(takeGraphProblemNote(box.config().stateDir)).toBeUndefined();
    // Put back, the next refresh clears it.
    await runSync(box.config(), { force: true, waitMs: 5000 });
    await sessionStartWorker(box.config(), cwd);
    expect(readGraphProblem(box.config().stateDir)).toBeUndefined();
  });

  it('status says the graph lost the notes and names sync --force until the command line\'s sync --force sent them again; its summary says what happened', async () => {
    const cwd = await wipedAfterOneNote();
    const before = formatStatus(await collectStatus(box.config(), nullLogger));
    expect(before).toMatch(/^Memory files: 1 \(confirmed 1,/m);
    expect(before).toMatch(/^Warning: since .* UTC the knowledge graph \(Graphiti\) holds none of the memory notes this machine sent to it \(1 note in group main\).* sync --force" sends them again, once each\.$/m);
    const { main } = await import('../../src/cli-main.js');
    let out = '';
    const code = await main(['sync', '--force', '--wait', '5000'], { stdout: (t) => void (out += t), stderr: () => undefined, isTTY: false, env: box.env, cwd });
    expect(code, out).toBe(0);
    expect(out).toMatch(/^sent again 1 note\(s\) the graph no longer held/m);
    expect(readGraphProblem(box.config().stateDir)).toBeUndefined();
    expect(formatStatus(await collectStatus(box.config(), nullLogger))).not.toContain('sync --force');
  });

  it('sync --force for another source (--source) sends none of these notes and leaves the warning in place', async () => {
    const cwd = await wipedAfterOneNote();
    const { main } = await import('../../src/cli-main.js');
    let out = '';
    const code = await main(['sync', '--force', '--source', 'auto-memory', '--wait', '5000'], { stdout: (t) => void (out += t), stderr: () => undefined, isTTY: false, env: box.env, cwd });
    expect(code, out).toBe(0);
    expect(out).not.toMatch(/sent again/);
    expect(readGraphProblem(box.config().stateDir)?.kind).toBe('emptied');
  });

  it('one worker pass over two projects: the one whose knowledge shows does not clear the warning naming the other\'s emptied group, in either order (EMPTIED_WARNING_OWNS_ITS_GROUPS)', async () => {
    // One group per project (auto-memory={project}); nothing in the shared group, so each project's block shows only its own group.
    const config = box.config({ MADEINOZ_KNOWLEDGE_SOURCE_GROUPS: 'auto-memory={project}' });
    const [a, b] = ['alpha-app', 'beta-app'].map((name) => {
      const cwd = box.path('code', name);
      mkdirSync(cwd, { recursive: true });
      return { cwd, project: detectProject(cwd, config) };
    }) as [{ cwd: string; project: ReturnType<typeof detectProject> }, { cwd: string; project: ReturnType<typeof detectProject> }];
    box.auto(a.project.key, 'stack.md', learning('Alpha stack', 'Alpha runs on Fastify.'));
    box.auto(b.project.key, 'stack.md', learning('Beta stack', 'Beta stores rows in Postgres.'));
    expect(await runSync(config, { waitMs: 5000 })).toMatchObject({ confirmed: 2 });
    const groupA = a.project.groupIds.at(-1) as string;
    // Alpha's group alone is cleared behind this machine's back (a wipe of that group).
    const client = new GraphitiClient(config);
    try {
      expect(await client.clearGroup(groupA)).toBe(true);
    } finally {
      await client.close();
    }
    expect(server.episodes(groupA)).toEqual([]);
    for (const order of [[a, b], [b, a]]) {
      await sessionStartWorker(config, order.map((p) => p.cwd));
      const problem = readGraphProblem(config.stateDir);
      expect(problem?.kind, order.map((p) => p.project.name).join(' then ')).toBe('emptied');
      expect(problem?.detail).toBe(`1 note in group ${groupA}`);
    }
    // Sent back (the engine's run, which clears nothing itself): Beta's refresh alone still does not
    // show Alpha's group; Alpha's does, and the warning is over.
    expect(await runSync(config, { force: true, waitMs: 5000 })).toMatchObject({ resent: 1 });
    await sessionStartWorker(config, [b.cwd]);
    expect(readGraphProblem(config.stateDir)?.kind).toBe('emptied');
    await sessionStartWorker(config, [a.cwd]);
    expect(readGraphProblem(config.stateDir)).toBeUndefined();
  });

  it('a graph emptied while a sync is in flight: the notes it had confirmed are told to the next session and status though the group lists newer ones; --force sends them again, once each, and ends it (LOST_SEEN_IN_PASSING)', async () => {
    const cwd = box.path('code', 'webapp');
    mkdirSync(cwd, { recursive: true });
    for (const name of ['Alpha', 'Beta', 'Gamma']) box.pai(`LEARNING/2026-07/${name}.md`, learning(name, `${name} runs on Fastify.`));
    expect(await runSync(box.config(), { waitMs: 5000 })).toMatchObject({ confirmed: 3 });
    server.setOptions({ processingDelayMs: 200 });
    for (const name of ['Delta', 'Epsilon', 'Zeta']) box.pai(`LEARNING/2026-07/${name}.md`, learning(name, `${name} runs on Hono.`));
    // The server starts again without its data while the sync's second note is in its queue.
    let adds = 0;
    const wipe = (c: { tool: string }) => {
      if (c.tool !== 'add_memory' || ++adds !== 2) return;
      server.events.off('call', wipe);
      void server.restart({ data: 'lost' });
    };
    server.events.on('call', wipe);
    const { main } = await import('../../src/cli-main.js');
    const cli = async (args: string[]) => {
      let out = '';
      const code = await main(args, { stdout: (t) => void (out += t), stderr: () => undefined, isTTY: false, env: { ...box.env, MADEINOZ_KNOWLEDGE_CONFIRM_MAX_AGE: '2000' }, cwd });
      await server.whenIdle();
      return { code, out };
    };
    expect((await cli(['sync', '--wait', '15000'])).code).toBe(0);
    // What the dead server's queue lost was sent again; what it had confirmed before is gone.
    expect(names()).toEqual(['Delta', 'Epsilon', 'Zeta']);
    await sessionStartWorker(box.config(), cwd);
    const note = takeGraphProblemNote(box.config().stateDir);
    expect(note).toContain('no longer holds memory notes this machine sent to it and it had confirmed (3 notes in group main)');
    expect(note).toContain('sync --force`');
    expect(formatStatus(await collectStatus(box.config(), nullLogger))).toMatch(/^Warning: since .* no longer holds memory notes .*\(3 notes in group main\).* sync --force" sends them again, once each\.$/m);
    const forced = await cli(['sync', '--force', '--wait', '5000']);
    expect(forced.code, forced.out).toBe(0);
    expect(forced.out).toMatch(/^sent again 3 note\(s\) the graph no longer held/m);
    expect(names()).toEqual(['Alpha', 'Beta', 'Delta', 'Epsilon', 'Gamma', 'Zeta']);
    expect(readGraphProblem(box.config().stateDir)).toBeUndefined();
  });

  it('a project with no facts in a graph that still holds our episode is not told anything', async () => {
    const cwd = box.path('code', 'webapp');
    mkdirSync(cwd, { recursive: true });
    server.setOptions({ maxFactsPerEpisode: 0, maxNodesPerEpisode: 0 });
    box.pai('LEARNING/2026-07/a.md', learning('Alpha', 'Alpha runs on Fastify.'));
    expect(await runSync(box.config(), { waitMs: 5000 })).toMatchObject({ confirmed: 1 });
    const listings = () => server.calls.filter((c) => c.tool === 'get_episodes').length;
    const before = listings();
    await sessionStartWorker(box.config(), cwd);
    expect(listings() - before).toBe(1); // the one small look (EMPTIED_GRAPH), and nothing to tell
    expect(readGraphProblem(box.config().stateDir)).toBeUndefined();
  });

  it('a server before 1.1 on FalkorDB, restarted with its data, lists none of our groups: --force sends nothing twice and nobody is told the graph is empty; once written to, a wiped group is put back by the next --force', async () => {
    // One group of ours, not the server's own (the real 0.28.2 lists it empty after any restart).
    const old = await startGraphitiServer({ processingDelayMs: 0, db: 'falkordb', lastWrittenGroup: true, deleteMode: 'node-only' });
    const home = makeSandbox(old.url, { MADEINOZ_KNOWLEDGE_DB: 'falkordb', MADEINOZ_KNOWLEDGE_GROUP_ID: 'mine' });
    try {
      const cwd = home.path('code', 'webapp');
      mkdirSync(cwd, { recursive: true });
      home.pai('LEARNING/2026-07/a.md', learning('Alpha', 'Alpha runs on Fastify.'));
      expect(await runSync(home.config(), { waitMs: 5000 })).toMatchObject({ confirmed: 1 });
      await old.restart();
      expect(await runSync(home.config(), { force: true, waitMs: 5000 })).toMatchObject({ resent: 0, confirmed: 1 });
      expect(old.episodes('mine').map((e) => e.name)).toEqual(['Alpha']);
      await sessionStartWorker(home.config(), cwd);
      expect(readGraphProblem(home.config().stateDir)).toBeUndefined();
      // Wiped: a listing that shows the server on the group (a new note processed there) proves the rest gone.
      await old.restart({ data: 'lost' });
      home.pai('LEARNING/2026-07/b.md', learning('Beta', 'Beta stores rows in Postgres.'));
      expect(await runSync(home.config(), { waitMs: 5000 })).toMatchObject({ added: 1, resent: 0, confirmed: 2 });
      expect(await runSync(home.config(), { force: true, waitMs: 5000 })).toMatchObject({ resent: 1, confirmed: 2 });
      expect(old.episodes('mine').map((e) => e.name).sort()).toEqual(['Alpha', 'Beta']);
    } finally {
      await old.close();
      home.cleanup();
    }
  });
});
