/**
 * What the tests of two machines on one graph share (synced-claude-folder.test.ts, origin-copy.test.ts):
 * a note, what the graph holds, a sync run until nothing waits, and time passing on a copy.
 */
import type { Config } from '../../src/lib/config/config.js';
import { loadState, saveState } from '../../src/lib/state/state.js';
import { runSync } from '../../src/lib/sync/sync.js';
import type { GraphitiTestServer } from '../support/graphiti-server.js';

/** An auto-memory note named `name` whose last line is `body`. */
export const note = (name: string, body: string) => `---\nname: ${name}\ndescription: about ${name}\ntype: project\n---\n${body}\n`;

/** What the graph holds: each note's name with its last line, sorted. */
export const graphOf = (server: GraphitiTestServer) => server.episodes('main').map((e) => `${e.name}: ${e.content.split('\n').at(-1) ?? ''}`).sort();

/** Runs until nothing is waiting (a sync waits for its notes, then deletes the versions they replace). */
export async function syncSettled(server: GraphitiTestServer, config: () => Config): Promise<void> {
  for (let round = 0; round < 6; round++) {
    const s = await runSync(config(), { waitMs: 5000 });
    await server.whenIdle();
    if (round > 0 && s.queued === 0 && s.pending === 0 && s.failed === 0) return;
  }
  throw new Error('the sync did not settle');
}

/** Time passes on a copy: its last look at the episodes its unchanged notes rest on was a day ago (sync/copy-hold.ts COPY_WATCH), and so was any absence that look saw. */
export async function lookAgainLater(stateDir: string): Promise<void> {
  const { state } = await loadState(stateDir);
  const dayAgo = new Date(Date.now() - 24 * 60 * 60_000).toISOString();
  if (state.copyWatch !== undefined) state.copyWatch.at = dayAgo;
  // An absence first seen then has lasted a day too (DELETED_ON_PURPOSE `goneSeen`).
  for (const record of Object.values(state.files)) for (const ref of record.episodes) if (ref.goneSeen !== undefined) ref.goneSeen.since = dayAgo;
  await saveState(stateDir, state);
}
