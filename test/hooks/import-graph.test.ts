/**
 * The hook path must stay tiny: config-snapshot + env-file (config.ts with zod and dotenv only
 * when the settings changed), log, project, context-cache, worker-spawn, hook-io (+ escape for
 * group ids, fs-atomic for the cache writer) and node built-ins. Never the MCP
 * client, gray-matter, the sync engine, chokidar or the TOON encoder.
 * Checked twice: statically (the import statements) and at run time (every module the
 * hook process actually resolves, recorded by a module.register resolve hook).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT as REPO } from '../support/paths.js';
import { makeHookSandbox, runHook } from '../helpers/hook-runner.js';

const EXT = process.env.GMS_HOOK_RUNNER === 'dist' ? 'js' : 'ts';

// memory/context-header.ts is the one memory/ module a hook may load: three constants, no imports.
const FORBIDDEN = /@modelcontextprotocol|gray-matter|chokidar|@toon-format|eventsource-parser|p-retry|picomatch|\/lib\/(sync|state|watch|mcp|install)\/|\/lib\/graphiti\/graphiti\.(ts|js)$|\/lib\/memory\/(?!context-header\.)|\/lib\/config\/config\.(ts|js)$|\/lib\/context\/context\.(ts|js)$/;
const ALLOWED_PACKAGES = new Set<string>();

/** Static value imports (not `import type`, not dynamic import()) reachable from an entry file. */
function staticGraph(entry: string): { files: string[]; packages: string[] } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    const src = readFileSync(file, 'utf8');
    for (const m of src.matchAll(/^\s*import\s+(?!type\b)(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]/gm)) {
      const spec = m[1] as string;
      if (spec.startsWith('node:')) continue;
      if (spec.startsWith('.')) visit(resolve(file, '..', spec.replace(/\.js$/, '.ts')));
      else packages.add(spec);
    }
    // export … from also loads modules
    for (const m of src.matchAll(/^\s*export\s+(?!type\b)[^'";]*?\s+from\s+['"]([^'"]+)['"]/gm)) {
      const spec = m[1] as string;
      if (spec.startsWith('.')) visit(resolve(file, '..', spec.replace(/\.js$/, '.ts')));
      else if (!spec.startsWith('node:')) packages.add(spec);
    }
  };
  visit(entry);
  return { files: [...files].map((f) => relative(REPO, f)).sort(), packages: [...packages].sort() };
}

describe('hook import graph', () => {
  for (const hook of ['session-start', 'stop'] as const) {
    it(`${hook}: static imports stay within the allowed set`, () => {
      const { files, packages } = staticGraph(join(REPO, 'src', 'hooks', `${hook}.ts`));
      for (const f of files) expect(f).not.toMatch(FORBIDDEN);
      for (const p of packages) expect(ALLOWED_PACKAGES.has(p)).toBe(true);
      expect(files).toContain('src/lib/config/snapshot.ts');
      expect(files).not.toContain('src/lib/config/config.ts');
      expect(files).not.toContain('src/hooks/worker.ts');
    });
  }

  it('session-start: modules actually loaded at run time', async () => {
    const sb = makeHookSandbox({ GMS_WORKER_DISABLED: '1' });
    try {
      const log = join(sb.root, 'imports.txt');
      writeFileSync(log, '');
      const env = { ...sb.env, GMS_IMPORT_LOG: log };
      const recorder = join(REPO, 'test', 'hooks', 'fixtures', 'record-imports.mjs');
      // The first run validates the settings (config.ts, zod, dotenv) and snapshots them.
      const first = await runHook('session-start', sb.env, { input: JSON.stringify({ cwd: sb.root, source: 'startup' }) });
      expect(first.code).toBe(0);
      // Put our recorder before the hook's own flags.
      const run = await runHook('session-start', env, {
        input: JSON.stringify({ cwd: sb.root, source: 'startup' }),
        nodeArgs: ['--import', recorder],
      });
      expect(run.code).toBe(0);
      const urls = readFileSync(log, 'utf8').split('\n').filter((u) => u !== '');
      expect(urls.some((u) => /hooks\/session-start\.(ts|js)$/.test(u))).toBe(true);
      if (process.env.GMS_HOOK_RUNNER === 'dist') {
        // The build bundles the hook (scripts/build/bundle-hooks.mjs): one file of ours, the one the
        // command names, through the module loader (what the recorder sees): the Node.js version gate
        // (hooks/node-gate.ts, with nothing but node-guard.ts). It requires the hook's one bundle
        // beside it, which, with the settings snapshotted by the first run, holds neither
        // hook-config.js (zod) nor dotenv.
        const loaded = urls.filter((u) => u.startsWith('file:') && !u.includes('/fixtures/'));
        expect(loaded.map((u) => u.replace(/^.*\/dist\//, ''))).toEqual(['hooks/session-start.js']);
        const gate = readFileSync(new URL(loaded[0] as string), 'utf8');
        expect([...new Set([...gate.matchAll(/^\/\/ ((?:node_modules|dist)\/\S+)$/gm)].map((m) => m[1]))].sort()).toEqual(['dist/hooks/node-gate.js', 'dist/lib/install/node-guard.js']);
        const bundle = readFileSync(new URL('session-start-main.js', loaded[0]), 'utf8');
        // esbuild marks each inlined module with a `// <path>` comment.
        const inlined = [...bundle.matchAll(/^\/\/ ((?:node_modules|dist)\/\S+)$/gm)].map((m) => `/${m[1]}`);
        expect(inlined).toEqual(expect.arrayContaining(['/dist/lib/config/snapshot.js', '/dist/lib/worker/spawn.js', '/dist/hooks/hook-io.js']));
        expect(inlined.some((p) => p.includes('zod'))).toBe(false);
        for (const path of inlined) expect(path).not.toMatch(FORBIDDEN);
        return;
      }
      const ours = urls.filter((u) => u.startsWith('file:') && !u.includes('/node_modules/tsx/') && !u.includes('/node_modules/esbuild/') && !u.includes('/fixtures/'));
      for (const u of ours) expect(u).not.toMatch(FORBIDDEN);
      const packages = new Set(ours.filter((u) => u.includes('/node_modules/')).map((u) => (/\/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(u) as RegExpExecArray)[1]));
      expect([...packages]).toEqual([]);
      expect(ours.some((u) => /\/lib\/config\.(ts|js)$/.test(u))).toBe(false);
      // The run-time graph of our own modules, for the report.
      expect(ours.filter((u) => u.includes('/src/') || u.includes('/dist/')).map((u) => u.replace(/^.*\/(src|dist)\//, '')).sort()).toEqual(
        expect.arrayContaining(['hooks/hook-io.' + EXT, 'lib/config/snapshot.' + EXT, 'lib/context/project.' + EXT, 'lib/context/cache.' + EXT, 'lib/worker/spawn.' + EXT]),
      );
    } finally {
      sb.cleanup();
    }
  });

  // The bundles only (the source run's loader, tsx, loads streams of its own). stdin and stdout
  // through process.stdin/stdout would load net and the stream modules: ~6 ms of every hook run.
  it.runIf(EXT === 'js')('the built hooks load no stream, socket, crypto or perf_hooks module (stdin and stdout through their descriptors)', async () => {
    const sb = makeHookSandbox({ GMS_WORKER_DISABLED: '1' });
    try {
      const log = join(sb.root, 'builtins.txt');
      const recorder = join(REPO, 'test', 'hooks', 'fixtures', 'record-builtins.cjs');
      const input = JSON.stringify({ cwd: sb.root, source: 'startup' });
      expect((await runHook('session-start', sb.env, { input })).code).toBe(0); // snapshots the settings
      for (const hook of ['session-start', 'stop'] as const) {
        writeFileSync(log, '');
        const run = await runHook(hook, { ...sb.env, GMS_BUILTIN_LOG: log }, { input, nodeArgs: ['-r', recorder] });
        expect(run.code).toBe(0);
        const loaded = readFileSync(log, 'utf8').split('\n');
        expect(loaded[0]).toBe('#recorded');
        expect(loaded.filter((m) => m === 'net' || m === 'stream' || m === 'tty' || m.startsWith('internal/streams/') || m === 'crypto' || m === 'perf_hooks')).toEqual([]);
      }
    } finally {
      sb.cleanup();
    }
  });
});
