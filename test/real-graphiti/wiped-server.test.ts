/**
 * A server restarted without its data behind the same address (a docker volume removed, a FalkorDB
 * without persistence), on the real server (0.31.2) with the stand-in LLM: the state still calls
 * every note confirmed; the worker of the next session start notices the empty graph and the session
 * after it names the step (EMPTIED_GRAPH), and `sync --force` puts them back, each once
 * (sync/force-look.ts FORCE_LOOK); wiped while a sync is in flight, what the group no longer shows
 * of the notes it had confirmed is told as well (LOST_SEEN_IN_PASSING). Judged by what the graph and
 * the session context show.
 */
import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, runCli, startRealGraphiti, type RealGraphiti } from '../support/real-graphiti.js';
import { learning, makeSandbox, type Sandbox } from '../support/sandbox.js';
import { sessionStartWorker, workerSessionStart } from '../support/worker-session.js';
import { readGraphProblem, takeGraphProblemNote } from '../../src/lib/context/graph-problem.js';
import { nullLogger } from '../../src/lib/util/log.js';
import { GraphitiClient } from '../../src/lib/graphiti/graphiti.js';

const GROUP = 'gms_wiped';
const WAIT = ['--wait', '90000'];

describe('a server restarted without its data (real 0.31.2, stand-in LLM)', () => {
  let real: RealGraphiti;
  let box: Sandbox;
  beforeAll(async () => {
    real = await startRealGraphiti({ generation: '0.31.2', transport: 'http', groupId: GROUP });
    box = makeSandbox(real.url, { MADEINOZ_KNOWLEDGE_DB: 'falkordb', MADEINOZ_KNOWLEDGE_GROUP_ID: GROUP, MADEINOZ_KNOWLEDGE_TIMEOUT: '30000', MADEINOZ_KNOWLEDGE_RETRY_DEADLINE: '30000' });
  }, 600_000);
  afterAll(async () => {
    await real?.stop();
    box?.cleanup();
  }, 60_000);

  const sync = async (args: string[]) => {
    const run = await runCli(box.env, ['sync', '--json', ...args]);
    try {
      return JSON.parse(run.stdout) as { added: number; resent: number; unchanged: number; confirmed: number; queued: number; failed: number; listing: { requests: number } };
    } catch {
      throw new Error(`sync printed no JSON (exit ${run.code}): ${run.stdout}${run.stderr}`);
    }
  };
  /** The detached worker a session start triggers (its loop: sync, pull, context refresh, what it saw of the graph). */
  const worker = (cwd: string) => sessionStartWorker(box.config(), cwd);
  const facts = async () => (await real.query('MATCH ()-[e:RELATES_TO]->() RETURN e.fact')).map((row) => String(row[0]));

  it('the next session is told the step; sync --force sends again, once each, the notes the wiped graph lost; the session context has them again', async () => {
    const cwd = box.path('code', 'zephyr');
    mkdirSync(cwd, { recursive: true });
    box.pai('LEARNING/2026-07/z.md', learning('Zephyr bus', 'Zephyr uses Kafka for the event bus.'));
    box.pai('LEARNING/2026-07/y.md', learning('Yak logs', 'Yak stores its logs in Loki.'));
    expect(await sync(WAIT)).toMatchObject({ added: 2, confirmed: 2, queued: 0, failed: 0 });
    await eventually('the facts are extracted', async () => (await facts()).includes('Zephyr uses Kafka for the event bus.'));
    expect(await workerSessionStart(box.config(), cwd)).toContain('Zephyr uses Kafka for the event bus.');

    // The server comes back on the same address with an empty database.
    await real.stopServer();
    await real.query('MATCH (n) DETACH DELETE n');
    await real.startServer();
    expect(await real.episodeNames()).toEqual([]);
    // A usual run does not look at what is confirmed (that would cost the server a listing every run).
    expect(await sync([])).toMatchObject({ unchanged: 2, resent: 0, listing: { requests: 0 } });
    // The next session start's worker finds nothing, asks the graph for one episode of the group
    // (sync/force-look.ts EMPTIED_GRAPH), and the session after it is told the step, once.
    await worker(cwd);
    const note = takeGraphProblemNote(box.config().stateDir);
    expect(note).toContain('holds none of the memory notes this machine sent to it (2 notes in group gms_wiped)');
    expect(note).toContain('sync --force`');
    expect(takeGraphProblemNote(box.config().stateDir)).toBeUndefined();

    const forced = await sync(WAIT);
    expect(forced).toMatchObject({ resent: 0 }); // --wait alone is not --force
    const again = await sync(['--force', ...WAIT]);
    expect(again).toMatchObject({ resent: 2, confirmed: 2, queued: 0, failed: 0 });
    expect(await real.episodeNames()).toEqual(['Yak logs', 'Zephyr bus']);
    await eventually('the facts are extracted again', async () => (await facts()).includes('Zephyr uses Kafka for the event bus.'));
    expect(await workerSessionStart(box.config(), cwd)).toContain('Zephyr uses Kafka for the event bus.');
    await worker(cwd);
    expect(readGraphProblem(box.config().stateDir)).toBeUndefined();

    // Exactly once: a second --force finds both in place and sends nothing.
    expect(await sync(['--force', ...WAIT])).toMatchObject({ resent: 0, added: 0, confirmed: 2 });
    expect(await real.episodeNames()).toEqual(['Yak logs', 'Zephyr bus']);
  }, 400_000);

  it('emptied while a sync is in flight: the group lists the notes sent after, yet the next session is told what the graph lost, and --force puts it back once (LOST_SEEN_IN_PASSING)', async () => {
    const cwd = box.path('code', 'zephyr');
    const env = { ...box.env, MADEINOZ_KNOWLEDGE_CONFIRM_MAX_AGE: '5000' };
    box.pai('LEARNING/2026-07/a.md', learning('Auk queue', 'Auk queues jobs in RabbitMQ.'));
    box.pai('LEARNING/2026-07/b.md', learning('Bison cache', 'Bison caches pages in Varnish.'));
    const release = real.llm.hold('Auk'); // the wipe comes while the first new note is in extraction
    const inFlight = runCli(env, ['sync', '--json', ...WAIT]);
    try {
      await eventually('a new note is in extraction', () => real.llm.held() > 0);
      await real.stopServer();
      await real.query('MATCH (n) DETACH DELETE n');
      await real.startServer();
    } finally {
      release();
    }
    await inFlight;
    // The Stop hook's next sync (or this one, had it kept the server): what the dead queue lost is sent again.
    await eventually('the notes sent during the wipe are back', async () => {
      await runCli(env, ['sync', '--json', '--wait', '20000']);
      return JSON.stringify(await real.episodeNames()) === JSON.stringify(['Auk queue', 'Bison cache']);
    }, 200_000);
    await sessionStartWorker(box.config(), cwd);
    const note = takeGraphProblemNote(box.config().stateDir);
    expect(note).toContain('no longer holds memory notes this machine sent to it and it had confirmed (2 notes in group gms_wiped)');
    expect(note).toContain('sync --force`');
    expect(await sync(['--force', ...WAIT])).toMatchObject({ resent: 2, queued: 0, failed: 0 });
    expect(await real.episodeNames()).toEqual(['Auk queue', 'Bison cache', 'Yak logs', 'Zephyr bus']);
    await eventually('the facts are extracted again', async () => (await facts()).includes('Zephyr uses Kafka for the event bus.'));
    expect(await workerSessionStart(box.config(), cwd)).toContain('Zephyr uses Kafka for the event bus.');
    expect(readGraphProblem(box.config().stateDir)).toBeUndefined();
  }, 500_000);
});

describe('a server before 1.1 on FalkorDB restarted WITH its data (real 0.28.2, stand-in LLM)', () => {
  let real: RealGraphiti;
  let box: Sandbox;
  beforeAll(async () => {
    // The notes in a group of their own, not the server's: after a restart it lists that group empty.
    real = await startRealGraphiti({ generation: '0.28.2', transport: 'http', groupId: 'gms_server_own' });
    box = makeSandbox(real.url, { MADEINOZ_KNOWLEDGE_DB: 'falkordb', MADEINOZ_KNOWLEDGE_GROUP_ID: 'gms_mine', MADEINOZ_KNOWLEDGE_TIMEOUT: '30000', MADEINOZ_KNOWLEDGE_RETRY_DEADLINE: '30000' });
  }, 600_000);
  afterAll(async () => {
    await real?.stop();
    box?.cleanup();
  }, 60_000);

  it('sync --force sends nothing twice from the empty listing, and no session is told the graph lost its notes', async () => {
    box.pai('LEARNING/2026-07/z.md', learning('Zephyr bus', 'Zephyr uses Kafka for the event bus.'));
    const first = JSON.parse((await runCli(box.env, ['sync', '--json', ...WAIT])).stdout) as { confirmed: number };
    expect(first.confirmed).toBe(1);
    await real.stopServer();
    await real.startServer();
    // The premise: the data is there, but the server lists the group empty.
    const client = new GraphitiClient(box.config(), { logger: nullLogger });
    try {
      expect(await client.getEpisodes(['gms_mine'], 10)).toEqual([]);
    } finally {
      await client.close();
    }
    const forced = JSON.parse((await runCli(box.env, ['sync', '--json', '--force', ...WAIT])).stdout) as { resent: number };
    expect(forced.resent).toBe(0);
    expect(await real.episodeNames('gms_mine')).toEqual(['Zephyr bus']);
    const config = box.config();
    const cwd = box.path('code', 'zephyr');
    mkdirSync(cwd, { recursive: true });
    await sessionStartWorker(config, cwd);
    expect(readGraphProblem(config.stateDir)).toBeUndefined();
  }, 300_000);
});
