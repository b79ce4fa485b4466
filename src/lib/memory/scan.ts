/**
 * Finds candidate memory files: metadata only (readdir + stat), never file contents, so an
 * unchanged file is recognised by mtime + size without reading it.
 *
 * What is a candidate:
 * - `pai` (root `<PAI_DIR>/MEMORY`): every `*.md` anywhere under `LEARNING/` and `RESEARCH/`
 *   (flat, `YYYY-MM/`, and FAILURES' `<ts>_<desc>/CONTEXT.md` folders alike). Other LEARNING
 *   subfolders are included too (decision: PAI keeps adding capture kinds there, and its non-note
 *   data such as REFLECTIONS/SIGNALS is `.jsonl`, which the extension rule already leaves out).
 *   Nothing outside LEARNING/ and RESEARCH/ (WORK, STATE, SECURITY, …) and no files directly in
 *   MEMORY/ are looked at.
 * - `auto-memory` (root `<CLAUDE_CONFIG_DIR>/projects`): `<project>/memory/**\/*.md` except every
 *   file named exactly `MEMORY.md` (the index Claude Code regenerates, also each team store's).
 *   Only each project's `memory/` folder is read: project folders also hold thousands of
 *   transcript files. A moved memory folder (layout `folder`): `**\/*.md` under it, same rule.
 *   Team memory (`memory/team/<store>/…`) is scanned like the rest (sources.ts names its owner).
 *   A project with auto memory off by its own local settings is not looked into (the source's
 *   `leftOut`: config/claude-memory.ts MEMORY_OFF_LEFT_OUT).
 * - `extra`: every `*.md` and `*.markdown` under the folder.
 * Extensions match case-insensitively (`Notes.MD` counts).
 *
 * Everywhere: a file-sync tool's conflict copy (`note (conflicted copy).md`, `note.sync-conflict-…md`:
 * conflict-copy.ts FILE_SYNC_CONFLICT_COPY) is not a candidate while its note is there (CONFLICT_COPY_ALONE). Entries whose name starts with `.` are skipped, folders and files alike (dot-folders
 * such as .git/.obsidian, editor artefacts such as `.#note.md`, `.note.md.swp`, `.DS_Store`; decision:
 * hidden files are not notes), as are `node_modules` folders and editor temp/swap names (`*.swp`,
 * `*.swo`, `*~`, `#*#`, `*.tmp`, `4913`, `*.crswap`). Exclude globs (picomatch, `dot: true`) are
 * matched against each file's relPath; they do not prune folders (so `LEARNING/*` excludes only
 * files directly in LEARNING/, as the glob says).
 *
 * Symlinks to files and folders are followed. A folder symlink whose target is the folder itself
 * or one of its ancestors is a loop (ScanProblem 'symlink-loop'). Loops are detected against the
 * chain of ancestors (by real path), not against every folder seen so far: which of two paths to
 * one folder comes "first" is arbitrary, and an alias would hide the real folder. A symlink
 * to a folder elsewhere in the tree is therefore scanned under both paths. A folder link (a source
 * root that is a link included) that leads to a folder holding the link, to the filesystem root or
 * to the home folder is not followed at all (ScanProblem 'out-of-reach', link-reach.ts).
 *
 * Problems never stop the scan: unreadable folders/files → 'unreadable', an entry that disappears
 * between readdir and stat (or a dangling symlink) → 'vanished', a name that is not valid UTF-8
 * (Node cannot open it by the name it gives) → 'bad-name', other errors → 'error'. The engine
 * must treat files under a problem folder as unknown, not deleted (see `isUnderProblem`).
 * Files larger than maxFileBytes are returned like any other (with their size): the engine
 * reports them as skipped "too-large". Non-regular files (FIFOs, sockets, devices) are skipped
 * quietly and never opened.
 *
 * Output is sorted: sources in the given order, then relPath in code-unit order (not locale order).
 *
 * Size: the candidate rules of each source kind and the walk that applies them belong together.
 */
import { lstatSync, readdirSync, realpathSync, statSync, type Dirent, type Stats } from 'node:fs';
import { dirname, sep as pathSep } from 'node:path';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import picomatch from 'picomatch';
import { conflictOriginalName } from './conflict-copy.js';
import { linkOutOfReach } from './link-reach.js';
import { inLeftOutProject } from './sources.js';
import type { MemorySource, ScannedFile, ScanProblem, ScanResult, SourceKind } from './types.js';

/**
 * The filesystem calls a scan makes: nothing that reads file contents. Injectable for tests.
 *
 * Synchronous on purpose (measured, Node 20, 2 cores, 10,000 files in page cache): a
 * readdirSync+statSync walk takes ~50 ms, fs.promises with bounded concurrency ~250-300 ms, and
 * callback fs with bounded concurrency ~95 ms: each async stat pays a libuv threadpool round
 * trip that costs more than the syscall itself. The walk yields to the event loop every few
 * milliseconds (timers such as the lock heartbeat keep running, abort signals are honoured), so
 * the cost of going sync is only that a single hung syscall (dead network mount) blocks.
 */
export interface ScanFs {
  readdir(path: string): Dirent[];
  stat(path: string): Stats;
  lstat(path: string): Stats;
  realpath(path: string): string;
}

export const nodeScanFs: ScanFs = {
  readdir: (path) => readdirSync(path, { withFileTypes: true }),
  stat: (path) => statSync(path),
  lstat: (path) => lstatSync(path),
  // The native realpath(3): one syscall, where the JS version lstats every path component.
  realpath: (path) => realpathSync.native(path),
};

export interface ScanOptions {
  /** Globs matched against relPath (picomatch, dot: true). */
  exclude?: string[];
  /**
   * Accepted for the engine's convenience but not applied: large files are still returned with
   * their size, so the engine can report them as skipped "too-large" with a reason.
   */
  maxFileBytes?: number;
  signal?: AbortSignal;
  /** Longest stretch of synchronous filesystem work between yields to the event loop. Default 8 ms. */
  sliceMs?: number;
  fs?: ScanFs;
}

export interface ScanOutcome extends ScanResult {
  /** Names of sources whose root folder does not exist (scanned as empty, not an error). */
  missingRoots: string[];
}

/** Folder depth at which we stop descending (guards against symlink fan-out that is not a loop). */
const MAX_DEPTH = 48;

const TEMP_NAME = /(?:\.swp|\.swo|~|\.tmp|\.crswap)$/i;

/** Editor temp/swap/backup names and hidden files: never candidates. */
export function isIgnoredName(name: string): boolean {
  return name.startsWith('.') || TEMP_NAME.test(name) || (name.startsWith('#') && name.endsWith('#')) || name === '4913';
}

/** Whether a file name has an extension accepted for this kind of source. */
export function hasMemoryExtension(name: string, kind: MemorySource['kind']): boolean {
  const lower = name.toLowerCase();
  if (lower.endsWith('.md')) return lower.length > 3;
  return kind === 'extra' && lower.endsWith('.markdown') && lower.length > 9;
}

/** True if `relPath` lies inside (or is) a folder for which the scan reported a problem of this source. */
export function isUnderProblem(source: string, relPath: string, problems: readonly ScanProblem[]): boolean {
  return problems.some((p) => p.source === source && (p.relPath === '' || p.relPath === relPath || relPath.startsWith(`${p.relPath}/`)));
}

function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

interface Chain {
  real: string;
  parent: Chain | undefined;
}

function inChain(chain: Chain | undefined, real: string): boolean {
  for (let c = chain; c; c = c.parent) if (c.real === real) return true;
  return false;
}

/** A folder to list. `role`: the source root, a fixed optional start folder (PAI's LEARNING, a project's memory), or one found while walking. */
interface Dir {
  abs: string;
  /** '' for the source root. */
  rel: string;
  chain: Chain;
  depth: number;
  role: 'root' | 'start' | 'nested';
}

function joinPath(base: string, name: string, separator: string): string {
  return base.endsWith(separator) ? base + name : base + separator + name;
}

function codeOf(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

/** Cooperative pacing: call `due()` often (cheap), and `await pause()` when it says so. */
class Pacer {
  private last = performance.now();
  private ops = 0;

  constructor(
    private readonly sliceMs: number,
    private readonly signal: AbortSignal | undefined,
  ) {}

  due(): boolean {
    // performance.now() only every 64 operations: it is cheap, but not free at 10,000 files.
    return (++this.ops & 63) === 0 && performance.now() - this.last >= this.sliceMs;
  }

  async pause(): Promise<void> {
    await yieldToEventLoop();
    this.signal?.throwIfAborted();
    this.last = performance.now();
  }
}

/** A source root that is a file: the setting that names the folder, per kind of source. */
const ROOT_SETTING: Record<SourceKind, string> = {
  pai: 'set PAI_DIR to the folder that holds MEMORY/, or MADEINOZ_KNOWLEDGE_SYNC_PAI=false',
  'auto-memory': "move the file away (Claude Code keeps its memory there), or set MADEINOZ_KNOWLEDGE_SYNC_AUTO_MEMORY=false",
  extra: 'point MADEINOZ_KNOWLEDGE_SYNC_PATHS at a folder',
};

function rootNotFolder(kind: SourceKind): string {
  return `source root is not a folder: ${ROOT_SETTING[kind]}`;
}

class SourceScan {
  readonly files: ScannedFile[] = [];
  readonly problems: ScanProblem[] = [];
  missing = false;
  private readonly stack: Dir[] = [];

  constructor(
    private readonly source: MemorySource,
    private readonly fs: ScanFs,
    private readonly excluded: (relPath: string) => boolean,
    private readonly pacer: Pacer,
  ) {}

  private problem(rel: string, abs: string, reason: ScanProblem['reason'], message: string): void {
    this.problems.push({ source: this.source.name, relPath: rel, absPath: abs, reason, message });
  }

  private fsProblem(rel: string, abs: string, error: unknown, what: string): void {
    const code = codeOf(error);
    const detail = (error as Error).message ?? String(error);
    // A name that is not valid UTF-8 reaches us with U+FFFD in place of its bad bytes, and no file
    // has that name: it is not gone, it cannot be opened by the name Node gives it.
    if (code === 'ENOENT' && rel.includes('\uFFFD')) {
      this.problem(rel, abs, 'bad-name', `the ${what}'s name is not valid UTF-8 (shown with \uFFFD), so it cannot be opened by name; rename it`);
      return;
    }
    if (code === 'EACCES' || code === 'EPERM') this.problem(rel, abs, 'unreadable', `cannot read ${what}: permission denied (${code}); make it readable to you (chmod u+r${what === 'folder' ? 'x' : ''}), and the next sync reads it`);
    else if (code === 'ENOENT' || code === 'ENOTDIR') this.problem(rel, abs, 'vanished', `${what} disappeared while scanning (${code})`);
    else if (code === 'ELOOP') this.problem(rel, abs, 'symlink-loop', `${what} is a symlink loop (ELOOP)`);
    else this.problem(rel, abs, 'error', `cannot read ${what}: ${detail}`);
  }

  private isCandidate(name: string, rel: string, abs: string): boolean {
    if (isIgnoredName(name) || !hasMemoryExtension(name, this.source.kind) || this.conflictCopyBesideItsNote(name, abs)) return false;
    if (this.source.kind === 'auto-memory' && name === 'MEMORY.md') return false;
    return !this.excluded(rel);
  }

  /**
   * A file-sync tool's conflict copy is the other side of a conflict, not a note, while the note it
   * copies is there (conflict-copy.ts FILE_SYNC_CONFLICT_COPY, CONFLICT_COPY_ALONE): one lstat, only
   * for names shaped so.
   */
  private conflictCopyBesideItsNote(name: string, abs: string): boolean {
    const original = conflictOriginalName(name);
    if (original === undefined) return false;
    try {
      this.fs.lstat(abs.slice(0, abs.length - name.length) + original);
      return true;
    } catch {
      return false;
    }
  }

  private addFile(rel: string, abs: string, st: Stats): void {
    const file: ScannedFile = { source: this.source.name, kind: this.source.kind, relPath: rel, absPath: abs, mtimeMs: st.mtimeMs, size: st.size };
    if (this.source.kind === 'auto-memory' && this.source.layout !== 'folder') {
      const slash = rel.indexOf('/');
      file.project = slash === -1 ? rel : rel.slice(0, slash);
    }
    this.files.push(file);
  }

  async run(): Promise<void> {
    const root = this.source.root;
    let rootReal: string;
    try {
      rootReal = this.fs.realpath(root);
    } catch (error) {
      if (codeOf(error) === 'ENOENT') this.missing = true;
      else this.fsProblem('', root, error, 'source folder');
      return;
    }
    const rootChain: Chain = { real: rootReal, parent: undefined };
    if (this.outOfReach('', root, rootReal)) return;
    if (this.source.kind === 'extra' || this.source.layout === 'folder') {
      // A folder of notes, or a moved auto-memory folder (the memory itself, team/<store>/ included).
      this.stack.push({ abs: root, rel: '', chain: rootChain, depth: 0, role: 'root' });
    } else if (this.source.kind === 'pai') {
      for (const name of ['LEARNING', 'RESEARCH']) this.addStart(root, rootChain, name);
    } else {
      let projects: Dirent[];
      try {
        projects = this.fs.readdir(root);
      } catch (error) {
        if (codeOf(error) === 'ENOTDIR') this.problem('', root, 'error', rootNotFolder(this.source.kind));
        else this.fsProblem('', root, error, 'folder');
        return;
      }
      // Only <project>/memory is read; the project folder itself (transcripts) is never listed, nor
      // that of a project with auto memory off (sources.ts inLeftOutProject, MEMORY_OFF_LEFT_OUT).
      for (const p of projects) if (!p.name.startsWith('.') && !p.isFile() && !inLeftOutProject(this.source, p.name)) this.addStart(root, rootChain, `${p.name}/memory`);
    }
    for (let dir = this.stack.pop(); dir !== undefined; dir = this.stack.pop()) {
      await this.list(dir);
    }
  }

  /** A fixed subfolder we look into (PAI's LEARNING, a project's memory): missing is normal. */
  private addStart(root: string, rootChain: Chain, rel: string): void {
    const abs = joinPath(root, rel.split('/').join(pathSep), pathSep);
    let real: string;
    try {
      real = this.fs.realpath(abs);
    } catch (error) {
      const code = codeOf(error);
      if (code !== 'ENOENT' && code !== 'ENOTDIR') this.fsProblem(rel, abs, error, 'folder');
      return;
    }
    if (inChain(rootChain, real)) this.problem(rel, abs, 'symlink-loop', 'folder is a symlink to one of its parent folders');
    else if (real === joinPath(rootChain.real, rel.split('/').join(pathSep), pathSep) || !this.outOfReach(rel, abs, real)) this.stack.push({ abs, rel, chain: { real, parent: rootChain }, depth: 1, role: 'start' });
  }

  /**
   * Whether the folder at `abs` leads (through a link in its path) out of reach (link-reach.ts):
   * then it is reported and not walked. Asked only of a root, a fixed start folder whose real path
   * is not where it stands, and a folder link: a plain folder is always within reach. (A root
   * reached through a linked parent, `~/.claude` kept in a dotfiles folder, is within reach too:
   * its folder holds it wherever that is.)
   */
  private outOfReach(rel: string, abs: string, real: string, holderReal?: string): boolean {
    let holder = holderReal;
    if (holder === undefined) {
      try {
        if (rel === '' && real === abs) return false; // no link on the way to the root
        holder = this.fs.realpath(dirname(abs));
      } catch {
        return false; // the walk itself reports what cannot be read
      }
    }
    const message = linkOutOfReach(abs, real, holder);
    if (message === undefined) return false;
    this.problem(rel, abs, 'out-of-reach', message);
    return true;
  }

  private async list(dir: Dir): Promise<void> {
    if (dir.depth >= MAX_DEPTH) {
      this.problem(dir.rel, dir.abs, 'error', `folder nesting deeper than ${MAX_DEPTH} levels (symlinks?): not descending further`);
      return;
    }
    let entries: Dirent[];
    try {
      entries = this.fs.readdir(dir.abs);
    } catch (error) {
      const code = codeOf(error);
      if (code === 'ENOTDIR' && dir.role === 'root') this.problem(dir.rel, dir.abs, 'error', rootNotFolder(this.source.kind));
      else if (code !== 'ENOTDIR' || dir.role !== 'start') this.fsProblem(dir.rel, dir.abs, error, 'folder');
      // (a file where an optional start folder was expected is ignored)
      return;
    }
    const prefix = dir.rel === '' ? '' : `${dir.rel}/`;
    for (const entry of entries) {
      if (this.pacer.due()) await this.pacer.pause();
      const name = entry.name;
      if (name.startsWith('.')) continue;
      const rel = prefix + name;
      const abs = joinPath(dir.abs, name, pathSep);
      if (entry.isDirectory()) {
        if (name === 'node_modules') continue;
        // Not a symlink: its real path is the parent's plus its name, no syscall needed.
        const real = joinPath(dir.chain.real, name, pathSep);
        this.stack.push({ abs, rel, chain: { real, parent: dir.chain }, depth: dir.depth + 1, role: 'nested' });
      } else if (entry.isFile()) {
        if (this.isCandidate(name, rel, abs)) this.statFile(rel, abs);
      } else if (entry.isSymbolicLink()) {
        this.followLink(dir, name, rel, abs);
      } else if (!entry.isFIFO() && !entry.isSocket() && !entry.isBlockDevice() && !entry.isCharacterDevice()) {
        // DT_UNKNOWN (some filesystems do not report types in readdir): ask lstat.
        this.unknownType(dir, name, rel, abs);
      }
      // FIFOs, sockets, devices: skipped quietly, never opened.
    }
  }

  private statFile(rel: string, abs: string): void {
    let st: Stats;
    try {
      st = this.fs.stat(abs);
    } catch (error) {
      this.fsProblem(rel, abs, error, 'file');
      return;
    }
    if (st.isFile()) this.addFile(rel, abs, st);
  }

  private followLink(dir: Dir, name: string, rel: string, abs: string): void {
    let st: Stats;
    try {
      st = this.fs.stat(abs);
    } catch (error) {
      if (codeOf(error) === 'ENOENT') {
        // Dangling. Only worth a report if it could have been a note.
        if (this.isCandidate(name, rel, abs)) this.problem(rel, abs, 'vanished', 'dangling symlink: the file it leads to does not exist (deleted, moved, or on a drive not mounted); the note synced from it is kept until that file is back. Restore the file or point the link at it (`ln -sf <file> <link>`); remove the link to have the note deleted');
      } else this.fsProblem(rel, abs, error, 'symlink');
      return;
    }
    if (st.isFile()) {
      if (this.isCandidate(name, rel, abs)) this.addFile(rel, abs, st);
    } else if (st.isDirectory() && name !== 'node_modules') {
      this.linkedDir(dir, rel, abs);
    }
  }

  private linkedDir(dir: Dir, rel: string, abs: string): void {
    let real: string;
    try {
      real = this.fs.realpath(abs);
    } catch (error) {
      this.fsProblem(rel, abs, error, 'symlink');
      return;
    }
    if (inChain(dir.chain, real)) this.problem(rel, abs, 'symlink-loop', 'symlink points to one of its parent folders; not followed');
    else if (!this.outOfReach(rel, abs, real, dir.chain.real)) this.stack.push({ abs, rel, chain: { real, parent: dir.chain }, depth: dir.depth + 1, role: 'nested' });
  }

  private unknownType(dir: Dir, name: string, rel: string, abs: string): void {
    let st: Stats;
    try {
      st = this.fs.lstat(abs);
    } catch (error) {
      this.fsProblem(rel, abs, error, 'entry');
      return;
    }
    if (st.isSymbolicLink()) this.followLink(dir, name, rel, abs);
    else if (st.isDirectory()) {
      if (name !== 'node_modules') this.linkedDir(dir, rel, abs);
    } else if (st.isFile() && this.isCandidate(name, rel, abs)) this.addFile(rel, abs, st);
  }
}

/**
 * Scans the given sources. Never throws for filesystem trouble (see ScanProblem); throws only if
 * `signal` is aborted (with the signal's reason) or an exclude glob is invalid.
 */
export async function scanSources(sources: readonly MemorySource[], options: ScanOptions = {}): Promise<ScanOutcome> {
  const patterns = (options.exclude ?? []).filter((p) => p.trim() !== '');
  const excluded: (relPath: string) => boolean = patterns.length === 0 ? () => false : picomatch(patterns, { dot: true });
  const fs = options.fs ?? nodeScanFs;
  const pacer = new Pacer(options.sliceMs ?? 8, options.signal);
  options.signal?.throwIfAborted();
  const scans = sources.map((source) => new SourceScan(source, fs, excluded, pacer));
  // One source after the other: the walk is synchronous between yields anyway.
  for (const scan of scans) {
    await scan.run();
    await pacer.pause();
  }
  const byRel = (a: { relPath: string }, b: { relPath: string }) => compareCodeUnits(a.relPath, b.relPath);
  return {
    files: scans.flatMap((s) => s.files.sort(byRel)),
    problems: scans.flatMap((s) => s.problems.sort(byRel)),
    missingRoots: scans.flatMap((s, i) => (s.missing ? [sources[i]?.name ?? ''] : [])),
  };
}
