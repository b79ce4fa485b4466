/**
 * Real Node.js binaries older than the one we need (package.json engines; NODE_REQUIRED in
 * src/lib/install/node-guard.ts), for npm run test:old-node and the real Claude Code test with an
 * old node on the hooks' PATH (test/claude/old-node.claude.test.ts). Each is pinned EXACTLY and
 * installed only from its lockfile committed in scripts/test/node-locks/<version>/ (the official
 * binary's npm package for this platform, with its sha512: scripts/test/locked-node.mjs).
 */
import { ensureLockedNode } from './locked-node.mjs';

/**
 * One per kind of user we know of: Ubuntu 22.04's apt node (12.22: there the hooks before the gate
 * were a SyntaxError, a hook error in every session), Ubuntu 24.04's and Debian 12's (18.x), an nvm
 * default left before 20.19.
 */
export const OLD_NODE_VERSIONS = ['12.22.12', '18.20.8', '20.18.3'];

/** The binary of a pinned old Node version, installed from its committed lock on first use. */
export function ensureOldNode(version) {
  const { path } = ensureLockedNode(version);
  return { version, path };
}
