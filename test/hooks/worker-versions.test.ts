/**
 * Two copies of the tool of different ages in one Claude Code (the plugin beside install's settings
 * hooks): every copy's hooks start a worker. A build older than the state format refuses the state
 * ("upgrade") and syncs nothing; released builds cannot change, so this build must never wait for
 * one. Before, all builds shared one worker lease and queue: the older copy's worker took the
 * lease (its bundles start first), took this copy's requests with it, and nothing synced until
 * the older copy was updated (repro: an older plugin bundle of e49abc6 beside the current settings
 * hooks, and the other way round).
 *
 * The older build's worker is played by a process that does what it does: it holds the lease they
 * all shared (`worker/worker.pid`, its token on its command line) and eats the queue beside it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HELD_STATE_VERSION, STATE_VERSION } from '../../src/lib/state/format.js';
import { sharedWorkerFilesOfOlderBuilds, WORKER_STATE_FORMAT, workerFiles } from '../../src/lib/worker/spawn.js';
import type { GraphitiTestServer } from '../support/graphiti-server.js';
import { runHook, type HookSandbox } from '../helpers/hook-runner.js';
import { useHookWorker, waitForWorkers } from '../helpers/use-hook-worker.js';

let server: GraphitiTestServer;
let sb: HookSandbox;
let project: string;
let memory: string;
let older: ChildProcess | undefined;

const stop = (n: number) => JSON.stringify({ session_id: `s${n}`, cwd: project, hook_event_name: 'Stop', stop_hook_active: false });

useHookWorker((w) => {
  ({ server, sb, project, memory } = w);
});

/** A live worker of an older build: it holds the shared lease and takes every request written beside it, and syncs nothing (it refuses the state). */
async function olderWorkerRunning(shared = sharedWorkerFilesOfOlderBuilds(sb.stateDir)): Promise<{ eaten: string }> {
  mkdirSync(shared.dir, { recursive: true });
  const eaten = join(sb.root, 'eaten-by-the-older-worker');
  const token = 'older-build-worker-token';
  older = spawn(
    process.execPath,
    [
      '-e',
      `const fs = require('node:fs');
       const [dir, eaten] = process.argv.slice(1);
       const eat = () => { try { fs.appendFileSync(eaten, fs.readFileSync(dir + '/worker.dirty')); fs.unlinkSync(dir + '/worker.dirty'); } catch {} };
       fs.watch(dir, eat); eat(); process.stdout.write('ready\\n'); setTimeout(() => {}, 120000);`,
      shared.dir,
      eaten,
      token,
    ],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  await new Promise<void>((ready) => older?.stdout?.once('data', () => ready()));
  // As a build of before this rule writes it (pid, token, time; no start time).
  writeFileSync(shared.pidFile, `${JSON.stringify({ pid: older.pid, token, startedAt: new Date().toISOString() })}\n`);
  return { eaten };
}

afterEach(() => {
  older?.kill('SIGKILL');
  older = undefined;
});

describe('copies of the tool of different ages', () => {
  it('the worker lease and queue are named by the newest state format this build writes', () => {
    expect(WORKER_STATE_FORMAT).toBe(HELD_STATE_VERSION);
    expect(workerFiles('/s').pidFile).toBe(join('/s', 'worker', `format-${HELD_STATE_VERSION}`, 'worker.pid'));
    expect(workerFiles('/s', STATE_VERSION).pidFile).not.toBe(workerFiles('/s').pidFile);
    expect(sharedWorkerFilesOfOlderBuilds('/s').pidFile).not.toBe(workerFiles('/s').pidFile);
  });

  it("an older build's worker holding the lease they shared: this build's Stop still starts its own worker, and the note reaches the graph once", async () => {
    const { eaten } = await olderWorkerRunning();
    writeFileSync(join(memory, 'deploy.md'), '---\nname: deploy\ndescription: how we deploy\ntype: project\n---\nThe deploy freeze starts on Friday.\n');
    const run = await runHook('stop', sb.env, { input: stop(1) });
    expect(run).toMatchObject({ code: 0, stdout: '', stderr: '' });
    await waitForWorkers(sb, 1, 20_000);
    await server.whenIdle();
    expect(server.episodes('main').filter((e) => e.name.includes('deploy'))).toHaveLength(1);
    // Nothing of this build's went to the older build's queue, where its worker would take it.
    expect(existsSync(eaten)).toBe(false);
    expect(sb.logs().find((l) => l.component === 'worker' && String(l.msg).startsWith('a worker of an older build runs beside this one'))).toMatchObject({ pid: older?.pid });
    expect(JSON.parse(readFileSync(join(sb.stateDir, 'state.json'), 'utf8')).version).toBe(STATE_VERSION);

    // An edit and more turns: synced once each, never sent twice.
    writeFileSync(join(memory, 'deploy.md'), '---\nname: deploy\ndescription: how we deploy\ntype: project\n---\nThe deploy freeze starts on Thursday.\n');
    await runHook('stop', sb.env, { input: stop(2) });
    await waitForWorkers(sb, 2, 20_000);
    await server.whenIdle();
    await runHook('stop', sb.env, { input: stop(3) });
    await waitForWorkers(sb, 3, 20_000);
    await server.whenIdle();
    const sent = server.calls.filter((c) => c.tool === 'add_memory').map((c) => String(c.args.episode_body));
    expect(sent.filter((b) => b.includes('Friday'))).toHaveLength(1);
    expect(sent.filter((b) => b.includes('Thursday'))).toHaveLength(1);
    expect(existsSync(eaten)).toBe(false);
  }, 60_000);

  it("a held state (written in the held version) with a build from before COPY_HOLD beside this one: its worker holds the format-2 lease and refuses the state; this build's Stop still starts its own worker, and the edit reaches the graph once", async () => {
    const as = (machine: string) => ({ ...sb.env, MADEINOZ_KNOWLEDGE_MACHINE_ID: machine });
    const note = (day: string) => `---\nname: deploy\ndescription: how we deploy\ntype: project\n---\nThe deploy freeze starts on ${day}.\n`;
    writeFileSync(join(memory, 'deploy.md'), note('Friday'));
    await runHook('stop', as('machine-a'), { input: stop(1) });
    await waitForWorkers(sb, 1, 20_000);
    await server.whenIdle();
    // The home copied: this machine takes the state up, and its edit holds the other machine's episode.
    writeFileSync(join(memory, 'deploy.md'), note('Thursday'));
    await runHook('stop', as('machine-b'), { input: stop(2) });
    await waitForWorkers(sb, 2, 20_000);
    await server.whenIdle();
    expect(JSON.parse(readFileSync(join(sb.stateDir, 'state.json'), 'utf8')).version).toBe(HELD_STATE_VERSION);

    // A copy of a build from before COPY_HOLD (it writes format 2, and refuses 3: "upgrade") runs its worker.
    const { eaten } = await olderWorkerRunning(workerFiles(sb.stateDir, STATE_VERSION));
    writeFileSync(join(memory, 'deploy.md'), note('Wednesday'));
    const run = await runHook('stop', as('machine-b'), { input: stop(3) });
    expect(run).toMatchObject({ code: 0, stdout: '', stderr: '' });
    await waitForWorkers(sb, 3, 20_000);
    await server.whenIdle();
    const sent = server.calls.filter((c) => c.tool === 'add_memory').map((c) => String(c.args.episode_body));
    expect(sent.filter((b) => b.includes('Wednesday'))).toHaveLength(1);
    expect(server.episodes('main').map((e) => e.content.split('\n').at(-1))).toEqual(expect.arrayContaining(['The deploy freeze starts on Wednesday.', 'The deploy freeze starts on Friday.']));
    expect(existsSync(eaten)).toBe(false);
    expect(sb.logs().find((l) => l.component === 'worker' && String(l.msg).startsWith('a worker of an older build runs beside this one'))).toMatchObject({ pid: older?.pid });
  }, 90_000);
});
