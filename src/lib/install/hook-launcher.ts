/**
 * How a user- or local-scope hook command reaches our hooks: by the `graphiti-memory-sync-hook`
 * bin on PATH, or by an absolute path into this copy of the package.
 *
 * An absolute path lasts exactly as long as that copy: an upgrade in place keeps it, but the same
 * package installed elsewhere (another npm prefix, another Node version under nvm, a global install
 * replacing a checkout) leaves the hook pointing at nothing. A global install (`npm install -g`,
 * `npm link`) puts the launcher (src/hooks/hook.ts) on PATH, so the command names it and
 * whichever install is on PATH at session time runs the hooks. The bare name is used only when
 * it already leads to this very copy: the first `graphiti-memory-sync-hook` on PATH resolves to
 * our own dist/hooks/hook.js. PATH folders `npx` and `npm run` add for one command
 * (`node_modules/.bin`) do not count: Claude Code will not have them.
 */
import { existsSync, realpathSync } from 'node:fs';
import { basename, delimiter, dirname, join, sep } from 'node:path';

export const HOOK_BIN = 'graphiti-memory-sync-hook';

/** A PATH folder that exists only while npx / npm run runs a command. */
function transientBinDir(dir: string): boolean {
  return basename(dir) === '.bin' && basename(dirname(dir)) === 'node_modules';
}

function real(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/** The PATH folder whose `graphiti-memory-sync-hook` runs this package's hooks, if the first one on PATH does. */
export function launcherOnPath(packageRoot: string, path: string | undefined): string | undefined {
  const ours = real(join(packageRoot, 'dist', 'hooks', 'hook.js'));
  if (ours === undefined || path === undefined) return undefined;
  for (const dir of path.split(delimiter)) {
    if (dir === '' || transientBinDir(dir)) continue;
    const candidate = join(dir, HOOK_BIN);
    if (!existsSync(candidate)) continue;
    // The first one on PATH is what a hook would run: ours, or another copy.
    return real(candidate) === ours ? dir : undefined;
  }
  return undefined;
}

/**
 * Project scope: the package as the project names it. npm puts it at
 * `<project>/node_modules/graphiti-memory-sync`; pnpm (and `npm link`) make that a symlink into a
 * folder named by version (`node_modules/.pnpm/graphiti-memory-sync@0.1.0/…`), which is where this
 * module runs from. Recording the versioned folder would break at the next upgrade, so the
 * project's own entry is used whenever it leads to this copy; and a project reached through a
 * symlinked folder (macOS /tmp) is compared by its real path.
 */
export function projectPackagePath(packageRoot: string, projectDir: string): string {
  const entry = join(projectDir, 'node_modules', 'graphiti-memory-sync');
  const ours = real(packageRoot);
  if (ours !== undefined && real(entry) === ours) return entry;
  const project = real(projectDir);
  if (ours === undefined || project === undefined) return packageRoot;
  if (ours === project) return projectDir; // the project is this checkout
  if (ours.startsWith(`${project}${sep}`)) return join(projectDir, ours.slice(project.length + 1));
  return packageRoot;
}
