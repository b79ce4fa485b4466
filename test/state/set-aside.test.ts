/** state/set-aside.ts: a copy the index does not list is not kept (NO_COPY_WITHOUT_INDEX, UNLISTED_COPY_GONE); one it may list is (INDEX_READ_OR_NOTHING). */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { pruneSetAside, readSetAside, setAside, SET_ASIDE_DAYS } from '../../src/lib/state/set-aside.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function home(): { stateDir: string; file: string } {
  const root = mkdtempSync(join(tmpdir(), 'gms-set-aside-'));
  dirs.push(root);
  const stateDir = join(root, 'state');
  mkdirSync(stateDir);
  const file = join(root, 'build.md');
  writeFileSync(file, '---\ntitle: Build\n---\nThe build uses Bun.\n');
  return { stateDir, file };
}

describe('setAside', () => {
  it('NO_COPY_WITHOUT_INDEX: when the index cannot be written, the copy is not left behind (never pruned, never said), and it throws so the file is not removed', () => {
    const { stateDir, file } = home();
    // The index cannot be written (a folder where it goes); the copy itself can.
    mkdirSync(join(stateDir, 'set-aside', 'index.json'), { recursive: true });
    const at = new Date().toISOString();
    expect(() => setAside(stateDir, { file, group: 'main', origin: 'm1', at })).toThrow();
    expect(readdirSync(join(stateDir, 'set-aside'))).toEqual(['index.json']);
    // Its time up, a pull's prune would still not reach a copy the index never listed.
    pruneSetAside(stateDir, Date.parse(at) + (SET_ASIDE_DAYS + 1) * 86_400_000);
    expect(readdirSync(join(stateDir, 'set-aside'))).toEqual(['index.json']);
  });

  it('control: with the index writable, the copy is kept and listed', () => {
    const { stateDir, file } = home();
    const entry = setAside(stateDir, { file, group: 'main', origin: 'm1', at: new Date().toISOString() });
    expect(readSetAside(stateDir)).toEqual([entry]);
    expect(readdirSync(join(stateDir, 'set-aside')).sort()).toEqual(['index.json', entry.kept.split('/').pop()].sort());
  });

  it('UNLISTED_COPY_GONE: a copy a setAside killed before its index write left is removed at the next prune; listed copies and the index stay', () => {
    const { stateDir, file } = home();
    const at = new Date().toISOString();
    const listed = setAside(stateDir, { file, group: 'main', origin: 'm1', at });
    // What a kill between the copy and the index write leaves: a copy no entry names (and a temp file of an index write cut short).
    writeFileSync(join(stateDir, 'set-aside', '2026-12-07T10-00-00-000Z-build.md'), 'The build uses Bun.\n');
    writeFileSync(join(stateDir, 'set-aside', 'index.json.tmp-123'), '[');
    pruneSetAside(stateDir, Date.parse(at) + 1000);
    expect(readdirSync(join(stateDir, 'set-aside')).sort()).toEqual(['index.json', listed.kept.split('/').pop()].sort());
    expect(readSetAside(stateDir)).toEqual([listed]);
  });

  it('UNLISTED_COPY_GONE with nothing listed: the unlisted copy goes too', () => {
    const { stateDir } = home();
    mkdirSync(join(stateDir, 'set-aside'), { recursive: true });
    writeFileSync(join(stateDir, 'set-aside', '2026-12-07T10-00-00-000Z-build.md'), 'The build uses Bun.\n');
    pruneSetAside(stateDir, Date.now());
    expect(readdirSync(join(stateDir, 'set-aside'))).toEqual([]);
  });

  // A set-aside copy is the only text left of a note pull removed: a prune that cannot read the index
  // cannot tell which copies it lists, and removes none (on 7a49815 it took every copy for unlisted).
  it('UNLISTED_COPY_GONE: an index that cannot be read (torn, or not a list) leaves every copy where it is', () => {
    for (const torn of ['[{"file":"/home/me/build.md","kept":', '{"notes":[]}']) {
      const { stateDir, file } = home();
      const at = new Date().toISOString();
      const entry = setAside(stateDir, { file, group: 'main', origin: 'm1', at });
      writeFileSync(join(stateDir, 'set-aside', 'index.json'), torn);
      pruneSetAside(stateDir, Date.parse(at) + 1000);
      expect(existsSync(entry.kept), torn).toBe(true);
      // Nor is a new entry written over it: the index would then list the new copy alone, and the next prune take the older one for unlisted.
      expect(() => setAside(stateDir, { file, group: 'main', origin: 'm1', at: new Date(Date.parse(at) + 2000).toISOString() })).toThrow(/cannot be read/);
      pruneSetAside(stateDir, Date.parse(at) + 3000);
      expect(existsSync(entry.kept), torn).toBe(true);
    }
  });

  it('UNLISTED_COPY_GONE: a copy an entry of another shape lists (a newer build\'s, before a downgrade) is listed all the same', () => {
    const { stateDir, file } = home();
    const at = new Date().toISOString();
    const entry = setAside(stateDir, { file, group: 'main', origin: 'm1', at });
    // The same entry as a newer build might write it: one field of another type.
    writeFileSync(join(stateDir, 'set-aside', 'index.json'), JSON.stringify([{ ...entry, origin: { machine: 'm1' } }]));
    pruneSetAside(stateDir, Date.parse(at) + 1000);
    expect(existsSync(entry.kept)).toBe(true);
  });

  it('a state folder moved (MADEINOZ_KNOWLEDGE_STATE_DIR set to where it went, a home restored elsewhere) keeps its copies: each is the one its entry names, where it is now', () => {
    const { stateDir, file } = home();
    const at = new Date().toISOString();
    const entry = setAside(stateDir, { file, group: 'main', origin: 'm1', at });
    const moved = `${stateDir}-moved`;
    renameSync(stateDir, moved);
    const here = join(moved, 'set-aside', basename(entry.kept));
    // Two pulls (on 7a49815 the first forgot the entry, its copy not at the path it names; the second removed the copy as unlisted).
    pruneSetAside(moved, Date.parse(at) + 1000);
    pruneSetAside(moved, Date.parse(at) + 2000);
    expect(existsSync(here)).toBe(true);
    expect(readSetAside(moved).map((n) => n.kept)).toEqual([here]);
  });
});
