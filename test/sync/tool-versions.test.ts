/**
 * A sync meeting state a newer build of this tool wrote (a downgrade, or an older install beside a
 * newer one): it sends nothing, deletes nothing, leaves the files as they are, and says: upgrade.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PULLED_FILE } from '../../src/lib/state/pulled.js';
import { StateConflictError, statePath } from '../../src/lib/state/state.js';
import { runSync } from '../../src/lib/sync/sync.js';
import type { GraphitiTestServer } from '../support/graphiti-server.js';
import type { Sandbox } from '../support/sandbox.js';
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
