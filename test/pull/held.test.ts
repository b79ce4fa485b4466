/**
 * Notes held for a project not opened on this machine (issue 42): kept in the ledger while the note
 * is in the graph, and counted by `status`. A held note deleted on its machine, or its project opened
 * here, is no longer held: `status` does not go on counting it.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readPulled } from '../../src/lib/state/pulled.js';
import { claudeProjectKey } from '../../src/lib/util/claude-project-key.js';
import { usePullMachines } from '../helpers/use-pull-machines.js';
import { link, topic } from './homes.js';

const machines = usePullMachines();
const { make } = machines;

describe('pull: held notes', () => {
  it('a held note deleted on its machine is no longer held; nor one whose project was opened here', async () => {
    const a = make('laptop');
    const b = make('desktop', 'git@github.com:me/other.git');
    await link(a, b);
    a.write('gone.md', topic('Gone', 'Deleted soon.'));
    a.write('stays.md', topic('Stays', 'Comes in when the project is opened.'));
    await a.sync();
    expect((await b.pull()).held.map((h) => h.path).sort()).toEqual(['gone.md', 'stays.md']);
    expect(Object.keys((await readPulled(b.config().stateDir)).held)).toHaveLength(2);
    rmSync(join(a.memoryDir, 'gone.md'));
    await a.sync();
    expect((await b.pull()).held.map((h) => h.path)).toEqual(['stays.md']);
    expect(Object.values((await readPulled(b.config().stateDir)).held).map((h) => h.path)).toEqual(['stays.md']);
    // The project is opened here, its note already in place (copied by hand from `pull --to`): adopted, not held.
    const to = join(b.box.root, 'held');
    const written = (await b.pull({ to })).held[0]?.written ?? '';
    const app = join(b.box.root, 'code', 'app');
    execFileSync('git', ['init', '-q', app]);
    execFileSync('git', ['-C', app, 'remote', 'add', 'origin', 'git@github.com:me/app.git']);
    writeFileSync(join(b.box.path('claude'), '.claude.json'), JSON.stringify({ projects: { [b.repo]: {}, [app]: {} } }));
    b.box.auto(claudeProjectKey(app), 'stays.md', readFileSync(written, 'utf8'));
    const opened = await b.pull();
    expect([opened.held, opened.written]).toEqual([[], []]);
    expect((await readPulled(b.config().stateDir)).held).toEqual({});
  });
});
