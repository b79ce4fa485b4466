/**
 * A memory folder synced by Dropbox or Syncthing between one person's machines as well as by this
 * tool (exploratory QA, one person on several machines): the file-sync tool's conflict copy of a
 * note is not a note (memory/conflict-copy.ts FILE_SYNC_CONFLICT_COPY). On cd4bacd it was sent as
 * a note of its own, so both sides of the conflict were live knowledge in every session, and pull
 * wrote it into the linked machine's memory folder with a `MEMORY.md` line, which Claude Code
 * itself never gives it.
 */
import { existsSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { conflictOriginalName, isFileSyncConflictCopy } from '../../src/lib/memory/conflict-copy.js';
import { runSync } from '../../src/lib/sync/sync.js';
import { sleep } from '../../src/lib/util/backoff.js';
import { usePullMachines } from '../helpers/use-pull-machines.js';
import { topic } from './homes.js';

const machines = usePullMachines();
const bodies = () => machines.server.episodes().map((e) => e.content.split('\n').at(-1)).sort();

describe('a file-sync tool\'s conflict copy beside a note', () => {
  it('is not sent, nor pulled onto the other machine; the note is, once; renamed to a name of its own it is a note', async () => {
    const [laptop, desktop] = await machines.pair();
    laptop.write('deploy.md', topic('Deploy', 'Deploys go through canary.'));
    // Dropbox kept the desktop's concurrent edit beside the note; Syncthing did the same to a PAI note.
    laptop.write("deploy (Desktop's conflicted copy 2026-12-07).md", topic('Deploy', 'Deploys go through staging.'));
    laptop.box.pai('LEARNING/ci.md', '# CI\n\nThe CI runs on Node 22.\n');
    laptop.box.pai('LEARNING/ci.sync-conflict-20261207-101500-ABCDEFG.md', '# CI\n\nThe CI runs on Node 20.\n');
    await laptop.sync();
    expect(bodies()).toEqual(['Deploys go through canary.', 'The CI runs on Node 22.']);

    await desktop.pull();
    expect(readdirSync(desktop.memoryDir).sort()).toEqual(['MEMORY.md', 'deploy.md']);
    expect(readFileSync(join(desktop.memoryDir, 'MEMORY.md'), 'utf8')).not.toContain('conflicted');

    // The person keeps the other side as a note of its own: it is sent like any note.
    laptop.write('deploy-staging.md', topic('Deploy via staging', 'Deploys went through staging before canary.'));
    await laptop.sync();
    expect(bodies()).toContain('Deploys went through staging before canary.');
    expect(existsSync(join(laptop.memoryDir, "deploy (Desktop's conflicted copy 2026-12-07).md"))).toBe(true);
  });

  it('CONFLICT_COPY_ALONE: with the note itself gone, its conflict copy is the only text left of it and is a note; the note back, the copy is left out again', async () => {
    const laptop = machines.make('laptop');
    laptop.write('deploy.md', topic('Deploy', 'Deploys go through canary.'));
    laptop.write("deploy (Desktop's conflicted copy 2026-12-07).md", topic('Deploy', 'Deploys go through staging.'));
    await laptop.sync();
    expect(bodies()).toEqual(['Deploys go through canary.']);

    // The person deletes the note and keeps the other side, under the name Dropbox gave it.
    rmSync(join(laptop.memoryDir, 'deploy.md'));
    await laptop.sync();
    expect(bodies()).toEqual(['Deploys go through staging.']);

    // Written again under the note's name: the copy is the other side of a conflict once more.
    laptop.write('deploy.md', topic('Deploy', 'Deploys go through canary, then staging.'));
    await laptop.sync();
    expect(bodies()).toEqual(['Deploys go through canary, then staging.']);
  });

  it('CONFLICT_COPY_ALONE: a note caught between the two steps of its save (moved aside, then written) leaves its copy out; the copy is not sent and then deleted', async () => {
    const laptop = machines.make('laptop');
    const deploy = laptop.write('deploy.md', topic('Deploy', 'Deploys go through canary.'));
    laptop.write("deploy (Desktop's conflicted copy 2026-12-07).md", topic('Deploy', 'Deploys go through staging.'));
    await laptop.sync();
    expect(bodies()).toEqual(['Deploys go through canary.']);

    // An editor that saves by moving the note aside and writing it anew: the run's scan falls between
    // the two (mid-write.ts MID_WRITE); its wait for a note gone while its folder moves sees it back.
    renameSync(deploy, `${deploy}~`);
    let saved = false;
    await runSync(laptop.config(), {
      waitMs: 3000,
      // The run's first wait is the plan's for the note gone mid-save: the save ends meanwhile. Later ones wait as they would.
      sleep: async (ms) => {
        if (saved) return sleep(ms);
        saved = true;
        writeFileSync(deploy, topic('Deploy', 'Deploys go through canary, then staging.'));
        rmSync(`${deploy}~`);
      },
    });
    expect(saved).toBe(true);
    await laptop.sync();
    expect(bodies()).toEqual(['Deploys go through canary, then staging.']);
    // Never sent at all (on 7a49815 it was sent in that run, processed, and deleted by the next one).
    const added = machines.server.calls.filter((c) => c.tool === 'add_memory').map((c) => String(c.args.episode_body));
    expect(added.filter((body) => body.includes('Deploys go through staging.'))).toEqual([]);
  });

  it('the names file-sync tools give conflict copies, and names that only look alike', () => {
    for (const name of ['deploy (conflicted copy).md', "deploy (Laptop's conflicted copy 2026-12-07).md", 'deploy (conflicted copy 2026-12-07 101500).md', 'deploy (Conflicted Copy).MD', 'deploy.sync-conflict-20261207-101500-ABCDEFG.md', 'deploy.sync-conflict-20261207-101500.md', 'deploy_conflict-20261207-101500.md']) {
      expect(isFileSyncConflictCopy(name), name).toBe(true);
    }
    expect(conflictOriginalName("deploy (Laptop's conflicted copy 2026-12-07).md")).toBe('deploy.md');
    expect(conflictOriginalName('ci.sync-conflict-20261207-101500-ABCDEFG.md')).toBe('ci.md');
    expect(conflictOriginalName('deploy_conflict-20261207-101500.MD')).toBe('deploy.MD');
    for (const name of ['deploy.md', 'conflicted copy handling.md', 'Conflicted copies in Dropbox.md', 'deploy (copy).md', 'deploy (1).md', 'sync-conflict notes.md', 'deploy (conflicted copy) notes.md', 'merge_conflict-resolution.md']) {
      expect(isFileSyncConflictCopy(name), name).toBe(false);
    }
  });
});
