/** Which paths the watch watches for its settings files (watch/settings-files.ts), on links laid out as dotfiles managers lay them. */
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { settingsWatchPaths } from '../../src/lib/watch/settings-files.js';
import { makeTempDirSync } from '../support/temp-dir.js';

let root: string;
let cleanup: () => void;
beforeEach(() => {
  const temp = makeTempDirSync('gms-settings-files-');
  root = realpathSync(temp.dir);
  cleanup = temp.cleanup;
});
afterEach(() => cleanup());

const at = (...parts: string[]) => join(root, ...parts);
const dirs = (...paths: string[]) => paths.forEach((p) => mkdirSync(p, { recursive: true }));

describe('settingsWatchPaths', () => {
  it('a plain file, and one whose folder does not exist: the file named, only the existing folder watched', () => {
    dirs(at('claude'));
    writeFileSync(at('claude', 'settings.json'), '{}');
    expect(settingsWatchPaths([at('claude', 'settings.json'), at('nowhere', '.env')])).toEqual({
      files: [at('claude', 'settings.json'), at('nowhere', '.env')],
      folders: [at('claude')],
    });
  });

  it('a link to a link to a file (relative, as stow makes them): each link and the file, each in its own folder', () => {
    dirs(at('home', '.claude'), at('dotfiles', 'claude'), at('store'));
    writeFileSync(at('store', 'settings.json'), '{}');
    symlinkSync(join('..', '..', 'store', 'settings.json'), at('dotfiles', 'claude', 'settings.json'));
    symlinkSync(join('..', '..', 'dotfiles', 'claude', 'settings.json'), at('home', '.claude', 'settings.json'));
    expect(settingsWatchPaths([at('home', '.claude', 'settings.json')])).toEqual({
      files: [at('dotfiles', 'claude', 'settings.json'), at('home', '.claude', 'settings.json'), at('store', 'settings.json')].sort(),
      folders: [at('dotfiles', 'claude'), at('home', '.claude'), at('store')].sort(),
    });
  });

  it('a link whose file is not there (yet): the file named where the link leads, its folder watched', () => {
    dirs(at('home'), at('dotfiles'));
    symlinkSync(join('..', 'dotfiles', 'gms.env'), at('home', '.env'));
    expect(settingsWatchPaths([at('home', '.env')])).toEqual({ files: [at('dotfiles', 'gms.env'), at('home', '.env')], folders: [at('dotfiles'), at('home')] });
  });

  it('a settings folder that is itself a link: paths are physical, and a relative link inside is read from the folder it really lies in', () => {
    dirs(at('dotfiles', 'claude'), at('dotfiles', 'shared'), at('home'));
    writeFileSync(at('dotfiles', 'shared', 'settings.json'), '{}');
    symlinkSync(join('..', 'shared', 'settings.json'), at('dotfiles', 'claude', 'settings.json'));
    symlinkSync(at('dotfiles', 'claude'), at('home', '.claude'));
    expect(settingsWatchPaths([at('home', '.claude', 'settings.json')])).toEqual({
      files: [at('dotfiles', 'claude', 'settings.json'), at('dotfiles', 'shared', 'settings.json')],
      folders: [at('dotfiles', 'claude'), at('dotfiles', 'shared')],
    });
  });

  it('a loop of links ends (each link watched once)', () => {
    dirs(at('d'));
    symlinkSync('b', at('d', 'a'));
    symlinkSync('a', at('d', 'b'));
    expect(settingsWatchPaths([at('d', 'a')])).toEqual({ files: [at('d', 'a'), at('d', 'b')], folders: [at('d')] });
  });
});
