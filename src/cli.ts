#!/usr/bin/env node
/**
 * `graphiti-memory-sync` (node dist/cli.js, the npm bin, tsx src/cli.ts): the Node.js version
 * gate, then the command line itself (cli-main.ts).
 *
 * Run on a Node.js older than NODE_REQUIRED (an apt node 18, an nvm alias left at 20.x), the
 * commands are untested and fail wherever a newer API is missing, with a stack trace that does not
 * say why; where they happen to run, nobody learns that what they run on is unsupported. So this
 * file loads nothing but node-guard.ts (no syntax or API newer than Node 12 in either) and, on a
 * node too old, says which version it found, which one is needed and the next step, runs nothing
 * and exits 2 (a configuration error, as cli-main.ts counts them). Otherwise it imports the
 * command line and runs it: one small module more than before.
 */
import { nodeTooOld, nodeTooOldCliMessage } from './lib/install/node-guard.js';

if (nodeTooOld(process.versions.node)) {
  process.stderr.write(`${nodeTooOldCliMessage(process.versions.node, process.execPath)}\n`);
  process.exitCode = 2;
} else {
  import('./cli-main.js')
    .then(({ main }) => main(process.argv.slice(2)))
    .then(
      (code) => {
        process.exitCode = code;
      },
      (error: unknown) => {
        process.stderr.write(`Error: ${(error as Error).message}\n`);
        process.exitCode = 1;
      },
    );
}
