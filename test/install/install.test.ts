import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { formatInstallResult, InstallError, isOurHandler, mcpLocation, mergeHooks, runInstall, runUninstall, settingsPath, type InstallOptions } from '../../src/lib/install/install.js';
import { useTempDir } from '../helpers/use-temp-dir.js';
import { nodeGuard } from '../../src/lib/install/node-guard.js';

let dir: string;
useTempDir('gms-install-', (d) => (dir = d));
let home: string;
let cwd: string;
let pkg: string;
let env: Record<string, string>;

beforeEach(() => {
  home = join(dir, 'home');
  cwd = join(dir, 'project');
  pkg = join(dir, 'opt', 'graphiti memory sync'); // a space: the command must quote it
  mkdirSync(home, { recursive: true });
  mkdirSync(cwd, { recursive: true });
  mkdirSync(join(pkg, 'dist', 'hooks'), { recursive: true });
  writeFileSync(join(pkg, 'dist', 'hooks', 'session-start.js'), '');
  env = { HOME: home };
});

const opts = (extra: Partial<InstallOptions> = {}): InstallOptions => ({ scope: 'user', cwd, home, env, packageRoot: pkg, now: new Date('2026-03-01T10:00:00Z'), ...extra });
const userSettings = () => join(home, '.claude', 'settings.json');
const stateDir = () => join(home, '.local', 'state', 'graphiti-memory-sync');
/** Backups of a settings file: in the state dir, never beside the file (a project's .claude/ is committed). */
const backups = (file: string) => {
  const name = file.split('/').pop() as string;
  expect(readdirSync(join(file, '..')).filter((n) => n.startsWith(`${name}.bak-`))).toEqual([]);
  return existsSync(join(stateDir(), 'backups')) ? readdirSync(join(stateDir(), 'backups')).filter((n) => n.startsWith(`${name}-`)) : [];
};

/** The package installed inside the project (npm install -D graphiti-memory-sync). */
const projectPkg = () => {
  const p = join(cwd, 'node_modules', 'graphiti-memory-sync');
  mkdirSync(join(p, 'dist', 'hooks'), { recursive: true });
  writeFileSync(join(p, 'dist', 'hooks', 'session-start.js'), '');
  return p;
};

describe('project scope: a command that works on every teammate\'s machine', () => {
  it('names the package relative to $CLAUDE_PROJECT_DIR, never this machine\'s absolute path', async () => {
    await runInstall(opts({ scope: 'project', packageRoot: projectPkg() }));
    const text = readFileSync(join(cwd, '.claude', 'settings.json'), 'utf8');
    expect(text).not.toContain(cwd);
    const hooks = (JSON.parse(text) as { hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>> }).hooks;
    expect(hooks.SessionStart?.[0]?.hooks[0]?.command).toBe(
      `test -f "$CLAUDE_PROJECT_DIR/node_modules/graphiti-memory-sync/dist/hooks/session-start.js" || exit 0; ${nodeGuard('SessionStart')}; exec node "$CLAUDE_PROJECT_DIR/node_modules/graphiti-memory-sync/dist/hooks/session-start.js" --graphiti-memory-sync`,
    );
    expect(hooks.Stop?.[0]?.hooks[0]?.command).toBe(`test -f "$CLAUDE_PROJECT_DIR/node_modules/graphiti-memory-sync/dist/hooks/stop.js" || exit 0; ${nodeGuard('Stop')}; exec node "$CLAUDE_PROJECT_DIR/node_modules/graphiti-memory-sync/dist/hooks/stop.js" --graphiti-memory-sync`);
  });

  it('refuses when the package lives outside the project, saying why and what to do instead; nothing written', async () => {
    const err = (await runInstall(opts({ scope: 'project' })).catch((e: unknown) => e)) as InstallError;
    expect(err).toBeInstanceOf(InstallError);
    expect(err.message).toMatch(/shared with your team.*outside the project.*--scope local.*--scope user.*plugin.*npm install -D git\+<URL of the repository>/s);
    expect(existsSync(join(cwd, '.claude'))).toBe(false);
  });
});

const EXISTING = {
  model: 'opus',
  permissions: { allow: ['Bash(npm test)'] },
  hooks: {
    SessionStart: [{ matcher: 'startup', hooks: [{ type: 'command', command: 'echo other-tool', timeout: 5 }] }],
    Stop: [{ hooks: [{ type: 'command', command: '/usr/local/bin/notify-done' }] }],
    PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'guard.sh' }] }],
  },
  statusLine: { type: 'command', command: 'status.sh' },
};

function writeJson(file: string, value: unknown): string {
  mkdirSync(join(file, '..'), { recursive: true });
  const text = `${JSON.stringify(value, null, 2)}\n`;
  writeFileSync(file, text);
  return text;
}

describe('install: settings paths', () => {
  it('user scope honours CLAUDE_CONFIG_DIR; project and local scopes are in <cwd>/.claude', () => {
    expect(settingsPath(opts())).toBe(join(home, '.claude', 'settings.json'));
    expect(settingsPath(opts({ env: { CLAUDE_CONFIG_DIR: join(dir, 'cc') } }))).toBe(join(dir, 'cc', 'settings.json'));
    expect(settingsPath(opts({ scope: 'project' }))).toBe(join(cwd, '.claude', 'settings.json'));
    expect(settingsPath(opts({ scope: 'local' }))).toBe(join(cwd, '.claude', 'settings.local.json'));
    expect(mcpLocation(opts())).toEqual({ file: join(home, '.claude.json'), path: ['mcpServers'] });
    expect(mcpLocation(opts({ env: { CLAUDE_CONFIG_DIR: join(dir, 'cc') } })).file).toBe(join(dir, 'cc', '.claude.json'));
    expect(mcpLocation(opts({ scope: 'project' }))).toEqual({ file: join(cwd, '.mcp.json'), path: ['mcpServers'] });
    expect(mcpLocation(opts({ scope: 'local' }))).toEqual({ file: join(home, '.claude.json'), path: ['projects', cwd, 'mcpServers'] });
  });
});

describe('install: merging', () => {
  it('missing file (and folder): created with our two hooks, timeouts in seconds, absolute quoted paths', async () => {
    const result = await runInstall(opts());
    const file = userSettings();
    expect(result.files[0]).toMatchObject({ file, existed: false, changed: true, written: true, backup: undefined });
    const json = JSON.parse(readFileSync(file, 'utf8')) as { hooks: Record<string, Array<{ matcher?: string; hooks: Array<Record<string, unknown>> }>> };
    const start = json.hooks.SessionStart?.[0];
    expect(start?.matcher).toBe('startup|clear|compact');
    expect(start?.hooks[0]).toEqual({
      type: 'command',
      command: `test -f '${join(pkg, 'dist', 'hooks', 'session-start.js')}' || exit 0; ${nodeGuard('SessionStart')}; exec node '${join(pkg, 'dist', 'hooks', 'session-start.js')}' --graphiti-memory-sync`,
      timeout: 10,
      statusMessage: 'Loading memory',
    });
    const stop = json.hooks.Stop?.[0];
    expect(stop?.matcher).toBeUndefined();
    expect(stop?.hooks[0]).toMatchObject({ type: 'command', timeout: 10 });
    expect(stop?.hooks[0]).not.toHaveProperty('async');
    expect(String(stop?.hooks[0]?.command)).toContain('/dist/hooks/stop.js');
    expect(readFileSync(file, 'utf8').endsWith('}\n')).toBe(true);
  });

  it('registers resume and fork too when MADEINOZ_KNOWLEDGE_CONTEXT_ON_RESUME is on', async () => {
    await runInstall(opts({ config: { mcpUrl: 'http://localhost:8000/mcp', contextOnResume: true } }));
    const json = JSON.parse(readFileSync(userSettings(), 'utf8')) as { hooks: Record<string, Array<{ matcher?: string }>> };
    expect(json.hooks.SessionStart?.[0]?.matcher).toBe('startup|resume|clear|compact|fork');
  });

  it('keeps every other key and hook (other matchers, other tools in the same event) and writes a backup first', async () => {
    const original = writeJson(userSettings(), EXISTING);
    const result = await runInstall(opts());
    const after = JSON.parse(readFileSync(userSettings(), 'utf8')) as typeof EXISTING;
    expect(after.model).toBe('opus');
    expect(after.permissions).toEqual(EXISTING.permissions);
    expect(after.statusLine).toEqual(EXISTING.statusLine);
    expect(after.hooks.PreToolUse).toEqual(EXISTING.hooks.PreToolUse);
    expect(after.hooks.SessionStart[0]).toEqual(EXISTING.hooks.SessionStart[0]);
    expect(after.hooks.SessionStart).toHaveLength(2);
    expect(after.hooks.Stop[0]).toEqual(EXISTING.hooks.Stop[0]);
    expect(after.hooks.Stop).toHaveLength(2);
    expect(result.files[0]?.backup).toMatch(new RegExp(`^${stateDir()}/backups/settings\\.json-[0-9a-f]{8}\\.bak-2026-03-01T10-00-00-000Z$`));
    expect(readFileSync(result.files[0]?.backup as string, 'utf8')).toBe(original);
    expect(result.files[0]?.entries).toEqual(['SessionStart: added', 'Stop: added']);
  });

  it('idempotent: a second run changes nothing, byte for byte, and writes no backup', async () => {
    writeJson(userSettings(), EXISTING);
    await runInstall(opts());
    const once = readFileSync(userSettings(), 'utf8');
    const mtime = statSync(userSettings()).mtimeMs;
    const second = await runInstall(opts({ now: new Date('2026-03-01T11:00:00Z') }));
    expect(second.files[0]).toMatchObject({ changed: false, written: false, backup: undefined, diff: '' });
    expect(second.files[0]?.entries).toEqual(['SessionStart: unchanged', 'Stop: unchanged']);
    expect(readFileSync(userSettings(), 'utf8')).toBe(once);
    expect(statSync(userSettings()).mtimeMs).toBe(mtime);
    expect(backups(userSettings())).toHaveLength(1);
  });

  it('a moved install path is updated in place (same position, no duplicate)', async () => {
    writeJson(userSettings(), EXISTING);
    await runInstall(opts());
    const moved = join(dir, 'elsewhere', 'gms');
    const result = await runInstall(opts({ packageRoot: moved }));
    expect(result.files[0]?.entries).toEqual(['SessionStart: updated', 'Stop: updated']);
    const after = JSON.parse(readFileSync(userSettings(), 'utf8')) as typeof EXISTING;
    expect(after.hooks.SessionStart).toHaveLength(2);
    expect(after.hooks.SessionStart[1]?.hooks[0]?.command).toContain(`${moved}/dist/hooks/session-start.js`);
    expect(after.hooks.SessionStart[0]).toEqual(EXISTING.hooks.SessionStart[0]);
    expect(result.warnings.some((w) => w.includes('npm run build'))).toBe(true);
  });

  it('our handler hidden inside another group, and duplicates, are cleaned up', () => {
    const ours = mergeHooks({}, pkg).settings;
    const handler = (ours.hooks as { SessionStart: Array<{ hooks: unknown[] }> }).SessionStart[0]?.hooks[0];
    const messy = {
      hooks: {
        SessionStart: [
          { matcher: 'startup', hooks: [{ type: 'command', command: 'echo mine' }, handler] },
          { matcher: 'x', hooks: [handler] },
          { matcher: 'y', hooks: [handler] },
          { matcher: 'empty-before', hooks: [] },
        ],
      },
    };
    const r = mergeHooks(messy as never, pkg).settings as unknown as typeof messy;
    expect(r.hooks.SessionStart).toHaveLength(3);
    expect(r.hooks.SessionStart[0]?.hooks).toEqual([{ type: 'command', command: 'echo mine' }]);
    expect(r.hooks.SessionStart[1]?.matcher).toBe('startup|clear|compact');
    expect(r.hooks.SessionStart[2]).toEqual({ matcher: 'empty-before', hooks: [] });
  });

  it('empty file is treated as {}', async () => {
    mkdirSync(join(home, '.claude'), { recursive: true });
    writeFileSync(userSettings(), '   \n');
    const result = await runInstall(opts());
    expect(result.files[0]).toMatchObject({ existed: true, changed: true });
    expect(Object.keys(JSON.parse(readFileSync(userSettings(), 'utf8')) as object)).toEqual(['hooks']);
  });

  for (const [label, text] of [
    ['garbage', 'this is not json {'],
    ['JSON with comments', '{\n  // my settings\n  "model": "opus"\n}\n'],
    ['trailing comma', '{ "model": "opus", }'],
    ['a non-object', '[1, 2, 3]'],
    ['hooks not an object', '{"hooks": []}'],
    ['event not an array', '{"hooks": {"Stop": {"hooks": []}}}'],
  ] as const) {
    it(`refuses ${label}: clear error naming the file, nothing written`, async () => {
      mkdirSync(join(home, '.claude'), { recursive: true });
      writeFileSync(userSettings(), text);
      const err = await runInstall(opts()).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(InstallError);
      expect((err as InstallError).message).toContain(userSettings());
      expect((err as InstallError).message).toMatch(/Fix the file by hand, then run the command again; nothing was written\.$/);
      expect((err as InstallError).file).toBe(userSettings());
      expect(readFileSync(userSettings(), 'utf8')).toBe(text);
      expect(backups(userSettings())).toHaveLength(0);
      expect(readdirSync(join(home, '.claude'))).toEqual(['settings.json']);
    });
  }

  it('dry run writes nothing and returns the diff', async () => {
    const original = writeJson(userSettings(), EXISTING);
    const result = await runInstall(opts({ dryRun: true, withMcp: true }));
    expect(result.dryRun).toBe(true);
    expect(result.files.every((f) => !f.written && f.backup === undefined)).toBe(true);
    expect(result.files[0]?.changed).toBe(true);
    expect(result.files[0]?.diff).toContain('+ ');
    expect(result.files[0]?.diff).toContain('session-start.js');
    expect(readFileSync(userSettings(), 'utf8')).toBe(original);
    expect(existsSync(join(home, '.claude.json'))).toBe(false);
    expect(backups(userSettings())).toHaveLength(0);
    expect(formatInstallResult(result)).toContain('dry run');
    // missing file + dry run: still nothing created
    rmSync(join(home, '.claude'), { recursive: true });
    await runInstall(opts({ dryRun: true }));
    expect(existsSync(join(home, '.claude'))).toBe(false);
  });

  it('preserves the file mode of an existing settings file', async () => {
    writeJson(userSettings(), EXISTING);
    const { chmodSync } = await import('node:fs');
    chmodSync(userSettings(), 0o600);
    await runInstall(opts());
    expect(statSync(userSettings()).mode & 0o777).toBe(0o600);
  });
});

describe('uninstall', () => {
  it('install + uninstall restores the original byte for byte (2-space JSON)', async () => {
    for (const original of [EXISTING, {}, { model: 'opus' }, { hooks: { PreToolUse: EXISTING.hooks.PreToolUse } }]) {
      const text = writeJson(userSettings(), original);
      await runInstall(opts());
      expect(readFileSync(userSettings(), 'utf8')).not.toBe(text);
      const result = await runUninstall(opts());
      expect(readFileSync(userSettings(), 'utf8')).toBe(text);
      expect(result.files[0]?.entries).toEqual(['SessionStart: removed', 'Stop: removed']);
    }
  });

  it('other formatting: restores the original byte for byte (remembered in the state dir)', async () => {
    mkdirSync(join(home, '.claude'), { recursive: true });
    const text = `${JSON.stringify(EXISTING)}\r\n`;
    writeFileSync(userSettings(), text);
    await runInstall(opts());
    await runInstall(opts({ now: new Date('2026-03-01T11:00:00Z') }));
    const result = await runUninstall(opts());
    expect(result.files[0]).toMatchObject({ restored: true, written: true });
    expect(readFileSync(userSettings(), 'utf8')).toBe(text);
    expect(readdirSync(join(stateDir(), 'install'))).toEqual([]);
  });

  it('a file (and folder) that did not exist before install is gone after uninstall', async () => {
    await runInstall(opts({ scope: 'project', packageRoot: projectPkg() }));
    expect(existsSync(join(cwd, '.claude', 'settings.json'))).toBe(true);
    const result = await runUninstall(opts({ scope: 'project' }));
    expect(result.files[0]).toMatchObject({ restored: true });
    expect(existsSync(join(cwd, '.claude'))).toBe(false);
  });

  it('a file changed since install keeps the change: only our entries are removed', async () => {
    await runInstall(opts());
    const installed = JSON.parse(readFileSync(userSettings(), 'utf8')) as Record<string, unknown>;
    writeJson(userSettings(), { ...installed, model: 'opus' });
    const result = await runUninstall(opts());
    expect(result.files[0]?.restored).toBeUndefined();
    expect(JSON.parse(readFileSync(userSettings(), 'utf8'))).toEqual({ model: 'opus' });
  });

  it('removes only our entries; nothing to do when not installed or no file', async () => {
    const text = writeJson(userSettings(), EXISTING);
    const r = await runUninstall(opts());
    expect(r.files[0]).toMatchObject({ changed: false, written: false });
    expect(readFileSync(userSettings(), 'utf8')).toBe(text);
    rmSync(userSettings());
    const none = await runUninstall(opts());
    expect(none.files).toHaveLength(0);
    expect(existsSync(userSettings())).toBe(false);
  });

  it('refuses an unparseable file on uninstall too', async () => {
    mkdirSync(join(home, '.claude'), { recursive: true });
    writeFileSync(userSettings(), '{ // no');
    await expect(runUninstall(opts())).rejects.toBeInstanceOf(InstallError);
    expect(readFileSync(userSettings(), 'utf8')).toBe('{ // no');
  });
});

describe('--with-mcp', () => {
  it('user scope: merges mcpServers.graphiti into ~/.claude.json, keeping everything else', async () => {
    const claudeJson = join(home, '.claude.json');
    const original = writeJson(claudeJson, { numStartups: 3, mcpServers: { other: { type: 'stdio', command: 'x' } }, projects: { '/a': { allowedTools: [] } } });
    const result = await runInstall(opts({ withMcp: true, config: { mcpUrl: 'http://127.0.0.1:8000/mcp' } }));
    const mcp = result.files.find((f) => f.kind === 'mcp');
    expect(mcp).toMatchObject({ file: claudeJson, changed: true, written: true });
    const after = JSON.parse(readFileSync(claudeJson, 'utf8')) as Record<string, unknown>;
    expect(after.mcpServers).toEqual({ other: { type: 'stdio', command: 'x' }, graphiti: { type: 'http', url: 'http://127.0.0.1:8000/mcp' } });
    expect(after.numStartups).toBe(3);
    expect(after.projects).toEqual({ '/a': { allowedTools: [] } });
    // idempotent
    const again = await runInstall(opts({ withMcp: true, config: { mcpUrl: 'http://127.0.0.1:8000/mcp' } }));
    expect(again.files.every((f) => !f.changed)).toBe(true);
    // uninstall restores
    await runUninstall(opts({ withMcp: true }));
    expect(readFileSync(claudeJson, 'utf8')).toBe(original);
  });

  it('project scope writes .mcp.json; local scope writes ~/.claude.json projects[cwd]', async () => {
    await runInstall(opts({ scope: 'project', withMcp: true, mcpUrl: 'http://h:1/mcp', packageRoot: projectPkg() }));
    expect(JSON.parse(readFileSync(join(cwd, '.mcp.json'), 'utf8'))).toEqual({ mcpServers: { graphiti: { type: 'http', url: 'http://h:1/mcp' } } });
    expect(existsSync(join(cwd, '.claude', 'settings.json'))).toBe(true);
    await runInstall(opts({ scope: 'local', withMcp: true, mcpUrl: 'http://h:1/mcp' }));
    const global = JSON.parse(readFileSync(join(home, '.claude.json'), 'utf8')) as { projects: Record<string, unknown> };
    expect(global.projects[cwd]).toEqual({ mcpServers: { graphiti: { type: 'http', url: 'http://h:1/mcp' } } });
    expect(existsSync(join(cwd, '.claude', 'settings.local.json'))).toBe(true);
    await runUninstall(opts({ scope: 'local', withMcp: true }));
    // ~/.claude.json did not exist before install: uninstall removes it again.
    expect(existsSync(join(home, '.claude.json'))).toBe(false);
  });

  it('an existing, different "graphiti" server is left alone and reported', async () => {
    const claudeJson = join(home, '.claude.json');
    const original = writeJson(claudeJson, { mcpServers: { graphiti: { type: 'sse', url: 'http://other/sse' } } });
    const result = await runInstall(opts({ withMcp: true }));
    const mcp = result.files.find((f) => f.kind === 'mcp');
    expect(mcp?.changed).toBe(false);
    expect(mcp?.warnings.join(' ')).toContain('already has an MCP server');
    expect(readFileSync(claudeJson, 'utf8')).toBe(original);
    await runUninstall(opts({ withMcp: true }));
    expect(readFileSync(claudeJson, 'utf8')).toBe(original);
  });

  it('an unparseable ~/.claude.json refuses the whole install (settings untouched too)', async () => {
    writeFileSync(join(home, '.claude.json'), '{garbage');
    await expect(runInstall(opts({ withMcp: true }))).rejects.toBeInstanceOf(InstallError);
    expect(existsSync(userSettings())).toBe(false);
  });
});

describe('isOurHandler', () => {
  it('recognises our hooks by script name + marker, never other tools mentioning us', () => {
    expect(isOurHandler({ type: 'command', command: "node '/x/dist/hooks/session-start.js' --graphiti-memory-sync" }, 'SessionStart')).toBe(true);
    expect(isOurHandler({ type: 'command', command: 'node "${CLAUDE_PLUGIN_ROOT}/hooks/run.mjs" session-start --graphiti-memory-sync' }, 'SessionStart')).toBe(true);
    expect(isOurHandler({ type: 'command', command: 'node', args: ['/opt/graphiti-memory-sync/dist/hooks/stop.js'] }, 'Stop')).toBe(true);
    expect(isOurHandler({ type: 'command', command: 'npx graphiti-memory-sync sync' }, 'Stop')).toBe(false);
    expect(isOurHandler({ type: 'command', command: "node '/x/dist/hooks/stop.js' --graphiti-memory-sync" }, 'SessionStart')).toBe(false);
    expect(isOurHandler({ type: 'command', command: 'node /other/dist/hooks/session-start.js' }, 'SessionStart')).toBe(false);
  });
});

describe('coming from the madeinoz Knowledge system: its memory-sync hook is replaced, and uninstall puts it back', () => {
  const PRIOR = {
    hooks: {
      SessionStart: [
        { matcher: '*', hooks: [{ type: 'command', command: 'bun run /home/me/.claude/hooks/sync-memory-to-knowledge.ts', timeout: 30000 }] },
        { matcher: 'startup', hooks: [{ type: 'command', command: 'other-tool start' }] },
      ],
      Stop: [{ hooks: [{ type: 'command', command: 'bun run /home/me/.claude/hooks/sync-learning-realtime.ts' }, { type: 'command', command: 'other-tool stop' }] }],
      SubagentStop: [{ hooks: [{ type: 'command', command: 'bun run /home/me/.claude/hooks/sync-learning-realtime.ts' }] }],
    },
  };
  const commands = (file: string) => JSON.stringify(JSON.parse(readFileSync(file, 'utf8')).hooks);

  for (const scope of ['user', 'project'] as const) {
    it(`${scope} settings: replaced (named in the result), other tools kept; uninstall restores the file byte for byte`, async () => {
      const root = scope === 'project' ? projectPkg() : pkg;
      const file = settingsPath(opts({ scope }));
      mkdirSync(join(file, '..'), { recursive: true });
      const original = `${JSON.stringify(PRIOR, null, 2)}\n`;
      writeFileSync(file, original);

      const installed = await runInstall(opts({ scope, packageRoot: root }));
      const after = commands(file);
      expect(after).not.toContain('sync-memory-to-knowledge');
      expect(after).not.toContain('sync-learning-realtime');
      expect(after).toContain('other-tool start');
      expect(after).toContain('other-tool stop');
      expect(after).toContain('--graphiti-memory-sync');
      const entries = installed.files[0]?.entries ?? [];
      expect(entries).toContain('SessionStart: replaced the madeinoz hook sync-memory-to-knowledge.ts');
      expect(entries).toContain('Stop: replaced the madeinoz hook sync-learning-realtime.ts');
      expect(entries).toContain('SubagentStop: replaced the madeinoz hook sync-learning-realtime.ts');
      expect(formatInstallResult(installed)).toContain('replaced the madeinoz hook');

      await runUninstall(opts({ scope, packageRoot: root }));
      expect(readFileSync(file, 'utf8')).toBe(original);
    });
  }

  it('a madeinoz hook in another scope is named in a warning, and that file is left alone', async () => {
    const other = settingsPath(opts({ scope: 'project' }));
    mkdirSync(join(other, '..'), { recursive: true });
    const text = `${JSON.stringify(PRIOR, null, 2)}\n`;
    writeFileSync(other, text);
    const installed = await runInstall(opts({ scope: 'user' }));
    expect(installed.warnings.some((w) => w.includes(other) && w.includes('madeinoz'))).toBe(true);
    expect(readFileSync(other, 'utf8')).toBe(text);
  });
});
