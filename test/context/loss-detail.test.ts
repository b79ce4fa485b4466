/**
 * DETAIL_NAMES_FEW (context/graph-problem.ts): the `emptied` and `lost` warnings name their groups in
 * one line of the session's context. Naming every group, a machine that syncs many groups (a team's
 * projects, a group per project) wrote a line longer than the context's budget, and the session got
 * nothing at all (the context is cut at whole lines, and the warning comes first). Now the first few groups are named and the
 * rest counted; `status` says the same.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readGraphProblem, recordEmptiedGraph, recordLostSeen, takeGraphProblemNote } from '../../src/lib/context/graph-problem.js';
import { sessionStartOutput } from '../../src/hooks/hook-io.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const stateDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'gms-loss-detail-'));
  dirs.push(d);
  return d;
};
const groups = (n: number) => Array.from({ length: n }, (_, i) => ({ group: `team_project_number_${String(i).padStart(3, '0')}`, notes: 2 }));

describe('a loss in many groups (DETAIL_NAMES_FEW)', () => {
  it.each([
    ['emptied', (dir: string, g: ReturnType<typeof groups>) => recordEmptiedGraph(dir, g)],
    ['lost', (dir: string, g: ReturnType<typeof groups>) => recordLostSeen(dir, g)],
  ] as const)('%s: names the first groups, counts the rest, and the note stays short', (_kind, record) => {
    const dir = stateDir();
    record(dir, groups(120));
    const problem = readGraphProblem(dir);
    expect(problem?.groups).toHaveLength(120); // every group is still on record
    expect(problem?.detail).toContain('2 notes in group team_project_number_000');
    expect(problem?.detail).toContain('and 230 notes in 115 more groups');
    expect(problem?.detail).not.toContain('team_project_number_005');
    const note = takeGraphProblemNote(dir);
    expect(note).toBeDefined();
    expect((note as string).length).toBeLessThan(1200);
    // What the session gets at a budget of 1,500: the warning and the knowledge after it (before, nothing at all).
    const out = sessionStartOutput(`${note as string}\n\nThe build uses Bun.`, 1500);
    expect(out).toContain('team_project_number_000');
    expect(out).toContain('The build uses Bun.');
  });

  it('a few groups are all named, as before', () => {
    const dir = stateDir();
    recordEmptiedGraph(dir, groups(3));
    expect(readGraphProblem(dir)?.detail).toBe('2 notes in group team_project_number_000, 2 notes in group team_project_number_001, 2 notes in group team_project_number_002');
  });
});
