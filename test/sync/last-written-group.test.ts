/**
 * A server that lists and deletes only in the group it last wrote to (servers 1.0.x on FalkorDB:
 * graphiti-core 0.28.2 and 0.29.3; graphiti/semantics.ts `listsInLastWrittenGroup`), with a note in
 * the main group and a project's group beside it. The fast test server is taught the real one's
 * behaviour (options.ts `lastWrittenGroup`); test/real-graphiti/old-groups.test.ts proves it on the
 * real servers. Asserted: what the graph holds, what the sync says and what `status` says.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { collectStatus, formatStatus, formatSyncSummary } from '../../src/commands/reports.js';
import { renderContextForCli } from '../../src/lib/context/cli.js';
import { projectGroupId } from '../../src/lib/graphiti/escape.js';
import { GraphitiClient } from '../../src/lib/graphiti/graphiti.js';
import { loadState } from '../../src/lib/state/state.js';
import { BLIND_LISTING_PATIENCE_MS } from '../../src/lib/sync/reconcile.js';
import { runSync } from '../../src/lib/sync/sync.js';
import { nullLogger } from '../../src/lib/util/log.js';
import { startGraphitiServer, type GraphitiServerOptions, type GraphitiTestServer } from '../support/graphiti-server.js';
import { learning, makeSandbox, type Sandbox } from '../support/sandbox.js';

const GENERATIONS: Record<string, GraphitiServerOptions> = {
  '0.28.2': { deleteMode: 'node-only' },
  '0.29.3': { deleteMode: 'cascade', mainParams: true },
};
const PROJECT = '-home-me-alpha';
const ENV = { MADEINOZ_KNOWLEDGE_DB: 'falkordb', MADEINOZ_KNOWLEDGE_SOURCE_GROUPS: 'auto-memory={project}' };
const memory = (name: string, body: string) => `---\nname: ${name}\ndescription: how ${name} works\ntype: project\n---\n${body}\n`;

let server: GraphitiTestServer;
let box: Sandbox;
afterEach(async () => {
  await server?.close();
  box?.cleanup();
});

describe.each(Object.keys(GENERATIONS))('a server that lists and deletes only where it last wrote (%s rules on FalkorDB, fast test server)', (generation) => {
  beforeEach(async () => {
    server = await startGraphitiServer({ processingDelayMs: 0, db: 'falkordb', lastWrittenGroup: true, ...GENERATIONS[generation] });
    box = makeSandbox(server.url, ENV);
  });
  const settle = async (config = box.config()) => {
    const summary = await runSync(config, { waitMs: 5000 });
    await server.whenIdle();
    return summary;
  };
  const contents = (group: string, name: string) =>
    server
      .episodes(group)
      .filter((e) => e.name === name)
      .map((e) => e.content.split('\n').pop())
      .sort();
  /** The two main-group notes confirmed, then a project note written last: the server is on the project's group. */
  const onTheProjectsGroup = async () => {
    box.pai('LEARNING/SYSTEM/okapi.md', learning('Okapi queues', 'Okapi queues jobs in Beanstalkd.'));
    box.pai('LEARNING/SYSTEM/quokka.md', learning('Quokka cache', 'Quokka caches pages in Varnish.'));
    expect(await settle()).toMatchObject({ pending: 0, queued: 0, added: 2 });
    box.auto(PROJECT, 'project_wombat.md', memory('Wombat builds', 'Wombat builds with Bazel.'));
    expect(await settle()).toMatchObject({ pending: 0, queued: 0, added: 1 });
    return projectGroupId('falkordb', 'home-me-alpha');
  };

  it('a note deleted while the server is on another group: its episode waits, said by status, kept out of the session context, and goes once the server is back on its group', async () => {
    await onTheProjectsGroup();
    const repo = box.path('code', 'okapi'); // the project's name is what the session's search asks for
    mkdirSync(join(repo, '.git'), { recursive: true });
    const context = () => renderContextForCli(box.config(), { cwd: repo, refresh: true });
    expect(await context()).toContain('Beanstalkd');
    rmSync(box.path('pai', 'MEMORY', 'LEARNING', 'SYSTEM', 'okapi.md'));
    const deleted = await settle();
    expect(deleted).toMatchObject({ deleted: 1, awaitingGroup: 1 });
    expect(formatSyncSummary(deleted)).toMatch(/^1 old episode\(s\) still to delete: this Graphiti server deletes only in the group it last wrote to/m);
    expect(contents('main', 'Okapi queues')).toEqual(['Okapi queues jobs in Beanstalkd.']);
    const orphans = (await loadState(box.config().stateDir, { readOnly: true })).state.orphans;
    expect(orphans).toEqual([expect.objectContaining({ name: 'Okapi queues', groupId: 'main', awaitsGroupSince: expect.any(String) })]);
    // Still in the graph, but a deleted note's knowledge does not reach the session.
    expect(await context()).not.toContain('Beanstalkd');
    const status = await collectStatus(box.config(), nullLogger);
    expect(status.awaitingGroup).toMatchObject({ episodes: 1, groups: ['main'] });
    expect(formatStatus(status)).toMatch(/^Deletions waiting: 1 old episode\(s\) in group main \(since .*\): this Graphiti server deletes only in the group it last wrote to, .*Next step: upgrade the Graphiti MCP server to 1\.1\.2/m);
    // Nothing written to the main group since: it still waits, nothing deleted by mistake.
    expect(await settle()).toMatchObject({ deleted: 0, awaitingGroup: 1 });
    expect(contents('main', 'Okapi queues')).toHaveLength(1);
    // A new note in the main group brings the server back there.
    box.pai('LEARNING/SYSTEM/yak.md', learning('Yak logs', 'Yak ships logs to Loki.'));
    expect(await settle()).toMatchObject({ pending: 0, queued: 0, added: 1, awaitingGroup: 0 });
    // Its knowledge is gone. The episode too, unless the server's rules hold it (0.29.3: it created
    // facts the other notes state, retire.ts), with its own facts removed one by one.
    expect(server.facts('main').map((f) => f.fact)).not.toContain('Okapi queues jobs in Beanstalkd.');
    const left = (await loadState(box.config().stateDir, { readOnly: true })).state.orphans;
    expect(left.every((ref) => ref.awaitsGroupSince === undefined && ref.heldAt !== undefined)).toBe(true);
    expect(contents('main', 'Okapi queues')).toHaveLength(left.length);
    expect((await collectStatus(box.config(), nullLogger)).awaitingGroup).toBeUndefined();
  });

  it('a note edited while the server is on another group: afterwards the group holds its new version only', async () => {
    await onTheProjectsGroup();
    box.pai('LEARNING/SYSTEM/quokka.md', learning('Quokka cache', 'Quokka caches pages in Fastly now.'));
    expect(await settle()).toMatchObject({ pending: 0, queued: 0, updated: 1 });
    await settle();
    expect(contents('main', 'Quokka cache')).toEqual(['Quokka caches pages in Fastly now.']);
    expect(server.facts('main').map((f) => f.fact)).toContain('Quokka caches pages in Fastly now.');
    expect(await settle()).toMatchObject({ added: 0, updated: 0, resent: 0, awaitingGroup: 0 });
  });

  it('a note processed before the server moved to another group: an empty listing is not taken for a drop, so it is not sent twice; after the patience it is, and the copy goes once both are seen', async () => {
    const alpha = await onTheProjectsGroup();
    box.pai('LEARNING/SYSTEM/yak.md', learning('Yak logs', 'Yak ships logs to Loki.'));
    expect(await runSync(box.config())).toMatchObject({ added: 1, queued: 1 });
    await server.whenIdle();
    // A teammate's episode in the project's group: the server now lists there.
    const client = new GraphitiClient(box.config());
    try {
      await client.addMemory({ name: 'Team wiki', episodeBody: 'Alpha builds run on Gradle.', groupId: alpha, sourceDescription: 'wiki import' });
    } finally {
      await client.close();
    }
    await server.whenIdle();
    // The wait for a queued note that does not appear, cut short: still no evidence from a blind listing.
    const fast = box.config({ MADEINOZ_KNOWLEDGE_CONFIRM_MAX_AGE: '1' });
    expect(await runSync(fast, { waitMs: 300 })).toMatchObject({ resent: 0, queued: 1 });
    expect(await runSync(fast)).toMatchObject({ resent: 0, queued: 1 });
    expect(contents('main', 'Yak logs')).toHaveLength(1);
    // Past the patience: sent again (a drop in a group nothing else is written to is not waited for forever).
    const later = Date.now() + BLIND_LISTING_PATIENCE_MS + 60_000;
    expect(await runSync(fast, { now: () => later })).toMatchObject({ resent: 1 });
    await server.whenIdle();
    // The copy brought the server back: both are listed, the later one is deleted.
    const r = await runSync(fast, { now: () => later + 1000 });
    expect(r).toMatchObject({ duplicatesRemoved: 1, queued: 0, pending: 0 });
    expect(contents('main', 'Yak logs')).toEqual(['Yak ships logs to Loki.']);
  });
});
