#!/usr/bin/env node
/**
 * Hook launcher for the Claude Code plugin and for this repository's own .claude/settings.json.
 *
 *   node hooks/run.mjs <session-start|stop|worker> [args…]
 *
 * Plugins are copied from git, where dist/ is not committed (it is built by `npm run build`).
 * Claude Code installs a plugin's dependencies with `npm ci --ignore-scripts` (package.json +
 * package-lock.json at the plugin root), which includes devDependencies such as tsx, but runs no
 * build. So: run the compiled dist/hooks/<name>.js when it exists, otherwise register tsx and run
 * src/hooks/<name>.ts. Plain JavaScript on purpose: it must work before anything is built.
 * Nothing is ever printed to stdout here (it would become Claude's context); the exit code is 0.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const NAMES = new Set(['session-start', 'stop', 'worker']);
const name = process.argv[2] ?? '';
const root = join(dirname(fileURLToPath(import.meta.url)), '..');

if (NAMES.has(name)) {
  const built = join(root, 'dist', 'hooks', `${name}.js`);
  try {
    if (existsSync(built)) {
      await import(pathToFileURL(built).href);
    } else {
      const { register } = await import('tsx/esm/api');
      register();
      await import(pathToFileURL(join(root, 'src', 'hooks', `${name}.ts`)).href);
    }
  } catch (error) {
    // Exit 0 keeps the session going; stderr lands in Claude Code's debug log.
    process.stderr.write(`graphiti-memory-sync: the ${name} hook could not start (${error instanceof Error ? error.message : String(error)}). Run "npm ci && npm run build" in ${root}.\n`);
    process.exitCode = 0;
  }
}
