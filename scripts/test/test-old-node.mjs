#!/usr/bin/env node
/**
 * `npm run test:old-node`: our hooks and command line run by a real Node.js older than the one we
 * need (package.json engines; src/lib/install/node-guard.ts NODE_REQUIRED), the nodes users'
 * machines really have (OLD_NODE_PACKAGES).
 * Each is pinned EXACTLY and comes from the npm registry through npx's cache, as the conformance
 * suite's Node 22 does (`npx -p node@…`: the `node` package installs the official binary); the
 * tests themselves fetch nothing (they get the binaries' paths in GMS_OLD_NODES). Needs a build
 * (dist/): test-all.mjs builds first; alone, `npm run build` first.
 *
 * Not part of the default `vitest run` (a download); test-all.mjs runs it after the conformance
 * suite, so .ci/run does too. Ends with one line "N passed, M failed"; exits non-zero on any failure.
 */
import { execFileSync } from 'node:child_process';
import { npx, runVitest } from './vitest-run.mjs';

/**
 * The old nodes, one per kind of user we know of: Ubuntu 22.04's apt node (12.22: there the hooks
 * before the gate were a SyntaxError, a hook error in every session), Ubuntu 24.04's and Debian
 * 12's (18.x), an nvm default left before 20.19.
 */
export const OLD_NODE_PACKAGES = ['node@12.22.12', 'node@18.20.8', 'node@20.18.3'];

/** The binary of a pinned node package, installed into npx's cache on first use. */
function binaryOf(pkg) {
  const path = execFileSync(npx, ['--yes', '-p', pkg, '--', 'node', '-p', 'process.execPath'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
  const version = execFileSync(path, ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim();
  if (`node@${version}` !== pkg) throw new Error(`${pkg} from npx runs Node.js ${version}`);
  return { version, path };
}

const nodes = OLD_NODE_PACKAGES.map(binaryOf);
for (const n of nodes) process.stdout.write(`Node.js ${n.version}: ${n.path}\n`);
const r = runVitest('old Node.js', ['-c', 'vitest.old-node.config.ts', ...process.argv.slice(2)], { GMS_OLD_NODES: JSON.stringify(nodes) });
process.stdout.write(`\n${r.passed} passed, ${r.failed} failed\n`);
process.exit(r.ok && r.failed === 0 ? 0 : 1);
