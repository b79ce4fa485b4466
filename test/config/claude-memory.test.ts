/**
 * Where Claude Code keeps auto memory (issue 26): autoMemoryDirectory (user and local settings,
 * `~/` expanded, never the checked-in project settings), CLAUDE_COWORK_MEMORY_PATH_OVERRIDE,
 * CLAUDE_CODE_REMOTE_MEMORY_DIR, each with and without CLAUDE_CODE_DISABLE_AUTO_MEMORY; the
 * sources the sync scans and the folder the SessionStart hook reads follow the same rules. The
 * managed settings (managed-settings.json and its managed-settings.d drop-ins) come first, and
 * `autoMemoryEnabled` / `env.CLAUDE_CODE_DISABLE_AUTO_MEMORY` in the settings turn it off, with the
 * precedence measured on the real CLI (test/claude/memory-location.claude.test.ts).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { autoMemoryFolders, projectMemoryFolder, unsyncedProjectMemory } from '../../src/lib/config/claude-memory.js';
import { buildConfig, settingsFilesOf } from '../../src/lib/config/config.js';
import { detectProject } from '../../src/lib/context/project.js';
import { inLeftOutProject, resolveSources } from '../../src/lib/memory/sources.js';
import { scanSources } from '../../src/lib/memory/scan.js';
import { isolatedEnv } from '../support/isolated-env.js';
import { useTempDir } from '../helpers/use-temp-dir.js';

let root = '';
useTempDir('gms-claude-memory-', (d) => (root = d));

function home() {
  const claude = join(root, 'claude');
  const project = join(root, 'work', 'app');
  mkdirSync(join(project, '.claude'), { recursive: true });
  mkdirSync(claude, { recursive: true });
  const json = (file: string, value: unknown) => writeFileSync(file, JSON.stringify(value));
  return {
    claude,
    project,
    key: project.replace(/[^a-zA-Z0-9]/g, '-'),
    user: (value: unknown) => json(join(claude, 'settings.json'), value),
    local: (value: unknown) => json(join(project, '.claude', 'settings.local.json'), value),
    checkedIn: (value: unknown) => json(join(project, '.claude', 'settings.json'), value),
    managedDir: join(root, 'etc-claude-code'),
    managed: (value: unknown, dropIn?: string) => {
      const dir = join(root, 'etc-claude-code', ...(dropIn === undefined ? [] : ['managed-settings.d']));
      mkdirSync(dir, { recursive: true });
      json(join(dir, dropIn ?? 'managed-settings.json'), value);
    },
    knows: (...projects: string[]) => json(join(claude, '.claude.json'), { projects: Object.fromEntries(projects.map((p) => [p, {}])) }),
  };
}

const DISABLE = { CLAUDE_CODE_DISABLE_AUTO_MEMORY: '1' };

describe("Claude Code's auto-memory folder", () => {
  it('by default: <CLAUDE_CONFIG_DIR>/projects/<key>/memory', () => {
    const h = home();
    expect(projectMemoryFolder({}, h.claude, root, h.project, h.key)).toEqual({ dir: join(h.claude, 'projects', h.key, 'memory'), via: 'default' });
    expect(autoMemoryFolders({}, h.claude, root)).toEqual([{ name: 'auto-memory', root: join(h.claude, 'projects'), layout: 'projects', via: 'default' }]);
  });

  it('autoMemoryDirectory in the user settings, ~/ expanded; the local settings win; the checked-in project settings never count', () => {
    const h = home();
    h.checkedIn({ autoMemoryDirectory: '/tmp/from-the-repository' });
    expect(projectMemoryFolder({}, h.claude, root, h.project, h.key)?.via).toBe('default');
    h.user({ autoMemoryDirectory: '~/notes/claude-memory' });
    expect(projectMemoryFolder({}, h.claude, root, h.project, h.key)).toEqual({ dir: join(root, 'notes', 'claude-memory'), via: 'autoMemoryDirectory (user settings)' });
    h.local({ autoMemoryDirectory: '~/notes/app-memory' });
    expect(projectMemoryFolder({}, h.claude, root, h.project, h.key)).toEqual({ dir: join(root, 'notes', 'app-memory'), via: 'autoMemoryDirectory (local settings)' });
    // The sync: the default folder, the user-level folder, and each known project's own.
    expect(autoMemoryFolders({}, h.claude, root).map((f) => [f.root, f.layout])).toEqual([
      [join(h.claude, 'projects'), 'projects'],
      [join(root, 'notes', 'claude-memory'), 'folder'],
    ]);
    // Projects Claude Code knows are listed in its global config file (in CLAUDE_CONFIG_DIR when that is set).
    h.knows(h.project);
    const env = { CLAUDE_CONFIG_DIR: h.claude };
    expect(autoMemoryFolders(env, h.claude, root).map((f) => f.root)).toContain(join(root, 'notes', 'app-memory'));
    expect(autoMemoryFolders(env, h.claude, root).map((f) => f.root)).not.toContain('/tmp/from-the-repository');
    expect(autoMemoryFolders(DISABLE, h.claude, root)).toEqual([]);
    expect(projectMemoryFolder(DISABLE, h.claude, root, h.project, h.key)).toBeUndefined();
  });

  it('a checked-in autoMemoryDirectory is not followed, but said: status names the folder and the local setting that syncs it', async () => {
    const h = home();
    const env = { CLAUDE_CONFIG_DIR: h.claude };
    h.knows(h.project);
    expect(unsyncedProjectMemory(env, h.claude, root)).toEqual([]);
    h.checkedIn({ autoMemoryDirectory: '~/repo-chosen-memory' });
    expect(unsyncedProjectMemory(env, h.claude, root)).toEqual([{ project: h.project, dir: join(root, 'repo-chosen-memory'), settingsFile: join(h.project, '.claude', 'settings.json') }]);
    expect(unsyncedProjectMemory({ ...env, ...DISABLE }, h.claude, root)).toEqual([]);
    const { collectStatus, formatStatus } = await import('../../src/commands/reports.js');
    const config = buildConfig({ ...isolatedEnv(root, 'http://127.0.0.1:9/mcp'), CLAUDE_CONFIG_DIR: h.claude, HOME: root });
    const text = formatStatus(await collectStatus(config, (await import('../../src/lib/util/log.js')).nullLogger));
    expect(text).toContain(`Not synced: ${join(root, 'repo-chosen-memory')}, where Claude Code keeps the memory of ${h.project}`);
    expect(text).toContain(`set the same autoMemoryDirectory in ${join(h.project, '.claude', 'settings.local.json')}`);
    // Once the user's own (local) setting names a folder, Claude Code takes that first, and so do we.
    h.local({ autoMemoryDirectory: '~/repo-chosen-memory' });
    expect(unsyncedProjectMemory(env, h.claude, root)).toEqual([]);
  });

  it('CLAUDE_COWORK_MEMORY_PATH_OVERRIDE wins over the settings, taken as written; a relative one is ignored as Claude Code does', () => {
    const h = home();
    h.user({ autoMemoryDirectory: '~/notes' });
    const env = { CLAUDE_COWORK_MEMORY_PATH_OVERRIDE: join(root, 'cowork') };
    expect(projectMemoryFolder(env, h.claude, root, h.project, h.key)).toEqual({ dir: join(root, 'cowork'), via: 'CLAUDE_COWORK_MEMORY_PATH_OVERRIDE' });
    expect(autoMemoryFolders(env, h.claude, root).find((f) => f.name === 'auto-memory-dir')).toMatchObject({ root: join(root, 'cowork'), layout: 'folder' });
    expect(projectMemoryFolder({ CLAUDE_COWORK_MEMORY_PATH_OVERRIDE: '~/cowork' }, h.claude, root, h.project, h.key)?.via).toBe('autoMemoryDirectory (user settings)');
    expect(autoMemoryFolders({ ...env, ...DISABLE }, h.claude, root)).toEqual([]);
  });

  it('CLAUDE_CODE_REMOTE_MEMORY_DIR: <dir>/projects/<key>/memory', () => {
    const h = home();
    const env = { CLAUDE_CODE_REMOTE_MEMORY_DIR: join(root, 'remote') };
    expect(projectMemoryFolder(env, h.claude, root, h.project, h.key)).toEqual({ dir: join(root, 'remote', 'projects', h.key, 'memory'), via: 'CLAUDE_CODE_REMOTE_MEMORY_DIR' });
    expect(autoMemoryFolders(env, h.claude, root).map((f) => f.name)).toEqual(['auto-memory', 'auto-memory-remote']);
    expect(projectMemoryFolder({ ...env, ...DISABLE }, h.claude, root, h.project, h.key)).toBeUndefined();
  });

  it('the sync scans a moved folder (its notes and team stores, not its MEMORY.md indexes), and the hook finds the project memory there', async () => {
    const h = home();
    h.user({ autoMemoryDirectory: '~/moved' });
    const moved = join(root, 'moved');
    mkdirSync(join(moved, 'team', 'acme-web'), { recursive: true });
    for (const [rel, text] of [['build.md', 'x'], ['MEMORY.md', '- [Build](build.md)'], ['team/acme-web/deploy.md', 'y'], ['team/acme-web/MEMORY.md', '- y']]) writeFileSync(join(moved, rel as string), text as string);
    const env = isolatedEnv(root, 'http://127.0.0.1:9/mcp', { CLAUDE_CONFIG_DIR: h.claude, HOME: root });
    const config = buildConfig(env);
    const scan = await scanSources(resolveSources(config));
    expect(scan.files.filter((f) => f.source === 'auto-memory-dir').map((f) => f.relPath)).toEqual(['build.md', 'team/acme-web/deploy.md']);
    expect(detectProject(h.project, config, env)).toMatchObject({ memoryDir: moved, memoryDirExists: true });
    const off = buildConfig({ ...env, ...DISABLE });
    expect(resolveSources(off).filter((s) => s.kind === 'auto-memory')).toEqual([]);
    expect(detectProject(h.project, off, { ...env, ...DISABLE })).toMatchObject({ memoryDirExists: false, memoryVia: 'disabled' });
  });

  it('MANAGED settings come first: over the local and user settings, a managed-settings.d drop-in over managed-settings.json, in name order', () => {
    const h = home();
    const env = { CLAUDE_CONFIG_DIR: h.claude };
    h.knows(h.project);
    h.user({ autoMemoryDirectory: '~/notes/everything' });
    h.local({ autoMemoryDirectory: '~/notes/this-project' });
    h.managed({ autoMemoryDirectory: join(root, 'company') });
    expect(projectMemoryFolder(env, h.claude, root, h.project, h.key, h.managedDir)).toEqual({ dir: join(root, 'company'), via: 'autoMemoryDirectory (managed settings)' });
    // The sync: the default folder and the managed one; the user's and the project's are not where Claude Code writes now.
    expect(autoMemoryFolders(env, h.claude, root, h.managedDir).map((f) => [f.name, f.root, f.via])).toEqual([
      ['auto-memory', join(h.claude, 'projects'), 'default'],
      ['auto-memory-dir', join(root, 'company'), 'autoMemoryDirectory (managed settings)'],
    ]);
    h.managed({ autoMemoryDirectory: join(root, 'first') }, '10-first.json');
    h.managed({ autoMemoryDirectory: join(root, 'drop-in') }, '20-memory.json');
    h.managed({ autoMemoryDirectory: join(root, 'not-json') }, '30-notes.txt');
    expect(projectMemoryFolder(env, h.claude, root, h.project, h.key, h.managedDir)?.dir).toBe(join(root, 'drop-in'));
    rmSync(join(h.managedDir, 'managed-settings.json'));
    expect(projectMemoryFolder(env, h.claude, root, h.project, h.key, h.managedDir)?.dir).toBe(join(root, 'drop-in'));
  });

  it('the first settings file that sets autoMemoryDirectory decides: a value Claude Code cannot use means the default folder, not the next file (measured)', () => {
    const h = home();
    h.managed({ autoMemoryDirectory: 'relative/folder' });
    h.local({ autoMemoryDirectory: '~/notes/this-project' });
    expect(projectMemoryFolder({}, h.claude, root, h.project, h.key, h.managedDir)).toEqual({ dir: join(h.claude, 'projects', h.key, 'memory'), via: 'default' });
    h.managed({});
    h.local({ autoMemoryDirectory: '/' });
    h.user({ autoMemoryDirectory: '~/notes/everything' });
    expect(projectMemoryFolder({}, h.claude, root, h.project, h.key, h.managedDir)?.via).toBe('default');
  });

  it('autoMemoryEnabled false in the user or managed settings: no folder for the sync or the hook; a managed true beats a user false; a local false is that project\'s alone', async () => {
    const h = home();
    h.knows(h.project);
    const env = isolatedEnv(root, 'http://127.0.0.1:9/mcp', { CLAUDE_CONFIG_DIR: h.claude, HOME: root });
    h.user({ autoMemoryEnabled: false, autoMemoryDirectory: '~/notes/everything' });
    expect(projectMemoryFolder(env, h.claude, root, h.project, h.key, h.managedDir)).toBeUndefined();
    expect(autoMemoryFolders(env, h.claude, root, h.managedDir)).toEqual([]);
    const config = buildConfig(env);
    expect(resolveSources(config).filter((s) => s.kind === 'auto-memory')).toEqual([]);
    expect(detectProject(h.project, config, env)).toMatchObject({ memoryDirExists: false, memoryVia: 'disabled' });
    h.managed({ autoMemoryEnabled: true });
    expect(projectMemoryFolder(env, h.claude, root, h.project, h.key, h.managedDir)?.dir).toBe(join(root, 'notes', 'everything'));
    h.managed({ autoMemoryEnabled: false });
    h.user({ autoMemoryEnabled: true });
    expect(autoMemoryFolders(env, h.claude, root, h.managedDir)).toEqual([]);
    h.managed({});
    h.local({ autoMemoryEnabled: false, autoMemoryDirectory: '~/notes/this-project' });
    expect(projectMemoryFolder(env, h.claude, root, h.project, h.key, h.managedDir)).toBeUndefined();
    expect(autoMemoryFolders(env, h.claude, root, h.managedDir).map((f) => f.name)).toEqual(['auto-memory']);
  });

  it('env.CLAUDE_CODE_DISABLE_AUTO_MEMORY in the settings: on turns it off (user or managed), and the settings\' value beats the environment\'s, as Claude Code puts it over its own (measured)', () => {
    const h = home();
    h.user({ env: { CLAUDE_CODE_DISABLE_AUTO_MEMORY: '1' } });
    expect(projectMemoryFolder({}, h.claude, root, h.project, h.key, h.managedDir)).toBeUndefined();
    expect(autoMemoryFolders({}, h.claude, root, h.managedDir)).toEqual([]);
    h.user({});
    h.managed({ env: { CLAUDE_CODE_DISABLE_AUTO_MEMORY: 'true' } });
    expect(autoMemoryFolders({}, h.claude, root, h.managedDir)).toEqual([]);
    // A false spelling forces it on: over the environment's true, and over autoMemoryEnabled false.
    h.managed({});
    h.user({ autoMemoryEnabled: false, env: { CLAUDE_CODE_DISABLE_AUTO_MEMORY: '0' } });
    expect(projectMemoryFolder(DISABLE, h.claude, root, h.project, h.key, h.managedDir)?.via).toBe('default');
    h.user({ autoMemoryEnabled: false });
    expect(projectMemoryFolder({ CLAUDE_CODE_DISABLE_AUTO_MEMORY: 'off' }, h.claude, root, h.project, h.key, h.managedDir)?.via).toBe('default');
    expect(projectMemoryFolder({}, h.claude, root, h.project, h.key, h.managedDir)).toBeUndefined();
  });

  it("off for every project but on in one project's local settings: that project's folder is synced, as Claude Code writes there and the hook reads it (on 6acbf28 the sync had no auto-memory source at all)", async () => {
    const h = home();
    h.knows(h.project);
    const env = isolatedEnv(root, 'http://127.0.0.1:9/mcp', { CLAUDE_CONFIG_DIR: h.claude, HOME: root });
    h.user({ autoMemoryEnabled: false });
    h.local({ autoMemoryEnabled: true });
    const folder = projectMemoryFolder(env, h.claude, root, h.project, h.key, h.managedDir);
    expect(folder).toEqual({ dir: join(h.claude, 'projects', h.key, 'memory'), via: 'default' });
    expect(autoMemoryFolders(env, h.claude, root, h.managedDir).map((f) => [f.name, f.root])).toEqual([['auto-memory', join(h.claude, 'projects')]]);
    mkdirSync(folder!.dir, { recursive: true });
    writeFileSync(join(folder!.dir, 'build.md'), '---\nname: Build\n---\nThe build uses Bun.\n');
    const scan = await scanSources(resolveSources(buildConfig(env)).filter((s) => s.kind === 'auto-memory'));
    expect(scan.files.map((f) => f.relPath)).toEqual([`${h.key}/memory/build.md`]);
    // Moved there by its local settings: that folder alone; and a checked-in folder there is said by status.
    h.local({ env: { CLAUDE_CODE_DISABLE_AUTO_MEMORY: '0' }, autoMemoryDirectory: '~/notes/this-project' });
    expect(autoMemoryFolders(env, h.claude, root, h.managedDir).map((f) => f.root)).toEqual([join(root, 'notes', 'this-project')]);
    h.local({ autoMemoryEnabled: true });
    h.checkedIn({ autoMemoryDirectory: '~/notes/checked-in' });
    expect(unsyncedProjectMemory(env, h.claude, root, h.managedDir).map((u) => u.dir)).toEqual([join(root, 'notes', 'checked-in')]);
    // Another project, not turned on: nothing of it counts.
    h.local({});
    expect(autoMemoryFolders(env, h.claude, root, h.managedDir)).toEqual([]);
    expect(unsyncedProjectMemory(env, h.claude, root, h.managedDir)).toEqual([]);
  });
});

describe("Claude Code's managed-settings folder", () => {
  it('is the platform\'s own: /Library/Application Support/ClaudeCode on macOS, C:\\Program Files\\ClaudeCode on Windows, /etc/claude-code elsewhere (read from the CLI bundle, 2.1.337; on 6acbf28 /etc/claude-code everywhere: a Mac\'s managed settings were never read)', async () => {
    const platform = Object.getOwnPropertyDescriptor(process, 'platform') as PropertyDescriptor;
    const under = async (name: NodeJS.Platform) => {
      Object.defineProperty(process, 'platform', { ...platform, value: name });
      try {
        vi.resetModules();
        return (await import('../../src/lib/config/claude-memory.js')).MANAGED_SETTINGS_DIR;
      } finally {
        Object.defineProperty(process, 'platform', platform);
        vi.resetModules();
      }
    };
    expect(await under('darwin')).toBe('/Library/Application Support/ClaudeCode');
    expect(await under('win32')).toBe('C:\\Program Files\\ClaudeCode');
    expect(await under('linux')).toBe('/etc/claude-code');
  });
});

describe('ON_IN_ONE_PROJECT with MEMORY_OFF_LEFT_OUT (merged)', () => {
  it("off for every project but on in one: another known project's default folder is left out, and named as off by the switch for every project", async () => {
    const h = home();
    const other = join(root, 'work', 'other');
    mkdirSync(join(other, '.claude'), { recursive: true });
    const otherKey = other.replace(/[^a-zA-Z0-9]/g, '-');
    h.knows(h.project, other);
    const env = isolatedEnv(root, 'http://127.0.0.1:9/mcp', { CLAUDE_CONFIG_DIR: h.claude, HOME: root });
    h.user({ autoMemoryEnabled: false });
    h.local({ autoMemoryEnabled: true });
    for (const key of [h.key, otherKey]) {
      mkdirSync(join(h.claude, 'projects', key, 'memory'), { recursive: true });
      writeFileSync(join(h.claude, 'projects', key, 'memory', 'build.md'), '---\nname: Build\n---\nThe build uses Bun.\n');
    }
    const [folder] = autoMemoryFolders(env, h.claude, root, h.managedDir);
    expect(folder?.leftOut?.map((l) => [l.project, l.key])).toEqual([[other, otherKey]]);
    // Not the other project's own local settings (it has none): the switch for every project turned it off.
    expect(folder?.leftOut?.[0]?.settingsFile).not.toContain('settings.local.json');
    const scan = await scanSources(resolveSources(buildConfig(env)).filter((s) => s.kind === 'auto-memory'));
    expect(scan.files.map((f) => f.relPath)).toEqual([`${h.key}/memory/build.md`]);
  });

  it("off for every project but on in one: a project Claude Code does not know (only run with -p, or gone) is left out too; only the projects turned on are scanned (ON_ONLY_WHERE_TURNED_ON)", async () => {
    const h = home();
    h.knows(h.project);
    const env = isolatedEnv(root, 'http://127.0.0.1:9/mcp', { CLAUDE_CONFIG_DIR: h.claude, HOME: root });
    h.user({ autoMemoryEnabled: false });
    h.local({ autoMemoryEnabled: true });
    // A folder from before auto memory was turned off, of a project not in ~/.claude.json: Claude Code keeps no memory for it now.
    const unknownKey = join(root, 'work', 'scratch').replace(/[^a-zA-Z0-9]/g, '-');
    for (const key of [h.key, unknownKey]) {
      mkdirSync(join(h.claude, 'projects', key, 'memory'), { recursive: true });
      writeFileSync(join(h.claude, 'projects', key, 'memory', 'build.md'), '---\nname: Build\n---\nThe build uses Bun.\n');
    }
    const sources = resolveSources(buildConfig(env)).filter((s) => s.kind === 'auto-memory');
    const scan = await scanSources(sources);
    expect(scan.files.map((f) => f.relPath)).toEqual([`${h.key}/memory/build.md`]);
    // The watch takes no event from there either, and a file synced from there before is unseen, not deleted (sync/plan.ts).
    expect(sources.every((s) => inLeftOutProject(s, `${unknownKey}/memory/build.md`))).toBe(true);
    expect(sources.some((s) => inLeftOutProject(s, `${h.key}/memory/build.md`))).toBe(false);
  });
});

/** A git repository at `main` with a linked worktree at `worktree` (the real git, as a person makes one). */
function repoWithWorktree(main: string, worktree: string): void {
  const git = (...args: string[]) => {
    const r = spawnSync('git', ['-C', main, '-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(r.stderr);
  };
  mkdirSync(main, { recursive: true });
  git('init', '-q');
  git('commit', '-q', '--allow-empty', '-m', 'first');
  git('worktree', 'add', '-q', worktree);
}

/** A transcript as Claude Code writes one for a session run in `cwd` (its lines carry the cwd). */
function transcript(claude: string, cwd: string): void {
  const dir = join(claude, 'projects', cwd.replace(/[^a-zA-Z0-9]/g, '-'));
  mkdirSync(dir, { recursive: true });
  const line = (type: string) => JSON.stringify({ type, cwd, sessionId: 's1', message: { role: type, content: 'hello' } });
  writeFileSync(join(dir, 's1.jsonl'), `${line('user')}\n${line('assistant')}\n`);
}

describe('whose switch turns which memory folder off (measured: test/claude/memory-projects.claude.test.ts)', () => {
  it('PROJECTS_FROM_TRANSCRIPTS: a project only ever run with -p (not in .claude.json) and off in its local settings has its folder left out, found by its transcript\'s cwd (on main: synced)', async () => {
    const h = home();
    const env = isolatedEnv(root, 'http://127.0.0.1:9/mcp', { CLAUDE_CONFIG_DIR: h.claude, HOME: root });
    transcript(h.claude, h.project);
    mkdirSync(join(h.claude, 'projects', h.key, 'memory'), { recursive: true });
    writeFileSync(join(h.claude, 'projects', h.key, 'memory', 'build.md'), '---\nname: Build\n---\nThe build uses Bun.\n');
    h.local({ autoMemoryEnabled: false });
    const [folder] = autoMemoryFolders(env, h.claude, root, h.managedDir);
    expect(folder?.leftOut).toEqual([{ project: h.project, key: h.key, settingsFile: join(h.project, '.claude', 'settings.local.json') }]);
    const scan = await scanSources(resolveSources(buildConfig(env)).filter((s) => s.kind === 'auto-memory'));
    expect(scan.files.map((f) => f.relPath)).toEqual([]);
    // Its settings file is watched too (PROJECT_SWITCH_WATCHED).
    expect(settingsFilesOf(buildConfig(env), env)).toContain(join(h.project, '.claude', 'settings.local.json'));
    // Turned on again: synced.
    h.local({});
    expect((await scanSources(resolveSources(buildConfig(env)).filter((s) => s.kind === 'auto-memory'))).files.map((f) => f.relPath)).toEqual([`${h.key}/memory/build.md`]);
  });

  it('a transcript that names no cwd, or is not JSON, teaches nothing and breaks nothing', () => {
    const h = home();
    const dir = join(h.claude, 'projects', h.key);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'a.jsonl'), '{"type":"summary"}\n');
    writeFileSync(join(dir, 'b.jsonl'), 'not json "cwd":nope\n');
    writeFileSync(join(dir, 'c.jsonl'), `${JSON.stringify({ cwd: 'relative/path' })}\n`);
    h.local({ autoMemoryEnabled: false });
    expect(autoMemoryFolders({ CLAUDE_CONFIG_DIR: h.claude }, h.claude, root, h.managedDir)[0]?.leftOut).toBeUndefined();
  });

  it('MEMORY_KEY_OF_A_PROJECT: a worktree off in its own local settings leaves out the MAIN repository\'s folder, where its memory is; a checkout on that shares it keeps it (ONE_ON_KEEPS_THE_FOLDER; on main: the worktree\'s own key, the main folder synced)', () => {
    const h = home();
    const main = join(root, 'repo');
    const worktree = join(root, 'repo-wt');
    repoWithWorktree(main, worktree);
    const mainKey = main.replace(/[^a-zA-Z0-9]/g, '-');
    const env = { CLAUDE_CONFIG_DIR: h.claude };
    h.knows(worktree);
    mkdirSync(join(worktree, '.claude'), { recursive: true });
    mkdirSync(join(main, '.claude'), { recursive: true });
    writeFileSync(join(worktree, '.claude', 'settings.local.json'), JSON.stringify({ autoMemoryEnabled: false }));
    const leftOut = () => autoMemoryFolders(env, h.claude, root, h.managedDir)[0]?.leftOut;
    expect(leftOut()).toEqual([{ project: worktree, key: mainKey, settingsFile: join(worktree, '.claude', 'settings.local.json') }]);
    // The main checkout, recorded and on, writes to the same folder: not left out.
    h.knows(worktree, main);
    expect(leftOut()).toBeUndefined();
    // Both off: the folder left out once, named by the repository itself (the worktree's switch is the main root's then).
    writeFileSync(join(main, '.claude', 'settings.local.json'), JSON.stringify({ autoMemoryEnabled: false }));
    expect(leftOut()).toEqual([{ project: main, key: mainKey, settingsFile: join(main, '.claude', 'settings.local.json') }]);
    rmSync(join(main, '.claude', 'settings.local.json'));
    // Off for every project, on in the worktree alone: only the main repository's folder is scanned.
    writeFileSync(join(worktree, '.claude', 'settings.local.json'), JSON.stringify({ autoMemoryEnabled: true }));
    h.user({ autoMemoryEnabled: false });
    h.knows(worktree);
    expect(autoMemoryFolders(env, h.claude, root, h.managedDir)[0]?.onlyProjects).toEqual([mainKey]);
  });

  it('LOCAL_SETTINGS_OF_A_SESSION: a session reads its main root\'s local settings, then its own folder\'s; the hook names the folder the CLI names (on main: only the main root\'s were read)', () => {
    const h = home();
    const main = join(root, 'repo');
    const worktree = join(root, 'repo-wt');
    repoWithWorktree(main, worktree);
    const env = isolatedEnv(root, 'http://127.0.0.1:9/mcp', { CLAUDE_CONFIG_DIR: h.claude, HOME: root });
    const config = buildConfig(env);
    const local = (dir: string, value: object) => {
      mkdirSync(join(dir, '.claude'), { recursive: true });
      writeFileSync(join(dir, '.claude', 'settings.local.json'), JSON.stringify(value));
    };
    const sub = join(main, 'sub');
    const via = (cwd: string) => detectProject(cwd, config, env).memoryVia;
    // The table measured on the real CLI: main, worktree, subfolder settings -> auto memory in the worktree, the main checkout, the subfolder.
    const table: Array<[object, object, object, string]> = [
      [{ autoMemoryEnabled: false }, {}, {}, 'off off off'],
      [{}, { autoMemoryEnabled: false }, {}, 'off on on'],
      [{ autoMemoryEnabled: true }, { autoMemoryEnabled: false }, {}, 'on on on'],
      [{ autoMemoryEnabled: false }, { autoMemoryEnabled: true }, {}, 'off off off'],
      [{}, {}, { autoMemoryEnabled: false }, 'on on off'],
      [{ autoMemoryEnabled: false }, {}, { autoMemoryEnabled: true }, 'off off off'],
    ];
    for (const [m, w, s, expected] of table) {
      local(main, m);
      local(worktree, w);
      local(sub, s);
      expect([worktree, main, sub].map((cwd) => (via(cwd) === 'disabled' ? 'off' : 'on')).join(' '), JSON.stringify([m, w, s])).toBe(expected);
    }
    expect(detectProject(worktree, config, env).memoryDir).toBe(join(h.claude, 'projects', main.replace(/[^a-zA-Z0-9]/g, '-'), 'memory'));
  });

  it('PROJECT_DIR_NAME_OVERRIDE: with CLAUDE_CODE_PROJECT_DIR_NAME, a project off leaves out the folder the override names (on main: its path\'s key)', () => {
    const h = home();
    h.knows(h.project);
    h.local({ autoMemoryEnabled: false });
    const env = { CLAUDE_CONFIG_DIR: h.claude, CLAUDE_CODE_PROJECT_DIR_NAME: 'my-project_1' };
    expect(autoMemoryFolders(env, h.claude, root, h.managedDir)[0]?.leftOut?.map((l) => l.key)).toEqual(['my-project_1']);
    expect(autoMemoryFolders({ ...env, CLAUDE_CODE_PROJECT_DIR_NAME: 'not plain.name' }, h.claude, root, h.managedDir)[0]?.leftOut?.map((l) => l.key)).toEqual([h.key]);
  });
});
