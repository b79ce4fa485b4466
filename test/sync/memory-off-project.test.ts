/**
 * MEMORY_OFF_LEFT_OUT (config/claude-memory.ts): a project whose own local settings turn Claude Code's
 * auto memory off has no memory folder for Claude Code (measured: test/claude/memory-location.claude.test.ts),
 * so its default `projects/<key>/memory` is not synced either, while every other project's is; its
 * notes already in the graph stay (unseen, not deleted), `status` says the folder is left out, and
 * turned on again the folder is synced as before. The watch takes no event from there.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { collectStatus, formatStatus } from '../../src/commands/reports.js';
import { claudeProjectKey } from '../../src/lib/context/project.js';
import { resolveSources } from '../../src/lib/memory/sources.js';
import { loadState } from '../../src/lib/state/state.js';
import { runSync } from '../../src/lib/sync/sync.js';
import { nullLogger } from '../../src/lib/util/log.js';
import { createPathFilter } from '../../src/lib/watch/filter.js';
import type { GraphitiTestServer } from '../support/graphiti-server.js';
import type { Sandbox } from '../support/sandbox.js';
import { useServerAndSandbox } from '../helpers/use-server-and-sandbox.js';

let server: GraphitiTestServer;
let box: Sandbox;
useServerAndSandbox((s, b) => {
  server = s;
  box = b;
});

const note = (word: string) => `---\nname: ${word}\ndescription: the ${word} note\ntype: project\n---\nThe ${word} decision stands.\n`;

/** Two projects Claude Code knows; `quiet` gets its own local settings. */
function twoProjects(): { quiet: string; other: string; localSettings: string } {
  const quiet = box.path('work', 'quiet');
  const other = box.path('work', 'other');
  mkdirSync(join(quiet, '.claude'), { recursive: true });
  mkdirSync(other, { recursive: true });
  mkdirSync(box.path('claude'), { recursive: true });
  writeFileSync(box.path('claude', '.claude.json'), JSON.stringify({ projects: { [quiet]: {}, [other]: {} } }));
  box.auto(claudeProjectKey(quiet), 'quiet.md', note('quiet'));
  box.auto(claudeProjectKey(other), 'other.md', note('other'));
  return { quiet, other, localSettings: join(quiet, '.claude', 'settings.local.json') };
}

const sentWords = () => server.episodes().map((e) => /The (\w+) decision/.exec(e.content)?.[1]).sort();

describe('a project whose local settings turn auto memory off (MEMORY_OFF_LEFT_OUT)', () => {
  it('its default memory folder is not synced, the others are; status says it is left out and how to sync it again', async () => {
    const { quiet, localSettings } = twoProjects();
    writeFileSync(localSettings, JSON.stringify({ autoMemoryEnabled: false }));
    await runSync(box.config(), { waitMs: 5000 });
    expect(sentWords()).toEqual(['other']);
    const text = formatStatus(await collectStatus(box.config(), nullLogger));
    expect(text).toContain(`Left out: ${box.path('claude', 'projects', claudeProjectKey(quiet), 'memory')}, the auto memory of ${quiet}: auto memory is off for that project (${localSettings})`);
  });

  it('the same by the local settings\' env CLAUDE_CODE_DISABLE_AUTO_MEMORY', async () => {
    const { localSettings } = twoProjects();
    writeFileSync(localSettings, JSON.stringify({ env: { CLAUDE_CODE_DISABLE_AUTO_MEMORY: '1' } }));
    await runSync(box.config(), { waitMs: 5000 });
    expect(sentWords()).toEqual(['other']);
  });

  it('turned off after a sync: its notes stay in the graph, even one deleted meanwhile (unseen, not gone); turned on again, it catches up', async () => {
    const { quiet, localSettings } = twoProjects();
    await runSync(box.config(), { waitMs: 5000 });
    expect(sentWords()).toEqual(['other', 'quiet']);
    writeFileSync(localSettings, JSON.stringify({ autoMemoryEnabled: false }));
    rmSync(box.path('claude', 'projects', claudeProjectKey(quiet), 'memory', 'quiet.md'));
    box.auto(claudeProjectKey(quiet), 'later.md', note('later'));
    await runSync(box.config(), { waitMs: 5000 });
    expect(sentWords()).toEqual(['other', 'quiet']);
    const { state } = await loadState(box.config().stateDir);
    expect(Object.values(state.files).map((f) => f.relPath).sort()).toEqual([`${claudeProjectKey(box.path('work', 'other'))}/memory/other.md`, `${claudeProjectKey(quiet)}/memory/quiet.md`].sort());
    expect(state.orphans).toEqual([]);
    writeFileSync(localSettings, JSON.stringify({ autoMemoryEnabled: true }));
    await runSync(box.config(), { waitMs: 5000 });
    expect(sentWords()).toEqual(['later', 'other']);
  });

  it('the watch takes no event from its folder, and still takes the other projects\'', () => {
    const { quiet, other, localSettings } = twoProjects();
    writeFileSync(localSettings, JSON.stringify({ autoMemoryEnabled: false }));
    const filter = createPathFilter(resolveSources(box.config()));
    expect(filter.classify(box.path('claude', 'projects', claudeProjectKey(quiet), 'memory', 'quiet.md'), 'file')).toBeUndefined();
    expect(filter.classify(box.path('claude', 'projects', claudeProjectKey(other), 'memory', 'other.md'), 'file')).toMatchObject({ source: 'auto-memory' });
  });

  it('status names only the folders left out that hold notes: a known project with no memory folder is not said to be left out (LEFT_OUT_WHERE_NOTES_ARE)', async () => {
    const { quiet, localSettings } = twoProjects();
    // Off for every project but on in `quiet`: `other` (with notes) and ten projects never given a memory folder are left out.
    const bare = Array.from({ length: 10 }, (_, i) => box.path('work', `bare-${i}`));
    for (const p of bare) mkdirSync(p, { recursive: true });
    writeFileSync(box.path('claude', '.claude.json'), JSON.stringify({ projects: Object.fromEntries([quiet, box.path('work', 'other'), ...bare].map((p) => [p, {}])) }));
    writeFileSync(box.path('claude', 'settings.json'), JSON.stringify({ autoMemoryEnabled: false }));
    writeFileSync(localSettings, JSON.stringify({ autoMemoryEnabled: true }));
    const text = formatStatus(await collectStatus(box.config(), nullLogger));
    const leftOut = text.split('\n').filter((l) => l.startsWith('Left out: '));
    expect(leftOut).toHaveLength(1);
    expect(leftOut[0]).toContain(`Left out: ${box.path('claude', 'projects', claudeProjectKey(box.path('work', 'other')), 'memory')}, the auto memory of ${box.path('work', 'other')}`);
  });

  it('a run with nothing to do does not connect while a project left out has notes synced before (the early handshake reads inLeftOutProject)', async () => {
    const { localSettings } = twoProjects();
    await runSync(box.config(), { waitMs: 5000 });
    await server.whenIdle();
    writeFileSync(localSettings, JSON.stringify({ autoMemoryEnabled: false }));
    await runSync(box.config());
    server.clearLogs();
    const idle = await runSync(box.config());
    expect(idle).toMatchObject({ unchanged: 1 });
    expect(server.http).toHaveLength(0);
  });

  it('off for every project but on in one (ON_ONLY_WHERE_TURNED_ON): a project Claude Code does not know keeps its notes in the graph, unseen, and flipped back they are neither deleted nor sent again', async () => {
    const { quiet, localSettings } = twoProjects();
    box.auto(claudeProjectKey(box.path('work', 'unknown')), 'stray.md', note('stray'));
    await runSync(box.config(), { waitMs: 5000 });
    await server.whenIdle();
    expect(sentWords()).toEqual(['other', 'quiet', 'stray']);
    const adds = () => server.calls.filter((c) => c.tool === 'add_memory').length;
    const sent = adds();
    writeFileSync(box.path('claude', 'settings.json'), JSON.stringify({ autoMemoryEnabled: false }));
    writeFileSync(localSettings, JSON.stringify({ autoMemoryEnabled: true }));
    expect(resolveSources(box.config()).find((s) => s.name === 'auto-memory')?.onlyProjects).toEqual([claudeProjectKey(quiet)]);
    await runSync(box.config(), { waitMs: 5000 });
    expect(sentWords()).toEqual(['other', 'quiet', 'stray']);
    expect((await loadState(box.config().stateDir)).state.orphans).toEqual([]);
    writeFileSync(box.path('claude', 'settings.json'), JSON.stringify({}));
    await runSync(box.config(), { waitMs: 5000 });
    expect(sentWords()).toEqual(['other', 'quiet', 'stray']);
    expect(adds()).toBe(sent);
  });
});
