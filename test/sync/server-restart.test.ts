/**
 * The local server (`server start`) stopped and started again, or restarted by `server restart`,
 * `server upgrade` or its user service, while our episodes waited in its queue. Graphiti keeps
 * its queue in memory: what it had not processed is gone with the process. The runtime file says
 * when the running server started, so the next sync knows at once which of ours were queued with
 * a server that is gone, and sends exactly those again (the ones it had processed are confirmed,
 * not sent twice). Before, they waited for the group's patience: with a group never seen moving,
 * MADEINOZ_KNOWLEDGE_CONFIRM_MAX_AGE (30 minutes), while `status` and `sync --wait` said Graphiti
 * was still working on them.
 *
 * The fake server stands in for Graphiti (its restart() loses the queue, as the real one does:
 * docs in shared/reference/real-graphiti-server.md); runtime.json names it as the local server,
 * its supervisor a stand-in process (test/support/fake-supervisor.ts).
 */
import { mkdirSync, rmSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FRONT_PROOF_TTL_MS, mcpTokenPath, readRuntime, writeRuntime } from '../../src/lib/config/server-runtime.js';
import { startMcpFront } from '../../src/lib/server/mcp-front.js';
import { newSecretFile } from '../../src/lib/server/private-files.js';
import { formatSyncSummary } from '../../src/commands/reports.js';
import { loadState } from '../../src/lib/state/state.js';
import { runSync } from '../../src/lib/sync/sync.js';
import { startFakeSupervisor, type FakeSupervisor } from '../support/fake-supervisor.js';
import type { GraphitiTestServer } from '../support/graphiti-server.js';
import type { Sandbox } from '../support/sandbox.js';
import { useServerAndSandbox } from '../helpers/use-server-and-sandbox.js';
import { cli } from '../../src/lib/util/install-route.js';

let server: GraphitiTestServer;
let box: Sandbox;
let supervisor: FakeSupervisor;

useServerAndSandbox((s, b) => {
  server = s;
  box = b;
});

beforeEach(async () => {
  supervisor = await startFakeSupervisor();
});

afterEach(() => {
  supervisor.child.kill('SIGKILL');
});

/** runtime.json as `server start` writes it once the server is ready, started at `startedAt`. */
function recordLocalServer(startedAt: Date, front?: { url: string }): void {
  const stateDir = box.env.MADEINOZ_KNOWLEDGE_STATE_DIR as string;
  writeRuntime(stateDir, {
    state: 'ready',
    pid: supervisor.identity.pid,
    generation: '0.31.2',
    serverVersion: '1.1.2',
    mcp: '2.2.0',
    falkordbBin: '1.4.1',
    url: front?.url ?? server.url,
    port: Number(new URL(front?.url ?? server.url).port),
    identities: { supervisor: supervisor.identity },
    ...(front === undefined ? {} : { mcpTokenFile: mcpTokenPath(stateDir) }),
    dataDir: box.root,
    logDir: box.root,
    startedAt: startedAt.toISOString(),
  });
}

const note = (name: string, fact: string) => `---\nname: ${name}\ndescription: ${name}\ntype: project\n---\n${fact}\n`;
const addsOf = (name: string) => server.calls.filter((c) => c.tool === 'add_memory' && c.args.name === name).length;

describe('the local server restarted while our episodes waited in its queue', () => {
  it('the next sync sends again exactly those the old server had not processed; the others are confirmed, none sent twice', async () => {
    recordLocalServer(new Date());
    server.pauseProcessing();
    box.auto('-home-me-app', 'kept.md', note('Kept', 'The app stores invoices in Quendor.'));
    box.auto('-home-me-app', 'lost.md', note('Lost', 'The app sends mail through Zorblax.'));
    const sent = await runSync(box.config({ MADEINOZ_KNOWLEDGE_CONCURRENCY: '1' }));
    expect(sent).toMatchObject({ queued: 2, confirmed: 0 });
    // The server processes the first (not seen by us yet) and is stopped before the second.
    const first = new Promise<void>((resolve) =>
      server.events.once('processed', () => {
        server.pauseProcessing();
        resolve();
      }),
    );
    server.resumeProcessing();
    await first;
    expect(server.episodes('main').map((e) => e.name)).toEqual(['Kept']);
    expect(server.pendingEpisodes).toBe(1);

    // `server stop` + `server start` (or restart, upgrade): the queue is lost, the graph kept.
    await server.restart();
    server.resumeProcessing();
    const restartedAt = new Date();
    const { state } = await loadState(box.env.MADEINOZ_KNOWLEDGE_STATE_DIR as string);
    const queuedAt = Object.values(state.files).map((r) => Date.parse(r.episodes[0]?.queuedAt ?? ''));
    expect(Math.max(...queuedAt)).toBeLessThan(restartedAt.getTime()); // the premise: both queued with the old server
    recordLocalServer(restartedAt);

    const after = await runSync(box.config());
    expect(after.resent).toBe(1);
    await server.whenIdle();
    const settled = await runSync(box.config());
    expect(settled).toMatchObject({ confirmed: 2, queued: 0, pending: 0 });
    expect(server.episodes('main').map((e) => e.name).sort()).toEqual(['Kept', 'Lost']);
    expect(addsOf('Kept')).toBe(1);
    expect(addsOf('Lost')).toBe(2);
  });
});

describe('the local server stopping while a sync sends', () => {
  /** Our token-checking front (server/mcp-front.ts) before the fake server, as `server start` runs it before Graphiti. */
  async function lockedFront(port = 0): Promise<{ url: string; close: () => Promise<void> }> {
    const stateDir = box.env.MADEINOZ_KNOWLEDGE_STATE_DIR as string;
    mkdirSync(join(stateDir, 'server'), { recursive: true, mode: 0o700 });
    const socketPath = join(stateDir, 'server', 'graphiti.sock');
    const open = new Set<Socket>();
    const relay: Server = createServer((c) => {
      const up = createConnection(server.port, '127.0.0.1');
      for (const s of [c, up]) {
        open.add(s);
        s.once('close', () => open.delete(s));
        s.on('error', () => undefined);
      }
      c.pipe(up).pipe(c);
    });
    rmSync(socketPath, { force: true });
    await new Promise<void>((r) => relay.listen(socketPath, () => r()));
    const token = newSecretFile(mcpTokenPath(stateDir));
    const front = await startMcpFront({ port, socketPath, token, tokenFile: mcpTokenPath(stateDir) });
    return {
      url: `http://127.0.0.1:${front.port}/mcp`,
      close: async () => {
        await front.close();
        for (const s of open) s.destroy();
        await new Promise<void>((r) => relay.close(() => r()));
      },
    };
  }

  it('a stop that begins while the sync deletes: the refused deletes stop the run as a server down (not one refused delete after another on a server said to answer); the episodes stay to delete', async () => {
    const stateDir = box.env.MADEINOZ_KNOWLEDGE_STATE_DIR as string;
    const front = await lockedFront();
    try {
      recordLocalServer(new Date(), front);
      const files = [1, 2, 3, 4].map((i) => box.auto('-home-me-app', `d${i}.md`, note(`Gone ${i}`, `The app kept archive ${i} in Quendor.`)));
      const config = () => box.config({ MADEINOZ_KNOWLEDGE_MCP_URL: front.url, MADEINOZ_KNOWLEDGE_CONCURRENCY: '1', MADEINOZ_KNOWLEDGE_RETRIES: '0' });
      await runSync(config());
      await server.whenIdle();
      expect(await runSync(config())).toMatchObject({ confirmed: 4 });
      for (const file of files) rmSync(file);
      vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
      // The stop begins as the first delete reaches the server.
      server.events.on('call', (call: { tool: string }) => {
        if (call.tool !== 'delete_episode' || server.calls.filter((c) => c.tool === 'delete_episode').length !== 1) return;
        writeRuntime(stateDir, { ...(readRuntime(stateDir) as NonNullable<ReturnType<typeof readRuntime>>), state: 'stopping' });
        vi.setSystemTime(Date.now() + FRONT_PROOF_TTL_MS + 1);
      });
      const summary = await runSync(config());
      expect(summary.serverReachable).toBe(false);
      expect(summary.serverError).toMatch(/HTTP 401/);
      const { state } = await loadState(stateDir);
      expect(state.orphans).toHaveLength(3);
      expect(server.episodes('main')).toHaveLength(3);
    } finally {
      vi.useRealTimers();
      await front.close();
    }
  });

  /** The files the scan found, as the summary's first half counts them: each in exactly one bucket. */
  const scanBuckets = (s: { added: number; updated: number; signed: number; renamed: number; unchanged: number; resumed: number }) => s.added + s.updated + s.signed + s.renamed + s.unchanged + s.resumed;

  it('`server restart` during a sync: the run stops with its work kept (none counted against a note), every file in one bucket of its summary; the next sync, on the restarted server (new token), sends the rest and again what the old queue lost, each note once in the graph', async () => {
    const stateDir = box.env.MADEINOZ_KNOWLEDGE_STATE_DIR as string;
    let front = await lockedFront();
    try {
      recordLocalServer(new Date(), front);
      // Graphiti is slow to extract: what it queued is still in its queue when it stops.
      server.pauseProcessing();
      for (let i = 1; i <= 6; i++) box.auto('-home-me-app', `n${i}.md`, note(`Note ${i}`, `The app keeps ledger ${i} in Quendor.`));
      vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
      // The restart's stop begins after the second note was queued (the supervisor says stopping first).
      server.events.on('call', (call: { tool: string }) => {
        if (call.tool !== 'add_memory' || server.calls.filter((c) => c.tool === 'add_memory').length !== 2) return;
        writeRuntime(stateDir, { ...(readRuntime(stateDir) as NonNullable<ReturnType<typeof readRuntime>>), state: 'stopping' });
        vi.setSystemTime(Date.now() + FRONT_PROOF_TTL_MS + 1);
      });
      const config = () => box.config({ MADEINOZ_KNOWLEDGE_MCP_URL: front.url, MADEINOZ_KNOWLEDGE_CONCURRENCY: '1', MADEINOZ_KNOWLEDGE_RETRIES: '0' });
      const interrupted = await runSync(config());
      server.events.removeAllListeners('call');
      expect(interrupted).toMatchObject({ added: 6, queued: 2, pending: 4, failed: 0, serverReachable: false });
      expect(scanBuckets(interrupted)).toBe(6);
      expect(formatSyncSummary(interrupted)).toMatch(/^new 6, changed 0, removed 0, renamed 0, unchanged 0 \| confirmed 0, queued 2, pending 4, skipped 0, failed 0\n/);

      // The rest of the restart: Graphiti and the front stopped (the queue is lost), then started
      // again on the same port, with a new token, at a later time.
      const port = Number(new URL(front.url).port);
      await front.close();
      await server.restart();
      server.resumeProcessing();
      vi.setSystemTime(Date.now() + 5_000);
      front = await lockedFront(port);
      expect(front.url).toBe(`http://127.0.0.1:${port}/mcp`);
      recordLocalServer(new Date(), front);

      const resumed = await runSync(config());
      expect(resumed).toMatchObject({ added: 0, updated: 0, unchanged: 2, resumed: 4, resent: 2, queued: 6, pending: 0, failed: 0, serverReachable: true });
      expect(scanBuckets(resumed)).toBe(6);
      expect(formatSyncSummary(resumed)).toMatch(/^new 0, changed 0, removed 0, renamed 0, unchanged 2, resumed 4 \(left unsent by an earlier run\) \| confirmed 0, queued 6, pending 0, skipped 0, failed 0\n/);
      const { state } = await loadState(stateDir);
      expect(Object.values(state.files).map((r) => r.attempts)).toEqual([0, 0, 0, 0, 0, 0]);
      await server.whenIdle();
      const settled = await runSync(config());
      expect(settled).toMatchObject({ confirmed: 6, queued: 0, pending: 0, unchanged: 6, resumed: 0 });
      expect(server.episodes('main').map((e) => e.name).sort()).toEqual([1, 2, 3, 4, 5, 6].map((i) => `Note ${i}`));
      // The two the old queue lost were sent twice (the second time after the restart), the rest once.
      expect([1, 2, 3, 4, 5, 6].map((i) => addsOf(`Note ${i}`))).toEqual([2, 2, 1, 1, 1, 1]);
    } finally {
      vi.useRealTimers();
      await front.close();
    }
  });

  it('the sends refused once it says stopping are no rejection of the notes: they stay pending, none counted, and the run says what to do', async () => {
    const front = await lockedFront();
    try {
      recordLocalServer(new Date(), front);
      for (let i = 1; i <= 6; i++) box.auto('-home-me-app', `n${i}.md`, note(`Note ${i}`, `The app keeps ledger ${i} in Quendor.`));
      // `server stop` begins after the second note was queued: the runtime file says stopping, and
      // our client sends no token from then on (docs/local-server.md), so the front refuses.
      const stateDir = box.env.MADEINOZ_KNOWLEDGE_STATE_DIR as string;
      // The client's last proof of the front (it counts for FRONT_PROOF_TTL_MS) is over by the next
      // send: the clock is moved on rather than waited for.
      vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
      server.events.on('call', (call: { tool: string }) => {
        if (call.tool !== 'add_memory' || server.calls.filter((c) => c.tool === 'add_memory').length !== 2) return;
        writeRuntime(stateDir, { ...(readRuntime(stateDir) as NonNullable<ReturnType<typeof readRuntime>>), state: 'stopping' });
        vi.setSystemTime(Date.now() + FRONT_PROOF_TTL_MS + 1);
      });
      const summary = await runSync(box.config({ MADEINOZ_KNOWLEDGE_MCP_URL: front.url, MADEINOZ_KNOWLEDGE_CONCURRENCY: '1', MADEINOZ_KNOWLEDGE_RETRIES: '0' }));
      expect(summary).toMatchObject({ queued: 2, pending: 4, failed: 0, serverReachable: false });
      const { state } = await loadState(stateDir);
      expect(Object.values(state.files).map((r) => r.attempts)).toEqual([0, 0, 0, 0, 0, 0]);
      expect(summary.serverError).toMatch(/HTTP 401/);
      // Meanwhile the stop finished: the next step is to start it.
      writeRuntime(stateDir, { ...(readRuntime(stateDir) as NonNullable<ReturnType<typeof readRuntime>>), state: 'stopped' });
      expect(formatSyncSummary(summary, box.config({ MADEINOZ_KNOWLEDGE_MCP_URL: front.url }))).toContain(`  the local Graphiti server is stopped; next step: ${cli()} server start\n`);
    } finally {
      vi.useRealTimers();
      await front.close();
    }
  });
});
