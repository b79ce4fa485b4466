/**
 * A one-shot sync over folder links retargeted out of reach (memory/link-reach.ts): a link to a
 * folder holding it, to / or to the home folder is not followed. Nothing beyond it is sent,
 * nothing synced through it before is deleted, and the summary names the link and the next step.
 * Pointed back at a notes folder, it syncs as before.
 */
import { mkdirSync, renameSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
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
const deletes = () => server.calls.filter((c) => c.tool === 'delete_episode');

/** ln -sfn: a new link beside, renamed over the old one. */
function relink(target: string, link: string): void {
  symlinkSync(target, `${link}.new`);
  renameSync(`${link}.new`, link);
}

describe('sync over a link retargeted out of reach', () => {
  it("a project's memory link pointed at / and then at the folder holding it: nothing beyond sent, nothing deleted, the summary says what and what next", async () => {
    const notes = sb.path('data', 'A');
    note(notes, 'a', 'note a in the memory folder');
    note(sb.path('data', 'beside'), 'decoy', 'note decoy beside the configured folders');
    const project = sb.path('claude', 'projects', '-home-me-repo');
    mkdirSync(project, { recursive: true });
    const link = join(project, 'memory');
    symlinkSync(notes, link);
    await runSync(sb.config(), { waitMs: 5000 });
    await server.whenIdle();
    expect(sent()).toEqual(['note a']);

    for (const target of ['/', sb.root]) {
      relink(target, link);
      const summary = await runSync(sb.config(), { waitMs: 5000 });
      await server.whenIdle();
      const problem = summary.problems.find((p) => p.reason === 'out-of-reach');
      expect(problem?.id).toBe('auto-memory:-home-me-repo/memory');
      expect(problem?.message).toContain(`${link} is a symbolic link to ${target}`);
      expect(problem?.message).toMatch(/not followed, so nothing there is scanned, watched or sent\. Point it at the notes folder/);
      expect(summary.deleted).toBe(0);
      expect(sent()).toEqual(['note a']);
      expect(deletes()).toHaveLength(0);
    }

    relink(notes, link);
    const back = await runSync(sb.config(), { waitMs: 5000 });
    expect(back.problems).toEqual([]);
    expect(back.deleted).toBe(0);
    expect(sent()).toEqual(['note a']);
  });

  it('a source folder that is a link pointed at the folder holding it: its notes kept, the other sources synced', async () => {
    const notes = sb.path('data', 'N');
    note(notes, 'n', 'note n in the linked notes folder');
    mkdirSync(sb.path('links'), { recursive: true });
    const link = sb.path('links', 'notes');
    symlinkSync(notes, link);
    const env = { MADEINOZ_KNOWLEDGE_SYNC_PATHS: `notes=${link}` };
    await runSync(sb.config(env), { waitMs: 5000 });
    await server.whenIdle();
    expect(sent()).toEqual(['note n']);
    relink(sb.path('links'), link);
    note(sb.path('claude', 'projects', '-home-me-other', 'memory'), 'c', 'note c in another project');
    const summary = await runSync(sb.config(env), { waitMs: 5000 });
    await server.whenIdle();
    expect(summary.problems.map((p) => [p.id, p.reason])).toEqual([['notes:', 'out-of-reach']]);
    expect(summary.deleted).toBe(0);
    expect(deletes()).toHaveLength(0);
    expect(sent()).toEqual(['note c', 'note n']);
  });
});
