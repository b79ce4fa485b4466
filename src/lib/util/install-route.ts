/**
 * How the running copy of the tool was installed, read from where its code lives, and so how the
 * person runs its command line and how they update it: the one owner of the command a message
 * names ("`… health` names the cause") and of the update step ("upgrade graphiti-memory-sync",
 * said how). `install/copies.ts` judges the copies a settings file names with the same rule
 * (`routeOfPackage`), and `commands/copies.ts` words their update steps with `updateStepFor`.
 *
 * Why: the same message reaches people who installed the tool four ways, and a step that does not
 * run for theirs is no step. A global install (`npm install -g <tarball>`) has
 * `graphiti-memory-sync` on PATH; a project's dev dependency is run with `npx graphiti-memory-sync`
 * in that project; a checkout (or any other folder) with `node <folder>/dist/cli.js`; and the
 * Claude Code plugin ships hooks only, no command line (plugin/hooks/*.cjs), so a plugin-only
 * user may have no `graphiti-memory-sync` at all.
 *
 * On the hooks' path (a note names a step): string work on the module's own path and at most three
 * `stat`s, done only when a message is made. No process is spawned and no folder is read.
 */
import { existsSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package's name: the command, the npm package and the plugin. */
export const PACKAGE_NAME = 'graphiti-memory-sync';

/** How a copy was put where it is: it decides how its command is run and the step that updates it. */
export type InstallRoute =
  /** `npm install -g` (a global npm prefix's node_modules, its bin beside). */
  | 'global'
  /** A dependency of a project (`<project>/node_modules/...`), run with `npx` there. */
  | 'project'
  /** A checkout or any other folder named by its path. */
  | 'folder'
  /** The plugin, read from a directory marketplace's folder (a checkout of the repository). */
  | 'plugin-folder'
  /** The plugin, from Claude Code's plugin cache (a git or GitHub marketplace). */
  | 'plugin-cache';

export interface RunningCopy {
  route: InstallRoute;
  /** The package's root (`<root>/dist/cli.js`), or the plugin's (`<root>/hooks/*.cjs`). */
  root: string;
  /** The project a `project` copy belongs to. */
  projectDir?: string;
  /** Whether `root` is a git checkout (a `folder` copy, or the repository a `plugin-folder` plugin lives in). */
  checkout?: boolean;
  /** The plugin's marketplace (`plugin-cache`: the folder under `plugins/cache/`). */
  marketplace?: string;
  /**
   * The words that run this copy's command line, to put before a command (`health`); undefined
   * when there is none (the plugin from Claude Code's cache, or a directory marketplace's plugin
   * whose checkout was never built).
   */
  cli?: string;
}

/** What may be asked of the file system: whether a path exists (a test lays out a tree). */
export interface RouteProbe {
  exists?: (path: string) => boolean;
  /** The folder the person runs the step from: `npx` finds a project's copy only inside it. */
  cwd?: string;
  platform?: NodeJS.Platform;
}

/** POSIX single quotes, only where needed (what Claude Code's Bash tool and a hook command run). */
export function shellWord(s: string): string {
  return /^[\w./:@%+=,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** The command line of the package at `root` run by its path. */
function nodeCli(root: string): string {
  return `node ${shellWord(join(root, 'dist', 'cli.js'))}`;
}

function inside(dir: string, parent: string): boolean {
  const rel = relative(parent, dir);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/**
 * The route of the package whose root is `root` (a folder holding `dist/cli.js`). Under a
 * `node_modules` folder it is a global install when that folder is an npm prefix's
 * (`<prefix>/lib/node_modules`, `<prefix>/lib` holding no package.json; on Windows
 * `<prefix>/node_modules` with our `<prefix>/graphiti-memory-sync.cmd` beside it), else a
 * project's dependency (the project is the folder holding the outermost `node_modules`: pnpm's
 * `node_modules/.pnpm/<pkg>@<v>/node_modules/<pkg>` included).
 */
export function routeOfPackage(root: string, probe: RouteProbe = {}): RunningCopy {
  const exists = probe.exists ?? existsSync;
  const cwd = probe.cwd ?? process.cwd();
  const win = (probe.platform ?? process.platform) === 'win32';
  const m = /^(.*?)[\\/]node_modules[\\/]/.exec(root);
  if (m?.[1] !== undefined && m[1] !== '') {
    const owner = m[1];
    // A project is a folder with a package.json; a prefix's lib/ (or Windows' npm folder) is not one.
    const global = win ? exists(join(owner, `${PACKAGE_NAME}.cmd`)) : basename(owner) === 'lib' && !exists(join(owner, 'package.json'));
    if (global) return { route: 'global', root, cli: PACKAGE_NAME };
    // npx finds the project's copy from the project or a folder in it; from elsewhere it would
    // fetch the name from the registry, so the copy is named by its path there.
    return { route: 'project', root, projectDir: owner, cli: inside(resolve(cwd), owner) ? `npx ${PACKAGE_NAME}` : nodeCli(root) };
  }
  return { route: 'folder', root, checkout: exists(join(root, '.git')), cli: nodeCli(root) };
}

/**
 * The copy whose module file is `file`: the plugin when the folder holding its `hooks/` has the
 * plugin's manifest (`.claude-plugin/plugin.json`), else the package above `src/` or `dist/`.
 */
export function routeOfModule(file: string, probe: RouteProbe = {}): RunningCopy {
  const exists = probe.exists ?? existsSync;
  let dir = dirname(file);
  while (basename(dir) !== 'lib' && basename(dir) !== 'hooks') {
    const up = dirname(dir);
    if (up === dir) return routeOfPackage(dirname(dirname(file)), probe);
    dir = up;
  }
  const buildRoot = dirname(dir);
  if (basename(dir) === 'hooks' && exists(join(buildRoot, '.claude-plugin', 'plugin.json'))) {
    // Claude Code's cache: <config>/plugins/cache/<marketplace>/<plugin>/<version>/
    const cached = /[\\/]plugins[\\/]cache[\\/]([^\\/]+)[\\/][^\\/]+[\\/][^\\/]+$/.exec(buildRoot);
    if (cached?.[1] !== undefined) return { route: 'plugin-cache', root: buildRoot, marketplace: cached[1] };
    // A directory marketplace: the repository's plugin/ folder, its package (if built) above it.
    const repo = dirname(buildRoot);
    const built = exists(join(repo, 'dist', 'cli.js'));
    return { route: 'plugin-folder', root: buildRoot, checkout: exists(join(repo, '.git')), ...(built ? { cli: nodeCli(repo) } : {}) };
  }
  return routeOfPackage(dirname(buildRoot), probe);
}

let running: RunningCopy | undefined;

/**
 * This copy, from this module's own path (in a hook bundle, the bundle's). Memoised: where the code
 * lives does not change while it runs; whether npx reaches a project's copy depends on the folder
 * the step is run from (`cwd`, the process's by default), so that part is asked again.
 */
export function runningCopy(cwd: string = process.cwd()): RunningCopy {
  running ??= routeOfModule(fileURLToPath(import.meta.url), { cwd });
  if (running.route === 'project' && running.projectDir !== undefined) {
    const here = inside(resolve(cwd), running.projectDir);
    return { ...running, cli: here ? `npx ${PACKAGE_NAME}` : nodeCli(running.root) };
  }
  return running;
}

/** Where the person learns to install the command when their copy has none. */
const INSTALL_THE_COMMAND = `install the command as the README's "Install" says: in a clone of the repository, npm ci, npm pack and npm install -g ./${PACKAGE_NAME}-*.tgz`;

/**
 * `args` (`health`, `status --json`) as the copy runs them, for a message: the command line, or
 * for a copy with no command line, the command once installed and how to install it.
 */
export function commandFor(args: string, copy: RunningCopy = runningCopy()): string {
  return `${cli(copy)} ${args}`;
}

/**
 * The words that run this copy's command line, for a message that goes on with the command
 * (`${cli()} server start`); `graphiti-memory-sync` for a copy that has none (its messages that
 * reach the person add `commandCaveat`).
 */
export function cli(copy: RunningCopy = runningCopy()): string {
  return copy.cli ?? PACKAGE_NAME;
}

/** What a copy with no command line adds after a named command (empty for one that has it). */
export function commandCaveat(copy: RunningCopy = runningCopy()): string {
  if (copy.cli !== undefined) return '';
  return copy.route === 'plugin-folder'
    ? ` (the plugin ships no command line: build the repository it runs from, npm install in ${shellWord(dirname(copy.root))}, and run it as ${nodeCli(dirname(copy.root))})`
    : ` (the plugin ships no command line: ${INSTALL_THE_COMMAND})`;
}

/** `args` as a step in a note (in backticks, as Markdown shows a command), with the caveat of a copy that has no command line. */
export function namedCommand(args: string, copy: RunningCopy = runningCopy()): string {
  return `\`${commandFor(args, copy)}\`${commandCaveat(copy)}`;
}

/** The step that updates a copy of `route` at `root`, as a clause ("update it: …"). */
export function updateStepFor(copy: Pick<RunningCopy, 'route' | 'root' | 'projectDir' | 'checkout' | 'marketplace'>): string {
  switch (copy.route) {
    case 'global':
      return `install the newer version over it: "npm install -g <the newer ${PACKAGE_NAME} tarball>" (README, "Install": npm pack in an updated clone makes it; once the package is published, "npm install -g ${PACKAGE_NAME}@latest")`;
    case 'project': {
      const where = copy.projectDir === undefined ? 'the project' : shellWord(copy.projectDir);
      return `install the newer version in the project: "cd ${where} && npm install -D <where it came from: git+<URL of the repository> fetches the newest, or the newer tarball>" (once the package is published, "npm update ${PACKAGE_NAME}"), and commit package.json and the lockfile for your team`;
    }
    case 'folder':
      return copy.checkout === true
        ? `update the checkout: "cd ${shellWord(copy.root)} && git pull && npm install" (npm install builds it)`
        : `put the newer version in place of ${copy.root} (or install it another way: README, "Install")`;
    case 'plugin-cache':
      return `"claude plugin update ${PACKAGE_NAME}@${copy.marketplace ?? '<marketplace>'}" (it refreshes the marketplace first), then restart Claude Code`;
    case 'plugin-folder':
      return `update the folder Claude Code reads the plugin from: "git -C ${shellWord(dirname(copy.root))} pull" (the plugin's bundles are committed), then restart Claude Code`;
  }
}

/**
 * "upgrade graphiti-memory-sync", said for this copy: the words a refusal of a newer format (or a
 * newer protocol) ends with. `to` says which version, in brackets (`the version that wrote it, or later`).
 */
export function upgradeStep(to?: string, copy: RunningCopy = runningCopy()): string {
  return `upgrade ${PACKAGE_NAME}${to === undefined ? '' : ` (${to})`}: ${updateStepFor(copy)}`;
}
