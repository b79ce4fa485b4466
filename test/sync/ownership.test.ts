/**
 * Ownership in a shared group (issue 10): every episode names its origin in its marker, and a sync
 * never deletes, replaces or adopts an episode of another origin; a source declared shared has one
 * owner however many people sync it. End to end over loopback: several sandboxes (people, machines,
 * clones) against one test server.
 */
import { mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseMarker } from '../../src/lib/memory/episode.js';
import { loadState, statePath } from '../../src/lib/state/state.js';
import { runSync } from '../../src/lib/sync/sync.js';
import type { GraphitiTestServer } from '../support/graphiti-server.js';
import { learning, makeSandbox, type Sandbox } from '../support/sandbox.js';
import { useServerAndSandbox } from '../helpers/use-server-and-sandbox.js';

let server: GraphitiTestServer;
let box: Sandbox;
const extraBoxes: Sandbox[] = [];

useServerAndSandbox((s, b) => {
  server = s;
  box = b;
});
afterEach(() => {
  for (const b of extraBoxes.splice(0)) b.cleanup();
});

function person(env: Record<string, string>): Sandbox {
  const b = makeSandbox(server.url, env);
  extraBoxes.push(b);
  return b;
}

let tick = 0;
function writeNote(path: string, content: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
  const t = Date.now() / 1000 + ++tick / 1000;
  utimesSync(path, t, t);
}

async function settle(b: Sandbox): Promise<void> {
  await runSync(b.config(), { waitMs: 5000 });
  await server.whenIdle();
}

const contents = (name: string) => server.episodes('main').filter((e) => e.name === name).map((e) => e.content);
const deletes = () => server.calls.filter((c) => c.tool === 'delete_episode').map((c) => c.args.uuid as string);

describe('origins: nobody else’s episode is touched', () => {
  it('two people, one group, the same relative path: both notes stay, and each edit replaces only its owner’s episode', async () => {
    const alice = person({ MADEINOZ_KNOWLEDGE_ORIGIN: 'alice' });
    const bob = person({ MADEINOZ_KNOWLEDGE_ORIGIN: 'bob' });
    alice.pai('LEARNING/SYSTEM/2026-05/deploy.md', learning('Deploy', 'Alice deploys with Helm.'));
    bob.pai('LEARNING/SYSTEM/2026-05/deploy.md', learning('Deploy', 'Bob deploys with Terraform.'));
    await settle(alice);
    await settle(bob); // Bob's first sync: a fresh state, so he rebuilds from the group
    expect(contents('Deploy').sort()).toEqual([expect.stringContaining('Alice deploys'), expect.stringContaining('Bob deploys')]);
    const origins = server.episodes('main').map((e) => parseMarker(e.source_description)?.origin).sort();
    expect(origins).toEqual(['alice', 'bob']);

    alice.pai('LEARNING/SYSTEM/2026-05/deploy.md', learning('Deploy', 'Alice deploys with Argo now.'));
    await settle(alice);
    await settle(alice);
    bob.pai('LEARNING/SYSTEM/2026-05/deploy.md', learning('Deploy', 'Bob deploys with Pulumi now.'));
    await settle(bob);
    await settle(bob);
    expect(contents('Deploy').sort()).toEqual([expect.stringContaining('Alice deploys with Argo'), expect.stringContaining('Bob deploys with Pulumi')]);
    expect(deletes()).toHaveLength(2); // each person's old version, nothing else
  });

  it('one person, two machines with different auto-memory files for a project at the same path: both stay', async () => {
    const laptop = person({ MADEINOZ_KNOWLEDGE_ORIGIN: 'm-laptop' });
    const desktop = person({ MADEINOZ_KNOWLEDGE_ORIGIN: 'm-desktop' });
    const topic = (what: string) => `---\nname: Build\ndescription: how I build\ntype: project\n---\n${what}\n`;
    laptop.auto('-home-me-app', 'build.md', topic('On the laptop the build uses Bun.'));
    desktop.auto('-home-me-app', 'build.md', topic('On the desktop the build uses Docker.'));
    await settle(laptop);
    await settle(desktop);
    await settle(laptop);
    expect(server.episodes('main').map((e) => e.content).sort()).toEqual([expect.stringContaining('Docker'), expect.stringContaining('uses Bun')]);
    expect(deletes()).toEqual([]);
  });

  it('a lost state dir: the machine’s own episodes are adopted again (its origin is stable), nothing is sent twice', async () => {
    box.pai('LEARNING/SYSTEM/a.md', learning('Alpha', 'A.'));
    await settle(box);
    const { rmSync } = await import('node:fs');
    rmSync(dirname(statePath(box.env.MADEINOZ_KNOWLEDGE_STATE_DIR as string)), { recursive: true, force: true });
    const again = await runSync(box.config(), { waitMs: 5000 });
    expect(again).toMatchObject({ adopted: 1, added: 0, confirmed: 1 });
    expect(server.calls.filter((c) => c.tool === 'add_memory')).toHaveLength(1);
  });
});

describe('a shared source: one owner, however many people sync it', () => {
  const NOTE = 'runbooks/rollback.md';
  function clone(): { box: Sandbox; path: string } {
    const dir = join(box.root, `clone-${extraBoxes.length}`);
    const b = person({ MADEINOZ_KNOWLEDGE_SYNC_PATHS: `team=${dir}`, MADEINOZ_KNOWLEDGE_SHARED_SOURCES: 'team=team-notes', MADEINOZ_KNOWLEDGE_ORIGIN: `m-person${extraBoxes.length}` });
    return { box: b, path: join(dir, NOTE) };
  }

  it('cloned three times: one episode per file, an edit by anyone replaces it, concurrent edits converge on one', async () => {
    const clones = [clone(), clone(), clone()];
    for (const c of clones) writeNote(c.path, learning('Rollback', 'Roll back with helm rollback.'));
    for (const c of clones) await settle(c.box);
    expect(contents('Rollback')).toHaveLength(1);
    expect(server.calls.filter((c) => c.tool === 'add_memory')).toHaveLength(1); // the others adopted it
    expect(parseMarker(server.episodes('main')[0]?.source_description)?.origin).toBe('team-notes');

    // Bob (clone 1) edits; everyone pulls; the edit replaces the one episode.
    for (const c of clones) writeNote(c.path, learning('Rollback', 'Roll back with argo rollouts undo.'));
    await settle(clones[1]!.box);
    await settle(clones[1]!.box);
    for (const c of clones) await settle(c.box);
    expect(contents('Rollback')).toEqual([expect.stringContaining('argo rollouts')]);

    // Two of them save the same new version at the same moment, before either sees the other's.
    server.pauseProcessing();
    for (const c of clones) writeNote(c.path, learning('Rollback', 'Roll back by reverting the merge commit.'));
    await runSync(clones[0]!.box.config());
    await runSync(clones[2]!.box.config());
    server.resumeProcessing();
    await server.whenIdle();
    expect(contents('Rollback').filter((c) => c.includes('merge commit'))).toHaveLength(2);
    for (const c of clones) await settle(c.box);
    for (const c of clones) await settle(c.box);
    const left = server.episodes('main').filter((e) => e.name === 'Rollback');
    expect(left.map((e) => e.content)).toEqual([expect.stringContaining('merge commit')]);
    // The same one, whoever looks.
    for (const c of clones) {
      const { state } = await loadState(c.box.env.MADEINOZ_KNOWLEDGE_STATE_DIR as string);
      expect(Object.values(state.files)[0]?.episodes[0]?.uuid).toBe(left[0]?.uuid);
    }
  });
});

describe('a shared source: two owners racing', () => {
  it('one owner confirmed its copy before the other copy appeared: both end with the same single episode', async () => {
    const dir = (n: number) => join(box.root, `race-${n}`);
    const owner = (n: number) => person({ MADEINOZ_KNOWLEDGE_SYNC_PATHS: `team=${dir(n)}`, MADEINOZ_KNOWLEDGE_SHARED_SOURCES: 'team=team-notes', MADEINOZ_KNOWLEDGE_ORIGIN: `m-racer${n}` });
    const [first, second] = [owner(1), owner(2)];
    for (const n of [1, 2]) writeNote(join(dir(n), 'a.md'), learning('Raced', 'Both saved this at once.'));
    server.pauseProcessing();
    await runSync(first.config());
    await runSync(second.config());
    // The first copy is processed; the second waits in the queue while the first owner confirms its own.
    const firstProcessed = new Promise<void>((resolve) => server.events.once('processed', () => {
      server.pauseProcessing();
      resolve();
    }));
    server.resumeProcessing();
    await firstProcessed;
    expect((await runSync(first.config())).confirmed).toBe(1);
    server.resumeProcessing();
    await server.whenIdle();
    expect(contents('Raced')).toHaveLength(2);
    for (let i = 0; i < 2; i++) for (const b of [second, first]) await settle(b);
    const left = server.episodes('main').filter((e) => e.name === 'Raced');
    expect(left).toHaveLength(1);
    for (const b of [first, second]) {
      const { state } = await loadState(b.env.MADEINOZ_KNOWLEDGE_STATE_DIR as string);
      expect(Object.values(state.files)[0]?.episodes[0]?.uuid).toBe(left[0]?.uuid);
    }
  });
});

describe('upgrading from markers without an origin', () => {
  it('today’s state file and episodes: the first run sends nothing; an edit replaces the old episode with an origin-marked one', async () => {
    box.pai('LEARNING/SYSTEM/a.md', learning('Alpha', 'A.'));
    box.pai('LEARNING/SYSTEM/b.md', learning('Beta', 'B.'));
    await settle(box);
    // Rewrite the graph and the state as the previous release left them: markers without ":<origin>".
    const strip = (text: string) => text.replace(/(\[gms:[^\]]+?\/\d+):[a-z0-9-]+\]/g, '$1]');
    for (const e of server.episodes('main')) server.seedEpisode({ ...e, source_description: strip(e.source_description) });
    const stateDir = box.env.MADEINOZ_KNOWLEDGE_STATE_DIR as string;
    const file = statePath(stateDir);
    await runSync(box.config()); // folds the journal into the snapshot
    writeFileSync(file, strip(readFileSync(file, 'utf8')));
    expect(readFileSync(file, 'utf8')).not.toMatch(/\/\d+:[a-z0-9-]+\]/);
    server.clearLogs();

    const upgraded = await runSync(box.config(), { waitMs: 2000 });
    expect(upgraded).toMatchObject({ added: 0, updated: 0, confirmed: 2 });
    expect(server.calls.filter((c) => c.tool === 'add_memory' || c.tool === 'delete_episode')).toEqual([]);

    box.pai('LEARNING/SYSTEM/a.md', learning('Alpha', 'A, edited.'));
    await settle(box);
    await settle(box);
    const alphas = server.episodes('main').filter((e) => e.name === 'Alpha');
    expect(alphas.map((e) => e.content)).toEqual([expect.stringContaining('A, edited.')]);
    expect(parseMarker(alphas[0]?.source_description)?.origin).toMatch(/^m-[0-9a-f]{10}$/);
    expect(parseMarker(server.episodes('main').find((e) => e.name === 'Beta')?.source_description)?.origin).toBeUndefined();
  });
});
