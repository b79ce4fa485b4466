/**
 * `status` names every copy of the tool Claude Code runs (the plugin, install's settings hooks),
 * with version, state format and folder, says which is older than the state format or than the
 * other, and the step that updates it. Two copies of different ages were silent before: an older
 * plugin beside a newer global install synced nothing, and nothing said so.
 *
 * The copies are fixtures: folders with the files a build leaves (an older build's worker bundle
 * declares `STATE_VERSION = 1;` as e49abc6's does; the current one is read from this checkout's
 * sources, so a rename there fails here).
 */
import { chmodSync, copyFileSync, cpSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { judgeCopies, updateStep, type CopyReport } from '../../src/commands/copies.js';
import { formatStatus, type StatusReport } from '../../src/commands/reports.js';
import { heldStateFormatOf, leasePerFormatOf, readsEmptiedLedgerOf, readsHeldStateOf, stateFormatOf, toolCopies } from '../../src/lib/install/copies.js';
import { runInstall } from '../../src/lib/install/install.js';
import { EMPTIED_PULLED_VERSION, HELD_STATE_VERSION, STATE_VERSION } from '../../src/lib/state/format.js';
import { REPO_ROOT } from '../support/paths.js';
import { useTempDir } from '../helpers/use-temp-dir.js';

let dir: string;
useTempDir('gms-copies-', (d) => (dir = d));
let home: string;
let project: string;
let claudeDir: string;

/** The hook files of a build: `older` writes state format 1 and shares one worker lease, as every build before format 2 did. */
function hookFiles(hooks: string, ext: string, older: boolean): void {
  mkdirSync(hooks, { recursive: true });
  for (const f of ['hook', 'session-start']) writeFileSync(join(hooks, `${f}.${ext}`), '');
  writeFileSync(join(hooks, `worker.${ext}`), older ? 'var STATE_VERSION, OLDEST;\n  init() {\n    STATE_VERSION = 1;\n  }\n' : `var STATE_VERSION;\n  init() {\n    STATE_VERSION = ${STATE_VERSION};\n  }\n`);
  writeFileSync(join(hooks, `stop.${ext}`), older ? 'const dir = (0, import_node_path.join)(stateDir, "worker");\n' : 'const dir = (0, import_node_path7.join)(stateDir, "worker", `format-${format}`);\n');
}

/** A package copy (global, project or checkout) with its dist/ hooks. */
function packageAt(root: string, older: boolean, version = '0.1.0'): string {
  hookFiles(join(root, 'dist', 'hooks'), 'js', older);
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'graphiti-memory-sync', version }));
  return root;
}

/** A marketplace folder holding the plugin under ./plugin. */
function marketplaceAt(root: string, older: boolean, version = '0.1.0'): string {
  mkdirSync(join(root, '.claude-plugin'), { recursive: true });
  writeFileSync(join(root, '.claude-plugin', 'marketplace.json'), JSON.stringify({ name: 'gms', plugins: [{ name: 'graphiti-memory-sync', source: './plugin' }] }));
  hookFiles(join(root, 'plugin', 'hooks'), 'cjs', older);
  mkdirSync(join(root, 'plugin', '.claude-plugin'), { recursive: true });
  writeFileSync(join(root, 'plugin', '.claude-plugin', 'plugin.json'), JSON.stringify({ name: 'graphiti-memory-sync', version }));
  return root;
}

/** The manifest of a plugin copy in Claude Code's cache. */
function cacheManifest(cache: string, version: string): void {
  mkdirSync(join(cache, '.claude-plugin'), { recursive: true });
  writeFileSync(join(cache, '.claude-plugin', 'plugin.json'), JSON.stringify({ name: 'graphiti-memory-sync', version }));
}

/** What `claude plugin marketplace add <source>` + `claude plugin install graphiti-memory-sync@<name>` leave (Claude Code 2.1.330). */
function pluginInstalled(name: string, source: { source: 'directory'; path: string } | { source: 'git'; url: string }, installPath: string): void {
  mkdirSync(join(claudeDir, 'plugins'), { recursive: true });
  const installLocation = source.source === 'directory' ? source.path : join(claudeDir, 'plugins', 'marketplaces', name);
  writeFileSync(join(claudeDir, 'plugins', 'known_marketplaces.json'), JSON.stringify({ [name]: { source, installLocation, lastUpdated: '2026-12-06T07:17:46.721Z' } }));
  writeFileSync(
    join(claudeDir, 'plugins', 'installed_plugins.json'),
    JSON.stringify({ version: 2, plugins: { [`graphiti-memory-sync@${name}`]: [{ scope: 'user', installPath, version: '0.1.0', installedAt: '2026-12-06T07:17:47.085Z' }] } }),
  );
  const settings = join(claudeDir, 'settings.json');
  writeFileSync(settings, JSON.stringify({ enabledPlugins: { [`graphiti-memory-sync@${name}`]: true } }));
}

beforeEach(() => {
  home = join(dir, 'home');
  project = join(dir, 'project');
  claudeDir = join(home, '.claude');
  mkdirSync(claudeDir, { recursive: true });
  mkdirSync(project, { recursive: true });
});

const env = () => ({ HOME: home, PATH: '/usr/bin' });
const copies = () => toolCopies({ env: env(), cwd: project, home });
const report = (c: ReturnType<typeof judgeCopies>) =>
  formatStatus({ stateDir: '/s', counts: { pending: 0, queued: 0, confirmed: 0, failed: 0, skipped: 0 }, total: 0, failures: [], skipped: [], orphansToDelete: 0, server: { ok: true, message: 'ok', url: 'u', elapsedMs: 1 }, serverUrlFrom: 'x', copies: c } as StatusReport);

describe('the copies Claude Code runs', () => {
  it("reads a build's state format and worker lease from its files: this checkout's sources say the current ones", () => {
    const src = join(dir, 'src-copy');
    mkdirSync(join(src, 'src', 'lib', 'state'), { recursive: true });
    mkdirSync(join(src, 'src', 'lib', 'worker'), { recursive: true });
    copyFileSync(join(REPO_ROOT, 'src', 'lib', 'state', 'format.ts'), join(src, 'src', 'lib', 'state', 'format.ts'));
    copyFileSync(join(REPO_ROOT, 'src', 'lib', 'worker', 'spawn.ts'), join(src, 'src', 'lib', 'worker', 'spawn.ts'));
    expect(stateFormatOf(src)).toBe(STATE_VERSION);
    expect(leasePerFormatOf(src)).toBe(true);
    const older = marketplaceAt(join(dir, 'older'), true);
    expect(stateFormatOf(join(older, 'plugin'))).toBe(1);
    expect(leasePerFormatOf(join(older, 'plugin'))).toBe(false);
  });

  it('an older plugin (directory marketplace) beside the current settings hooks: both named; the plugin is older than the state format, with the step for a folder it is read from', async () => {
    const market = marketplaceAt(join(dir, 'old-checkout'), true);
    pluginInstalled('gms', { source: 'directory', path: market }, join(claudeDir, 'plugins', 'cache', 'gms', 'graphiti-memory-sync', '0.1.0'));
    const pkg = packageAt(join(dir, 'checkout'), false);
    await runInstall({ scope: 'user', home, cwd: project, env: env(), packageRoot: pkg });
    const found = copies();
    expect(found).toEqual([
      expect.objectContaining({ registration: 'plugin', kind: 'plugin-folder', registeredIn: 'graphiti-memory-sync@gms', root: join(market, 'plugin'), version: '0.1.0', stateFormat: 1, leasePerFormat: false }),
      expect.objectContaining({ registration: 'settings hooks', kind: 'folder', scope: 'user', registeredIn: join(claudeDir, 'settings.json'), root: pkg, stateFormat: STATE_VERSION, leasePerFormat: true }),
    ]);
    const judged = judgeCopies(found);
    expect(judged[1]?.problem).toBeUndefined();
    const text = report(judged);
    expect(text).toContain('Claude Code runs 2 copies of graphiti-memory-sync:');
    expect(text).toContain(`plugin graphiti-memory-sync@gms: version 0.1.0, state format 1, from ${join(market, 'plugin')}`);
    expect(text).toContain(`settings hooks (user scope, ${join(claudeDir, 'settings.json')}): version 0.1.0, state format ${STATE_VERSION}, from ${pkg}`);
    expect(text).toMatch(/The plugin graphiti-memory-sync@gms: older than the state format: it writes state format 1 and refuses the format 2 this version writes \("upgrade"\), so its worker syncs nothing; the settings hooks in .* sync in its place\./);
    expect(text).toContain(`Next: Claude Code reads this plugin from the folder ${join(market, 'plugin')} (a directory marketplace): update that folder`);
    expect(text).toContain('"claude plugin uninstall graphiti-memory-sync@gms"');
  });

  it('a plugin from a git marketplace runs from the plugin cache; a build from before the version named its content (0.1.0 in all): the step refreshes the marketplace and installs it again (plugin update keeps an unchanged version)', () => {
    const cache = join(claudeDir, 'plugins', 'cache', 'gms', 'graphiti-memory-sync', '0.1.0');
    marketplaceAt(join(dir, 'unused'), true);
    hookFiles(join(cache, 'hooks'), 'cjs', true);
    cacheManifest(cache, '0.1.0');
    pluginInstalled('gms', { source: 'git', url: 'http://127.0.0.1:1/gms.git' }, cache);
    const found = copies();
    expect(found).toEqual([expect.objectContaining({ registration: 'plugin', kind: 'plugin-cache', root: cache, version: '0.1.0', stateFormat: 1 })]);
    const [judged] = judgeCopies(found);
    expect(judged?.problem).toMatch(/no other copy that reads it runs in Claude Code, so nothing syncs from your sessions/);
    expect(judged?.nextStep).toMatch(/^update it: "claude plugin marketplace update gms", then "claude plugin uninstall graphiti-memory-sync@gms" and "claude plugin install graphiti-memory-sync@gms" \(this copy's version, 0\.1\.0, does not change with its content/);
  });

  it('a plugin from the plugin cache whose version names its content (0.1.0+<hash>): the step is "claude plugin update" alone', () => {
    const cache = join(claudeDir, 'plugins', 'cache', 'gms', 'graphiti-memory-sync', '0.1.0-1a2b3c4d5e6f');
    hookFiles(join(cache, 'hooks'), 'cjs', true);
    cacheManifest(cache, '0.1.0+1a2b3c4d5e6f');
    pluginInstalled('gms', { source: 'git', url: 'http://127.0.0.1:1/gms.git' }, cache);
    const [judged] = judgeCopies(copies());
    expect(judged?.version).toBe('0.1.0+1a2b3c4d5e6f');
    expect(judged?.nextStep).toBe('update it: "claude plugin update graphiti-memory-sync@gms" (it refreshes the marketplace first), and restart Claude Code; or remove it ("claude plugin uninstall graphiti-memory-sync@gms"), since one copy is enough');
    expect(report([judged as CopyReport])).toContain('plugin graphiti-memory-sync@gms: version 0.1.0+1a2b3c4d5e6f, state format 1, from');
  });

  it('the other way round: an older global install\'s settings hooks beside the current plugin: the hooks are named with the global route\'s update step (a newer tarball: the package is not on the registry)', async () => {
    const market = marketplaceAt(join(dir, 'new-checkout'), false);
    pluginInstalled('gms', { source: 'directory', path: market }, join(claudeDir, 'plugins', 'cache', 'x'));
    const global = packageAt(join(dir, 'prefix', 'lib', 'node_modules', 'graphiti-memory-sync'), true);
    await runInstall({ scope: 'user', home, cwd: project, env: env(), packageRoot: global });
    const judged = judgeCopies(copies());
    expect(judged.map((c) => [c.registration, c.kind, c.stateFormat, c.problem === undefined])).toEqual([
      ['plugin', 'plugin-folder', STATE_VERSION, true],
      ['settings hooks', 'global', 1, false],
    ]);
    expect(judged[1]?.problem).toMatch(/the plugin graphiti-memory-sync@gms syncs in its place$/);
    expect(judged[1]?.nextStep).toMatch(/^install the newer version over it: "npm install -g <the newer graphiti-memory-sync tarball>" .*; or remove these hooks \("node .*dist\/cli\.js uninstall --scope user"\), since one copy is enough$/);
  });

  it('an older build of the current format that still shares one worker lease: said that whichever worker starts first decides', async () => {
    const market = marketplaceAt(join(dir, 'old-checkout'), true);
    pluginInstalled('gms', { source: 'directory', path: market }, join(claudeDir, 'plugins', 'cache', 'x'));
    const pkg = packageAt(join(dir, 'checkout'), false);
    writeFileSync(join(pkg, 'dist', 'hooks', 'stop.js'), 'const dir = (0, import_node_path.join)(stateDir, "worker");\n');
    await runInstall({ scope: 'user', home, cwd: project, env: env(), packageRoot: pkg });
    const [plugin] = judgeCopies(copies());
    expect(plugin?.problem).toMatch(/read it, but are of a build that shares one worker with this one: whichever hook starts the worker first decides, and when it is this one nothing syncs$/);
  });

  it('while a part is held as another machine\'s, a copy of the same format from before that check is named: it refuses the state until updated; a copy that reads it is not', async () => {
    const src = join(dir, 'src-copy');
    mkdirSync(join(src, 'src', 'lib', 'state'), { recursive: true });
    copyFileSync(join(REPO_ROOT, 'src', 'lib', 'state', 'format.ts'), join(src, 'src', 'lib', 'state', 'format.ts'));
    expect(readsHeldStateOf(src)).toBe(true);
    const market = marketplaceAt(join(dir, 'before-the-check'), false, '0.2.0');
    expect(readsHeldStateOf(join(market, 'plugin'))).toBe(false);
    pluginInstalled('gms', { source: 'directory', path: market }, join(claudeDir, 'plugins', 'cache', 'x'));
    const pkg = packageAt(join(dir, 'checkout'), false, '0.2.0');
    writeFileSync(join(pkg, 'dist', 'hooks', 'worker.js'), `var STATE_VERSION, HELD_STATE_VERSION;\n  init() {\n    STATE_VERSION = ${STATE_VERSION};\n    HELD_STATE_VERSION = ${HELD_STATE_VERSION};\n  }\n`);
    await runInstall({ scope: 'user', home, cwd: project, env: env(), packageRoot: pkg });
    expect(judgeCopies(copies()).every((c) => c.problem === undefined)).toBe(true);
    const [plugin, hooks] = judgeCopies(copies(), STATE_VERSION, true);
    expect(plugin?.problem).toMatch(/^from before the check for two machines with one origin: .*refuses \("upgrade"\), so its worker syncs nothing until you update it or answer `origin --keep` or `--split`$/);
    expect(plugin?.nextStep).toBeDefined();
    expect(hooks?.problem).toBeUndefined();
    expect(report([plugin as CopyReport])).toMatch(/Next: /);

    // A copy that writes the held state as 3 (before DELETED_ON_PURPOSE: state/format.ts) refuses the 4 this build writes: named too.
    writeFileSync(join(pkg, 'dist', 'hooks', 'worker.js'), `var STATE_VERSION, HELD_STATE_VERSION;\n  init() {\n    STATE_VERSION = ${STATE_VERSION};\n    HELD_STATE_VERSION = 3;\n  }\n`);
    expect(heldStateFormatOf(pkg)).toBe(3);
    expect(judgeCopies(copies(), STATE_VERSION, true)[1]?.problem).toMatch(/^from before the current rules for two machines with one origin: .*the state is written in a format it refuses/);
  });

  it('while pull marks notes lost with their emptied group (pulled.json written as 2), a copy of the same format from before that rule is named: it refuses the ledger until updated; one that reads it is not (EMPTIED_NEEDS_NEWER_LEDGER)', async () => {
    const pkg = packageAt(join(dir, 'checkout'), false, '0.2.0');
    const worker = (emptiedVersion: boolean) =>
      writeFileSync(join(pkg, 'dist', 'hooks', 'worker.js'), `var STATE_VERSION, HELD_STATE_VERSION, PULLED_VERSION${emptiedVersion ? ', EMPTIED_PULLED_VERSION' : ''};\n  init() {\n    STATE_VERSION = ${STATE_VERSION};\n    HELD_STATE_VERSION = ${HELD_STATE_VERSION};\n    PULLED_VERSION = 1;\n${emptiedVersion ? `    EMPTIED_PULLED_VERSION = ${EMPTIED_PULLED_VERSION};\n` : ''}  }\n`);
    worker(false);
    await runInstall({ scope: 'user', home, cwd: project, env: env(), packageRoot: pkg });
    expect(readsEmptiedLedgerOf(pkg)).toBe(false);
    // No mark: nothing to say.
    expect(judgeCopies(copies(), STATE_VERSION, false, false)[0]?.problem).toBeUndefined();
    const [older] = judgeCopies(copies(), STATE_VERSION, false, true);
    expect(older?.problem).toMatch(/^from before the rule that keeps notes lost with an emptied group: while notes are marked so, pulled\.json is written in a version it refuses \("upgrade"\), so its worker pulls and syncs nothing until you update it/);
    expect(older?.nextStep).toBe(updateStep(older as CopyReport));
    expect(report([older as CopyReport])).toMatch(/Next: /);
    // This repository's own state module reads it.
    const src = join(dir, 'src-copy');
    mkdirSync(join(src, 'src', 'lib', 'state'), { recursive: true });
    copyFileSync(join(REPO_ROOT, 'src', 'lib', 'state', 'format.ts'), join(src, 'src', 'lib', 'state', 'format.ts'));
    expect(readsEmptiedLedgerOf(src)).toBe(true);
    worker(true);
    expect(judgeCopies(copies(), STATE_VERSION, false, true)[0]?.problem).toBeUndefined();
  });

  it('two copies of one state format: the lower version is named older than the other; equal copies are not judged', async () => {
    const market = marketplaceAt(join(dir, 'checkout-a'), false, '0.2.0');
    pluginInstalled('gms', { source: 'directory', path: market }, join(claudeDir, 'plugins', 'cache', 'x'));
    const pkg = packageAt(join(dir, 'checkout-b'), false, '0.1.0');
    await runInstall({ scope: 'local', home, cwd: project, env: env(), packageRoot: pkg });
    const judged = judgeCopies(copies());
    expect(judged[0]?.problem).toBeUndefined();
    expect(judged[1]?.problem).toBe(`older than the plugin graphiti-memory-sync@gms (version 0.1.0, state format ${STATE_VERSION} against version 0.2.0, state format ${STATE_VERSION})`);
    expect(judged[1]?.nextStep).toMatch(/--scope local/);
    writeFileSync(join(pkg, 'package.json'), JSON.stringify({ version: '0.2.0' }));
    expect(judgeCopies(copies()).every((c) => c.problem === undefined)).toBe(true);
  });

  it('no copy: status says nothing of copies', () => {
    expect(copies()).toEqual([]);
    expect(report(judgeCopies([]))).not.toMatch(/Claude Code runs/);
  });
});

/**
 * An update that stopped half-way (npm killed mid-extract, a plugin folder copied in part, a
 * rebuild that failed) leaves a hook bundle missing, empty or cut short. The hooks then end quietly,
 * exit 0 (test/hooks/package-replaced.test.ts), session after session, and before this nothing said
 * so anywhere: `status` named the copy as fine. The copies are the committed plugin bundles.
 */
describe('a copy whose bundles an update left half-written', () => {
  /** The committed plugin, as Claude Code runs it from a folder: `<root>/hooks/*.cjs`. */
  function committedPlugin(root: string): void {
    cpSync(join(REPO_ROOT, 'plugin'), root, { recursive: true });
  }
  const cut = (file: string) => writeFileSync(file, readFileSync(file, 'utf8').slice(0, Math.floor(statSync(file).size / 2)));

  it('the plugin read from a folder: whole, nothing is said; a bundle cut short, one empty and one missing are named, with the step that restores them', () => {
    const market = join(dir, 'checkout');
    mkdirSync(join(market, '.claude-plugin'), { recursive: true });
    writeFileSync(join(market, '.claude-plugin', 'marketplace.json'), JSON.stringify({ name: 'gms', plugins: [{ name: 'graphiti-memory-sync', source: './plugin' }] }));
    committedPlugin(join(market, 'plugin'));
    pluginInstalled('gms', { source: 'directory', path: market }, join(claudeDir, 'plugins', 'cache', 'x'));
    const whole = judgeCopies(copies());
    expect(whole).toEqual([expect.objectContaining({ kind: 'plugin-folder', stateFormat: STATE_VERSION })]);
    expect(whole[0]?.incomplete).toBeUndefined();
    expect(whole[0]?.problem).toBeUndefined();

    const hooks = join(market, 'plugin', 'hooks');
    cut(join(hooks, 'stop-main.cjs'));
    writeFileSync(join(hooks, 'worker.cjs'), '');
    rmSync(join(hooks, 'hook-config.cjs'));
    const [judged] = judgeCopies(copies());
    expect(judged?.incomplete).toEqual(['hooks/stop-main.cjs (cut short)', 'hooks/worker.cjs (empty)', 'hooks/hook-config.cjs (missing)']);
    const text = report([judged as CopyReport]);
    expect(text).toContain('The plugin graphiti-memory-sync@gms: incomplete: hooks/stop-main.cjs (cut short), hooks/worker.cjs (empty), hooks/hook-config.cjs (missing), as an update or copy that stopped half-way leaves them; its hooks end quietly (no hook error), so nothing syncs or loads from it.');
    expect(text).toContain(`Next: restore the plugin's committed files: "git -C ${join(market, 'plugin')} checkout -- ." (then "git pull" to update it), then start a new Claude Code session.`);
  });

  // CODE_OURS_ALONE: said by `status`, which the hooks cannot do for themselves.
  it('the plugin read from a checkout in a folder anyone may write to: named, with the folder and the step; made ours alone, nothing is said', () => {
    const shared = join(dir, 'shared');
    const market = join(shared, 'checkout');
    mkdirSync(join(market, '.claude-plugin'), { recursive: true });
    writeFileSync(join(market, '.claude-plugin', 'marketplace.json'), JSON.stringify({ name: 'gms', plugins: [{ name: 'graphiti-memory-sync', source: './plugin' }] }));
    committedPlugin(join(market, 'plugin'));
    pluginInstalled('gms', { source: 'directory', path: market }, join(claudeDir, 'plugins', 'cache', 'x'));
    chmodSync(shared, 0o777);
    const [open] = judgeCopies(copies());
    expect(open?.openToOthers).toBe(`${shared} can be written by others and is not sticky (mode 777)`);
    const text = report([open as CopyReport]);
    expect(text).toContain(`The plugin graphiti-memory-sync@gms: another local user can change the code its hooks run, as you, in every session: ${shared} can be written by others and is not sticky (mode 777).`);
    expect(text).toContain('Next: make that writable by you alone (or root): "chmod go-w" it if it is yours; otherwise install the tool into a folder of yours and remove this copy.');
    // A bundle writable by all, in folders that are fine.
    chmodSync(shared, 0o755);
    chmodSync(join(market, 'plugin', 'hooks', 'worker.cjs'), 0o666);
    expect(judgeCopies(copies())[0]?.openToOthers).toBe(`${join(market, 'plugin', 'hooks', 'worker.cjs')} can be written by others (mode 666)`);
    chmodSync(join(market, 'plugin', 'hooks', 'worker.cjs'), 0o644);
    expect(judgeCopies(copies())[0]?.problem).toBeUndefined();
    expect(judgeCopies(copies())[0]?.openToOthers).toBeUndefined();
  });

  it('the plugin from the cache: the step installs it again (plugin update keeps a cached copy of the same version), whatever else is said of it', () => {
    const cache = join(claudeDir, 'plugins', 'cache', 'gms', 'graphiti-memory-sync', '0.1.0-1a2b3c4d5e6f');
    committedPlugin(cache);
    pluginInstalled('gms', { source: 'git', url: 'http://127.0.0.1:1/gms.git' }, cache);
    rmSync(join(cache, 'hooks', 'session-start-main.cjs'));
    const [judged] = judgeCopies(copies());
    expect(judged?.problem).toMatch(/^incomplete: hooks\/session-start-main\.cjs \(missing\),/);
    expect(judged?.nextStep).toBe('install it again: "claude plugin uninstall graphiti-memory-sync@gms" and "claude plugin install graphiti-memory-sync@gms" ("claude plugin update" keeps a cached copy of the same version), then start a new Claude Code session');
  });

  it("install's settings hooks of a project dependency whose launcher and gate are cut short: named, with npm ci (npm install keeps what it finds installed)", async () => {
    const pkg = join(project, 'node_modules', 'graphiti-memory-sync');
    const hooks = join(pkg, 'dist', 'hooks');
    mkdirSync(hooks, { recursive: true });
    for (const f of readdirSync(join(REPO_ROOT, 'plugin', 'hooks')).filter((f) => f.endsWith('.cjs'))) copyFileSync(join(REPO_ROOT, 'plugin', 'hooks', f), join(hooks, f.replace(/\.cjs$/, '.js')));
    writeFileSync(join(hooks, 'hook.js'), `#!/usr/bin/env node\n${readFileSync(join(hooks, 'stop.js'), 'utf8')}`);
    writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: 'graphiti-memory-sync', version: '0.1.0' }));
    await runInstall({ scope: 'project', home, cwd: project, env: env(), packageRoot: pkg });
    expect(judgeCopies(copies()).map((c) => c.problem)).toEqual([undefined]);
    cut(join(hooks, 'hook.js'));
    cut(join(hooks, 'session-start.js'));
    const [judged] = judgeCopies(copies());
    expect(judged).toMatchObject({ kind: 'project', incomplete: [join('dist', 'hooks', 'session-start.js (cut short)'), join('dist', 'hooks', 'hook.js (cut short)')] });
    expect(judged?.nextStep).toBe(`install the project's dependencies afresh: "cd ${project} && npm ci" ("npm install" keeps a dependency it finds installed), then start a new Claude Code session`);
  });
});
