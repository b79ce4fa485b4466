/**
 * BUNDLE_END_MARK (install/bundle-mark.ts): a hook bundle cut short where what is left still parses
 * (at a statement boundary, or after `new S` of `new Set(...)`) is named cut short by status's
 * bundle check, because the end line every bundle carries is missing. Found when the bundles of
 * 2026-12-07 made the copies test's half-cut `stop-main.cjs` end in `var NO_HARD_LINKS = new S`,
 * valid JavaScript, which the parse alone took for whole.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Script } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { incompleteBundles, PLUGIN_BUNDLES } from '../../src/lib/install/bundle-check.js';
import { BUNDLE_BANNER, BUNDLE_END_LINE, endLineMissing } from '../../src/lib/install/bundle-mark.js';
import { makeTempDirSync } from '../support/temp-dir.js';

const REPO_ROOT = new URL('../../', import.meta.url).pathname;
let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

describe('BUNDLE_END_MARK', () => {
  it('every committed plugin bundle opens with the promise and ends with the end line', () => {
    for (const name of ['session-start', 'stop', 'session-start-main', 'stop-main', 'worker', 'hook-config']) {
      const text = readFileSync(join(REPO_ROOT, 'plugin', 'hooks', `${name}.cjs`), 'utf8');
      expect(text.startsWith(BUNDLE_BANNER), name).toBe(true);
      expect(endLineMissing(text), name).toBe(false);
    }
  });

  it('a bundle cut where what is left still parses is cut short; whole, or from a build before the mark, it is not', () => {
    const temp = makeTempDirSync('gms-bundle-mark-');
    cleanup = temp.cleanup;
    const root = temp.dir;
    cpPlugin(root);
    expect(incompleteBundles(root, PLUGIN_BUNDLES)).toEqual([]);

    const stop = join(root, 'hooks', 'stop-main.cjs');
    const whole = readFileSync(stop, 'utf8');
    // Cut at the end of a statement line in the middle: valid JavaScript, so only the mark tells.
    const lines = whole.split('\n');
    const parses = (text: string) => {
      try {
        new Script(`(function (exports, require, module, __filename, __dirname) {${text}\n})`);
        return true;
      } catch {
        return false;
      }
    };
    const cutAt = lines.findIndex((line, i) => i > lines.length / 2 && /;$/.test(line) && parses(lines.slice(0, i + 1).join('\n')));
    expect(cutAt).toBeGreaterThan(0);
    writeFileSync(stop, `${lines.slice(0, cutAt + 1).join('\n')}\n`);
    expect(incompleteBundles(root, PLUGIN_BUNDLES)).toEqual(['hooks/stop-main.cjs (cut short)']);

    // The same cut in a bundle of a build before the mark (no promise in its first line) is taken
    // as it always was: by the parse alone.
    writeFileSync(stop, `// Bundled by scripts/build/bundle-hooks.mjs from src/; edit the sources, not this file.\n${lines.slice(1, cutAt + 1).join('\n')}\n`);
    expect(incompleteBundles(root, PLUGIN_BUNDLES)).toEqual([]);
  });

  it('the end line is judged as the last line, not as text anywhere', () => {
    expect(endLineMissing(`${BUNDLE_BANNER}\nvar a = 1;\n${BUNDLE_END_LINE}\n`)).toBe(false);
    expect(endLineMissing(`${BUNDLE_BANNER}\nvar a = 1;\n${BUNDLE_END_LINE}\nvar b = 2;\n`)).toBe(true);
    expect(endLineMissing(`${BUNDLE_BANNER}\nvar a = 1;\n`)).toBe(true);
    expect(endLineMissing(BUNDLE_BANNER)).toBe(true);
    expect(endLineMissing('// another file\nvar a = 1;\n')).toBe(false);
    // The launcher: a shebang, then the banner.
    expect(endLineMissing(`#!/usr/bin/env node\n${BUNDLE_BANNER}\nvar a = 1;\n`)).toBe(true);
    expect(endLineMissing(`#!/usr/bin/env node\n${BUNDLE_BANNER}\nvar a = 1;\n${BUNDLE_END_LINE}\n`)).toBe(false);
  });
});

function cpPlugin(root: string): void {
  mkdirSync(join(root, 'hooks'), { recursive: true });
  for (const name of ['session-start', 'stop', 'session-start-main', 'stop-main', 'worker', 'hook-config']) {
    writeFileSync(join(root, 'hooks', `${name}.cjs`), readFileSync(join(REPO_ROOT, 'plugin', 'hooks', `${name}.cjs`)));
  }
  rmSync(join(root, 'hooks', 'hook.cjs'), { force: true });
}
