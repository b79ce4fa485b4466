#!/usr/bin/env node
/**
 * npm's `prepare` script: a clean build of dist/, which the package ships and git does not hold.
 *
 * npm runs `prepare` wherever a package is made from source: `npm pack` and `npm publish` in a
 * checkout, an install from a git URL (npm clones, installs the devDependencies, runs this, then
 * packs), and `npm install` / `npm ci` in the checkout itself. A tarball install runs nothing: the
 * tarball already holds dist/.
 *
 * Clean, not `npm run build` over the old dist/: tsc never deletes, so a module removed from src/
 * would otherwise still be packed. Built into a folder of its own and swapped in at the end, so a
 * hook of this checkout's own sessions (hooks/run.mjs) never loads half a build.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const out = `dist.build-${process.pid}`;
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const run = (args) => execFileSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
try {
  run([tsc, '-p', 'tsconfig.build.json', '--outDir', out]);
  run(['scripts/build/bundle-hooks.mjs', out]);
  if (existsSync(`${root}dist`)) rmSync(`${root}dist`, { recursive: true, force: true });
  renameSync(`${root}${out}`, `${root}dist`);
} finally {
  rmSync(`${root}${out}`, { recursive: true, force: true });
}
