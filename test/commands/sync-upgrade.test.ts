/**
 * `sync --wait` runs for minutes; an upgrade may replace the package's files meanwhile. The
 * command must not load a module after the sync started: a newer one would run under the older
 * process, and while npm writes the new files there may be none. Simulated with a resolve hook
 * that refuses the command's report module once the "upgrade" happened (a flag file).
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import type { GraphitiTestServer } from '../support/graphiti-server.js';
import { REPO_ROOT as REPO, TSX_LOADER as TSX } from '../support/paths.js';
import { learning, type Sandbox } from '../support/sandbox.js';
import { useServerAndSandbox } from '../helpers/use-server-and-sandbox.js';

let server: GraphitiTestServer;
let box: Sandbox;
useServerAndSandbox((s, b) => {
  server = s;
  box = b;
});

describe('sync --wait across an upgrade of the package', () => {
  it('the report module replaced while the sync waits: the command still prints its summary and exits 0', async () => {
    const flag = join(box.root, 'upgraded');
    const hooks = `import { existsSync } from 'node:fs';
    export async function resolve(specifier, context, next) {
      if (existsSync(${JSON.stringify(flag)}) && /\\/commands\\/reports\\.(js|ts)$/.test(specifier)) {
        throw Object.assign(new Error('Cannot find module ' + specifier), { code: 'ERR_MODULE_NOT_FOUND' });
      }
      return next(specifier, context);
    }`;
    const register = join(box.root, 'upgrade-midway.mjs');
    writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)});\n`);
    box.pai('LEARNING/SYSTEM/a.md', learning('Alpha', 'Alpha body.'));
    server.pauseProcessing();

    const child = spawn(process.execPath, ['--import', TSX, '--import', pathToFileURL(register).href, join(REPO, 'src', 'cli.ts'), 'sync', '--wait', '60000'], { env: box.env, cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const done = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));

    // The sync is under way (its note queued): the package is replaced now, then the server catches up.
    await vi.waitFor(() => expect(server.calls.some((c) => c.tool === 'add_memory')).toBe(true), { timeout: 30_000, interval: 50 });
    writeFileSync(flag, '');
    server.resumeProcessing();

    expect(await done).toBe(0);
    expect(stderr).toBe('');
    expect(stdout).toMatch(/confirmed 1/);
  }, 60_000);
});
