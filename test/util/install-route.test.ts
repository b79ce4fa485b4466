/**
 * util/install-route.ts: how the running copy was installed, from where its code lives, and the
 * steps the messages name for it. Each route is laid out as a fake install tree whose command is a
 * stub that says what it was asked; the note the SessionStart hook injects for a graph problem or a
 * bad setting must name a command that runs in that tree, and the upgrade step the route's own.
 * (test/package/package-routes.slow.test.ts runs the real global and dev-dependency installs.)
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { misconfiguredNote } from '../../src/hooks/hook-io.js';
import { ConfigError } from '../../src/lib/config/env-file.js';
import { recordGraphProblem, takeGraphProblemNote } from '../../src/lib/context/graph-problem.js';
import { futureFormat } from '../../src/lib/state/format.js';
import { commandFor, routeOfModule, routeOfPackage, runningCopy, upgradeStep, type RunningCopy } from '../../src/lib/util/install-route.js';
import { logFilePath } from '../../src/lib/util/log.js';
import { REPO_ROOT } from '../support/paths.js';
import { useTempDir } from '../helpers/use-temp-dir.js';

let dir: string;
useTempDir('gms-route-', (d) => (dir = d));

const NAME = 'graphiti-memory-sync';
/** What a stub of our command prints: the words it was run with. */
const CLI_STUB = `#!/usr/bin/env node\nconsole.log('ran: ' + process.argv.slice(2).join(' '));\n`;

function file(path: string, text = ''): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
}

/** A package at `root` as npm lays it out: its built command and hook bundle. Returns the hook bundle's path. */
function packageAt(root: string): string {
  file(join(root, 'package.json'), JSON.stringify({ name: NAME, version: '0.1.0', bin: { [NAME]: 'dist/cli.js' } }));
  chmodSync(file(join(root, 'dist', 'cli.js'), CLI_STUB), 0o755);
  return file(join(root, 'dist', 'hooks', 'session-start.js'));
}

interface Layout {
  /** The running module (a hook bundle). */
  module: string;
  /** The folder the person (or Claude's Bash tool) runs the step from. */
  cwd: string;
  /** PATH as they have it. */
  path: string;
}

const nodeBin = dirname(process.execPath);

/** `npm install -g`: `<prefix>/lib/node_modules/<pkg>`, the bin linked in `<prefix>/bin`, which is on PATH. */
function globalInstall(): Layout {
  const prefix = join(dir, 'prefix');
  const root = join(prefix, 'lib', 'node_modules', NAME);
  const module = packageAt(root);
  mkdirSync(join(prefix, 'bin'), { recursive: true });
  symlinkSync(join(root, 'dist', 'cli.js'), join(prefix, 'bin', NAME));
  return { module, cwd: join(dir, 'some-project'), path: [join(prefix, 'bin'), nodeBin].join(delimiter) };
}

/** `npm install -D` in a project: `<app>/node_modules/<pkg>`, its bin in `node_modules/.bin` (on no PATH). */
function projectInstall(): Layout & { app: string } {
  const app = join(dir, 'app');
  file(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, devDependencies: { [NAME]: 'file:../gms.tgz' } }));
  const root = join(app, 'node_modules', NAME);
  const module = packageAt(root);
  mkdirSync(join(app, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(join('..', NAME, 'dist', 'cli.js'), join(app, 'node_modules', '.bin', NAME));
  mkdirSync(join(app, 'src'), { recursive: true });
  return { app, module, cwd: join(app, 'src'), path: nodeBin };
}

/** A checkout (a `.git` in it), anywhere, its path with a space. */
function checkout(): Layout & { root: string } {
  const root = join(dir, 'my code', 'gms');
  const module = packageAt(root);
  mkdirSync(join(root, '.git'), { recursive: true });
  return { root, module, cwd: join(dir, 'elsewhere'), path: nodeBin };
}

/** The plugin from Claude Code's cache (a git marketplace `team-tools`): hooks only. */
function pluginFromCache(): Layout {
  const root = join(dir, 'claude', 'plugins', 'cache', 'team-tools', NAME, '0.1.0+1a2b3c4d5e6f');
  file(join(root, '.claude-plugin', 'plugin.json'), JSON.stringify({ name: NAME, version: '0.1.0+1a2b3c4d5e6f' }));
  return { module: file(join(root, 'hooks', 'session-start.cjs')), cwd: join(dir, 'some-project'), path: nodeBin };
}

/** The plugin from a directory marketplace: `<repo>/plugin`, the repository built (dist/cli.js). */
function pluginFromFolder(): Layout & { repo: string } {
  const repo = join(dir, 'repo');
  mkdirSync(join(repo, '.git'), { recursive: true });
  chmodSync(file(join(repo, 'dist', 'cli.js'), CLI_STUB), 0o755);
  file(join(repo, 'plugin', '.claude-plugin', 'plugin.json'), JSON.stringify({ name: NAME }));
  return { repo, module: file(join(repo, 'plugin', 'hooks', 'session-start.cjs')), cwd: join(dir, 'some-project'), path: nodeBin };
}

/** Runs a step as the person would, in bash from `cwd`, with their PATH (npm offline: a local bin only). */
function runStep(command: string, layout: Layout): { code: number | null; out: string } {
  mkdirSync(layout.cwd, { recursive: true });
  const r = spawnSync('bash', ['-c', command], {
    cwd: layout.cwd,
    env: { PATH: layout.path, HOME: join(dir, 'home'), npm_config_offline: 'true', npm_config_update_notifier: 'false', npm_config_cache: join(dir, 'npm-cache') },
    encoding: 'utf8',
  });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

/** The commands a note names, in backticks. */
function backticked(note: string): string[] {
  return [...note.matchAll(/`([^`]+)`/g)].map((m) => m[1] as string);
}

/** The graph-problem note and the misconfiguration note the hook would inject for this copy. */
function notesFor(copy: RunningCopy): string[] {
  const stateDir = join(dir, 'state');
  mkdirSync(stateDir, { recursive: true });
  recordGraphProblem(stateDir, 'unreachable', 'connect ECONNREFUSED 127.0.0.1:8000');
  const graph = takeGraphProblemNote(stateDir, copy) as string;
  expect(graph).toMatch(/^Note for the user from graphiti-memory-sync: the knowledge graph/);
  return [graph, misconfiguredNote(new ConfigError('MADEINOZ_KNOWLEDGE_DB="mysql" is not allowed', 'MADEINOZ_KNOWLEDGE_DB'), stateDir, copy)];
}

describe('the route of the running copy, from where its code lives', () => {
  it('a global install: the command on PATH; its step runs from any folder', () => {
    const layout = globalInstall();
    const copy = routeOfModule(layout.module, { cwd: layout.cwd });
    expect(copy).toMatchObject({ route: 'global', cli: NAME });
    for (const note of notesFor(copy)) {
      const [command] = backticked(note);
      expect(command).toBe(`${NAME} health`);
      expect(runStep(command as string, layout)).toEqual({ code: 0, out: 'ran: health\n' });
    }
  });

  it('a dev dependency: npx in the project (from any folder in it); by its path from outside, where npx would fetch the name from the registry', () => {
    const layout = projectInstall();
    const copy = routeOfModule(layout.module, { cwd: layout.cwd });
    expect(copy).toMatchObject({ route: 'project', projectDir: layout.app, cli: `npx ${NAME}` });
    for (const note of notesFor(copy)) {
      const [command] = backticked(note);
      expect(command).toBe(`npx ${NAME} health`);
      expect(runStep(command as string, layout)).toEqual({ code: 0, out: 'ran: health\n' });
    }
    const outside = { ...layout, cwd: join(dir, 'other-project') };
    const away = routeOfModule(layout.module, { cwd: outside.cwd });
    expect(away.cli).toBe(`node ${join(layout.app, 'node_modules', NAME, 'dist', 'cli.js')}`);
    expect(runStep(commandFor('health', away), outside)).toEqual({ code: 0, out: 'ran: health\n' });
  });

  it('a project in a folder named lib is a project (its package.json), not an npm prefix\'s lib/', () => {
    const app = join(dir, 'packages', 'lib');
    file(join(app, 'package.json'), '{}');
    expect(routeOfPackage(join(app, 'node_modules', NAME), { cwd: app })).toMatchObject({ route: 'project', projectDir: app, cli: `npx ${NAME}` });
    expect(routeOfPackage(join(dir, 'prefix', 'lib', 'node_modules', NAME), { cwd: app })).toMatchObject({ route: 'global', cli: NAME });
  });

  it('pnpm: the versioned folder inside the project is the project\'s copy', () => {
    const app = join(dir, 'app');
    const root = join(app, 'node_modules', '.pnpm', `${NAME}@0.1.0`, 'node_modules', NAME);
    expect(routeOfPackage(root, { cwd: app })).toMatchObject({ route: 'project', projectDir: app, cli: `npx ${NAME}` });
  });

  it('a checkout: node and the absolute path of its dist/cli.js (quoted when the path needs it), from any folder', () => {
    const layout = checkout();
    const copy = routeOfModule(layout.module, { cwd: layout.cwd });
    expect(copy).toMatchObject({ route: 'folder', checkout: true, cli: `node '${join(layout.root, 'dist', 'cli.js')}'` });
    for (const note of notesFor(copy)) {
      const [command] = backticked(note);
      expect(runStep(command as string, layout)).toEqual({ code: 0, out: 'ran: health\n' });
    }
    // Run from the sources (tsx, the tests), the same checkout.
    expect(routeOfModule(file(join(layout.root, 'src', 'lib', 'util', 'install-route.ts')), { cwd: layout.cwd })).toEqual(copy);
  });

  it('the plugin from the cache: no command line, so the note names the log the worker writes and how to get the command', () => {
    const layout = pluginFromCache();
    const copy = routeOfModule(layout.module, { cwd: layout.cwd });
    expect(copy).toMatchObject({ route: 'plugin-cache', marketplace: 'team-tools' });
    expect(copy.cli).toBeUndefined();
    const [graph, config] = notesFor(copy) as [string, string];
    for (const note of [graph, config]) {
      expect(note).toContain(logFilePath(join(dir, 'state')));
      expect(note).toContain('the plugin ships no command line');
      expect(note).toContain('npm install -g');
      // What it names would not run here: there is no such command on this PATH.
      expect(runStep(`${NAME} health`, layout).code).toBe(127);
    }
  });

  it('the plugin from a directory marketplace: the repository\'s own built command', () => {
    const layout = pluginFromFolder();
    const copy = routeOfModule(layout.module, { cwd: layout.cwd });
    expect(copy).toMatchObject({ route: 'plugin-folder', checkout: true, cli: `node ${join(layout.repo, 'dist', 'cli.js')}` });
    for (const note of notesFor(copy)) expect(runStep(backticked(note)[0] as string, layout)).toEqual({ code: 0, out: 'ran: health\n' });
  });

  it('the tests run this checkout from its sources', () => {
    expect(runningCopy()).toMatchObject({ route: 'folder', root: REPO_ROOT, checkout: true });
  });
});

describe('"upgrade graphiti-memory-sync" says how, for the route', () => {
  it('names the route\'s own update step', () => {
    const steps = {
      global: upgradeStep(undefined, routeOfModule(globalInstall().module)),
      project: upgradeStep(undefined, routeOfModule(projectInstall().module)),
      checkout: upgradeStep(undefined, routeOfModule(checkout().module)),
      cache: upgradeStep(undefined, routeOfModule(pluginFromCache().module)),
      folder: upgradeStep(undefined, routeOfModule(pluginFromFolder().module)),
    };
    expect(steps.global).toContain('"npm install -g <the newer graphiti-memory-sync tarball>"');
    expect(steps.project).toContain(`"cd ${join(dir, 'app')} && npm install -D `);
    expect(steps.checkout).toContain(`"cd '${join(dir, 'my code', 'gms')}' && git pull && npm install"`);
    expect(steps.cache).toContain('"claude plugin update graphiti-memory-sync@team-tools"');
    expect(steps.folder).toContain(`"git -C ${join(dir, 'repo')} pull"`);
    for (const step of Object.values(steps)) expect(step).toMatch(/^upgrade graphiti-memory-sync: /);
  });

  it('a state of a newer format is refused with the step of the copy that reads it (here: this checkout)', () => {
    const refused = futureFormat({ path: '/s/state.json', what: 'State file', version: 99, compatibleWith: undefined }, 2);
    expect(refused?.message).toContain(`upgrade graphiti-memory-sync (the version that wrote it, or later): update the checkout: "cd ${REPO_ROOT} && git pull && npm install"`);
  });
});
