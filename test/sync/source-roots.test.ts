/**
 * A source name given to another folder (sync/source-roots.ts): unnamed folders in
 * MADEINOZ_KNOWLEDGE_SYNC_PATHS are named by their place, so taking the first out renames the
 * second. A one-shot sync (as the hooks' worker runs it at the next session start) must not delete
 * the first folder's notes nor send the second's again.
 */
import { renameSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runSync } from '../../src/lib/sync/sync.js';
import type { GraphitiTestServer } from '../support/graphiti-server.js';
import type { Sandbox } from '../support/sandbox.js';
import { useNamedNotesSandbox } from '../helpers/use-server-and-sandbox.js';

let server: GraphitiTestServer;
let sb: Sandbox;
const { note, sent } = useNamedNotesSandbox((s, b) => {
  server = s;
  sb = b;
});
const calls = (tool: string) => server.calls.filter((c) => c.tool === tool);

describe('a source name given to another folder', () => {
  it('the first unnamed folder taken out of the list (the second becomes extra1): held, nothing deleted, nothing sent twice, the next step named', async () => {
    const [a, b] = [sb.path('data', 'A'), sb.path('data', 'B')];
    note(a, 'a', 'note a in the first unnamed folder');
    note(b, 'b', 'note b in the second unnamed folder');
    await runSync(sb.config({ MADEINOZ_KNOWLEDGE_SYNC_PATHS: `${a}:${b}` }), { waitMs: 5000 });
    await server.whenIdle();
    expect(sent()).toEqual(['note a', 'note b']);
    const summary = await runSync(sb.config({ MADEINOZ_KNOWLEDGE_SYNC_PATHS: b }), { waitMs: 5000 });
    await server.whenIdle();
    expect(summary.deleted).toBe(0);
    expect(summary.problems.map((p) => [p.id, p.reason])).toEqual([['extra1:', 'source-renamed']]);
    expect(summary.problems[0]?.message).toContain(`the source "extra1" is ${b} now, but its notes in the graph are those of ${a}, which is still there`);
    expect(summary.problems[0]?.message).toMatch(/name=path, e\.g\. "notes=.*A:work=.*B"/);
    expect(calls('delete_episode')).toHaveLength(0);
    expect(calls('add_memory')).toHaveLength(2);
    // Named as the message says: the second keeps its name and notes, the first's stay in the graph.
    const named = await runSync(sb.config({ MADEINOZ_KNOWLEDGE_SYNC_PATHS: `extra2=${b}` }), { waitMs: 5000 });
    expect(named.problems).toEqual([]);
    expect(named.deleted).toBe(0);
    expect(calls('add_memory')).toHaveLength(2);
  });

  it('a folder moved (its old place gone) and pointed at: taken up, its notes carry on', async () => {
    const [a, moved] = [sb.path('data', 'A'), sb.path('data', 'moved')];
    note(a, 'a', 'note a before the move');
    await runSync(sb.config({ MADEINOZ_KNOWLEDGE_SYNC_PATHS: a }), { waitMs: 5000 });
    await server.whenIdle();
    renameSync(a, moved);
    const summary = await runSync(sb.config({ MADEINOZ_KNOWLEDGE_SYNC_PATHS: moved }), { waitMs: 5000 });
    expect(summary.problems).toEqual([]);
    expect(summary.deleted).toBe(0);
    expect(calls('add_memory')).toHaveLength(1);
    expect(sent()).toEqual(['note a']);
  });
});
