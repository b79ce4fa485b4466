/** context/set-aside-note.ts: what two pulls set aside before a session reaches it (UNTOLD_NOTES_ADD_UP). */
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { recordSetAsideNote } from '../../src/lib/context/set-aside-record.js';
import { takeSetAsideNote } from '../../src/lib/context/set-aside-note.js';
import { pruneSetAside, setAside, setAsideSaid, type SetAsideNote } from '../../src/lib/state/set-aside.js';
import { writeOnceNote } from '../../src/lib/context/once-note.js';
import { SET_ASIDE_NOTE_FILE } from '../../src/lib/context/set-aside-note.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function home(): { root: string; stateDir: string } {
  const root = mkdtempSync(join(tmpdir(), 'gms-set-aside-note-'));
  dirs.push(root);
  const stateDir = join(root, 'state');
  mkdirSync(stateDir);
  return { root, stateDir };
}

/** What a pull does: the note's text copied aside (then the file removed), the entry reported. */
function pulledAside(root: string, stateDir: string, name: string, group: string): SetAsideNote {
  const file = join(root, name);
  writeFileSync(file, `---\ntitle: ${name}\n---\ntext of ${name}\n`);
  const entry = setAside(stateDir, { file, group, origin: 'm1', at: new Date().toISOString() });
  unlinkSync(file);
  return entry;
}

describe('the session note of what pull set aside', () => {
  it('UNTOLD_NOTES_ADD_UP: two pulls set notes aside before a session starts: the session is told of both (the first named, the other counted), once', () => {
    const { root, stateDir } = home();
    const first = pulledAside(root, stateDir, 'build.md', 'main');
    recordSetAsideNote(stateDir, [first]);
    const second = pulledAside(root, stateDir, 'lint.md', 'team');
    recordSetAsideNote(stateDir, [second]);
    const note = takeSetAsideNote(stateDir) ?? '';
    expect(note).toContain(`${first.file} was removed by pull`);
    expect(note).toContain('1 more such note(s) were set aside the same way (`status` lists them)');
    expect(takeSetAsideNote(stateDir)).toBeUndefined();
  });

  it('OLDER_LINE_READ_BACK: an untold line of an older build (no note list) is kept told when a new pull adds its own', () => {
    const { root, stateDir } = home();
    // One pull of an older build set two notes aside (one time for both) and wrote its line without a list.
    const at = new Date(Date.now() - 60_000).toISOString();
    const older = ['build.md', 'lint.md'].map((name) => {
      const file = join(root, name);
      writeFileSync(file, `---\ntitle: ${name}\n---\ntext of ${name}\n`);
      const entry = setAside(stateDir, { file, group: 'main', origin: 'm1', at });
      unlinkSync(file);
      return entry;
    });
    writeOnceNote(stateDir, SET_ASIDE_NOTE_FILE, setAsideSaid(older));
    const third = pulledAside(root, stateDir, 'deploy.md', 'team');
    recordSetAsideNote(stateDir, [third]);
    const note = takeSetAsideNote(stateDir) ?? '';
    expect(note).toContain(`${older[0]?.file} was removed by pull`);
    expect(note).toContain('2 more such note(s) were set aside the same way');
    expect(takeSetAsideNote(stateDir)).toBeUndefined();
  });

  it('control: once told, the next pull\'s note is its own (the told one is not repeated); a note whose copy was moved back drops out', () => {
    const { root, stateDir } = home();
    const first = pulledAside(root, stateDir, 'build.md', 'main');
    recordSetAsideNote(stateDir, [first]);
    expect(takeSetAsideNote(stateDir)).toContain(first.file);
    const second = pulledAside(root, stateDir, 'lint.md', 'team');
    recordSetAsideNote(stateDir, [second]);
    // The person moved the second back before the third pull, which forgets it (pruned at its start).
    rmSync(second.kept);
    pruneSetAside(stateDir, Date.now());
    const third = pulledAside(root, stateDir, 'deploy.md', 'team');
    recordSetAsideNote(stateDir, [third]);
    const note = takeSetAsideNote(stateDir) ?? '';
    expect(note).toContain(`${third.file} was removed by pull`);
    expect(note).not.toContain(first.file);
    expect(note).not.toContain('more such note');
  });
});
