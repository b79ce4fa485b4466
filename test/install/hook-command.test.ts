/**
 * The hook command (hook-entries.ts `ourHookGroups`, its one owner) as Claude Code runs it, through
 * a POSIX shell (`sh -c`): a target that is gone (a teammate's clone before `npm install`, a global
 * package removed with `npm rm -g`, a moved checkout, dist/ mid-rebuild) ends quietly, exit 0 and
 * nothing printed, where the bare command failed with Node's "Cannot find module" (exit 1) or the
 * shell's "command not found" (127), a hook error in every session; a target that is there runs
 * exactly as the bare command did (stdin, stdout, stderr, exit code), as the very process the shell
 * was (exec: nothing waits in between, a timeout's kill reaches the hook).
 *
 * And every form install ever wrote is still ours: recognised, moved to the guarded form in place
 * by the next install (never doubled), removed by uninstall, and read by `hookLaunch` for `status`.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { hookLaunch } from '../../src/lib/install/hook-entries.js';
import { HOOK_BIN } from '../../src/lib/install/hook-launcher.js';
import { nodeGuard } from '../../src/lib/install/node-guard.js';
import { isOurHandler, mergeHooks, ourHookGroups, removeHooks, runInstall, runUninstall, type JsonObject } from '../../src/lib/install/install.js';
import { useTempDir } from '../helpers/use-temp-dir.js';
import { HOOK_STUB, SESSION_START_INPUT } from '../support/hook-stub.js';

let dir: string;
useTempDir('gms-hook-command-', (d) => (dir = d));

const STUB = HOOK_STUB;
const INPUT = SESSION_START_INPUT;

let nodeDir: string;
beforeEach(() => {
  // PATH holds node and nothing else: no graphiti-memory-sync-hook of this machine's own (nvm keeps global bins beside node).
  nodeDir = join(dir, 'node-bin');
  mkdirSync(nodeDir);
  symlinkSync(process.execPath, join(nodeDir, 'node'));
});

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The command line as Claude Code runs it on Linux and macOS. */
function sh(command: string, env: Record<string, string> = {}): Ran {
  const r = spawnSync('/bin/sh', ['-c', command], { env: { PATH: nodeDir, ...env }, input: INPUT, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The hook file run directly, as a bare `node <file>` command would. */
function direct(file: string, env: Record<string, string> = {}): Ran {
  const r = spawnSync(process.execPath, [file, '--graphiti-memory-sync'], { env: { PATH: nodeDir, ...env }, input: INPUT, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A copy of the package whose hooks are the stand-in. */
function packageAt(root: string): string {
  mkdirSync(join(root, 'dist', 'hooks'), { recursive: true });
  for (const name of ['session-start', 'stop', 'hook']) writeFileSync(join(root, 'dist', 'hooks', `${name}.js`), STUB);
  return root;
}

const commands = (groups: ReturnType<typeof ourHookGroups>) => ({ SessionStart: groups.SessionStart.hooks[0]?.command as string, Stop: groups.Stop.hooks[0]?.command as string });
const QUIET: Ran = { code: 0, stdout: '', stderr: '' };

describe.runIf(process.platform !== 'win32')('the hook command under sh -c', () => {
  it('an absolute path (user and local scope): quiet when the copy is gone; when there, the same as running the file', () => {
    // A space and a quote in the path: the command quotes it, the guard and the run alike.
    const pkg = packageAt(join(dir, "Bob's tools", 'graphiti memory sync'));
    const { SessionStart, Stop } = commands(ourHookGroups(pkg));
    const file = join(pkg, 'dist', 'hooks', 'session-start.js');

    const ran = sh(SessionStart, { STUB_EXIT: '3' });
    expect(ran).toEqual(direct(file, { STUB_EXIT: '3' }));
    const seen = JSON.parse(ran.stdout) as { args: string[]; input: string; ppid: number };
    expect(seen).toEqual({ args: ['--graphiti-memory-sync'], input: INPUT, ppid: process.pid });
    expect(ran).toMatchObject({ code: 3, stderr: 'hook stderr' });

    rmSync(join(pkg, 'dist'), { recursive: true });
    // What the bare command did here: Node's own error, a hook error in every session.
    expect(sh(`node '${file.replace(/'/g, `'\\''`)}' --graphiti-memory-sync`)).toMatchObject({ code: 1, stderr: expect.stringContaining('Cannot find module') });
    expect(sh(SessionStart)).toEqual(QUIET);
    expect(sh(Stop)).toEqual(QUIET);
    rmSync(join(dir, "Bob's tools"), { recursive: true });
    expect(sh(SessionStart)).toEqual(QUIET);
  });

  it("project scope: quiet in a teammate's clone before npm install (and without $CLAUDE_PROJECT_DIR); after it, the same as running the file", () => {
    const project = join(dir, 'team app');
    const pkg = packageAt(join(project, 'node_modules', 'graphiti-memory-sync'));
    const { SessionStart, Stop } = commands(ourHookGroups(pkg, { projectRelative: 'node_modules/graphiti-memory-sync' }));
    expect(SessionStart).toContain('"$CLAUDE_PROJECT_DIR/node_modules/graphiti-memory-sync/dist/hooks/session-start.js"');

    const ran = sh(Stop, { CLAUDE_PROJECT_DIR: project });
    expect(ran).toEqual(direct(join(pkg, 'dist', 'hooks', 'stop.js'), { CLAUDE_PROJECT_DIR: project }));
    expect(JSON.parse(ran.stdout)).toMatchObject({ args: ['--graphiti-memory-sync'], input: INPUT, ppid: process.pid });

    rmSync(join(project, 'node_modules'), { recursive: true });
    expect(sh(SessionStart, { CLAUDE_PROJECT_DIR: project })).toEqual(QUIET);
    expect(sh(Stop, { CLAUDE_PROJECT_DIR: project })).toEqual(QUIET);
    expect(sh(SessionStart)).toEqual(QUIET);
  });

  it('the bin on PATH (a global install): quiet once it is gone from PATH (npm rm -g); while there, the same as running it', () => {
    const pkg = packageAt(join(dir, 'prefix', 'lib', 'node_modules', 'graphiti-memory-sync'));
    const bin = join(dir, 'prefix', 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, HOOK_BIN), `#!/bin/sh\nexec node '${join(pkg, 'dist', 'hooks', 'hook.js')}' "$@"\n`);
    chmodSync(join(bin, HOOK_BIN), 0o755);
    const { SessionStart } = commands(ourHookGroups(pkg, { launcherOnPath: true }));
    const path = `${bin}:${nodeDir}`;

    const ran = sh(SessionStart, { PATH: path, STUB_EXIT: '2' });
    // The bare name, as earlier versions wrote it: the same run, except that sh (dash) waited in between.
    const bare = sh(`${HOOK_BIN} session-start --graphiti-memory-sync`, { PATH: path, STUB_EXIT: '2' });
    const { ppid, ...seen } = JSON.parse(ran.stdout) as { ppid: number };
    expect({ ...ran, stdout: seen }).toEqual({ ...bare, stdout: (({ ppid: _, ...rest }) => rest)(JSON.parse(bare.stdout) as { ppid: number }) });
    expect(ran.code).toBe(2);
    expect(seen).toEqual({ args: ['session-start', '--graphiti-memory-sync'], input: INPUT });
    expect(ppid).toBe(process.pid);

    rmSync(join(dir, 'prefix'), { recursive: true });
    expect(sh(`${HOOK_BIN} session-start --graphiti-memory-sync`, { PATH: path })).toMatchObject({ code: 127 });
    expect(sh(SessionStart, { PATH: path })).toEqual(QUIET);
  });

  it('the bin of a global install under nvm, after nvm switched to another Node that has none: the hooks still run from the install (LAUNCHER_OR_ITS_FILE); quiet once that Node version is removed too', () => {
    // npm install -g under Node 20: the package in its lib/node_modules, the bin beside node.
    const v20 = join(dir, 'nvm', 'versions', 'node', 'v20.19.0');
    const pkg = packageAt(join(v20, 'lib', 'node_modules', 'graphiti-memory-sync'));
    mkdirSync(join(v20, 'bin'));
    symlinkSync(process.execPath, join(v20, 'bin', 'node'));
    // As npm links it: the bin is a symlink to the launcher, which starts with its shebang.
    writeFileSync(join(pkg, 'dist', 'hooks', 'hook.js'), `#!/usr/bin/env node\n${STUB}`);
    chmodSync(join(pkg, 'dist', 'hooks', 'hook.js'), 0o755);
    symlinkSync(join(pkg, 'dist', 'hooks', 'hook.js'), join(v20, 'bin', HOOK_BIN));
    const groups = commands(ourHookGroups(pkg, { launcherOnPath: true }));
    // "nvm use 22" (or "nvm alias default 22") before Claude Code starts: its hooks get Node 22's bin folder, which has node and no bin of ours.
    const v22bin = join(dir, 'nvm', 'versions', 'node', 'v22.12.0', 'bin');
    mkdirSync(v22bin, { recursive: true });
    symlinkSync(process.execPath, join(v22bin, 'node'));

    for (const [event, name] of [['SessionStart', 'session-start'], ['Stop', 'stop']] as const) {
      const underNode20 = sh(groups[event], { PATH: join(v20, 'bin') });
      expect(JSON.parse(underNode20.stdout)).toMatchObject({ args: [name, '--graphiti-memory-sync'], input: INPUT });
      const afterSwitch = sh(groups[event], { PATH: v22bin, STUB_EXIT: '2' });
      expect(afterSwitch.code).toBe(2);
      expect(JSON.parse(afterSwitch.stdout)).toMatchObject({ args: [name, '--graphiti-memory-sync'], input: INPUT, ppid: process.pid });
    }

    // "nvm uninstall 20": that install is gone as well, and the entries end quietly as after npm rm -g.
    rmSync(v20, { recursive: true });
    expect(sh(groups.SessionStart, { PATH: v22bin })).toEqual(QUIET);
    expect(sh(groups.Stop, { PATH: v22bin })).toEqual(QUIET);
  });
});

/** Every form of our hook commands install ever wrote, with what `hookLaunch` reads of it. */
const OLD_FORMS = [
  { SessionStart: "node '/opt/graphiti memory sync/dist/hooks/session-start.js' --graphiti-memory-sync", Stop: "node '/opt/graphiti memory sync/dist/hooks/stop.js' --graphiti-memory-sync", launch: { kind: 'file', file: '/opt/graphiti memory sync/dist/hooks/session-start.js' } },
  { SessionStart: 'node /opt/gms/dist/hooks/session-start.js --graphiti-memory-sync', Stop: 'node /opt/gms/dist/hooks/stop.js --graphiti-memory-sync', launch: { kind: 'file', file: '/opt/gms/dist/hooks/session-start.js' } },
  {
    SessionStart: 'node "$CLAUDE_PROJECT_DIR/node_modules/graphiti-memory-sync/dist/hooks/session-start.js" --graphiti-memory-sync',
    Stop: 'node "$CLAUDE_PROJECT_DIR/node_modules/graphiti-memory-sync/dist/hooks/stop.js" --graphiti-memory-sync',
    launch: { kind: 'file', file: '$CLAUDE_PROJECT_DIR/node_modules/graphiti-memory-sync/dist/hooks/session-start.js' },
  },
  { SessionStart: `${HOOK_BIN} session-start --graphiti-memory-sync`, Stop: `${HOOK_BIN} stop --graphiti-memory-sync`, launch: { kind: 'bin' } },
] as const;

/** Settings as an earlier version's install left them, beside another tool's hook in the same event. */
function oldSettings(form: (typeof OLD_FORMS)[number]): JsonObject {
  return {
    model: 'opus',
    hooks: {
      SessionStart: [
        { matcher: 'startup', hooks: [{ type: 'command', command: 'echo other-tool' }] },
        { matcher: 'startup|clear|compact', hooks: [{ type: 'command', command: form.SessionStart, timeout: 10, statusMessage: 'Loading memory' }] },
      ],
      // The first releases registered Stop with async: true.
      Stop: [{ hooks: [{ type: 'command', command: form.Stop, async: true, timeout: 10 }] }],
    },
  };
}

describe('every form install wrote is still ours', () => {
  it('recognised for its own event only, and read by hookLaunch (bare, or behind the guard)', () => {
    for (const form of OLD_FORMS) {
      expect(isOurHandler({ type: 'command', command: form.SessionStart }, 'SessionStart'), form.SessionStart).toBe(true);
      expect(isOurHandler({ type: 'command', command: form.SessionStart }, 'Stop'), form.SessionStart).toBe(false);
      expect(isOurHandler({ type: 'command', command: form.Stop }, 'Stop'), form.Stop).toBe(true);
      expect(isOurHandler({ type: 'command', command: form.Stop }, 'SessionStart'), form.Stop).toBe(false);
      expect(hookLaunch(form.SessionStart)).toEqual({ ...form.launch, guarded: false });
    }
    const guardedForms = [
      ourHookGroups("/opt/Bob's tools/gms"),
      ourHookGroups('/opt/gms'),
      ourHookGroups('/p/node_modules/graphiti-memory-sync', { projectRelative: 'node_modules/graphiti-memory-sync' }),
      ourHookGroups('/opt/gms', { launcherOnPath: true }),
      ourHookGroups("/opt/Bob's tools/gms", { launcherOnPath: true }),
    ].map(commands);
    const launches = [
      { kind: 'file', file: "/opt/Bob's tools/gms/dist/hooks/session-start.js" },
      { kind: 'file', file: '/opt/gms/dist/hooks/session-start.js' },
      { kind: 'file', file: '$CLAUDE_PROJECT_DIR/node_modules/graphiti-memory-sync/dist/hooks/session-start.js' },
      // LAUNCHER_OR_ITS_FILE: the launcher file of the install the entry was made from, run when the bin is not on PATH.
      { kind: 'bin', file: '/opt/gms/dist/hooks/hook.js' },
      { kind: 'bin', file: "/opt/Bob's tools/gms/dist/hooks/hook.js" },
    ];
    guardedForms.forEach((c, i) => {
      expect(c.SessionStart, c.SessionStart).toMatch(/^(test -f |command -v ).* \|\| (exit 0|\{ echo '[^']*'; exit 0; \}); exec .*--graphiti-memory-sync$/);
      expect(isOurHandler({ command: c.SessionStart }, 'SessionStart')).toBe(true);
      expect(isOurHandler({ command: c.SessionStart }, 'Stop')).toBe(false);
      expect(isOurHandler({ command: c.Stop }, 'Stop')).toBe(true);
      expect(isOurHandler({ command: c.Stop }, 'SessionStart')).toBe(false);
      expect(hookLaunch(c.SessionStart)).toEqual({ ...launches[i], guarded: true });
    });
    // The guarded bin form written before LAUNCHER_OR_ITS_FILE: still ours, read as the bin alone.
    const before = `${nodeGuard('SessionStart')}; command -v ${HOOK_BIN} >/dev/null 2>&1 || exit 0; exec ${HOOK_BIN} session-start --graphiti-memory-sync`;
    expect(isOurHandler({ command: before }, 'SessionStart')).toBe(true);
    expect(hookLaunch(before)).toEqual({ kind: 'bin', guarded: true });
    expect(hookLaunch('echo other-tool')).toBeUndefined();
  });

  it('install moves each to the guarded form in place: one entry per event, the other tool kept; again: unchanged; uninstall removes either form', () => {
    for (const form of OLD_FORMS) {
      const merged = mergeHooks(oldSettings(form), '/opt/gms');
      expect(merged.entries, form.SessionStart).toEqual(['SessionStart: updated', 'Stop: updated']);
      const hooks = merged.settings.hooks as Record<string, Array<{ hooks: Array<{ command: string }> }>>;
      expect(hooks.SessionStart?.map((g) => g.hooks.map((h) => h.command))).toEqual([['echo other-tool'], [commands(ourHookGroups('/opt/gms')).SessionStart]]);
      expect(hooks.Stop?.map((g) => g.hooks.map((h) => h.command))).toEqual([[commands(ourHookGroups('/opt/gms')).Stop]]);
      expect(mergeHooks(merged.settings, '/opt/gms').entries).toEqual(['SessionStart: unchanged', 'Stop: unchanged']);

      // Both forms side by side (an old entry copied back by hand): one is kept.
      const both = structuredClone(merged.settings);
      ((both.hooks as Record<string, unknown[]>).SessionStart as unknown[]).push(...((oldSettings(form).hooks as Record<string, unknown[]>).SessionStart as unknown[]).slice(1));
      const deduped = mergeHooks(both as JsonObject, '/opt/gms');
      expect(deduped.entries).toEqual(['SessionStart: duplicates removed', 'Stop: unchanged']);
      expect(deduped.settings).toEqual(merged.settings);

      const removed = removeHooks(oldSettings(form));
      expect(removed.entries).toEqual(['SessionStart: removed', 'Stop: removed']);
      expect(removed.settings).toEqual({ model: 'opus', hooks: { SessionStart: [{ matcher: 'startup', hooks: [{ type: 'command', command: 'echo other-tool' }] }] } });
      expect(removeHooks(merged.settings).settings).toEqual(removed.settings);
    }
  });

  it('upgrade: entries an earlier version wrote are rewritten by the next install, and uninstall still gives the file back as it was before the first', async () => {
    const home = join(dir, 'home');
    const pkg = packageAt(join(dir, 'gms'));
    const options = { scope: 'user' as const, home, cwd: dir, env: { HOME: home, PATH: nodeDir }, packageRoot: pkg };
    const file = join(home, '.claude', 'settings.json');
    mkdirSync(join(home, '.claude'), { recursive: true });
    const original = '{\n  "model": "opus"\n}\n';
    writeFileSync(file, original);
    await runInstall(options);
    // What the earlier version had written there (its install kept the same record of the file before).
    const guardedText = readFileSync(file, 'utf8');
    const now = commands(ourHookGroups(pkg));
    const bare = (c: string) => c.replace(/^.*; exec /, '');
    writeFileSync(file, guardedText.replace(JSON.stringify(now.SessionStart), JSON.stringify(bare(now.SessionStart))).replace(JSON.stringify(now.Stop), JSON.stringify(bare(now.Stop))));
    expect(readFileSync(file, 'utf8')).toContain(`"node ${join(pkg, 'dist', 'hooks', 'session-start.js')} --graphiti-memory-sync"`);

    const again = await runInstall(options);
    expect(again.files[0]?.entries).toEqual(['SessionStart: updated', 'Stop: updated']);
    expect(readFileSync(file, 'utf8')).toBe(guardedText);
    expect((await runInstall(options)).files[0]?.changed).toBe(false);
    const removed = await runUninstall(options);
    expect(removed.files[0]?.restored).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe(original);
  });
});
