#!/usr/bin/env node
/**
 * Bundles the hooks, in two layouts:
 *
 *   node scripts/bundle-hooks.mjs [outDir]        second build step (default dist/): rewrites
 *       <outDir>/hooks/session-start.js and stop.js in place into single files, and writes
 *       <outDir>/hooks/hook-config.js (config.ts + zod). dotenv stays an external package.
 *   node scripts/bundle-hooks.mjs --plugin [dir]  the Claude Code plugin (default plugin/): from
 *       src/, <dir>/hooks/{session-start,stop,worker,hook-config}.mjs with EVERY dependency
 *       inlined, so the plugin needs no package.json, no `npm install` and no build. These files
 *       are committed; test/install/plugin-bundle.test.ts fails when they differ from the source.
 *
 * Why the split: the hooks run on every session start and every turn, and loading one file
 * instead of ~15 modules saves ~30 ms. Validating the settings (zod) is only needed when they
 * changed (src/lib/config/snapshot.ts), so config.ts is a bundle of its own that the hook
 * imports only then: the hook file stays small and Node compiles less at every start.
 */
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const plugin = args[0] === '--plugin';
const outDir = plugin ? (args[1] ?? `${root}plugin`) : (args[0] ?? `${root}dist`);
const ext = plugin ? 'mjs' : 'js';
const banner = '// Bundled by scripts/bundle-hooks.mjs from src/; edit the sources, not this file.';

/** config-snapshot's lazy `import('./config.js')` becomes the sibling hook-config bundle. */
const lazyConfig = {
  name: 'lazy-config',
  setup(b) {
    b.onResolve({ filter: /^\.\/config\.js$/ }, (a) => (/config[\/]snapshot\.(ts|js)$/.test(a.importer) ? { path: `./hook-config.${ext}`, external: true } : undefined));
  },
};

const common = {
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  logLevel: 'warning',
  legalComments: 'none',
};

const entries = plugin ? ['session-start', 'stop', 'worker'] : ['session-start', 'stop'];
for (const name of entries) {
  const entry = plugin ? `src/hooks/${name}.ts` : `${outDir}/hooks/${name}.js`;
  await build({
    ...common,
    entryPoints: [entry],
    outfile: `${outDir}/hooks/${name}.${ext}`,
    allowOverwrite: true,
    plugins: name === 'worker' ? [] : [lazyConfig],
    // dist/ keeps dotenv (CommonJS) a package; the plugin inlines it, with a real `require` for
    // its node built-ins (inside an ES module bundle esbuild's require shim would throw).
    external: plugin ? [] : ['dotenv'],
    banner: { js: plugin ? `${banner}\nimport { createRequire as __gmsRequire } from 'node:module';\nconst require = __gmsRequire(import.meta.url);` : banner },
  });
}
await build({
  ...common,
  entryPoints: [plugin ? 'src/lib/config/config.ts' : `${outDir}/lib/config/config.js`],
  outfile: `${outDir}/hooks/hook-config.${ext}`,
  external: plugin ? [] : ['dotenv'],
  banner: { js: plugin ? `${banner}\nimport { createRequire as __gmsRequire } from 'node:module';\nconst require = __gmsRequire(import.meta.url);` : banner },
});
