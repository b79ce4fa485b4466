/**
 * The rules follow the server, not the address (issue 43), and held episodes end: the fast test
 * server swapped behind the same address with the same graph (as a docker tag rolled back, or
 * another release started on the port), and teammates' notes that come and go.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { collectStatus, formatStatus } from '../../src/commands/reports.js';
import { GraphitiClient } from '../../src/lib/graphiti/graphiti.js';
import { formatMarker } from '../../src/lib/memory/episode.js';
import { runSync } from '../../src/lib/sync/sync.js';
import { realSteps } from '../../src/hooks/worker.js';
import { createLogger, nullLogger } from '../../src/lib/util/log.js';
import { startGraphitiServer, type GraphitiTestServer } from '../support/graphiti-server.js';
import { startFakeSupervisor } from '../support/fake-supervisor.js';
import { writeRuntime } from '../../src/lib/config/server-runtime.js';
import { learning, makeSandbox, type Sandbox } from '../support/sandbox.js';

const V0_31_1 = { deleteMode: 'cascade', mainParams: true, graphPerGroup: true } as const;
const V0_31_2 = { deleteMode: 'detach', mainParams: true, graphPerGroup: true } as const;

let server: GraphitiTestServer;
let box: Sandbox;
afterEach(async () => {
  await server?.close();
  box?.cleanup();
});

const facts = () => server.facts('main').map((f) => f.fact);
const inProbe = (c: { args: Record<string, unknown> }) => String(c.args.group_id ?? '').startsWith('gms_probe_');
/** Probes run: each sends an episode A of its own name (one scratch group serves them one after another: SCRATCH_REUSE). */
const probes = () => new Set(server.calls.filter((c) => c.tool === 'add_memory' && inProbe(c) && String(c.args.name).startsWith('Semantics probe A ')).map((c) => c.args.name)).size;

/** The same address, the same graph, another build: only the restart shows from outside. */
async function swap(options: typeof V0_31_1 | typeof V0_31_2): Promise<void> {
  server.setOptions(options);
  await server.restart();
}

async function settle(env: { now?: () => number; releaseHeld?: boolean } = {}): Promise<Awaited<ReturnType<typeof runSync>>> {
  const run = await runSync(box.config(), { waitMs: 5000, ...env });
  await server.whenIdle();
  return run;
}

/** A teammate's note that states one of our facts, processed after ours (so ours created the fact). */
function teammateRestates(sentence: string): string {
  const theirs = formatMarker({ fileId: 'teammate0000000a', hash: 'abcdefabcdef', part: 1, parts: 1, origin: 'm-bob' });
  return server.seedEpisode({ name: 'Bob on Kafka', content: sentence, source_description: `pai memory ${theirs}`, group_id: 'main' }, { extract: true }).uuid;
}

describe('rules that follow the server behind an address', () => {
  it('0.31.2 → 0.31.1 behind the same address: the old answer is not used, and an edit keeps its restated fact', async () => {
    server = await startGraphitiServer({ processingDelayMs: 0, ...V0_31_2 });
    box = makeSandbox(server.url);
    box.pai('LEARNING/SYSTEM/z.md', learning('Zephyr bus', 'Zephyr uses Kafka for the event bus. Kafka feeds Postgres nightly.'));
    // A run that only adds does not probe (sync.ts PROBE_WHEN_NEEDED); one that deletes does: 0.31.2's rules are learnt.
    expect((await settle()).semantics).toMatchObject({ source: 'assumed' });
    box.pai('LEARNING/SYSTEM/y.md', learning('Yak', 'Yak stores its logs in Loki.'));
    await settle();
    rmSync(box.path('pai', 'MEMORY', 'LEARNING', 'SYSTEM', 'y.md'));
    expect((await settle()).semantics).toMatchObject({ deleteRemoves: 'facts-unsupported', source: 'probe' });
    await swap(V0_31_1);
    box.pai('LEARNING/SYSTEM/z.md', learning('Zephyr bus', 'Zephyr uses Kafka for the event bus. Zephyr archives to Glacier.'));
    const run = await settle();
    await settle();
    expect(run.semantics).toMatchObject({ deleteRemoves: 'facts-first-created' });
    expect(facts()).toContain('Zephyr uses Kafka for the event bus.');
    expect(facts()).toContain('Zephyr archives to Glacier.');
    expect(facts()).not.toContain('Kafka feeds Postgres nightly.');
    expect(probes()).toBe(2);
    // status says which rules are in use, and why.
    expect(formatStatus(await collectStatus(box.config(), nullLogger))).toMatch(/Server rules: .*only facts|Server rules: .*created first/);
  });

  it('0.31.1 → 0.31.2: the episode held under the old rules is let go once the new ones are known', async () => {
    server = await startGraphitiServer({ processingDelayMs: 0, ...V0_31_1 });
    box = makeSandbox(server.url, { MADEINOZ_KNOWLEDGE_ORIGIN: 'm-alice' });
    box.pai('LEARNING/SYSTEM/k.md', learning('Kafka notes', 'Kafka feeds Postgres nightly. Kafka keeps seven days of logs.'));
    await settle();
    teammateRestates('Kafka feeds Postgres nightly.');
    rmSync(box.path('pai', 'MEMORY', 'LEARNING', 'SYSTEM', 'k.md'));
    expect(await settle()).toMatchObject({ deleted: 1, held: 1 });
    expect(server.episodes('main').map((e) => e.name)).toContain('Kafka notes');
    await swap(V0_31_2);
    box.pai('LEARNING/SYSTEM/other.md', learning('Other', 'Other runs on Nomad.'));
    const run = await settle();
    expect(run.semantics).toMatchObject({ deleteRemoves: 'facts-unsupported', source: 'probe' });
    // The probe ran at that run's end, once none of ours was queued (never beside them), and what
    // was held went by the rules it found.
    expect(server.episodes('main').map((e) => e.name)).not.toContain('Kafka notes');
    expect(facts()).toContain('Kafka feeds Postgres nightly.');
    expect((await collectStatus(box.config(), nullLogger)).held).toBeUndefined();
  });

  it('a server that restarts during a run (as 0.31.1, where 0.31.2 was probed) gets the cautious rules for the rest of it', async () => {
    server = await startGraphitiServer({ processingDelayMs: 0, ...V0_31_2 });
    box = makeSandbox(server.url);
    box.pai('LEARNING/SYSTEM/z.md', learning('Zephyr bus', 'Zephyr uses Kafka for the event bus. Kafka feeds Postgres nightly.'));
    // Not probed by a run that only adds (sync.ts PROBE_WHEN_NEEDED): the edit's run below probes 0.31.2 before it sends.
    expect((await settle()).semantics).toMatchObject({ source: 'assumed' });
    box.pai('LEARNING/SYSTEM/z.md', learning('Zephyr bus', 'Zephyr uses Kafka for the event bus. Zephyr archives to Glacier.'));
    // Once the new version has been listed (make before break: the old one is still there), the server is swapped.
    let sent = false;
    const swapOnce = (c: { tool: string; args: Record<string, unknown> }) => {
      if (c.tool === 'add_memory' && String(c.args.episode_body).includes('Glacier')) sent = true;
      if (!sent || c.tool !== 'get_episodes') return;
      server.events.off('call', swapOnce);
      server.setOptions(V0_31_1);
      void server.restart();
    };
    server.events.on('call', swapOnce);
    await settle();
    await settle();
    expect(facts()).toContain('Zephyr uses Kafka for the event bus.');
    expect(server.episodes('main').some((e) => e.content.includes('Glacier'))).toBe(true);
    expect(probes()).toBe(1); // 0.31.2, by the edit's run before it sent
  });
});

describe('a server replaced while its rules are being probed (PROBE_ON_ONE_PROCESS)', () => {
  it('0.31.2 swapped for 0.31.1 after the probe\'s delete: what the probe saw is not cached as the new process\'s rules, and the next edit keeps its restated fact', async () => {
    server = await startGraphitiServer({ processingDelayMs: 0, ...V0_31_2 });
    box = makeSandbox(server.url);
    box.pai('LEARNING/SYSTEM/z.md', learning('Zephyr bus', 'Zephyr uses Kafka for the event bus. Kafka feeds Postgres nightly.'));
    box.pai('LEARNING/SYSTEM/y.md', learning('Yak', 'Yak stores its logs in Loki.'));
    await settle();
    // The deletion's run probes; 0.31.2 detaches probe A, then 0.31.1 takes the address (a docker
    // tag rolled back mid-probe) before the probe reads its fact again: that fact still names B alone.
    let deleted = false;
    const swapAfterDelete = (c: { tool: string; args: Record<string, unknown> }) => {
      if (c.tool === 'delete_episode' && inProbe(c)) deleted = true;
      if (!deleted || c.tool !== 'get_episodes') return;
      server.events.off('call', swapAfterDelete);
      server.setOptions(V0_31_1);
      void server.restart();
    };
    server.events.on('call', swapAfterDelete);
    rmSync(box.path('pai', 'MEMORY', 'LEARNING', 'SYSTEM', 'y.md'));
    await settle();
    expect(server.calls.some((c) => c.tool === 'delete_episode' && inProbe(c))).toBe(true);
    // The next run, on 0.31.1: an edit that restates a fact the old version created.
    box.pai('LEARNING/SYSTEM/z.md', learning('Zephyr bus', 'Zephyr uses Kafka for the event bus. Zephyr archives to Glacier.'));
    const run = await settle();
    await settle();
    expect(run.semantics).not.toMatchObject({ deleteRemoves: 'facts-unsupported' });
    expect(facts()).toContain('Zephyr uses Kafka for the event bus.');
    expect(facts()).toContain('Zephyr archives to Glacier.');
  });
});

describe('a run probes only when it deletes or replaces (sync.ts PROBE_WHEN_NEEDED)', () => {
  it('after a break (the sentinel closed for idleness) runs that only add or confirm notes do not probe again; the next that deletes does', async () => {
    server = await startGraphitiServer({ processingDelayMs: 0, ...V0_31_2 });
    box = makeSandbox(server.url);
    box.pai('LEARNING/SYSTEM/a.md', learning('Alpha', 'Alpha uses Kafka.'));
    expect((await settle()).semantics).toMatchObject({ source: 'assumed', why: expect.stringMatching(/probed only by a run that deletes or replaces/) });
    expect(probes()).toBe(0);
    box.pai('LEARNING/SYSTEM/a.md', learning('Alpha', 'Alpha uses Pulsar.'));
    expect((await settle()).semantics).toMatchObject({ deleteRemoves: 'facts-unsupported', source: 'probe' });
    expect(probes()).toBe(1);
    // A break of more than 30 minutes: python mcp 2.x closes the sentinel's session.
    expect(server.expireIdleSessions()).toBeGreaterThan(0);
    box.pai('LEARNING/SYSTEM/b.md', learning('Beta', 'Beta uses Kafka.'));
    expect(await settle()).toMatchObject({ added: 1, queued: 0, semantics: { source: 'assumed' } });
    // status says the rules that run used, and why (not the answer the break made unknown).
    expect(formatStatus(await collectStatus(box.config(), nullLogger))).toMatch(/Server rules: .*because the server's rules are not known now, and are probed only by a run that deletes or replaces/);
    box.pai('LEARNING/SYSTEM/c.md', learning('Gamma', 'Gamma uses Redis.'));
    await runSync(box.config());
    await server.whenIdle();
    // The run that confirms Gamma (it lists the group: online, nothing of ours queued by its end).
    expect(await settle()).toMatchObject({ confirmed: 3, queued: 0, listing: { requests: 1 }, semantics: { source: 'assumed' } });
    expect(probes()).toBe(1);
    rmSync(box.path('pai', 'MEMORY', 'LEARNING', 'SYSTEM', 'b.md'));
    expect(await settle()).toMatchObject({ deleted: 1, held: 0, semantics: { deleteRemoves: 'facts-unsupported', source: 'probe' } });
    expect(probes()).toBe(2);
    expect(server.episodes('main').map((e) => e.name).sort()).toEqual(['Alpha', 'Gamma']);
  });

  it('the session-start path never probes: its deletion goes by the cautious rules (held), and the next run that may probe lets it go by the rules found', async () => {
    server = await startGraphitiServer({ processingDelayMs: 0, ...V0_31_2 });
    box = makeSandbox(server.url);
    box.pai('LEARNING/SYSTEM/a.md', learning('Alpha', 'Alpha uses Kafka.'));
    box.pai('LEARNING/SYSTEM/b.md', learning('Beta', 'Beta uses Kafka.'));
    await settle();
    // Alpha created the frontmatter facts Beta restates: the cautious rules hold its deletion.
    rmSync(box.path('pai', 'MEMORY', 'LEARNING', 'SYSTEM', 'a.md'));
    const config = box.config();
    const steps = realSteps(config, nullLogger);
    const step = { logger: nullLogger, signal: new AbortController().signal };
    try {
      await steps.sync(config, step, { sessionStart: true });
      await server.whenIdle();
      expect(probes()).toBe(0);
      expect(server.episodes('main').map((e) => e.name).sort()).toEqual(['Alpha', 'Beta']);
      expect((await collectStatus(config, nullLogger)).held?.list).toHaveLength(1);
      // A Stop's pass within the hour: nothing is due (the held deletion waits for its re-check), so it does not reach the server.
      await steps.sync(config, step, { sessionStart: false });
      expect(probes()).toBe(0);
    } finally {
      await steps.close();
    }
    // The first run after the hour: the held deletion is due, so it probes, and 0.31.2 lets it go.
    expect(await settle({ now: () => Date.now() + 2 * 60 * 60_000 })).toMatchObject({ held: 0, semantics: { deleteRemoves: 'facts-unsupported', source: 'probe' } });
    expect(probes()).toBe(1);
    expect(server.episodes('main').map((e) => e.name)).toEqual(['Beta']);
    expect(facts()).toContain('Beta uses Kafka.');
  });
});

describe('status after the local server moved to another release', () => {
  it('rules learnt of the old release are not shown as the running server\'s (upgrade, a restart onto another generation, the user service): not yet learnt, until the next sync learns them', async () => {
    server = await startGraphitiServer({ processingDelayMs: 0, ...V0_31_1 });
    // The fake server stands in for the local server: runtime.json names its URL and release.
    box = makeSandbox(server.url);
    const supervisor = await startFakeSupervisor();
    try {
      const stateDir = box.env.MADEINOZ_KNOWLEDGE_STATE_DIR as string;
      const run = (generation: string) => writeRuntime(stateDir, { state: 'ready', pid: supervisor.identity.pid, generation, serverVersion: '1.1.0', mcp: '2.2.0', falkordbBin: '1.4.1', url: server.url, port: server.port, identities: { supervisor: supervisor.identity }, dataDir: box.root, logDir: box.root, startedAt: new Date().toISOString() });
      run('0.31.1');
      box.pai('LEARNING/SYSTEM/z.md', learning('Zephyr bus', 'Zephyr uses Kafka for the event bus.'));
      expect((await settle()).semantics).toMatchObject({ source: 'local-server', generation: '0.31.1' });
      const status = async () => formatStatus(await collectStatus(box.config(), nullLogger));
      expect(await status()).toMatch(/\nServer rules: .*\(graphiti-core 0\.31\.1\), because the local server runs graphiti-core 0\.31\.1/);
      // The same address now runs 0.31.2 (the runtime file of the new supervisor says so); no sync yet.
      server.setOptions(V0_31_2);
      await server.restart();
      run('0.31.2');
      const before = await status();
      expect(before).not.toMatch(/graphiti-core 0\.31\.1\), because/);
      expect(before).toContain('\nServer rules: not yet learnt for this release (the local server runs graphiti-core 0.31.2; those known were learnt of 0.31.1); the next sync that has work for the server learns them\n');
      expect((await collectStatus(box.config(), nullLogger)).rulesNotLearnt).toEqual({ release: '0.31.2', learntOf: '0.31.1' });
      // A sync with nothing to do does not reach the server: still not learnt, and said so.
      await settle();
      expect(await status()).toContain('Server rules: not yet learnt for this release');
      box.pai('LEARNING/SYSTEM/z.md', learning('Zephyr bus', 'Zephyr uses Kafka for the event bus. Zephyr archives to Glacier.'));
      await settle();
      expect(await status()).toMatch(/\nServer rules: .*\(graphiti-core 0\.31\.2\), because the local server runs graphiti-core 0\.31\.2/);
      expect(await status()).not.toContain('not yet learnt');
    } finally {
      supervisor.child.kill('SIGKILL');
    }
  });
});

describe('held episodes end', () => {
  it('support counts only episodes that still exist: a teammate\'s deleted note no longer holds ours', async () => {
    server = await startGraphitiServer({ processingDelayMs: 0, ...V0_31_1 });
    box = makeSandbox(server.url, { MADEINOZ_KNOWLEDGE_SERVER_RULES: '0.31.1', MADEINOZ_KNOWLEDGE_ORIGIN: 'm-alice' });
    box.pai('LEARNING/SYSTEM/k.md', learning('Kafka notes', 'Kafka feeds Postgres nightly. Kafka keeps seven days of logs.'));
    await settle();
    const theirs = teammateRestates('Kafka feeds Postgres nightly.');
    rmSync(box.path('pai', 'MEMORY', 'LEARNING', 'SYSTEM', 'k.md'));
    expect(await settle()).toMatchObject({ held: 1 });
    const status = await collectStatus(box.config(), nullLogger);
    expect(status.held?.list).toEqual([expect.objectContaining({ facts: 1 })]);
    expect(formatStatus(status)).toMatch(/--release-held/);
    // The teammate deletes their note: on this server its uuid stays in the fact's episodes.
    const client = new GraphitiClient(box.config());
    await client.deleteEpisode(theirs, 'main');
    await client.close();
    expect(server.facts('main').find((f) => f.fact === 'Kafka feeds Postgres nightly.')?.episodes).toContain(theirs);
    // Within the hour nothing is asked again; after it, the held episode goes.
    mkdirSync(box.path('pai', 'MEMORY', 'LEARNING', 'SYSTEM'), { recursive: true });
    const later = Date.now() + 2 * 60 * 60_000;
    await settle({ now: () => later });
    expect(server.episodes('main').map((e) => e.name)).not.toContain('Kafka notes');
    expect((await collectStatus(box.config(), nullLogger)).held).toBeUndefined();
  });

  it('sync --release-held lets them go on request', async () => {
    server = await startGraphitiServer({ processingDelayMs: 0, ...V0_31_1 });
    box = makeSandbox(server.url, { MADEINOZ_KNOWLEDGE_SERVER_RULES: '0.31.1', MADEINOZ_KNOWLEDGE_ORIGIN: 'm-alice' });
    box.pai('LEARNING/SYSTEM/k.md', learning('Kafka notes', 'Kafka feeds Postgres nightly.'));
    await settle();
    teammateRestates('Kafka feeds Postgres nightly.');
    rmSync(box.path('pai', 'MEMORY', 'LEARNING', 'SYSTEM', 'k.md'));
    expect(await settle()).toMatchObject({ held: 1 });
    expect(await settle()).toMatchObject({ held: 0 });
    expect(server.episodes('main').map((e) => e.name)).toContain('Kafka notes');
    await settle({ releaseHeld: true });
    expect(server.episodes('main').map((e) => e.name)).not.toContain('Kafka notes');
    expect((await collectStatus(box.config(), nullLogger)).held).toBeUndefined();
  });
});

describe('no note disappears while it is being replaced', () => {
  it('0.31.1 deletes the old version first; a new version dropped past its re-sends gives the note its old version back, and --force tries the new text again', async () => {
    server = await startGraphitiServer({ processingDelayMs: 0, ...V0_31_1 });
    // A quick drop verdict: the group's patience is at most this (a real queue's is seconds to minutes).
    box = makeSandbox(server.url, { MADEINOZ_KNOWLEDGE_SERVER_RULES: '0.31.1', MADEINOZ_KNOWLEDGE_CONFIRM_MAX_AGE: '300' });
    box.pai('LEARNING/SYSTEM/z.md', learning('Zephyr bus', 'Zephyr uses Kafka for the event bus. Kafka feeds Postgres nightly.'));
    await settle();
    expect(facts()).toContain('Kafka feeds Postgres nightly.');
    // The new version is dropped every time it is sent: once, and on each of its 3 re-sends.
    server.setOptions({ faults: { dropNames: ['Zephyr bus', 'Zephyr bu', 'Zephyr b', 'Zephyr'] } });
    box.pai('LEARNING/SYSTEM/z.md', learning('Zephyr bus', 'Zephyr uses Kafka for the event bus. Zephyr archives to Glacier.'));
    for (let i = 0; i < 8 && server.calls.filter((c) => c.tool === 'add_memory').length < 6; i++) await settle();
    await settle();
    const adds = server.calls.filter((c) => c.tool === 'add_memory' && !inProbe(c)).map((c) => String(c.args.episode_body));
    // v1, then v2 four times (all dropped), then v1's text again.
    expect(adds.filter((b) => b.includes('Glacier'))).toHaveLength(4);
    expect(adds.at(-1)).toContain('Postgres nightly');
    expect(facts()).toContain('Kafka feeds Postgres nightly.');
    expect(facts()).toContain('Zephyr uses Kafka for the event bus.');
    expect(server.episodes('main').map((e) => e.content)).toEqual([expect.stringContaining('Postgres nightly')]);
    const status = await collectStatus(box.config(), nullLogger);
    expect(status.failures).toEqual([{ id: expect.stringContaining('z.md'), reason: expect.stringContaining('previous version was sent again') }]);
    // Not retried by itself: the next run sends nothing.
    const before = server.calls.filter((c) => c.tool === 'add_memory').length;
    await settle();
    expect(server.calls.filter((c) => c.tool === 'add_memory').length).toBe(before);
    // --force tries the new text again (the server takes it now).
    await runSync(box.config(), { waitMs: 5000, force: true });
    await server.whenIdle();
    await settle();
    expect(facts()).toContain('Zephyr archives to Glacier.');
    expect(facts()).toContain('Zephyr uses Kafka for the event bus.');
    expect(facts()).not.toContain('Kafka feeds Postgres nightly.');
    expect((await collectStatus(box.config(), nullLogger)).failures).toEqual([]);
  });
});

describe('a server never probed is not "another build" (an entry that learnt nothing compares with no build)', () => {
  it('after a run that only recorded the cautious rules in use, the next run does not say the server changed', async () => {
    server = await startGraphitiServer({ processingDelayMs: 0, ...V0_31_2 });
    box = makeSandbox(server.url);
    // no-probe: each run records the rules it used (`status`), and says why.
    const noProbe = box.config({ MADEINOZ_KNOWLEDGE_SERVER_RULES: 'no-probe' });
    box.pai('LEARNING/SYSTEM/a.md', learning('Alpha', 'Alpha uses Kafka.'));
    expect((await runSync(noProbe, { waitMs: 5000 })).semantics).toMatchObject({ source: 'assumed', why: expect.stringMatching(/tools do not tell its rules, and MADEINOZ_KNOWLEDGE_SERVER_RULES=no-probe/) });
    await server.whenIdle();
    box.pai('LEARNING/SYSTEM/b.md', learning('Beta', 'Beta uses Kafka.'));
    const second = await runSync(noProbe, { waitMs: 5000 });
    expect(second.semantics?.why).not.toMatch(/another build/);
    expect(second.semantics?.why).toMatch(/tools do not tell its rules, and MADEINOZ_KNOWLEDGE_SERVER_RULES=no-probe/);
    await server.whenIdle();

    // auto: a run that only adds records the cautious rules (PROBE_WHEN_NEEDED); the first probe, by the run that replaces, is not "probing again".
    const lines: string[] = [];
    const logger = createLogger({ level: 'info', mirror: (line) => void lines.push(line) });
    box.pai('LEARNING/SYSTEM/c.md', learning('Gamma', 'Gamma uses Redis.'));
    expect((await runSync(box.config(), { waitMs: 5000, logger })).semantics).toMatchObject({ source: 'assumed' });
    await server.whenIdle();
    box.pai('LEARNING/SYSTEM/c.md', learning('Gamma', 'Gamma uses Valkey.'));
    expect((await runSync(box.config(), { waitMs: 5000, logger })).semantics).toMatchObject({ source: 'probe' });
    expect(probes()).toBe(1);
    expect(lines.filter((l) => l.includes('may have changed'))).toEqual([]);
  });
});
