/**
 * The built hooks and command line run by a real Node.js older than NODE_REQUIRED (npm run
 * test:old-node gives their paths in GMS_OLD_NODES: 12.22.12, Ubuntu 22.04's apt line; 18.20.8,
 * Ubuntu 24.04's; 20.18.3, an nvm default left before 20.19). Before the version gate, on 18 and
 * 20.18 every hook ran as if supported and said nothing (exit 0, no output: the user never
 * learned), and `status` and `health` ran too (exit 1, a report), where a missing API would have
 * been a stack trace; on 12 every hook and command was a SyntaxError (exit 1: a hook error in every
 * session).
 *
 * Every way a hook command reaches our hooks (the forms `install` writes, the global bin, the
 * plugin's hooks.json), run as Claude Code runs it (`sh -c`) with that old node first on the PATH:
 * exit 0, nothing on stderr; SessionStart prints the one `systemMessage` naming the node found,
 * the version needed and the next step; Stop prints nothing; neither touches the state (nothing
 * ran). The command line says the same on stderr, runs nothing and exits 2. And with this run's
 * node (new enough) each form runs the real hook, through the same files.
 *
 * This repository's own development hooks (.claude/settings.json, hooks/run.mjs) too: before they
 * were gated, Node 12 was a SyntaxError in run.mjs (a hook error in every session of a developer
 * whose hooks' PATH has Ubuntu 22.04's node), and a checkout not built yet ran its hooks from
 * source on 18 and 20.18 as if supported.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HOOK_BIN } from '../../src/lib/install/hook-launcher.js';
import { ourHookGroups } from '../../src/lib/install/install.js';
import { NODE_REQUIRED, nodeTooOld, nodeTooOldCliMessage, nodeTooOldOutput } from '../../src/lib/install/node-guard.js';
import { useTempDir } from '../helpers/use-temp-dir.js';
import { REPO_ROOT as REPO } from '../support/paths.js';

interface OldNode {
  version: string;
  path: string;
}

const OLD_NODES: OldNode[] = JSON.parse(process.env.GMS_OLD_NODES ?? '[]') as OldNode[];

let built: string;
useTempDir('gms-old-node-plugin-', (d) => (built = d), 'all');
let dir: string;
useTempDir('gms-old-node-', (d) => (dir = d));

let plugin: string;
beforeAll(() => {
  expect(OLD_NODES.length, 'GMS_OLD_NODES names no node: run this suite with npm run test:old-node').toBeGreaterThan(0);
  expect(existsSync(join(REPO, 'dist', 'hooks', 'session-start-main.js')), 'dist/ is missing or from before the version gate: npm run build').toBe(true);
  // The plugin as this source builds it (test/install/plugin.test.ts holds the committed bundles to it).
  plugin = join(built, 'graphiti-memory-sync');
  const r = spawnSync(process.execPath, [join(REPO, 'scripts', 'build', 'bundle-hooks.mjs'), '--plugin', plugin], { cwd: REPO, encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  cpSync(join(REPO, 'plugin', 'hooks', 'hooks.json'), join(plugin, 'hooks', 'hooks.json'));
});

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

const sessionStartInput = (cwd: string) => JSON.stringify({ session_id: 's-1', transcript_path: '/dev/null', cwd, hook_event_name: 'SessionStart', source: 'startup' });
const stopInput = (cwd: string) => JSON.stringify({ session_id: 's-1', transcript_path: '/dev/null', cwd, hook_event_name: 'Stop', stop_hook_active: false });

let home: string;
let project: string;
beforeEach(() => {
  home = join(dir, 'home');
  project = join(dir, 'team app');
  mkdirSync(home);
  // A project that holds the package (install --scope project): node_modules/graphiti-memory-sync is this checkout.
  mkdirSync(join(project, 'node_modules'), { recursive: true });
  symlinkSync(REPO, join(project, 'node_modules', 'graphiti-memory-sync'));
});

/** A PATH folder whose `node` is this binary, and a global install's bin folder (npm's symlink to hook.js: its shebang asks PATH for node). */
function pathWith(node: string, name: string): string {
  const bin = join(dir, `bin-${name}`);
  mkdirSync(bin);
  symlinkSync(node, join(bin, 'node'));
  symlinkSync(join(REPO, 'dist', 'hooks', 'hook.js'), join(bin, HOOK_BIN));
  return `${bin}:/usr/bin:/bin`;
}

type Commands = { SessionStart: string; Stop: string };
const commandsOf = (groups: ReturnType<typeof ourHookGroups>): Commands => ({ SessionStart: groups.SessionStart.hooks[0]?.command as string, Stop: groups.Stop.hooks[0]?.command as string });
type HookFile = { hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>> };
const commandsIn = (file: string): Commands => {
  const { hooks } = JSON.parse(readFileSync(file, 'utf8')) as HookFile;
  return { SessionStart: hooks.SessionStart?.[0]?.hooks[0]?.command as string, Stop: hooks.Stop?.[0]?.hooks[0]?.command as string };
};
/** This repository's development hooks, as its .claude/settings.json runs them (hooks/run.mjs under $CLAUDE_PROJECT_DIR). */
const devCommands = (): Commands => commandsIn(join(REPO, '.claude', 'settings.json'));

/** Every form of hook command that reaches our hooks, with the environment Claude Code gives it. */
function forms(): Array<{ name: string; commands: Commands; env: Record<string, string> }> {
  return [
    { name: 'install, an absolute path', commands: commandsOf(ourHookGroups(REPO)), env: {} },
    { name: 'install --scope project', commands: commandsOf(ourHookGroups(join(project, 'node_modules', 'graphiti-memory-sync'), { projectRelative: 'node_modules/graphiti-memory-sync' })), env: { CLAUDE_PROJECT_DIR: project } },
    { name: 'install, the bin of a global install', commands: commandsOf(ourHookGroups(REPO, { launcherOnPath: true })), env: {} },
    { name: 'the plugin (hooks.json)', commands: commandsIn(join(plugin, 'hooks', 'hooks.json')), env: { CLAUDE_PLUGIN_ROOT: plugin } },
    { name: "this repository's development hooks (.claude/settings.json), built", commands: devCommands(), env: { CLAUDE_PROJECT_DIR: REPO } },
  ];
}

/** The command through `sh -c`, as Claude Code runs it, with exactly this environment (the worker off: these tests look at the hook alone). */
function run(command: string, path: string, env: Record<string, string>, input: string): Ran {
  const r = spawnSync('/bin/sh', ['-c', command], {
    cwd: project,
    env: { HOME: home, PATH: path, GMS_TEST: '1', GMS_WORKER_DISABLED: '1', ...env },
    input,
    encoding: 'utf8',
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const stateDir = () => join(home, '.local', 'state', 'graphiti-memory-sync');

describe.runIf(process.platform !== 'win32')('a node older than we need, first on the PATH Claude Code gives its hooks', () => {
  it('the pinned nodes are older than NODE_REQUIRED (else this suite proves nothing)', () => {
    for (const node of OLD_NODES) expect(nodeTooOld(node.version), `${node.version} vs ${NODE_REQUIRED}`).toBe(true);
    expect(nodeTooOld(process.versions.node), 'this run’s own node is the control: new enough').toBe(false);
  });

  for (const node of OLD_NODES) {
    it(`Node.js ${node.version}: every hook command exits 0, nothing on stderr; SessionStart says which node, what is needed and the next step; Stop is quiet; nothing runs`, () => {
      const path = pathWith(node.path, node.version);
      // What process.execPath says on that node: the binary itself, through the PATH's symlink.
      const told: Ran = { code: 0, stdout: `${nodeTooOldOutput(node.version, realpathSync(node.path))}\n`, stderr: '' };
      for (const form of forms()) {
        expect(run(form.commands.SessionStart, path, form.env, sessionStartInput(project)), form.name).toEqual(told);
        expect(run(form.commands.Stop, path, form.env, stopInput(project)), form.name).toEqual({ code: 0, stdout: '', stderr: '' });
      }
      // Nothing ran: no state, no log, no snapshot of the settings.
      expect(existsSync(stateDir())).toBe(false);
    });

    it(`Node.js ${node.version}: status, health and sync say that Node.js >= ${NODE_REQUIRED} is needed and which version this is, run nothing and exit 2`, () => {
      const path = pathWith(node.path, node.version);
      const told: Ran = { code: 2, stdout: '', stderr: `${nodeTooOldCliMessage(node.version, realpathSync(node.path))}\n` };
      for (const args of [['status'], ['health', '--json'], ['sync']]) {
        // As the docs and every message of ours write it (the npm bin is a link to the same file).
        expect(run(`node ${join(REPO, 'dist', 'cli.js')} ${args.join(' ')}`, path, {}, ''), args.join(' ')).toEqual(told);
      }
      expect(existsSync(stateDir())).toBe(false);
    });
  }

  it("with this run's node (new enough), every form runs the real hook through the same files", () => {
    const path = pathWith(process.execPath, 'current');
    for (const form of forms()) {
      const started = run(form.commands.SessionStart, path, form.env, sessionStartInput(project));
      expect(started, form.name).toEqual({ code: 0, stdout: '', stderr: '' });
      expect(run(form.commands.Stop, path, form.env, stopInput(project)), form.name).toEqual({ code: 0, stdout: '', stderr: '' });
    }
    // Each SessionStart ran the hook itself, behind the gate: one "session start" line in the log each.
    const log = readFileSync(join(stateDir(), 'logs', 'graphiti-memory-sync.log'), 'utf8');
    const sessionStarts = log.split('\n').filter((l) => l.includes('"component":"session-start"') && l.includes('"msg":"session start"'));
    expect(sessionStarts).toHaveLength(forms().length);
    expect(run(`node ${join(REPO, 'dist', 'cli.js')} --version`, path, {}, '').stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  });
});

describe.runIf(process.platform !== 'win32')("a node older than we need, and this repository's development hooks from source (not built yet)", () => {
  /** A checkout with no dist/: run.mjs, the sources and the dependencies (as after `npm ci --ignore-scripts`). */
  function unbuiltCheckout(): string {
    const checkout = join(dir, 'checkout');
    mkdirSync(join(checkout, 'hooks'), { recursive: true });
    cpSync(join(REPO, 'hooks', 'run.mjs'), join(checkout, 'hooks', 'run.mjs'));
    cpSync(join(REPO, 'package.json'), join(checkout, 'package.json'));
    for (const linked of ['src', 'node_modules', 'tsconfig.json']) symlinkSync(join(REPO, linked), join(checkout, linked));
    return checkout;
  }

  for (const node of OLD_NODES) {
    it(`Node.js ${node.version}: exit 0; SessionStart says what is needed where tsx can load the sources (Node 18.19 on), else a line on stderr only; Stop is quiet; no build starts`, () => {
      const checkout = unbuiltCheckout();
      const path = pathWith(node.path, node.version);
      const commands = devCommands();
      const started = run(commands.SessionStart, path, { CLAUDE_PROJECT_DIR: checkout }, sessionStartInput(project));
      const stopped = run(commands.Stop, path, { CLAUDE_PROJECT_DIR: checkout }, stopInput(project));
      if (nodeTooOld(node.version) && Number(node.version.split('.')[0]) >= 18) {
        expect(started).toEqual({ code: 0, stdout: `${nodeTooOldOutput(node.version, realpathSync(node.path))}\n`, stderr: '' });
        expect(stopped).toEqual({ code: 0, stdout: '', stderr: '' });
      } else {
        // Below tsx's floor nothing from source loads, the owner of the words included.
        for (const r of [started, stopped]) expect({ ...r, stderr: r.stderr.includes('could not start') }).toEqual({ code: 0, stdout: '', stderr: true });
      }
      expect(readdirSync(checkout).sort()).toEqual(['hooks', 'node_modules', 'package.json', 'src', 'tsconfig.json']);
      expect(existsSync(stateDir())).toBe(false);
    });
  }
});
