/**
 * Every hook command of ours (the forms `install` writes, the plugin's hooks.json and this
 * repository's own .claude/settings.json) run as Claude Code runs it, through `sh -c` (and bash,
 * what Git Bash runs on Windows), on a PATH WITHOUT node: Claude Code as its native binary and no
 * Node at all, or started by a launcher whose PATH lost nvm's node. The bare `node …` was the
 * shell's "node: not found", exit 127: a hook error in every session and memory that silently
 * stopped syncing. Now each command exits 0 with nothing on stderr; SessionStart prints the one
 * JSON object Claude Code reads, a `systemMessage` naming what is wrong and the next step; Stop
 * stays quiet. With node on the PATH each runs its target exactly as before (stdin, stdout,
 * stderr, exit code; as the very process the shell was).
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { HOOK_BIN } from '../../src/lib/install/hook-launcher.js';
import { ourHookGroups } from '../../src/lib/install/install.js';
import { NODE_MISSING_MESSAGE, NODE_MISSING_SECTION } from '../../src/lib/install/node-guard.js';
import { useTempDir } from '../helpers/use-temp-dir.js';
import { HOOK_STUB, SESSION_START_INPUT } from '../support/hook-stub.js';
import { REPO_ROOT as REPO } from '../support/paths.js';

let dir: string;
useTempDir('gms-hook-no-node-', (d) => (dir = d));

const STUB = HOOK_STUB;
const INPUT = SESSION_START_INPUT;

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}
const QUIET: Ran = { code: 0, stdout: '', stderr: '' };
const TOLD: Ran = { code: 0, stdout: `${JSON.stringify({ systemMessage: NODE_MISSING_MESSAGE })}\n`, stderr: '' };

const SHELLS = ['/bin/sh', '/bin/bash'].filter((s) => existsSync(s));

/** The command line through `shell -c`, with exactly this environment (and a HOME of the test's own: bash may read ~/.bashrc). */
function run(shell: string, command: string, env: Record<string, string>): Ran {
  const r = spawnSync(shell, ['-c', command], { env: { HOME: dir, ...env }, input: INPUT, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

let noNode: string;
let withNode: string;
beforeEach(() => {
  // A PATH folder with no node in it (Claude Code's native binary needs none), and one with it.
  noNode = join(dir, 'bin-no-node');
  withNode = join(dir, 'bin-node');
  mkdirSync(noNode);
  mkdirSync(withNode);
  symlinkSync(process.execPath, join(withNode, 'node'));
});

/** A copy of the package whose hooks are the stand-in, and a global install's bin that leads to it (npm's symlink: the shebang needs node). */
function packageAt(root: string): string {
  mkdirSync(join(root, 'dist', 'hooks'), { recursive: true });
  for (const name of ['session-start', 'stop']) writeFileSync(join(root, 'dist', 'hooks', `${name}.js`), STUB);
  writeFileSync(join(root, 'dist', 'hooks', 'hook.js'), `#!/usr/bin/env node\n${STUB}`);
  chmodSync(join(root, 'dist', 'hooks', 'hook.js'), 0o755);
  return root;
}

type Commands = { SessionStart: string; Stop: string };
const commandsOf = (groups: ReturnType<typeof ourHookGroups>): Commands => ({ SessionStart: groups.SessionStart.hooks[0]?.command as string, Stop: groups.Stop.hooks[0]?.command as string });

/** The SessionStart and Stop commands a settings-shaped JSON file holds. */
function commandsIn(file: string): Commands {
  const hooks = (JSON.parse(readFileSync(file, 'utf8')) as { hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>> }).hooks;
  return { SessionStart: hooks.SessionStart?.[0]?.hooks[0]?.command as string, Stop: hooks.Stop?.[0]?.hooks[0]?.command as string };
}

/** Every place a hook command of ours comes from, with the environment Claude Code gives it and what it runs. */
function forms(): Array<{ name: string; commands: Commands; env: Record<string, string>; bin?: string; target: (event: 'SessionStart' | 'Stop') => string[] }> {
  const pkg = packageAt(join(dir, "Bob's tools", 'graphiti memory sync'));
  const project = join(dir, 'team app');
  const vendored = packageAt(join(project, 'node_modules', 'graphiti-memory-sync'));
  const prefix = join(dir, 'prefix');
  const global = packageAt(join(prefix, 'lib', 'node_modules', 'graphiti-memory-sync'));
  mkdirSync(join(prefix, 'bin'));
  symlinkSync(join(global, 'dist', 'hooks', 'hook.js'), join(prefix, 'bin', HOOK_BIN));
  // The plugin as Claude Code runs it from its cache: the bundles beside hooks.json.
  const plugin = join(dir, 'plugin-cache', 'graphiti-memory-sync', '0.1.0');
  mkdirSync(join(plugin, 'hooks'), { recursive: true });
  cpSync(join(REPO, 'plugin', 'hooks', 'hooks.json'), join(plugin, 'hooks', 'hooks.json'));
  for (const name of ['session-start', 'stop']) writeFileSync(join(plugin, 'hooks', `${name}.cjs`), STUB);
  // This repository's own hooks: its launcher, in a checkout.
  const checkout = join(dir, 'checkout');
  mkdirSync(join(checkout, 'hooks'), { recursive: true });
  writeFileSync(join(checkout, 'hooks', 'run.mjs'), STUB);
  const file = (root: string, name: (hook: string) => string) => (event: 'SessionStart' | 'Stop') => [join(root, name(event === 'SessionStart' ? 'session-start' : 'stop'))];
  return [
    { name: 'install, an absolute path (user and local scope)', commands: commandsOf(ourHookGroups(pkg)), env: {}, target: file(pkg, (n) => `dist/hooks/${n}.js`) },
    { name: 'install --scope project', commands: commandsOf(ourHookGroups(vendored, { projectRelative: 'node_modules/graphiti-memory-sync' })), env: { CLAUDE_PROJECT_DIR: project }, target: file(vendored, (n) => `dist/hooks/${n}.js`) },
    { name: 'install, the bin of a global install', commands: commandsOf(ourHookGroups(global, { launcherOnPath: true })), env: {}, bin: join(prefix, 'bin'), target: (event) => [join(global, 'dist', 'hooks', 'hook.js'), event === 'SessionStart' ? 'session-start' : 'stop'] },
    { name: 'the plugin (plugin/hooks/hooks.json)', commands: commandsIn(join(plugin, 'hooks', 'hooks.json')), env: { CLAUDE_PLUGIN_ROOT: plugin }, target: file(plugin, (n) => `hooks/${n}.cjs`) },
    { name: "this repository's .claude/settings.json", commands: commandsIn(join(REPO, '.claude', 'settings.json')), env: { CLAUDE_PROJECT_DIR: checkout }, target: (event) => [join(checkout, 'hooks', 'run.mjs'), event === 'SessionStart' ? 'session-start' : 'stop'] },
  ];
}

describe.runIf(process.platform !== 'win32')('every hook command of ours on a PATH without node', () => {
  for (const shell of SHELLS) {
    it(`${shell} -c: exit 0, nothing on stderr; SessionStart says what is wrong and the next step, Stop stays quiet`, () => {
      for (const form of forms()) {
        const path = [form.bin, noNode].filter((p) => p !== undefined).join(':');
        expect(run(shell, form.commands.SessionStart, { PATH: path, ...form.env }), form.name).toEqual(TOLD);
        expect(run(shell, form.commands.Stop, { PATH: path, ...form.env }), form.name).toEqual(QUIET);
        // What the command ran before (the run alone, or behind the file check): the shell's 127, a hook error.
        const before = run(shell, form.commands.Stop.replace(/command -v node >\/dev\/null 2>&1 \|\| exit 0; /, ''), { PATH: path, ...form.env });
        expect(before.code, form.name).toBe(127);
        expect(before.stderr, form.name).toMatch(/node.*(not found|No such file)/);
      }
    });

    it(`${shell} -c: with node on the PATH, each runs its target as running it directly does (arguments, stdin, output, exit code, as the shell's own process)`, () => {
      for (const form of forms()) {
        const path = [form.bin, withNode].filter((p) => p !== undefined).join(':');
        for (const event of ['SessionStart', 'Stop'] as const) {
          const env = { PATH: path, STUB_EXIT: '3', ...form.env };
          const ran = run(shell, form.commands[event], env);
          const direct = spawnSync(process.execPath, [...form.target(event), '--graphiti-memory-sync'], { env, input: INPUT, encoding: 'utf8' });
          expect({ ...ran, stdout: JSON.parse(ran.stdout) as unknown }, `${form.name} ${event}`).toEqual({
            code: 3,
            stdout: { ...(JSON.parse(direct.stdout) as object), ppid: process.pid },
            stderr: direct.stderr,
          });
        }
      }
    });
  }

  it('a copy that is gone ends quietly before node is asked for (a teammate who never used the tool hears nothing); a launcher gone with node says so', () => {
    const [absolute, project, bin] = forms();
    rmSync(join(dir, "Bob's tools"), { recursive: true });
    rmSync(join(dir, 'team app', 'node_modules'), { recursive: true });
    for (const form of [absolute, project]) expect(run('/bin/sh', form?.commands.SessionStart as string, { PATH: noNode, ...form?.env }), form?.name).toEqual(QUIET);
    // nvm: the global bin sits beside node, and a PATH without one has neither.
    expect(run('/bin/sh', bin?.commands.SessionStart as string, { PATH: noNode })).toEqual(TOLD);
  });

  it("the plugin's folder gone under a session that still runs its hooks (an old version's cache copy swept, a directory marketplace's checkout moved): exit 0, nothing printed, with node or without", () => {
    const plugin = forms().find((f) => f.name.startsWith('the plugin'));
    const root = plugin?.env.CLAUDE_PLUGIN_ROOT as string;
    rmSync(root, { recursive: true });
    // Before, node was asked to run the missing gate: exit 1 and its stack on stderr, a hook error after every turn.
    for (const path of [withNode, noNode]) {
      for (const event of ['SessionStart', 'Stop'] as const) expect(run('/bin/sh', plugin?.commands[event] as string, { PATH: path, ...plugin?.env }), `${event}, PATH ${path}`).toEqual(QUIET);
    }
  });
});

describe('the message', () => {
  it('is one JSON object within the 10,000-character cap, safe inside echo with single quotes, and names a troubleshooting section that exists', () => {
    const out = TOLD.stdout;
    expect(out.length).toBeLessThan(10_000);
    expect(JSON.parse(out)).toEqual({ systemMessage: NODE_MISSING_MESSAGE });
    // Inside echo '…': no quote that ends it, no escape dash's echo reads, nothing a shell expands.
    expect(out).not.toMatch(/['\\$`]/);
    expect(NODE_MISSING_MESSAGE).toMatch(/Node\.js >= 20\.19/);
    expect(NODE_MISSING_MESSAGE).toContain('then start a new session');
    expect(readFileSync(join(REPO, 'docs', 'troubleshooting.md'), 'utf8')).toContain(`\n## ${NODE_MISSING_SECTION}\n`);
  });
});
