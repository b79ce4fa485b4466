/**
 * Issue 14: the first sync of a memory the madeinoz hook already sent. 1,000 notes, the prior
 * hook's episodes and state file as it leaves them, 5 % of the notes edited since, in a group that
 * also holds 2,000 episodes of other clients; against the test server (in this process, answering
 * at once). What counts is what is sent: goal, only the changed notes. Baseline in the same run:
 * the same first sync with no prior state to take over (every note sent again).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { buildConfig } from '../src/lib/config/config.js';
import { priorFingerprint } from '../src/lib/migrate/prior-hook.js';
import { runSync } from '../src/lib/sync/sync.js';
import { startGraphitiServer } from '../test/support/graphiti-server.js';
import { isolatedEnv } from '../test/support/isolated-env.js';
import { makeTempDirSync } from '../test/support/temp-dir.js';
import type { Row } from './util.js';

const NOTES = Number(process.env.BENCH_MIGRATION_NOTES ?? 1000);
const EDITED = Math.round(NOTES * 0.05);
const FOREIGN = 2000;

function note(i: number, version: string): string {
  return `---\ncapture_type: LEARNING\ntimestamp: 2026-01-04 10:30:00 PST\n---\n# Note ${i}\n\n${version} A learning about item ${i}. ${'Some realistic text. '.repeat(10)}\n\n---\n\n*Captured by PAI History System*\n`;
}

async function firstSync(withPriorState: boolean): Promise<{ ms: number; adds: number; lists: number; deletes: number; adopted: number }> {
  const server = await startGraphitiServer({ processingDelayMs: 0, logLimit: 100_000 });
  const { dir, cleanup } = makeTempDirSync('gms-bench-migration-');
  try {
    for (let i = 0; i < FOREIGN; i++) server.seedEpisode({ name: `Foreign ${i}`, content: `Knowledge someone else added, number ${i}.`, source_description: 'PAI Knowledge skill' });
    const synced: Array<Record<string, string>> = [];
    for (let i = 0; i < NOTES; i++) {
      const path = join(dir, 'pai', 'MEMORY', 'LEARNING', 'SYSTEM', '2026-05', `note-${i}.md`);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, note(i, 'v1'));
      const fp = priorFingerprint(readFileSync(path, 'utf8'));
      server.seedEpisode({ name: `LEARNING: Note ${i}`, content: fp.episodeBody, source_description: `Source: capture | File: note-${i}.md` });
      synced.push({ filepath: path, synced_at: '2026-05-01T10:00:00.000Z', capture_type: 'LEARNING', content_hash: fp.contentHash });
      if (i < EDITED) writeFileSync(path, note(i, 'v2'));
    }
    if (withPriorState) {
      const state = join(dir, '.claude', 'MEMORY', 'STATE', 'knowledge-sync', 'sync-state.json');
      mkdirSync(dirname(state), { recursive: true });
      writeFileSync(state, JSON.stringify({ version: '1.0.0', synced_files: synced }));
    }
    const config = buildConfig(isolatedEnv(dir, server.url, { MADEINOZ_KNOWLEDGE_TIMEOUT: '120000' }));
    const t0 = performance.now();
    const summary = await runSync(config, { waitMs: 120_000 });
    const ms = performance.now() - t0;
    await server.whenIdle();
    await runSync(config, { waitMs: 120_000 });
    const count = (tool: string) => server.calls.filter((c) => c.tool === tool).length;
    return { ms, adds: count('add_memory'), lists: count('get_episodes'), deletes: count('delete_episode'), adopted: summary.adopted };
  } finally {
    await server.close();
    cleanup();
  }
}

export async function benchMigration(): Promise<Row[]> {
  const plain = await firstSync(false);
  const migrated = await firstSync(true);
  return [
    { name: `without the prior state: first sync of ${NOTES.toLocaleString('en-US')} notes`, value: plain.ms, unit: 'ms', note: `add_memory ×${plain.adds}, get_episodes ×${plain.lists}, delete_episode ×${plain.deletes}` },
    {
      name: `migrated: the same ${NOTES.toLocaleString('en-US')} notes, ${EDITED} edited since`,
      value: migrated.ms,
      unit: 'ms',
      baseline: plain.ms,
      baselineName: 'without',
      note: `add_memory ×${migrated.adds} (goal ${EDITED}), adopted ${migrated.adopted}, get_episodes ×${migrated.lists}, delete_episode ×${migrated.deletes} (their old episodes)`,
    },
  ];
}
