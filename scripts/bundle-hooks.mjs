#!/usr/bin/env node
/**
 * Second build step: bundles the two hook entry points (dist/hooks/session-start.js and
 * stop.js) in place into single files. Claude Code runs them on every session start and every
 * turn, and loading one file instead of ~15 ES modules saves about 30 ms per run
 * (measured: `npm run bench`, section "hook"). The bundles keep their paths, so relative
 * lookups (../hooks/worker.js, the package root two levels up) resolve exactly as before.
 * The worker and the CLI stay unbundled: they are not on a latency-critical path.
 */
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
// Optional argument: the build output folder (default dist/; hooks/run.mjs builds into a temp folder).
const outDir = process.argv[2] ?? `${root}dist`;
for (const name of ['session-start', 'stop']) {
  const file = `${outDir}/hooks/${name}.js`;
  await build({
    entryPoints: [file],
    outfile: file,
    allowOverwrite: true,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
    // dotenv is CommonJS and only loaded when a settings file exists (a lazy import in config.ts):
    // left external it stays lazy, and inlined its require() calls would fail inside an ES module.
    external: ['dotenv'],
    // Node built-ins stay imports; everything else but dotenv (zod/v3, our modules) is inlined.
    banner: { js: '// Bundled by scripts/bundle-hooks.mjs from src/hooks; edit the sources, not this file.' },
  });
}
