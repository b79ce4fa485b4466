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
 * would otherwise still be packed. Then exactly `npm run build`, so the output is the same.
 * Not in a dry run (`npm install --dry-run` runs `prepare` too): a dry run writes nothing, and the
 * tests that ask npm for one run beside tests that use dist/.
 */
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

if (process.env.npm_config_dry_run === 'true') process.exit(0);

const root = fileURLToPath(new URL('../..', import.meta.url));
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const run = (args) => execFileSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
rmSync(`${root}dist`, { recursive: true, force: true });
run([tsc, '-p', 'tsconfig.build.json']);
run(['scripts/build/bundle-hooks.mjs']);
