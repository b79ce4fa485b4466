/**
 * Coming from the madeinoz memory-sync hook: its episodes and its state file, as it leaves them,
 * are taken over by the first sync instead of being sent again (sync/adopt-prior.ts).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { priorFingerprint } from '../../src/lib/migrate/prior-hook.js';
import { runSync } from '../../src/lib/sync/sync.js';
import type { GraphitiTestServer } from '../support/graphiti-server.js';
import { learning, type Sandbox } from '../support/sandbox.js';
import { useServerAndSandbox } from '../helpers/use-server-and-sandbox.js';

let server: GraphitiTestServer;
let box: Sandbox;

useServerAndSandbox((s, b) => {
  server = s;
  box = b;
});

const adds = () => server.calls.filter((c) => c.tool === 'add_memory');
const deletes = () => server.calls.filter((c) => c.tool === 'delete_episode').map((c) => c.args.uuid as string);
const WAIT = { waitMs: 5000 };

interface PriorNote {
  path: string;
  /** The uuids of the episodes the prior hook sent for it (several when a killed run re-sent it). */
  uuids: string[];
}

/** What the prior hook does with a note: one episode per send, and a line in its state file. */
function priorHookSends(path: string, copies = 1): PriorNote {
  const raw = readFileSync(path, 'utf8');
  const { episodeBody } = priorFingerprint(raw);
  const title = /^# (.*)$/m.exec(raw)?.[1] ?? 'note';
  const uuids = Array.from({ length: copies }, () =>
    server.seedEpisode({ name: `LEARNING: ${title}`, content: episodeBody, source_description: `Source: capture | Session: 1a2b3c4d | File: ${basename(path)}` }).uuid,
  );
  return { path, uuids };
}

/** The prior hook's state file, recording each note as it was when sent. */
function writePriorState(notes: Array<{ path: string; raw: string }>): void {
  const file = join(box.root, '.claude', 'MEMORY', 'STATE', 'knowledge-sync', 'sync-state.json');
  mkdirSync(dirname(file), { recursive: true });
  const synced = notes.map(({ path, raw }) => ({ filepath: path, synced_at: '2026-05-01T10:00:00.000Z', capture_type: 'LEARNING', content_hash: priorFingerprint(raw).contentHash }));
  writeFileSync(file, JSON.stringify({ version: '1.0.0', last_sync: '2026-05-01T10:00:00.000Z', synced_files: synced }, null, 2));
}

describe('first sync after the madeinoz hook', () => {
  it('200 notes the prior hook sent: only the edited ones are sent, their old episodes and re-sent copies removed, nobody else touched', async () => {
    for (let i = 0; i < 300; i++) server.seedEpisode({ name: `Other client ${i}`, content: `Something else ${i}.`, source_description: 'claude mcp' });
    const notes: Array<{ path: string; raw: string; prior: PriorNote }> = [];
    for (let i = 0; i < 200; i++) {
      const path = box.pai(`LEARNING/SYSTEM/2026-05/note-${i}.md`, learning(`Note ${i}`, `Service ${i} talks to queue ${i}.\n\n\n\nIt retries twice.\n\n---\n\n*Captured by PAI memory capture*\n`));
      notes.push({ path, raw: readFileSync(path, 'utf8'), prior: priorHookSends(path, i === 7 ? 3 : 1) });
    }
    writePriorState(notes);
    // A teammate's note of the same file name, sent by their prior hook: not in our state file.
    const teammate = server.seedEpisode({ name: 'LEARNING: Note 3', content: 'A different note about Note 3.', source_description: 'File: note-3.md' });
    // Edited since the prior hook sent them: 10 notes.
    const edited = notes.slice(20, 30);
    for (const [k, n] of edited.entries()) box.pai(`LEARNING/SYSTEM/2026-05/note-${20 + k}.md`, learning(`Note ${20 + k}`, `Service ${20 + k} now talks to the bus.`));

    const first = await runSync(box.config(), WAIT);
    expect(first).toMatchObject({ added: 10, adopted: 190, failed: 0 });
    expect(adds()).toHaveLength(10);
    expect(adds().map((c) => c.args.name)).toEqual(expect.arrayContaining(edited.map((_, k) => expect.stringContaining(`Note ${20 + k}`))));
    await server.whenIdle();
    const second = await runSync(box.config(), WAIT);
    expect(second).toMatchObject({ added: 0, updated: 0, confirmed: 200, queued: 0 });
    expect(adds()).toHaveLength(10);

    // The edited notes' prior episodes and the two re-sent copies of note 7 are gone, nothing else.
    const expectedDeleted = [...edited.flatMap((n) => n.prior.uuids), ...notes[7]!.prior.uuids.slice().sort().slice(1)];
    expect(deletes().sort()).toEqual(expectedDeleted.sort());
    const episodes = server.episodes('main');
    for (const [i, n] of notes.entries()) {
      const mine = episodes.filter((e) => e.source_description.endsWith(`File: ${basename(n.path)}`) || (new RegExp(`\\bNote ${i}$`).test(e.name) && e.source_description.includes('[gms:')));
      expect(mine.filter((e) => e.uuid !== teammate.uuid), `note ${i}`).toHaveLength(1);
    }
    expect(episodes.some((e) => e.uuid === teammate.uuid)).toBe(true);
    expect(episodes.filter((e) => e.name.startsWith('Other client'))).toHaveLength(300);
  });

  it('an adopted note is not taken for lost: a later listing of its group (a new note waits there) tells nothing, and sync --force sends nothing again (LOST_SEEN_IN_PASSING, FORCE_LOOK)', async () => {
    const path = box.pai('LEARNING/SYSTEM/a.md', learning('Alpha', 'Service alpha talks to queue one.'));
    const prior = priorHookSends(path);
    writePriorState([{ path, raw: readFileSync(path, 'utf8') }]);
    expect(await runSync(box.config(), WAIT)).toMatchObject({ added: 0, adopted: 1 });
    // A new note in the same group: the next sync lists the group in full to confirm it.
    box.pai('LEARNING/SYSTEM/b.md', learning('Beta', 'Service beta talks to queue two.'));
    const next = await runSync(box.config(), WAIT);
    expect(next).toMatchObject({ added: 1, confirmed: 2 });
    // The prior hook's episode is still there: nothing was lost, so nothing is to be told.
    expect(server.episodes('main').some((e) => e.uuid === prior.uuids[0])).toBe(true);
    expect(next.lostSeen).toBeUndefined();
    // The step a false warning names: it must not send the note a second time.
    const forced = await runSync(box.config(), { ...WAIT, force: true });
    expect(forced).toMatchObject({ resent: 0 });
    expect(adds()).toHaveLength(1);
    await server.whenIdle();
    expect(server.episodes('main')).toHaveLength(2);
  });

  it('an adopted note edited later is replaced by ours, make before break', async () => {
    const path = box.pai('LEARNING/SYSTEM/a.md', learning('Alpha', 'First version.'));
    const prior = priorHookSends(path);
    writePriorState([{ path, raw: readFileSync(path, 'utf8') }]);
    expect(await runSync(box.config(), WAIT)).toMatchObject({ added: 0, adopted: 1 });
    box.pai('LEARNING/SYSTEM/a.md', learning('Alpha', 'Second version.'));
    expect(await runSync(box.config(), WAIT)).toMatchObject({ updated: 1 });
    await server.whenIdle();
    await runSync(box.config(), WAIT);
    expect(deletes()).toEqual(prior.uuids);
    expect(server.episodes('main').map((e) => e.content)).toEqual([expect.stringContaining('Second version.')]);
  });

  it('a note with a secret and one the server dropped: ours is sent; the prior episode goes once ours is in', async () => {
    const secret = box.pai('LEARNING/SYSTEM/s.md', learning('Deploy', 'Deploy with token ghp_k3Vq9ZpR2mXw7LtB4nYc8HsD1fGj6QeU0aWo today.'));
    const dropped = box.pai('LEARNING/SYSTEM/d.md', learning('Dropped', 'The prior hook sent this, the server lost it.'));
    const priorSecret = priorHookSends(secret);
    writePriorState([secret, dropped].map((path) => ({ path, raw: readFileSync(path, 'utf8') })));
    expect(await runSync(box.config(), WAIT)).toMatchObject({ added: 2, adopted: 0 });
    expect(JSON.stringify(adds().map((c) => c.args.episode_body))).not.toContain('k3Vq9ZpR2mXw7LtB4nYc8HsD1fGj6QeU0aWo');
    await server.whenIdle();
    await runSync(box.config(), WAIT);
    expect(deletes()).toEqual(priorSecret.uuids);
    expect(server.episodes('main')).toHaveLength(2);
  });

  it('--replace-prior: an unchanged note is sent anyway, and its prior episode removed once ours is in', async () => {
    const plain = box.pai('LEARNING/SYSTEM/p.md', learning('Plain', 'Nothing special.'));
    const prior = priorHookSends(plain);
    writePriorState([{ path: plain, raw: readFileSync(plain, 'utf8') }]);
    expect(await runSync(box.config(), { ...WAIT, replacePrior: true })).toMatchObject({ added: 1, adopted: 0 });
    await server.whenIdle();
    await runSync(box.config(), WAIT);
    expect(deletes()).toEqual(prior.uuids);
    expect(server.episodes('main').map((e) => e.source_description)).toEqual([expect.stringContaining('[gms:')]);
  });

  it('an unreadable prior state adopts nothing and deletes nothing', async () => {
    const path = box.pai('LEARNING/SYSTEM/a.md', learning('Alpha', 'First version.'));
    priorHookSends(path);
    const file = join(box.root, '.claude', 'MEMORY', 'STATE', 'knowledge-sync', 'sync-state.json');
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, '{"synced_files": [ broken');
    expect(await runSync(box.config(), WAIT)).toMatchObject({ added: 1, adopted: 0 });
    await server.whenIdle();
    await runSync(box.config(), WAIT);
    expect(deletes()).toEqual([]);
    expect(server.episodes('main')).toHaveLength(2);
  });
});
