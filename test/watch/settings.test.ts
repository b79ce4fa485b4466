/**
 * Settings changed while `watch` runs (watch/settings-change.ts): each pass takes up the settings
 * as they stand at its start, and a change of a settings file owes a pass. Real engine, real pass
 * process, real chokidar, the Graphiti-shaped test server; the settings come from a `.env` file the
 * test edits, as a person would. Synchronisation is by the watcher's own events, never by sleeping.
 */
import { lstatSync, mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig, settingsFilesOf } from '../../src/lib/config/config.js';
import { createWatcher, type Watcher, type WatcherOptions } from '../../src/lib/watch/watch.js';
import { startGraphitiServer, type GraphitiTestServer } from '../support/graphiti-server.js';
import { learning, makeSandbox, type Sandbox } from '../support/sandbox.js';
import { FAST_WATCH as FAST, nextEvent, record, toolCalls, whenQuiet } from './helpers.js';
import { writeNamedNote } from '../helpers/named-notes.js';
import { cli } from '../../src/lib/util/install-route.js';

/** The running copy's command (this checkout's: node and the path of its dist/cli.js), as a regular expression. */
const CLI = cli().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

let server: GraphitiTestServer;
let sb: Sandbox;
const watchers: Watcher[] = [];
const servers: GraphitiTestServer[] = [];

beforeEach(async () => {
  server = await startGraphitiServer({ processingDelayMs: 0 });
  sb = makeSandbox(server.url, { MADEINOZ_KNOWLEDGE_RETRIES: '0', MADEINOZ_KNOWLEDGE_TIMEOUT: '2000', MADEINOZ_KNOWLEDGE_RETRY_DEADLINE: '2000' });
});

afterEach(async () => {
  await Promise.all(watchers.splice(0).map((w) => w.stop()));
  await Promise.all([server, ...servers.splice(0)].map((s) => s.close()));
  sb.cleanup();
});

/** The sandbox's environment, with the server, group and folders left to the settings file. */
function settingsEnv(): Record<string, string> {
  const { MADEINOZ_KNOWLEDGE_MCP_URL: _url, MADEINOZ_KNOWLEDGE_GROUP_ID: _group, MADEINOZ_KNOWLEDGE_STATE_DIR: _state, ...env } = sb.env;
  return { ...env, MADEINOZ_KNOWLEDGE_ENV_FILE: sb.path('settings.env') };
}

/** Writes the settings file as a person would (the state folder stays where it is unless given); `file` if given, else the one the watch reads. */
function writeSettings(lines: Record<string, string>, file = sb.path('settings.env')): void {
  const all = { MADEINOZ_KNOWLEDGE_STATE_DIR: sb.path('state'), ...lines };
  writeFileSync(file, Object.entries(all).map(([k, v]) => `${k}=${v}\n`).join(''));
}

const note = writeNamedNote;
const learningDir = () => sb.path('pai', 'MEMORY', 'LEARNING', 'SYSTEM');
const sentTo = (s: GraphitiTestServer, group?: string) => s.episodes(group).map((e) => e.content.match(/note \w+/)?.[0]).sort();

async function startWatcher(initial: Record<string, string>, options: Partial<WatcherOptions> = {}) {
  writeSettings(initial);
  mkdirSync(learningDir(), { recursive: true });
  const env = settingsEnv();
  const config = await loadConfig({ env });
  const watcher = createWatcher({ config, ...FAST, ...options, settings: { reload: () => loadConfig({ env }), files: (c) => settingsFilesOf(c, env) } });
  watchers.push(watcher);
  const events = record(watcher);
  const first = nextEvent(watcher, 'pass', (e) => e.reason === 'initial');
  await watcher.start();
  await first;
  await server.whenIdle();
  await whenQuiet(watcher);
  return { watcher, events };
}

describe('settings changed while the watch runs', () => {
  it('a folder added: watched and synced from the next pass, which the settings change itself starts', async () => {
    const notes = sb.path('data', 'N');
    note(notes, 'n', 'note n in a folder added later');
    const { watcher } = await startWatcher({ MADEINOZ_KNOWLEDGE_MCP_URL: server.url });
    expect(watcher.sources.map((s) => s.name)).toEqual(['pai', 'auto-memory']);
    const taken = nextEvent(watcher, 'settings');
    const synced = nextEvent(watcher, 'pass', (e) => e.added === 1);
    writeSettings({ MADEINOZ_KNOWLEDGE_MCP_URL: server.url, MADEINOZ_KNOWLEDGE_SYNC_PATHS: `notes=${notes}` });
    expect((await taken).added).toEqual([`notes=${notes}`]);
    await synced;
    await server.whenIdle();
    await whenQuiet(watcher);
    expect(sentTo(server)).toEqual(['note n']);
    // Watched now: a new note there is seen and sent.
    const later = nextEvent(watcher, 'pass', (e) => e.added === 1);
    note(notes, 'm', 'note m written in the added folder');
    await later;
    await server.whenIdle();
    expect(sentTo(server)).toEqual(['note m', 'note n']);
  });

  it('a folder removed: no longer watched or sent, and its notes stay in the graph, even once its files are deleted', async () => {
    const notes = sb.path('data', 'N');
    note(notes, 'n', 'note n in a folder removed later');
    const { watcher } = await startWatcher({ MADEINOZ_KNOWLEDGE_MCP_URL: server.url, MADEINOZ_KNOWLEDGE_SYNC_PATHS: `notes=${notes}` });
    expect(sentTo(server)).toEqual(['note n']);
    const taken = nextEvent(watcher, 'settings');
    writeSettings({ MADEINOZ_KNOWLEDGE_MCP_URL: server.url });
    const change = await taken;
    expect(change.removed).toEqual([`notes=${notes}`]);
    expect(change.notes.join(' ')).toMatch(/stay in the graph \(taking a folder out of the settings deletes nothing\)/);
    await whenQuiet(watcher);
    // The folder's files deleted, then a note written elsewhere: only that one is seen.
    const changes: string[] = [];
    watcher.on('change', (e) => changes.push(e.path));
    const later = nextEvent(watcher, 'pass', (e) => e.added === 1);
    rmSync(join(notes, 'n.md'));
    writeFileSync(join(learningDir(), 'x.md'), learning('X', 'note x in pai'));
    const pass = await later;
    expect(pass.deleted).toBe(0);
    expect(changes.map((p) => p.split('/').at(-1))).toEqual(['x.md']);
    await server.whenIdle();
    await whenQuiet(watcher);
    expect(sentTo(server)).toEqual(['note n', 'note x']);
    expect(toolCalls(server, 'delete_episode')).toHaveLength(0);
  });

  it('unnamed folders renumbered (the first taken out of the list while it is still there): the pass holds the renamed source, nothing deleted, the next step named', async () => {
    const [a, b] = [sb.path('data', 'A'), sb.path('data', 'B')];
    note(a, 'a', 'note a in the first unnamed folder');
    note(b, 'b', 'note b in the second unnamed folder');
    const { watcher } = await startWatcher({ MADEINOZ_KNOWLEDGE_MCP_URL: server.url, MADEINOZ_KNOWLEDGE_SYNC_PATHS: `${a}:${b}` });
    expect(sentTo(server)).toEqual(['note a', 'note b']);
    const held = nextEvent(watcher, 'pass', (e) => e.summary.problems.some((p) => p.reason === 'source-renamed'));
    writeSettings({ MADEINOZ_KNOWLEDGE_MCP_URL: server.url, MADEINOZ_KNOWLEDGE_SYNC_PATHS: b });
    const pass = await held;
    expect(pass.deleted).toBe(0);
    expect(pass.summary.problems.find((p) => p.reason === 'source-renamed')?.message).toContain(`the source "extra1" is ${b} now, but its notes in the graph are those of ${a}, which is still there`);
    await server.whenIdle();
    await whenQuiet(watcher);
    expect(sentTo(server)).toEqual(['note a', 'note b']);
    expect(toolCalls(server, 'delete_episode')).toHaveLength(0);
    expect(toolCalls(server, 'add_memory')).toHaveLength(2);
    // Named as the message says: the first folder taken out, the second kept as it was.
    const named = nextEvent(watcher, 'pass', (e) => e.summary.problems.length === 0);
    writeSettings({ MADEINOZ_KNOWLEDGE_MCP_URL: server.url, MADEINOZ_KNOWLEDGE_SYNC_PATHS: `extra2=${b}` });
    expect((await named).deleted).toBe(0);
    await whenQuiet(watcher);
    await server.whenIdle();
    expect(sentTo(server)).toEqual(['note a', 'note b']);
    expect(toolCalls(server, 'delete_episode')).toHaveLength(0);
    expect(toolCalls(server, 'add_memory')).toHaveLength(2);
  });

  it('the group changed: new notes go to the new group, nothing is deleted in the old one', async () => {
    writeFileSync(join(mkdirOf(learningDir()), 'a.md'), learning('A', 'note a sent to main'));
    const { watcher } = await startWatcher({ MADEINOZ_KNOWLEDGE_MCP_URL: server.url, MADEINOZ_KNOWLEDGE_GROUP_ID: 'main' });
    expect(sentTo(server, 'main')).toEqual(['note a']);
    const taken = nextEvent(watcher, 'settings');
    writeSettings({ MADEINOZ_KNOWLEDGE_MCP_URL: server.url, MADEINOZ_KNOWLEDGE_GROUP_ID: 'team' });
    const change = await taken;
    expect(change.changed).toEqual(['groupId']);
    expect(change.notes.join(' ')).toMatch(/group now team \(was main\).*nothing is deleted for this change.*sync --force/);
    await whenQuiet(watcher);
    const later = nextEvent(watcher, 'pass', (e) => e.added === 1);
    writeFileSync(join(learningDir(), 'b.md'), learning('B', 'note b written after the change'));
    await later;
    await server.whenIdle();
    await whenQuiet(watcher);
    expect(sentTo(server, 'main')).toEqual(['note a']);
    expect(sentTo(server, 'team')).toEqual(['note b']);
    expect(toolCalls(server, 'delete_episode')).toHaveLength(0);
  });

  it('the server URL changed: the next notes go to the new server; the old one is sent nothing more and nothing is deleted there', async () => {
    writeFileSync(join(mkdirOf(learningDir()), 'a.md'), learning('A', 'note a sent to the first server'));
    const { watcher } = await startWatcher({ MADEINOZ_KNOWLEDGE_MCP_URL: server.url });
    const second = await startGraphitiServer({ processingDelayMs: 0 });
    servers.push(second);
    const callsBefore = server.calls.length;
    const taken = nextEvent(watcher, 'settings');
    writeSettings({ MADEINOZ_KNOWLEDGE_MCP_URL: second.url });
    const change = await taken;
    expect(change.changed).toContain('mcpUrl');
    expect(change.notes.join(' ')).toContain(`server now ${second.url}`);
    const later = nextEvent(watcher, 'pass', (e) => e.summary.added >= 1 && e.serverReachable);
    writeFileSync(join(learningDir(), 'b.md'), learning('B', 'note b written after the move'));
    await later;
    await second.whenIdle();
    await whenQuiet(watcher);
    expect(sentTo(second)).toContain('note b');
    expect(server.calls.slice(callsBefore).filter((c) => c.tool === 'add_memory' || c.tool === 'delete_episode')).toEqual([]);
    expect(sentTo(server)).toEqual(['note a']);
  });

  it('bad settings written mid-watch: said once with the next step, the watch goes on with the last good ones; fixed, they are taken up', async () => {
    const { watcher, events } = await startWatcher({ MADEINOZ_KNOWLEDGE_MCP_URL: server.url });
    const refused = nextEvent(watcher, 'error', (e) => e.origin === 'settings');
    writeSettings({ MADEINOZ_KNOWLEDGE_MCP_URL: server.url, MADEINOZ_KNOWLEDGE_DB: 'mysql' });
    const error = await refused;
    expect(error.fatal).toBe(false);
    expect(error.message).toMatch(/^settings not taken up: MADEINOZ_KNOWLEDGE_DB.*The watch goes on with the settings it had; fix the setting and save the file/);
    // Still syncing, on the last good settings; the error is not said again at every pass.
    const later = nextEvent(watcher, 'pass', (e) => e.added === 1);
    writeFileSync(join(learningDir(), 'a.md'), learning('A', 'note a written while the settings were bad'));
    await later;
    await server.whenIdle();
    await whenQuiet(watcher);
    expect(sentTo(server)).toEqual(['note a']);
    expect(events.filter((e) => e.event === 'error' && e.origin === 'settings')).toHaveLength(1);
    const fixed = nextEvent(watcher, 'settings');
    writeSettings({ MADEINOZ_KNOWLEDGE_MCP_URL: server.url, MADEINOZ_KNOWLEDGE_GROUP_ID: 'team' });
    expect((await fixed).changed).toEqual(['groupId']);
    expect(watcher.config.groupId).toBe('team');
  });

  it('every folder switched off mid-watch: refused, the watch keeps watching and syncing (it did hang: chokidar is never ready with nothing to watch)', async () => {
    const { watcher } = await startWatcher({ MADEINOZ_KNOWLEDGE_MCP_URL: server.url });
    const refused = nextEvent(watcher, 'error', (e) => e.origin === 'settings');
    writeSettings({ MADEINOZ_KNOWLEDGE_MCP_URL: server.url, MADEINOZ_KNOWLEDGE_SYNC_PAI: 'false', MADEINOZ_KNOWLEDGE_SYNC_AUTO_MEMORY: 'false' });
    expect((await refused).message).toMatch(/enable no memory folder/);
    await whenQuiet(watcher);
    const later = nextEvent(watcher, 'pass', (e) => e.added === 1);
    writeFileSync(join(learningDir(), 'a.md'), learning('A', 'note a after the refusal'));
    await later;
    await server.whenIdle();
    expect(sentTo(server)).toEqual(['note a']);
  });

  it('another state folder in the settings: refused as a whole (the watch keeps its state, lock and log), with the next step', async () => {
    const { watcher } = await startWatcher({ MADEINOZ_KNOWLEDGE_MCP_URL: server.url });
    const refused = nextEvent(watcher, 'error', (e) => e.origin === 'settings');
    writeSettings({ MADEINOZ_KNOWLEDGE_MCP_URL: server.url, MADEINOZ_KNOWLEDGE_STATE_DIR: sb.path('elsewhere'), MADEINOZ_KNOWLEDGE_GROUP_ID: 'team' });
    expect((await refused).message).toMatch(new RegExp(String.raw`another state folder .*elsewhere.*the watch keeps .*state and the settings it had\. Restart \`${CLI} watch\``));
    expect(watcher.config.stateDir).toBe(sb.path('state'));
    expect(watcher.config.groupId).toBe('main');
    await whenQuiet(watcher);
    const later = nextEvent(watcher, 'pass', (e) => e.added === 1);
    writeFileSync(join(learningDir(), 'a.md'), learning('A', 'note a after the refusal'));
    await later;
    await server.whenIdle();
    expect(sentTo(server, 'main')).toEqual(['note a']);
  });

  it("a project's auto memory turned on in its own local settings: taken up at once, its notes synced (PROJECT_SWITCH_WATCHED)", async () => {
    const project = mkdirOf(sb.path('work', 'app'));
    const key = project.replace(/[^a-zA-Z0-9]/g, '-');
    const localSettings = join(mkdirOf(join(project, '.claude')), 'settings.local.json');
    writeFileSync(join(mkdirOf(sb.path('claude')), '.claude.json'), JSON.stringify({ projects: { [project]: {} } }));
    writeFileSync(localSettings, JSON.stringify({ autoMemoryEnabled: false }));
    sb.auto(key, 'build.md', '---\nname: Build\ndescription: how the app builds\ntype: project\n---\nnote b: the build uses Bun.\n');
    const { watcher } = await startWatcher({ MADEINOZ_KNOWLEDGE_MCP_URL: server.url });
    // Off for that project (MEMORY_OFF_LEFT_OUT): its folder is left out.
    expect(sentTo(server)).toEqual([]);
    const taken = nextEvent(watcher, 'settings');
    const synced = nextEvent(watcher, 'pass', (e) => e.added === 1);
    writeFileSync(localSettings, JSON.stringify({ autoMemoryEnabled: true }));
    await Promise.all([taken, synced]);
    await server.whenIdle();
    expect(sentTo(server)).toEqual(['note b']);
  });
});

// Dotfiles managers (stow, chezmoi, yadm) keep settings files in a repository and link them into place.
describe.each([
  { name: 'native events', options: {} },
  { name: '--poll', options: { poll: true, pollIntervalMs: 100 } },
])('a settings file that is a symbolic link into a dotfiles folder ($name)', ({ options }) => {
  it('every change of what it leads to is taken up: an edit, a save by rename, the file deleted and written anew; pointed at another file, that file is watched and the old one no longer', async () => {
    const dot = sb.path('dotfiles');
    mkdirSync(dot, { recursive: true });
    const [mine, other] = [join(dot, 'gms.env'), join(dot, 'work.env')];
    // A relative link, as stow makes them.
    symlinkSync(join('dotfiles', 'gms.env'), sb.path('settings.env'));
    const url = { MADEINOZ_KNOWLEDGE_MCP_URL: server.url };
    const { watcher } = await startWatcher(url, options);
    expect(lstatSync(sb.path('settings.env')).isSymbolicLink()).toBe(true);
    const takenUp = async (group: string, change: () => void) => {
      const taken = nextEvent(watcher, 'settings', (e) => e.changed.includes('groupId'), 10_000);
      change();
      await taken;
      expect(watcher.config.groupId).toBe(group);
      await whenQuiet(watcher);
    };
    await takenUp('edited', () => writeSettings({ ...url, MADEINOZ_KNOWLEDGE_GROUP_ID: 'edited' }, mine));
    await takenUp('renamed', () => {
      writeSettings({ ...url, MADEINOZ_KNOWLEDGE_GROUP_ID: 'renamed' }, `${mine}.tmp`);
      renameSync(`${mine}.tmp`, mine);
    });
    // Deleted (a checkout of a branch without it): said, the watch goes on with what it had.
    const missing = nextEvent(watcher, 'error', (e) => e.origin === 'settings', 10_000);
    rmSync(mine);
    await missing;
    await whenQuiet(watcher);
    await takenUp('anew', () => writeSettings({ ...url, MADEINOZ_KNOWLEDGE_GROUP_ID: 'anew' }, mine));
    // Pointed at another file (ln -sfn: a new link renamed over the old one).
    writeSettings({ ...url, MADEINOZ_KNOWLEDGE_GROUP_ID: 'work' }, other);
    await takenUp('work', () => {
      symlinkSync(join('dotfiles', 'work.env'), sb.path('settings.env.new'));
      renameSync(sb.path('settings.env.new'), sb.path('settings.env'));
    });
    await takenUp('work-edited', () => writeSettings({ ...url, MADEINOZ_KNOWLEDGE_GROUP_ID: 'work-edited' }, other));
    // The file it led to before is no longer the settings: an edit there changes nothing, a note goes to the group the link's file names.
    writeSettings({ ...url, MADEINOZ_KNOWLEDGE_GROUP_ID: 'stale' }, mine);
    const sent = nextEvent(watcher, 'pass', (e) => e.added === 1, 10_000);
    writeFileSync(join(learningDir(), 'a.md'), learning('A', 'note a after the link moved'));
    await sent;
    await server.whenIdle();
    expect(watcher.config.groupId).toBe('work-edited');
    expect(sentTo(server, 'work-edited')).toEqual(['note a']);
    expect(sentTo(server, 'stale')).toEqual([]);
  });
});

function mkdirOf(dir: string): string {
  mkdirSync(dir, { recursive: true });
  return dir;
}
