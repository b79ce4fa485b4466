/**
 * Which command `install` records for user and local scope (issue 41): the `graphiti-memory-sync-hook`
 * bin when a global install puts it on PATH leading to this very copy, so the hooks outlive a
 * reinstall elsewhere; an absolute path otherwise (a checkout, a project dependency, npx's
 * temporary PATH, another copy first on PATH). Real symlinks as npm makes them.
 */
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { HOOK_BIN, launcherOnPath, projectPackagePath } from '../../src/lib/install/hook-launcher.js';
import { nodeGuard } from '../../src/lib/install/node-guard.js';
import { isOurHandler, runInstall, runUninstall, type InstallOptions } from '../../src/lib/install/install.js';
import { useTempDir } from '../helpers/use-temp-dir.js';

let dir: string;
useTempDir('gms-launcher-', (d) => (dir = d));

/** A package copy with its launcher, and an npm-style bin folder linking to it. */
function copyAt(where: string): { root: string; bin: string } {
  const root = join(where, 'lib', 'node_modules', 'graphiti-memory-sync');
  mkdirSync(join(root, 'dist', 'hooks'), { recursive: true });
  for (const f of ['hook.js', 'session-start.js', 'stop.js']) writeFileSync(join(root, 'dist', 'hooks', f), '');
  const bin = join(where, 'bin');
  mkdirSync(bin, { recursive: true });
  symlinkSync(join('..', 'lib', 'node_modules', 'graphiti-memory-sync', 'dist', 'hooks', 'hook.js'), join(bin, HOOK_BIN));
  return { root, bin };
}

let global: { root: string; bin: string };
beforeEach(() => {
  global = copyAt(join(dir, 'prefix'));
});

describe('launcherOnPath', () => {
  it('finds the bin folder whose launcher resolves to this copy', () => {
    expect(launcherOnPath(global.root, ['/nonexistent', global.bin, '/usr/bin'].join(delimiter))).toBe(global.bin);
  });

  it('not when the first launcher on PATH is another copy (the name would run that one)', () => {
    const other = copyAt(join(dir, 'other'));
    expect(launcherOnPath(global.root, [other.bin, global.bin].join(delimiter))).toBeUndefined();
  });

  it("not through npx's / npm run's node_modules/.bin, which Claude Code will not have", () => {
    const project = join(dir, 'project');
    const dotBin = join(project, 'node_modules', '.bin');
    mkdirSync(dotBin, { recursive: true });
    symlinkSync(join(global.root, 'dist', 'hooks', 'hook.js'), join(dotBin, HOOK_BIN));
    expect(launcherOnPath(global.root, dotBin)).toBeUndefined();
  });

  it('not without PATH, nor for a copy without the launcher (an older build)', () => {
    expect(launcherOnPath(global.root, undefined)).toBeUndefined();
    expect(launcherOnPath(join(dir, 'checkout'), global.bin)).toBeUndefined();
  });
});

describe('install records the bin for a global install', () => {
  const options = (env: Record<string, string>, packageRoot: string): InstallOptions => ({ scope: 'user', home: join(dir, 'home'), cwd: dir, env: { HOME: join(dir, 'home'), ...env }, packageRoot });
  const commands = () => {
    const hooks = (JSON.parse(readFileSync(join(dir, 'home', '.claude', 'settings.json'), 'utf8')) as { hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>> }).hooks;
    return [hooks.SessionStart?.[0]?.hooks[0]?.command, hooks.Stop?.[0]?.hooks[0]?.command];
  };

  it('the bare name on PATH; an absolute path from elsewhere; switching updates the entries in place; uninstall finds either', async () => {
    const first = await runInstall(options({ PATH: global.bin }, global.root));
    expect(first.files[0]?.entries).toEqual(['SessionStart: added', 'Stop: added']);
    // Without the bin on PATH (nvm switched Node), the launcher of this install (hook-entries.ts LAUNCHER_OR_ITS_FILE).
    const launcher = join(global.root, 'dist', 'hooks', 'hook.js');
    expect(commands()).toEqual([
      `${nodeGuard('SessionStart')}; command -v ${HOOK_BIN} >/dev/null 2>&1 || { test -f ${launcher} || exit 0; exec node ${launcher} session-start --graphiti-memory-sync; }; exec ${HOOK_BIN} session-start --graphiti-memory-sync`,
      `${nodeGuard('Stop')}; command -v ${HOOK_BIN} >/dev/null 2>&1 || { test -f ${launcher} || exit 0; exec node ${launcher} stop --graphiti-memory-sync; }; exec ${HOOK_BIN} stop --graphiti-memory-sync`,
    ]);
    expect(isOurHandler({ command: commands()[0] }, 'SessionStart')).toBe(true);
    expect(isOurHandler({ command: commands()[0] }, 'Stop')).toBe(false);

    // The same copy run without its bin on PATH: the absolute path, replacing the entries.
    const second = await runInstall(options({ PATH: '/usr/bin' }, global.root));
    expect(second.files[0]?.entries).toEqual(['SessionStart: updated', 'Stop: updated']);
    const script = join(global.root, 'dist', 'hooks', 'session-start.js');
    expect(commands()[0]).toBe(`test -f ${script} || exit 0; ${nodeGuard('SessionStart')}; exec node ${script} --graphiti-memory-sync`);

    await runInstall(options({ PATH: global.bin }, global.root));
    const removed = await runUninstall(options({}, global.root));
    expect(removed.files[0]?.entries).toEqual(['SessionStart: removed', 'Stop: removed']);
  });
});

describe('project scope names the package as the project does', () => {
  it("a dependency linked into a versioned folder (pnpm): the project's node_modules entry, which survives an upgrade", async () => {
    const project = join(dir, 'app');
    const store = join(project, 'node_modules', '.pnpm', 'graphiti-memory-sync@0.1.0', 'node_modules', 'graphiti-memory-sync');
    mkdirSync(join(store, 'dist', 'hooks'), { recursive: true });
    writeFileSync(join(store, 'dist', 'hooks', 'session-start.js'), '');
    symlinkSync(join('.pnpm', 'graphiti-memory-sync@0.1.0', 'node_modules', 'graphiti-memory-sync'), join(project, 'node_modules', 'graphiti-memory-sync'));
    expect(projectPackagePath(store, project)).toBe(join(project, 'node_modules', 'graphiti-memory-sync'));
    await runInstall({ scope: 'project', home: join(dir, 'home'), cwd: project, env: { HOME: join(dir, 'home') }, packageRoot: store });
    const text = readFileSync(join(project, '.claude', 'settings.json'), 'utf8');
    const script = '\\"$CLAUDE_PROJECT_DIR/node_modules/graphiti-memory-sync/dist/hooks/session-start.js\\"';
    expect(text).toContain(`"test -f ${script} || exit 0; ${JSON.stringify(nodeGuard('SessionStart')).slice(1, -1)}; exec node ${script} --graphiti-memory-sync"`);
    expect(text).not.toContain('.pnpm');
  });

  it('a project reached through a symlinked folder is still the project', () => {
    const real = join(dir, 'real', 'app');
    const pkg = join(real, 'node_modules', 'graphiti-memory-sync');
    mkdirSync(join(pkg, 'dist'), { recursive: true });
    mkdirSync(join(real, 'vendor', 'gms'), { recursive: true });
    symlinkSync(join(dir, 'real'), join(dir, 'linked'));
    // The module runs from its real path; the user's shell is in the linked one.
    expect(projectPackagePath(pkg, join(dir, 'linked', 'app'))).toBe(join(dir, 'linked', 'app', 'node_modules', 'graphiti-memory-sync'));
    // This checkout as the project, and a copy inside it that is not its node_modules entry.
    expect(projectPackagePath(real, join(dir, 'linked', 'app'))).toBe(join(dir, 'linked', 'app'));
    expect(projectPackagePath(join(real, 'vendor', 'gms'), join(dir, 'linked', 'app'))).toBe(join(dir, 'linked', 'app', 'vendor', 'gms'));
  });
});
