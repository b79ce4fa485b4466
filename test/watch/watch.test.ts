/**
 * Watch mode over loopback: the real sync engine against the Graphiti-shaped test server,
 * real chokidar on a temp folder. Synchronisation is by the watcher's own events
 * (ready / pass / phase) with bounded timeouts — never by sleeping.
 */
import { mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireLock, tryAcquireLock } from '../../src/lib/state/lock.js';
import { loadState } from '../../src/lib/state/state.js';
import { collectGarbage } from '../../src/lib/watch/heap-release.js';
import { runSync } from '../../src/lib/sync/sync.js';
import { runWatch } from '../../src/lib/watch/run.js';
import { createWatcher, type Watcher, type WatcherOptions } from '../../src/lib/watch/watch.js';
import { startGraphitiServer, type GraphitiTestServer } from '../support/graphiti-server.js';
import { parseJsonLines } from '../support/json-lines.js';
import { learning, makeSandbox, type Sandbox } from '../support/sandbox.js';
import { holdFirstPolls } from './fs-seams.js';
import { FAST_WATCH as FAST, nextEvent, passesOf, record, toolCalls, whenQuiet } from './helpers.js';

let server: GraphitiTestServer;
let sb: Sandbox;
const watchers: Watcher[] = [];

beforeEach(async () => {
  server = await startGraphitiServer({ processingDelayMs: 0 });
  sb = makeSandbox(server.url, { MADEINOZ_KNOWLEDGE_RETRIES: '0', MADEINOZ_KNOWLEDGE_TIMEOUT: '2000', MADEINOZ_KNOWLEDGE_RETRY_DEADLINE: '2000' });
});

afterEach(async () => {
  await Promise.all(watchers.splice(0).map((w) => w.stop()));
  await server.close();
  sb.cleanup();
});

const learningDir = () => sb.path('pai', 'MEMORY', 'LEARNING', 'SYSTEM');

/** The two ways the watch learns of changes: native fs events, and stat polling (`--poll`, network drives; a short interval here). */
const LINK_MODES: Array<{ name: string; options: Partial<WatcherOptions> }> = [
  { name: 'native events', options: {} },
  { name: '--poll', options: { poll: true, pollIntervalMs: 100 } },
];

/** Starts a watcher and waits for its initial pass and for everything to be confirmed. */
async function startWatcher(options: Partial<WatcherOptions> = {}, extraEnv: Record<string, string> = {}) {
  mkdirSync(learningDir(), { recursive: true });
  const watcher = createWatcher({ config: sb.config(extraEnv), ...FAST, ...options });
  watchers.push(watcher);
  const events = record(watcher);
  const initial = nextEvent(watcher, 'pass', (e) => e.reason === 'initial');
  await watcher.start();
  await initial;
  await whenQuiet(watcher);
  return { watcher, events };
}

function write(rel: string, title: string, body: string): string {
  return sb.pai(`LEARNING/SYSTEM/${rel}`, learning(title, body));
}

describe('watch mode (real engine, real test server)', () => {
  it('create → exactly one add_memory; nothing more while idle', async () => {
    const { watcher, events } = await startWatcher();
    expect(events.find((e) => e.event === 'ready')).toMatchObject({ folders: 2 });
    const pass = nextEvent(watcher, 'pass', (e) => e.added === 1);
    write('a.md', 'Alpha', 'alpha body unique-a');
    await pass;
    await server.whenIdle();
    await whenQuiet(watcher);
    expect(toolCalls(server, 'add_memory')).toHaveLength(1);
    expect(server.episodes()).toHaveLength(1);
    expect(server.episodes()[0]?.content).toContain('unique-a');
    // Idle: no timer waiting, so no further passes and no requests.
    expect(watcher.pendingTimer).toBeUndefined();
    expect(watcher.phase).toBe('idle');
  });

  it('edit → one new add_memory and the old episode deleted', async () => {
    write('a.md', 'Alpha', 'first version v1');
    const { watcher } = await startWatcher();
    const old = server.episodes()[0];
    expect(old?.content).toContain('v1');
    const pass = nextEvent(watcher, 'pass', (e) => e.updated === 1);
    write('a.md', 'Alpha', 'second version v2');
    await pass;
    await server.whenIdle();
    await whenQuiet(watcher);
    expect(toolCalls(server, 'add_memory')).toHaveLength(2);
    const deletes = toolCalls(server, 'delete_episode');
    expect(deletes.map((d) => d.args.uuid)).toEqual([old?.uuid]);
    expect(server.episodes()).toHaveLength(1);
    expect(server.episodes()[0]?.content).toContain('v2');
  });

  it("--poll: an edit made right after the initial pass read the note, before chokidar's first poll of it, is sent by the next pass, at once", async () => {
    const file = write('a.md', 'Alpha', 'first version v1');
    // chokidar's first poll of the note held back (as libuv's busy threads did) until the initial pass has read it and the note is edited.
    const hold = holdFirstPolls((path) => path === file);
    try {
      const { watcher, events } = await startWatcher({
        poll: true,
        pollIntervalMs: 100,
        // The engine in this process, so the edit comes right after the initial pass has read the note.
        runPass: async (signal, reason, config) => {
          const summary = await runSync(config, { signal, lockTimeoutMs: 200 });
          if (reason === 'initial') {
            write('a.md', 'Alpha', 'second version v2');
            hold.release();
          }
          return summary;
        },
      });
      expect(hold.heldPaths).toEqual([file]);
      await server.whenIdle();
      await whenQuiet(watcher);
      expect(server.episodes().map((e) => (e.content.includes('v2') ? 'v2' : e.content.includes('v1') ? 'v1' : '?'))).toEqual(['v2']);
      // Sent by a pass the edit owed. Before, the edit was in chokidar's first stat, so no poll
      // reported it: it waited for a pass owed by something else (here a confirmation pass).
      expect(passesOf(events).filter((e) => e.updated > 0).map((e) => e.reason)).toEqual(['change']);
    } finally {
      hold.restore();
    }
  });

  it('rename with the same content → no add_memory, no delete', async () => {
    write('a.md', 'Alpha', 'stable content');
    const { watcher, events } = await startWatcher();
    const pass = nextEvent(watcher, 'pass', (e) => e.renamed === 1);
    renameSync(join(learningDir(), 'a.md'), join(learningDir(), 'b.md'));
    await pass;
    await whenQuiet(watcher);
    expect(toolCalls(server, 'add_memory')).toHaveLength(1);
    expect(toolCalls(server, 'delete_episode')).toHaveLength(0);
    expect(server.episodes()).toHaveLength(1);
    expect(passesOf(events).some((p) => p.reason !== 'initial' && (p.added > 0 || p.deleted > 0))).toBe(false);
  });

  it('delete → delete_episode for its uuid', async () => {
    write('a.md', 'Alpha', 'doomed');
    const { watcher } = await startWatcher();
    const uuid = server.episodes()[0]?.uuid;
    expect(uuid).toBeDefined();
    const pass = nextEvent(watcher, 'pass', (e) => e.deleted === 1);
    rmSync(join(learningDir(), 'a.md'));
    await pass;
    await server.whenIdle();
    expect(toolCalls(server, 'delete_episode').map((d) => d.args.uuid)).toEqual([uuid]);
    expect(server.episodes()).toHaveLength(0);
  });

  it('a burst of 50 writes → exactly one pass after the initial one, 50 episodes', async () => {
    const { watcher, events } = await startWatcher({ debounceMs: 400 });
    const pass = nextEvent(watcher, 'pass', (e) => e.reason === 'change');
    for (let i = 0; i < 50; i++) write(`burst-${i}.md`, `Burst ${i}`, `burst body ${i}`);
    const first = await pass;
    expect(first.added).toBe(50);
    await server.whenIdle();
    await whenQuiet(watcher);
    const passes = passesOf(events);
    // Besides the initial pass: one pass for the burst; the rest only confirmed (no file reads, no sends).
    expect(passes.filter((p) => p.reason === 'change')).toHaveLength(1);
    expect(passes.filter((p) => p.reason !== 'initial' && p.reason !== 'change').every((p) => p.added + p.updated === 0)).toBe(true);
    expect(toolCalls(server, 'add_memory')).toHaveLength(50);
    expect(server.episodes()).toHaveLength(50);
  });

  it('server down mid-watch: backs off, then sends everything when it is back; nothing lost or doubled', async () => {
    write('keep.md', 'Keep', 'token-keep');
    write('edit.md', 'Edit', 'token-edit-v1');
    write('drop.md', 'Drop', 'token-drop');
    const { watcher, events } = await startWatcher();
    expect(server.episodes()).toHaveLength(3);

    await server.stop();
    const outage = nextEvent(watcher, 'backoff', (e) => e.reason === 'server');
    write('new1.md', 'New one', 'token-new1');
    write('new2.md', 'New two', 'token-new2');
    write('edit.md', 'Edit', 'token-edit-v2');
    rmSync(join(learningDir(), 'drop.md'));
    await outage;
    // Still down: further retries back off, no pass in between (the backoff event is the proof of pacing).
    await nextEvent(watcher, 'backoff', (e) => e.reason === 'server' && e.attempt >= 2);
    expect(passesOf(events).at(-1)?.serverReachable).toBe(false);

    const recovered = nextEvent(watcher, 'pass', (e) => e.serverReachable && e.pending === 0);
    await server.start();
    await recovered;
    await server.whenIdle();
    await whenQuiet(watcher);

    const episodes = server.episodes();
    for (const token of ['token-keep', 'token-edit-v2', 'token-new1', 'token-new2']) {
      expect(episodes.filter((e) => e.content.includes(token)), token).toHaveLength(1);
    }
    expect(episodes.some((e) => e.content.includes('token-drop') || e.content.includes('token-edit-v1'))).toBe(false);
    expect(episodes).toHaveLength(4);
  });

  it('editor temp and swap files never cause a pass', async () => {
    const { watcher, events } = await startWatcher();
    const temps = ['.foo.md.swp', 'foo.md.swp', 'foo.md.swo', 'foo.md~', '4913', '.#foo.md', '#foo.md#', 'foo.md.tmp', '.DS_Store', 'foo.md.crswap', 'notes.txt'];
    for (const name of temps) writeFileSync(join(learningDir(), name), 'x');
    mkdirSync(join(learningDir(), '.obsidian'));
    writeFileSync(join(learningDir(), '.obsidian', 'workspace.md'), 'x');
    // A real note afterwards: its pass proves the watcher saw the folder's events by then.
    const pass = nextEvent(watcher, 'pass', (e) => e.reason === 'change');
    write('real.md', 'Real', 'the only real note');
    const p = await pass;
    expect(p.added).toBe(1);
    const changes = events.filter((e) => e.event === 'change');
    expect(changes.map((c) => (c.event === 'change' ? c.relPath : ''))).toEqual(['LEARNING/SYSTEM/real.md']);
    expect(passesOf(events).filter((e) => e.reason === 'change')).toHaveLength(1);
    await server.whenIdle();
    expect(toolCalls(server, 'add_memory')).toHaveLength(1);
  });

  it('auto memory: topic files sync; transcripts, MEMORY.md and other project folders never cause a pass', async () => {
    mkdirSync(sb.path('claude', 'projects', '-home-me-repo', 'memory'), { recursive: true });
    const { watcher, events } = await startWatcher();
    const project = sb.path('claude', 'projects', '-home-me-repo');
    for (let i = 0; i < 5; i++) writeFileSync(join(project, 'session-1.jsonl'), `{"turn":${i}}\n`, { flag: 'a' });
    mkdirSync(join(project, 'session-1', 'subagents'), { recursive: true });
    writeFileSync(join(project, 'session-1', 'subagents', 'notes.md'), '# not memory\n');
    writeFileSync(join(project, 'memory', 'MEMORY.md'), '- index regenerated by Claude Code\n');
    const pass = nextEvent(watcher, 'pass', (e) => e.reason === 'change');
    sb.auto('-home-me-repo', 'topic.md', '# Topic\n\nWe use pnpm in this repo.\n');
    expect(await pass).toMatchObject({ added: 1 });
    const changes = events.filter((e) => e.event === 'change').map((e) => (e.event === 'change' ? `${e.source}:${e.relPath}` : ''));
    expect(changes).toEqual(['auto-memory:-home-me-repo/memory/topic.md']);
    await server.whenIdle();
    expect(server.episodes()).toHaveLength(1);
  });

  it('a source folder created after start is picked up (its parent is watched meanwhile)', async () => {
    const watcher = createWatcher({ config: sb.config(), ...FAST });
    watchers.push(watcher);
    const ready = nextEvent(watcher, 'ready');
    await watcher.start();
    expect((await ready).missing).toHaveLength(2);
    await whenQuiet(watcher);
    const pass = nextEvent(watcher, 'pass', (e) => e.added === 1);
    write('late.md', 'Late', 'created after the watch started');
    await pass;
    await server.whenIdle();
    expect(server.episodes()).toHaveLength(1);
  });

  it('follows symlinked folders and files (a change to a link target is seen)', async () => {
    const elsewhere = sb.path('elsewhere');
    mkdirSync(elsewhere, { recursive: true });
    writeFileSync(join(elsewhere, 'target.md'), learning('Target', 'target v1'));
    mkdirSync(learningDir(), { recursive: true });
    symlinkSync(join(elsewhere, 'target.md'), join(learningDir(), 'linked.md'));
    symlinkSync(elsewhere, join(learningDir(), 'linked-folder'));
    const { watcher } = await startWatcher();
    // Both paths lead to target.md: the scan sees it twice (once per path).
    expect(server.episodes()).toHaveLength(2);
    const added = nextEvent(watcher, 'pass', (e) => e.added === 1);
    writeFileSync(join(elsewhere, 'new.md'), learning('New', 'in the linked folder'));
    await added;
    const updated = nextEvent(watcher, 'pass', (e) => e.updated >= 1);
    writeFileSync(join(elsewhere, 'target.md'), learning('Target', 'target v2, longer than before'));
    await updated;
    await server.whenIdle();
    await whenQuiet(watcher);
    expect(server.episodes().filter((e) => e.content.includes('target v2'))).toHaveLength(2);
    expect(server.episodes().some((e) => e.content.includes('target v1'))).toBe(false);
  });

  // A folder link pointed elsewhere is noticed as it happens, with native events and with --poll alike.
  describe.each(LINK_MODES)('a folder link retargeted ($name)', (mode) => {
    it('a source folder that is a symlink pointed elsewhere (ln -sfn): the new target is synced and watched, the old one no longer', async () => {
      const [a, b] = [sb.path('data', 'A'), sb.path('data', 'B')];
      for (const [dir, name] of [[a, 'a'], [b, 'b']] as const) {
        mkdirSync(join(dir, 'LEARNING', 'SYSTEM'), { recursive: true });
        writeFileSync(join(dir, 'LEARNING', 'SYSTEM', `${name}.md`), learning(name, `note ${name} in folder ${name.toUpperCase()}`));
      }
      mkdirSync(sb.path('pai'), { recursive: true });
      symlinkSync(a, sb.path('pai', 'MEMORY'));
      const { watcher } = await startWatcher(mode.options);
      expect(server.episodes().map((e) => e.content.includes('note a'))).toEqual([true]);
      // As ln -sfn does it: a new link beside, renamed over the old one.
      const moved = nextEvent(watcher, 'pass', (e) => e.added === 1 && e.deleted === 1, 10_000);
      symlinkSync(b, sb.path('pai', 'MEMORY.new'));
      renameSync(sb.path('pai', 'MEMORY.new'), sb.path('pai', 'MEMORY'));
      await moved;
      await whenQuiet(watcher);
      const later = nextEvent(watcher, 'pass', (e) => e.added === 1, 10_000);
      writeFileSync(join(b, 'LEARNING', 'SYSTEM', 'c.md'), learning('c', 'note c written in B after the switch'));
      await later;
      await server.whenIdle();
      await whenQuiet(watcher);
      expect(server.episodes().map((e) => e.content.match(/note \w/)?.[0]).sort()).toEqual(['note b', 'note c']);
      // The old target is no longer watched: a note written there (before one in B) raises no change.
      const changes: string[] = [];
      watcher.on('change', (e) => changes.push(e.path));
      const last = nextEvent(watcher, 'pass', (e) => e.added === 1, 10_000);
      writeFileSync(join(a, 'LEARNING', 'SYSTEM', 'd.md'), learning('d', 'note d written in A after the switch'));
      writeFileSync(join(b, 'LEARNING', 'SYSTEM', 'e.md'), learning('e', 'note e written in B after d in A'));
      await last;
      expect(changes.map((p) => p.split('/').at(-1))).toEqual(['e.md']);
    });

    it("a project's memory folder that is a symlink pointed elsewhere: the new target is synced and watched", async () => {
      const [a, b] = [sb.path('data', 'A'), sb.path('data', 'B')];
      for (const [dir, name] of [[a, 'a'], [b, 'b']] as const) {
        mkdirSync(dir, { recursive: true });
        writeFileSync(join(dir, `${name}.md`), `---\nname: ${name}\n---\nnote ${name} in folder ${name.toUpperCase()}\n`);
      }
      const project = sb.path('claude', 'projects', '-home-me-repo');
      mkdirSync(project, { recursive: true });
      symlinkSync(a, join(project, 'memory'));
      const { watcher } = await startWatcher(mode.options);
      expect(server.episodes().map((e) => e.content.includes('note a'))).toEqual([true]);
      const moved = nextEvent(watcher, 'pass', (e) => e.added === 1 && e.deleted === 1, 10_000);
      symlinkSync(b, join(project, 'memory.new'));
      renameSync(join(project, 'memory.new'), join(project, 'memory'));
      await moved;
      await whenQuiet(watcher);
      const later = nextEvent(watcher, 'pass', (e) => e.added === 1, 10_000);
      writeFileSync(join(b, 'c.md'), '---\nname: c\n---\nnote c written in B after the switch\n');
      await later;
      await server.whenIdle();
      await whenQuiet(watcher);
      expect(server.episodes().map((e) => e.content.match(/note \w/)?.[0]).sort()).toEqual(['note b', 'note c']);
    });

    it("a project's memory link retargeted above its root (to the folder holding everything): nothing there is watched or sent, nothing deleted, the pass says what and what next; pointed back, it syncs", async () => {
      const [a, b] = [sb.path('data', 'A'), sb.path('data', 'B')];
      for (const [dir, name] of [[a, 'a'], [b, 'b']] as const) {
        mkdirSync(dir, { recursive: true });
        writeFileSync(join(dir, `${name}.md`), `---\nname: ${name}\n---\nnote ${name} in folder ${name.toUpperCase()}\n`);
      }
      mkdirSync(sb.path('data', 'beside'), { recursive: true });
      writeFileSync(sb.path('data', 'beside', 'decoy.md'), '---\nname: decoy\n---\nnote decoy beside the configured folders\n');
      const project = sb.path('claude', 'projects', '-home-me-repo');
      const other = sb.path('claude', 'projects', '-home-me-other', 'memory');
      mkdirSync(project, { recursive: true });
      mkdirSync(other, { recursive: true });
      symlinkSync(a, join(project, 'memory'));
      const { watcher, events } = await startWatcher(mode.options);
      expect(server.episodes().map((e) => e.content.match(/note \w+/)?.[0])).toEqual(['note a']);
      const skipped = nextEvent(watcher, 'pass', (e) => e.summary.problems.some((p) => p.reason === 'out-of-reach'), 10_000);
      const seen: string[] = [];
      watcher.on('change', (e) => seen.push(e.path));
      // ln -sfn <sandbox root> memory: the whole sandbox (every source, the state, the decoy) is above it.
      symlinkSync(sb.root, join(project, 'memory.new'));
      renameSync(join(project, 'memory.new'), join(project, 'memory'));
      const pass = await skipped;
      // Nothing there was walked on the way: no file of the sandbox is said to be a change beneath the link.
      expect(seen.filter((path) => path.startsWith(`${join(project, 'memory')}/`))).toEqual([]);
      const problem = pass.summary.problems.find((p) => p.reason === 'out-of-reach');
      expect(problem?.message).toContain(`${join(project, 'memory')} is a symbolic link to ${sb.root}, a folder that holds the link itself`);
      expect(problem?.message).toMatch(/ln -sfn <notes folder>/);
      expect(events.some((e) => e.event === 'error' && !e.fatal && e.message.startsWith(`not watching ${join(project, 'memory')} is a symbolic link`))).toBe(true);
      await server.whenIdle();
      await whenQuiet(watcher);
      expect(server.episodes().map((e) => e.content.match(/note \w+/)?.[0])).toEqual(['note a']);
      expect(toolCalls(server, 'delete_episode')).toHaveLength(0);
      // Nothing above is watched: a note written there (before one in another project) raises no change.
      const changes: string[] = [];
      watcher.on('change', (e) => changes.push(e.path));
      const later = nextEvent(watcher, 'pass', (e) => e.added === 1, 10_000);
      writeFileSync(sb.path('data', 'beside', 'decoy2.md'), '---\nname: decoy2\n---\nnote decoy2 beside\n');
      writeFileSync(join(other, 'c.md'), '---\nname: c\n---\nnote c in another project\n');
      await later;
      expect(changes.map((p) => p.split('/').at(-1))).toEqual(['c.md']);
      // Pointed at a notes folder again: followed and synced.
      const back = nextEvent(watcher, 'pass', (e) => e.added === 1 && e.summary.problems.length === 0, 10_000);
      symlinkSync(b, join(project, 'memory.new'));
      renameSync(join(project, 'memory.new'), join(project, 'memory'));
      await back;
      await server.whenIdle();
      await whenQuiet(watcher);
      expect(server.episodes().map((e) => e.content.match(/note \w+/)?.[0]).sort()).toEqual(['note b', 'note c']);
    });

    it('a source folder that is a link, retargeted to a folder holding it: not followed nor watched, its notes kept; the sync goes on for the rest', async () => {
      const notes = sb.path('data', 'N');
      mkdirSync(notes, { recursive: true });
      writeFileSync(join(notes, 'n.md'), '---\nname: n\n---\nnote n in the linked notes folder\n');
      mkdirSync(sb.path('data', 'beside'), { recursive: true });
      writeFileSync(sb.path('data', 'beside', 'decoy.md'), '---\nname: decoy\n---\nnote decoy beside the configured folders\n');
      mkdirSync(sb.path('links'), { recursive: true });
      const link = sb.path('links', 'notes');
      symlinkSync(notes, link);
      const { watcher } = await startWatcher(mode.options, { MADEINOZ_KNOWLEDGE_SYNC_PATHS: `notes=${link}` });
      expect(server.episodes().map((e) => e.content.match(/note \w+/)?.[0])).toEqual(['note n']);
      const skipped = nextEvent(watcher, 'pass', (e) => e.summary.problems.some((p) => p.reason === 'out-of-reach' && p.id.startsWith('notes:')), 10_000);
      symlinkSync(sb.path('links'), sb.path('links', 'notes.new'));
      renameSync(sb.path('links', 'notes.new'), link);
      await skipped;
      expect(watcher.watchedPaths).not.toContain(sb.path('links', 'notes'));
      await server.whenIdle();
      await whenQuiet(watcher);
      const later = nextEvent(watcher, 'pass', (e) => e.added === 1, 10_000);
      write('x.md', 'X', 'note x in pai');
      await later;
      await server.whenIdle();
      await whenQuiet(watcher);
      expect(server.episodes().map((e) => e.content.match(/note \w+/)?.[0]).sort()).toEqual(['note n', 'note x']);
      expect(toolCalls(server, 'delete_episode')).toHaveLength(0);
      // Pointed back to its own folder, where a note was edited meanwhile: noticed as it happens (no
      // other change needed), the edit sent once, the old version deleted, nothing else touched.
      writeFileSync(join(notes, 'n.md'), '---\nname: n\n---\nnote n edited while the link led elsewhere\n');
      const back = nextEvent(watcher, 'pass', (e) => e.updated === 1 && e.summary.problems.length === 0, 10_000);
      symlinkSync(notes, sb.path('links', 'notes.new'));
      renameSync(sb.path('links', 'notes.new'), link);
      await back;
      await server.whenIdle();
      await whenQuiet(watcher);
      expect(server.episodes().map((e) => e.content.match(/note \w+ \w+/)?.[0]).sort()).toEqual(['note n edited', 'note x in']);
      expect(toolCalls(server, 'add_memory')).toHaveLength(3);
      expect(toolCalls(server, 'delete_episode')).toHaveLength(1);
    });
  });

  // Notes kept in a dotfiles folder or an Obsidian vault and linked into the memory folder, one file each.
  describe.each(LINK_MODES)('a note that is a file link ($name)', (mode) => {
    /** The `note <x> version <n>` of every episode in the graph, once the server and the watch are quiet. */
    const versionsSent = async (watcher: Parameters<typeof whenQuiet>[0]) => {
      await server.whenIdle();
      await whenQuiet(watcher);
      return server.episodes().map((e) => e.content.match(/note \w version \d/)?.[0]);
    };
    it('an edit of what it leads to, the target deleted (a dangling link: kept, as the scan keeps it) and written anew, the link pointed at another file and that file edited: each taken up as it happens; the old target no longer watched', async () => {
      const vault = sb.path('vault', 'notes');
      mkdirSync(vault, { recursive: true });
      const [t, u] = [join(vault, 't.md'), join(vault, 'u.md')];
      writeFileSync(t, learning('T', 'note t version 1'));
      writeFileSync(u, learning('U', 'note u version 1'));
      mkdirSync(learningDir(), { recursive: true });
      const link = join(learningDir(), 'linked.md');
      // A relative link, as stow makes them.
      symlinkSync(join('..', '..', '..', '..', 'vault', 'notes', 't.md'), link);
      const { watcher } = await startWatcher(mode.options);
      const sentNow = () => versionsSent(watcher);
      expect(await sentNow()).toEqual(['note t version 1']);
      const takenUp = async (change: () => void) => {
        const updated = nextEvent(watcher, 'pass', (e) => e.updated === 1, 10_000);
        change();
        await updated;
        return sentNow();
      };
      expect(await takenUp(() => writeFileSync(t, learning('T', 'note t version 2')))).toEqual(['note t version 2']);
      // Deleted (a checkout of a branch without it): the scan reports the dangling link and keeps its note, and so does the pass the watch runs.
      const dangling = nextEvent(watcher, 'pass', (e) => e.summary.problems.some((p) => p.reason === 'vanished' && p.id.endsWith('LEARNING/SYSTEM/linked.md')), 10_000);
      rmSync(t);
      const danglingPass = await dangling;
      expect(danglingPass).toMatchObject({ deleted: 0, updated: 0 });
      expect(danglingPass.summary.problems.find((p) => p.reason === 'vanished')?.message).toMatch(/dangling symlink.*kept until that file is back.*remove the link/);
      expect(await sentNow()).toEqual(['note t version 2']);
      expect(await takenUp(() => writeFileSync(t, learning('T', 'note t version 3')))).toEqual(['note t version 3']);
      // Pointed at another file (ln -sf: a new link renamed over the old one), then that file edited.
      expect(
        await takenUp(() => {
          symlinkSync(u, `${link}.new`);
          renameSync(`${link}.new`, link);
        }),
      ).toEqual(['note u version 1']);
      expect(await takenUp(() => writeFileSync(u, learning('U', 'note u version 2')))).toEqual(['note u version 2']);
      // The file it led to before is no longer watched: an edit there (before a plain note's) raises no change.
      const changes: string[] = [];
      watcher.on('change', (e) => changes.push(e.path));
      const last = nextEvent(watcher, 'pass', (e) => e.added === 1, 10_000);
      writeFileSync(t, learning('T', 'note t version 4'));
      write('plain.md', 'Plain', 'note p version 1');
      await last;
      expect(changes.map((p) => p.split('/').at(-1))).toEqual(['plain.md']);
      expect((await sentNow()).sort()).toEqual(['note p version 1', 'note u version 2']);
      expect(toolCalls(server, 'delete_episode')).toHaveLength(4);
    });

    it('pointed at a folder (ln -sfn ~/vault/dir memory/x.md): the pass sends what a sync sends (the folder\'s notes, the file\'s note deleted), and an edit in the folder is taken up as it happens', async () => {
      const vault = sb.path('vault', 'notes');
      const dir = sb.path('vault', 'dir');
      mkdirSync(vault, { recursive: true });
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(vault, 't.md'), learning('T', 'note t version 1'));
      writeFileSync(join(dir, 'inner.md'), learning('Inner', 'note i version 1'));
      const link = join(learningDir(), 'x.md');
      mkdirSync(learningDir(), { recursive: true });
      symlinkSync(join(vault, 't.md'), link);
      const { watcher } = await startWatcher(mode.options);
      const sentNow = () => versionsSent(watcher);
      expect(await sentNow()).toEqual(['note t version 1']);
      const moved = nextEvent(watcher, 'pass', (e) => e.added === 1 && e.deleted === 1, 10_000);
      symlinkSync(dir, `${link}.new`);
      renameSync(`${link}.new`, link);
      await moved;
      expect(await sentNow()).toEqual(['note i version 1']);
      const updated = nextEvent(watcher, 'pass', (e) => e.updated === 1, 10_000);
      writeFileSync(join(dir, 'inner.md'), learning('Inner', 'note i version 2, edited in the linked folder'));
      await updated;
      expect(await sentNow()).toEqual(['note i version 2']);
    });
  });

  it('bad files written during watch (bad frontmatter, not UTF-8, too large) are each named with what to do; the good one beside them syncs', async () => {
    const { watcher } = await startWatcher({}, { MADEINOZ_KNOWLEDGE_MAX_FILE_BYTES: '4096' });
    const pass = nextEvent(watcher, 'pass', (e) => e.added === 1);
    writeFileSync(join(learningDir(), 'bad-yaml.md'), '---\nname: [unclosed\n---\nBad frontmatter.\n');
    writeFileSync(join(learningDir(), 'latin1.md'), Buffer.from('---\nname: latin\n---\nCaf\xe9 cr\xe8me\n', 'latin1'));
    writeFileSync(join(learningDir(), 'huge.md'), learning('Huge', 'word '.repeat(2000)));
    write('good.md', 'Good', 'the good note beside them');
    const done = await pass;
    expect(done.summary.problems.map((p) => [p.id.split('/').at(-1), p.reason]).sort()).toEqual([
      ['bad-yaml.md', 'yaml'],
      ['huge.md', 'too-large'],
      ['latin1.md', 'not-utf8'],
    ]);
    expect(done.summary.problems.find((p) => p.reason === 'too-large')?.message).toMatch(/MADEINOZ_KNOWLEDGE_MAX_FILE_BYTES \(4096\)/);
    await server.whenIdle();
    await whenQuiet(watcher);
    expect(server.episodes().map((e) => e.content.includes('the good note beside them'))).toEqual([true]);
  });

  it('a source folder deleted and created again is still watched', async () => {
    write('a.md', 'Alpha', 'before the folder went away');
    const { watcher } = await startWatcher();
    const gone = nextEvent(watcher, 'pass', (e) => e.reason === 'change');
    rmSync(sb.path('pai', 'MEMORY'), { recursive: true });
    // A vanished root is not a mass deletion (the engine keeps its episodes until it is back).
    expect(await gone).toMatchObject({ deleted: 0 });
    await whenQuiet(watcher);
    const back = nextEvent(watcher, 'pass', (e) => e.added === 1);
    write('b.md', 'Beta', 'after the folder came back');
    expect(await back).toMatchObject({ deleted: 1 });
    await server.whenIdle();
    await whenQuiet(watcher);
    expect(server.episodes().map((e) => e.content.includes('came back'))).toEqual([true]);
  });

  it('does not hold the state lock between passes, and retries when someone else holds it', async () => {
    const { watcher, events } = await startWatcher();
    const stateDir = sb.config().stateDir;
    // Idle: the lock is free for a session-start worker or a manual sync.
    const probe = await tryAcquireLock(stateDir);
    expect(probe).toBeDefined();
    await probe?.release();

    const lock = await acquireLock(stateDir, { label: 'test' });
    const busy = nextEvent(watcher, 'backoff', (e) => e.reason === 'lock');
    write('a.md', 'Alpha', 'written while the lock is busy');
    await busy;
    expect(toolCalls(server, 'add_memory')).toHaveLength(0);
    const sent = nextEvent(watcher, 'pass', (e) => e.added === 1);
    await lock.release();
    await sent;
    await server.whenIdle();
    expect(server.episodes()).toHaveLength(1);
    expect(events.some((e) => e.event === 'error')).toBe(false);
  });

  it('runWatch gives the heap back after start-up and after passes, and still sees every change (create, edit, delete in several folders)', async () => {
    const folders = ['SYSTEM', 'ALGORITHM', 'RESEARCH-A', 'RESEARCH-B'];
    for (const folder of folders) for (let i = 0; i < 25; i++) sb.pai(`LEARNING/${folder}/old-${i}.md`, learning(`${folder} ${i}`, `old body ${folder} ${i}`));
    type PassLine = { event: string; added: number; updated: number; deleted: number; queued: number; pending: number };
    const passes: PassLine[] = [];
    const total = (key: 'added' | 'updated' | 'deleted') => passes.reduce((n, p) => n + p[key], 0);
    const waiting: Array<{ done: () => boolean; resolve: () => void }> = [];
    /** Resolves once the passes reported so far satisfy `done` (checked on each pass line, never by sleeping). */
    const until = (done: () => boolean) => (done() ? Promise.resolve() : new Promise<void>((resolve) => waiting.push({ done, resolve })));
    const stdout = (text: string) => {
      for (const line of parseJsonLines<PassLine>(text)) {
        if (line.event !== 'pass') continue;
        passes.push(line);
        for (const w of waiting.splice(0)) {
          if (w.done()) w.resolve();
          else waiting.push(w);
        }
      }
    };
    const quiet = () => passes.length > 0 && passes.at(-1)?.queued === 0 && passes.at(-1)?.pending === 0;
    let collections = 0;
    let collecting: Promise<void> = Promise.resolve();
    const controller = new AbortController();
    const running = runWatch(sb.config(), {
      json: true,
      io: { stdout, stderr: () => undefined, isTTY: false },
      signal: controller.signal,
      handleSignals: false,
      watcher: FAST,
      // Collect after every burst, whatever the heap's growth: with 0, a heap that had shrunk since the
      // start (a collection of some other test's garbage during start-up) skipped the release (flaky).
      heap: {
        growthBytes: Number.NEGATIVE_INFINITY,
        collect: () => {
          collections++;
          collecting = collectGarbage();
          return collecting;
        },
      },
    });
    await until(() => total('added') === 100 && quiet());
    expect(collections).toBeGreaterThan(0);
    const before = collections;
    // One collection runs at a time (heap-release.ts): let start-up's end before the next burst.
    await collecting;
    // Two new notes, an edit and a delete, each in another folder.
    sb.pai('LEARNING/SYSTEM/new-a.md', learning('New A', 'fresh body a'));
    sb.pai('LEARNING/ALGORITHM/new-b.md', learning('New B', 'fresh body b'));
    sb.pai('LEARNING/RESEARCH-A/old-3.md', learning('RESEARCH-A 3', 'edited body'));
    rmSync(sb.path('pai', 'MEMORY', 'LEARNING', 'RESEARCH-B', 'old-7.md'));
    await until(() => total('added') === 102 && total('updated') === 1 && total('deleted') === 1 && quiet());
    await server.whenIdle();
    controller.abort();
    expect(await running).toBe(0);
    expect(collections).toBeGreaterThan(before);
    const contents = server.episodes().map((e) => e.content);
    expect(contents).toHaveLength(101);
    expect(contents.filter((c) => c.includes('fresh body'))).toHaveLength(2);
    expect(contents.filter((c) => c.includes('edited body'))).toHaveLength(1);
    expect(contents.some((c) => c.includes('old body RESEARCH-A 3'))).toBe(false);
    expect(contents.some((c) => c.includes('old body RESEARCH-B 7'))).toBe(false);
  });

  it('abort mid-pass (like SIGTERM) → runWatch resolves 0 promptly and the state file is valid', async () => {
    mkdirSync(learningDir(), { recursive: true });
    write('a.md', 'Alpha', 'in flight when stopped');
    // Every request takes 3 s: the initial pass is certainly in flight when we abort.
    server.setOptions({ faults: { latencyMs: 3000 } });
    const lines: string[] = [];
    const controller = new AbortController();
    const inFlight = new Promise<void>((resolve) => {
      server.events.on('http', () => resolve());
    });
    const running = runWatch(sb.config(), {
      json: true,
      io: { stdout: (t) => lines.push(t), stderr: (t) => lines.push(t), isTTY: false },
      signal: controller.signal,
      handleSignals: false,
      watcher: FAST,
    });
    await inFlight;
    const t0 = Date.now();
    controller.abort();
    expect(await running).toBe(0);
    expect(Date.now() - t0).toBeLessThan(3000);
    const json = parseJsonLines<{ event: string }>(lines.join(''));
    expect(json[0]?.event).toBe('ready');
    expect(json.at(-1)?.event).toBe('stopped');
    const loaded = await loadState(sb.config().stateDir);
    expect(loaded.recovered).toBeUndefined();
    // The next run finishes the job exactly once.
    server.setOptions({ faults: {} });
    const { runSync } = await import('../../src/lib/sync/sync.js');
    const summary = await runSync(sb.config());
    expect(summary.pending).toBe(0);
    await server.whenIdle();
    await runSync(sb.config());
    expect(server.episodes()).toHaveLength(1);
  });
});
