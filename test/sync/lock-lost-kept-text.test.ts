/**
 * LOCK_PROVEN_AT_WRITE's failure path (state/lock.ts, sync/ledger.ts): a run whose state lock another
 * process took over (it was stopped past the stale age: SIGSTOP, Ctrl-Z, a laptop's lid) stops
 * "without writing". Its end (sync.ts `endRun`) still pruned the kept texts (state/kept-text.ts) by
 * its own, stale, state before the save that found the lock lost: the new holder's kept text of the
 * version it had just sent was removed, so an edit dropped for good after break-before-make deleted
 * that version (graphiti-core 0.29.3 – 0.31.1) had no text to send again (sync/restore.ts).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lockFilePath } from '../../src/lib/state/lock.js';
import { runSync } from '../../src/lib/sync/sync.js';
import { startGraphitiServer, type GraphitiTestServer } from '../support/graphiti-server.js';
import { makeSandbox } from '../support/sandbox.js';

/**
 * A sync of one note whose lock another process takes over (as `takeOver` leaves it: its own record
 * in the lock file) the moment the server processes the note; `alsoThen` is what the new holder does
 * then. The run stops "without writing"; `after` looks at what it left.
 */
async function runTakenOver(alsoThen: (stateDir: string) => void, after: (server: GraphitiTestServer, stateDir: string) => void): Promise<void> {
  let stateDir = '';
  let takenOver = false;
  const server = await startGraphitiServer({
    processingDelayMs: 0,
    episodeUuid: () => {
      if (!takenOver) {
        takenOver = true;
        writeFileSync(lockFilePath(stateDir), JSON.stringify({ tool: 'graphiti-memory-sync', pid: process.pid, hostname: 'elsewhere', startedAt: new Date().toISOString(), token: 'the-new-holder' }));
        alsoThen(stateDir);
      }
      return crypto.randomUUID();
    },
  });
  const box = makeSandbox(server.url);
  stateDir = box.config().stateDir;
  try {
    box.pai('LEARNING/ci.md', '# CI\n\nThe CI runs on Node 22.\n');
    await expect(runSync(box.config(), { waitMs: 3000 })).rejects.toThrow(/Lost the state lock/);
    expect(takenOver).toBe(true);
    after(server, stateDir);
  } finally {
    try {
      unlinkSync(lockFilePath(stateDir));
    } catch {
      // released already
    }
    await server.close();
    box.cleanup();
  }
}

describe('a run that lost its state lock to another process', () => {
  it('leaves the kept texts as the new holder has them (on 7a49815 its end pruned them by its stale state)', async () => {
    let theirs = '';
    // The new holder keeps the text of a version it sends.
    await runTakenOver(
      (stateDir) => {
        mkdirSync(join(stateDir, 'kept'), { recursive: true });
        theirs = join(stateDir, 'kept', `${createHash('sha256').update('[gms:theirs:0123456789ab:1/1]').digest('hex').slice(0, 32)}.json`);
        writeFileSync(theirs, JSON.stringify({ marker: '[gms:theirs:0123456789ab:1/1]', name: 'Theirs', body: 'The new holder sent this.' }));
      },
      () => expect(existsSync(theirs)).toBe(true),
    );
  });
});

/**
 * The same run's other leftovers: its end (sync.ts `endRun`) threw at the save that found the lock
 * lost, before `ledger.close` and the connection's close. Left open: the journal's file handle (one
 * more for every such run in a long-lived watch process) and the MCP session on the server (until the
 * server's idle expiry). The lock file is the new holder's, and stays so.
 */
describe('a run that lost its state lock closes what it opened', () => {
  it('its MCP session ends and its journal is no longer open; the lock stays the new holder\'s (on 612d67d both stayed open)', async () => {
    const openUnder = (dir: string) =>
      readdirSync('/proc/self/fd').some((fd) => {
        try {
          return readlinkSync(join('/proc/self/fd', fd)).startsWith(dir);
        } catch {
          return false; // closed since it was listed
        }
      });
    await runTakenOver(
      () => undefined,
      (server, stateDir) => {
        if (existsSync('/proc/self/fd')) expect(openUnder(stateDir)).toBe(false);
        expect(server.sessionIds()).toEqual([]);
        expect(JSON.parse(readFileSync(lockFilePath(stateDir), 'utf8')).token).toBe('the-new-holder');
      },
    );
  });
});
