#!/usr/bin/env node
/**
 * `graphiti-memory-sync-hook <session-start|stop>`: the package's hook launcher, a bin of its own.
 *
 * A hook command naming an absolute path into one install breaks when the package is installed
 * somewhere else (another npm prefix, another Node version under nvm). Installed globally, npm puts
 * this launcher on PATH beside `graphiti-memory-sync`, so `install` records the name instead
 * (src/lib/install/hook-entries.ts) and whichever install is on PATH runs the hooks, before and
 * after an upgrade or a move. It only loads the hook's bundle next to it (Node resolves the bin
 * link to this real file): about Node's start-up time, like `node dist/hooks/<name>.js`.
 * Bundled as CommonJS with the hooks (scripts/build/bundle-hooks.mjs).
 */
import { createRequire } from 'node:module';

const HOOKS = new Set(['session-start', 'stop']);
const name = process.argv[2] ?? '';
if (HOOKS.has(name)) {
  try {
    createRequire(import.meta.url)(`./${name}.js`);
  } catch {
    // The hook's bundle cannot be loaded: the package is being replaced under us (npm removes the
    // old files, then writes the new ones) or was left half-written. Nothing ran and nothing is
    // said: a hook never fails the session, and the next session runs the complete new version.
    process.exitCode = 0;
  }
} else {
  // Exit 0: a hook never fails the session; stderr lands in Claude Code's debug log.
  process.stderr.write(`graphiti-memory-sync-hook: unknown hook "${name}" (expected session-start or stop); nothing ran. Run "graphiti-memory-sync install" again to rewrite the hook entries.\n`);
}
