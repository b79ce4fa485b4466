import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createPathFilter } from '../../src/lib/watch/filter.js';
import { WriteStabilizer, type FileSignature } from '../../src/lib/watch/stabilizer.js';
import { FakeClock, flushMicrotasks } from '../support/fake-clock.js';

describe('WriteStabilizer', () => {
  function setup(thresholdMs = 100, maxWaitMs?: number) {
    const clock = new FakeClock();
    const files = new Map<string, FileSignature>();
    const settled: Array<[string, string]> = [];
    let drained = 0;
    const s = new WriteStabilizer({
      thresholdMs,
      pollMs: 25,
      ...(maxWaitMs === undefined ? {} : { maxWaitMs }),
      clock,
      stat: async (p) => files.get(p),
      onSettled: (p, outcome) => settled.push([p, outcome]),
      onDrained: () => drained++,
    });
    return { clock, files, settled, s, drained: () => drained };
  }

  it('settles a file once size and mtime stay put for the threshold, then stops polling', async () => {
    const h = setup();
    h.files.set('/a.md', { size: 10, mtimeMs: 1 });
    h.s.track('/a.md');
    expect(h.s.size).toBe(1);
    await h.clock.advance(75);
    expect(h.settled).toEqual([]);
    await h.clock.advance(50);
    expect(h.settled).toEqual([['/a.md', 'stable']]);
    expect(h.drained()).toBe(1);
    expect(h.s.size).toBe(0);
    expect(h.clock.pending).toBe(0);
  });

  it('keeps waiting while the file grows (or is rewritten at the same size)', async () => {
    const h = setup();
    h.files.set('/a.md', { size: 10, mtimeMs: 1 });
    h.s.track('/a.md');
    for (let i = 0; i < 20; i++) {
      await h.clock.advance(25);
      h.files.set('/a.md', { size: 10 + (i % 2 === 0 ? i : 0), mtimeMs: 2 + i });
    }
    expect(h.settled).toEqual([]);
    await h.clock.advance(150);
    expect(h.settled).toEqual([['/a.md', 'stable']]);
  });

  it('gives up on a file that never stops changing, and drops vanished files', async () => {
    const h = setup(100, 1000);
    h.files.set('/log.md', { size: 1, mtimeMs: 1 });
    h.s.track('/log.md');
    h.s.track('/gone.md');
    let n = 1;
    for (let i = 0; i < 60; i++) {
      h.files.set('/log.md', { size: ++n, mtimeMs: n });
      await h.clock.advance(25);
    }
    expect(h.settled).toEqual([
      ['/gone.md', 'gone'],
      ['/log.md', 'timeout'],
    ]);
  });

  it('forget() releases a file at once; threshold 0 settles immediately', async () => {
    const h = setup();
    h.files.set('/a.md', { size: 1, mtimeMs: 1 });
    h.s.track('/a.md');
    h.s.forget('/a.md');
    expect(h.drained()).toBe(1);
    expect(h.clock.pending).toBe(0);
    const z = setup(0);
    z.s.track('/b.md');
    await flushMicrotasks();
    expect(z.settled).toEqual([['/b.md', 'stable']]);
    expect(z.s.size).toBe(0);
  });
});

describe('createPathFilter', () => {
  const root = '/home/u';
  const sources = [
    { name: 'pai', kind: 'pai' as const, root: join(root, '.claude', 'MEMORY'), origin: 'm-test', shared: false },
    { name: 'auto-memory', kind: 'auto-memory' as const, root: join(root, '.claude', 'projects'), origin: 'm-test', shared: false },
    { name: 'notes', kind: 'extra' as const, root: join(root, 'notes'), origin: 'm-test', shared: false },
  ];
  const f = createPathFilter(sources, ['**/drafts/**', 'private.md']);
  const file = (p: string) => f.classify(join(root, p), 'file');
  const dir = (p: string) => f.classify(join(root, p), 'dir');

  it('accepts memory files where the scan looks', () => {
    expect(file('.claude/MEMORY/LEARNING/SYSTEM/2026-01/a.md')).toEqual({ source: 'pai', kind: 'pai', relPath: 'LEARNING/SYSTEM/2026-01/a.md' });
    expect(file('.claude/MEMORY/RESEARCH/x.MD')?.source).toBe('pai');
    expect(file('.claude/projects/-home-u-repo/memory/topic.md')?.relPath).toBe('-home-u-repo/memory/topic.md');
    expect(file('notes/sub/idea.markdown')?.source).toBe('notes');
  });

  it('ignores editor temp and swap files, hidden entries and node_modules', () => {
    for (const name of ['.foo.md.swp', 'foo.md.swp', 'foo.md.swo', 'foo.md~', '4913', '.#foo.md', '#foo.md#', 'foo.md.tmp', '.DS_Store', 'foo.md.crswap', '.hidden.md']) {
      expect(file(`notes/${name}`), name).toBeUndefined();
      expect(f.ignored(join(root, 'notes', name)), name).toBe(true);
    }
    expect(dir('notes/.git')).toBeUndefined();
    expect(file('notes/.obsidian/x.md')).toBeUndefined();
    expect(file('notes/node_modules/pkg/readme.md')).toBeUndefined();
    expect(f.ignored(join(root, 'notes', 'node_modules'))).toBe(true);
  });

  it('ignores non-markdown files and places the scan never looks', () => {
    expect(file('notes/data.json')).toBeUndefined();
    expect(file('.claude/MEMORY/LEARNING/notes.markdown')).toBeUndefined(); // .markdown: extra sources only
    expect(file('.claude/MEMORY/WORK/task.md')).toBeUndefined();
    expect(f.ignored(join(root, '.claude/MEMORY/WORK'))).toBe(true);
    expect(file('.claude/MEMORY/top.md')).toBeUndefined();
    expect(file('.claude/projects/-p/memory/MEMORY.md')).toBeUndefined();
    expect(file('.claude/projects/-p/session.jsonl')).toBeUndefined();
    expect(f.ignored(join(root, '.claude/projects/-p/subagents'))).toBe(true);
    expect(f.ignored(join(root, '.claude/projects/-p'))).toBe(false);
    expect(f.ignored(join(root, '.claude/projects/-p/memory'))).toBe(false);
  });

  it('a moved auto-memory folder (layout folder): its notes and team stores, not its MEMORY.md indexes', () => {
    const moved = createPathFilter([{ name: 'auto-memory-dir', kind: 'auto-memory', layout: 'folder', root: join(root, 'moved'), origin: 'm-test', shared: false }]);
    expect(moved.classify(join(root, 'moved', 'build.md'), 'file')).toEqual({ source: 'auto-memory-dir', kind: 'auto-memory', relPath: 'build.md' });
    expect(moved.classify(join(root, 'moved', 'team', 'acme-web', 'deploy.md'), 'file')?.relPath).toBe('team/acme-web/deploy.md');
    expect(moved.classify(join(root, 'moved', 'MEMORY.md'), 'file')).toBeUndefined();
    expect(moved.classify(join(root, 'moved', 'team', 'acme-web', 'MEMORY.md'), 'file')).toBeUndefined();
  });

  it('does not mistake a symlink (lstat) for a file: it may lead to a folder', () => {
    const link = { isDirectory: () => false, isSymbolicLink: () => true, isFile: () => false } as never;
    const regular = { isDirectory: () => false, isSymbolicLink: () => false, isFile: () => true } as never;
    expect(f.ignored(join(root, 'notes', 'linked-folder'), link)).toBe(false);
    expect(f.ignored(join(root, 'notes', 'linked-folder'), regular)).toBe(true);
    expect(f.ignored(join(root, 'notes', 'linked.md'), regular)).toBe(false);
  });

  it('applies exclude globs to files', () => {
    expect(file('notes/drafts/a.md')).toBeUndefined();
    expect(file('notes/private.md')).toBeUndefined();
    expect(file('notes/public.md')).toBeDefined();
  });

  it('lets folders on the way down to a root through, and nothing else there', () => {
    expect(f.ignored(join(root, '.claude'))).toBe(false);
    expect(f.ignored(root)).toBe(false);
    expect(f.ignored(join(root, 'Downloads'))).toBe(true);
    expect(f.ignored(join(root, '.bashrc'), { isDirectory: () => false, isSymbolicLink: () => false } as never)).toBe(true);
    expect(f.isRootAncestor(join(root, '.claude'))).toBe(true);
    expect(f.isRootAncestor(join(root, '.claude', 'MEMORY'))).toBe(false);
  });
});
