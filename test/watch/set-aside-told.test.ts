/**
 * SET_ASIDE_WHEN_GROUP_EMPTY (state/set-aside.ts) under `watch`: the watch's pull removes a note
 * whose group lists nothing at all, its text kept aside, as the worker's pull does; the next session
 * is to be told once, where the text is and the steps. On 8fc2c7a only the hook's worker recorded
 * that line (hooks/worker.ts): with watch running, whose pull runs every few minutes (and keeps the
 * worker's own pull from being due), the note left the memory folder and no session was told.
 */
import { existsSync, mkdirSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SET_ASIDE_NOTE_FILE, takeSetAsideNote } from '../../src/lib/context/set-aside-note.js';
import { readSetAside } from '../../src/lib/state/set-aside.js';
import { PULLED_FILE } from '../../src/lib/state/pulled.js';
import { createLogger } from '../../src/lib/util/log.js';
import { PassProcess } from '../../src/lib/watch/pass-process.js';
import { usePullMachines } from '../helpers/use-pull-machines.js';
import { topic } from '../pull/homes.js';

const machines = usePullMachines();

describe('a note the watch\'s pull sets aside', () => {
  it('is told to the next session, as the worker\'s is', async () => {
    const [a] = await machines.pair();
    const file = a.write('build.md', topic('Build', 'The build uses Bun.'));
    await a.sync();
    await a.pull();
    await machines.server.restart({ data: 'lost' });
    // The watch's pull is due (its period passed since the last one).
    const stamp = (Date.now() - 10 * 60_000) / 1000;
    utimesSync(join(a.config().stateDir, PULLED_FILE), stamp, stamp);
    const passes = new PassProcess({ config: a.config(), logger: createLogger({ level: 'silent' }), lockTimeoutMs: 5000, idleMs: 60_000 });
    try {
      await passes.run(new AbortController().signal);
    } finally {
      await passes.close();
    }
    expect(existsSync(file)).toBe(false);
    const [aside] = readSetAside(a.config().stateDir);
    expect(aside?.file).toBe(file);
    expect(takeSetAsideNote(a.config().stateDir) ?? 'no line for the session').toContain(aside?.kept as string);
  });

  it('a line that cannot be recorded costs the pass nothing: it ends with its summary, as the worker\'s does (on 7a49815 the error ended the pass process: the pass failed, its summary lost)', async () => {
    const [a] = await machines.pair();
    a.write('build.md', topic('Build', 'The build uses Bun.'));
    await a.sync();
    await a.pull();
    await machines.server.restart({ data: 'lost' });
    const stamp = (Date.now() - 10 * 60_000) / 1000;
    utimesSync(join(a.config().stateDir, PULLED_FILE), stamp, stamp);
    // Where the session's line goes, something that cannot be replaced by a file.
    mkdirSync(join(a.config().stateDir, SET_ASIDE_NOTE_FILE, 'in-the-way'), { recursive: true });
    const passes = new PassProcess({ config: a.config(), logger: createLogger({ level: 'silent' }), lockTimeoutMs: 5000, idleMs: 60_000 });
    try {
      const summary = await passes.run(new AbortController().signal);
      expect(summary.serverReachable).toBe(true);
    } finally {
      await passes.close();
    }
    expect(readSetAside(a.config().stateDir)).toHaveLength(1);
  }, 30_000);
});
