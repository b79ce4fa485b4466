/**
 * LOCK_PROVEN_AT_WRITE (state/lock.ts) for pull: a pull stopped (SIGSTOP, Ctrl-Z, a laptop's lid)
 * while it holds the state lock loses it to a waiting run once its heartbeat has not moved for the
 * stale age. Continued, it answers to nobody: its writes (the journal of a file it is about to write,
 * the note file, the ledger `pulled.json`, which also removes the journal of writes) would land over
 * what the new holder is doing. It read the lock only through its heartbeat timer, which the event
 * loop runs after the reply it was waiting for: on 612d67d it wrote its ledger over the new holder's
 * and removed the new holder's journal of writes.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lockFilePath } from '../../src/lib/state/lock.js';
import { PULLED_FILE, PULLED_WRITING_FILE } from '../../src/lib/state/pulled.js';
import { usePullMachines } from '../helpers/use-pull-machines.js';
import { topic } from './homes.js';

const machines = usePullMachines();

describe('a pull whose state lock was taken over while it was stopped (LOCK_PROVEN_AT_WRITE)', () => {
  it('writes nothing once it is continued: the new holder\'s ledger, its journal of writes and the folder stay as they are', async () => {
    const [a, b] = await machines.pair();
    a.write('build.md', topic('Build', 'The build uses Bun.'));
    await a.sync();
    const stateDir = b.config().stateDir;
    const theirLedger = `${JSON.stringify({ tool: 'graphiti-memory-sync', version: 1, notes: {}, copies: [], held: {}, checkouts: {}, by: 'the new holder' })}\n`;
    const theirJournal = `${JSON.stringify({ target: '/nowhere/theirs.md', hash: 'x', note: { file: '/nowhere/theirs.md' } })}\n`;
    // While the pull waits for the server (stopped, its heartbeat not moving), another run takes the
    // lock over (as `takeOver` leaves it: its own record) and starts its own pull's writes.
    let takenOver = false;
    const takeOver = () => {
      if (takenOver) return;
      takenOver = true;
      writeFileSync(lockFilePath(stateDir), JSON.stringify({ tool: 'graphiti-memory-sync', pid: process.pid, hostname: 'elsewhere', startedAt: new Date().toISOString(), token: 'the-new-holder' }));
      writeFileSync(join(stateDir, PULLED_FILE), theirLedger);
      writeFileSync(join(stateDir, PULLED_WRITING_FILE), theirJournal);
    };
    machines.server.events.on('http', takeOver);
    try {
      await expect(b.pull()).rejects.toThrow(/no longer ours/);
    } finally {
      machines.server.events.off('http', takeOver);
    }
    expect(takenOver).toBe(true);
    expect(readFileSync(join(stateDir, PULLED_FILE), 'utf8')).toBe(theirLedger);
    expect(readFileSync(join(stateDir, PULLED_WRITING_FILE), 'utf8')).toBe(theirJournal);
    // The note the graph holds is the new holder's to write (or not): this pull wrote none of it.
    expect(existsSync(join(b.memoryDir, 'build.md'))).toBe(false);
    expect(existsSync(join(b.memoryDir, 'MEMORY.md'))).toBe(false);
    // Its lock file is the new holder's still: a pull that lost the lock does not remove it.
    expect(JSON.parse(readFileSync(lockFilePath(stateDir), 'utf8')).token).toBe('the-new-holder');
  });
});
