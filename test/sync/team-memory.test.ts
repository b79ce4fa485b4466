/**
 * Claude Code's team memory (issue 26): `memory/team/<store>/…` is one episode per team file,
 * whoever syncs it, identified by the store and the path inside it (not the project folder), with
 * the shared-source rules. Two teammates with different homes and project folder names, one group.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseMarker } from '../../src/lib/memory/episode.js';
import { teamOrigin } from '../../src/lib/memory/sources.js';
import { collectStatus, formatStatus } from '../../src/commands/reports.js';
import { runSync } from '../../src/lib/sync/sync.js';
import { nullLogger } from '../../src/lib/util/log.js';
import type { GraphitiTestServer } from '../support/graphiti-server.js';
import { makeSandbox, type Sandbox } from '../support/sandbox.js';
import { useServerAndSandbox } from '../helpers/use-server-and-sandbox.js';

let server: GraphitiTestServer;
let alice: Sandbox;
let bob: Sandbox;
const extra: Sandbox[] = [];
useServerAndSandbox((s, b) => {
  server = s;
  alice = b;
  bob = makeSandbox(server.url);
  extra.push(bob);
});
afterEach(() => {
  for (const b of extra.splice(0)) b.cleanup();
});

const note = (name: string, what: string) => `---\nname: ${name}\ndescription: ${name} for the team\nmetadata:\n  type: reference\n---\n${what}\n`;
const ALICE_PROJECT = '-home-alice-work-app';
const BOB_PROJECT = '-home-bob-src-app';

async function settle(b: Sandbox) {
  const summary = await runSync(b.config(), { waitMs: 5000 });
  await server.whenIdle();
  return summary;
}
const byName = (name: string) => server.episodes('main').filter((e) => e.name === name);
const deletes = () => server.calls.filter((c) => c.tool === 'delete_episode').length;

describe('team memory: one episode per team file for the whole team', () => {
  it('both teammates hold the same team files: one episode each, named by the store; private files stay two', async () => {
    for (const [who, project] of [[alice, ALICE_PROJECT], [bob, BOB_PROJECT]] as const) {
      who.auto(project, 'team/acme-web/deploy.md', note('Deploy runbook', 'Deploys go through Argo CD.'));
      who.auto(project, 'team/acme-web/MEMORY.md', '- [Deploy runbook](deploy.md)\n');
      who.auto(project, 'style.md', note('Style', `${who === alice ? 'Alice' : 'Bob'} prefers tabs.`));
    }
    await settle(alice);
    await settle(bob);
    await settle(alice);
    expect(byName('Deploy runbook')).toHaveLength(1);
    expect(server.calls.filter((c) => c.tool === 'add_memory' && c.args.name === 'Deploy runbook')).toHaveLength(1); // Bob adopted Alice's
    const marker = parseMarker(byName('Deploy runbook')[0]?.source_description);
    expect(marker?.origin).toBe(teamOrigin('acme-web'));
    expect(marker?.origin).toMatch(/^t-[0-9a-f]{10}$/);
    // Described by its place in the store: no teammate's home folder reaches the graph.
    expect(byName('Deploy runbook')[0]?.source_description).toContain('team/acme-web/deploy.md');
    expect(byName('Deploy runbook')[0]?.source_description).not.toContain('alice');
    expect(byName('Style')).toHaveLength(2);
    expect(new Set(byName('Style').map((e) => parseMarker(e.source_description)?.origin)).size).toBe(2);

    // status shows the team files apart from Bob's own.
    const status = await collectStatus(bob.config(), nullLogger);
    expect(status.teamMemory).toEqual([{ store: 'acme-web', files: 1, confirmed: 1 }]);
    expect(formatStatus(status)).toContain('Team memory (one episode per file for the whole team): 1 of them, in acme-web 1 (1 confirmed); the other 1 are your own');
  });

  it('an edit by either replaces the one episode; a teammate still holding the older copy deletes nothing', async () => {
    alice.auto(ALICE_PROJECT, 'team/acme-web/deploy.md', note('Deploy runbook', 'Deploys go through Argo CD.'));
    bob.auto(BOB_PROJECT, 'team/acme-web/deploy.md', note('Deploy runbook', 'Deploys go through Argo CD.'));
    await settle(alice);
    await settle(bob);

    // Bob edits (his store copy syncs first); his sync replaces the team's episode.
    bob.auto(BOB_PROJECT, 'team/acme-web/deploy.md', note('Deploy runbook', 'Deploys go through Flux.'));
    await settle(bob);
    await settle(bob);
    expect(byName('Deploy runbook').map((e) => e.content)).toEqual([expect.stringContaining('Flux')]);
    const deletesAfterEdit = deletes();

    // Alice, whose copy has not pulled the edit yet, syncs: nothing newer is deleted or re-sent.
    await settle(alice);
    await settle(alice);
    expect(byName('Deploy runbook').map((e) => e.content)).toEqual([expect.stringContaining('Flux')]);
    expect(deletes()).toBe(deletesAfterEdit);

    // Her copy pulls the edit: she converges on one episode (a racing copy is resolved by the shared-source rules).
    alice.auto(ALICE_PROJECT, 'team/acme-web/deploy.md', note('Deploy runbook', 'Deploys go through Flux.'));
    await settle(alice);
    await settle(alice);
    await settle(bob);
    expect(byName('Deploy runbook').map((e) => e.content)).toEqual([expect.stringContaining('Flux')]);

    // Alice edits next: her edit replaces it for the team.
    alice.auto(ALICE_PROJECT, 'team/acme-web/deploy.md', note('Deploy runbook', 'Deploys go through Flux, then a smoke test.'));
    await settle(alice);
    await settle(alice);
    expect(byName('Deploy runbook').map((e) => e.content)).toEqual([expect.stringContaining('smoke test')]);
  });
});

/** One machine holding a team store twice: Alice's project moved (its old folder kept). */
const OLD = '-home-alice-src-app';
const NEW = '-home-alice-src-webapp';
const BOB = BOB_PROJECT;
const adds = (name: string) => server.calls.filter((c) => c.tool === 'add_memory' && c.args.name === name).length;
const settleWith = (b: Sandbox, env: Record<string, string>) => runSync(b.config(env), { waitMs: 5000 }).then(async (s) => (await server.whenIdle(), s));

// ONE_MOUNT_PER_FILE (sync/one-mount.ts), found on real Graphiti 0.31.2: Claude Code mounts a team store
// under every project's auto memory, and a moved project keeps its old folder, so one machine holds a
// team file at two paths with one file id; synced as two files they re-sent and doubled it for ever.
describe('one team store mounted in two project folders of one machine', () => {
  it('the same team file at two paths: one episode, sent once, confirmed, nothing re-sent', async () => {
    alice.auto(OLD, 'team/acme/deploy.md', note('Deploy process', 'Acme deploys through Argo CD.'));
    await settle(alice);
    expect(byName('Deploy process')).toHaveLength(1);
    // The project moves: Claude Code mounts the store in the new folder too; the old one stays.
    alice.auto(NEW, 'team/acme/deploy.md', note('Deploy process', 'Acme deploys through Argo CD.'));
    for (let i = 0; i < 4; i++) {
      const s = await settleWith(alice, { MADEINOZ_KNOWLEDGE_CONFIRM_MAX_AGE: '0' });
      expect(s.resent).toBe(0);
      expect(byName('Deploy process')).toHaveLength(1);
    }
    expect(adds('Deploy process')).toBe(1);
    const last = await settle(alice);
    expect(last).toMatchObject({ queued: 0, pending: 0, failed: 0 });
  });

  it('an edit made in the mount in use is sent once and replaces the team episode; the stale mount deletes nothing; a teammate converges', async () => {
    alice.auto(OLD, 'team/acme/deploy.md', note('Deploy process', 'Acme deploys through Argo CD.'));
    bob.auto(BOB, 'team/acme/deploy.md', note('Deploy process', 'Acme deploys through Argo CD.'));
    await settle(alice);
    await settle(bob);
    alice.auto(NEW, 'team/acme/deploy.md', note('Deploy process', 'Acme deploys through Flux.'));
    for (let i = 0; i < 3; i++) expect((await settleWith(alice, { MADEINOZ_KNOWLEDGE_CONFIRM_MAX_AGE: '0' })).resent).toBe(0);
    expect(byName('Deploy process').map((e) => e.content)).toEqual([expect.stringContaining('Flux')]);
    expect(adds('Deploy process')).toBe(2); // the first version, then Alice's edit: once each
    // Claude Code's store sync brings the edit to the old mount and to Bob: nothing more is sent, the edit's episode stays.
    const edit = byName('Deploy process')[0]?.uuid;
    alice.auto(OLD, 'team/acme/deploy.md', note('Deploy process', 'Acme deploys through Flux.'));
    bob.auto(BOB, 'team/acme/deploy.md', note('Deploy process', 'Acme deploys through Flux.'));
    await settle(alice);
    await settle(bob);
    await settle(alice);
    expect(byName('Deploy process').map((e) => e.content)).toEqual([expect.stringContaining('Flux')]);
    expect(adds('Deploy process')).toBe(2);
    expect(byName('Deploy process').map((e) => e.uuid)).toEqual([edit]);
    expect(await settle(alice)).toMatchObject({ queued: 0, pending: 0, failed: 0 });
  });
});

// ONE_MOUNT_PER_FILE is one note per group: with a group per project (`auto-memory={project}`) each
// project's sessions search their own group, so a store mounted in two projects is a note in each.
describe('one team store mounted in two projects that sync to groups of their own', () => {
  it('the team file reaches both projects\' groups, and stays there whichever mount was written last', async () => {
    const env = { MADEINOZ_KNOWLEDGE_SOURCE_GROUPS: 'auto-memory={project}', MADEINOZ_KNOWLEDGE_CONFIRM_MAX_AGE: '0' };
    alice.auto(OLD, 'team/acme/deploy.md', note('Deploy process', 'Acme deploys through Argo CD.'));
    alice.auto(NEW, 'team/acme/deploy.md', note('Deploy process', 'Acme deploys through Argo CD.'));
    const groupsHolding = () => [...new Set(server.calls.filter((c) => c.tool === 'add_memory').map((c) => String(c.args.group_id)))].filter((g) => server.episodes(g).some((e) => e.name === 'Deploy process')).sort();
    await settleWith(alice, env);
    await settleWith(alice, env);
    const both = groupsHolding();
    expect(both).toHaveLength(2);
    // Claude Code's store sync writes the mount of the project in use first: the other is now the older one, and back.
    for (const project of [OLD, NEW, OLD]) {
      alice.auto(project, 'team/acme/deploy.md', note('Deploy process', 'Acme deploys through Argo CD.'));
      await settleWith(alice, env);
      await settleWith(alice, env);
      expect(groupsHolding()).toEqual(both);
    }
    expect(adds('Deploy process')).toBe(2);
  });

  it('a group_id in the team file\'s front matter puts both mounts in one group: one episode there, sent once, nothing re-sent', async () => {
    const env = { MADEINOZ_KNOWLEDGE_SOURCE_GROUPS: 'auto-memory={project}', MADEINOZ_KNOWLEDGE_CONFIRM_MAX_AGE: '0' };
    const shared = note('Deploy process', 'Acme deploys through Argo CD.').replace('metadata:', 'group_id: acme-team\nmetadata:');
    alice.auto(OLD, 'team/acme/deploy.md', shared);
    alice.auto(NEW, 'team/acme/deploy.md', shared);
    for (let i = 0; i < 4; i++) expect((await settleWith(alice, env)).resent).toBe(0);
    expect(server.episodes('acme-team').filter((e) => e.name === 'Deploy process')).toHaveLength(1);
    expect(adds('Deploy process')).toBe(1);
  });
});

// MOUNT_OUTSIDE_THE_RUN (sync/one-mount.ts): a team store under the default projects folder and
// under the folder all projects moved to (CLAUDE_COWORK_MEMORY_PATH_OVERRIDE: a source of its own) is
// one note; `sync --source` naming the other source alone saw its mount as a new file, sent it beside
// the note's episode, and fought over it with the shared-source rules (five adds, then "dropped").
describe('one team store under two auto-memory sources, synced a source at a time', () => {
  it('sync --source of the source the state does not follow sends nothing; the runs after it neither: one episode, added once', async () => {
    const moved = alice.path('moved-memory');
    const env = { CLAUDE_COWORK_MEMORY_PATH_OVERRIDE: moved, MADEINOZ_KNOWLEDGE_CONFIRM_MAX_AGE: '0' };
    alice.auto(ALICE_PROJECT, 'team/acme/deploy.md', note('Deploy process', 'Acme deploys through Argo CD.'));
    await settleWith(alice, env);
    expect(adds('Deploy process')).toBe(1);
    // Claude Code mounts the store in the moved folder too (same text, written later).
    mkdirSync(join(moved, 'team', 'acme'), { recursive: true });
    writeFileSync(join(moved, 'team', 'acme', 'deploy.md'), note('Deploy process', 'Acme deploys through Argo CD.'));
    const only = await runSync(alice.config(env), { waitMs: 5000, source: 'auto-memory-dir' });
    await server.whenIdle();
    expect(only).toMatchObject({ added: 0, resent: 0, failed: 0 });
    for (let i = 0; i < 2; i++) expect((await settleWith(alice, env)).resent).toBe(0);
    expect(adds('Deploy process')).toBe(1);
    expect(byName('Deploy process')).toHaveLength(1);
  });
});
