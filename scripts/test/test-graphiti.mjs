#!/usr/bin/env node
/**
 * `npm run test:graphiti`: the product against the real Graphiti MCP server, one generation after
 * another (GMS_GRAPHITI_GENERATIONS=0.28.2,0.31.2 picks some). First the pinned Python environments
 * are built or found in the cache (40–90 s each the first time on a machine, instant after), then
 * vitest runs test/real-graphiti. Prints one closing line "N passed, M failed" and exits non-zero
 * on any failure; no Python gives one line and exit 2. It also runs test/server/install-path.test.ts
 * (real Python and pip: vitest.graphiti.config.ts REAL_PIP_IN_LANE).
 */
import { spawnSync } from 'node:child_process';
import { npx, runVitest } from './vitest-run.mjs';

const generations = (process.env.GMS_GRAPHITI_GENERATIONS ?? '').split(',').map((s) => s.trim()).filter(Boolean);
const started = Date.now();

const env = spawnSync(npx, ['tsx', 'scripts/test/graphiti-env.ts', ...generations], { stdio: 'inherit' });
if (env.status !== 0) {
  process.stdout.write('0 passed, 1 failed (no Graphiti server environment)\n');
  process.exit(env.status === 2 ? 2 : 1);
}
const envSeconds = (Date.now() - started) / 1000;

const files = generations.length > 0 ? generations.map((g) => `test/real-graphiti/graphiti-${g}.test.ts`) : [];
const { passed, failed, ok } = runVitest('real graphiti', ['-c', 'vitest.graphiti.config.ts', ...files]);
const broken = !ok;
process.stdout.write(`\nenvironments ${envSeconds.toFixed(1)} s, total ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
process.stdout.write(`${passed} passed, ${failed} failed\n`);
process.exit(broken || failed > 0 ? 1 : 0);
