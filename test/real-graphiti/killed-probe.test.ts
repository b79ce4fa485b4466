/**
 * A sync killed in the middle of the rules probe (graphiti/semantics-probe.ts), on the real Graphiti
 * servers the probe runs on (0.31.1 and 0.31.2: older ones are told apart by their tools and never
 * probed), FalkorDB, the stand-in LLM: the probe's episode A is still in extraction in its scratch
 * group when the next run sends the user's notes into the user's group.
 *
 * On FalkorDB each group is a graph of its own, and the server processes two groups at once (a
 * queue worker per group). graphiti-core before 0.30.2 switched one shared driver between the
 * groups' graphs as it processed them, so an episode of one group could be written into the
 * other's graph (graphiti #1331, #1676): the scratch episode in the user's graph would be a fact
 * about "Probekiwi" in the user's knowledge, and a note of the user's in the scratch graph would
 * read as dropped, be sent again, and be cleared with the scratch group. Since 0.30.2 graphiti-core
 * scopes a driver to each call (`_resolve_request_scope`), and the servers we probe (1.1.x) require
 * at least that. So nothing guards this moment; these tests fail if it ever crosses. The premise
 * case shows the check sees a crossing where one happens: the same moment on 0.29.3.
 */
import type { ChildProcess } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { McpClient } from '../../src/lib/mcp/client.js';
import { eventually, runCli, startRealGraphiti, type RealGraphiti } from '../support/real-graphiti.js';
import { learning, makeSandbox, type Sandbox } from '../support/sandbox.js';

const GROUP = 'gms_killed_probe';
/** Every LLM answer takes this long, so the probe's episode and the user's notes are in extraction side by side for seconds. */
const LLM_DELAY_MS = 150;
const NOTES = [
  ['Heron ledger', 'Heron books invoices in Ledgerline. Ledgerline exports to Parquet nightly.'],
  ['Ibis alerts', 'Ibis pages the on-call through Pagerly. Pagerly escalates Ibis alerts after ten minutes.'],
  ['Jackal cache', 'Jackal caches sessions in Valkey. Valkey replicates Jackal sessions to Frankfurt.'],
] as const;
const NOTE_WORDS = /Ledgerline|Pagerly|Valkey/;
const TITLES = NOTES.map(([title]) => title).sort();
const isProbe = (name: string) => name.startsWith('Semantics probe');

/** Every node and relation of a graph: its label or type, its group, its name or fact. */
async function contents(real: RealGraphiti, graph: string): Promise<Array<{ kind: string; group: string; text: string }>> {
  const rows = [...(await real.query('MATCH (n) RETURN labels(n)[0], n.group_id, n.name', graph)), ...(await real.query('MATCH ()-[e]->() RETURN type(e), e.group_id, e.fact', graph))];
  return rows.map(([kind, group, text]) => ({ kind: String(kind), group: String(group), text: String(text ?? '') }));
}

/** What one graph holds of the other group: nodes or relations of another group, or the other's words. */
async function strays(real: RealGraphiti, scratch: string): Promise<{ inUserGraph: unknown[]; inScratchGraph: unknown[] }> {
  const user = await contents(real, GROUP);
  const probe = await contents(real, scratch);
  return {
    inUserGraph: user.filter((x) => x.group !== GROUP || /probe|probekiwi|probetui/i.test(x.text)),
    inScratchGraph: probe.filter((x) => x.group !== scratch || /heron|ledgerline|ibis|pagerly|jackal|valkey|gannet|kinesis/i.test(x.text)),
  };
}

/** Until episode A and the three notes are processed, wherever they landed. */
async function processed(real: RealGraphiti, scratch: string): Promise<void> {
  await eventually('episode A and the three notes are processed', async () => {
    const names = [...(await real.episodeNames(GROUP)), ...(await real.episodeNames(scratch))];
    return names.some(isProbe) && NOTES.every(([title]) => names.includes(title));
  }, 120_000);
  // The premise: the two groups were in extraction at once (A's calls between the notes' first and last).
  const order = real.llm.calls.map((c) => (c.prompt.includes('Probekiwi') ? 'A' : NOTE_WORDS.test(c.prompt) ? 'n' : '-')).join('');
  expect(order, order).toMatch(/n.*A.*n/);
}

describe('a sync killed mid-probe (real Graphiti on FalkorDB, stand-in LLM): the probe\'s episode and the next run\'s notes stay in their own graphs', () => {
  let real: RealGraphiti | undefined;
  let box: Sandbox | undefined;
  afterEach(async () => {
    await real?.stop();
    box?.cleanup();
    real = undefined;
    box = undefined;
  }, 60_000);

  it.each(['0.31.1', '0.31.2'])('%s: the scratch episode, in extraction when the run is killed, is processed into the scratch graph only; the next run\'s notes into the user\'s graph only, each once, confirmed without a second send', async (generation) => {
    const server = await startRealGraphiti({ generation, transport: 'http', groupId: GROUP, llmDelayMs: LLM_DELAY_MS });
    real = server;
    const home = makeSandbox(server.url, { MADEINOZ_KNOWLEDGE_DB: 'falkordb', MADEINOZ_KNOWLEDGE_GROUP_ID: GROUP, MADEINOZ_KNOWLEDGE_TIMEOUT: '30000', MADEINOZ_KNOWLEDGE_RETRY_DEADLINE: '30000', MADEINOZ_KNOWLEDGE_ORIGIN: 'm-kill' });
    box = home;
    const sync = (args: string[] = [], extra: Record<string, string> = {}, onSpawn?: (child: ChildProcess) => void) => runCli({ ...home.env, ...extra }, ['sync', '--json', ...args], onSpawn === undefined ? {} : { onSpawn });
    const openScratch = () => (JSON.parse(readFileSync(join(home.path('state'), 'server-semantics.json'), 'utf8')) as { scratch: Array<{ group: string }> }).scratch;

    // A note sent and confirmed with the rules pinned (no probe yet).
    home.pai('LEARNING/2026-07/g.md', learning('Gannet feed', 'Gannet reads the feed from Kinesis.'));
    expect(JSON.parse((await sync(['--wait', '90000'], { MADEINOZ_KNOWLEDGE_SERVER_RULES: generation })).stdout)).toMatchObject({ queued: 0, failed: 0 });

    // Its deletion makes the next run probe (nothing of ours queued); the probe's extraction is held, and the run killed.
    const release = server.llm.hold('Probekiwi');
    let scratch: string;
    try {
      rmSync(join(home.path('pai'), 'MEMORY', 'LEARNING', '2026-07', 'g.md'));
      let child: ChildProcess | undefined;
      const killedRun = sync([], {}, (c) => (child = c));
      await eventually('the probe\'s episode A is in extraction', () => server.llm.held() > 0);
      child?.kill('SIGKILL');
      expect((await killedRun).code).toBeNull(); // killed, not finished
      const open = openScratch();
      expect(open).toHaveLength(1); // recorded before the send, never cleaned: the probe was killed
      scratch = (open[0] as { group: string }).group;

      // The next run sends the user's notes while episode A is still in extraction in the scratch group.
      // It does not probe itself (as a session start's, or a run that only adds: sync.ts
      // PROBE_WHEN_NEEDED; this one also carries the deletion, so the setting says so), and
      // cleans the open scratch group first, as every run does.
      for (const [title, body] of NOTES) home.pai(`LEARNING/2026-07/${title.slice(0, 5).toLowerCase()}.md`, learning(title, body));
      const next = await sync([], { MADEINOZ_KNOWLEDGE_SERVER_RULES: 'no-probe' });
      expect(next.code).toBe(0);
      expect(JSON.parse(next.stdout)).toMatchObject({ added: NOTES.length, failed: 0 });
      await eventually('a note of the next run is in extraction', () => server.llm.calls.some((c) => NOTE_WORDS.test(c.prompt)));
    } finally {
      release(); // A goes on beside the notes
    }
    await processed(server, scratch);

    expect(await strays(server, scratch)).toEqual({ inUserGraph: [], inScratchGraph: [] });
    expect(await server.episodeNames(GROUP)).toEqual(TITLES);
    expect((await server.episodeNames(scratch)).filter(isProbe)).toHaveLength(1);
    // Confirmed as sent (none judged dropped and sent again), and the scratch group cleared.
    expect(JSON.parse((await sync(['--wait', '90000'])).stdout)).toMatchObject({ queued: 0, failed: 0, pending: 0, resent: 0 });
    expect(await server.episodeNames(GROUP)).toEqual(TITLES);
    expect(await server.episodeNames(scratch)).toEqual([]);
  }, 400_000);

  it('premise: on 0.29.3 (one driver switched between graphs) the same moment does cross, and the check sees it', async () => {
    const server = await startRealGraphiti({ generation: '0.29.3', transport: 'http', groupId: GROUP, llmDelayMs: LLM_DELAY_MS });
    real = server;
    // This server is never probed (its tools tell its rules): episode A is sent as the probe sends it.
    const scratch = 'gms_probe_0123456789';
    const client = new McpClient({ url: server.url, transport: 'streamable-http', timeoutMs: 60_000 });
    const release = server.llm.hold('Probekiwi');
    try {
      await client.connect();
      await client.callTool('add_memory', { name: 'Semantics probe A 0123456789', episode_body: 'Probekiwi depends on Probetui.', group_id: scratch, source: 'text', source_description: 'graphiti-memory-sync semantics probe' });
      await eventually('episode A is in extraction', () => server.llm.held() > 0);
      for (const [title, body] of NOTES) await client.callTool('add_memory', { name: title, episode_body: body, group_id: GROUP, source: 'text', source_description: 'a note' });
      await eventually('a note is in extraction', () => server.llm.calls.some((c) => NOTE_WORDS.test(c.prompt)));
    } finally {
      release();
      await client.close();
    }
    await processed(server, scratch);
    const crossed = await strays(server, scratch);
    expect(crossed.inUserGraph).toContainEqual({ kind: 'Episodic', group: scratch, text: 'Semantics probe A 0123456789' });
    expect(crossed.inUserGraph).toContainEqual({ kind: 'Entity', group: scratch, text: 'Probekiwi' });
  }, 400_000);
});
