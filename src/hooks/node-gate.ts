/**
 * The file a hook command runs (dist/hooks/<name>.js, the plugin's hooks/<name>.cjs): it checks
 * the Node.js running it, then loads the hook itself, `<name>-main.js` (`.cjs`) beside it.
 *
 * Claude Code runs our hooks with the first `node` on its PATH, which is not always the one the
 * user installed us with: Ubuntu 24.04's apt node is 18.19 (22.04's is 12), an nvm default alias
 * points at whatever was installed first. Below NODE_REQUIRED the hooks are untested and break
 * where a newer API is missing, or before a line runs where the syntax is newer (a SyntaxError, a
 * hook error in every session); and where they happen to run, the user never learns that what
 * they run on is unsupported. So this file, bundled for Node 12 syntax with nothing but
 * node-guard.ts (scripts/build/bundle-hooks.mjs), asks first: on a node too old, SessionStart
 * shows once what was found, what is needed and the next step (node-guard.ts owns the words, as it
 * does for no node at all), Stop ends quietly, and both exit 0. On a node new enough it only
 * loads the hook: no process, one small file more than before.
 *
 * Which hook it gates is its own file name: the build writes this one file as session-start and
 * as stop. A hook that cannot be loaded (the package is being replaced under us) ends quietly, as
 * hook.ts's launcher does.
 */
import { createRequire } from 'node:module';
import { nodeTooOld, nodeTooOldOutput } from '../lib/install/node-guard.js';

// A path in the built files (the gate's bundle defines import.meta.url as __filename).
const here = import.meta.url;
const hook = /([^\\/]+?)(\.c?js)$/.exec(here);
if (hook === null) {
  // Not one of the built files (nothing else runs this module): say so where a developer looks.
  process.stderr.write(`graphiti-memory-sync: node-gate cannot tell which hook it gates from ${here}; nothing ran.\n`);
} else if (nodeTooOld(process.versions.node)) {
  if (hook[1] === 'session-start') process.stdout.write(`${nodeTooOldOutput(process.versions.node, process.execPath)}\n`);
} else {
  try {
    createRequire(here)(`./${hook[1]}-main${hook[2]}`);
  } catch {
    // The hook cannot be loaded: the package is being replaced under us (npm removes the old
    // files, then writes the new ones). Nothing ran and nothing is said, as in hook.ts; the next
    // session runs the complete new version. (A hook's own failures never get here: runHook
    // contains them.)
    process.exitCode = 0;
  }
}
