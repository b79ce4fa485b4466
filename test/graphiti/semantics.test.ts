/**
 * The server-semantics model (graphiti/semantics.ts): which delete rule a server follows, from its
 * tool surface or one probe (cached per server), and what deleting an episode would take.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Fact } from '../../src/lib/graphiti/graphiti.js';
import { GraphitiClient } from '../../src/lib/graphiti/graphiti.js';
import { factsLostByDeleting, GENERATION_SEMANTICS, generationFromSurface, resolveSemantics } from '../../src/lib/graphiti/semantics.js';
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

async function connect(options: GraphitiServerOptions): Promise<{ graphiti: GraphitiClient; stateDir: string; url: string }> {
  server = await startGraphitiServer({ processingDelayMs: 0, ...options });
  box = makeSandbox(server.url);
  const config = box.config();
  client = new GraphitiClient(config);
  return { graphiti: client, stateDir: config.stateDir, url: config.mcpUrl };
}

/** Probes run so far: each uses a scratch group of its own. */
const probes = () => new Set((server?.calls ?? []).filter((c) => c.tool === 'add_memory' && String(c.args.group_id).startsWith('gms_probe_')).map((c) => c.args.group_id)).size;

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

  it('an unknown build is probed once in a scratch group that is cleared after, and the answer is cached', async () => {
    const { graphiti, stateDir, url } = await connect({ deleteMode: 'detach', mainParams: true, graphPerGroup: true });
    expect(await resolveSemantics(graphiti, { stateDir, url, logger: nullLogger })).toEqual({ deleteRemoves: 'facts-unsupported', rebuildsSummaries: true, source: 'probe' });
    expect(await resolveSemantics(graphiti, { stateDir, url, logger: nullLogger })).toMatchObject({ deleteRemoves: 'facts-unsupported', source: 'probe' });
    expect(probes()).toBe(1);
    expect(server!.episodes().filter((e) => e.group_id.startsWith('gms_probe_'))).toEqual([]);
    expect(server!.facts().filter((f) => f.group_id.startsWith('gms_probe_'))).toEqual([]);
  });

  it('a probe that cannot tell uses the cautious rules, and is tried again only an hour later; the context never probes', async () => {
    // No fact is ever extracted: the probe cannot see a merged fact.
    const { graphiti, stateDir, url } = await connect({ deleteMode: 'cascade', mainParams: true, graphPerGroup: true, maxFactsPerEpisode: 0 });
    let clock = Date.now();
    const now = () => clock;
    const options = { stateDir, url, logger: nullLogger, now, probeTimeoutMs: 300 };
    expect(await resolveSemantics(graphiti, { ...options, probe: false })).toMatchObject({ deleteRemoves: 'facts-first-created', source: 'assumed' });
    expect(probes()).toBe(0);
    expect(await resolveSemantics(graphiti, options)).toMatchObject({ deleteRemoves: 'facts-first-created', source: 'assumed' });
    expect(probes()).toBe(1);
    clock += 10 * 60_000;
    await resolveSemantics(graphiti, options);
    expect(probes()).toBe(1);
    clock += 60 * 60_000;
    await resolveSemantics(graphiti, options);
    expect(probes()).toBe(2);
  });
});
