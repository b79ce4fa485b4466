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
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeRuntime } from '../../src/lib/config/server-runtime.js';
import { loadState } from '../../src/lib/state/state.js';
import { runSync } from '../../src/lib/sync/sync.js';
import { startFakeSupervisor, type FakeSupervisor } from '../support/fake-supervisor.js';
import type { GraphitiTestServer } from '../support/graphiti-server.js';
import type { Sandbox } from '../support/sandbox.js';
import { useServerAndSandbox } from '../helpers/use-server-and-sandbox.js';

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
function recordLocalServer(startedAt: Date): void {
  const stateDir = box.env.MADEINOZ_KNOWLEDGE_STATE_DIR as string;
  writeRuntime(stateDir, {
    state: 'ready',
    pid: supervisor.identity.pid,
    generation: '0.31.2',
    serverVersion: '1.1.2',
    mcp: '2.2.0',
    falkordbBin: '1.4.1',
    url: server.url,
    port: Number(new URL(server.url).port),
    identities: { supervisor: supervisor.identity },
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
