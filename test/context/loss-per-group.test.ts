/**
 * LOSS_PER_GROUP (context/graph-problem.ts): the warning of what the graph lost holds a loss per
 * group, so one group's problem never hides another's. On 539ca3f5 the record held one problem:
 * a group found emptied (EMPTIED_GRAPH) replaced a `lost` record of another group (LOST_SEEN_IN_PASSING),
 * and a loss seen while an emptied group was on record was dropped, so the first loss went untold
 * until a later listing of its group saw it again (and none did once the emptied warning ended).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GRAPH_PROBLEM_FILE, clearEmptiedGraph, graphLossText, lostNamesParts, readGraphProblem, recordEmptiedGraph, recordGraphProblem, recordLostSeen, refreshShowed, settleLostParts, takeGraphProblemNote } from '../../src/lib/context/graph-problem.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const stateDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'gms-loss-per-group-'));
  dirs.push(d);
  return d;
};
const LOST_A = [{ group: 'alpha', notes: 2, parts: [{ id: 'a1', uuid: 'u1' }, { id: 'a2', uuid: 'u2' }] }];

describe('a loss per group (LOSS_PER_GROUP)', () => {
  it('a group found emptied keeps another group\'s loss on record, and the session is told both', () => {
    const dir = stateDir();
    recordLostSeen(dir, LOST_A);
    expect(takeGraphProblemNote(dir)).toContain('2 notes in group alpha');
    recordEmptiedGraph(dir, [{ group: 'beta', notes: 3 }]);
    const problem = readGraphProblem(dir);
    expect(problem?.kind).toBe('emptied'); // the worse first
    expect(problem?.groups?.map((g) => [g.group, g.kind])).toEqual([['alpha', 'lost'], ['beta', 'emptied']]);
    const note = takeGraphProblemNote(dir); // news: told again
    expect(note).toContain('3 notes in group beta');
    expect(note).toContain('2 notes in group alpha');
    expect(note).toContain('sync --force');
  });

  it('the emptied group shown again ends its part only: the other group\'s loss is still told, and its notes still settle it', () => {
    const dir = stateDir();
    recordLostSeen(dir, LOST_A);
    recordEmptiedGraph(dir, [{ group: 'beta', notes: 3 }]);
    refreshShowed(dir, ['beta', 'alpha']); // alpha shows other notes: that is how its loss went unseen
    expect(readGraphProblem(dir)).toMatchObject({ kind: 'lost', detail: '2 notes in group alpha' });
    expect(graphLossText(readGraphProblem(dir)!, 'sync --force')).toContain('no longer holds memory notes this machine sent to it and it had confirmed (2 notes in group alpha)');
    // Its notes sent again: the warning ends with the last.
    settleLostParts(dir, () => undefined);
    expect(readGraphProblem(dir)).toBeUndefined();
  });

  it('a loss seen while another group is on record as emptied is recorded beside it, and settles while the emptied one stays', () => {
    const dir = stateDir();
    recordEmptiedGraph(dir, [{ group: 'beta', notes: 3 }]);
    takeGraphProblemNote(dir);
    recordLostSeen(dir, LOST_A);
    expect(readGraphProblem(dir)?.groups?.map((g) => [g.group, g.kind])).toEqual([['beta', 'emptied'], ['alpha', 'lost']]);
    expect(readGraphProblem(dir)?.told).toBe(false); // news
    expect(lostNamesParts(dir)).toBe(true);
    settleLostParts(dir, (_g, p) => (p.id === 'a1' ? p : undefined));
    expect(readGraphProblem(dir)?.groups).toEqual([{ group: 'beta', notes: 3, kind: 'emptied' }, { group: 'alpha', notes: 1, kind: 'lost', parts: [{ id: 'a1', uuid: 'u1' }] }]);
    settleLostParts(dir, () => undefined);
    expect(readGraphProblem(dir)).toMatchObject({ kind: 'emptied', detail: '3 notes in group beta' });
  });

  it('the same group seen lost while on record as emptied stays emptied (it says more); emptied after lost becomes emptied', () => {
    const dir = stateDir();
    recordEmptiedGraph(dir, [{ group: 'alpha', notes: 2 }]);
    recordLostSeen(dir, LOST_A);
    expect(readGraphProblem(dir)).toMatchObject({ kind: 'emptied', groups: [{ group: 'alpha', notes: 2, kind: 'emptied' }] });
    const other = stateDir();
    recordLostSeen(other, LOST_A);
    recordEmptiedGraph(other, [{ group: 'alpha', notes: 2 }]);
    expect(readGraphProblem(other)).toMatchObject({ kind: 'emptied', groups: [{ group: 'alpha', notes: 2, kind: 'emptied' }] });
  });

  it('nothing seen lost or emptied changes nothing: an outage on record stays', () => {
    const dir = stateDir();
    recordGraphProblem(dir, 'unreachable', '');
    recordLostSeen(dir, []);
    recordEmptiedGraph(dir, []);
    expect(readGraphProblem(dir)?.kind).toBe('unreachable');
  });

  it('sync --force ends both', () => {
    const dir = stateDir();
    recordLostSeen(dir, LOST_A);
    recordEmptiedGraph(dir, [{ group: 'beta', notes: 3 }]);
    clearEmptiedGraph(dir);
    expect(readGraphProblem(dir)).toBeUndefined();
  });

  it('a record written before the rule (groups without a kind) reads as its kind\'s', () => {
    const dir = stateDir();
    writeFileSync(join(dir, GRAPH_PROBLEM_FILE), JSON.stringify({ kind: 'lost', detail: '2 notes in group alpha', since: '2026-12-01T10:00:00.000Z', told: true, groups: LOST_A }));
    recordEmptiedGraph(dir, [{ group: 'beta', notes: 3 }]);
    expect(readGraphProblem(dir)?.groups?.map((g) => [g.group, g.kind])).toEqual([['alpha', 'lost'], ['beta', 'emptied']]);
    expect(readGraphProblem(dir)?.since).toBe('2026-12-01T10:00:00.000Z'); // the loss began then
  });

  it('an emptied warning of a build that named no groups is not replaced by a loss seen in another group (GROUPLESS_EMPTIED_KEPT)', () => {
    const dir = stateDir();
    // EMPTIED_WARNING_OWNS_ITS_GROUPS came later: this build's record has a detail and no groups.
    writeFileSync(join(dir, GRAPH_PROBLEM_FILE), JSON.stringify({ kind: 'emptied', detail: '3 notes in group beta', since: '2026-12-01T10:00:00.000Z', told: false }));
    recordLostSeen(dir, LOST_A);
    const note = takeGraphProblemNote(dir);
    expect(note).toContain('3 notes in group beta');
    expect(note).toContain('holds none of the memory notes');
    expect(readGraphProblem(dir)?.since).toBe('2026-12-01T10:00:00.000Z');
  });

  it('many groups of both kinds: five named in all, the rest counted, each kind said (DETAIL_NAMES_FEW)', () => {
    const dir = stateDir();
    recordLostSeen(dir, Array.from({ length: 40 }, (_, i) => ({ group: `lost_group_${i}`, notes: 1 })));
    recordEmptiedGraph(dir, Array.from({ length: 3 }, (_, i) => ({ group: `emptied_group_${i}`, notes: 2 })));
    const problem = readGraphProblem(dir)!;
    expect(problem.groups).toHaveLength(43);
    expect(problem.detail).toContain('2 notes in group emptied_group_0');
    expect(problem.detail).toContain('1 note in group lost_group_1');
    expect(problem.detail).not.toContain('lost_group_2');
    expect(problem.detail).toContain('38 notes in 38 more groups');
    expect(takeGraphProblemNote(dir)!.length).toBeLessThan(1200);
  });
});
