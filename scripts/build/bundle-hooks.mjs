#!/usr/bin/env node
/**
 * Bundles the hooks and their worker as CommonJS, in two layouts:
 *
 *   node scripts/build/bundle-hooks.mjs [outDir]        second build step (default dist/): bundles
 *       <outDir>/hooks/{session-start,stop}.js into single files <name>-main.js, and writes in
 *       their place the Node.js version gate that loads them (src/hooks/node-gate.ts); rewrites
 *       <outDir>/hooks/worker.js in place; writes
 *       <outDir>/hooks/hook-config.js (config.ts + zod), removes the tsc output the bundles
 *       replace, and marks <outDir>/hooks/ as CommonJS (a package.json there). dotenv stays an
 *       external package. <outDir>/hooks/hook.js (the `graphiti-memory-sync-hook` bin) too.
 *   node scripts/build/bundle-hooks.mjs --plugin [dir]  the Claude Code plugin (default plugin/): from
 *       src/, <dir>/hooks/{session-start,stop}-main.cjs, their gates {session-start,stop}.cjs,
 *       {worker,hook-config}.cjs, with EVERY dependency
 *       inlined, so the plugin needs no package.json, no `npm install` and no build. These files
 *       are committed; test/install/plugin.test.ts fails when they differ from the source. Then
 *       the version in <dir>/.claude-plugin/plugin.json (when there is one): package.json's version
 *       and a hash of the plugin's content (src/lib/install/plugin-version.ts), so that
 *       `claude plugin update` fetches every build that changed what the plugin ships.
 *
 * Why bundles: the hooks run on every session start and every turn, and loading one file instead
 * of ~15 modules saves ~30 ms. Why CommonJS: Node starts a CommonJS file without its ES module
 * loader, and an ES module's `import … from 'node:fs'` touches every export of the built-in
 * (fs.promises loads readline and more); profiled, that was a tenth of a hook's start-up. The
 * paths users' settings point at (dist/hooks/session-start.js, stop.js) do not move.
 * Validating the settings (zod) is only needed when they changed (src/lib/config/snapshot.ts), so
 * config.ts is a bundle of its own that the hook imports only then.
 */
import { build } from 'esbuild';
import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const args = process.argv.slice(2);
const plugin = args[0] === '--plugin';
const outDir = plugin ? (args[1] ?? `${root}plugin`) : (args[0] ?? `${root}dist`);
const ext = plugin ? 'cjs' : 'js';
// Each bundle's first and last lines (src/lib/install/bundle-mark.ts BUNDLE_END_MARK: status tells a
// bundle cut short at a statement boundary by its missing last line).
const { tsImport } = await import('tsx/esm/api');
const { BUNDLE_BANNER: banner, BUNDLE_END_LINE } = await tsImport('../../src/lib/install/bundle-mark.ts', import.meta.url);
const footer = { js: BUNDLE_END_LINE };

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
  format: 'cjs',
  target: 'node20',
  logLevel: 'warning',
  legalComments: 'none',
  // The sources are ES modules: `import.meta.url` is this file's URL, computed once.
  define: { 'import.meta.url': '__gmsModuleUrl' },
  banner: { js: `${banner}\nconst __gmsModuleUrl = require('node:url').pathToFileURL(__filename).href;` },
  // dist/ keeps dotenv (CommonJS) a package; the plugin inlines it.
  external: plugin ? [] : ['dotenv'],
  footer,
};

/**
 * What runs first on whatever Node.js the hook command finds (src/hooks/node-gate.ts, the bin's
 * hook.ts): Node 12 syntax (esbuild lowers it, or fails the build where it cannot), `node:`
 * imports as plain names, no `node:url` banner; createRequire takes the file's path.
 */
const gate = {
  ...common,
  target: 'node12',
  define: { 'import.meta.url': '__filename' },
  banner: { js: banner },
};

// The hooks themselves: <name>-main, loaded by the gate of the same name (below) once the Node.js is new enough.
for (const name of ['session-start', 'stop', 'worker']) {
  await build({
    ...common,
    entryPoints: [plugin ? `src/hooks/${name}.ts` : `${outDir}/hooks/${name}.js`],
    outfile: `${outDir}/hooks/${name === 'worker' ? name : `${name}-main`}.${ext}`,
    allowOverwrite: true,
    plugins: name === 'worker' ? [] : [lazyConfig],
  });
}
// The files the hook commands name (paths users' settings hold): the version gate, one per hook,
// which tells the hook from its own name.
for (const name of ['session-start', 'stop']) {
  await build({ ...gate, entryPoints: [plugin ? 'src/hooks/node-gate.ts' : `${outDir}/hooks/node-gate.js`], outfile: `${outDir}/hooks/${name}.${ext}` });
}
if (!plugin) {
  // The `graphiti-memory-sync-hook` bin (src/hooks/hook.ts): it loads the gates above by name.
  // The plugin has no bin: its hooks.json names the gates.
  await build({ ...gate, entryPoints: [`${outDir}/hooks/hook.js`], outfile: `${outDir}/hooks/hook.js`, allowOverwrite: true });
  // Executable already in the checkout (npm makes bin targets so only when it installs them).
  chmodSync(`${outDir}/hooks/hook.js`, 0o755);
}
await build({
  ...common,
  entryPoints: [plugin ? 'src/lib/config/config.ts' : `${outDir}/lib/config/config.js`],
  outfile: `${outDir}/hooks/hook-config.${ext}`,
});

if (plugin) {
  // The ES module bundles of earlier builds.
  for (const name of ['session-start', 'stop', 'worker', 'hook-config']) rmSync(`${outDir}/hooks/${name}.mjs`, { force: true });
  // Last: the version names everything above. The rule is TypeScript (status reads it too): tsx loads it.
  if (existsSync(`${outDir}/.claude-plugin/plugin.json`)) {
    const { writePluginVersion } = await tsImport('../../src/lib/install/plugin-version.ts', import.meta.url);
    const { version } = JSON.parse(readFileSync(`${root}package.json`, 'utf8'));
    writePluginVersion(version, outDir);
  }
} else {
  // Everything the bundles inlined from dist/hooks; what is left there is CommonJS.
  for (const module of ['hook-io', 'node-gate']) for (const suffix of ['.js', '.d.ts', '.js.map', '.d.ts.map']) rmSync(`${outDir}/hooks/${module}${suffix}`, { force: true });
  writeFileSync(`${outDir}/hooks/package.json`, `${JSON.stringify({ type: 'commonjs', description: 'The hook bundles (scripts/build/bundle-hooks.mjs) are CommonJS.' }, null, 2)}\n`);
}
