/**
 * Which filesystem paths watch mode cares about.
 *
 * The rules mirror what a scan (memory/scan.ts) considers a candidate, so an event only wakes
 * the watcher when the next sync pass could see a difference:
 * - `pai` (root `<PAI_DIR>/MEMORY`): only `LEARNING/**` and `RESEARCH/**`;
 * - `auto-memory` (root `<CLAUDE_CONFIG_DIR>/projects`): only `<project>/memory/**`, never a file
 *   named `MEMORY.md` (the index Claude Code regenerates); project folders themselves are watched
 *   (non-recursively in effect) only so that a new `memory/` folder is noticed;
 * - `extra`: everything under the folder;
 * - everywhere: no entry whose name starts with `.` (dot-folders, `.#lock` files, `.foo.md.swp`),
 *   no `node_modules`, no editor temp/swap names (`*.swp`, `*.swo`, `*~`, `#*#`, `*.tmp`, `4913`,
 *   `*.crswap`, `.DS_Store`), files only with a memory extension (`.md`, plus `.markdown` for extra
 *   sources), and not matching an exclude glob (picomatch on the relPath, `dot: true`, files only,
 *   as the scan applies them).
 * Strict ancestors of a source root are let through as folders, so that watching the nearest
 * existing parent of a missing root notices the root when it appears (and nothing else there).
 */
import type { Stats } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import { inLeftOutProject } from '../memory/sources.js';
import picomatch from 'picomatch';
import { hasMemoryExtension, isIgnoredName } from '../memory/scan.js';
import type { MemorySource } from '../memory/types.js';

export type EntryType = 'file' | 'dir' | 'unknown';

export interface ClassifiedPath {
  source: string;
  kind: MemorySource['kind'];
  /** Relative to the source root, forward slashes; '' for the root itself. */
  relPath: string;
}

export interface PathFilter {
  /** For chokidar's `ignored` option: true means "do not watch / report this path". */
  ignored(path: string, stats?: Stats): boolean;
  /** The source a path counts for, or undefined if no source cares about it. */
  classify(path: string, type: EntryType): ClassifiedPath | undefined;
  /** True if the path is a strict ancestor of a source root (watched only to see the root appear). */
  isRootAncestor(path: string): boolean;
}

/** Editor artefacts and hidden entries (same rules as the scan, plus `.DS_Store` via the dot rule). */
export function isTempOrHidden(name: string): boolean {
  return isIgnoredName(name) || name === 'node_modules';
}

function segmentsOf(rel: string): string[] {
  return rel === '' ? [] : rel.split(sep).join('/').split('/');
}

function within(root: string, path: string): string | undefined {
  if (path === root) return '';
  const prefix = root.endsWith(sep) ? root : root + sep;
  if (!path.startsWith(prefix)) return undefined;
  return relative(root, path);
}

export function createPathFilter(sources: readonly MemorySource[], exclude: readonly string[] = []): PathFilter {
  const roots = sources.map((s) => ({ ...s, root: resolve(s.root) }));
  const patterns = exclude.filter((p) => p.trim() !== '');
  const excluded: (rel: string) => boolean = patterns.length === 0 ? () => false : picomatch([...patterns], { dot: true });

  const acceptIn = (source: (typeof roots)[number], rel: string, type: EntryType): ClassifiedPath | undefined => {
    const segs = segmentsOf(rel);
    for (const s of segs) if (isTempOrHidden(s)) return undefined;
    const relPath = segs.join('/');
    if (segs.length === 0) return type === 'file' ? undefined : { source: source.name, kind: source.kind, relPath };
    const name = segs[segs.length - 1] as string;
    if (source.kind === 'pai') {
      if (segs[0] !== 'LEARNING' && segs[0] !== 'RESEARCH') return undefined;
      if (segs.length === 1 && type === 'file') return undefined;
    } else if (source.kind === 'auto-memory' && source.layout === 'folder') {
      // A moved memory folder: the memory itself.
      if (type === 'file' && name === 'MEMORY.md') return undefined;
    } else if (source.kind === 'auto-memory') {
      // <project> (folder) → <project>/memory (folder) → anything below; not a project left out (MEMORY_OFF_LEFT_OUT).
      if (segs.length === 1 && type === 'file') return undefined;
      if (inLeftOutProject(source, relPath)) return undefined;
      if (segs.length >= 2 && segs[1] !== 'memory') return undefined;
      if (segs.length === 2 && type === 'file') return undefined;
      if (type === 'file' && name === 'MEMORY.md') return undefined;
    }
    if (type === 'file') {
      if (!hasMemoryExtension(name, source.kind)) return undefined;
      if (excluded(relPath)) return undefined;
    }
    return { source: source.name, kind: source.kind, relPath };
  };

  const classify = (path: string, type: EntryType): ClassifiedPath | undefined => {
    const abs = resolve(path);
    for (const source of roots) {
      const rel = within(source.root, abs);
      if (rel === undefined) continue;
      const hit = acceptIn(source, rel, type);
      if (hit !== undefined) return hit;
    }
    return undefined;
  };

  const isRootAncestor = (path: string): boolean => {
    const abs = resolve(path);
    const prefix = abs.endsWith(sep) ? abs : abs + sep;
    return roots.some((s) => s.root !== abs && s.root.startsWith(prefix));
  };

  const ignored = (path: string, stats?: Stats): boolean => {
    // lstat results (chokidar's directory reads) show a symlink as such: it may lead to a folder.
    const type: EntryType = stats === undefined || stats.isSymbolicLink() ? 'unknown' : stats.isDirectory() ? 'dir' : 'file';
    if (classify(path, type) !== undefined) return false;
    // The chain down to a root that does not exist yet (folders only, and only while not a file).
    // A hidden ancestor (e.g. ~/.claude) is fine: it is on the way to a configured root.
    return !(type !== 'file' && isRootAncestor(path));
  };

  return { ignored, classify, isRootAncestor };
}
