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
import { existsSync, lstatSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { unsafeAncestor, writableByOthers } from '../util/safe-ancestors.js';
import { endLineMissing } from './bundle-mark.js';
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

/** Why a bundle's text cannot run: empty, or cut short mid-copy (its end line missing, install/bundle-mark.ts BUNDLE_END_MARK, or not valid JavaScript); undefined when whole. */
function cutShort(text: string): string | undefined {
  if (text.trim() === '') return 'empty';
  if (endLineMissing(text)) return 'cut short';
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

/**
 * CODE_OURS_ALONE: whoever may change a copy's hook code runs as the user in every session (its
 * hooks run it; its worker carries the LLM-free sync with the user's notes and secrets). Judged:
 * the bundles (owned by the user or root, written by no one else) and the folders above them
 * (util/safe-ancestors.ts SAFE_ANCESTORS: no one else may rename entries in them). Said by `status`
 * (commands/copies.ts), not refused by the hooks: a hook whose own code can be changed by someone
 * else cannot judge itself (the change would remove the check), and the look costs a `status`,
 * not a session start. Why the code is open to others, or undefined.
 */
export function codeOpenToOthers(root: string, layout: BundleLayout): string | undefined {
  if (process.platform === 'win32') return undefined;
  const uid = process.getuid?.();
  for (const name of [...BUNDLES, LAUNCHER]) {
    const file = join(root, layout.dir, `${name}.${layout.ext}`);
    let st;
    try {
      st = lstatSync(file);
    } catch {
      continue; // missing: incompleteBundles says so
    }
    if (st.uid !== 0 && uid !== undefined && st.uid !== uid) return `${file} belongs to another user (uid ${st.uid})`;
    if (writableByOthers(st)) return `${file} can be written by others (mode ${(st.mode & 0o777).toString(8)})`;
  }
  return unsafeAncestor(join(root, layout.dir, `${BUNDLES[0]}.${layout.ext}`));
}
