#!/usr/bin/env node
/**
 * `npm run test:old-node`: our hooks and command line run by real Node.js binaries older than the
 * one we need (scripts/test/old-node.mjs: pinned, installed from committed hashed lockfiles into
 * ~/.cache/graphiti-memory-sync). This script installs them; the tests fetch nothing (they get the binaries' paths in GMS_OLD_NODES).
 * Needs a build (dist/): test-all.mjs builds first; alone, `npm run build` first.
 *
 * Not part of the default `vitest run` (a download); test-all.mjs runs it after the conformance
 * suite, so .ci/run does too. Ends with one line "N passed, M failed"; exits non-zero on any failure.
 */
import { OLD_NODE_VERSIONS, ensureOldNode } from './old-node.mjs';
import { runVitest } from './vitest-run.mjs';

const nodes = OLD_NODE_VERSIONS.map((v) => ensureOldNode(v));
for (const n of nodes) process.stdout.write(`Node.js ${n.version}: ${n.path}\n`);
const r = runVitest('old Node.js', ['-c', 'vitest.old-node.config.ts', ...process.argv.slice(2)], { GMS_OLD_NODES: JSON.stringify(nodes) });
process.stdout.write(`\n${r.passed} passed, ${r.failed} failed\n`);
process.exit(r.ok && r.failed === 0 ? 0 : 1);
