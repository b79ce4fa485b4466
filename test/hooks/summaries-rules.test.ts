/**
 * The session context keeps entity summaries across breaks without lending them to another server
 * (context/context.ts SUMMARIES_WANT_RULES, sync.ts PROBE_WHEN_NEEDED), on the fast test server.
 *
 * On 0.31.x a probed answer lasts only while the server's MCP session does (python mcp 2.x closes
 * it after 30 idle minutes, `expireIdleSessions` here), and nothing else tells the same server from
 * another build restarted behind the address (`swap`: same address, same graph, another delete
 * rule). So no answer outlives the session: after a break the worker builds the context, and asks
 * for the rules (one probe: two small extractions) only when entity summaries would reach the
 * session; a swapped server is probed as itself and never shows the old server's summaries.
 */
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ANSWERED_PER_DAY } from '../../src/lib/graphiti/server-rules.js';
import { readContextCache } from '../../src/lib/context/cache.js';
import { refreshProjectContext } from '../../src/lib/context/context.js';
import { detectProject } from '../../src/lib/context/project.js';
import type { Config } from '../../src/lib/config/config.js';
import { acquireLock } from '../../src/lib/state/lock.js';
import { runSync } from '../../src/lib/sync/sync.js';
import { nullLogger } from '../../src/lib/util/log.js';
import { startGraphitiServer, type GraphitiTestServer } from '../support/graphiti-server.js';
import { learning, makeSandbox, type Sandbox } from '../support/sandbox.js';
import { workerSessionStart } from '../support/worker-session.js';

const V0_31_1 = { deleteMode: 'cascade', mainParams: true, graphPerGroup: true } as const;
const V0_31_2 = { deleteMode: 'detach', mainParams: true, graphPerGroup: true } as const;
const SUMMARIES = 'Related entities:';

let server: GraphitiTestServer;
let box: Sandbox;
afterEach(async () => {
  await server?.close();
  box?.cleanup();
});

/** Extractions the rules probes cost the user: every episode sent to a scratch group. */
const probeExtractions = () => server.calls.filter((c) => c.tool === 'add_memory' && String(c.args.group_id ?? '').startsWith('gms_probe_')).length;

/** The same address, the same graph, another build: only the restart shows from outside. */
async function swap(options: typeof V0_31_1 | typeof V0_31_2): Promise<void> {
  server.setOptions(options);
  await server.restart();
}

/** A project with one note in the graph, its rules learnt by the edit that made it (a run that replaces probes). */
async function projectWithKnownRules(version: typeof V0_31_1 | typeof V0_31_2, env: Record<string, string> = {}): Promise<{ config: Config; cwd: string; key: string }> {
  server = await startGraphitiServer({ processingDelayMs: 0, ...version });
  box = makeSandbox(server.url, env);
  const config = box.config();
  const cwd = box.path('code', 'zephyr');
  mkdirSync(cwd, { recursive: true });
  box.pai('LEARNING/SYSTEM/z.md', learning('Zephyr bus', 'Zephyr uses Pulsar for the event bus.'));
  await runSync(config, { waitMs: 5000 });
  box.pai('LEARNING/SYSTEM/z.md', learning('Zephyr bus', 'Zephyr uses Kafka for the event bus.'));
  expect((await runSync(config, { waitMs: 5000 })).semantics).toMatchObject({ source: 'probe' });
  await server.whenIdle();
  return { config, cwd, key: detectProject(cwd, config).key };
}

const sessionStart = workerSessionStart;

function rulesFile(config: Config, url: string): { deleteRemoves?: string; source?: string } | undefined {
  const file = JSON.parse(readFileSync(join(config.stateDir, 'server-semantics.json'), 'utf8')) as { servers: Record<string, { inUse?: { deleteRemoves: string; source: string } }> };
  return file.servers[url]?.inUse;
}

describe('entity summaries after a break (the server closed the session the answer rested on)', () => {
  it('the session-start worker keeps them: it writes the context, asks for the rules (one probe), and builds it again', async () => {
    const { config, cwd } = await projectWithKnownRules(V0_31_2);
    expect(await sessionStart(config, cwd)).toContain(SUMMARIES);
    const before = probeExtractions();
    // A break of more than 30 minutes.
    expect(server.expireIdleSessions()).toBeGreaterThan(0);
    const text = await sessionStart(config, cwd);
    expect(text).toContain('Zephyr uses Kafka for the event bus.');
    expect(text).toContain(SUMMARIES);
    expect(probeExtractions() - before).toBe(2);
    // The next session start within the half hour: the answer still holds, nothing is probed.
    expect(await sessionStart(config, cwd)).toContain(SUMMARIES);
    expect(probeExtractions() - before).toBe(2);
  });

  it('costs no probe when the context would not show them: the trust setting keeps entity lines out', async () => {
    const { config, cwd } = await projectWithKnownRules(V0_31_2, { MADEINOZ_KNOWLEDGE_CONTEXT_TRUST: 'own' });
    const before = probeExtractions();
    expect(server.expireIdleSessions()).toBeGreaterThan(0);
    const text = await sessionStart(config, cwd);
    expect(text).toContain('Zephyr uses Kafka for the event bus.');
    expect(text).not.toContain(SUMMARIES);
    expect(probeExtractions() - before).toBe(0);
  });

  it('costs no probe when the context would not show them: no entity line fits beside the facts in the budget', async () => {
    const { config, cwd } = await projectWithKnownRules(V0_31_2);
    // The header and the one fact fill this budget; an entity line would not fit.
    const full = await sessionStart(config, cwd);
    const facts = full.slice(0, full.indexOf(SUMMARIES)).trimEnd();
    const tight = { ...config, contextBudget: facts.length + 10 };
    expect(server.expireIdleSessions()).toBeGreaterThan(0);
    const before = probeExtractions();
    const text = await sessionStart(tight, cwd);
    expect(text).toContain('Zephyr uses Kafka for the event bus.');
    expect(text).not.toContain(SUMMARIES);
    expect(probeExtractions() - before).toBe(0);
  });

  it('nothing is asked where no probe may run now (MADEINOZ_KNOWLEDGE_SERVER_RULES=no-probe): no sync run for nothing', async () => {
    const { config, cwd } = await projectWithKnownRules(V0_31_2);
    expect(server.expireIdleSessions()).toBeGreaterThan(0);
    let asked = 0;
    const { built } = await refreshProjectContext({ ...config, serverRules: 'no-probe' }, detectProject(cwd, config), { logger: nullLogger, askRules: async () => (asked++, false) });
    expect(built.summariesAwaitingRules).toBeGreaterThan(0);
    expect(asked).toBe(0);
    // With probes allowed, the same block asks.
    await refreshProjectContext(config, detectProject(cwd, config), { logger: nullLogger, askRules: async () => (asked++, false) });
    expect(asked).toBe(1);
  });

  it('a project with no entity summary to show costs no probe', async () => {
    const { config } = await projectWithKnownRules(V0_31_2);
    expect(server.expireIdleSessions()).toBeGreaterThan(0);
    const before = probeExtractions();
    // Another project: nothing of it in the graph.
    const other = box.path('code', 'quokka');
    mkdirSync(other, { recursive: true });
    const text = await sessionStart(config, other);
    expect(text).not.toContain(SUMMARIES);
    expect(probeExtractions() - before).toBe(0);
  });
});

describe('a server swapped behind the address never lends its summaries to the next', () => {
  it('0.31.2 → 0.31.1 (restarted, same graph): no block shows summaries, not even the one written before the probe, and the probe learns 0.31.1', async () => {
    const { config, cwd, key } = await projectWithKnownRules(V0_31_2);
    expect(await sessionStart(config, cwd)).toContain(SUMMARIES);
    await swap(V0_31_1);
    // The block written before the rules are asked for: built while they are unknown.
    let firstBlock = '';
    const project = detectProject(cwd, config);
    const { entry } = await refreshProjectContext(config, project, {
      logger: nullLogger,
      askRules: async () => {
        firstBlock = readContextCache(config.stateDir, key)?.text ?? '';
        const run = await runSync(config, { rulesWanted: true });
        return run.semantics?.source === 'probe';
      },
    });
    expect(firstBlock).toContain('Zephyr uses Kafka for the event bus.');
    expect(firstBlock).not.toContain(SUMMARIES);
    expect(entry.text).toContain('Zephyr uses Kafka for the event bus.');
    expect(entry.text).not.toContain(SUMMARIES);
    expect(rulesFile(config, server.url)).toMatchObject({ deleteRemoves: 'facts-first-created', source: 'probe' });
    expect(entry.omitted).toContainEqual(expect.objectContaining({ kind: 'entity', reason: expect.stringContaining('this server does not rebuild summaries') }));
  });

  it('swapped during a break (the session closed, then the restart): the session start probes the new server and shows no summary', async () => {
    const { config, cwd } = await projectWithKnownRules(V0_31_2);
    expect(await sessionStart(config, cwd)).toContain(SUMMARIES);
    expect(server.expireIdleSessions()).toBeGreaterThan(0);
    await swap(V0_31_1);
    const before = probeExtractions();
    const text = await sessionStart(config, cwd);
    expect(text).toContain('Zephyr uses Kafka for the event bus.');
    expect(text).not.toContain(SUMMARIES);
    expect(probeExtractions() - before).toBe(2);
    expect(rulesFile(config, server.url)).toMatchObject({ deleteRemoves: 'facts-first-created', source: 'probe' });
  });
});

describe('a server last found not to rebuild summaries (0.31.1) is not probed for them after a break', () => {
  it('costs no probe: the stale answer may only withhold them; an upgrade behind the address shows them once a run that replaces has probed it', async () => {
    const { config, cwd } = await projectWithKnownRules(V0_31_1);
    expect(await sessionStart(config, cwd)).not.toContain(SUMMARIES);
    const before = probeExtractions();
    expect(server.expireIdleSessions()).toBeGreaterThan(0);
    expect(await sessionStart(config, cwd)).not.toContain(SUMMARIES);
    expect(probeExtractions() - before).toBe(0);
    // Upgraded during a break: the old "no" still withholds them (a loss, not a wrong line) …
    await swap(V0_31_2);
    expect(await sessionStart(config, cwd)).not.toContain(SUMMARIES);
    expect(probeExtractions() - before).toBe(0);
    // … until a run that replaces probes the new server.
    box.pai('LEARNING/SYSTEM/z.md', learning('Zephyr bus', 'Zephyr uses Kafka for the event bus. Zephyr archives to Glacier.'));
    expect((await runSync(config, { waitMs: 5000 })).semantics).toMatchObject({ deleteRemoves: 'facts-unsupported', source: 'probe' });
    await server.whenIdle();
    expect(await sessionStart(config, cwd)).toContain(SUMMARIES);
  });
});

/**
 * ANSWERED_PER_DAY + 3 breaks of over 30 minutes in a day (python mcp 2.x closes a session after
 * 30 idle minutes: expireIdleSessions; the clock moves by the breaks): after each, the session
 * start shows the summaries at the cost of one probe. `inTheSession` is what the session does 5
 * minutes later; it costs no probe.
 */
async function busyDay(config: Config, cwd: string, inTheSession: (brk: number) => Promise<void>): Promise<void> {
  vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
  try {
    for (let brk = 1; brk <= ANSWERED_PER_DAY + 3; brk++) {
      vi.setSystemTime(Date.now() + 31 * 60_000);
      expect(server.expireIdleSessions()).toBeGreaterThan(0);
      const before = probeExtractions();
      const text = await sessionStart(config, cwd);
      expect(text).toContain('Zephyr uses Kafka for the event bus.');
      expect(text, `after break ${brk}`).toContain(SUMMARIES);
      expect(probeExtractions() - before).toBe(2);
      vi.setSystemTime(Date.now() + 5 * 60_000);
      await inTheSession(brk);
      expect(probeExtractions() - before).toBe(2);
    }
  } finally {
    vi.useRealTimers();
  }
}

describe('more breaks in a day than ANSWERED_PER_DAY (server-rules.ts IDLE_LOSS_EXPLAINED)', () => {
  it('a server that keeps its sessions between runs: the summaries come back after every break of a busy day, one probe each', async () => {
    const { config, cwd } = await projectWithKnownRules(V0_31_2);
    await busyDay(config, cwd, async (brk) => {
      // In the session a note (of another project) is written and a sync sends it: the sentinel answers that run.
      box.pai(`LEARNING/SYSTEM/q${brk}.md`, learning(`Quokka session ${brk}`, `Quokka session ${brk} tuned the consumer lag.`));
      expect(await runSync(config, { waitMs: 5000 })).toMatchObject({ added: 1, semantics: { source: 'probe' } });
      await server.whenIdle();
    });
  });
});

// IDLE_LOSS_EXPLAINED counts any run that finds the sentinel answering, not only a sync: the
// worker's context refresh asks the same sentinel at the same address before it trusts the answer.
describe('a session where no sync reaches the server: the context refresh\'s answer is recorded (server-rules.ts IDLE_LOSS_EXPLAINED)', () => {
  it('sessions that only start (nothing to send): the summaries come back after every break of a busy day, one probe each', async () => {
    const { config, cwd } = await projectWithKnownRules(V0_31_2);
    await busyDay(config, cwd, async () => {
      // A second session starts in the same half hour, with nothing to send: its sync never goes
      // online, so only its context refresh reaches the server, and finds the sentinel answering.
      const calls = server.calls.length;
      expect(await runSync(config, { mayProbe: false })).toMatchObject({ added: 0, updated: 0, deleted: 0 });
      expect(server.calls.length, 'a sync with nothing to send reached the server').toBe(calls);
      expect(await sessionStart(config, cwd)).toContain(SUMMARIES);
    });
  });

  it('what ANSWERED_PER_DAY guards stays guarded: a restart 10 minutes after a context\'s answer is a restart, even 35 minutes after the last sync\'s', async () => {
    const { config, cwd } = await projectWithKnownRules(V0_31_2);
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    try {
      // Restarts minutes apart (an unstable server) spend the day's answered probes: one by the set-up's edit, one per session start after.
      for (let run = 2; run <= ANSWERED_PER_DAY; run++) {
        vi.setSystemTime(Date.now() + 10 * 60_000);
        await server.restart();
        const before = probeExtractions();
        expect(await sessionStart(config, cwd), `restart ${run}`).toContain(SUMMARIES);
        expect(probeExtractions() - before).toBe(2);
      }
      // A sync reaches the server and finds the sentinel answering; 25 minutes later a session
      // starts with nothing to send (its context refresh finds it answering); 10 minutes after
      // that the server restarts (35 minutes after the sync's answer: an idle close by the sync's
      // clock alone).
      vi.setSystemTime(Date.now() + 5 * 60_000);
      box.pai('LEARNING/SYSTEM/q.md', learning('Quokka session', 'Quokka tuned the consumer lag.'));
      expect(await runSync(config, { waitMs: 5000 })).toMatchObject({ added: 1, semantics: { source: 'probe' } });
      await server.whenIdle();
      vi.setSystemTime(Date.now() + 25 * 60_000);
      expect(await sessionStart(config, cwd)).toContain(SUMMARIES);
      vi.setSystemTime(Date.now() + 10 * 60_000);
      await server.restart();
      // The day's budget is spent and the loss was no break: no probe, and no summaries on the old answer.
      const before = probeExtractions();
      vi.setSystemTime(Date.now() + 5 * 60_000);
      const text = await sessionStart(config, cwd);
      expect(text).toContain('Zephyr uses Kafka for the event bus.');
      expect(text).not.toContain(SUMMARIES);
      expect(probeExtractions() - before).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('the rules file has one writer at a time: a context refresh while another run holds the state lock records nothing (and never waits), and records its answer once the lock is free', async () => {
    const { config, cwd } = await projectWithKnownRules(V0_31_2);
    const project = detectProject(cwd, config);
    const rulesText = () => readFileSync(join(config.stateDir, 'server-semantics.json'), 'utf8');
    const answered = () => (JSON.parse(rulesText()) as { servers: Record<string, { answer?: { sentinelAnswered?: string } }> }).servers[server.url]?.answer?.sentinelAnswered;
    expect(answered()).toBeUndefined();
    const held = await acquireLock(config.stateDir, { label: 'cli sync' });
    try {
      const before = rulesText();
      const { entry } = await refreshProjectContext(config, project, { logger: nullLogger });
      expect(entry.text).toContain(SUMMARIES); // the sentinel answered: the rules were trusted
      expect(rulesText()).toBe(before);
      expect(held.lost).toBe(false);
    } finally {
      await held.release();
    }
    await refreshProjectContext(config, project, { logger: nullLogger });
    expect(answered()).toEqual(expect.any(String));
    expect(readdirSync(config.stateDir)).not.toContain('sync.lock');
  });
});
