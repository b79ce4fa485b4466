/**
 * This repository's launcher hooks/run.mjs in a checkout with no dist/ (a plugin checkout as Claude Code
 * installs it): it runs the hook from source and builds dist/ once in the background.
 * A file of its own, out of plugin.test.ts: CI runs plugin.test.ts twice (again in "hooks from dist",
 * scripts/test/test-all.mjs), and this case builds its own dist/ whatever GMS_HOOK_RUNNER says, so it
 * runs once.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeHookSandbox, type HookSandbox } from '../helpers/hook-runner.js';
import { REPO_ROOT as REPO } from '../support/paths.js';

describe('hooks/run.mjs launcher (this repository\'s own .claude/settings.json)', () => {
  let sb: HookSandbox;
  beforeEach(() => {
    sb = makeHookSandbox({ GMS_WORKER_DISABLED: '1' });
  });
  afterEach(() => sb.cleanup());

  it('without dist/ it runs from source and builds dist/ once in the background for the next runs', async () => {
    // A plugin checkout as Claude Code installs it: sources and dependencies, no build.
    const pkg = join(sb.root, 'plugin');
    mkdirSync(pkg);
    for (const entry of ['src', 'scripts', 'hooks', 'package.json', 'tsconfig.json', 'tsconfig.build.json']) {
      cpSync(join(REPO, entry), join(pkg, entry), { recursive: true });
    }
    symlinkSync(join(REPO, 'node_modules'), join(pkg, 'node_modules'));
    const run = (cwd: string) =>
      new Promise<{ code: number | null; stdout: string }>((done) => {
        const child = spawn(process.execPath, [join(pkg, 'hooks', 'run.mjs'), 'session-start'], { env: sb.env, cwd });
        let stdout = '';
        child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
        child.on('close', (code) => done({ code, stdout }));
        child.stdin.end(JSON.stringify({ cwd, source: 'startup' }));
      });
    const first = await run(sb.root);
    expect(first).toEqual({ code: 0, stdout: '' });
    const built = join(pkg, 'dist', 'hooks', 'session-start.js');
    await vi.waitFor(() => expect(existsSync(built) && !existsSync(join(pkg, '.gms-build.lock'))).toBe(true), { timeout: 90_000, interval: 250 });
    expect(readFileSync(built, 'utf8')).toMatch(/^\/\/ Bundled by scripts\/build\/bundle-hooks\.mjs/);
    expect(readdirSync(pkg).filter((n) => n.startsWith('dist.build-'))).toEqual([]);
    const second = await run(sb.root);
    expect(second).toEqual({ code: 0, stdout: '' });
  }, 120_000);
});
