/**
 * Two machines with one origin that are NOT one memory (sync/copy-hold.ts COPY_HOLD): a home copied
 * to a new machine while the old one stays in use, and only origin.json shared (a dotfiles
 * repository). Each machine must leave the other's current episodes alone until the user says what
 * the copy is (`origin --keep`, `origin --split`). Two sandboxes with their own machine ids
 * (MADEINOZ_KNOWLEDGE_MACHINE_ID) on one loopback test server. The synced folder, where the two
 * ARE one memory, is test/sync/synced-claude-folder.test.ts.
 */
import { cpSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runSync } from '../../src/lib/sync/sync.js';
import { loadState, statePath } from '../../src/lib/state/state.js';
import { partsHeldAsCopy } from '../../src/lib/sync/copy-hold.js';
import { HELD_STATE_VERSION } from '../../src/lib/state/format.js';
import type { GraphitiTestServer } from '../support/graphiti-server.js';
import { makeSandbox, type Sandbox } from '../support/sandbox.js';
import { useServerAndSandbox } from '../helpers/use-server-and-sandbox.js';
import { graphOf, lookAgainLater, note, syncSettled } from '../helpers/two-machines.js';
import { main } from '../../src/cli-main.js';
import { parseMarker } from '../../src/lib/memory/episode.js';
import { realSteps } from '../../src/hooks/worker.js';
import { takeOriginNote } from '../../src/lib/context/origin-note.js';
import { nullLogger } from '../../src/lib/util/log.js';
import { link, machine, topic } from '../pull/homes.js';
import { runPull } from '../../src/lib/pull/pull.js';
import { GraphitiClient } from '../../src/lib/graphiti/graphiti.js';

let server: GraphitiTestServer;
let a: Sandbox;
const extraBoxes: Sandbox[] = [];
useServerAndSandbox((s, b) => {
  server = s;
  a = b;
});
afterEach(() => {
  for (const b of extraBoxes.splice(0)) b.cleanup();
});

const PROJECT = '-home-me-app';
const graph = () => graphOf(server);
const machineOf = new Map<Sandbox, string>();
const configOf = (box: Sandbox) => box.config({ MADEINOZ_KNOWLEDGE_MACHINE_ID: machineOf.get(box) ?? 'machine-a' });

/** Runs until nothing is waiting. */
const sync = (box: Sandbox) => syncSettled(server, () => configOf(box));

function machineB(): Sandbox {
  const b = makeSandbox(server.url);
  extraBoxes.push(b);
  machineOf.set(a, 'machine-a');
  machineOf.set(b, 'machine-b');
  return b;
}

async function cli(box: Sandbox, ...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(args, { stdout: (t) => void (out += t), stderr: (t) => void (err += t), isTTY: false, env: { ...box.env, MADEINOZ_KNOWLEDGE_MACHINE_ID: machineOf.get(box) ?? 'machine-a' }, cwd: box.root });
  return { code, out, err };
}

/** A migrated home: B gets A's Claude config folder (origin.json and memory) and A's state folder. */
function copyHome(from: Sandbox, to: Sandbox): void {
  rmSync(to.path('claude'), { recursive: true, force: true });
  cpSync(from.path('claude'), to.path('claude'), { recursive: true, preserveTimestamps: true });
  cpSync(from.path('state'), to.path('state'), { recursive: true, preserveTimestamps: true });
}

/** The origin each episode's marker names, by note and last line. */
const origins = (): Record<string, string | undefined> => Object.fromEntries(server.episodes('main').map((e) => [`${e.name}: ${e.content.split('\n').at(-1) ?? ''}`, parseMarker(e.source_description)?.origin]));

/** add_memory calls the server took so far. */
const adds = () => server.calls.filter((c) => c.tool === 'add_memory').length;

/** The uuids of the episodes named (note and last line), in that order. */
const uuidsOf = (...names: string[]) => names.map((n) => server.episodes('main').find((e) => `${e.name}: ${e.content.split('\n').at(-1) ?? ''}` === n)?.uuid);

/** The format version state.json is written in (state/format.ts). */
const savedVersion = (box: Sandbox) => (JSON.parse(readFileSync(statePath(configOf(box).stateDir), 'utf8')) as { version: number }).version;

const held = async (box: Sandbox) => partsHeldAsCopy((await loadState(configOf(box).stateDir, { readOnly: true })).state).length;

/** A group another writer (machine C, an origin of its own) writes to as well; then the home copied to B, whose first sync looks at it. */
async function copiedBesideAnotherWriter(): Promise<{ b: Sandbox; c: Sandbox }> {
  const c = makeSandbox(server.url);
  extraBoxes.push(c);
  machineOf.set(c, 'machine-c');
  c.auto(PROJECT, 'team.md', note('Team', 'Team, another writer\'s note.'));
  await sync(c);
  return { b: await copiedWithTwoNotes(), c };
}

/** A writes One and Two; the home copied to B, whose first sync takes the state up (and looks). */
async function copiedWithTwoNotes(): Promise<Sandbox> {
  const b = machineB();
  a.auto(PROJECT, 'one.md', note('One', 'One, first text.'));
  a.auto(PROJECT, 'two.md', note('Two', 'Two, first text.'));
  await sync(a);
  copyHome(a, b);
  await sync(b);
  return b;
}

/** A copy taken up, the old machine's edit of One, and the copy's look that sent its text of One again as its own. */
async function copySentAgainAfterAnEdit(): Promise<Sandbox> {
    const b = machineB();
    a.auto(PROJECT, 'one.md', note('One', 'One, first text.'));
    await sync(a);
    copyHome(a, b);
    await sync(b);
    a.auto(PROJECT, 'one.md', note('One', 'One, edited on A.'));
    await sync(a);
    await lookAgainLater(configOf(b).stateDir);
    await sync(b);
    expect(graph()).toEqual(['One: One, edited on A.', 'One: One, first text.']);
  return b;
}

describe('two machines with one origin that are not one memory', () => {
  it('a home copied to a new machine, the old one still in use: the copy edits and deletes its notes without touching the old machine\'s episodes', async () => {
    const b = machineB();
    a.auto(PROJECT, 'one.md', note('One', 'One, first text.'));
    a.auto(PROJECT, 'two.md', note('Two', 'Two, first text.'));
    await sync(a);
    expect(graph()).toEqual(['One: One, first text.', 'Two: Two, first text.']);

    // The migration: the whole home (the Claude config folder with origin.json, and the state folder) copied to B.
    copyHome(a, b);

    // B edits one note and deletes the other; A's episodes of both stay (they are A's current ones).
    b.auto(PROJECT, 'one.md', note('One', 'One, edited on B.'));
    rmSync(join(b.path('claude', 'projects', PROJECT, 'memory'), 'two.md'));
    await sync(b);
    expect(graph()).toEqual(['One: One, edited on B.', 'One: One, first text.', 'Two: Two, first text.']);
    expect(await held(b)).toBe(2);

    // A goes on as before: its edit lands, B's note is untouched.
    a.auto(PROJECT, 'two.md', note('Two', 'Two, edited on A.'));
    await sync(a);
    await sync(b);
    expect(graph()).toEqual(['One: One, edited on B.', 'One: One, first text.', 'Two: Two, edited on A.']);
  });

  it('only origin.json shared (a dotfiles repository), other notes at the same path: the second machine\'s first sync keeps the first\'s note', async () => {
    const b = machineB();
    a.auto(PROJECT, 'one.md', note('One', 'One, as A has it.'));
    await sync(a);
    cpSync(a.path('claude', 'graphiti-memory-sync'), b.path('claude', 'graphiti-memory-sync'), { recursive: true });

    b.auto(PROJECT, 'one.md', note('One', 'One, as B has it.'));
    b.auto(PROJECT, 'three.md', note('Three', 'Three, only on B.'));
    await sync(b);
    expect(graph()).toEqual(['One: One, as A has it.', 'One: One, as B has it.', 'Three: Three, only on B.']);
    expect(await held(b)).toBe(1);

    // B's own edits go on as usual: its older version goes, A's stays.
    b.auto(PROJECT, 'one.md', note('One', 'One, B edited it.'));
    await sync(b);
    expect(graph()).toEqual(['One: One, B edited it.', 'One: One, as A has it.', 'Three: Three, only on B.']);
  });

  it('the question is in `origin` and `status` with both next steps; `origin --split` gives the copy an origin of its own, and the two go on without touching each other', async () => {
    const b = machineB();
    a.auto(PROJECT, 'one.md', note('One', 'One, first text.'));
    await sync(a);
    copyHome(a, b);
    b.auto(PROJECT, 'one.md', note('One', 'One, edited on B.'));
    await sync(b);

    const asked = await cli(b, 'origin');
    expect(asked.code).toBe(1);
    expect(asked.out).toMatch(/^Origin: m-[0-9a-f]{10} \(made on another machine\)/);
    expect(asked.out).toMatch(/1 deletion\(s\) of episodes this machine did not send are held.*origin --keep`.*origin --split`/s);
    expect((await cli(b, 'status')).out).toMatch(/Two machines with one origin: .*origin --split/);
    expect((await cli(b, 'sync')).out).toMatch(/^Two machines with one origin: .*origin --keep`.*origin --split`/m);
    // On the machine that made them, nothing is asked, and a split is refused.
    expect((await cli(a, 'origin')).code).toBe(0);
    expect((await cli(a, 'origin', '--split')).code).toBe(2);

    const shared = origins()['One: One, first text.'];
    const split = await cli(b, 'origin', '--split');
    expect(split.code).toBe(0);
    expect(split.out).toMatch(/^Split: this machine's origin is now m-[0-9a-f]{10}.*deletes the 1 episode\(s\) it sent under the shared one/s);
    await sync(b);
    expect((await cli(b, 'origin')).code).toBe(0);
    // A's episode is untouched; B's note is in the graph once, under B's new origin (what B sent under the shared one is gone).
    expect(graph()).toEqual(['One: One, edited on B.', 'One: One, first text.']);
    expect(origins()['One: One, first text.']).toBe(shared);
    expect(origins()['One: One, edited on B.']).not.toBe(shared);

    // From now on each machine's edits and deletions are its own.
    a.auto(PROJECT, 'one.md', note('One', 'One, edited on A.'));
    await sync(a);
    rmSync(join(b.path('claude', 'projects', PROJECT, 'memory'), 'one.md'));
    await sync(b);
    expect(graph()).toContain('One: One, edited on A.');
    expect(graph()).not.toContain('One: One, first text.');
    expect(server.episodes('main').filter((e) => parseMarker(e.source_description)?.origin !== shared)).toEqual([]);
    expect(await held(b)).toBe(0);
  });

  it('`origin --keep` on a copy whose old machine is retired: what was held is deleted by the next sync, and nothing is asked again', async () => {
    const b = machineB();
    a.auto(PROJECT, 'one.md', note('One', 'One, first text.'));
    a.auto(PROJECT, 'two.md', note('Two', 'Two, first text.'));
    await sync(a);
    copyHome(a, b);
    b.auto(PROJECT, 'one.md', note('One', 'One, edited on B.'));
    rmSync(join(b.path('claude', 'projects', PROJECT, 'memory'), 'two.md'));
    await sync(b);
    expect(await held(b)).toBe(2);
    // Held: written in a format builds from before COPY_HOLD refuse (a downgrade stops instead of deleting them).
    expect(savedVersion(b)).toBe(HELD_STATE_VERSION);

    // The hooks' worker records the question; the next session is told once, the one after is not.
    const worker = async () => {
      const steps = realSteps(configOf(b), nullLogger);
      await steps.sync(configOf(b), { logger: nullLogger, signal: new AbortController().signal }).finally(() => steps.close());
    };
    await worker();
    const stateDir = configOf(b).stateDir;
    expect(takeOriginNote(stateDir)).toMatch(/^Note for the user from graphiti-memory-sync: .*2 deletion\(s\).*origin --keep`.*origin --split`/);
    await worker();
    expect(takeOriginNote(stateDir)).toBeUndefined();

    const kept = await cli(b, 'origin', '--keep');
    expect(kept.code).toBe(0);
    expect(kept.out).toContain('The next sync deletes the 2 episode(s) held until now.');
    await sync(b);
    expect(graph()).toEqual(['One: One, edited on B.']);
    expect(savedVersion(b)).toBe(2);
    expect((await cli(b, 'origin')).out).toContain('Nothing to decide.');
    expect((await cli(b, 'status')).out).not.toContain('Two machines with one origin');
    // Settled: the worker takes the question back, and a question asked later is told again.
    await worker();
    expect(existsSync(join(stateDir, 'origin-question.json'))).toBe(false);
  });

  it('linked machines with one origin (origin.json in a dotfiles repository): pull says why it may bring nothing; after `origin --split` it is not said again, and the split machine\'s notes still reach the other', async () => {
    const laptop = machine(server, 'work', undefined, { MADEINOZ_KNOWLEDGE_MACHINE_ID: 'laptop' });
    const desktop = machine(server, 'work', undefined, { MADEINOZ_KNOWLEDGE_MACHINE_ID: 'desktop' });
    extraBoxes.push(laptop.box, desktop.box);
    machineOf.set(laptop.box, 'laptop');
    machineOf.set(desktop.box, 'desktop');
    await link(laptop, desktop);
    laptop.write('one.md', topic('One', 'Written on the laptop.'));
    await laptop.sync();
    cpSync(laptop.box.path('claude', 'graphiti-memory-sync'), desktop.box.path('claude', 'graphiti-memory-sync'), { recursive: true });
    desktop.write('two.md', topic('Two', 'Written on the desktop.'));
    await desktop.sync();

    const before = await cli(desktop.box, 'pull', '--cwd', desktop.repo);
    expect(before.out).toMatch(/^Next: this machine's origin or state was made on another machine, so pull does not bring .*origin --split`/m);

    expect((await cli(desktop.box, 'origin', '--split')).code).toBe(0);
    desktop.write('three.md', topic('Three', 'Written on the desktop after the split.'));
    await desktop.sync();
    expect((await cli(desktop.box, 'pull', '--cwd', desktop.repo)).out).not.toContain('so pull does not bring');
    // The desktop's notes, now under its own origin, still reach the laptop; the laptop's note stays as it was.
    const pulled = (await laptop.pull({ projectDirs: [laptop.repo] })).written.map((w) => w.file);
    expect(pulled).toContain(join(laptop.memoryDir, 'three.md'));
    expect(pulled).not.toContain(join(laptop.memoryDir, 'one.md'));
  });

  it('the old machine edits and deletes notes the copy still has unchanged: the copy sends its text again as its own, once, and touches nothing of the old machine\'s', async () => {
    const b = machineB();
    a.auto(PROJECT, 'one.md', note('One', 'One, first text.'));
    a.auto(PROJECT, 'two.md', note('Two', 'Two, first text.'));
    a.auto(PROJECT, 'three.md', note('Three', 'Three, first text.'));
    await sync(a);
    copyHome(a, b);
    await sync(b); // B takes the copy up: nothing to send, nothing gone
    expect(adds()).toBe(3);
    expect((await cli(b, 'origin')).out).toMatch(/^Resting on the other machine's episodes: 3 episode\(s\) of notes unchanged here; if that machine deletes one .*, a sync here sends this machine's text again$/m);

    // The old machine cannot know it was copied: its edit and its deletion delete the episodes both states name.
    a.auto(PROJECT, 'one.md', note('One', 'One, edited on A.'));
    rmSync(join(a.path('claude', 'projects', PROJECT, 'memory'), 'two.md'));
    await sync(a);
    expect(graph()).toEqual(['One: One, edited on A.', 'Three: Three, first text.']);
    const aEpisodes = uuidsOf('One: One, edited on A.', 'Three: Three, first text.');

    // The copy's next look (some time later) finds them gone and sends its own text of both notes again, once.
    await lookAgainLater(configOf(b).stateDir);
    await sync(b);
    expect(graph()).toEqual(['One: One, edited on A.', 'One: One, first text.', 'Three: Three, first text.', 'Two: Two, first text.']);
    expect(adds()).toBe(3 + 1 + 2);
    expect(uuidsOf('One: One, edited on A.', 'Three: Three, first text.')).toEqual(aEpisodes);
    expect((await cli(b, 'origin')).out).toContain('Resting on the other machine\'s episodes: 1 episode(s)');

    // Both go on: nothing is sent again or deleted, however often either runs or looks.
    await sync(a);
    await lookAgainLater(configOf(b).stateDir);
    await sync(b);
    expect(adds()).toBe(6);
    expect(graph()).toEqual(['One: One, edited on A.', 'One: One, first text.', 'Three: Three, first text.', 'Two: Two, first text.']);

    // What B sent again is B's own: its deletion of the note deletes it (nothing held), and A's version stays.
    rmSync(join(b.path('claude', 'projects', PROJECT, 'memory'), 'one.md'));
    await sync(b);
    expect(graph()).toEqual(['One: One, edited on A.', 'Three: Three, first text.', 'Two: Two, first text.']);
    expect(await held(b)).toBe(0);
  });

  it('what the copy sent again is still looked after: the old machine\'s revert takes it for its own, and its next edit deletes it; the copy sends it once more', async () => {
    const b = await copySentAgainAfterAnEdit();

    // A reverts: the very text B sent again is in the graph under the shared origin, and A adopts it; then A edits again.
    a.auto(PROJECT, 'one.md', note('One', 'One, first text.'));
    await sync(a);
    expect(graph()).toEqual(['One: One, first text.']);
    a.auto(PROJECT, 'one.md', note('One', 'One, A\'s third text.'));
    await sync(a);
    expect(graph()).toEqual(['One: One, A\'s third text.']);

    await lookAgainLater(configOf(b).stateDir);
    await sync(b);
    expect(graph()).toEqual(['One: One, A\'s third text.', 'One: One, first text.']);
  });

  it('the old machine deletes a note before the copy\'s first run: that first run sends the copy\'s text of it again', async () => {
    const b = machineB();
    a.auto(PROJECT, 'one.md', note('One', 'One, first text.'));
    a.auto(PROJECT, 'two.md', note('Two', 'Two, first text.'));
    await sync(a);
    copyHome(a, b);
    rmSync(join(a.path('claude', 'projects', PROJECT, 'memory'), 'one.md'));
    await sync(a);
    expect(graph()).toEqual(['Two: Two, first text.']);

    await sync(b);
    expect(graph()).toEqual(['One: One, first text.', 'Two: Two, first text.']);
    expect(adds()).toBe(3);
  });

  it('looking costs nothing where nothing was copied, and little on the copy: a settled machine lists nothing, a copy lists again only after a while', async () => {
    a.auto(PROJECT, 'one.md', note('One', 'One, first text.'));
    await sync(a);
    const listings = () => server.calls.filter((c) => c.tool === 'get_episodes').length;
    let before = listings();
    await runSync(configOf(a));
    expect(listings()).toBe(before);

    const b = machineB();
    copyHome(a, b);
    await sync(b);
    before = listings();
    await runSync(configOf(b));
    await runSync(configOf(b));
    expect(listings()).toBe(before);
    await lookAgainLater(configOf(b).stateDir);
    await runSync(configOf(b));
    expect(listings()).toBeGreaterThan(before);
  });

  it('without a machine id nothing is taken for a copy (a container rebuilt keeps ~/.claude and gets a new host name)', async () => {
    // The same home on "two" containers with no machine id: one memory, the usual lost-state rebuild retires its own older version.
    a.auto(PROJECT, 'one.md', note('One', 'One, first text.'));
    await sync(a);
    const config = a.config({ MADEINOZ_KNOWLEDGE_MACHINE_ID: 'none' });
    rmSync(a.path('state'), { recursive: true, force: true });
    a.auto(PROJECT, 'one.md', note('One', 'One, edited after the rebuild.'));
    for (let round = 0; round < 4; round++) {
      await runSync(config, { waitMs: 5000 });
      await server.whenIdle();
    }
    expect(graph()).toEqual(['One: One, edited after the rebuild.']);
  });
});

describe('what a copy that is not settled leaves alone', () => {
  it('the user clears the graph: the copy sends nothing again, as a machine never copied does, also once the group is written to again', async () => {
    const b = machineB();
    a.auto(PROJECT, 'one.md', note('One', 'One, first text.'));
    a.auto(PROJECT, 'two.md', note('Two', 'Two, first text.'));
    await sync(a);
    copyHome(a, b);
    b.auto(PROJECT, 'two.md', note('Two', 'Two, edited on B.'));
    await sync(b);
    expect(graph()).toEqual(['One: One, first text.', 'Two: Two, edited on B.', 'Two: Two, first text.']);

    const client = new GraphitiClient(configOf(a));
    try {
      expect(await client.clearGroup('main')).toBe(true);
    } finally {
      await client.close();
    }
    expect(graph()).toEqual([]);
    const sent = adds();
    await lookAgainLater(configOf(b).stateDir);
    await sync(b);
    await sync(a);
    expect(adds()).toBe(sent);
    expect(graph()).toEqual([]);

    // Someone writes to the group again (the old machine, a new note): the copy still sends nothing it had.
    a.auto(PROJECT, 'three.md', note('Three', 'Three, written after the clear.'));
    await sync(a);
    await lookAgainLater(configOf(b).stateDir);
    await sync(b);
    expect(graph()).toEqual(['Three: Three, written after the clear.']);
    expect(adds()).toBe(sent + 1);
  });

  it('a busy group cleared and written to again before the copy looks: nothing sent again (another writer\'s episodes its last look saw are gone too)', async () => {
    const { b, c } = await copiedBesideAnotherWriter();

    const client = new GraphitiClient(configOf(a));
    try {
      expect(await client.clearGroup('main')).toBe(true);
    } finally {
      await client.close();
    }
    // The other writer writes again before the copy's next look: the group is not empty when it looks.
    c.auto(PROJECT, 'after.md', note('After', 'After, written after the clear.'));
    await sync(c);
    const sent = adds();
    for (let look = 0; look < 2; look++) {
      await lookAgainLater(configOf(b).stateDir);
      await sync(b);
    }
    await sync(a);
    expect(adds()).toBe(sent);
    expect(graph()).toEqual(['After: After, written after the clear.']);
    expect((await cli(b, 'origin')).out).toMatch(/^Left deleted: 2 note\(s\) here .*`origin --split` sends this machine's text of them again/m);
  });

  it('control: the old machine deletes its notes in a group another writer also writes to: the copy sends its text of them again (the other writer\'s episode is still there)', async () => {
    const { b, c } = await copiedBesideAnotherWriter();
    for (const name of ['one.md', 'two.md']) rmSync(join(a.path('claude', 'projects', PROJECT, 'memory'), name));
    await sync(a);
    expect(graph()).toEqual(['Team: Team, another writer\'s note.']);
    const sent = adds();
    await lookAgainLater(configOf(b).stateDir);
    await sync(b);
    expect(graph()).toEqual(['One: One, first text.', 'Team: Team, another writer\'s note.', 'Two: Two, first text.']);
    expect(adds()).toBe(sent + 2);
    expect((await cli(b, 'origin')).out).not.toMatch(/Left deleted/);
  });

  it('a note deleted on a linked machine (pull) stays deleted: the copy does not send it again, its untouched file goes, and the linked machine does not get it back', async () => {
    const REMOTE = 'git@github.com:me/app.git';
    const old = machine(server, 'old', REMOTE, { MADEINOZ_KNOWLEDGE_MACHINE_ID: 'old' });
    const other = machine(server, 'other', REMOTE, { MADEINOZ_KNOWLEDGE_MACHINE_ID: 'other' });
    extraBoxes.push(old.box, other.box);
    await link(old, other);
    old.write('one.md', topic('One', 'One, written on the old machine.'));
    old.write('two.md', topic('Two', 'Two, written on the old machine.'));
    await old.sync();
    await old.pull({ projectDirs: [old.repo] });
    expect((await other.pull({ projectDirs: [other.repo] })).written).toHaveLength(2);

    // The old machine's home (Claude config folder, state folder with the key) copied to a new one, at the same paths.
    const copy = makeSandbox(server.url, { MADEINOZ_KNOWLEDGE_MACHINE_ID: 'copy' });
    extraBoxes.push(copy);
    rmSync(copy.path('claude'), { recursive: true, force: true });
    cpSync(old.box.path('claude'), copy.path('claude'), { recursive: true, preserveTimestamps: true });
    cpSync(old.box.path('state'), copy.path('state'), { recursive: true, preserveTimestamps: true });
    const copyMemory = join(copy.path('claude', 'projects'), old.memoryDir.slice(old.box.path('claude', 'projects').length + 1));
    expect(existsSync(join(copyMemory, 'one.md'))).toBe(true);
    await syncSettled(server, () => copy.config());
    const pullOnCopy = () => runPull(copy.config(), { env: copy.env, projectDirs: [old.repo] });
    await pullOnCopy();
    const sent = adds();

    // Deleted on the linked machine: its pull takes the note's episode out of the graph.
    rmSync(join(other.memoryDir, 'one.md'));
    await other.sync();
    expect((await other.pull({ projectDirs: [other.repo] })).deletedInGraph).toBe(1);
    expect(graph()).toEqual(['Two: Two, written on the old machine.']);

    // The copy looks (some time later): nothing sent again; its pull removes its untouched file, as on the old machine.
    await lookAgainLater(copy.config().stateDir);
    await syncSettled(server, () => copy.config());
    expect(adds()).toBe(sent);
    expect((await pullOnCopy()).removed).toEqual([join(copyMemory, 'one.md')]);
    await syncSettled(server, () => copy.config());
    expect((await old.pull({ projectDirs: [old.repo] })).removed).toEqual([join(old.memoryDir, 'one.md')]);
    expect((await other.pull({ projectDirs: [other.repo] })).written).toEqual([]);
    expect(existsSync(join(other.memoryDir, 'one.md'))).toBe(false);
    expect(graph()).toEqual(['Two: Two, written on the old machine.']);
    expect(adds()).toBe(sent);
  });

  it('`origin --split` after the copy sent a note again leaves the episode the old machine took back by a revert, and deletes the one nobody else names', async () => {
    const b = await copiedWithTwoNotes();
    // The old machine edits One and deletes Two; the copy sends both again as its own.
    a.auto(PROJECT, 'one.md', note('One', 'One, edited on A.'));
    rmSync(join(a.path('claude', 'projects', PROJECT, 'memory'), 'two.md'));
    await sync(a);
    await lookAgainLater(configOf(b).stateDir);
    await sync(b);
    expect(graph()).toEqual(['One: One, edited on A.', 'One: One, first text.', 'Two: Two, first text.']);
    // The old machine reverts One: it takes the copy's episode of that text for its own.
    a.auto(PROJECT, 'one.md', note('One', 'One, first text.'));
    await sync(a);
    expect(graph()).toEqual(['One: One, first text.', 'Two: Two, first text.']);
    const [adopted] = uuidsOf('One: One, first text.');
    const shared = origins()['One: One, first text.'];

    const split = await cli(b, 'origin', '--split');
    expect(split.code).toBe(0);
    expect(split.out).toContain('deletes the 2 episode(s) it sent under the shared one (1 of them sent again beside the other machine\'s edit: deleted only if that machine has not taken them back by a revert)');
    await sync(b);
    await sync(a);
    expect((await cli(b, 'origin')).code).toBe(0);
    // The old machine's One stays (its current episode); the copy has its own of each note; Two is not doubled.
    expect(server.episodes('main').some((e) => e.uuid === adopted)).toBe(true);
    expect(graph()).toEqual(['One: One, first text.', 'One: One, first text.', 'Two: Two, first text.']);
    expect(origins()['Two: Two, first text.']).not.toBe(shared);

    // Each goes on with its own: the old machine's edit replaces its episode, the copy's stays.
    a.auto(PROJECT, 'one.md', note('One', 'One, A edits again.'));
    await sync(a);
    await sync(b);
    expect(graph()).toEqual(['One: One, A edits again.', 'One: One, first text.', 'Two: Two, first text.']);
  });

  it('the old machine writes a deleted note again with the very text the copy sent again, and the copy sees both copies: `origin --split` leaves that episode to the old machine (TAKEN_BACK)', async () => {
    const b = await copiedWithTwoNotes();
    rmSync(join(a.path('claude', 'projects', PROJECT, 'memory'), 'two.md'));
    await sync(a);
    await lookAgainLater(configOf(b).stateDir);
    await sync(b);
    const [resent] = uuidsOf('Two: Two, first text.');
    expect(resent).toBeDefined();

    // The old machine writes Two again, the very same text: its sync sends its own copy; the copy looks before that machine lists the group again.
    a.auto(PROJECT, 'two.md', note('Two', 'Two, first text.'));
    await runSync(configOf(a), { waitMs: 0 });
    await server.whenIdle();
    expect(server.episodes('main').filter((e) => e.name === 'Two')).toHaveLength(2);
    await lookAgainLater(configOf(b).stateDir);
    await sync(b);
    await sync(a);
    // Both keep the copy's episode, the earliest (the keeper rule), as their current one.
    expect(server.episodes('main').filter((e) => e.name === 'Two').map((e) => e.uuid)).toEqual([resent]);

    expect((await cli(b, 'origin', '--split')).code).toBe(0);
    await sync(b);
    await sync(a);
    // The old machine's Two (the episode the copy had sent) stays; the copy has its own of each note.
    expect(server.episodes('main').some((e) => e.uuid === resent)).toBe(true);
    expect(graph()).toEqual(['One: One, first text.', 'One: One, first text.', 'Two: Two, first text.', 'Two: Two, first text.']);
    // And it is the old machine's: its edit replaces it, the copy's stays.
    a.auto(PROJECT, 'two.md', note('Two', 'Two, A edits it.'));
    await sync(a);
    await sync(b);
    expect(graph()).toEqual(['One: One, first text.', 'One: One, first text.', 'Two: Two, A edits it.', 'Two: Two, first text.']);
    expect(server.episodes('main').some((e) => e.uuid === resent)).toBe(false);
  });

  it('the old machine loses its state after the copy sent a note again: the copy\'s text of the note stays in the graph', async () => {
    const b = await copySentAgainAfterAnEdit();

    // The old machine's state is lost: its rebuild finds the copy's episode under the shared origin, another text of its note.
    rmSync(a.path('state'), { recursive: true, force: true });
    await sync(a);
    // It takes that episode for an older version of its own and deletes it (it cannot know of the copy).
    expect(graph()).toEqual(['One: One, edited on A.']);
    const [aOne] = uuidsOf('One: One, edited on A.');
    const sent = adds();

    // The copy's next look sends its text once more, and nothing after that.
    await lookAgainLater(configOf(b).stateDir);
    await sync(b);
    await sync(a);
    await lookAgainLater(configOf(b).stateDir);
    await sync(b);
    expect(graph()).toEqual(['One: One, edited on A.', 'One: One, first text.']);
    expect(adds()).toBe(sent + 1);
    expect(uuidsOf('One: One, edited on A.')).toEqual([aOne]);
  });
});
