/**
 * End-to-end: real files on disk → our MCP client → real loopback HTTP → the Graphiti-shaped
 * test server. Every assertion is about what the server received or holds.
 */
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli-main.js';
import { acquireLock } from '../../src/lib/state/lock.js';
import { formatStatus, formatSyncSummary } from '../../src/commands/reports.js';
import { loadState } from '../../src/lib/state/state.js';
import { runSync } from '../../src/lib/sync/sync.js';
import { readMemoryFile } from '../../src/lib/sync/prepare.js';
import { GraphitiClient } from '../../src/lib/graphiti/graphiti.js';
import type { GraphitiTestServer } from '../support/graphiti-server.js';
import { learning, type Sandbox } from '../support/sandbox.js';
import { useServerAndSandbox } from '../helpers/use-server-and-sandbox.js';
import { cli } from '../../src/lib/util/install-route.js';

/** The running copy's command (this checkout's: node and the path of its dist/cli.js), as a regular expression. */
const CLI = cli().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

let server: GraphitiTestServer;
let box: Sandbox;

useServerAndSandbox((s, b) => {
  server = s;
  box = b;
});

const adds = () => server.calls.filter((c) => c.tool === 'add_memory');
const deletes = () => server.calls.filter((c) => c.tool === 'delete_episode');

async function syncAndSettle(extra: Record<string, string> = {}) {
  const summary = await runSync(box.config(extra));
  await server.whenIdle();
  return summary;
}

function cliIo(env: Record<string, string>) {
  let out = '';
  let err = '';
  return {
    io: { stdout: (t: string) => void (out += t), stderr: (t: string) => void (err += t), isTTY: false, env, cwd: env.HOME as string },
    out: () => out,
    err: () => err,
  };
}

describe('sync end to end', () => {
  it('adds each file once, confirms it, and a second run sends nothing', async () => {
    box.pai('LEARNING/SYSTEM/2026-01/a.md', learning('Alpha', 'Alpha body.'));
    box.pai('RESEARCH/2026-01/b.md', learning('Beta', 'Beta body.'));
    box.auto('-home-me-repo', 'feedback_x.md', '---\nname: Feedback X\ndescription: d\ntype: feedback\n---\nUse real servers.\n');
    box.auto('-home-me-repo', 'MEMORY.md', '- [Feedback X](feedback_x.md) — hook\n');

    const first = await syncAndSettle();
    expect(first.added).toBe(3);
    expect(adds()).toHaveLength(3);
    expect(server.episodes('main')).toHaveLength(3);

    const second = await syncAndSettle();
    expect(second).toMatchObject({ added: 0, updated: 0, deleted: 0, unchanged: 3, confirmed: 3, queued: 0, pending: 0 });
    expect(adds()).toHaveLength(3);
    const third = await syncAndSettle();
    expect(third.confirmed).toBe(3);
    expect(adds()).toHaveLength(3);
    expect(server.calls.filter((c) => c.tool === 'get_episodes').length).toBeLessThanOrEqual(2);
  });

  it('replaces the episode of an edited file and deletes the episode of a deleted file', async () => {
    const a = box.pai('LEARNING/SYSTEM/a.md', learning('Alpha', 'First version.'));
    const b = box.pai('LEARNING/SYSTEM/b.md', learning('Beta', 'Stays.'));
    await syncAndSettle();
    await syncAndSettle(); // confirm uuids
    const before = server.episodes('main');
    const oldAlpha = before.find((e) => e.name === 'Alpha');
    expect(oldAlpha).toBeDefined();

    box.pai('LEARNING/SYSTEM/a.md', learning('Alpha', 'Second version, longer.'));
    const edit = await syncAndSettle();
    expect(edit.updated).toBe(1);
    await syncAndSettle();
    const alphas = server.episodes('main').filter((e) => e.name === 'Alpha');
    expect(alphas).toHaveLength(1);
    expect(alphas[0]?.content).toContain('Second version');
    expect(deletes().map((c) => c.args.uuid)).toContain(oldAlpha?.uuid);

    rmSync(b);
    const del = await syncAndSettle();
    expect(del.deleted).toBe(1);
    expect(server.episodes('main').map((e) => e.name)).toEqual(['Alpha']);
    expect(a).toBeTruthy();
  });

  it('make before break: an edit keeps the old episode until the new version is confirmed, also when the server drops the new one', async () => {
    box.pai('LEARNING/SYSTEM/a.md', learning('Alpha', 'First version.'));
    await syncAndSettle();
    await syncAndSettle(); // confirm the uuid
    const alphas = () => server.episodes('main').filter((e) => e.name === 'Alpha');
    const oldUuid = alphas()[0]?.uuid;
    expect(oldUuid).toBeDefined();

    box.pai('LEARNING/SYSTEM/a.md', learning('Alpha', 'Second version.'));
    server.failNext('drop', 1); // the new version of Alpha is accepted, then lost
    const config = box.config({ MADEINOZ_KNOWLEDGE_CONCURRENCY: '1' });
    // Runs a minute apart, as hooks or watch would run them (a group is not listed at every run).
    let clock = Date.now();
    const now = () => clock;
    await runSync(config, { now });
    await server.whenIdle();
    const seen: number[] = [alphas().length];
    expect(alphas().map((e) => e.uuid)).toEqual([oldUuid]); // dropped: only the old version, kept
    // A note sent in a later run is FIFO evidence of the drop once it is visible.
    box.pai('LEARNING/SYSTEM/b.md', learning('Beta', 'Sent after the new Alpha.'));
    for (let run = 0; run < 5; run++) {
      clock += 60_000;
      await runSync(config, { now });
      await server.whenIdle();
      seen.push(alphas().length);
      // The file never has zero episodes; the old one stays while the new one is not confirmed.
      expect(alphas().length).toBeGreaterThanOrEqual(1);
      if (!alphas().some((e) => e.content.includes('Second version'))) expect(alphas().map((e) => e.uuid)).toEqual([oldUuid]);
    }
    expect(seen[0]).toBe(1); // after the drop: only the old version
    expect(alphas()).toHaveLength(1);
    expect(alphas()[0]?.content).toContain('Second version');
    expect(deletes().map((c) => c.args.uuid)).toEqual([oldUuid]);
  });

  it('a note renamed before it could be sent reaches the graph once, from its new name, when the server is back', async () => {
    const a = box.pai('LEARNING/SYSTEM/a.md', learning('Alpha', 'Written while the server was down.'));
    const down = box.config({ MADEINOZ_KNOWLEDGE_RETRIES: '0' });
    await server.stop({ keepState: true });
    expect((await runSync(down)).pending).toBe(1);
    renameSync(a, join(box.path('pai/MEMORY/LEARNING/SYSTEM'), 'renamed.md'));
    // The move is seen while the server is still down: the record moves, its part still unsent.
    expect(await runSync(down)).toMatchObject({ renamed: 1, pending: 1 });
    await server.start();
    await syncAndSettle();
    const summary = await syncAndSettle();
    expect(summary).toMatchObject({ pending: 0, queued: 0, confirmed: 1, failed: 0 });
    expect(adds()).toHaveLength(1);
    const episodes = server.episodes('main');
    expect(episodes).toHaveLength(1);
    expect(episodes[0]?.content).toContain('Written while the server was down.');
    const state = (await loadState(box.config().stateDir, { readOnly: true })).state;
    expect(Object.keys(state.files)).toEqual(['pai:LEARNING/SYSTEM/renamed.md']);
    expect(episodes[0]?.source_description).toContain(state.files['pai:LEARNING/SYSTEM/renamed.md']?.episodes[0]?.marker);

    // Renamed in the very run that can send it: sent at once, under the part's marker.
    const b = box.pai('LEARNING/SYSTEM/b.md', learning('Beta', 'Also written while the server was down.'));
    await server.stop({ keepState: true });
    await runSync(down);
    await server.start();
    renameSync(b, join(box.path('pai/MEMORY/LEARNING/SYSTEM'), 'b-renamed.md'));
    expect(await syncAndSettle()).toMatchObject({ renamed: 1, pending: 0 });
    expect(await syncAndSettle()).toMatchObject({ pending: 0, queued: 0, confirmed: 2 });
    expect(adds()).toHaveLength(2);
    expect(server.episodes('main').map((e) => e.name).sort()).toEqual(['Alpha', 'Beta']);
  });

  it('a dropped episode found missing just as its note is renamed is re-sent from the new name, not left pending', async () => {
    // The soak's failure (seed 20260104, file 26): the run that found the drop could not re-read the
    // note (renamed since its scan), and every later run saw the rename and never sent the part.
    const config = box.config({ MADEINOZ_KNOWLEDGE_CONCURRENCY: '1' });
    const a = box.pai('LEARNING/SYSTEM/a.md', learning('Alpha', 'Dropped by the server, then renamed.'));
    server.failNext('drop', 1); // Alpha is accepted and lost
    let clock = Date.now();
    const now = () => clock;
    await runSync(config, { now });
    box.pai('LEARNING/SYSTEM/b.md', learning('Beta', 'Sent after Alpha: FIFO evidence of its drop once visible.'));
    clock += 1000;
    await runSync(config, { now });
    await server.whenIdle();
    expect(server.episodes('main').map((e) => e.name)).toEqual(['Beta']);

    // The next run lists the group (Beta visible, Alpha not: dropped); the note moves while the listing is out.
    const graphiti = new GraphitiClient(config);
    const list = graphiti.getEpisodes.bind(graphiti);
    let moved = false;
    graphiti.getEpisodes = async (...args) => {
      if (!moved) renameSync(a, join(box.path('pai/MEMORY/LEARNING/SYSTEM'), 'a-renamed.md'));
      moved = true;
      return list(...args);
    };
    clock += 60_000;
    expect(await runSync(config, { now, graphiti })).toMatchObject({ resent: 1, pending: 1 });
    await graphiti.close();
    expect(moved).toBe(true);
    // The drop was found, but the note could not be read again under its old name: its part is unsent.
    const found = (await loadState(config.stateDir, { readOnly: true })).state.files['pai:LEARNING/SYSTEM/a.md'];
    expect(found?.episodes.map((ref) => ({ sentAt: ref.sentAt, resends: ref.resends }))).toEqual([{ sentAt: undefined, resends: 1 }]);
    expect(adds()).toHaveLength(2);
    await server.whenIdle();
    // Runs a minute apart, as hooks or watch would run them: the part goes out again and is confirmed.
    const summaries = [];
    for (let run = 0; run < 3; run++) {
      clock += 60_000;
      summaries.push(await runSync(config, { now }));
      await server.whenIdle();
    }
    expect(summaries.at(-1)).toMatchObject({ pending: 0, queued: 0, confirmed: 2, failed: 0 });
    const alphas = server.episodes('main').filter((e) => e.name === 'Alpha');
    expect(alphas).toHaveLength(1);
    expect(alphas[0]?.content).toContain('Dropped by the server, then renamed.');
    expect(server.episodes('main')).toHaveLength(2);
    expect(adds()).toHaveLength(3);
  });

  it("a note moved to another project's memory is in that project's group afterwards, once (not kept in the old project's)", async () => {
    const config = box.config({ MADEINOZ_KNOWLEDGE_SOURCE_GROUPS: 'auto-memory={project}' });
    const from = box.auto('-home-me-alpha', 'feedback_x.md', '---\nname: Feedback X\ndescription: d\ntype: feedback\n---\nUse real servers.\n');
    await runSync(config);
    await server.whenIdle();
    expect(await runSync(config)).toMatchObject({ confirmed: 1 });
    const to = from.replace('-home-me-alpha', '-home-me-beta');
    mkdirSync(join(to, '..'), { recursive: true });
    renameSync(from, to);
    await runSync(config);
    await server.whenIdle();
    expect(await runSync(config)).toMatchObject({ pending: 0, queued: 0, confirmed: 1 });
    expect(server.episodes().map((e) => [e.group_id, e.name])).toEqual([['home-me-beta', 'Feedback X']]);
    const state = (await loadState(config.stateDir, { readOnly: true })).state;
    expect(Object.values(state.files).map((r) => [r.id, r.episodes.map((ref) => ref.groupId)])).toEqual([['auto-memory:-home-me-beta/memory/feedback_x.md', ['home-me-beta']]]);
  });

  it('does not re-send a renamed file with identical content', async () => {
    const a = box.pai('LEARNING/SYSTEM/a.md', learning('Alpha', 'Same content.'));
    await syncAndSettle();
    renameSync(a, join(box.path('pai/MEMORY/LEARNING/SYSTEM'), 'renamed.md'));
    const summary = await syncAndSettle();
    expect(summary.renamed).toBe(1);
    expect(summary.added).toBe(0);
    expect(adds()).toHaveLength(1);
    expect(deletes()).toHaveLength(0);
    expect(server.episodes('main')).toHaveLength(1);
  });

  it('keeps everything pending while the server is down, then delivers once without duplicates', async () => {
    box.pai('LEARNING/SYSTEM/a.md', learning('Alpha', 'A.'));
    box.pai('LEARNING/SYSTEM/b.md', learning('Beta', 'B.'));
    await server.stop();
    const c1 = cliIo(box.env);
    expect(await main(['sync', '--json'], c1.io)).toBe(1);
    const down = JSON.parse(c1.out());
    expect(down).toMatchObject({ pending: 2, confirmed: 0, serverReachable: false });
    for (const k of ['added', 'updated', 'deleted', 'unchanged', 'skipped', 'failed', 'pending', 'queued', 'confirmed']) expect(Number.isInteger(down[k])).toBe(true);

    await server.start();
    const c2 = cliIo(box.env);
    expect(await main(['sync', '--json', '--wait', '5000'], c2.io)).toBe(0);
    expect(JSON.parse(c2.out())).toMatchObject({ pending: 0, confirmed: 2 });
    expect(adds()).toHaveLength(2);
    expect(server.episodes('main')).toHaveLength(2);
  });

  it('detects silently dropped episodes and re-sends them', async () => {
    box.pai('LEARNING/SYSTEM/a.md', learning('Alpha', 'A.'));
    box.pai('LEARNING/SYSTEM/b.md', learning('Beta', 'B.'));
    box.pai('LEARNING/SYSTEM/c.md', learning('Gamma', 'C.'));
    server.failNext('drop', 1); // the first add_memory is accepted and then lost
    const summary = await runSync(box.config({ MADEINOZ_KNOWLEDGE_CONCURRENCY: '1' }), { waitMs: 10_000 });
    await server.whenIdle();
    expect(summary.resent).toBeGreaterThanOrEqual(1);
    expect(summary.confirmed).toBe(3);
    const names = server.episodes('main').map((e) => e.name).sort();
    expect(names).toEqual(['Alpha', 'Beta', 'Gamma']);
  });

  it('marks a file failed after the server rejects it three times, and --force retries it', async () => {
    box.pai('LEARNING/SYSTEM/a.md', learning('Alpha', 'A.'));
    server.failNext('queueError', 3);
    const statusOf = async () => (await loadState(box.env.MADEINOZ_KNOWLEDGE_STATE_DIR as string)).state.files['pai:LEARNING/SYSTEM/a.md'];
    const first = await runSync(box.config());
    expect(first).toMatchObject({ pending: 1, failed: 0 });
    expect((await statusOf())?.attempts).toBe(1);
    await runSync(box.config());
    const third = await runSync(box.config());
    expect(third).toMatchObject({ pending: 0, failed: 1 });
    expect((await statusOf())?.lastError).toMatch(/Error queuing episode/);
    expect(third.problems.map((p) => p.reason)).toContain('rejected');
    const again = await runSync(box.config());
    expect(again.failed).toBe(1);
    expect(adds()).toHaveLength(3);
    const forced = await runSync(box.config(), { force: true, waitMs: 5000 });
    expect(forced).toMatchObject({ failed: 0, confirmed: 1 });
    expect(server.episodes('main')).toHaveLength(1);
  });

  it('moves episodes to a new group with --force after the group setting changed', async () => {
    box.pai('LEARNING/SYSTEM/a.md', learning('Alpha', 'A.'));
    await runSync(box.config(), { waitMs: 5000 });
    expect(server.episodes('main')).toHaveLength(1);
    const plain = await runSync(box.config({ MADEINOZ_KNOWLEDGE_GROUP_ID: 'work' }));
    expect(plain.updated).toBe(0);
    const forced = await runSync(box.config({ MADEINOZ_KNOWLEDGE_GROUP_ID: 'work' }), { force: true, waitMs: 5000 });
    expect(forced.updated).toBe(1);
    await server.whenIdle();
    await runSync(box.config({ MADEINOZ_KNOWLEDGE_GROUP_ID: 'work' }), { waitMs: 5000 });
    expect(server.episodes('work')).toHaveLength(1);
    expect(server.episodes('main')).toHaveLength(0);
  });

  it('a server with a graph per group (1.1.0): edits and deletes in a group that is not its default remove the old episodes', async () => {
    server.setOptions({ mainParams: true, graphPerGroup: true });
    const work = { MADEINOZ_KNOWLEDGE_GROUP_ID: 'work' };
    box.pai('LEARNING/SYSTEM/a.md', learning('Alpha', 'First version.'));
    box.pai('LEARNING/SYSTEM/b.md', learning('Beta', 'Goes away.'));
    await runSync(box.config(work), { waitMs: 5000 });
    box.pai('LEARNING/SYSTEM/a.md', learning('Alpha', 'Second version.'));
    rmSync(box.path('pai', 'MEMORY', 'LEARNING', 'SYSTEM', 'b.md'));
    await runSync(box.config(work), { waitMs: 5000 });
    await server.whenIdle();
    await runSync(box.config(work), { waitMs: 5000 });
    expect(server.episodes('work').map((e) => e.content.includes('Second version') && e.name)).toEqual(['Alpha']);
    // Besides the one-time semantics probe in its scratch group (graphiti/semantics.ts).
    const ours = deletes().filter((c) => !String(c.args.group_id).startsWith('gms_probe_'));
    expect(ours.map((c) => c.args.group_id)).toEqual(['work', 'work']);
    expect(ours.map((c) => c.result)).not.toContainEqual(expect.objectContaining({ error: expect.anything() }));
  });

  it('an add_memory whose reply was lost is treated as in flight and confirmed, not sent twice', async () => {
    box.pai('LEARNING/SYSTEM/a.md', learning('Alpha', 'A.'));
    server.failNext('lostReply', 1);
    const first = await runSync(box.config({ MADEINOZ_KNOWLEDGE_RETRIES: '0' }));
    expect(first).toMatchObject({ queued: 1, pending: 0 });
    await server.whenIdle();
    const second = await runSync(box.config());
    expect(second.confirmed).toBe(1);
    expect(adds()).toHaveLength(1);
    expect(server.episodes('main')).toHaveLength(1);
  });

  it('with the default retries too: the lost reply is not sent again by the call\'s own retries; the next sync confirms the one episode (ADD_ONCE)', async () => {
    box.pai('LEARNING/SYSTEM/a.md', learning('Alpha', 'A.'));
    server.failNext('lostReply', 1);
    const first = await runSync(box.config());
    expect(first).toMatchObject({ queued: 1, pending: 0 });
    await server.whenIdle();
    expect(adds()).toHaveLength(1);
    expect(server.episodes('main')).toHaveLength(1);
    const second = await runSync(box.config());
    expect(second).toMatchObject({ confirmed: 1, duplicatesRemoved: 0 });
    expect(adds()).toHaveLength(1);
  });

  it('one lost reply among many notes: that part goes in flight and the run sends the rest; a second lost reply stops sending (ONE_LOST_REPLY)', async () => {
    for (let i = 0; i < 6; i++) box.pai(`LEARNING/SYSTEM/f${i}.md`, learning(`F${i}`, `Body ${i}.`));
    const config = box.config({ MADEINOZ_KNOWLEDGE_CONCURRENCY: '1' });
    server.failNext('lostReply', 1);
    expect(await runSync(config)).toMatchObject({ queued: 6, pending: 0, serverReachable: true });
    await server.whenIdle();
    expect(adds()).toHaveLength(6);
    expect(await runSync(config)).toMatchObject({ confirmed: 6, duplicatesRemoved: 0 });
    for (let i = 0; i < 6; i++) box.pai(`LEARNING/SYSTEM/f${i}.md`, learning(`F${i}`, `Body ${i}, edited.`));
    server.failNext('lostReply', 2);
    expect(await runSync(config)).toMatchObject({ pending: 4, serverReachable: false });
  });

  it.each(['forwarded502', 'forwarded504'] as const)("a proxy's %s after it forwarded add_memory (the episode exists): in flight, confirmed by the next sync, never sent again", async (kind) => {
    box.pai('LEARNING/SYSTEM/a.md', learning('Alpha', 'A.'));
    server.failNext(kind, 1);
    // Retries 0: what the sync does with the answer, not the call's own retries (graphiti.test.ts).
    expect(await runSync(box.config({ MADEINOZ_KNOWLEDGE_RETRIES: '0' }))).toMatchObject({ queued: 1, pending: 0 });
    await server.whenIdle();
    expect(await runSync(box.config())).toMatchObject({ confirmed: 1, resent: 0, duplicatesRemoved: 0 });
    expect(adds()).toHaveLength(1);
    expect(server.episodes('main')).toHaveLength(1);
  });

  it("a proxy's 502 without forwarding (the episode does not exist): nothing lost, the part is sent again on drop evidence", async () => {
    // A clock that moves a millisecond at each reading: the later note's send is later than the 502 (FIFO compares times).
    let clock = Date.now();
    const now = () => (clock += 1);
    box.pai('LEARNING/SYSTEM/a.md', learning('Alpha', 'A.'));
    box.pai('LEARNING/SYSTEM/b.md', learning('Beta', 'B.'));
    const config = box.config({ MADEINOZ_KNOWLEDGE_CONCURRENCY: '1', MADEINOZ_KNOWLEDGE_RETRIES: '0' });
    server.failNext('unforwarded502', 1);
    expect(await runSync(config, { now })).toMatchObject({ queued: 2, pending: 0, serverReachable: true });
    await server.whenIdle();
    // The note sent after it is in the graph and it is not (FIFO): sent again, once.
    expect(await runSync(config, { now })).toMatchObject({ confirmed: 1, resent: 1 });
    await server.whenIdle();
    clock += 1_000;
    expect(await runSync(config, { now })).toMatchObject({ confirmed: 2, resent: 0 });
    expect(server.episodes('main').map((e) => e.name).sort()).toEqual(['Alpha', 'Beta']);
  });

  it("a lone note whose add_memory got a proxy's 502 without forwarding waits for the group's patience, then is sent again once", async () => {
    let clock = Date.now();
    const now = () => clock;
    box.pai('LEARNING/SYSTEM/a.md', learning('Alpha', 'A.'));
    const config = box.config({ MADEINOZ_KNOWLEDGE_RETRIES: '0', MADEINOZ_KNOWLEDGE_CONFIRM_MAX_AGE: '60000' });
    server.failNext('unforwarded502', 1);
    expect(await runSync(config, { now })).toMatchObject({ queued: 1, pending: 0 });
    clock += 30_000;
    expect(await runSync(config, { now })).toMatchObject({ queued: 1, resent: 0 });
    clock += 31_000;
    const again = await runSync(config, { now });
    expect(again).toMatchObject({ resent: 1 });
    expect(formatSyncSummary(again)).toMatch(/^re-sent 1 episode\(s\) the server had dropped$/m);
    await server.whenIdle();
    clock += 1_000;
    expect(await runSync(config, { now })).toMatchObject({ confirmed: 1, resent: 0 });
    expect(server.episodes('main').map((e) => e.name)).toEqual(['Alpha']);
  });

  it('a refused connection leaves the part unsent, so it goes out as soon as the server is back', async () => {
    box.pai('LEARNING/SYSTEM/a.md', learning('Alpha', 'A.'));
    await server.stop();
    expect((await runSync(box.config())).pending).toBe(1);
    await server.start();
    expect((await runSync(box.config(), { waitMs: 5000 })).confirmed).toBe(1);
  });

  it('a long backlog that keeps moving is not mistaken for drops; one that stalls is', async () => {
    let clock = Date.now();
    const now = () => clock;
    for (let i = 0; i < 3; i++) box.pai(`LEARNING/SYSTEM/f${i}.md`, learning(`F${i}`, `Body ${i}.`));
    const config = box.config({ MADEINOZ_KNOWLEDGE_CONCURRENCY: '1', MADEINOZ_KNOWLEDGE_CONFIRM_MAX_AGE: '60000' });
    server.pauseProcessing(); // Graphiti's worker is busy with a backlog
    expect(await runSync(config, { now })).toMatchObject({ queued: 3, resent: 0 });
    // Two hours later the backlog has reached the first of ours.
    clock += 2 * 3_600_000;
    const first = adds()[0]?.args as Record<string, string>;
    server.seedEpisode({ name: first.name as string, content: first.episode_body as string, source_description: first.source_description as string, group_id: 'main' });
    const moving = await runSync(config, { now });
    expect(moving).toMatchObject({ confirmed: 1, queued: 2, resent: 0 });
    // Then nothing moves for longer than MADEINOZ_KNOWLEDGE_CONFIRM_MAX_AGE: the rest was lost.
    clock += 2 * 60_000;
    const stalled = await runSync(config, { now });
    expect(stalled.resent).toBe(2);
    expect(adds()).toHaveLength(5);
  });

  it('recovers from a corrupt state file without re-sending', async () => {
    box.pai('LEARNING/SYSTEM/a.md', learning('Alpha', 'A.'));
    box.pai('LEARNING/SYSTEM/b.md', learning('Beta', 'B.'));
    await syncAndSettle();
    const stateFile = join(box.env.MADEINOZ_KNOWLEDGE_STATE_DIR as string, 'state.json');
    writeFileSync(stateFile, '{"tool":"graphiti-memory-sync","version":1,"files":{"trunc');
    const summary = await syncAndSettle();
    expect(adds()).toHaveLength(2);
    expect(summary.confirmed).toBe(2);
    const loaded = await loadState(box.env.MADEINOZ_KNOWLEDGE_STATE_DIR as string);
    expect(loaded.recovered).toBeUndefined();
    expect(Object.keys(loaded.state.files)).toHaveLength(2);
  });

  it('reports hostile files per file and still syncs every good file', async () => {
    box.pai('LEARNING/SYSTEM/good1.md', learning('Good one', 'Fine.'));
    box.pai('LEARNING/SYSTEM/bad-yaml.md', '---\ntitle: [unclosed\n---\nbody\n');
    box.pai('LEARNING/SYSTEM/js.md', '---js\n{ title: (function(){ globalThis.__pwned = true; return "x" })() }\n---\nbody\n');
    box.pai('LEARNING/SYSTEM/binary.md', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 1, 2, 3]));
    box.pai('LEARNING/SYSTEM/empty.md', '');
    box.pai('LEARNING/SYSTEM/latin1.md', Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a, 0xff, 0xfe]));
    box.pai('LEARNING/SYSTEM/crlf.md', '---\r\ntitle: Windows file\r\n---\r\nCRLF body\r\n');
    box.pai('LEARNING/SYSTEM/bom.md', '\uFEFF---\ntitle: BOM file\n---\nBOM body\n');
    box.pai('LEARNING/SYSTEM/proto.md', '---\n__proto__: {polluted: true}\ntitle: Proto\n---\nbody\n');
    box.pai('LEARNING/SYSTEM/types.md', '---\ntitle: Wrong types\ntags: 5\nrating: high\ntimestamp: [1]\n---\nbody\n');
    box.pai('LEARNING/SYSTEM/new\nline name ü.md', learning('Odd name', 'Still synced.'));
    box.pai('LEARNING/SYSTEM/private.md', '---\ntitle: Secret plans\nprivate: true\n---\nnever sent\n');
    box.pai('LEARNING/SYSTEM/huge.md', `# Huge\n${'x'.repeat(2 * 1024 * 1024)}`);
    box.pai('LEARNING/SYSTEM/loop.md', '{\n  "message": "Facts retrieved successfully",\n  "facts": [\n    {"uuid": "1", "fact": "x"}\n  ]\n}\n');

    const summary = await syncAndSettle();
    expect((globalThis as Record<string, unknown>).__pwned).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const sentNames = adds().map((c) => String(c.args.name)).sort();
    expect(sentNames).toEqual(['BOM file', 'Good one', 'Odd name', 'Proto', 'Windows file', 'Wrong types']);
    const { state } = await loadState(box.env.MADEINOZ_KNOWLEDGE_STATE_DIR as string);
    const reason = (rel: string) => {
      const r = state.files[`pai:LEARNING/SYSTEM/${rel}`];
      return `${r?.status} ${r?.skipReason ?? r?.lastError ?? ''}`;
    };
    expect(reason('bad-yaml.md')).toMatch(/^failed yaml/);
    expect(reason('js.md')).toMatch(/^failed js/);
    expect(reason('binary.md')).toMatch(/^failed binary/);
    expect(reason('latin1.md')).toMatch(/^failed not-utf8/);
    expect(reason('empty.md')).toMatch(/^skipped empty/);
    expect(reason('private.md')).toMatch(/^skipped opt-out/);
    expect(reason('huge.md')).toMatch(/^skipped too-large/);
    expect(reason('loop.md')).toMatch(/^skipped loop/);
    // Each failure names its next step: editing the file is what makes the next sync read it again.
    for (const bad of ['bad-yaml.md', 'js.md', 'binary.md', 'latin1.md']) expect(reason(bad)).toMatch(/; fix the file \(or remove it\); the next sync reads it again$/);
    expect(summary.failed).toBe(4);
    expect(adds().some((c) => String(c.args.episode_body).includes('never sent'))).toBe(false);
  });

  it('a too-large file names its step, and the step works: a raised limit alone does not send it, sync --force does', async () => {
    box.pai('LEARNING/SYSTEM/big.md', learning('Big one', 'x'.repeat(3000)));
    const small = await syncAndSettle({ MADEINOZ_KNOWLEDGE_MAX_FILE_BYTES: '1000' });
    const problem = small.problems.find((p) => p.id === 'pai:LEARNING/SYSTEM/big.md');
    expect(problem?.message).toMatch(new RegExp(String.raw`^too-large: \d+ bytes is over MADEINOZ_KNOWLEDGE_MAX_FILE_BYTES \(1000\): split the file, or raise MADEINOZ_KNOWLEDGE_MAX_FILE_BYTES and run "${CLI} sync --force"$`));
    await syncAndSettle({ MADEINOZ_KNOWLEDGE_MAX_FILE_BYTES: '100000' });
    expect(adds()).toHaveLength(0);
    await runSync(box.config({ MADEINOZ_KNOWLEDGE_MAX_FILE_BYTES: '100000' }), { force: true });
    await server.whenIdle();
    expect(adds().map((c) => c.args.name)).toEqual(['Big one']);
  });

  it('an unreadable file names its step (sync --force: a permission change leaves its mtime as recorded)', async () => {
    const dir = box.path('a-folder.md');
    mkdirSync(dir, { recursive: true });
    const read = await readMemoryFile(dir);
    expect(read).toMatchObject({ kind: 'failed', reason: expect.stringMatching(new RegExp(String.raw`^unreadable: .*; make it readable, then run "${CLI} sync --force"`)) });
  });

  it('redacts secrets before they leave the machine', async () => {
    const key = ['AKIA', 'Q7ZP3XK2M5WB8RTY'].join(''); // not AWS's documentation key (…EXAMPLE), which is not a secret
    box.pai('LEARNING/SYSTEM/secret.md', learning('Cloud setup', `Use key ${key} and postgres://app:hunter2@db:5432/app please.\n<private>my diary</private>`));
    const summary = await syncAndSettle();
    const body = String(adds()[0]?.args.episode_body);
    expect(body).not.toContain(key);
    expect(body).not.toContain('hunter2');
    expect(body).not.toContain('my diary');
    expect(summary.redactions).toBeGreaterThanOrEqual(2);
    // Counted by kind, in the summary and in the state `status` reads; kinds and counts, never values.
    expect(summary.redactionsByKind).toEqual({ 'aws-access-key-id': 1, 'url-password': 1 });
    expect(formatSyncSummary(summary)).toContain('redacted 2 secret(s) before sending: aws-access-key-id 1, url-password 1');
    const stateDir = box.env.MADEINOZ_KNOWLEDGE_STATE_DIR as string;
    const lastRun = (await loadState(stateDir, { readOnly: true })).state.lastRun;
    expect(lastRun?.redactions).toEqual({ 'aws-access-key-id': 1, 'url-password': 1 });
    expect(formatStatus({ stateDir, counts: { pending: 0, queued: 0, confirmed: 1, failed: 0, skipped: 0 }, total: 1, failures: [], skipped: [], orphansToDelete: 0, lastRun: { startedAt: 'T', finishedAt: 'T', redactions: lastRun?.redactions }, server: { ok: true, message: 'ok', url: 'u', elapsedMs: 1 }, serverUrlFrom: 'from MADEINOZ_KNOWLEDGE_MCP_URL' })).toContain(
      'Last run: T; redacted aws-access-key-id 1, url-password 1',
    );
    const log = readFileSync(join(stateDir, 'state.json'), 'utf8');
    expect(log).not.toContain(key);
  });

  it('CLI: sync waits for a lock held elsewhere and says who holds it', async () => {
    box.pai('LEARNING/SYSTEM/a.md', learning('Alpha', 'A.'));
    const lock = await acquireLock(box.env.MADEINOZ_KNOWLEDGE_STATE_DIR as string, { label: 'watch' });
    const c = cliIo(box.env);
    const run = main(['sync', '--json', '--wait', '5000'], c.io);
    await vi.waitFor(() => expect(c.err()).toMatch(/waiting for another sync to finish \(pid \d+ .*\(watch\)/), { timeout: 10_000 });
    expect(adds()).toHaveLength(0);
    await lock.release();
    expect(await run).toBe(0);
    expect(adds()).toHaveLength(1);
  });

  it('CLI: dry run changes nothing; bad usage and bad config exit 2', async () => {
    box.pai('LEARNING/SYSTEM/a.md', learning('Alpha', 'A.'));
    const dry = cliIo(box.env);
    // Planned work is a dry run's answer, not a failure: exit 0 (a failed file would make it 1).
    expect(await main(['sync', '--dry-run'], dry.io)).toBe(0);
    expect(dry.out()).toMatch(/add\s+pai:LEARNING\/SYSTEM\/a.md/);
    expect(adds()).toHaveLength(0);
    const usage = cliIo(box.env);
    expect(await main(['sync', '--max', 'lots'], usage.io)).toBe(2);
    expect(await main(['sync', '--bogus'], cliIo(box.env).io)).toBe(2);
    const badConfig = cliIo({ ...box.env, MADEINOZ_KNOWLEDGE_DB: 'mysql' });
    expect(await main(['sync'], badConfig.io)).toBe(2);
    expect(badConfig.err()).toMatch(/MADEINOZ_KNOWLEDGE_DB="mysql"/);
    expect(await main(['sync', '--source', 'nope'], cliIo(box.env).io)).toBe(2);
  });

  it('CLI: --max limits a run and --source picks one source', async () => {
    box.pai('LEARNING/SYSTEM/a.md', learning('Alpha', 'A.'));
    box.pai('LEARNING/SYSTEM/b.md', learning('Beta', 'B.'));
    box.auto('-p', 'x.md', '---\nname: X\n---\nx\n');
    const c = cliIo(box.env);
    expect(await main(['sync', '--json', '--source', 'pai', '--max', '1'], c.io)).toBe(1);
    expect(adds()).toHaveLength(1);
    const c2 = cliIo(box.env);
    expect(await main(['sync', '--json', '--source', 'auto-memory'], c2.io)).toBe(0);
    expect(adds().map((a) => a.args.name)).toContain('X');
  });
});
