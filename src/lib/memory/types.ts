/** Shared types of the memory layer: where files come from and what a scan reports. */

/** `pai`: $PAI_DIR/MEMORY; `auto-memory`: Claude Code projects/<key>/memory; `extra`: MADEINOZ_KNOWLEDGE_SYNC_PATHS. */
export type SourceKind = 'pai' | 'auto-memory' | 'extra';

export interface MemorySource {
  /** Stable name used in file ids (`<name>:<relPath>`), `--source` and group overrides. */
  name: string;
  kind: SourceKind;
  /** Absolute root folder; relative paths are relative to it. */
  root: string;
  /** Who its episodes are from (named in their markers): this machine's origin, or the shared one. */
  origin: string;
  /** Declared shared (MADEINOZ_KNOWLEDGE_SHARED_SOURCES): all who declare its origin own it together. */
  shared: boolean;
  /** Auto memory only: `projects` (`<key>/memory/…` under the root, the default) or `folder` (a moved memory folder itself). */
  layout?: 'projects' | 'folder';
  /** Layout `projects` only: project folders not scanned, auto memory being off there (config/claude-memory.ts MEMORY_OFF_LEFT_OUT). */
  leftOut?: readonly string[];
  /** Layout `projects` only, auto memory off for every project: the only project folders scanned, those turned on (config/claude-memory.ts ON_ONLY_WHERE_TURNED_ON). */
  onlyProjects?: readonly string[];
}

/** One candidate file found by a scan: metadata only, the content is not read. */
export interface ScannedFile {
  source: string;
  kind: SourceKind;
  /** Path relative to the source root, always with forward slashes. */
  relPath: string;
  absPath: string;
  mtimeMs: number;
  size: number;
  /** Auto memory only: the Claude Code project folder name (e.g. `-home-me-repo`); none in a moved memory folder. */
  project?: string;
}

/** What preparing a file's episodes (sync/prepare.ts) and signing its note (sync/note-signing.ts) need to know of it besides its bytes. */
export type FileFacts = Pick<ScannedFile, 'source' | 'kind' | 'relPath' | 'mtimeMs' | 'project'>;

/** A file or folder the scan could not use, with a clear reason. */
export interface ScanProblem {
  source: string;
  relPath: string;
  absPath: string;
  reason: 'unreadable' | 'symlink-loop' | 'out-of-reach' | 'source-renamed' | 'vanished' | 'not-a-file' | 'bad-name' | 'error';
  message: string;
}

export interface ScanResult {
  files: ScannedFile[];
  problems: ScanProblem[];
}
