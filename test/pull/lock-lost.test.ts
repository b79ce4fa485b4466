/**
 * LOCK_PROVEN_AT_WRITE (state/lock.ts) for pull: a pull stopped (SIGSTOP, Ctrl-Z, a laptop's lid)
 * while it holds the state lock loses it to a waiting run once its heartbeat has not moved for the
 * stale age. Continued, it answers to nobody: its writes (the journal of a file it is about to write,
 * the note file, the ledger `pulled.json`, which also removes the journal of writes) would land over
 * what the new holder is doing. It read the lock only through its heartbeat timer, which the event
 * loop runs after the reply it was waiting for: on 612d67d it wrote its ledger over the new holder's
 * and removed the new holder's journal of writes.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SEMANTICS_FILE } from '../../src/lib/graphiti/server-rules.js';
import { lockFilePath } from '../../src/lib/state/lock.js';
import { PULLED_FILE, PULLED_WRITING_FILE, readPulled, writePulled } from '../../src/lib/state/pulled.js';
import type { ToolCallLog } from '../support/graphiti/api.js';
import { usePullMachines } from '../helpers/use-pull-machines.js';
import { link, topic } from './homes.js';

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

/**
 * The writes the pull made without reading the lock at their moment (found by review): a resolved
 * listed copy's `MEMORY.md` line taken out, a held note written into `pull --to`'s folder, the
 * server's rules answer (a sentinel found answering, server-rules.ts IDLE_LOSS_EXPLAINED). Each is
 * tried with the lock taken over just before it: at the request that comes before it.
 */
describe('a pull that lost its state lock makes none of the writes it made unproven (LOCK_PROVEN_AT_WRITE)', () => {
  /** Another run takes the lock over (its own record) as the server answers the pull's listing (get_episodes). */
  const takeOverAtListing = (stateDir: string) => {
    const state = { taken: false };
    const listener = (call: ToolCallLog) => {
      if (state.taken || call.tool !== 'get_episodes') return;
      state.taken = true;
      writeFileSync(lockFilePath(stateDir), JSON.stringify({ tool: 'graphiti-memory-sync', pid: process.pid, hostname: 'elsewhere', startedAt: new Date().toISOString(), token: 'the-new-holder' }));
    };
    machines.server.events.on('call', listener);
    return { state, off: () => machines.server.events.off('call', listener) };
  };

  it('a resolved listed copy: its MEMORY.md line stays for the lock\'s holder to judge', async () => {
    const [, b] = await machines.pair();
    const stateDir = b.config().stateDir;
    // A same-name-here copy pull listed (LISTED_COPY), since removed by the person: its line is due to go.
    const index = `- [Deploy (from laptop)](deploy.laptop.md) - how we deploy\n`;
    mkdirSync(b.memoryDir, { recursive: true });
    writeFileSync(join(b.memoryDir, 'MEMORY.md'), index);
    const ledger = await readPulled(stateDir);
    ledger.copies.push({ project: 'p', path: 'deploy.md', file: join(b.memoryDir, 'deploy.md'), copy: join(b.memoryDir, 'deploy.laptop.md'), hash: 'h', origin: 'o', version: 1, reason: 'same-name-here', at: '2026-12-01T00:00:00.000Z', indexLine: { memoryDir: b.memoryDir, path: 'deploy.laptop.md', title: 'Deploy (from laptop)' }, listed: true });
    await writePulled(stateDir, ledger, undefined);
    // Taken over as the pull lists the graph: the line's removal comes after the listing.
    const take = takeOverAtListing(stateDir);
    try {
      await expect(b.pull()).rejects.toThrow(/no longer ours/);
    } finally {
      take.off();
    }
    expect(take.state.taken).toBe(true);
    expect(readFileSync(join(b.memoryDir, 'MEMORY.md'), 'utf8')).toBe(index);
  });

  it('a held note is not written into the --to folder', async () => {
    const a = machines.make('laptop');
    const b = machines.make('desktop', 'git@github.com:me/other.git');
    await link(a, b);
    a.write('build.md', topic('Build', 'The build uses Bun.'));
    await a.sync();
    const to = join(b.box.root, 'held');
    const take = takeOverAtListing(b.config().stateDir);
    try {
      await expect(b.pull({ to })).rejects.toThrow(/no longer ours/);
    } finally {
      take.off();
    }
    expect(take.state.taken).toBe(true);
    expect(existsSync(to)).toBe(false);
  });

  it('the server\'s rules answer is not recorded', async () => {
    // The fast server as graphiti-core 0.31.2: its tools do not tell its generation, so B probes it.
    await machines.restartWith({ deleteMode: 'detach', mainParams: true, graphPerGroup: true });
    const [a, b] = await machines.pair();
    a.write('build.md', topic('Build', 'The build uses Bun.'));
    await a.sync();
    await b.pull();
    // B learns the server's rules by a probe (an edit of its own note replaces a version: PROBE_WHEN_NEEDED).
    b.write('lint.md', topic('Lint', 'The lint runs on push.'));
    await b.sync();
    b.write('lint.md', topic('Lint', 'The lint runs on every push.'));
    await b.sync();
    const file = join(b.config().stateDir, SEMANTICS_FILE);
    const rules = readFileSync(file, 'utf8');
    // The premise: a pull now would record that the probe's sentinel answered (as the test of IDLE_LOSS_EXPLAINED shows).
    expect(JSON.parse(rules).servers[b.config().mcpUrl]?.answer).toMatchObject({ at: expect.any(String) });
    expect(JSON.parse(rules).servers[b.config().mcpUrl]?.answer?.sentinelAnswered).toBeUndefined();
    // Taken over as the pull lists the graph: the sentinel's ping and the answer's record come after it.
    const take = takeOverAtListing(b.config().stateDir);
    try {
      await expect(b.pull()).rejects.toThrow(/no longer ours/);
    } finally {
      take.off();
    }
    expect(take.state.taken).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe(rules);
  });
});
