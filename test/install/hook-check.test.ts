/**
 * `status` names hook entries that cannot run any more, with the command that fixes each (issue 41):
 * the bin gone from PATH, an absolute path to a copy that moved, a project's dev dependency not
 * installed. Entries that run, and other tools' hooks, are not named.
 */
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { formatStatus, type StatusReport } from '../../src/commands/reports.js';
import { binHooksWithoutLauncherFile, hookProblems, hooksWithoutNodeCheck } from '../../src/lib/install/hook-check.js';
import { HOOK_BIN } from '../../src/lib/install/hook-launcher.js';
import { nodeGuard } from '../../src/lib/install/node-guard.js';
import { runInstall } from '../../src/lib/install/install.js';
import { useTempDir } from '../helpers/use-temp-dir.js';
import { cli } from '../../src/lib/util/install-route.js';

/** The running copy's command (this checkout's: node and the path of its dist/cli.js), as a regular expression. */
const CLI = cli().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

let dir: string;
useTempDir('gms-hook-check-', (d) => (dir = d));
let home: string;
let project: string;

/** A copy of the package with the files the hook commands name. */
function copyAt(root: string): string {
  mkdirSync(join(root, 'dist', 'hooks'), { recursive: true });
  for (const f of ['hook.js', 'session-start.js', 'stop.js']) writeFileSync(join(root, 'dist', 'hooks', f), '');
  return root;
}

beforeEach(() => {
  home = join(dir, 'home');
  project = join(dir, 'project');
  mkdirSync(home, { recursive: true });
  mkdirSync(project, { recursive: true });
});

const env = (path = '/usr/bin') => ({ HOME: home, PATH: path });
const check = (path?: string) => hookProblems({ env: env(path), cwd: project, home });

describe('hookProblems', () => {
  it('an absolute path to a copy that is gone: names it and says to run install from the copy in use', async () => {
    const pkg = copyAt(join(dir, 'checkout'));
    await runInstall({ scope: 'user', home, cwd: project, env: env(), packageRoot: pkg });
    expect(check()).toEqual([]);
    rmSync(pkg, { recursive: true });
    const problems = check();
    expect(problems.map((p) => p.scope)).toEqual(['user', 'user']);
    expect(problems[0]?.message).toMatch(new RegExp(String.raw`checkout\/dist\/hooks\/session-start\.js does not exist \(that copy moved or was removed\): run "${CLI} install --scope user" from the copy`));
    expect(problems[0]?.message).toMatch(new RegExp(String.raw`or remove the entries with "${CLI} uninstall --scope user"; until then every session skips this hook quietly`));
  });

  it('the bin form: fine while graphiti-memory-sync-hook is on PATH, and off it while the install it was made from is there (LAUNCHER_OR_ITS_FILE: nvm switched Node); named when both are gone', async () => {
    const prefix = join(dir, 'prefix');
    const pkg = copyAt(join(prefix, 'lib', 'node_modules', 'graphiti-memory-sync'));
    mkdirSync(join(prefix, 'bin'));
    symlinkSync(join(pkg, 'dist', 'hooks', 'hook.js'), join(prefix, 'bin', HOOK_BIN));
    await runInstall({ scope: 'local', home, cwd: project, env: env(join(prefix, 'bin')), packageRoot: pkg });
    expect(check(join(prefix, 'bin'))).toEqual([]);
    expect(check('/usr/bin')).toEqual([]);
    rmSync(prefix, { recursive: true });
    const problems = check('/usr/bin');
    expect(problems).toHaveLength(2);
    const launcher = join(pkg, 'dist', 'hooks', 'hook.js');
    expect(problems[0]).toMatchObject({ scope: 'local', command: `${nodeGuard('SessionStart')}; command -v ${HOOK_BIN} >/dev/null 2>&1 || { test -f ${launcher} || exit 0; exec node ${launcher} session-start --graphiti-memory-sync; }; exec ${HOOK_BIN} session-start --graphiti-memory-sync` });
    expect(problems[0]?.message).toMatch(/not on your PATH.*install the package globally again.*--scope local/);
  });

  it("project scope before the project's npm install: says to run npm install there", async () => {
    const pkg = copyAt(join(project, 'node_modules', 'graphiti-memory-sync'));
    await runInstall({ scope: 'project', home, cwd: project, env: env(), packageRoot: pkg });
    expect(check()).toEqual([]);
    rmSync(join(project, 'node_modules'), { recursive: true });
    const problems = check();
    expect(problems).toHaveLength(2);
    expect(problems[0]?.message).toBe(
      `${join(project, 'node_modules', 'graphiti-memory-sync', 'dist', 'hooks', 'session-start.js')} does not exist: run "npm install" in ${project} (graphiti-memory-sync is a dev dependency of the project); until then every session skips this hook quietly (no sync, no context)`,
    );
  });

  it('entries an earlier version wrote (no guard): the same checks, and the message says each session shows a hook error until then', () => {
    const gone = join(dir, 'gone', 'dist', 'hooks');
    mkdirSync(join(home, '.claude'), { recursive: true });
    writeFileSync(
      join(home, '.claude', 'settings.json'),
      JSON.stringify({
        hooks: {
          SessionStart: [{ hooks: [{ type: 'command', command: `node ${join(gone, 'session-start.js')} --graphiti-memory-sync` }] }],
          Stop: [{ hooks: [{ type: 'command', command: `${HOOK_BIN} stop --graphiti-memory-sync` }] }],
        },
      }),
    );
    mkdirSync(join(project, '.claude'));
    writeFileSync(
      join(project, '.claude', 'settings.json'),
      JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'node "$CLAUDE_PROJECT_DIR/node_modules/graphiti-memory-sync/dist/hooks/stop.js" --graphiti-memory-sync' }] }] } }),
    );
    const problems = check('/usr/bin');
    expect(problems.map((p) => [p.scope, p.message.replace(/:.*; /, ': …; ')])).toEqual([
      ['user', `${join(gone, 'session-start.js')} does not exist (that copy moved or was removed): …; until then every session shows a hook error (running install again also writes entries that skip quietly when their file is missing)`],
      ['user', `${HOOK_BIN} is not on your PATH (the global install is gone): …; until then every session shows a hook error (running install again also writes entries that skip quietly when their file is missing)`],
      ['project', `${join(project, 'node_modules', 'graphiti-memory-sync', 'dist', 'hooks', 'stop.js')} does not exist: …; until then every session shows a hook error (running install again also writes entries that skip quietly when their file is missing)`],
    ]);
    expect(problems[0]?.message).toContain(`or remove the entries with "${cli()} uninstall --scope user"`);
    expect(problems[2]?.message).toContain(`run "npm install" in ${project}`);
  });

  it("other tools' hooks and an unparsable settings file are not ours to judge", () => {
    mkdirSync(join(home, '.claude'), { recursive: true });
    writeFileSync(join(home, '.claude', 'settings.json'), JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'node /gone/stop.js' }] }] } }));
    mkdirSync(join(project, '.claude'));
    writeFileSync(join(project, '.claude', 'settings.json'), '{ not json');
    expect(check()).toEqual([]);
  });

  it('entries that run but predate the node check: their file, once, until install rewrites them; an entry that cannot run is named as such instead', async () => {
    const pkg = copyAt(join(dir, 'checkout'));
    const older = (c: string) => c.replace(/command -v node >\/dev\/null 2>&1 \|\| (exit 0|\{ echo '[^']*'; exit 0; \}); /, '');
    await runInstall({ scope: 'user', home, cwd: project, env: env(), packageRoot: pkg });
    const file = join(home, '.claude', 'settings.json');
    const now = readFileSync(file, 'utf8');
    const commands = (JSON.parse(now) as { hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>> }).hooks;
    const later = [commands.SessionStart?.[0]?.hooks[0]?.command as string, commands.Stop?.[0]?.hooks[0]?.command as string];
    expect(hooksWithoutNodeCheck({ env: env(), cwd: project, home })).toEqual([]);
    // What the previous version's install wrote: the file check alone (and before it, the bare command).
    writeFileSync(file, later.reduce((text, c) => text.replace(JSON.stringify(c), JSON.stringify(older(c))), now));
    expect(readFileSync(file, 'utf8')).not.toContain('command -v node');
    expect(hooksWithoutNodeCheck({ env: env(), cwd: project, home })).toEqual([{ scope: 'user', file }]);
    expect(check()).toEqual([]);
    rmSync(join(pkg, 'dist'), { recursive: true });
    expect(hooksWithoutNodeCheck({ env: env(), cwd: project, home })).toEqual([]);
    copyAt(pkg);
    await runInstall({ scope: 'user', home, cwd: project, env: env(), packageRoot: pkg });
    expect(readFileSync(file, 'utf8')).toBe(now);
    expect(hooksWithoutNodeCheck({ env: env(), cwd: project, home })).toEqual([]);
  });

  it("a global install's bin entries written before LAUNCHER_OR_ITS_FILE (the bin alone): named while they run, with install to rewrite them; not once rewritten", async () => {
    const prefix = join(dir, 'prefix');
    const pkg = copyAt(join(prefix, 'lib', 'node_modules', 'graphiti-memory-sync'));
    mkdirSync(join(prefix, 'bin'));
    symlinkSync(join(pkg, 'dist', 'hooks', 'hook.js'), join(prefix, 'bin', HOOK_BIN));
    const onPath = env(join(prefix, 'bin'));
    await runInstall({ scope: 'user', home, cwd: project, env: onPath, packageRoot: pkg });
    const file = join(home, '.claude', 'settings.json');
    const now = readFileSync(file, 'utf8');
    expect(binHooksWithoutLauncherFile({ env: onPath, cwd: project, home })).toEqual([]);
    // What the previous version's install wrote: `command -v graphiti-memory-sync-hook … || exit 0` before the bin.
    const before = now.replace(/\{ test -f [^;]* \|\| exit 0; exec node [^;]*; \}/g, 'exit 0');
    expect(before).not.toBe(now);
    writeFileSync(file, before);
    expect(binHooksWithoutLauncherFile({ env: onPath, cwd: project, home })).toEqual([{ scope: 'user', file }]);
    await runInstall({ scope: 'user', home, cwd: project, env: onPath, packageRoot: pkg });
    expect(readFileSync(file, 'utf8')).toBe(now);
    expect(binHooksWithoutLauncherFile({ env: onPath, cwd: project, home })).toEqual([]);
  });

  it('status prints each with its fix', () => {
    const report = { stateDir: '/s', counts: { pending: 0, queued: 0, confirmed: 0, failed: 0, skipped: 0 }, total: 0, failures: [], skipped: [], orphansToDelete: 0, server: { ok: true, message: 'ok', url: 'u', elapsedMs: 1 }, serverUrlFrom: 'x' } as StatusReport;
    expect(formatStatus(report)).not.toContain('Hooks');
    const text = formatStatus({ ...report, hookProblems: [{ scope: 'user', file: '/h/.claude/settings.json', command: 'c', message: 'gone: run X' }] });
    expect(text).toContain('Hooks (user scope, /h/.claude/settings.json) cannot run: gone: run X');
    expect(formatStatus({ ...report, hooksWithoutNodeCheck: [{ scope: 'local', file: '/p/.claude/settings.local.json' }] })).toContain(
      `Hooks (local scope, /p/.claude/settings.local.json) were written by an earlier version, without the check for node: a Claude Code whose PATH has no node shows a hook error in every session instead of saying so. Run "${cli()} install --scope local" to rewrite them.`,
    );
    expect(formatStatus({ ...report, binHooksWithoutLauncherFile: [{ scope: 'user', file: '/h/.claude/settings.json' }] })).toContain(
      `Hooks (user scope, /h/.claude/settings.json) were written by an earlier version: they name ${HOOK_BIN} alone, so once the PATH Claude Code gives its hooks leads to a Node without it (nvm switched versions) every session skips them quietly, nothing synced or loaded. Run "${cli()} install --scope user" to rewrite them`,
    );
  });
});
