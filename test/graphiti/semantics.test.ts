/**
 * The server-semantics model (graphiti/semantics.ts): which delete rule a server follows, from its
 * tool surface or one probe (cached per server), and what deleting an episode would take.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Fact } from '../../src/lib/graphiti/graphiti.js';
import { GraphitiClient } from '../../src/lib/graphiti/graphiti.js';
import { factsLostByDeleting, GENERATION_SEMANTICS } from '../../src/lib/graphiti/semantics.js';
import { ANSWERED_PER_DAY, generationFromSurface, MAX_PROBES, resolveSemantics, SEMANTICS_FILE, type ResolveOptions } from '../../src/lib/graphiti/server-rules.js';
import { deriveFactSentences, deriveNodeNames } from '../support/graphiti/extraction.js';
import { nullLogger } from '../../src/lib/util/log.js';
import { startGraphitiServer, type GraphitiServerOptions, type GraphitiTestServer } from '../support/graphiti-server.js';
import { makeSandbox, type Sandbox } from '../support/sandbox.js';

let server: GraphitiTestServer | undefined;
let box: Sandbox | undefined;
let client: GraphitiClient | undefined;
afterEach(async () => {
  await client?.close();
  await server?.close();
  box?.cleanup();
});

/** 0.31.x's tool surface (nothing in it names the rule), with the given delete rule. */
const UNNAMED = { mainParams: true, graphPerGroup: true } as const;

async function connect(options: GraphitiServerOptions): Promise<{ graphiti: GraphitiClient; stateDir: string; url: string; resolve: ResolveOptions }> {
  server = await startGraphitiServer({ processingDelayMs: 0, ...options });
  box = makeSandbox(server.url);
  const config = box.config();
  client = new GraphitiClient(config);
  return { graphiti: client, stateDir: config.stateDir, url: config.mcpUrl, resolve: { stateDir: config.stateDir, url: config.mcpUrl, logger: nullLogger, endpoint: config, probeTimeoutMs: 2000 } };
}

/** A fresh client, as the next run has. */
async function nextRun(): Promise<GraphitiClient> {
  await client?.close();
  client = new GraphitiClient(box!.config());
  return client;
}

const scratchEpisodes = () => server!.episodes().filter((e) => e.group_id.startsWith('gms_probe_'));
const scratchFacts = () => server!.facts().filter((f) => f.group_id.startsWith('gms_probe_'));
const rulesFile = (stateDir: string) => JSON.parse(readFileSync(join(stateDir, SEMANTICS_FILE), 'utf8')) as { scratch: unknown[]; servers: Record<string, { probes: unknown[] }> };

/** Probes run so far: each sends an episode A of its own name (a scratch group may serve several, one after another: SCRATCH_REUSE). */
const probes = () => new Set((server?.calls ?? []).filter((c) => c.tool === 'add_memory' && String(c.args.group_id).startsWith('gms_probe_') && String(c.args.name).startsWith('Semantics probe A ')).map((c) => c.args.name)).size;
/** Resolves when the server has answered the next call of `tool`. */
function nextCall(tool: string): Promise<void> {
  return new Promise<void>((done) => {
    const check = (c: { tool: string }) => {
      if (c.tool !== tool) return;
      server!.events.off('call', check);
      done();
    };
    server!.events.on('call', check);
  });
}

/** The scratch groups the probes used. */
const scratchGroups = () => new Set((server?.calls ?? []).filter((c) => c.tool === 'add_memory' && String(c.args.group_id).startsWith('gms_probe_')).map((c) => c.args.group_id)).size;

describe('server semantics', () => {
  it('the tool surface names 0.28.2 and 0.29.3; 0.31.x looks alike', () => {
    const base = { name: 'Graphiti Agent Memory', version: '', deleteEpisodeTakesGroup: false };
    expect(generationFromSurface({ ...base, tools: ['add_memory', 'delete_episode', 'get_episodes'] })).toBe('0.28.2');
    expect(generationFromSurface({ ...base, tools: ['add_memory', 'delete_episode', 'get_episode_entities'] })).toBe('0.29.3');
    expect(generationFromSurface({ ...base, tools: ['add_memory', 'delete_episode', 'get_episode_entities'], deleteEpisodeTakesGroup: true })).toBeUndefined();
  });

  it('deleting an episode loses a fact it created first that another live episode states, only where the server deletes such facts', () => {
    const facts: Fact[] = [
      { uuid: 'f1', name: 'R', fact: 'shared', episodes: ['ours', 'theirs'] },
      { uuid: 'f2', name: 'R', fact: 'only ours', episodes: ['ours', 'retired'] },
      { uuid: 'f3', name: 'R', fact: 'theirs first', episodes: ['theirs', 'ours'] },
    ];
    const retired = new Set(['ours', 'retired']);
    expect(factsLostByDeleting(GENERATION_SEMANTICS['0.29.3']!, 'ours', facts, retired).map((f) => f.uuid)).toEqual(['f1']);
    expect(factsLostByDeleting(GENERATION_SEMANTICS['0.28.2']!, 'ours', facts, retired)).toEqual([]);
    expect(factsLostByDeleting(GENERATION_SEMANTICS['0.31.2']!, 'ours', facts, retired)).toEqual([]);
  });

  it('an unknown build is probed once in a scratch group that is cleared after; the answer holds while the server has not restarted', async () => {
    const { stateDir, resolve } = await connect({ deleteMode: 'detach', ...UNNAMED });
    expect(await resolveSemantics(await nextRun(), resolve)).toMatchObject({ deleteRemoves: 'facts-unsupported', rebuildsSummaries: true, source: 'probe' });
    expect(await resolveSemantics(await nextRun(), resolve)).toMatchObject({ deleteRemoves: 'facts-unsupported', source: 'probe' });
    expect(probes()).toBe(1);
    expect(scratchEpisodes()).toEqual([]);
    expect(scratchFacts()).toEqual([]);
    expect(rulesFile(stateDir).scratch).toEqual([]);
  });

  it('a server swapped behind the same address (0.31.2 → 0.31.1, same graph) is not trusted with the old answer: cautious, then probed again', async () => {
    const { resolve } = await connect({ deleteMode: 'detach', ...UNNAMED });
    expect(await resolveSemantics(await nextRun(), resolve)).toMatchObject({ deleteRemoves: 'facts-unsupported', source: 'probe' });
    // Same address, same tools, same serverInfo: only the restart shows.
    server!.setOptions({ deleteMode: 'cascade' });
    await server!.restart();
    const { readSemantics } = await import('../../src/lib/graphiti/server-rules.js');
    const read = await readSemantics(await nextRun(), resolve);
    expect('probe' in read).toBe(true); // not the cached answer: a probe is due
    expect(await resolveSemantics(await nextRun(), { ...resolve, probe: false })).toMatchObject({ deleteRemoves: 'facts-first-created', source: 'assumed' });
    expect(await resolveSemantics(await nextRun(), resolve)).toMatchObject({ deleteRemoves: 'facts-first-created', source: 'probe' });
    expect(probes()).toBe(2);
  });

  // The servers of 0.31.x (python mcp 2.2.0) close a session idle for 30 minutes
  // (DEFAULT_SESSION_IDLE_TIMEOUT): the sentinel does not outlive a lunch break, and the next run that
  // reaches the server probes again (seen on the real 0.31.2: a run 31 minutes after the probe probed
  // again). Those probes answer; when they spent the month's budget, the fourth break left the cautious
  // rules in place for the rest of the month (held deletions, an edit's old version deleted first) on a
  // server whose rules were known each time they were asked. The fake closes idle sessions on demand.
  it('a sentinel closed for idleness costs a probe, not the answer for the rest of the month (answered probes spend no budget)', async () => {
    const { stateDir, resolve } = await connect({ deleteMode: 'detach', ...UNNAMED });
    let clock = Date.now();
    const options = { ...resolve, now: () => clock };
    for (let gap = 1; gap <= MAX_PROBES + 3; gap++) {
      expect(await resolveSemantics(await nextRun(), options)).toMatchObject({ deleteRemoves: 'facts-unsupported', source: 'probe' });
      await client!.close();
      expect(server!.expireIdleSessions()).toBeGreaterThan(0); // the sentinel among them
      clock += 2 * 60 * 60_000; // the next session starts two hours later
    }
    expect(probes()).toBe(MAX_PROBES + 3);
    // One scratch group for them all, cleaned after each (on FalkorDB a group is a graph, and clear_graph leaves it).
    expect(scratchGroups()).toBe(1);
    expect(scratchEpisodes()).toEqual([]);
    // The file keeps what the bounds read, not every answered probe of the month.
    expect(rulesFile(stateDir).servers[resolve.url]?.probes.length).toBeLessThanOrEqual(ANSWERED_PER_DAY + MAX_PROBES);
    // A server whose sentinel never survives a run (it restarts on every run, replicas behind one address):
    // probed up to ANSWERED_PER_DAY times a day, then the cautious rules until the oldest is a day old.
    const before = probes();
    for (let run = 1; run <= ANSWERED_PER_DAY + 2; run++) {
      await resolveSemantics(await nextRun(), options);
      await client!.close();
      server!.expireIdleSessions();
      clock += 5 * 60_000;
    }
    expect(probes() - before).toBeLessThan(ANSWERED_PER_DAY);
    expect(await resolveSemantics(await nextRun(), options)).toMatchObject({ deleteRemoves: 'facts-first-created', source: 'assumed', why: expect.stringContaining('24 hours') });
    clock += 24 * 60 * 60_000;
    expect(await resolveSemantics(await nextRun(), options)).toMatchObject({ deleteRemoves: 'facts-unsupported', source: 'probe' });
  });

  // IDLE_LOSS_EXPLAINED: a server that keeps a session from one run to the next (a later run found the
  // sentinel answering) and lost it only after 30 idle minutes was on a break, not restarting on
  // every run: its probe spends none of the day's ANSWERED_PER_DAY. Before, the ninth break of a day
  // left the cautious rules (and the session context without entity summaries) until the next day.
  it('breaks of over 30 minutes on a server that keeps sessions between runs spend none of the day\'s budget: every break of a busy day is probed and known', async () => {
    const { resolve } = await connect({ deleteMode: 'detach', ...UNNAMED });
    let clock = Date.now();
    const options = { ...resolve, now: () => clock };
    for (let brk = 1; brk <= ANSWERED_PER_DAY + 4; brk++) {
      // The first run after the break: the sentinel is gone, a probe runs.
      expect(await resolveSemantics(await nextRun(), options), `break ${brk}`).toMatchObject({ deleteRemoves: 'facts-unsupported', rebuildsSummaries: true, source: 'probe' });
      expect(probes()).toBe(brk);
      // A run later in the session: the sentinel answers, nothing is probed.
      clock += 5 * 60_000;
      expect(await resolveSemantics(await nextRun(), options)).toMatchObject({ deleteRemoves: 'facts-unsupported', source: 'probe', why: expect.stringContaining('has not restarted since') });
      expect(probes()).toBe(brk);
      await client!.close();
      // A break of 31 minutes: the server closes the idle sentinel.
      clock += 31 * 60_000;
      expect(server!.expireIdleSessions()).toBeGreaterThan(0);
    }
    // Twelve breaks in under eight hours, each probed: none of them left the rules unknown.
    expect(probes()).toBe(ANSWERED_PER_DAY + 4);
  });

  it('what ANSWERED_PER_DAY guards stays guarded: a sentinel lost sooner than 30 minutes after it answered (a restart, an upgrade) counts, and a server swapped behind the address is never trusted on the old answer, after a break or not', async () => {
    const { resolve } = await connect({ deleteMode: 'detach', ...UNNAMED });
    let clock = Date.now();
    const options = { ...resolve, now: () => clock };
    for (let run = 1; run <= ANSWERED_PER_DAY; run++) {
      expect(await resolveSemantics(await nextRun(), options)).toMatchObject({ source: 'probe' });
      clock += 5 * 60_000;
      expect(await resolveSemantics(await nextRun(), options)).toMatchObject({ source: 'probe', why: expect.stringContaining('has not restarted since') });
      if (run === ANSWERED_PER_DAY) break;
      await client!.close();
      // Restarted ten minutes after the sentinel last answered: not an idle close.
      clock += 10 * 60_000;
      await server!.restart();
    }
    expect(probes()).toBe(ANSWERED_PER_DAY);
    // The day's budget is spent. Swapped (0.31.2 → 0.31.1) ten minutes after the last answer: not
    // probed now, and not trusted either: the cautious rules, not the old answer.
    await client!.close();
    clock += 10 * 60_000;
    server!.setOptions({ deleteMode: 'cascade' });
    await server!.restart();
    expect(await resolveSemantics(await nextRun(), options)).toMatchObject({ deleteRemoves: 'facts-first-created', rebuildsSummaries: false, source: 'assumed', why: expect.stringContaining('24 hours') });
    expect(probes()).toBe(ANSWERED_PER_DAY);
    // Swapped back (0.31.1 → 0.31.2) and probed as itself once a day has passed; a run finds its sentinel answering.
    await client!.close();
    server!.setOptions({ deleteMode: 'detach' });
    await server!.restart();
    clock += 24 * 60 * 60_000;
    expect(await resolveSemantics(await nextRun(), options)).toMatchObject({ deleteRemoves: 'facts-unsupported', rebuildsSummaries: true, source: 'probe' });
    clock += 5 * 60_000;
    expect(await resolveSemantics(await nextRun(), options)).toMatchObject({ source: 'probe', why: expect.stringContaining('has not restarted since') });
    // Spend the day's budget again with restarts, then a break over which the server is swapped
    // (0.31.2 → 0.31.1): the break's probe runs, and learns the new server's rules, not the old ones.
    for (let run = 2; run <= ANSWERED_PER_DAY; run++) {
      await client!.close();
      clock += 10 * 60_000;
      await server!.restart();
      expect(await resolveSemantics(await nextRun(), options)).toMatchObject({ source: 'probe' });
      clock += 5 * 60_000;
      expect(await resolveSemantics(await nextRun(), options)).toMatchObject({ source: 'probe', why: expect.stringContaining('has not restarted since') });
    }
    expect(probes()).toBe(2 * ANSWERED_PER_DAY);
    await client!.close();
    clock += 31 * 60_000;
    server!.expireIdleSessions();
    server!.setOptions({ deleteMode: 'cascade' });
    await server!.restart();
    expect(await resolveSemantics(await nextRun(), options)).toMatchObject({ deleteRemoves: 'facts-first-created', rebuildsSummaries: false, source: 'probe' });
    expect(probes()).toBe(2 * ANSWERED_PER_DAY + 1);
  });

  it('a probe that cannot tell uses the cautious rules; probes are bounded (an hour apart, at most MAX_PROBES a month); the context never probes', async () => {
    // No fact is ever extracted: the probe cannot see a merged fact.
    const { stateDir, resolve } = await connect({ deleteMode: 'cascade', ...UNNAMED, maxFactsPerEpisode: 0 });
    let clock = Date.now();
    const options = { ...resolve, now: () => clock, probeTimeoutMs: 300 };
    expect(await resolveSemantics(await nextRun(), { ...options, probe: false })).toMatchObject({ deleteRemoves: 'facts-first-created', source: 'assumed' });
    expect(probes()).toBe(0);
    expect(await resolveSemantics(await nextRun(), options)).toMatchObject({ deleteRemoves: 'facts-first-created', source: 'assumed' });
    expect(probes()).toBe(1);
    clock += 10 * 60_000;
    await resolveSemantics(await nextRun(), options);
    expect(probes()).toBe(1);
    for (let hour = 1; hour <= 10; hour++) {
      clock += 61 * 60_000;
      const r = await resolveSemantics(await nextRun(), options);
      expect(r.source).toBe('assumed');
    }
    expect(probes()).toBe(MAX_PROBES);
    expect(rulesFile(stateDir).servers[resolve.url]?.probes).toHaveLength(MAX_PROBES);
    clock += 31 * 24 * 60 * 60_000;
    await resolveSemantics(await nextRun(), options);
    expect(probes()).toBe(MAX_PROBES + 1);
  });

  it('MADEINOZ_KNOWLEDGE_SERVER_RULES pins the rules or turns the probe off', async () => {
    const { resolve } = await connect({ deleteMode: 'detach', ...UNNAMED });
    expect(await resolveSemantics(await nextRun(), { ...resolve, setting: '0.31.1' })).toMatchObject({ deleteRemoves: 'facts-first-created', source: 'setting' });
    expect(await resolveSemantics(await nextRun(), { ...resolve, setting: 'no-probe' })).toMatchObject({ deleteRemoves: 'facts-first-created', source: 'assumed', why: expect.stringContaining('no-probe') });
    expect(probes()).toBe(0);
  });

  it('our local server: its recorded release names the rules, no probe', async () => {
    const { resolve } = await connect({ deleteMode: 'detach', ...UNNAMED });
    expect(await resolveSemantics(await nextRun(), { ...resolve, localGeneration: '0.31.1' })).toMatchObject({ deleteRemoves: 'facts-first-created', source: 'local-server', generation: '0.31.1' });
    expect(probes()).toBe(0);
  });

  describe('ambiguous evidence reads as "cannot tell" (cautious rules), never as a rule', () => {
    it('an add_memory whose reply was lost (A may be queued): not sent again (ADD_ONCE), the run cannot tell', async () => {
      const { resolve } = await connect({ deleteMode: 'cascade', ...UNNAMED });
      server!.failNext('lostReply'); // A is queued, its reply lost: the client does not send it again
      const r = await resolveSemantics(await nextRun(), resolve);
      expect(server!.calls.filter((c) => c.tool === 'add_memory' && String(c.args.name).startsWith('Semantics probe A'))).toHaveLength(1);
      expect(r).toMatchObject({ source: 'assumed', why: expect.stringContaining('a call failed') });
      await server!.whenIdle();
    });

    it('two A episodes (a second copy sent by something else)', async () => {
      const { resolve } = await connect({ deleteMode: 'cascade', ...UNNAMED });
      const graphiti = await nextRun();
      const real = graphiti.addMemory.bind(graphiti);
      graphiti.addMemory = async (input, signal, onDispatch) => {
        if (input.name.startsWith('Semantics probe A')) await real(input, signal, onDispatch);
        return real(input, signal, onDispatch);
      };
      const r = await resolveSemantics(graphiti, resolve);
      expect(server!.calls.filter((c) => c.tool === 'add_memory' && String(c.args.name).startsWith('Semantics probe A'))).toHaveLength(2);
      expect(r).toMatchObject({ source: 'assumed', why: expect.stringContaining('listed twice') });
      await server!.whenIdle();
    });

    it('an extra fact from B that was not merged (it would outlive A on any server)', async () => {
      const extractor: GraphitiServerOptions['extractor'] = (episode) => {
        const names = deriveNodeNames(episode.name, episode.content);
        const facts = deriveFactSentences(episode.content).map((fact) => ({ fact, source: 'Probekiwi', target: 'Probetui', relation: 'DEPENDS_ON' }));
        if (episode.name.startsWith('Semantics probe B')) facts.push({ fact: 'Probetui is needed by Probekiwi.', source: 'Probetui', target: 'Probekiwi', relation: 'NEEDED_BY' });
        return { entities: ['Probekiwi', 'Probetui', ...names].map((name) => ({ name, summary: name })), facts };
      };
      // On this server the merged fact goes with A; the old probe read B's own fact as "facts-unsupported".
      const { resolve } = await connect({ deleteMode: 'cascade', ...UNNAMED, extractor });
      expect(await resolveSemantics(await nextRun(), resolve)).toMatchObject({ deleteRemoves: 'facts-first-created', source: 'assumed', why: expect.stringContaining('not merged') });
    });

    it('a delete that answers "not found"', async () => {
      const { resolve } = await connect({ deleteMode: 'cascade', ...UNNAMED });
      const graphiti = await nextRun();
      graphiti.deleteEpisode = async () => ({ deleted: false, notFound: true });
      expect(await resolveSemantics(graphiti, resolve)).toMatchObject({ source: 'assumed', why: expect.stringContaining('not found') });
    });

    it('a fact that no longer names A first after B (not the creator), or a call that fails', async () => {
      const { resolve } = await connect({ deleteMode: 'cascade', ...UNNAMED });
      const graphiti = await nextRun();
      const real = graphiti.getEntityEdge.bind(graphiti);
      graphiti.getEntityEdge = async (uuid, group, signal) => {
        const fact = await real(uuid, group, signal);
        return fact === undefined ? undefined : { ...fact, episodes: [...(fact.episodes ?? [])].reverse() };
      };
      expect(await resolveSemantics(graphiti, resolve)).toMatchObject({ source: 'assumed', why: expect.stringContaining('cannot be read by its uuid') });
      const failing = await nextRun();
      failing.getEntityEdge = async () => {
        throw new Error('boom');
      };
      expect(await resolveSemantics(failing, { ...resolve, now: () => Date.now() + 2 * 60 * 60_000 })).toMatchObject({ source: 'assumed', why: expect.stringContaining('boom') });
    });
  });

  it('never calls clear_graph where it takes no group_ids: the scratch group is removed episode by episode', async () => {
    const { resolve } = await connect({ deleteMode: 'detach', ...UNNAMED, clearGraphTakesNoGroups: true });
    server!.seedEpisode({ name: 'a user note', content: 'Alpha uses Kafka.', group_id: 'main' });
    expect(await resolveSemantics(await nextRun(), resolve)).toMatchObject({ deleteRemoves: 'facts-unsupported', source: 'probe' });
    expect(server!.calls.filter((c) => c.tool === 'clear_graph')).toEqual([]);
    expect(scratchEpisodes()).toEqual([]);
    expect(server!.episodes('main')).toHaveLength(1);
  });

  it('a probe stopped midway (Ctrl-C, a time limit) leaves its group recorded; the next run cleans it, not with the run\'s signal', async () => {
    const { stateDir, resolve } = await connect({ deleteMode: 'detach', ...UNNAMED });
    server!.pauseProcessing(); // A stays queued
    const stop = new AbortController();
    const graphiti = await nextRun();
    const waiting = resolveSemantics(graphiti, { ...resolve, signal: stop.signal });
    await nextCall('get_episodes'); // A is sent: the probe looks for it
    stop.abort();
    expect(await waiting).toMatchObject({ source: 'assumed' });
    // A was still queued when the run stopped: its record stays for a later run.
    expect(rulesFile(stateDir).scratch).toHaveLength(1);
    server!.resumeProcessing();
    await server!.whenIdle();
    expect(scratchEpisodes()).toHaveLength(1);
    // An hour later, the next run (which probes again, hence the second group) cleans the first group and drops its record.
    await resolveSemantics(await nextRun(), { ...resolve, now: () => Date.now() + 2 * 60 * 60_000 });
    expect(scratchEpisodes()).toEqual([]);
    expect(rulesFile(stateDir).scratch).toEqual([]);
  });

  it('a scratch group left open by a stopped probe is not used again (SCRATCH_REUSE takes only one left clean)', async () => {
    const { stateDir, resolve } = await connect({ deleteMode: 'detach', ...UNNAMED });
    expect(await resolveSemantics(await nextRun(), resolve)).toMatchObject({ source: 'probe' });
    await client!.close();
    server!.expireIdleSessions();
    // The next probe reuses the clean group; it is stopped while its A is still queued.
    server!.pauseProcessing();
    const stop = new AbortController();
    const waiting = resolveSemantics(await nextRun(), { ...resolve, signal: stop.signal });
    await nextCall('get_episodes');
    stop.abort();
    await waiting;
    expect(scratchGroups()).toBe(1);
    const open = rulesFile(stateDir).scratch;
    expect(open).toHaveLength(1);
    // A third probe, the first one's A still queued: a group of its own, so that A cannot read as a second copy of its own.
    await client!.close();
    server!.expireIdleSessions();
    const third = resolveSemantics(await nextRun(), { ...resolve, now: () => Date.now() + 2 * 60 * 60_000 });
    server!.resumeProcessing();
    expect(await third).toMatchObject({ deleteRemoves: 'facts-unsupported', source: 'probe' });
    expect(scratchGroups()).toBe(2);
  });
});
