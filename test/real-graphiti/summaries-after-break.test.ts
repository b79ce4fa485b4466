/**
 * The session context's entity summaries across a break, and across a server swapped behind the
 * address, on the real servers (0.31.2, then 0.31.1 on the same port and FalkorDB) with the
 * stand-in LLM (context/context.ts SUMMARIES_WANT_RULES, sync.ts PROBE_WHEN_NEEDED).
 *
 * A break of more than 30 minutes is python mcp 2.x closing the session the probed answer rests on
 * (the sentinel, graphiti/server-instance.ts). It is simulated without waiting: the sentinel's
 * session is ended with an HTTP DELETE, which removes it from the server as its idle reaper does
 * (both take it out of the session manager; a later request with its id gets 404), and the
 * premise is checked: the sentinel no longer answers. One story, one server, to keep the suite lean.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../src/lib/config/config.js';
import { ANSWERED_PER_DAY } from '../../src/lib/graphiti/server-rules.js';
import { sentinelAlive, type Sentinel } from '../../src/lib/graphiti/server-instance.js';
import { runSync } from '../../src/lib/sync/sync.js';
import { eventually, runCli, startRealGraphiti, type RealGraphiti } from '../support/real-graphiti.js';
import { learning, makeSandbox, type Sandbox } from '../support/sandbox.js';
import { workerSessionStart } from '../support/worker-session.js';

const GROUP = 'gms_break';
const WAIT = ['--wait', '90000'];
const SUMMARIES = 'Related entities:';

describe('entity summaries after a break and after a swap (real 0.31.2 → 0.31.1, stand-in LLM)', () => {
  let real: RealGraphiti;
  let box: Sandbox;
  let config: Config;
  let cwd: string;
  beforeAll(async () => {
    real = await startRealGraphiti({ generation: '0.31.2', transport: 'http', groupId: GROUP });
    box = makeSandbox(real.url, { MADEINOZ_KNOWLEDGE_DB: 'falkordb', MADEINOZ_KNOWLEDGE_GROUP_ID: GROUP, MADEINOZ_KNOWLEDGE_TIMEOUT: '30000', MADEINOZ_KNOWLEDGE_RETRY_DEADLINE: '30000' });
    config = box.config();
    cwd = box.path('code', 'zephyr');
    mkdirSync(cwd, { recursive: true });
  }, 600_000);
  afterAll(async () => {
    await real?.stop();
    box?.cleanup();
  }, 60_000);

  const sync = async (args: string[] = []) => {
    const run = await runCli(box.env, ['sync', '--json', ...args]);
    return JSON.parse(run.stdout) as { queued: number; failed: number; semantics?: { deleteRemoves: string; source: string } };
  };
  const rules = () => JSON.parse(readFileSync(join(config.stateDir, 'server-semantics.json'), 'utf8')) as { servers: Record<string, { answer?: { sentinel?: Sentinel; sentinelAnswered?: string }; probes: unknown[]; inUse?: { deleteRemoves: string; source: string } }> };
  /** LLM calls made for the rules probe (its episodes' words): what a probe costs the user. */
  const probeLlmCalls = () => real.llm.calls.filter((c) => /Probekiwi/.test(c.prompt)).length;
  /** Probe episodes sent: two per probe, each one extraction. */
  const probeExtractions = () => (rules().servers[real.url]?.probes.length ?? 0) * 2;
  /** What the worker does for a session start: its sync (never a probe), then the context refresh. */
  const sessionStart = () => workerSessionStart(config, cwd);
  /** python mcp 2.x closing the sentinel's session after 30 idle minutes, without the wait. */
  const breakOver30Minutes = async () => {
    const sentinel = rules().servers[real.url]?.answer?.sentinel;
    expect(sentinel).toBeDefined();
    if (sentinel === undefined) return;
    const closed = await fetch(real.url, { method: 'DELETE', headers: { 'mcp-session-id': sentinel.session, 'mcp-protocol-version': sentinel.protocol } });
    expect(closed.ok).toBe(true);
    expect(await sentinelAlive(config, sentinel)).toBe(false);
  };

  it('after a break the session-start worker still leaves the context with entity summaries (one probe); a swapped server inherits nothing', async () => {
    box.pai('LEARNING/2026-07/z.md', learning('Zephyr bus', 'Zephyr uses Pulsar for the event bus.'));
    expect(await sync(WAIT)).toMatchObject({ queued: 0, failed: 0 });
    box.pai('LEARNING/2026-07/z.md', learning('Zephyr bus', 'Zephyr uses Kafka for the event bus.'));
    expect(await sync(WAIT)).toMatchObject({ queued: 0, failed: 0, semantics: { deleteRemoves: 'facts-unsupported', source: 'probe' } });
    await eventually('the new version\'s fact is extracted', async () => (await real.query('MATCH ()-[e:RELATES_TO]->() RETURN e.fact')).some((r) => String(r[0]).includes('Kafka')));
    const learnt = probeExtractions();
    expect(learnt).toBe(2);
    // Within the half hour: the answer holds, nothing is probed, summaries are shown.
    const calls = probeLlmCalls();
    expect(await sessionStart()).toContain(SUMMARIES);
    expect(probeExtractions()).toBe(learnt);

    // A break: the session-start block is built, the rules asked for (one probe), and it is built again.
    await breakOver30Minutes();
    const afterBreak = await sessionStart();
    expect(afterBreak).toContain('Zephyr uses Kafka for the event bus.');
    expect(afterBreak).toContain(SUMMARIES);
    expect(probeExtractions() - learnt).toBe(2);
    expect(probeLlmCalls()).toBeGreaterThan(calls);
    const perBreak = probeLlmCalls() - calls;

    // The release rolled back behind the address (same port, same FalkorDB, same group): nothing of 0.31.2's answer is used.
    await real.swapGeneration('0.31.1');
    const swapped = await sessionStart();
    expect(swapped).toContain('Zephyr uses Kafka for the event bus.');
    expect(swapped).not.toContain(SUMMARIES);
    expect(rules().servers[real.url]?.inUse).toMatchObject({ deleteRemoves: 'facts-first-created', source: 'probe' });
    expect(probeExtractions() - learnt).toBe(4);

    // After a break on 0.31.1: its last answer ("keeps retired words") only withholds them: no probe.
    await breakOver30Minutes();
    const before = probeLlmCalls();
    expect(await sessionStart()).not.toContain(SUMMARIES);
    expect(probeLlmCalls()).toBe(before);
    expect(probeExtractions() - learnt).toBe(4);
    console.info(`probe LLM calls per session start after a break on 0.31.2 (summaries shown): ${perBreak}; on 0.31.1 (last probed: no rebuild): 0`);
  }, 600_000);

  // server-rules.ts IDLE_LOSS_EXPLAINED on the real server: the day's ANSWERED_PER_DAY spent by
  // sentinels lost with no sign that the server keeps sessions between runs; then a sync finds the
  // new sentinel answering, and it is lost only after a break of over 30 minutes (the run's clock
  // moved on; the idle close simulated as above): that break's probe still runs, and the summaries
  // come back. Before, they stayed out for the rest of the day.
  it('more breaks than ANSWERED_PER_DAY in a day on the real 0.31.2: the budget holds for losses with no sign of lasting sessions, and an idle break after a sync found the sentinel answering is probed anyway', async () => {
    await real.swapGeneration('0.31.2');
    let offset = 0;
    const now = () => Date.now() + offset;
    /** The sentinel lost (as in a break), when there is one that answers. */
    const loseSentinel = async () => {
      const sentinel = rules().servers[real.url]?.answer?.sentinel;
      if (sentinel !== undefined && (await sentinelAlive(config, sentinel))) await breakOver30Minutes();
    };
    // Sentinels lost with nothing in between: each loss is probed until the day's budget is spent.
    for (let run = 0; run <= ANSWERED_PER_DAY; run++) {
      await loseSentinel();
      offset += 5 * 60_000;
      await runSync(config, { rulesWanted: true, now });
    }
    await loseSentinel();
    offset += 5 * 60_000;
    expect(await runSync(config, { rulesWanted: true, now })).toMatchObject({ semantics: { source: 'assumed', why: expect.stringContaining('24 hours') } });
    // The budget spent, it is a day later for the oldest; the next probe opens a sentinel, and a
    // sync with a note to send finds it answering five minutes on.
    offset += 24 * 60 * 60_000;
    expect(await runSync(config, { rulesWanted: true, now })).toMatchObject({ semantics: { source: 'probe', deleteRemoves: 'facts-unsupported' } });
    for (let run = 1; run < ANSWERED_PER_DAY; run++) {
      await breakOver30Minutes();
      offset += 5 * 60_000;
      expect(await runSync(config, { rulesWanted: true, now })).toMatchObject({ semantics: { source: 'probe' } });
    }
    offset += 5 * 60_000;
    box.pai('LEARNING/2026-07/q.md', learning('Quokka lag', 'Quokka tuned the consumer lag.'));
    expect(await runSync(config, { waitMs: 90_000, now })).toMatchObject({ added: 1, queued: 0, failed: 0, semantics: { source: 'probe', why: expect.stringContaining('has not restarted since') } });
    // A break: the sentinel closed, 31 minutes after that answer.
    await breakOver30Minutes();
    offset += 31 * 60_000;
    expect(await runSync(config, { rulesWanted: true, now })).toMatchObject({ semantics: { source: 'probe', deleteRemoves: 'facts-unsupported', rebuildsSummaries: true } });
    // The session start right after (real clock: the sentinel answers) shows the summaries; it has
    // nothing to send, so its context refresh is its only run that reaches the server, and it
    // records the new sentinel answering, as a sync would (IDLE_LOSS_EXPLAINED).
    expect(rules().servers[real.url]?.answer?.sentinelAnswered).toBeUndefined();
    expect(await sessionStart()).toContain(SUMMARIES);
    expect(rules().servers[real.url]?.answer?.sentinelAnswered).toEqual(expect.any(String));
  }, 600_000);
});
