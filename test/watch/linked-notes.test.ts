/**
 * Notes that are file links (kept in a vault or a dotfiles folder, linked into a memory folder):
 * what the watch watches for them (watch.ts noteLinks, file-links.ts), with a fake pass, so only
 * the watching is under test. The engine's side (what a pass sends, keeps and deletes) is in
 * watch.test.ts, "a note that is a file link".
 */
import { pbkdf2 } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, readlinkSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Watcher, WatcherOptions } from '../../src/lib/watch/watch.js';
import { learning, makeSandbox, type Sandbox } from '../support/sandbox.js';
import { wrapFolderWatch } from './fs-seams.js';
import { fakeSummary, nextEvent, startQuietWatcher, whenQuiet } from './helpers.js';

let sb: Sandbox;
const watchers: Watcher[] = [];

beforeEach(() => {
  sb = makeSandbox('http://127.0.0.1:9/mcp');
});

afterEach(async () => {
  await Promise.all(watchers.splice(0).map((w) => w.stop()));
  sb.cleanup();
});

const MODES: Array<{ name: string; options: Partial<WatcherOptions> }> = [
  { name: 'native events', options: {} },
  { name: '--poll', options: { poll: true, pollIntervalMs: 100 } },
];

const memoryDir = () => sb.path('pai', 'MEMORY', 'LEARNING', 'SYSTEM');
const vaultDir = () => sb.path('vault', 'notes');

/** Starts a watcher whose passes do nothing, once its initial pass is over. */
function startWatcher(options: Partial<WatcherOptions> = {}): Promise<Watcher> {
  mkdirSync(memoryDir(), { recursive: true });
  return startQuietWatcher(sb.config(), watchers, options);
}

/**
 * Resolves with the paths of the change events seen until one for `last`, which `act` causes
 * (after anything else it does), each path once: with --poll a note that is a link is polled as
 * a file of its folder too, so an edit of what it leads to may be reported by both polls.
 */
async function changesUntil(watcher: Watcher, last: string, act: () => void): Promise<string[]> {
  const changes: string[] = [];
  const onChange = (e: { path: string }) => changes.push(e.path);
  watcher.on('change', onChange);
  try {
    const seen = nextEvent(watcher, 'change', (e) => e.path === last, 10_000);
    act();
    await seen;
    await whenQuiet(watcher);
    return [...new Set(changes)];
  } finally {
    watcher.off('change', onChange);
  }
}

describe.each(MODES)('notes that are file links ($name)', (mode) => {
  it('a note linked after the watch started: an edit of its target is seen, the other files of the target folder are not', async () => {
    mkdirSync(vaultDir(), { recursive: true });
    writeFileSync(join(vaultDir(), 'late.md'), learning('Late', 'late v1'));
    const watcher = await startWatcher(mode.options);
    const note = join(memoryDir(), 'late.md');
    // The link's own event owes a pass; that pass watches where it leads.
    const linked = nextEvent(watcher, 'pass', () => true, 10_000);
    symlinkSync(join(vaultDir(), 'late.md'), note);
    await linked;
    await whenQuiet(watcher);
    // A file beside the target, not linked from any memory folder, then the target: only the target's note is reported.
    const changes = await changesUntil(watcher, note, () => {
      writeFileSync(join(vaultDir(), 'unlinked.md'), learning('Unlinked', 'not a memory'));
      writeFileSync(join(vaultDir(), 'late.md'), learning('Late', 'late v2, edited in the vault'));
    });
    expect(changes).toEqual([note]);
  });

  it("the target's folder deleted (a checkout of a branch without it) and made again with the file: seen as it happens", async () => {
    mkdirSync(vaultDir(), { recursive: true });
    writeFileSync(join(vaultDir(), 't.md'), learning('T', 't v1'));
    mkdirSync(memoryDir(), { recursive: true });
    const note = join(memoryDir(), 't.md');
    symlinkSync(join(vaultDir(), 't.md'), note);
    const watcher = await startWatcher(mode.options);
    expect(await changesUntil(watcher, note, () => rmSync(sb.path('vault'), { recursive: true }))).toEqual([note]);
    expect(
      await changesUntil(watcher, note, () => {
        mkdirSync(vaultDir(), { recursive: true });
        writeFileSync(join(vaultDir(), 't.md'), learning('T', 't v2, back with its folder'));
      }),
    ).toEqual([note]);
    // Watched in its folder again: an edit is seen.
    expect(await changesUntil(watcher, note, () => writeFileSync(join(vaultDir(), 't.md'), learning('T', 't v3')))).toEqual([note]);
  });

  it('a target reached through a link of the vault itself (a chain): an edit at its end and the middle link pointed elsewhere are each seen', async () => {
    const daily = sb.path('vault', 'daily');
    mkdirSync(vaultDir(), { recursive: true });
    mkdirSync(daily, { recursive: true });
    writeFileSync(join(vaultDir(), 'a.md'), learning('A', 'a v1'));
    writeFileSync(join(vaultDir(), 'b.md'), learning('B', 'b v1'));
    symlinkSync(join('..', 'notes', 'a.md'), join(daily, 'today.md'));
    mkdirSync(memoryDir(), { recursive: true });
    const note = join(memoryDir(), 'today.md');
    symlinkSync(join(daily, 'today.md'), note);
    const watcher = await startWatcher(mode.options);
    expect(await changesUntil(watcher, note, () => writeFileSync(join(vaultDir(), 'a.md'), learning('A', 'a v2')))).toEqual([note]);
    expect(
      await changesUntil(watcher, note, () => {
        symlinkSync(join('..', 'notes', 'b.md'), join(daily, 'today.md.new'));
        renameSync(join(daily, 'today.md.new'), join(daily, 'today.md'));
      }),
    ).toContain(note);
    expect(readlinkSync(join(daily, 'today.md'))).toBe(join('..', 'notes', 'b.md'));
    expect(await changesUntil(watcher, note, () => writeFileSync(join(vaultDir(), 'b.md'), learning('B', 'b v2')))).toEqual([note]);
  });
});

/** The inotify watches this process holds (Linux: the `inotify wd:` lines of its inotify descriptors). */
function inotifyWatches(): number {
  let count = 0;
  for (const fd of readdirSync('/proc/self/fd')) {
    let target: string;
    try {
      target = readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      continue;
    }
    if (target !== 'anon_inode:inotify') continue;
    count += readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8').split('\n').filter((line) => line.startsWith('inotify wd:')).length;
  }
  return count;
}

describe.runIf(process.platform === 'linux')('the cost of many linked notes (native events)', () => {
  it('200 notes linked from one vault folder: a handful of inotify watches (the folders), not one per note; an edit of any target is seen', async () => {
    mkdirSync(vaultDir(), { recursive: true });
    mkdirSync(memoryDir(), { recursive: true });
    for (let i = 0; i < 200; i++) {
      writeFileSync(join(vaultDir(), `n${i}.md`), learning(`N${i}`, `note ${i}`));
      symlinkSync(join(vaultDir(), `n${i}.md`), join(memoryDir(), `n${i}.md`));
    }
    const before = inotifyWatches();
    const watcher = await startWatcher();
    // MEMORY, LEARNING, SYSTEM and the vault folder (a few more on some layouts): not 200 or more.
    expect(inotifyWatches() - before).toBeLessThanOrEqual(8);
    const note = join(memoryDir(), 'n137.md');
    expect(await changesUntil(watcher, note, () => writeFileSync(join(vaultDir(), 'n137.md'), learning('N137', 'note 137 edited')))).toEqual([note]);
  });
});

describe('--poll: the start of the watch', () => {
  it('a note made as soon as the initial pass is over is seen, while the thread pool is busy (a loaded machine)', async () => {
    // libuv's four threads kept busy, as on a loaded machine: each stat waits its turn there.
    let busy = true;
    const spin = (): void => {
      if (busy) pbkdf2('x', 'y', 20_000, 32, 'sha256', spin);
    };
    for (let i = 0; i < 4; i++) spin();
    try {
      const watcher = await startWatcher({ poll: true, pollIntervalMs: 50 });
      const note = join(memoryDir(), 'first.md');
      // Before, chokidar's poll of the folder took its first stat after this write: no pass, ever.
      const pass = nextEvent(watcher, 'pass', () => true, 10_000);
      writeFileSync(note, learning('First', 'made right after the start'));
      busy = false;
      await pass;
      await whenQuiet(watcher);
      // And the note is polled from then on: an edit is reported.
      const edited = nextEvent(watcher, 'change', (e) => e.path === note, 10_000);
      writeFileSync(note, learning('First', 'made right after the start, then edited'));
      await edited;
    } finally {
      busy = false;
    }
  });
});

describe('native events: a folder made on a linked note\'s way while its watch starts', () => {
  it('a note linked to a file in a folder not made yet, the folder made as the pass watches the vault: the file written there later is seen', async () => {
    mkdirSync(vaultDir(), { recursive: true });
    const watcher = await startWatcher();
    const dir = join(vaultDir(), 'dir');
    // The pass the link owes watches the vault (the folder is not there yet); the folder is made as that watch starts, after its look at the vault.
    const undo = wrapFolderWatch('watch', vaultDir(), () => mkdirSync(dir));
    try {
      const note = join(memoryDir(), 't.md');
      const linked = nextEvent(watcher, 'pass', () => true, 10_000);
      symlinkSync(join(dir, 't.md'), note);
      await linked;
      await whenQuiet(watcher);
      expect(await changesUntil(watcher, note, () => writeFileSync(join(dir, 't.md'), learning('T', 'written in the folder made as the watch started')))).toEqual([note]);
    } finally {
      undo();
    }
  });
});

/** Runs `act` with libuv's four threads kept busy, as on a loaded machine: each stat waits its turn there. */
async function withBusyThreadPool(act: () => Promise<void>): Promise<void> {
  let busy = true;
  const spin = (): void => {
    if (busy) pbkdf2('x', 'y', 20_000, 32, 'sha256', spin);
  };
  for (let i = 0; i < 4; i++) spin();
  try {
    await act();
  } finally {
    busy = false;
  }
}

/** As `ln -sfn` does it: a new link beside, renamed over the old one; resolves once the pass this owes is over and the watch is quiet. */
async function repoint(watcher: Watcher, link: string, target: string): Promise<void> {
  const pass = nextEvent(watcher, 'pass', () => true, 10_000);
  symlinkSync(target, `${link}.new`);
  renameSync(`${link}.new`, link);
  await pass;
  await whenQuiet(watcher);
}

/** A vault holding a note (`t.md`) and a folder with one (`dir/inner.md`), and where the memory folder's link to either goes (`x.md`, not made yet). */
function vaultFileAndFolder(): { dir: string; note: string } {
  const dir = sb.path('vault', 'dir');
  mkdirSync(vaultDir(), { recursive: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(vaultDir(), 't.md'), learning('T', 't v1'));
  writeFileSync(join(dir, 'inner.md'), learning('Inner', 'inner v1'));
  mkdirSync(memoryDir(), { recursive: true });
  return { dir, note: join(memoryDir(), 'x.md') };
}

describe.each(MODES)('a note link that comes to lead to a folder, and back ($name)', (mode) => {
  it('a file link pointed at a folder (ln -sfn): the folder is watched as sync scans it, an edit and a new note there seen; pointed back at a file, its edits seen again', async () => {
    const { dir, note } = vaultFileAndFolder();
    symlinkSync(join(vaultDir(), 't.md'), note);
    const watcher = await startWatcher(mode.options);
    // Pointed at the folder: a pass follows (its scan syncs x.md/inner.md, as a `sync` would),
    // and what the folder holds is watched as any linked folder's is: a note made there as soon
    // as that pass is over owes a pass (the thread pool busy, as on a loaded machine: with --poll
    // the folder's first poll comes late, and a change before it is found by watching afresh,
    // first-polls.ts FolderPolls, which owes a pass but names no file), then an edit is reported.
    await withBusyThreadPool(async () => {
      await repoint(watcher, note, dir);
      const pass = nextEvent(watcher, 'pass', () => true, 10_000);
      writeFileSync(join(dir, 'new.md'), learning('New', 'new in the folder'));
      await pass;
      await whenQuiet(watcher);
    });
    expect(await changesUntil(watcher, join(note, 'inner.md'), () => writeFileSync(join(dir, 'inner.md'), learning('Inner', 'inner v2')))).toEqual([join(note, 'inner.md')]);
    // Pointed back at a file: an edit there is the note's again.
    await repoint(watcher, note, join(vaultDir(), 't.md'));
    expect(await changesUntil(watcher, note, () => writeFileSync(join(vaultDir(), 't.md'), learning('T', 't v2')))).toEqual([note]);
  });

  it('a folder link named like a note pointed at a file: an edit of the file is seen, the folder no longer watched', async () => {
    const { dir, note } = vaultFileAndFolder();
    symlinkSync(dir, note);
    // Watched as a folder: a note made there as soon as the watch has started owes a pass, while
    // the thread pool is busy (with --poll, found by first-polls.ts FolderPolls: it compares what the
    // link leads to, as chokidar's poll does, not the link's own entry, whose times never move).
    await withBusyThreadPool(async () => {
      const watcher = await startWatcher(mode.options);
      const pass = nextEvent(watcher, 'pass', () => true, 10_000);
      writeFileSync(join(dir, 'new.md'), learning('New', 'new in the folder'));
      await pass;
      await whenQuiet(watcher);
    });
    const watcher = watchers.at(-1) as Watcher;
    await repoint(watcher, note, join(vaultDir(), 't.md'));
    // The folder (written first) is no longer watched; the file (written last) is the note.
    expect(
      await changesUntil(watcher, note, () => {
        writeFileSync(join(dir, 'inner.md'), learning('Inner', 'inner v3'));
        writeFileSync(join(vaultDir(), 't.md'), learning('T', 't v2'));
      }),
    ).toEqual([note]);
  });
});

describe('--poll: one edit of a linked note, one pass', () => {
  it("chokidar's poll of the link and the poll of what it leads to each report the edit: the later report, of what was reported already, owes no second pass; a real change during the pass does", async () => {
    mkdirSync(vaultDir(), { recursive: true });
    writeFileSync(join(vaultDir(), 't.md'), learning('T', 't v1'));
    mkdirSync(memoryDir(), { recursive: true });
    const note = join(memoryDir(), 't.md');
    symlinkSync(join(vaultDir(), 't.md'), note);
    // Each pass held until let go, so a report arriving while it runs is seen to owe (or not) another.
    let letGo: () => void = () => undefined;
    let held = false;
    const watcher = await startWatcher({
      poll: true,
      pollIntervalMs: 100,
      runPass: async () => {
        if (held) await new Promise<void>((resolve) => (letGo = resolve));
        return fakeSummary();
      },
    });
    held = true;
    const passes: string[] = [];
    watcher.on('pass-start', (e) => passes.push(e.reason));
    // The edit, reported by a poll: its pass starts (and is held).
    const started = nextEvent(watcher, 'pass-start', () => true, 10_000);
    writeFileSync(join(vaultDir(), 't.md'), learning('T', 't v2, edited in the vault'));
    await started;
    // The other poll reports the same edit (the two polls' phases differ by up to an interval: before,
    // with the default 1.5 s interval and a note linked after the watch started, each edit ran two passes).
    watcher.handleFsEvent('change', note);
    held = false;
    letGo();
    await whenQuiet(watcher);
    expect(passes).toEqual(['change']);
    // A real change while a pass runs still owes the next one.
    held = true;
    const again = nextEvent(watcher, 'pass-start', () => true, 10_000);
    writeFileSync(join(vaultDir(), 't.md'), learning('T', 't v3'));
    await again;
    const next = nextEvent(watcher, 'pass-start', () => true, 10_000);
    writeFileSync(join(vaultDir(), 't.md'), learning('T', 't v4, written while the pass for v3 ran'));
    const reported = nextEvent(watcher, 'change', (e) => e.path === note, 10_000);
    await reported;
    held = false;
    letGo();
    await next;
    await whenQuiet(watcher);
    expect(passes).toEqual(['change', 'change', 'change']);
  });
});
