/**
 * The watcher's sync passes run in a child process (src/lib/watch/pass-process.ts): the pass is
 * the engine's own, with the same result and the same state as a pass run in-process; its
 * errors keep their names (the scheduler's backoff reads them); a child that dies fails its pass
 * and the next pass starts a new one; an idle child exits. Real engine, real test server;
 * synchronisation by the pass's own promise and the child's exit event — never by sleeping.
 */
import { mkdirSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireLock } from '../../src/lib/state/lock.js';
import { loadState } from '../../src/lib/state/state.js';
import { runSync } from '../../src/lib/sync/sync.js';
import { createLogger, type Logger } from '../../src/lib/util/log.js';
import { PackageChangedError, PassProcess, PassProcessExitError, type PassProcessExit } from '../../src/lib/watch/pass-process.js';
import { createWatcher, type Watcher } from '../../src/lib/watch/watch.js';
import { startGraphitiServer, type GraphitiTestServer } from '../support/graphiti-server.js';
import { learning, makeSandbox, type Sandbox } from '../support/sandbox.js';
import { nextEvent, whenQuiet } from './helpers.js';

let server: GraphitiTestServer;
let sb: Sandbox;
const closing: Array<() => Promise<unknown>> = [];

beforeEach(async () => {
  server = await startGraphitiServer({ processingDelayMs: 0 });
  sb = makeSandbox(server.url, { MADEINOZ_KNOWLEDGE_RETRIES: '0', MADEINOZ_KNOWLEDGE_TIMEOUT: '2000', MADEINOZ_KNOWLEDGE_RETRY_DEADLINE: '2000' });
});

afterEach(async () => {
  await Promise.all(closing.splice(0).map((close) => close()));
  await server.close();
  sb.cleanup();
});

function passProcess(options: { idleMs?: number; logger?: Logger; lockTimeoutMs?: number } = {}): PassProcess {
  const passes = new PassProcess({ config: sb.config(), logger: options.logger ?? createLogger({ level: 'silent' }), lockTimeoutMs: options.lockTimeoutMs ?? 2000, idleMs: options.idleMs ?? 60_000 });
  closing.push(() => passes.close());
  return passes;
}

function nextExit(passes: PassProcess): Promise<PassProcessExit> {
  return new Promise((resolve) => passes.once('exit', resolve));
}

function notes(count: number, tag: string): void {
  for (let i = 0; i < count; i++) sb.pai(`LEARNING/SYSTEM/${tag}-${i}.md`, learning(`${tag} ${i}`, `What ${tag} number ${i} taught us.`));
}

const run = (passes: PassProcess) => passes.run(new AbortController().signal);

describe('sync passes in a child process', () => {
  it('gives the same result as a pass in-process: the state it writes is the one the engine reads', async () => {
    notes(12, 'alpha');
    const passes = passProcess();
    const first = await run(passes);
    expect(first).toMatchObject({ added: 12, failed: 0, serverReachable: true });
    expect(passes.started).toBe(1);
    // In-process, on the state the child wrote: nothing left to do.
    await server.whenIdle();
    const inProcess = await runSync(sb.config());
    expect(inProcess).toMatchObject({ added: 0, updated: 0, unchanged: 12, pending: 0 });
    // An edit, a deletion and a new note: the child (still the same one) does what the engine does.
    sb.pai('LEARNING/SYSTEM/alpha-0.md', learning('alpha 0', 'Edited: what alpha number 0 taught us.'));
    notes(1, 'beta');
    const second = await run(passes);
    expect(second).toMatchObject({ added: 1, updated: 1, failed: 0 });
    expect(passes.started).toBe(1);
    await server.whenIdle();
    await runSync(sb.config());
    const contents = server.episodes().map((e) => e.content);
    expect(contents).toHaveLength(13);
    expect(contents.filter((c) => c.includes('Edited: what alpha number 0'))).toHaveLength(1);
    expect(contents.filter((c) => c.includes('What alpha number 0 taught'))).toHaveLength(0);
    const { state } = await loadState(sb.config().stateDir);
    expect(Object.keys(state.files)).toHaveLength(13);
  });

  it('an error in the pass comes back with its name (lock busy → LockTimeoutError), and the child serves the next pass', async () => {
    notes(1, 'gamma');
    const passes = passProcess({ lockTimeoutMs: 100 });
    const lock = await acquireLock(sb.config().stateDir, { label: 'test' });
    const failed = await run(passes).then(
      () => undefined,
      (error: Error) => error,
    );
    expect(failed?.name).toBe('LockTimeoutError');
    expect(failed?.message).toMatch(/test/);
    await lock.release();
    expect(await run(passes)).toMatchObject({ added: 1 });
    expect(passes.started).toBe(1);
  });

  it('a child that dies mid-pass fails that pass with PassProcessExitError; the next pass starts a new child and loses nothing', async () => {
    notes(3, 'delta');
    // Every request takes 3 s: the pass is certainly in flight when the child is killed.
    server.setOptions({ faults: { latencyMs: 3000 } });
    const inFlight = new Promise<void>((resolve) => server.events.once('http', () => resolve()));
    const passes = passProcess();
    const pass = run(passes);
    await inFlight;
    const exited = nextExit(passes);
    process.kill(passes.pid as number, 'SIGKILL');
    await expect(pass).rejects.toBeInstanceOf(PassProcessExitError);
    expect(await exited).toMatchObject({ planned: false, signal: 'SIGKILL' });
    expect(passes.pid).toBeUndefined();
    server.setOptions({ faults: {} });
    // The dead child's lock (its pid is gone) does not block the next pass.
    const again = await run(passes);
    expect(again.pending).toBe(0);
    expect(passes.started).toBe(2);
    await server.whenIdle();
    await runSync(sb.config());
    expect(server.episodes()).toHaveLength(3);
  });

  it("a watch started before the Claude config folder existed takes up the origin kept there once it does: nothing stuck, nothing doubled", async () => {
    // A new machine: the watch starts before Claude Code ever ran, so no folder keeps an origin
    // yet and the watch's config holds the derived one (util/origin.ts).
    notes(1, 'first');
    const passes = passProcess();
    expect(await run(passes)).toMatchObject({ added: 1, pending: 0 });
    await server.whenIdle();
    // The server goes down; a note is saved meanwhile; Claude Code runs for the first time and its
    // hooks' sync keeps an origin in the new folder (taking over what the watch sent and planned).
    await server.stop({ keepState: true });
    notes(1, 'second');
    expect(await run(passes)).toMatchObject({ added: 1, pending: 1, serverReachable: false });
    mkdirSync(sb.path('claude'), { recursive: true });
    const kept = sb.config().origin;
    expect((await runSync(sb.config())).serverReachable).toBe(false);
    // The server is back; the watch goes on, and an edit follows: each note once, under the kept origin.
    await server.start();
    expect(await run(passes)).toMatchObject({ pending: 0, failed: 0, serverReachable: true });
    sb.pai('LEARNING/SYSTEM/first-0.md', learning('first 0', 'Edited: what first number 0 taught us.'));
    expect(await run(passes)).toMatchObject({ updated: 1, pending: 0, failed: 0 });
    await server.whenIdle();
    expect(await run(passes)).toMatchObject({ pending: 0, queued: 0, confirmed: 2 });
    const contents = server.episodes().map((e) => `${e.content} ${e.source_description}`);
    expect(contents.filter((c) => c.includes('Edited: what first number 0'))).toHaveLength(1);
    expect(contents.filter((c) => c.includes('What second number 0'))).toHaveLength(1);
    expect(contents).toHaveLength(2);
    expect(contents.every((c) => c.includes(`:${kept}]`))).toBe(true);
  });

  it('the package replaced on disk while the watch runs (an upgrade, a rebuild): the next pass does not run, the warm child is let go, no child of the new version is started under this watch', async () => {
    notes(2, 'before');
    let onDisk = 'build-1';
    const passes = new PassProcess({ config: sb.config(), logger: createLogger({ level: 'silent' }), lockTimeoutMs: 2000, idleMs: 60_000, fingerprint: () => onDisk });
    closing.push(() => passes.close());
    expect(await run(passes)).toMatchObject({ added: 2 });
    const warm = nextExit(passes);
    onDisk = 'build-2';
    notes(1, 'after');
    const error = await run(passes).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PackageChangedError);
    expect((error as Error).message).toMatch(/watch` again/);
    expect(await warm).toMatchObject({ planned: true, code: 0 });
    passes.prepare(); // a change seen: still no child of the new version
    expect(passes.pid).toBeUndefined();
    expect(passes.started).toBe(1);
    expect(server.calls.filter((c) => c.tool === 'add_memory')).toHaveLength(2);
  });

  it('an idle child exits on its own; the next pass starts a new one', async () => {
    notes(2, 'eps');
    const passes = passProcess({ idleMs: 10 });
    const exited = nextExit(passes);
    expect(await run(passes)).toMatchObject({ added: 2 });
    expect(await exited).toMatchObject({ planned: true, code: 0 });
    expect(passes.pid).toBeUndefined();
    notes(1, 'zeta');
    expect(await run(passes)).toMatchObject({ added: 1 });
    expect(passes.started).toBe(2);
  });

  it("the child's log lines reach the watcher's logger with their fields; lines below the configured level stay in the child", async () => {
    const lines: Array<{ level: string; msg: string; fields: Record<string, unknown> }> = [];
    const recording = (base: Record<string, unknown>): Logger => {
      const at = (level: string) => (msg: string, fields: Record<string, unknown> = {}) => lines.push({ level, msg, fields: { ...base, ...fields } });
      return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error'), child: (f) => recording({ ...base, ...f }), file: undefined };
    };
    notes(1, 'eta');
    const everything = new PassProcess({ config: sb.config({ MADEINOZ_KNOWLEDGE_LOG_LEVEL: 'debug' }), logger: recording({}), lockTimeoutMs: 2000, idleMs: 60_000 });
    closing.push(() => everything.close());
    expect(await run(everything)).toMatchObject({ added: 1 });
    expect(lines.some((l) => l.level === 'debug')).toBe(true);

    // The server goes away and a note waits: the pass warns, and nothing below warn crosses over.
    lines.length = 0;
    notes(1, 'iota');
    await server.stop();
    const warnOnly = new PassProcess({ config: sb.config({ MADEINOZ_KNOWLEDGE_LOG_LEVEL: 'warn' }), logger: recording({}), lockTimeoutMs: 2000, idleMs: 60_000 });
    closing.push(() => warnOnly.close());
    expect((await run(warnOnly)).serverReachable).toBe(false);
    expect(lines.some((l) => l.level === 'warn' && l.fields.component === 'sync')).toBe(true);
    expect(lines.filter((l) => l.level === 'debug' || l.level === 'info')).toEqual([]);
  });
});

describe('watch with passes in a child process', () => {
  let watcher: Watcher | undefined;
  afterEach(async () => {
    await watcher?.stop();
    watcher = undefined;
  });

  it('a pass whose child dies is reported as an error; the watcher keeps going and the retry syncs the save', async () => {
    mkdirSync(sb.path('pai', 'MEMORY', 'LEARNING', 'SYSTEM'), { recursive: true });
    watcher = createWatcher({ config: sb.config(), debounceMs: 50, writeStableMs: 30, errorBackoff: { initialMs: 50, maxMs: 200 }, confirmBackoff: { initialMs: 50, maxMs: 300 }, lockTimeoutMs: 500 });
    const initial = nextEvent(watcher, 'pass', (e) => e.reason === 'initial');
    await watcher.start();
    await initial;
    await whenQuiet(watcher);
    // Requests hang for 3 s; the pass in flight loses its process.
    server.setOptions({ faults: { latencyMs: 3000 } });
    const inFlight = new Promise<void>((resolve) => server.events.once('http', () => resolve()));
    const error = nextEvent(watcher, 'error', (e) => e.origin === 'pass');
    const synced = nextEvent(watcher, 'pass', (e) => e.added === 1);
    sb.pai('LEARNING/SYSTEM/theta.md', learning('theta', 'Saved while the pass process died.'));
    await inFlight;
    const pids = processesOf(watcher);
    server.setOptions({ faults: {} });
    for (const pid of pids) process.kill(pid, 'SIGKILL');
    expect((await error).message).toMatch(/sync pass process stopped/);
    expect((await error).fatal).toBe(false);
    await synced;
    await server.whenIdle();
    await whenQuiet(watcher);
    expect(server.episodes().filter((e) => e.content.includes('Saved while the pass process died'))).toHaveLength(1);
  });
});

describe('watch starts its pass process ahead of the pass', () => {
  let watcher: Watcher | undefined;
  afterEach(async () => {
    await watcher?.stop();
    watcher = undefined;
  });

  it('a change starts the pass process while the write settles, and the pass runs in it', async () => {
    mkdirSync(sb.path('pai', 'MEMORY', 'LEARNING', 'SYSTEM'), { recursive: true });
    // The process exits as soon as a pass is over: every change needs a new one.
    watcher = createWatcher({ config: sb.config(), debounceMs: 50, writeStableMs: 30, confirmBackoff: { initialMs: 50, maxMs: 300 }, passProcessIdleMs: 0 });
    const initial = nextEvent(watcher, 'pass', (e) => e.reason === 'initial');
    await watcher.start();
    await initial;
    await whenQuiet(watcher);
    const w = watcher;
    const waiting = nextEvent(w, 'phase', (e) => e.phase === 'settling' || e.phase === 'debouncing').then(() => w.passProcessPid);
    const started = nextEvent(w, 'pass-start').then(() => w.passProcessPid);
    const synced = nextEvent(w, 'pass', (e) => e.added === 1);
    sb.pai('LEARNING/SYSTEM/kappa.md', learning('kappa', 'Saved to an idle watch.'));
    const pidWhileWaiting = await waiting;
    expect(pidWhileWaiting).toBeDefined();
    expect(await started).toBe(pidWhileWaiting);
    await synced;
  });
});

/** The pid of the watcher's pass process (the child of this process running the engine). */
function processesOf(w: Watcher): number[] {
  const pid = w.passProcessPid;
  return pid === undefined ? [] : [pid];
}
