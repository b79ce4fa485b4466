/**
 * Real Node.js binaries older than the one we need (package.json engines; NODE_REQUIRED in
 * src/lib/install/node-guard.ts), for npm run test:old-node and the real Claude Code test with an
 * old node on the hooks' PATH (test/claude/old-node.claude.test.ts). Each is pinned EXACTLY and
 * comes from the npm registry through npx's cache, as the conformance suite's Node 22 does
 * (`npx -p node@…`: the `node` package installs the official binary of that version).
 */
import { execFileSync } from 'node:child_process';

/**
 * One per kind of user we know of: Ubuntu 22.04's apt node (12.22: there the hooks before the gate
 * were a SyntaxError, a hook error in every session), Ubuntu 24.04's and Debian 12's (18.x), an nvm
 * default left before 20.19.
 */
export const OLD_NODE_PACKAGES = ['node@12.22.12', 'node@18.20.8', 'node@20.18.3'];

const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';

/** The binary of a pinned node package (`node@<version>`), fetched into npx's cache on first use. */
export function ensureOldNode(pkg) {
  const path = execFileSync(npx, ['--yes', '-p', pkg, '--', 'node', '-p', 'process.execPath'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
  const version = execFileSync(path, ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim();
  if (`node@${version}` !== pkg) throw new Error(`${pkg} from npx runs Node.js ${version}`);
  return { version, path };
}
