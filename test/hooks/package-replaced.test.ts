/**
 * Hooks that run while the package is being replaced (an upgrade: npm removes the old version's
 * files, then writes the new ones; a rebuild rewriting dist/): whatever part is missing or cut
 * short, the hook exits 0, prints nothing, and says nothing false (no "misconfigured" note).
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { workerFiles } from '../../src/lib/worker/spawn.js';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHookSandbox, runHook, type HookSandbox } from '../helpers/hook-runner.js';
import { unusedPort } from '../helpers/ports.js';
import { waitForWorkers } from '../helpers/use-hook-worker.js';
import { REPO_ROOT as REPO, TSX_LOADER as TSX } from '../support/paths.js';

let sb: HookSandbox;
beforeEach(async () => {
  // A complete run starts the real worker: it finds nothing listening on 127.0.0.1 and ends soon
  // (no retry), instead of talking to whatever serves the default localhost:8000.
  sb = makeHookSandbox({ MADEINOZ_KNOWLEDGE_MCP_URL: `http://127.0.0.1:${await unusedPort()}/mcp`, MADEINOZ_KNOWLEDGE_RETRIES: '0' });
});
afterEach(() => sb.cleanup());

/** The workers the hooks of this sandbox started (the hook logs each before it exits). */
const spawnedWorkers = () => sb.logs().filter((l) => l.msg === 'worker spawned');

const startup = (cwd: string) => JSON.stringify({ session_id: 's-1', transcript_path: '/dev/null', cwd, hook_event_name: 'SessionStart', source: 'startup' });

/**
 * Makes the settings module the hooks load lazily (only when their settings snapshot is stale)
 * unloadable: from source, a resolve hook refuses it; from dist/, a copy of the hooks without
 * hook-config.js (the bundle that holds it).
 */
function withoutSettingsModule(): { nodeArgs: string[]; dist?: string } {
  if (process.env.GMS_HOOK_RUNNER === 'dist') {
    const dist = join(sb.root, 'pkg', 'dist');
    cpSync(join(process.env.GMS_HOOK_DIST ?? join(REPO, 'dist'), 'hooks'), join(dist, 'hooks'), { recursive: true });
    rmSync(join(dist, 'hooks', 'hook-config.js'));
    symlinkSync(join(REPO, 'node_modules'), join(sb.root, 'pkg', 'node_modules'));
    return { nodeArgs: [], dist };
  }
  const hooks = `export async function resolve(specifier, context, next) {
    if (/\\/lib\\/config\\/snapshot\\.ts$/.test(context.parentURL ?? '') && /^\\.\\/config\\.(js|ts)$/.test(specifier)) {
      throw Object.assign(new Error('Cannot find module ' + specifier), { code: 'ERR_MODULE_NOT_FOUND' });
    }
    return next(specifier, context);
  }`;
  const register = join(sb.root, 'half-replaced.mjs');
  writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)});\n`);
  return { nodeArgs: ['--import', pathToFileURL(register).href] };
}

describe('a hook while the package is half replaced', () => {
  it('SessionStart whose settings module is gone: exit 0, prints nothing (no "misconfigured" note), starts no worker; the next complete run works', async () => {
    const { nodeArgs, dist } = withoutSettingsModule();
    const savedDist = process.env.GMS_HOOK_DIST;
    if (dist !== undefined) process.env.GMS_HOOK_DIST = dist; // read by hookCommand
    try {
      const run = await runHook('session-start', sb.env, { input: startup(sb.root), nodeArgs });
      expect(run).toMatchObject({ code: 0, stdout: '', stderr: '' });
    } finally {
      if (savedDist === undefined) delete process.env.GMS_HOOK_DIST;
      else process.env.GMS_HOOK_DIST = savedDist;
    }
    expect(existsSync(join(sb.stateDir, 'config-error.notified'))).toBe(false);
    expect(existsSync(workerFiles(sb.stateDir).pidFile)).toBe(false);
    expect(spawnedWorkers()).toEqual([]);
    expect(sb.logs().some((l) => l.msg === 'hook skipped: the package is incomplete')).toBe(true);
    // Complete again (the upgrade finished): the same settings are read and nothing was held against them.
    const after = await runHook('session-start', sb.env, { input: JSON.stringify({ session_id: 's-2', transcript_path: '/dev/null', cwd: sb.root, hook_event_name: 'SessionStart', source: 'startup' }) });
    expect(after.code).toBe(0);
    expect(after.stdout).not.toMatch(/misconfigured/);
    // ...and it starts the worker, which runs to its end. Waited for here: removing the sandbox (the
    // worker's cwd) while it still loaded left it hanging for good under tsx (test/setup/stray-processes.ts).
    expect(spawnedWorkers()).toHaveLength(1);
    await waitForWorkers(sb, 1);
  });

  it('Stop whose settings module is gone: exit 0, prints nothing, starts no worker, and logs it as what it is (not a configuration error)', async () => {
    const { nodeArgs, dist } = withoutSettingsModule();
    const savedDist = process.env.GMS_HOOK_DIST;
    if (dist !== undefined) process.env.GMS_HOOK_DIST = dist; // read by hookCommand
    try {
      const run = await runHook('stop', sb.env, { input: JSON.stringify({ session_id: 's-1', transcript_path: '/dev/null', cwd: sb.root, hook_event_name: 'Stop', stop_hook_active: false }), nodeArgs });
      expect(run).toMatchObject({ code: 0, stdout: '', stderr: '' });
    } finally {
      if (savedDist === undefined) delete process.env.GMS_HOOK_DIST;
      else process.env.GMS_HOOK_DIST = savedDist;
    }
    expect(existsSync(workerFiles(sb.stateDir).pidFile)).toBe(false);
    expect(spawnedWorkers()).toEqual([]);
    expect(sb.logs().map((l) => l.msg)).toContain('hook skipped: the package is incomplete');
    expect(sb.logs().map((l) => l.msg)).not.toContain('configuration error');
  });

  it('the graphiti-memory-sync-hook launcher whose hook bundle is missing or cut short: exit 0, prints nothing', () => {
    const dir = join(sb.root, 'launcher', 'hooks');
    mkdirSync(dir, { recursive: true });
    cpSync(join(REPO, 'src', 'hooks', 'hook.ts'), join(dir, 'hook.ts'));
    const launch = (name: string) => spawnSync(process.execPath, ['--import', TSX, join(dir, 'hook.ts'), name], { input: startup(sb.root), env: sb.env, encoding: 'utf8', timeout: 15_000 });
    const missing = launch('session-start');
    expect({ code: missing.status, stdout: missing.stdout, stderr: missing.stderr }).toEqual({ code: 0, stdout: '', stderr: '' });
    writeFileSync(join(dir, 'stop.js'), '"use strict";\nconst __gmsModuleUrl = require("node:url").pathToFileURL(__filename).href;\nvar __create = Object.create;\nfunction main(');
    const cut = launch('stop');
    expect({ code: cut.status, stdout: cut.stdout, stderr: cut.stderr }).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('the version gate a hook command names, whose hook bundle is missing or cut short: exit 0, prints nothing', () => {
    // The gates as the build writes them (the plugin's layout, from src/: hooks/<name>.cjs before <name>-main.cjs).
    const plugin = join(sb.root, 'plugin');
    const build = spawnSync(process.execPath, [join(REPO, 'scripts', 'build', 'bundle-hooks.mjs'), '--plugin', plugin], { cwd: REPO, encoding: 'utf8' });
    expect(build.status, build.stderr).toBe(0);
    const gate = (name: string) => spawnSync(process.execPath, [join(plugin, 'hooks', `${name}.cjs`)], { input: startup(sb.root), env: sb.env, encoding: 'utf8', timeout: 15_000 });
    rmSync(join(plugin, 'hooks', 'session-start-main.cjs'));
    const missing = gate('session-start');
    expect({ code: missing.status, stdout: missing.stdout, stderr: missing.stderr }).toEqual({ code: 0, stdout: '', stderr: '' });
    writeFileSync(join(plugin, 'hooks', 'stop-main.cjs'), '"use strict";\nvar __create = Object.create;\nfunction main(');
    const cut = gate('stop');
    expect({ code: cut.status, stdout: cut.stdout, stderr: cut.stderr }).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(spawnedWorkers()).toEqual([]);
  });
});
