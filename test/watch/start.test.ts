/**
 * The start of the watch: what changes while chokidar starts is not lost.
 *
 * `--poll`: chokidar polls each file with fs.watchFile, whose first
 * stat (the one every later stat is compared with) is taken on libuv's thread pool, queued while
 * chokidar's start-up scan runs and taken whenever a thread is free. On a loaded machine it came
 * after the initial pass had read the file: an edit made between that read and the first stat
 * was in the first stat, so no poll ever reported it (the next pass, owed by something else,
 * sent it). Here that first stat is held back deterministically (holdFirstPolls) until the
 * initial pass has read the note and the note has been edited, as the busy thread pool did.
 *
 * Both modes: chokidar lists a folder, then watches it (fs.watch, or fs.watchFile with --poll);
 * an entry made in between is not in its listing, and the folder's watch does not report it. Here
 * the entry is made as chokidar starts the folder's watch (wrapFolderWatch).
 *
 * A fake pass, so only the watching is under test.
 */
import { mkdirSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createWatcher, type PassReason, type Watcher } from '../../src/lib/watch/watch.js';
import { learning, makeSandbox, type Sandbox } from '../support/sandbox.js';
import { holdFirstPolls as holdPolls, wrapFolderWatch as wrapWatch } from './fs-seams.js';
import { FAST_WATCH, fakeSummary, nextEvent, startQuietWatcher, whenQuiet } from './helpers.js';

let sb: Sandbox;
const watchers: Watcher[] = [];
const restores: Array<() => void> = [];

beforeEach(() => {
  sb = makeSandbox('http://127.0.0.1:9/mcp');
});

/** The seams, undone after each test. */
function holdFirstPolls(held: (path: string) => boolean): ReturnType<typeof holdPolls> {
  const hold = holdPolls(held);
  restores.push(hold.restore);
  return hold;
}

function wrapFolderWatch(method: 'watch' | 'watchFile', folder: string, before: () => void): void {
  restores.push(wrapWatch(method, folder, before));
}

afterEach(async () => {
  await Promise.all(watchers.splice(0).map((w) => w.stop()));
  for (const restore of restores.splice(0)) restore();
  sb.cleanup();
});

const memoryDir = () => sb.path('pai', 'MEMORY', 'LEARNING', 'SYSTEM');
const vaultDir = () => sb.path('vault', 'notes');

/**
 * A --poll watch whose initial pass (a fake: it reads nothing) runs `duringInitial` (the
 * edit after its read); the later passes are recorded by reason and held while `hold` says so.
 */
function pollingWatcher(duringInitial: () => void, hold?: { held: boolean; letGo?: () => void }): { watcher: Watcher; passes: PassReason[] } {
  mkdirSync(memoryDir(), { recursive: true });
  const passes: PassReason[] = [];
  const watcher = createWatcher({
    config: sb.config(),
    ...FAST_WATCH,
    poll: true,
    pollIntervalMs: 50,
    runPass: async (_signal, reason) => {
      passes.push(reason);
      if (reason === 'initial') duringInitial();
      else if (hold?.held === true) await new Promise<void>((resolve) => (hold.letGo = resolve));
      return fakeSummary();
    },
  });
  watchers.push(watcher);
  return { watcher, passes };
}

/** The note, where its content lies (the file it is or leads to), and what chokidar polls for it. */
interface Layout {
  name: string;
  make(): { note: string; file: string; polled: (path: string) => boolean };
}

const LAYOUTS: Layout[] = [
  {
    name: 'a plain note',
    make: () => {
      mkdirSync(memoryDir(), { recursive: true });
      const note = join(memoryDir(), 'a.md');
      writeFileSync(note, learning('A', 'a v1'));
      return { note, file: note, polled: (path) => path === note };
    },
  },
  {
    name: 'a note in a linked folder (memory/x -> ~/vault/dir)',
    make: () => {
      const dir = sb.path('vault', 'dir');
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'inner.md'), learning('Inner', 'inner v1'));
      mkdirSync(memoryDir(), { recursive: true });
      symlinkSync(dir, join(memoryDir(), 'x'));
      const note = join(memoryDir(), 'x', 'inner.md');
      return { note, file: join(dir, 'inner.md'), polled: (path) => path.endsWith('inner.md') };
    },
  },
  {
    name: 'a note that is a file link (memory/t.md -> ~/vault/notes/t.md)',
    make: () => {
      mkdirSync(vaultDir(), { recursive: true });
      writeFileSync(join(vaultDir(), 't.md'), learning('T', 't v1'));
      mkdirSync(memoryDir(), { recursive: true });
      const note = join(memoryDir(), 't.md');
      symlinkSync(join(vaultDir(), 't.md'), note);
      return { note, file: join(vaultDir(), 't.md'), polled: (path) => path.endsWith('t.md') };
    },
  },
];

/** The edit `reported` is taken up by one pass, and the note is polled from then on: a later edit is reported. */
async function takenUpOnceThenPolled(watcher: Watcher, passes: PassReason[], reported: Promise<unknown>, note: string, file: string): Promise<void> {
  await reported;
  await whenQuiet(watcher);
  expect(passes).toEqual(['initial', 'change']);
  const edited = nextEvent(watcher, 'change', (e) => e.path === note, 10_000);
  writeFileSync(file, learning('Edited', 'v3'));
  await edited;
}

describe.each(LAYOUTS)('--poll: an edit made right after the initial pass read the note, before chokidar\'s first poll of it ($name)', (layout) => {
  it('is taken up at once (one pass), and the note is polled from then on', async () => {
    const { note, file, polled } = layout.make();
    const hold = holdFirstPolls(polled);
    const { watcher, passes } = pollingWatcher(() => {
      // The pass has read v1; the edit, then chokidar's first stat (it has v2: no poll of it reports the edit).
      writeFileSync(file, learning('Edited', 'v2, written right after the initial pass read v1'));
      hold.release();
    });
    const reported = nextEvent(watcher, 'change', (e) => e.path === note, 10_000);
    await watcher.start();
    expect(hold.heldPaths.length).toBeGreaterThan(0);
    await takenUpOnceThenPolled(watcher, passes, reported, note, file);
  });
});

describe("--poll: an edit saved after the first-poll check's look, before chokidar's first stat (another thread took that stat microseconds late)", () => {
  it('is reported by the look after it (FIRST_POLL_SECOND_LOOK): one pass, and the note is polled from then on', async () => {
    const layout = LAYOUTS[0] as Layout;
    const { note, file, polled } = layout.make();
    const hold = holdFirstPolls(polled);
    const { watcher, passes } = pollingWatcher(() => undefined);
    await watcher.start();
    // The initial pass is over and the check has looked (it found the note as the scan read it).
    await whenQuiet(watcher);
    expect(passes).toEqual(['initial']);
    expect(hold.heldPaths.length).toBeGreaterThan(0);
    const reported = nextEvent(watcher, 'change', (e) => e.path === note, 10_000);
    // The edit, then chokidar's first stat (it has the edit: no poll of it reports it).
    writeFileSync(file, learning('Edited', 'v2, saved between the check and the first stat'));
    hold.release();
    await takenUpOnceThenPolled(watcher, passes, reported, note, file);
  });
});

describe('--poll: the first-poll check and chokidar\'s poll both report one edit', () => {
  it('one pass for it; a real change during that pass still owes the next', async () => {
    const layout = LAYOUTS[0] as Layout;
    const { note, file, polled } = layout.make();
    const hold = holdFirstPolls(polled);
    const held: { held: boolean; letGo?: () => void } = { held: true };
    const { watcher, passes } = pollingWatcher(() => {
      writeFileSync(file, learning('Edited', 'v2, written right after the initial pass read v1'));
      hold.release();
    }, held);
    // The check's report (at the initial pass's end) owes a pass, which starts (and is held).
    const started = nextEvent(watcher, 'pass-start', (e) => e.reason === 'change', 10_000);
    await watcher.start();
    await started;
    // chokidar's poll reports the same edit (an edit after its first stat, before the check's:
    // each reports it, on its own clock), while that pass runs: it owes no second pass.
    watcher.handleFsEvent('change', note);
    held.held = false;
    held.letGo?.();
    await whenQuiet(watcher);
    expect(passes).toEqual(['initial', 'change']);
    // A real change while a pass runs owes the next one.
    held.held = true;
    const again = nextEvent(watcher, 'pass-start', () => true, 10_000);
    writeFileSync(file, learning('Edited', 'v3'));
    await again;
    const next = nextEvent(watcher, 'pass-start', () => true, 10_000);
    const reported = nextEvent(watcher, 'change', (e) => e.path === note, 10_000);
    writeFileSync(file, learning('Edited', 'v4, written while the pass for v3 ran'));
    await reported;
    held.held = false;
    held.letGo?.();
    await next;
    await whenQuiet(watcher);
    expect(passes).toEqual(['initial', 'change', 'change', 'change']);
  });
});

const MODES: Array<{ name: string; poll: boolean }> = [
  { name: 'native events', poll: false },
  { name: '--poll', poll: true },
];

describe.each(MODES)('made in a folder after chokidar listed it, before it watched it ($name)', (mode) => {
  const started = (): Promise<Watcher> => startQuietWatcher(sb.config(), watchers, mode.poll ? { poll: true, pollIntervalMs: 50 } : {});

  it('a folder: a note made there later is seen', async () => {
    mkdirSync(memoryDir(), { recursive: true });
    const sub = join(memoryDir(), 'sub');
    wrapFolderWatch(mode.poll ? 'watchFile' : 'watch', memoryDir(), () => mkdirSync(sub));
    const watcher = await started();
    const note = join(sub, 'n.md');
    const seen = nextEvent(watcher, 'change', (e) => e.path === note, 10_000);
    writeFileSync(note, learning('N', 'a note in a folder made as the watch started'));
    await seen;
  });

  it('a note (the initial pass reads it): its edits are seen', async () => {
    mkdirSync(memoryDir(), { recursive: true });
    const note = join(memoryDir(), 'late.md');
    wrapFolderWatch(mode.poll ? 'watchFile' : 'watch', memoryDir(), () => writeFileSync(note, learning('Late', 'v1')));
    const watcher = await started();
    const seen = nextEvent(watcher, 'change', (e) => e.path === note, 10_000);
    writeFileSync(note, learning('Late', 'v2'));
    await seen;
  });
});

describe.each(MODES)('made in a linked folder (memory/x -> ~/vault/dir) after chokidar listed it, before it watched it ($name)', (mode) => {
  it('a folder: a note made there later is seen', async () => {
    const dir = sb.path('vault', 'dir');
    mkdirSync(dir, { recursive: true });
    mkdirSync(memoryDir(), { recursive: true });
    symlinkSync(dir, join(memoryDir(), 'x'));
    // chokidar watches the linked folder through the link.
    wrapFolderWatch(mode.poll ? 'watchFile' : 'watch', join(memoryDir(), 'x'), () => mkdirSync(join(dir, 'sub')));
    const watcher = await startQuietWatcher(sb.config(), watchers, mode.poll ? { poll: true, pollIntervalMs: 50 } : {});
    const note = join(memoryDir(), 'x', 'sub', 'n.md');
    const seen = nextEvent(watcher, 'change', (e) => e.path === note, 10_000);
    writeFileSync(join(dir, 'sub', 'n.md'), learning('N', 'a note in a folder made in the vault as the watch started'));
    await seen;
  });
});

describe('--poll: what the start leaves behind', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("once the initial pass is over, with nothing changed, no timer of the watch's start is left: chokidar's polls are the idle watch's only periodic work", async () => {
    mkdirSync(memoryDir(), { recursive: true });
    writeFileSync(join(memoryDir(), 'a.md'), learning('A', 'a v1'));
    // Folders read before (their last access after their last change, as any folder a day old):
    // reading them changes nothing a stat shows, so chokidar's poll of them reports nothing.
    const [read, changed] = [new Date(Date.now() + 3_600_000), new Date(Date.now() - 3_600_000)];
    for (const folder of [memoryDir(), sb.path('pai', 'MEMORY', 'LEARNING'), sb.path('pai', 'MEMORY')]) utimesSync(folder, read, changed);
    const real = { set: globalThis.setInterval, clear: globalThis.clearInterval };
    const made: unknown[] = [];
    const cleared = new Set<unknown>();
    vi.spyOn(globalThis, 'setInterval').mockImplementation(((...args: Parameters<typeof setInterval>) => {
      const handle = real.set(...args);
      if (new Error().stack?.includes('/src/lib/watch/') === true) made.push(handle);
      return handle;
    }) as typeof setInterval);
    vi.spyOn(globalThis, 'clearInterval').mockImplementation(((handle: Parameters<typeof clearInterval>[0]) => {
      cleared.add(handle);
      real.clear(handle);
    }) as typeof clearInterval);
    await startQuietWatcher(sb.config(), watchers, { poll: true, pollIntervalMs: 50 });
    // The folders' first polls were guarded (a timer was set), and that guard is over.
    expect(made.length).toBeGreaterThan(0);
    expect(made.filter((handle) => !cleared.has(handle))).toEqual([]);
  });
});
