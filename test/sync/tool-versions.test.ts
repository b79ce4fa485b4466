/**
 * A sync meeting state a newer build of this tool wrote (a downgrade, or an older install beside a
 * newer one): it sends nothing, deletes nothing, leaves the files as they are, and says: upgrade.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseMarker } from '../../src/lib/memory/episode.js';
import { PULLED_FILE } from '../../src/lib/state/pulled.js';
import { StateConflictError, statePath } from '../../src/lib/state/state.js';
import { runSync } from '../../src/lib/sync/sync.js';
import type { GraphitiTestServer } from '../support/graphiti-server.js';
import { makeSandbox, type Sandbox } from '../support/sandbox.js';
import { useServerAndSandbox } from '../helpers/use-server-and-sandbox.js';

let server: GraphitiTestServer;
let box: Sandbox;
useServerAndSandbox((s, b) => {
  server = s;
  box = b;
});

const sent = () => server.calls.filter((c) => c.tool === 'add_memory' || c.tool === 'delete_episode');

describe('state a newer build wrote', () => {
  it("a pull ledger in a newer build's layout: the notes pull wrote are not sent as this machine's own; the sync stops and says upgrade", async () => {
    const config = box.config();
    const note = '---\nname: From the laptop\n---\nThe deploy runs on Fridays.\n';
    const file = box.auto('-home-me-app', 'from-laptop.md', note);
    await runSync(config); // a state of this version exists: only the ledger is newer
    server.calls.length = 0;
    const ledger = `${JSON.stringify({ tool: 'graphiti-memory-sync', version: 2, notes: [{ file, hash: 'later-layout', origin: 'm-laptop00000' }], copies: [], held: {} })}\n`;
    writeFileSync(join(config.stateDir, PULLED_FILE), ledger);
    writeFileSync(file, `${note}Written by pull from the laptop.\n`);
    const state = readFileSync(statePath(config.stateDir), 'utf8');

    const error = await runSync(config).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StateConflictError);
    expect((error as Error).message).toMatch(/upgrade graphiti-memory-sync/);
    await server.whenIdle();
    expect(sent()).toEqual([]);
    expect(readFileSync(join(config.stateDir, PULLED_FILE), 'utf8')).toBe(ledger);
    expect(readFileSync(statePath(config.stateDir), 'utf8')).toBe(state);
  });
});

describe('two machines on different versions, one group', () => {
  const others: Sandbox[] = [];
  afterEach(() => {
    for (const b of others.splice(0)) b.cleanup();
  });

  it("a machine still on a version from before origins (markers without one) keeps its episodes: this version, even with a lost state, adopts none of them, and its sends, edits and deletions never touch them", async () => {
    const note = '---\nname: Same note\n---\nThe build uses pnpm.\n';
    const other = '---\nname: Other note\n---\nReleases are tagged by CI.\n';
    // The older machine: the same project path and notes, its episodes as that version wrote them.
    const older = makeSandbox(server.url);
    others.push(older);
    older.auto('-home-me-app', 'same.md', note);
    older.auto('-home-me-app', 'other.md', other);
    await runSync(older.config(), { waitMs: 5000 });
    await server.whenIdle();
    const stripOrigin = (text: string) => text.replace(/(\[gms:[^\]]+?\/\d+):[a-z0-9-]+\]/g, '$1]');
    const theirs = server.episodes('main').map((e) => server.seedEpisode({ ...e, source_description: stripOrigin(e.source_description) }));
    expect(theirs.map((e) => parseMarker(e.source_description)?.origin)).toEqual([undefined, undefined]);
    server.clearLogs();

    // This machine, this version: the same note, byte for byte, at the same path; then its state is lost.
    const file = box.auto('-home-me-app', 'same.md', note);
    await runSync(box.config(), { waitMs: 5000 });
    rmSync(box.config().stateDir, { recursive: true, force: true });
    await runSync(box.config(), { waitMs: 5000 });
    writeFileSync(file, `${note}Edited here.\n`);
    await runSync(box.config(), { waitMs: 5000 });
    await runSync(box.config(), { waitMs: 5000 });
    rmSync(file);
    await runSync(box.config(), { waitMs: 5000 });
    await server.whenIdle();

    const touched = new Set(server.calls.filter((c) => c.tool === 'delete_episode').map((c) => c.args.uuid as string));
    for (const e of theirs) {
      expect(touched.has(e.uuid)).toBe(false);
      expect(server.episodes('main').find((x) => x.uuid === e.uuid)?.source_description).toBe(e.source_description);
    }
    // Ours came and went on its own: only the older machine's two episodes are left.
    expect(server.episodes('main').map((e) => e.uuid).sort()).toEqual(theirs.map((e) => e.uuid).sort());
  });
});
