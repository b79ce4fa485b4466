/**
 * first-polls.ts on its own: what the scan read of each polled file, looked at once after the pass
 * that follows (the watch's side, with chokidar, is in start.test.ts).
 */
import { lstatSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FirstPolls } from '../../src/lib/watch/first-polls.js';

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'gms-first-polls-'));
  mkdirSync(join(dir, 'sub'));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** A scan of `names` (files written now), as chokidar's ignored filter sees it, then its ready with chokidar's listing. */
function scanned(polls: FirstPolls, names: string[]): void {
  polls.begin();
  for (const name of names) {
    writeFileSync(join(dir, name), `${name} v1`);
    polls.scanned(join(dir, name), lstatSync(join(dir, name)));
  }
  // chokidar lists folders too (sub), which the scan never handed as polled files.
  polls.ready([[dir, [...names, 'sub']]]);
}

describe('FirstPolls', () => {
  it('reports what changed or went since the scan, once, for the first pass after it; nothing for what is as the scan read it', async () => {
    const polls = new FirstPolls();
    scanned(polls, ['same.md', 'edited.md', 'gone.md']);
    const states = polls.passStarts();
    expect(states).toBeDefined();
    // Only the first pass after a scan checks.
    expect(polls.passStarts()).toBeUndefined();
    writeFileSync(join(dir, 'edited.md'), 'edited.md v2, longer');
    rmSync(join(dir, 'gone.md'));
    const changes = await polls.check(states ?? [], () => true);
    expect(changes.map((c) => [c.path, c.kind]).sort()).toEqual([
      [join(dir, 'edited.md'), 'change'],
      [join(dir, 'gone.md'), 'unlink'],
    ]);
    expect(polls.passStarts()).toBeUndefined();
  });

  it("a file chokidar's poll reported meanwhile is not looked at; the check's report, reported again by chokidar in the same state, owes nothing, in another state it does", async () => {
    const polls = new FirstPolls();
    scanned(polls, ['polled.md', 'checked.md']);
    const states = polls.passStarts() ?? [];
    writeFileSync(join(dir, 'polled.md'), 'polled.md v2, longer');
    expect(polls.seenAgain(join(dir, 'polled.md'), 'change')).toBe(false);
    writeFileSync(join(dir, 'checked.md'), 'checked.md v2, longer');
    const changes = await polls.check(states, () => true);
    expect(changes.map((c) => c.path)).toEqual([join(dir, 'checked.md')]);
    for (const change of changes) polls.reportedAs(change);
    expect(polls.seenAgain(join(dir, 'checked.md'), 'change')).toBe(true);
    // Once: a later report is news.
    expect(polls.seenAgain(join(dir, 'checked.md'), 'change')).toBe(false);
    polls.reportedAs(changes[0] as (typeof changes)[0]);
    writeFileSync(join(dir, 'checked.md'), 'checked.md v3, longer still');
    expect(polls.seenAgain(join(dir, 'checked.md'), 'change')).toBe(false);
  });

  it('a watching started afresh during the pass: that pass reports nothing, the new scan is checked by the pass after it', async () => {
    const polls = new FirstPolls();
    scanned(polls, ['a.md']);
    const first = polls.passStarts() ?? [];
    // Watched afresh while the pass runs: a new scan.
    scanned(polls, ['a.md']);
    writeFileSync(join(dir, 'a.md'), 'a.md v2, longer');
    expect(await polls.check(first, () => false)).toEqual([]);
    const second = polls.passStarts();
    expect(second).toBeDefined();
    expect((await polls.check(second ?? [], () => true)).map((c) => c.path)).toEqual([join(dir, 'a.md')]);
  });

  it('FIRST_POLL_SECOND_LOOK: the look after the check reports what moved since it that chokidar did not report; what the check found gone, or chokidar reported, is not reported again; once', async () => {
    const polls = new FirstPolls();
    scanned(polls, ['swallowed.md', 'polled.md', 'gone.md', 'still.md']);
    const states = polls.passStarts() ?? [];
    rmSync(join(dir, 'gone.md'));
    expect((await polls.check(states, () => true)).map((c) => [c.path, c.kind])).toEqual([[join(dir, 'gone.md'), 'unlink']]);
    // After the check: an edit chokidar's first stat swallowed, and one its poll reported.
    writeFileSync(join(dir, 'swallowed.md'), 'swallowed.md v2, longer');
    writeFileSync(join(dir, 'polled.md'), 'polled.md v2, longer');
    expect(polls.seenAgain(join(dir, 'polled.md'), 'change')).toBe(false);
    const again = await polls.lookAgain(() => true);
    expect(again.map((c) => [c.path, c.kind])).toEqual([[join(dir, 'swallowed.md'), 'change']]);
    expect(await polls.lookAgain(() => true)).toEqual([]);
  });

  it('the second look of a watching that stopped, or started afresh meanwhile, reports nothing', async () => {
    const polls = new FirstPolls();
    scanned(polls, ['a.md']);
    await polls.check(polls.passStarts() ?? [], () => true);
    writeFileSync(join(dir, 'a.md'), 'a.md v2, longer');
    expect(await polls.lookAgain(() => false)).toEqual([]);
    scanned(polls, ['a.md']);
    await polls.check(polls.passStarts() ?? [], () => true);
    scanned(polls, ['a.md']); // watched afresh before the look
    writeFileSync(join(dir, 'a.md'), 'a.md v3, longer still');
    expect(await polls.lookAgain(() => true)).toEqual([]);
  });
});
