/** Which paths the watch watches for its settings files and its notes that are links (watch/file-links.ts), on links laid out as dotfiles managers and vaults lay them. */
import { pbkdf2 } from 'node:crypto';
import fs, { mkdirSync, realpathSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileLinksWatch, fileLinkPaths, type FileLinkPathsOptions } from '../../src/lib/watch/file-links.js';
import { makeTempDirSync } from '../support/temp-dir.js';
import { wrapFolderWatch } from './fs-seams.js';

let root: string;
let cleanup: () => void;
beforeEach(() => {
  const temp = makeTempDirSync('gms-file-links-');
  root = realpathSync(temp.dir);
  cleanup = temp.cleanup;
});
afterEach(() => cleanup());

const at = (...parts: string[]) => join(root, ...parts);
const dirs = (...paths: string[]) => paths.forEach((p) => mkdirSync(p, { recursive: true }));
/** The paths and folders watched for `files` (for settings files: each file itself too). */
function watched(files: string[], options: FileLinkPathsOptions = {}): { files: string[]; folders: string[] } {
  const { files: paths, folders } = fileLinkPaths(files, options);
  return { files: paths, folders };
}

describe('fileLinkPaths', () => {
  it('a plain file, and one whose folder does not exist: the file named, only the existing folder watched', () => {
    dirs(at('claude'));
    writeFileSync(at('claude', 'settings.json'), '{}');
    expect(watched([at('claude', 'settings.json'), at('nowhere', '.env')])).toEqual({
      files: [at('claude', 'settings.json'), at('nowhere', '.env')],
      folders: [at('claude')],
    });
  });

  it('a link to a link to a file (relative, as stow makes them): each link and the file, each in its own folder', () => {
    dirs(at('home', '.claude'), at('dotfiles', 'claude'), at('store'));
    writeFileSync(at('store', 'settings.json'), '{}');
    symlinkSync(join('..', '..', 'store', 'settings.json'), at('dotfiles', 'claude', 'settings.json'));
    symlinkSync(join('..', '..', 'dotfiles', 'claude', 'settings.json'), at('home', '.claude', 'settings.json'));
    expect(watched([at('home', '.claude', 'settings.json')])).toEqual({
      files: [at('dotfiles', 'claude', 'settings.json'), at('home', '.claude', 'settings.json'), at('store', 'settings.json')].sort(),
      folders: [at('dotfiles', 'claude'), at('home', '.claude'), at('store')].sort(),
    });
  });

  it('a link whose file is not there (yet): the file named where the link leads, its folder watched', () => {
    dirs(at('home'), at('dotfiles'));
    symlinkSync(join('..', 'dotfiles', 'gms.env'), at('home', '.env'));
    expect(watched([at('home', '.env')])).toEqual({ files: [at('dotfiles', 'gms.env'), at('home', '.env')], folders: [at('dotfiles'), at('home')] });
  });

  it('a settings folder that is itself a link: paths are physical, and a relative link inside is read from the folder it really lies in', () => {
    dirs(at('dotfiles', 'claude'), at('dotfiles', 'shared'), at('home'));
    writeFileSync(at('dotfiles', 'shared', 'settings.json'), '{}');
    symlinkSync(join('..', 'shared', 'settings.json'), at('dotfiles', 'claude', 'settings.json'));
    symlinkSync(at('dotfiles', 'claude'), at('home', '.claude'));
    expect(watched([at('home', '.claude', 'settings.json')])).toEqual({
      files: [at('dotfiles', 'claude', 'settings.json'), at('dotfiles', 'shared', 'settings.json')],
      folders: [at('dotfiles', 'claude'), at('dotfiles', 'shared')],
    });
  });

  it('a loop of links ends (each link watched once)', () => {
    dirs(at('d'));
    symlinkSync('b', at('d', 'a'));
    symlinkSync('a', at('d', 'b'));
    expect(watched([at('d', 'a')])).toEqual({ files: [at('d', 'a'), at('d', 'b')], folders: [at('d')] });
  });

  it('notes that are links (watched elsewhere themselves): only what they lead to, each path with the notes whose way passes through it; a plain note adds nothing', () => {
    dirs(at('memory'), at('vault', 'notes'), at('vault', 'daily'));
    for (const name of ['a.md', 'b.md']) writeFileSync(at('vault', 'notes', name), 'note');
    writeFileSync(at('memory', 'plain.md'), 'note');
    symlinkSync(join('..', 'vault', 'notes', 'a.md'), at('memory', 'a.md'));
    symlinkSync(at('vault', 'notes', 'b.md'), at('memory', 'b.md'));
    // Two notes through one link of the vault's own (a daily note linked to its topic note).
    symlinkSync(join('..', 'notes', 'a.md'), at('vault', 'daily', 'today.md'));
    symlinkSync(at('vault', 'daily', 'today.md'), at('memory', 'today.md'));
    const notes = ['a.md', 'b.md', 'today.md', 'plain.md'].map((name) => at('memory', name));
    const paths = fileLinkPaths(notes, { watchedElsewhere: true });
    expect(paths.files).toEqual([at('vault', 'daily', 'today.md'), at('vault', 'notes', 'a.md'), at('vault', 'notes', 'b.md')]);
    expect(paths.folders).toEqual([at('vault', 'daily'), at('vault', 'notes')]);
    expect(Object.fromEntries(paths.of)).toEqual({
      [at('vault', 'daily', 'today.md')]: [at('memory', 'today.md')],
      [at('vault', 'notes', 'a.md')]: [at('memory', 'a.md'), at('memory', 'today.md')],
      [at('vault', 'notes', 'b.md')]: [at('memory', 'b.md')],
    });
  });

  it('a note whose target is gone (a dangling link): the file named where it leads, so it is seen when written anew', () => {
    dirs(at('memory'), at('vault'));
    symlinkSync(at('vault', 'gone.md'), at('memory', 'gone.md'));
    expect(watched([at('memory', 'gone.md')], { watchedElsewhere: true })).toEqual({ files: [at('vault', 'gone.md')], folders: [at('vault')] });
  });

  it("a note whose target's folder is gone too (awaitFolders): the nearest existing folder watched, the next folder of the way named", () => {
    dirs(at('memory'), at('vault'));
    symlinkSync(at('vault', 'deep', 'er', 'gone.md'), at('memory', 'gone.md'));
    expect(watched([at('memory', 'gone.md')], { watchedElsewhere: true, awaitFolders: true })).toEqual({
      files: [at('vault', 'deep'), at('vault', 'deep', 'er', 'gone.md')],
      folders: [at('vault')],
    });
  });
});

describe('FileLinksWatch', () => {
  it('closed while chokidar is still starting (a stop during the pass that asked for it): `watch` resolves, and nothing is watched', async () => {
    dirs(at('vault'));
    // Enough entries that chokidar's start-up read is still under way when close() comes.
    for (let i = 0; i < 500; i++) writeFileSync(at('vault', `n${i}.md`), 'note');
    const changes: string[] = [];
    const watch = new FileLinksWatch({ poll: false, intervalMs: 100, onChange: (_files, path) => changes.push(path), onError: () => undefined });
    const watching = watch.watch([at('vault', 'n1.md')]);
    // One turn of the event loop: chokidar is made and reading the folder (its read takes many turns).
    await new Promise((resolveTurn) => setImmediate(resolveTurn));
    await watch.close();
    // A closed chokidar watcher never says `ready`: before, this waited for the owner's stop, which waited for this.
    await expect(watching).resolves.toBeUndefined();
    expect(watch.watching).toEqual({ files: [], folders: [] });
    await watch.watch([at('vault', 'n2.md')]);
    expect(watch.watching).toEqual({ files: [], folders: [] });
  });

  it('--poll: an edit made as soon as `watch` resolves is seen, while the thread pool is busy (a loaded machine)', async () => {
    dirs(at('vault'));
    writeFileSync(at('vault', 't.md'), 'v1');
    let seen!: (path: string) => void;
    const changed = new Promise<string>((resolveSeen) => (seen = resolveSeen));
    const watch = new FileLinksWatch({ poll: true, intervalMs: 50, onChange: (_files, path) => seen(path), onError: () => undefined });
    // libuv's four threads kept busy, as on a loaded machine: each stat waits its turn there.
    let busy = true;
    const spin = (): void => {
      if (busy) pbkdf2('x', 'y', 20_000, 32, 'sha256', spin);
    };
    for (let i = 0; i < 4; i++) spin();
    try {
      await watch.watch([at('vault', 't.md')]);
      // Before, chokidar's poll took the file's first stat (what later stats are compared with) on
      // that pool after its ready: this edit, made first, was that stat, and no change was ever seen.
      writeFileSync(at('vault', 't.md'), 'v2, edited right after the pass that watches it');
      busy = false;
      expect(await changed).toBe(at('vault', 't.md'));
    } finally {
      busy = false;
      await watch.close();
    }
  }, 10_000);
});

/**
 * chokidar lists a folder, then watches it (fs.watch): what the watch was to follow was read from
 * disk before that (fileLinkPaths), so what changed on a way meanwhile (a folder made, a file
 * replaced by a link) was watched by no one, and an edit there was never reported. Here the change
 * is made as chokidar starts the folder's watch (wrapFolderWatch), as a person making it then
 * (with --poll: before the poll's first stat, the window there).
 */
describe('FileLinksWatch: a way changed while its watch starts', () => {
  const restores: Array<() => void> = [];
  const watches: FileLinksWatch[] = [];
  afterEach(async () => {
    await Promise.all(watches.splice(0).map((watch) => watch.close()));
    for (const restore of restores.splice(0)) restore();
  });

  /** A watch whose first report resolves `reported` (rejects after 5 s, with nothing reported). */
  function reportingWatch(options: FileLinkPathsOptions): { watch: FileLinksWatch; reported: Promise<string> } {
    let seen!: (path: string) => void;
    const reported = new Promise<string>((resolveSeen, reject) => {
      seen = resolveSeen;
      setTimeout(() => reject(new Error('nothing reported within 5 s')), 5_000).unref();
    });
    const watch = new FileLinksWatch({ ...options, poll: false, intervalMs: 100, onChange: (_files, path) => seen(path), onError: () => undefined });
    watches.push(watch);
    return { watch, reported };
  }

  it("a note's target folder made (awaitFolders): a note written there later is seen", async () => {
    dirs(at('memory'), at('vault'));
    symlinkSync(at('vault', 'dir', 't.md'), at('memory', 't.md'));
    restores.push(wrapFolderWatch('watch', at('vault'), () => mkdirSync(at('vault', 'dir'))));
    const { watch, reported } = reportingWatch({ watchedElsewhere: true, awaitFolders: true });
    await watch.watch([at('memory', 't.md')]);
    writeFileSync(at('vault', 'dir', 't.md'), 'written after the watch was in place');
    expect(await reported).toBe(at('vault', 'dir', 't.md'));
  });

  it('a settings file replaced by a link into a dotfiles folder: an edit of what it leads to is seen', async () => {
    dirs(at('home'), at('dotfiles'));
    writeFileSync(at('home', 'settings.env'), 'A=1');
    writeFileSync(at('dotfiles', 'gms.env'), 'A=2');
    restores.push(
      wrapFolderWatch('watch', at('home'), () => {
        symlinkSync(at('dotfiles', 'gms.env'), at('home', 'settings.env.new'));
        renameSync(at('home', 'settings.env.new'), at('home', 'settings.env'));
      }),
    );
    const { watch, reported } = reportingWatch({});
    await watch.watch([at('home', 'settings.env')]);
    writeFileSync(at('dotfiles', 'gms.env'), 'A=3, edited after the watch was in place');
    expect(await reported).toBe(at('dotfiles', 'gms.env'));
  });
  it('a way changed at every start (a link pointed elsewhere each time): after two fresh starts, reported, so the owner looks again', async () => {
    dirs(at('home'), at('dotfiles'));
    writeFileSync(at('dotfiles', 'gms.env'), 'A=1');
    symlinkSync(at('dotfiles', 'gms.env'), at('home', 'settings.env'));
    let n = 0;
    // ln -sfn at each start of the folder's watch: the first and the two fresh starts.
    restores.push(
      wrapFolderWatch(
        'watch',
        at('home'),
        () => {
          n++;
          writeFileSync(at('dotfiles', `${n}.env`), `A=${n}`);
          symlinkSync(at('dotfiles', `${n}.env`), at('home', 'settings.env.new'));
          renameSync(at('home', 'settings.env.new'), at('home', 'settings.env'));
        },
        3,
      ),
    );
    const { watch, reported } = reportingWatch({});
    await watch.watch([at('home', 'settings.env')]);
    expect(n).toBe(3);
    // Reported as `watch` resolves (no edit made): the file whose way changed, where it leads now.
    expect(await reported).toBe(at('dotfiles', '3.env'));
    // And the owner's look watches it.
    await watch.watch([at('home', 'settings.env')]);
    expect(watch.watching.files).toEqual([at('dotfiles', '3.env'), at('home', 'settings.env')]);
  });
  it('--poll: a settings file replaced by a link between the look at disk and the first stats: an edit of what it leads to is seen', async () => {
    dirs(at('home'), at('dotfiles'));
    writeFileSync(at('home', 'settings.env'), 'A=1');
    writeFileSync(at('dotfiles', 'gms.env'), 'A=2');
    // The look reads the file once (a plain file: the end of its way), then the poll takes its
    // first stat: the link is made in between, as another process may at any moment.
    const real = fs.lstatSync;
    let reads = 0;
    (fs as { lstatSync: unknown }).lstatSync = (path: string, ...rest: unknown[]) => {
      if (String(path) === at('home', 'settings.env') && ++reads === 2) {
        symlinkSync(at('dotfiles', 'gms.env'), at('home', 'settings.env.new'));
        renameSync(at('home', 'settings.env.new'), at('home', 'settings.env'));
      }
      return (real as (...args: unknown[]) => unknown)(path, ...rest);
    };
    syncBuiltinESMExports();
    restores.push(() => {
      (fs as { lstatSync: unknown }).lstatSync = real;
      syncBuiltinESMExports();
    });
    let seen!: (path: string) => void;
    const reported = new Promise<string>((resolveSeen, reject) => {
      seen = resolveSeen;
      setTimeout(() => reject(new Error('nothing reported within 5 s')), 5_000).unref();
    });
    const watch = new FileLinksWatch({ poll: true, intervalMs: 50, onChange: (_files, path) => seen(path), onError: () => undefined });
    watches.push(watch);
    await watch.watch([at('home', 'settings.env')]);
    expect(reads).toBeGreaterThanOrEqual(2);
    writeFileSync(at('dotfiles', 'gms.env'), 'A=3, edited after the watch was in place');
    expect(await reported).toBe(at('dotfiles', 'gms.env'));
  });
});
