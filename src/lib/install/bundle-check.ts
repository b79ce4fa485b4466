/**
 * Whether a copy's hook bundles are all there and whole, for `status` (install/copies.ts).
 *
 * An update that stops half-way (`npm install -g` killed or out of disk, a plugin folder copied in
 * part, a rebuild of dist/ that failed) leaves a bundle missing, empty or cut short. The hooks then
 * end quietly, exit 0, as they must (hooks/node-gate.ts, hooks/hook.ts: "the package is being
 * replaced"), and the next session runs the same broken files: nothing syncs and nothing is
 * loaded, with no hook error and often no log line (the gate cannot even log). Only `status` can
 * say so, with the step that installs the copy again.
 *
 * Judged only for builds of the gated layout (the file a hook command names loads
 * `<name>-main` beside it, scripts/build/bundle-hooks.mjs): its bundles are known by name. Earlier
 * layouts (one `.mjs` per hook) are left alone, and so is a folder with none of them (a checkout
 * run from source through hooks/run.mjs; a missing command target is hook-check.ts's).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Script } from 'node:vm';

/** Where a copy keeps its hook bundles, relative to its root, and their extension. */
export interface BundleLayout {
  dir: string;
  ext: 'js' | 'cjs';
}

/** The plugin's (hooks/*.cjs) and the package's (dist/hooks/*.js). */
export const PLUGIN_BUNDLES: BundleLayout = { dir: 'hooks', ext: 'cjs' };
export const PACKAGE_BUNDLES: BundleLayout = { dir: join('dist', 'hooks'), ext: 'js' };

/** The gates the hook commands name, the hooks they load, the worker the Stop hook starts, and the settings module the hooks load when their snapshot is stale. */
const BUNDLES = ['session-start', 'stop', 'session-start-main', 'stop-main', 'worker', 'hook-config'];
/** Only in a package: the `graphiti-memory-sync-hook` bin, judged when it is there (a plugin has none). */
const LAUNCHER = 'hook';

/** Why a bundle's text cannot run: empty, or not valid JavaScript (cut short mid-copy); undefined when it parses. */
function cutShort(text: string): string | undefined {
  if (text.trim() === '') return 'empty';
  try {
    // Compiled as Node compiles a CommonJS module (a function around it), never run. A shebang
    // (the launcher's) is a comment only on a script's first line, so it is dropped.
    new Script(`(function (exports, require, module, __filename, __dirname) {${text.replace(/^#!.*/, '')}\n})`);
    return undefined;
  } catch {
    return 'cut short';
  }
}

/** The bundles of the copy at `root` that are missing, empty or cut short, each as `<file> (<why>)`; empty when all are whole or the layout is not the gated one. */
export function incompleteBundles(root: string, layout: BundleLayout): string[] {
  const file = (name: string) => join(layout.dir, `${name}.${layout.ext}`);
  const gated = ['session-start-main', 'stop-main'].some((name) => existsSync(join(root, file(name))));
  if (!gated) return [];
  const names = existsSync(join(root, file(LAUNCHER))) ? [...BUNDLES, LAUNCHER] : BUNDLES;
  const broken: string[] = [];
  for (const name of names) {
    let text: string;
    try {
      text = readFileSync(join(root, file(name)), 'utf8');
    } catch {
      broken.push(`${file(name)} (missing)`);
      continue;
    }
    const why = cutShort(text);
    if (why !== undefined) broken.push(`${file(name)} (${why})`);
  }
  return broken;
}
