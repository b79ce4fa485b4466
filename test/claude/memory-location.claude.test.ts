/**
 * Where the REAL Claude Code CLI (each pinned generation, scripts/test/claude-code.mjs) keeps memory,
 * against a loopback FAKE Anthropic API whose fake model writes a note into the memory folder the
 * CLI's system prompt names (issue 26): a moved folder (autoMemoryDirectory in the user or local
 * settings, CLAUDE_COWORK_MEMORY_PATH_OVERRIDE, CLAUDE_CODE_REMOTE_MEMORY_DIR) and a team store
 * (CLAUDE_MEMORY_STORES) are where our resolver says, and the note reaches the graph after Stop; a
 * forked session carries the context once. The managed settings (/etc/claude-code, seen by that run
 * alone through harness.ts `managedSettings`), their drop-ins, `autoMemoryEnabled` and the settings'
 * `env`: in every measured combination our resolver names the folder the CLI names, or none as it
 * does; `--settings` is followed by the CLI and, measured, invisible to a hook. A project whose local
 * settings turn auto memory off: the CLI loads nothing of its default folder, and the sync leaves it
 * out (MEMORY_OFF_LEFT_OUT). `npm run test:claude`.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectMemoryFolder } from '../../src/lib/config/claude-memory.js';
import { claudeProjectKey } from '../../src/lib/context/project.js';
import { parseMarker } from '../../src/lib/memory/episode.js';
import { teamOrigin } from '../../src/lib/memory/sources.js';
import { readContextCache } from '../../src/lib/context/cache.js';
import type { GraphitiTestServer } from '../support/graphiti-server.js';
import { waitForCondition } from '../helpers/wait-for-condition.js';
import { memoryFolderNamed, type FakeAnthropic } from './fake-anthropic.js';
import { hookRuns, injectedContexts, waitForEvent, type ClaudeBox } from './harness.js';
import { useClaudeWorld } from './use-claude-world.js';
// @ts-expect-error plain ESM script without types
import { CLAUDE_CODE_VERSION } from '../../scripts/test/claude-code.mjs';

const NOTE = '---\nname: queue-decision\ndescription: which queue the jobs use\nmetadata:\n  type: project\n---\nWe decided to use the shared queue for background jobs. See [[billing-retries]].\n';

let api: FakeAnthropic;
let graphiti: GraphitiTestServer;
let box: ClaudeBox;

useClaudeWorld(NOTE, (w) => {
  ({ api, graphiti, box } = w);
  expect(box.gms(['install', '--scope', 'user']).code).toBe(0);
});

/** One `-p` session in which the fake model saves `queue.md` where the CLI says memory lives; returns that folder. */
async function rememberInSession(env: Record<string, string> = {}, options: { managedSettings?: boolean; args?: string[] } = {}): Promise<string> {
  const run = await box.claude(['-p', 'REMEMBER queue.md', '--allowedTools', 'Write', ...(options.args ?? [])], { env, managedSettings: options.managedSettings });
  expect(run.code).toBe(0);
  expect(run.stderr).toBe('');
  expect(hookRuns(run.debug).find((r) => r.event === 'Stop')?.status).toBe(0);
  const folder = memoryFolderNamed(api.requests[0] as Record<string, unknown>);
  expect(folder).toBeDefined();
  expect(existsSync(join(folder as string, 'queue.md'))).toBe(true);
  return (folder as string).replace(/\/$/, '');
}

async function reachesGraph(): Promise<void> {
  await waitForEvent(graphiti.events, ['processed', 'call'], () => graphiti.episodes().some((e) => e.content.includes('shared queue for background jobs')), 'the remembered note as an episode', 60_000);
}

function settings(file: string, value: Record<string, unknown>): void {
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, JSON.stringify({ ...(existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as object) : {}), ...value }));
}

const resolved = (env: Record<string, string>) => projectMemoryFolder({ ...box.env, ...env }, box.claudeDir, box.env.HOME as string, box.project, claudeProjectKey(box.project), box.managedDir)?.dir;

/** The memory folder the CLI names in one `-p` session's system prompt (none when auto memory is off). */
async function namedFolder(env: Record<string, string> = {}, options: { managedSettings?: boolean; args?: string[] } = {}): Promise<string | undefined> {
  const run = await box.claude(['-p', 'hello', ...(options.args ?? [])], { env, managedSettings: options.managedSettings });
  expect(run.code).toBe(0);
  expect(run.stderr).toBe('');
  return memoryFolderNamed(api.requests[api.requests.length - 1] as Record<string, unknown>)?.replace(/\/$/, '');
}

describe(`real Claude Code ${CLAUDE_CODE_VERSION}: memory where the CLI keeps it (fake Anthropic API)`, () => {
  it('autoMemoryDirectory in the user settings (~/ expanded): the note lands there, as our resolver says, and reaches the graph after Stop', async () => {
    settings(join(box.claudeDir, 'settings.json'), { autoMemoryDirectory: '~/notes/claude-memory' });
    const folder = await rememberInSession();
    expect(folder).toBe(join(box.env.HOME as string, 'notes', 'claude-memory'));
    expect(resolved({})).toBe(folder);
    await reachesGraph();
  }, 120_000);

  it('autoMemoryDirectory in the local settings wins over the user settings', async () => {
    settings(join(box.claudeDir, 'settings.json'), { autoMemoryDirectory: '~/notes/everything' });
    settings(join(box.project, '.claude', 'settings.local.json'), { autoMemoryDirectory: '~/notes/this-project' });
    const folder = await rememberInSession();
    expect(folder).toBe(join(box.env.HOME as string, 'notes', 'this-project'));
    expect(resolved({})).toBe(folder);
  }, 120_000);

  it('autoMemoryDirectory in the checked-in project settings: the CLI in -p follows it (measured), we deliberately do not', async () => {
    // A repository must not choose which of a person's folders go to a shared graph: a clone could
    // point it at ~/ and every .md file there would be sent. Claude Code itself only writes there.
    settings(join(box.project, '.claude', 'settings.json'), { autoMemoryDirectory: '~/from-the-repository' });
    const folder = await rememberInSession();
    expect(folder).toBe(join(box.env.HOME as string, 'from-the-repository'));
    expect(resolved({})).toBe(box.memoryDir);
  }, 120_000);

  for (const [variable, where] of [
    ['CLAUDE_COWORK_MEMORY_PATH_OVERRIDE', (root: string) => join(root, 'cowork-memory')],
    ['CLAUDE_CODE_REMOTE_MEMORY_DIR', (root: string) => join(root, 'remote')],
  ] as const) {
    it(`${variable}: the note lands where our resolver says and reaches the graph after Stop`, async () => {
      const env = { [variable]: where(box.root) };
      const folder = await rememberInSession(env);
      expect(resolved(env)).toBe(folder);
      if (variable === 'CLAUDE_CODE_REMOTE_MEMORY_DIR') expect(folder).toBe(join(box.root, 'remote', 'projects', claudeProjectKey(box.project), 'memory'));
      else expect(folder).toBe(where(box.root));
      await reachesGraph();
    }, 120_000);
  }

  it('CLAUDE_CODE_DISABLE_AUTO_MEMORY: the CLI names no memory folder, and neither do we', async () => {
    const run = await box.claude(['-p', 'hello'], { env: { CLAUDE_CODE_DISABLE_AUTO_MEMORY: '1' } });
    expect(run.code).toBe(0);
    expect(memoryFolderNamed(api.requests[0] as Record<string, unknown>)).toBeUndefined();
    expect(resolved({ CLAUDE_CODE_DISABLE_AUTO_MEMORY: '1' })).toBeUndefined();
  }, 120_000);

  it('autoMemoryEnabled false in the project\'s local settings: the CLI names no memory folder and loads nothing of the default one; we leave that folder out and status says so; turned on, both take it up (MEMORY_OFF_LEFT_OUT)', async () => {
    const INDEX_LINE = '- [Queue](queue.md) — QUEUE-INDEX-MEASURE';
    mkdirSync(box.memoryDir, { recursive: true });
    writeFileSync(join(box.memoryDir, 'queue.md'), NOTE);
    writeFileSync(join(box.memoryDir, 'MEMORY.md'), `${INDEX_LINE}\n`);
    const local = join(box.project, '.claude', 'settings.local.json');
    settings(local, { autoMemoryEnabled: false });
    // The project as Claude Code knows it once a person has opened it (the interactive UI's trust
    // dialog records it in .claude.json; a `-p` run records nothing there, measured): the projects
    // whose local settings we read are those (claude-memory.ts knownProjects).
    settings(join(box.claudeDir, '.claude.json'), { projects: { [box.project]: { hasTrustDialogAccepted: true } } });
    const off = await box.claude(['-p', 'hello']);
    expect({ code: off.code, stderr: off.stderr }).toEqual({ code: 0, stderr: '' });
    const offRequest = api.requests[api.requests.length - 1] as Record<string, unknown>;
    expect(memoryFolderNamed(offRequest)).toBeUndefined();
    expect(JSON.stringify(offRequest)).not.toContain('QUEUE-INDEX-MEASURE');
    await box.workersDone();
    const firstSync = box.gms(['sync']);
    expect(firstSync.code, `${firstSync.stdout}${firstSync.stderr}`).toBe(0);
    expect(graphiti.episodes().some((e) => e.content.includes('shared queue for background jobs'))).toBe(false);
    expect(box.gms(['status']).stdout).toContain(`Left out: ${box.memoryDir}, the auto memory of ${box.project}: auto memory is off for that project (${local})`);
    // The control: on again, the CLI loads the folder's index, and the note reaches the graph.
    settings(local, { autoMemoryEnabled: true });
    const on = await box.claude(['-p', 'hello']);
    expect(on.code).toBe(0);
    const onRequest = api.requests[api.requests.length - 1] as Record<string, unknown>;
    expect(memoryFolderNamed(onRequest)?.replace(/\/$/, '')).toBe(box.memoryDir);
    expect(JSON.stringify(onRequest)).toContain('QUEUE-INDEX-MEASURE');
    await box.workersDone();
    // The Stop hook's worker sent it already; a sync exits 1 while an episode is still queued.
    box.gms(['sync']);
    await reachesGraph();
  }, 180_000);

  it('autoMemoryDirectory in the MANAGED settings (/etc/claude-code) wins over the local and user settings, and the note reaches the graph after Stop', async () => {
    settings(join(box.claudeDir, 'settings.json'), { autoMemoryDirectory: '~/notes/everything' });
    settings(join(box.project, '.claude', 'settings.local.json'), { autoMemoryDirectory: '~/notes/this-project' });
    settings(join(box.managedDir, 'managed-settings.json'), { autoMemoryDirectory: join(box.root, 'company-memory') });
    const folder = await rememberInSession({}, { managedSettings: true });
    expect(folder).toBe(join(box.root, 'company-memory'));
    expect(resolved({})).toBe(folder);
    await reachesGraph();
  }, 120_000);

  it('--settings moves it over the user settings: the CLI follows it; nothing a hook receives names it (input, environment), so we keep to the user settings', async () => {
    const probe = join(box.root, 'hook-saw');
    const installed = JSON.parse(readFileSync(join(box.claudeDir, 'settings.json'), 'utf8')) as { hooks: Record<string, unknown[]> };
    const saw = { type: 'command', command: `{ cat; env; } > '${probe}'` };
    settings(join(box.claudeDir, 'settings.json'), { autoMemoryDirectory: '~/notes/everything', hooks: { ...installed.hooks, SessionStart: [...(installed.hooks.SessionStart ?? []), { hooks: [saw] }] } });
    const flagFile = join(box.root, 'flag-settings.json');
    writeFileSync(flagFile, JSON.stringify({ autoMemoryDirectory: join(box.root, 'from-the-flag') }));
    expect(await namedFolder({}, { args: ['--settings', flagFile] })).toBe(join(box.root, 'from-the-flag'));
    const hookSaw = readFileSync(probe, 'utf8');
    expect(hookSaw).toContain('"hook_event_name":"SessionStart"');
    expect(hookSaw).not.toContain('flag-settings');
    expect(hookSaw).not.toContain('from-the-flag');
    expect(resolved({})).toBe(join(box.env.HOME as string, 'notes', 'everything'));
  }, 120_000);

  it('managed, local and user settings, their env and the environment: the folder the CLI names, or none, is the one our resolver names (every measured combination)', async () => {
    const userFile = join(box.claudeDir, 'settings.json');
    const installed = JSON.parse(readFileSync(userFile, 'utf8')) as Record<string, unknown>;
    const at = (name: string) => join(box.root, name);
    const off = { CLAUDE_CODE_DISABLE_AUTO_MEMORY: '1' };
    const scenarios: Array<[string, { user?: object; local?: object; managed?: object; dropIn?: object; shell?: Record<string, string> }]> = [
      ['autoMemoryEnabled false (user)', { user: { autoMemoryEnabled: false } }],
      ['env CLAUDE_CODE_DISABLE_AUTO_MEMORY 1 (user)', { user: { env: off } }],
      ['env CLAUDE_CODE_DISABLE_AUTO_MEMORY true (managed)', { managed: { env: { CLAUDE_CODE_DISABLE_AUTO_MEMORY: 'true' } } }],
      ['autoMemoryEnabled false (managed)', { managed: { autoMemoryEnabled: false } }],
      ['autoMemoryEnabled false (local)', { local: { autoMemoryEnabled: false } }],
      ['autoMemoryEnabled true (managed) over false (user)', { managed: { autoMemoryEnabled: true }, user: { autoMemoryEnabled: false } }],
      ['autoMemoryEnabled true (local) over false (user)', { local: { autoMemoryEnabled: true }, user: { autoMemoryEnabled: false } }],
      ['environment 0 over autoMemoryEnabled false (user)', { user: { autoMemoryEnabled: false }, shell: { CLAUDE_CODE_DISABLE_AUTO_MEMORY: '0' } }],
      ['env 0 (user) over the environment 1', { user: { env: { CLAUDE_CODE_DISABLE_AUTO_MEMORY: '0' } }, shell: off }],
      ['env 0 over autoMemoryEnabled false (user)', { user: { autoMemoryEnabled: false, env: { CLAUDE_CODE_DISABLE_AUTO_MEMORY: '0' } } }],
      ['autoMemoryDirectory managed over local', { managed: { autoMemoryDirectory: at('managed') }, local: { autoMemoryDirectory: at('local') } }],
      ['autoMemoryDirectory managed over user', { managed: { autoMemoryDirectory: at('managed') }, user: { autoMemoryDirectory: at('user') } }],
      ['a managed-settings.d drop-in over managed-settings.json', { managed: { autoMemoryDirectory: at('managed') }, dropIn: { autoMemoryDirectory: at('drop-in') } }],
      ['a managed-settings.d drop-in alone', { dropIn: { autoMemoryDirectory: at('drop-in') } }],
      ['an unusable managed autoMemoryDirectory: the default, not the local one', { managed: { autoMemoryDirectory: 'relative' }, local: { autoMemoryDirectory: at('local') } }],
    ];
    const cli: string[] = [];
    const ours: string[] = [];
    for (const [name, c] of scenarios) {
      rmSync(box.managedDir, { recursive: true, force: true });
      mkdirSync(join(box.managedDir, 'managed-settings.d'), { recursive: true });
      rmSync(join(box.project, '.claude', 'settings.local.json'), { force: true });
      writeFileSync(userFile, JSON.stringify({ ...installed, ...(c.user ?? {}) }));
      if (c.local) settings(join(box.project, '.claude', 'settings.local.json'), c.local as Record<string, unknown>);
      if (c.managed) writeFileSync(join(box.managedDir, 'managed-settings.json'), JSON.stringify(c.managed));
      if (c.dropIn) writeFileSync(join(box.managedDir, 'managed-settings.d', '50-memory.json'), JSON.stringify(c.dropIn));
      cli.push(`${name}: ${(await namedFolder(c.shell ?? {}, { managedSettings: true })) ?? 'none'}`);
      ours.push(`${name}: ${resolved(c.shell ?? {}) ?? 'none'}`);
    }
    expect(ours).toEqual(cli);
    // Not one answer everywhere: the combinations turn it off, move it and leave it (so the comparison can fail).
    expect(new Set(cli.map((line) => line.replace(/^[^:]*: /, ''))).size).toBeGreaterThanOrEqual(4);
  }, 600_000);

  it('a team memory store (CLAUDE_MEMORY_STORES): mounted at memory/team/<store>, synced as the team store’s one episode', async () => {
    const folder = await rememberInSession({ CLAUDE_MEMORY_STORES: JSON.stringify([{ path: '/stores/acme-web', scope: 'team', mode: 'rw' }]) });
    expect(folder).toBe(join(box.memoryDir, 'team', 'acme-web'));
    await reachesGraph();
    const episode = graphiti.episodes().find((e) => e.content.includes('shared queue'));
    expect(parseMarker(episode?.source_description)?.origin).toBe(teamOrigin('acme-web'));
  }, 120_000);

  it('a forked session (--fork-session) carries the context once', async () => {
    graphiti.seedFact({ fact: 'The billing queue retries failed invoices every 6 hours', group_id: 'main' });
    const file = join(box.memoryDir, 'queue.md');
    mkdirSync(box.memoryDir, { recursive: true });
    writeFileSync(file, NOTE);
    // A first session builds the project's context cache (its worker), the second one carries it.
    await box.claude(['-p', 'hello']);
    await waitForCondition(box.stateDir, () => (readContextCache(box.stateDir, claudeProjectKey(box.project))?.text ?? '').includes('shared queue'), 30_000, 'the context cache');
    const session = '4f6c1b5e-8d7a-4c3b-9e2f-0a1b2c3d4e5f';
    const parent = await box.claude(['-p', 'hello', '--session-id', session]);
    expect(parent.code).toBe(0);
    expect(injectedContexts(api.requests[api.requests.length - 1] as Record<string, unknown>)).toHaveLength(1);
    const fork = await box.claude(['-p', 'and again', '--resume', session, '--fork-session']);
    expect(fork.code).toBe(0);
    expect(fork.stderr).toBe('');
    // No pinned generation (2.1.330, 2.1.332, 2.1.337) runs SessionStart for `-p --resume --fork-session`
    // (measured here, so a generation that starts to shows): the fork carries the parent's block. Where a
    // fork does run it (source "fork"), the hook adds none (test/hooks/session-start.test.ts), so it is
    // once either way.
    for (const run of hookRuns(fork.debug)) expect(run.status).toBe(0);
    expect(hookRuns(fork.debug).map((r) => r.event)).toEqual(['Stop']);
    const contexts = injectedContexts(api.requests[api.requests.length - 1] as Record<string, unknown>);
    expect(contexts).toHaveLength(1);
    expect(contexts[0]).toContain('shared queue');
  }, 120_000);
});
