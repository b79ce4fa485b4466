/**
 * `npm install` on the supported Node prints no warning of ours (issue 30): no EBADENGINE from a
 * dependency that wants a newer Node (content-type 3 through the conformance dev dependency is
 * held at 2.1.0 by an override), no "install scripts not covered by allowScripts" (esbuild's
 * postinstall is declared in package.json `allowScripts`). npm checks both in a dry run, offline,
 * against the installed tree: nothing is fetched or written.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

describe('npm install', () => {
  it('warns about nothing: engines and install scripts are all accounted for', () => {
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const built = existsSync(join(ROOT, 'dist', 'cli.js')) ? statSync(join(ROOT, 'dist', 'cli.js')).mtimeMs : undefined;
    const r = spawnSync(npm, ['install', '--dry-run', '--offline', '--no-audit', '--no-fund', '--no-update-notifier'], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
    expect(r.status).toBe(0);
    // npm runs the `prepare` script (the clean build) even in a dry run: it must write nothing then
    // (scripts/build/prepare.mjs), as tests beside this one use dist/.
    if (built !== undefined) expect(statSync(join(ROOT, 'dist', 'cli.js')).mtimeMs).toBe(built);
    const warnings = `${r.stdout}\n${r.stderr}`.split('\n').filter((l) => /^npm (warn|WARN|ERR)/.test(l));
    expect(warnings).toEqual([]);
  }, 130_000);
});
