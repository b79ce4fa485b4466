/**
 * Two copies of the tool of different ages under the REAL Claude Code CLI: an older plugin (the
 * committed bundles of e49abc6, the last build before state format 2, installed from a directory
 * marketplace) beside the current package's settings hooks (`install --scope user`), with the
 * state already in format 2 (the current copy has run).
 *
 * Before, both copies' hooks raced for one worker lease; the older plugin's worker won it, took
 * the current copy's requests, refused the state ("upgrade") and synced nothing, so the notes
 * Claude wrote never reached the graph until the plugin was updated. Now the current copy always
 * runs its own worker (worker/spawn.ts: one lease per state format): every note reaches the
 * graph once, the block reaches the model once, and `status` names the older plugin.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readContextCache } from '../../src/lib/context/cache.js';
import { claudeProjectKey } from '../../src/lib/context/project.js';
import { STATE_VERSION } from '../../src/lib/state/format.js';
import { isProcessAlive } from '../../src/lib/util/process-alive.js';
import { readLock, sharedWorkerFilesOfOlderBuilds, workerFiles } from '../../src/lib/worker/spawn.js';
import { waitForCondition } from '../hooks/helpers.js';
import type { GraphitiTestServer } from '../support/graphiti-server.js';
import type { FakeAnthropic } from './fake-anthropic.js';
import { DEPLOY_FACT as FACT, useDeployWorld } from './use-claude-world.js';
import { hookRuns, injectedContexts, ROOT, type ClaudeBox } from './harness.js';

const EARLIER = 'Releases are cut from the main branch.';

/** The last commit whose plugin bundles write state format 1 (git log -- src/lib/state/format.ts: its parent). */
const OLDER_BUILD = 'e49abc6';

let api: FakeAnthropic;
let graphiti: GraphitiTestServer;
let box: ClaudeBox;

useDeployWorld((w) => {
  ({ api, graphiti, box } = w);
});

/**
 * Whether the older build is in this checkout's history. A shallow clone (`git clone --depth 1`) has
 * none: the two cases are skipped there, saying why, rather than failing for how the checkout was
 * made (test/hooks/worker-versions.test.ts covers the same race with a stand-in older worker).
 */
const OLDER_BUILD_HERE = spawnSync('git', ['-C', ROOT, 'cat-file', '-e', `${OLDER_BUILD}^{commit}`]).status === 0;
if (!OLDER_BUILD_HERE) console.warn(`plugin-versions.claude.test.ts: commit ${OLDER_BUILD} is not in this checkout (a shallow clone?): its two cases are skipped; fetch the full history to run them`);

/** The older build's marketplace folder: its manifest and its committed plugin bundles. */
function olderMarketplace(into: string): string {
  mkdirSync(into, { recursive: true });
  const archive = spawnSync('sh', ['-c', `git -C "${ROOT}" archive ${OLDER_BUILD} .claude-plugin plugin | tar -x -C "${into}"`]);
  expect(archive.status, String(archive.stderr)).toBe(0);
  expect(readFileSync(join(into, 'plugin', 'hooks', 'worker.cjs'), 'utf8')).toMatch(/\bSTATE_VERSION = 1;/);
  return into;
}

/** `node dist/cli.js <args>` without blocking this process, where the test's Graphiti server runs (box.gms is synchronous). */
function cli(args: string[]): Promise<number | null> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [join(ROOT, 'dist', 'cli.js'), ...args], { cwd: box.project, env: box.env, stdio: 'ignore' });
    child.on('error', fail);
    child.on('close', done);
  });
}

/** The older build as a package (its sources, built here): what a global install of it holds. Returns its cli.js. */
function olderPackage(into: string): string {
  olderMarketplace(into);
  const archive = spawnSync('sh', ['-c', `git -C "${ROOT}" archive ${OLDER_BUILD} | tar -x -C "${into}"`]);
  expect(archive.status, String(archive.stderr)).toBe(0);
  // Its package-lock is this checkout's: the same dependencies.
  symlinkSync(join(ROOT, 'node_modules'), join(into, 'node_modules'));
  const build = spawnSync('npm', ['run', '--silent', 'build'], { cwd: into, encoding: 'utf8' });
  expect(build.status, build.stderr).toBe(0);
  expect(readFileSync(join(into, 'dist', 'hooks', 'worker.js'), 'utf8')).toMatch(/\bSTATE_VERSION = 1;/);
  return join(into, 'dist', 'cli.js');
}

/** The current copy has run (a sync of a note written before): the state is in the format the older build refuses. */
async function stateWrittenByTheCurrentCopy(): Promise<void> {
  mkdirSync(box.memoryDir, { recursive: true });
  writeFileSync(join(box.memoryDir, 'releases.md'), `---\nname: releases\ndescription: a note\ntype: project\n---\n${EARLIER}\n`);
  expect(await cli(['sync'])).toBe(0);
  expect(JSON.parse(readFileSync(join(box.stateDir, 'state.json'), 'utf8')).version).toBe(STATE_VERSION);
}

/** No worker of either build runs any more. */
function workersIdle(): boolean {
  return [workerFiles(box.stateDir).pidFile, sharedWorkerFilesOfOlderBuilds(box.stateDir).pidFile].every((f) => {
    const holder = readLock(f);
    return holder === undefined || !isProcessAlive(holder.pid);
  });
}

const episodesSaying = (text: string) => graphiti.episodes('main').filter((e) => e.content.includes(text));

/** Three sessions (Claude writes a note, then the person edits notes between sessions): every note reaches the graph once. */
async function sessionsSyncOnce(): Promise<void> {
  // Session 1: Claude writes a note. Sessions 2 and 3: the person edits their notes between sessions.
  const notes = [
    { file: 'deploy.md', says: 'The deploy pipeline has a canary stage.' },
    { file: 'canary.md', says: 'The canary takes five percent of the traffic.' },
    { file: 'freeze.md', says: 'The deploy freeze starts on Friday.' },
  ];
  for (const [i, note] of notes.entries()) {
    if (i > 0) writeFileSync(join(box.memoryDir, note.file), `---\nname: ${note.file.replace(/\.md$/, '')}\ndescription: a note\ntype: project\n---\n${note.says}\n`);
    const run = await box.claude(i === 0 ? ['-p', `WRITE ${join(box.memoryDir, note.file)}`, '--allowedTools', 'Write'] : ['-p', 'hello']);
    expect(run.code).toBe(0);
    // Both copies' hooks ran, the plugin's and the settings'.
    expect(hookRuns(run.debug).filter((r) => r.event === 'Stop').map((r) => r.status)).toEqual([0, 0]);
    await waitForCondition(box.stateDir, () => episodesSaying(note.says).length > 0, 30_000, `${note.file} in the graph (session ${i + 1})`);
  }
  await waitForCondition(box.stateDir, workersIdle, 30_000, 'the workers of both builds to finish');
  await graphiti.whenIdle();
  for (const note of notes) expect(episodesSaying(note.says), note.file).toHaveLength(1);
  expect(graphiti.calls.filter((c) => c.tool === 'add_memory')).toHaveLength(notes.length + 1);
  expect(episodesSaying(EARLIER)).toHaveLength(1);
}

describe('an older plugin beside the current settings hooks, real Claude Code CLI', () => {
  it.runIf(OLDER_BUILD_HERE)('every note Claude writes reaches the graph once, the block reaches the model once, and status names the older plugin', async () => {
    const market = olderMarketplace(join(box.root, 'older-gms'));
    expect(box.claudeSync(['plugin', 'marketplace', 'add', market]).code).toBe(0);
    expect(box.claudeSync(['plugin', 'install', 'graphiti-memory-sync@graphiti-memory-sync']).code).toBe(0);
    expect(box.gms(['install', '--scope', 'user']).code).toBe(0);
    // The current copy has run (a sync of a note written before): the state is in the format the older build refuses.
    await stateWrittenByTheCurrentCopy();

    await sessionsSyncOnce();

    await waitForCondition(box.stateDir, () => (readContextCache(box.stateDir, claudeProjectKey(box.project))?.text ?? '').includes(FACT), 30_000, 'the context cache');
    const later = await box.claude(['-p', 'hello again']);
    expect(later.code).toBe(0);
    expect(hookRuns(later.debug).filter((r) => r.event === 'SessionStart')).toHaveLength(2);
    const contexts = injectedContexts(api.requests[api.requests.length - 1] as Record<string, unknown>);
    expect(contexts).toHaveLength(1);
    expect(contexts[0]).toContain(FACT);
    await waitForCondition(box.stateDir, workersIdle, 30_000, 'the workers of both builds to finish');

    const status = box.gms(['status']);
    expect(status.stdout).toContain(`plugin graphiti-memory-sync@graphiti-memory-sync: version 0.1.0, state format 1, from ${join(market, 'plugin')}`);
    expect(status.stdout).toMatch(/The plugin graphiti-memory-sync@graphiti-memory-sync: older than the state format: .* the settings hooks in .* sync in its place\./);
    expect(status.stdout).toContain(`Next: Claude Code reads this plugin from the folder ${join(market, 'plugin')}`);
    expect(existsSync(join(box.stateDir, 'state.json'))).toBe(true);
  }, 240_000);
});

describe('the current plugin beside an older install\'s settings hooks, real Claude Code CLI', () => {
  it.runIf(OLDER_BUILD_HERE)('every note reaches the graph once, and status names the older settings hooks', async () => {
    // The older build built as a package and its own `install` run: the settings hooks it writes.
    const olderCli = olderPackage(join(box.root, 'older-package'));
    expect(box.claudeSync(['plugin', 'marketplace', 'add', ROOT]).code).toBe(0);
    expect(box.claudeSync(['plugin', 'install', 'graphiti-memory-sync@graphiti-memory-sync']).code).toBe(0);
    expect(box.gms(['install', '--scope', 'user'], { cli: olderCli }).code).toBe(0);
    await stateWrittenByTheCurrentCopy();

    await sessionsSyncOnce();

    const status = box.gms(['status']);
    expect(status.stdout).toContain(`settings hooks (user scope, ${join(box.claudeDir, 'settings.json')}): version 0.1.0, state format 1, from ${join(box.root, 'older-package')}`);
    expect(status.stdout).toMatch(/The settings hooks in .* \(user scope\): older than the state format: .* the plugin graphiti-memory-sync@graphiti-memory-sync syncs in its place\./);
    // The step for a copy in a plain folder (util/install-route.ts updateStepFor, 2026-12-06 fifth session).
    expect(status.stdout).toContain(`Next: put the newer version in place of ${join(box.root, 'older-package')}`);
  }, 300_000);
});
