#!/usr/bin/env node
/**
 * Hook launcher for this repository's own .claude/settings.json (working on the project from source;
 * the plugin runs its committed bundles in plugin/hooks/ instead).
 *
 *   node hooks/run.mjs <session-start|stop|worker> [args…]
 *
 * Plugins are copied from git, where dist/ is not committed (it is built by `npm run build`).
 * Claude Code installs a plugin's dependencies with `npm ci --ignore-scripts` (package.json +
 * package-lock.json at the plugin root), which includes devDependencies such as tsx, but runs no
 * build. So: run the compiled dist/hooks/<name>.js when it exists, otherwise register tsx and run
 * src/hooks/<name>.ts. Plain JavaScript on purpose: it must work before anything is built.
 * Nothing is ever printed to stdout here (it would become Claude's context); the exit code is 0.
 *
 * Whatever `node` the hooks' PATH has runs this file, as it runs the product's hooks, so it is
 * written for Node 12 syntax (no top-level await, no `??` or `?.`: test/install/node-version-gate.test.ts
 * holds it to that as it holds the product's gates): on Ubuntu 22.04's apt node a
 * newer line was a SyntaxError, a hook error in every session of every developer of this repository.
 * The version itself is judged by its one owner (src/lib/install/node-guard.ts NODE_REQUIRED): built,
 * dist/hooks/<name>.js is the product's version gate (src/hooks/node-gate.ts), which says what is
 * wrong on SessionStart and stays quiet on Stop; from source, node-guard.ts through tsx, the same
 * words. Below tsx's own floor (Node 18.19) nothing from source can run: it says so on stderr only.
 */
import { spawn } from 'child_process';
import { existsSync, statSync, unlinkSync, writeFileSync } from 'fs';
import { dirname, join } from 'path';
import { fileURLToPath, pathToFileURL } from 'url';

const NAMES = new Set(['session-start', 'stop', 'worker']);
/** A build lock older than this belongs to a build that died. */
const BUILD_LOCK_STALE_MS = 10 * 60_000;

/**
 * Running from source through tsx costs ~0.5 s per hook; the build costs ~10 s once. So the first
 * hook run without dist/ starts a detached build (tsc into a temp folder, bundle the hooks, then
 * rename it to dist/ in one step so no hook ever sees half a build) and carries on from source.
 * One build at a time (exclusive lock file); a failed build leaves no dist/ and is tried again later.
 */
function buildInBackground(root) {
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  if (!existsSync(tsc)) return;
  const lock = join(root, '.gms-build.lock');
  try {
    if (Date.now() - statSync(lock).mtimeMs > BUILD_LOCK_STALE_MS) unlinkSync(lock);
  } catch {
    // no lock
  }
  try {
    writeFileSync(lock, String(process.pid), { flag: 'wx' });
  } catch {
    return; // a build is running
  }
  const out = join(root, `dist.build-${process.pid}`);
  const script = `
    const { execFileSync } = require('node:child_process');
    const { renameSync, rmSync } = require('node:fs');
    const opts = { cwd: ${JSON.stringify(root)}, stdio: 'ignore' };
    try {
      execFileSync(process.execPath, [${JSON.stringify(tsc)}, '-p', 'tsconfig.build.json', '--outDir', ${JSON.stringify(out)}], opts);
      execFileSync(process.execPath, ['scripts/build/bundle-hooks.mjs', ${JSON.stringify(out)}], opts);
      renameSync(${JSON.stringify(out)}, ${JSON.stringify(join(root, 'dist'))});
    } catch {
      rmSync(${JSON.stringify(out)}, { recursive: true, force: true });
    } finally {
      rmSync(${JSON.stringify(lock)}, { force: true });
    }`;
  try {
    spawn(process.execPath, ['-e', script], { cwd: root, detached: true, stdio: 'ignore' }).unref();
  } catch {
    unlinkSync(lock);
  }
}
const name = process.argv[2] || '';
const root = join(dirname(fileURLToPath(import.meta.url)), '..');

async function runHook() {
  const built = join(root, 'dist', 'hooks', `${name}.js`);
  // The product's gate (session-start, stop): it judges the node before it loads the hook.
  if (existsSync(built)) return import(pathToFileURL(built).href);
  const { register } = await import('tsx/esm/api');
  register();
  const guard = await import(pathToFileURL(join(root, 'src', 'lib', 'install', 'node-guard.ts')).href);
  if (guard.nodeTooOld(process.versions.node)) {
    if (name === 'session-start') process.stdout.write(`${guard.nodeTooOldOutput(process.versions.node, process.execPath)}\n`);
    return undefined;
  }
  buildInBackground(root);
  return import(pathToFileURL(join(root, 'src', 'hooks', `${name}.ts`)).href);
}

if (NAMES.has(name)) {
  runHook().catch((error) => {
    // Exit 0 keeps the session going; stderr lands in Claude Code's debug log.
    process.stderr.write(`graphiti-memory-sync: the ${name} hook could not start (${error instanceof Error ? error.message : String(error)}). Run "npm ci && npm run build" in ${root}.\n`);
    process.exitCode = 0;
  });
}
