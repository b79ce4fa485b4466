/**
 * Which folders are memory sources, from the configuration.
 *
 * - `pai`: `<PAI_DIR>/MEMORY` (scan.ts only looks under LEARNING/ and RESEARCH/ there);
 * - `auto-memory`: `<CLAUDE_CONFIG_DIR>/projects` (scan.ts only looks in `<project>/memory/`), and
 *   wherever else Claude Code keeps auto memory (config/claude-memory.ts: `auto-memory-remote`,
 *   `auto-memory-dir…` for moved memory folders); none while Claude Code has auto memory off;
 * - one `extra` source per MADEINOZ_KNOWLEDGE_SYNC_PATHS entry, named by the entry.
 *
 * Roots are not checked here: a missing root simply scans as empty.
 */
import { createHash } from 'node:crypto';
import { join, resolve } from 'node:path';
import type { Config } from '../config/config.js';
import { fileIdOf } from './hash.js';
import type { MemorySource } from './types.js';

export type SourceConfig = Pick<Config, 'paiDir' | 'claudeConfigDir' | 'syncPai' | 'syncAutoMemory' | 'extraSources' | 'origin' | 'sharedSources'> & Partial<Pick<Config, 'autoMemoryFolders'>>;

export function resolveSources(config: SourceConfig): MemorySource[] {
  const roots: Array<Omit<MemorySource, 'origin' | 'shared'>> = [];
  if (config.syncPai) roots.push({ name: 'pai', kind: 'pai', root: resolve(join(config.paiDir, 'MEMORY')) });
  if (config.syncAutoMemory) {
    const folders: ReadonlyArray<Omit<Config['autoMemoryFolders'][number], 'via'>> = config.autoMemoryFolders ?? [{ name: 'auto-memory', root: join(config.claudeConfigDir, 'projects'), layout: 'projects' }];
    for (const f of folders) roots.push({ name: f.name, kind: 'auto-memory', root: resolve(f.root), layout: f.layout, ...(f.leftOut === undefined ? {} : { leftOut: f.leftOut.map((l) => l.key) }), ...(f.onlyProjects === undefined ? {} : { onlyProjects: f.onlyProjects }) });
  }
  for (const extra of config.extraSources) roots.push({ name: extra.name, kind: 'extra', root: resolve(extra.path) });
  return roots.map((s) => {
    const shared = config.sharedSources[s.name];
    return { ...s, origin: shared ?? config.origin, shared: shared !== undefined };
  });
}

/**
 * Whether `relPath` of `source` lies in a project folder the source leaves out (config/claude-memory.ts
 * MEMORY_OFF_LEFT_OUT, or not among the only ones turned on: ON_ONLY_WHERE_TURNED_ON): the scan does not
 * look there, the watch takes no event from there, and the plan takes a file there for unknown, not deleted.
 */
export function inLeftOutProject(source: Pick<MemorySource, 'layout' | 'leftOut' | 'onlyProjects'>, relPath: string): boolean {
  if (source.layout === 'folder' || relPath === '') return false;
  const slash = relPath.indexOf('/');
  const project = slash === -1 ? relPath : relPath.slice(0, slash);
  if (source.onlyProjects !== undefined && !source.onlyProjects.includes(project)) return true;
  return source.leftOut?.includes(project) === true;
}

/**
 * A file of Claude Code's team memory: `memory/team/<store>/<path>` of auto memory (2.1.332: each
 * memory store of scope "team" is mounted there, named by its `mount`, else the last segment of the
 * store's path). Every teammate holds the same files under a different project folder.
 */
export interface TeamMemoryFile {
  /** The store's folder name under `team/`: the same for everyone in the team. */
  store: string;
  /** The path inside the store. */
  path: string;
}

const TEAM_IN_PROJECTS = /^[^/]+\/memory\/team\/([^/]+)\/(.+)$/;
const TEAM_IN_FOLDER = /^team\/([^/]+)\/(.+)$/;

export function teamMemoryOf(source: Partial<Pick<MemorySource, 'kind' | 'layout'>>, relPath: string): TeamMemoryFile | undefined {
  if (source.kind !== 'auto-memory') return undefined;
  // A projects layout path always starts `<project>/memory/`; a moved folder's starts at the memory itself.
  const m = source.layout === 'folder' ? TEAM_IN_FOLDER.exec(relPath) : source.layout === 'projects' ? TEAM_IN_PROJECTS.exec(relPath) : (TEAM_IN_PROJECTS.exec(relPath) ?? TEAM_IN_FOLDER.exec(relPath));
  return m === null ? undefined : { store: m[1] as string, path: m[2] as string };
}

/** A team-memory store's origin: `t-` and 10 hex characters of a hash of the store's name (no colon, see util/origin.ts). */
export function teamOrigin(store: string): string {
  return `t-${createHash('sha256').update(`graphiti-memory-sync team store\0${store}`).digest('hex').slice(0, 10)}`;
}

/** Whether an origin names a team-memory store: such files have one owner, the whole team. */
export function isTeamOrigin(origin: string | undefined): boolean {
  return origin !== undefined && /^t-[0-9a-f]{10}$/.test(origin);
}

/**
 * The id of a file in its markers. Per source name and path; for a shared source per shared
 * origin and path instead, so every owner computes the same id however they named the source;
 * for a team-memory file per store and path inside it, whoever's project folder holds it.
 */
export function fileIdFor(source: Pick<MemorySource, 'name' | 'origin' | 'shared'> & Partial<Pick<MemorySource, 'kind' | 'layout'>>, relPath: string): string {
  const team = teamMemoryOf(source, relPath);
  if (team !== undefined) return fileIdOf(`team:${team.store}`, team.path);
  return source.shared ? fileIdOf(`shared:${source.origin}`, relPath) : fileIdOf(source.name, relPath);
}

/** Who a file's episodes are from: its team store's origin, else its source's. */
export function originFor(source: Pick<MemorySource, 'origin'> & Partial<Pick<MemorySource, 'kind' | 'layout'>>, relPath: string): string {
  const team = teamMemoryOf(source, relPath);
  return team === undefined ? source.origin : teamOrigin(team.store);
}

/** The origins owned together (shared sources and team stores), from the settings and the files in the state. */
export function sharedOriginsOf(sharedSources: Record<string, string>, markerOrigins: Iterable<string | undefined>): Set<string> {
  const shared = new Set(Object.values(sharedSources));
  for (const origin of markerOrigins) if (isTeamOrigin(origin)) shared.add(origin as string);
  return shared;
}

/** `--source NAME` named no configured (enabled) source. */
export class UnknownSourceError extends Error {
  constructor(
    readonly requested: string,
    readonly known: string[],
  ) {
    super(
      known.length === 0
        ? `Unknown source "${requested}": no sources are enabled (check MADEINOZ_KNOWLEDGE_SYNC_PAI, MADEINOZ_KNOWLEDGE_SYNC_AUTO_MEMORY, MADEINOZ_KNOWLEDGE_SYNC_PATHS)`
        : `Unknown source "${requested}": known sources are ${known.map((k) => `"${k}"`).join(', ')}`,
    );
    this.name = 'UnknownSourceError';
  }
}

/** All sources when `name` is undefined; otherwise exactly the source of that name (exact, case-sensitive). */
export function filterSources(sources: MemorySource[], name?: string): MemorySource[] {
  if (name === undefined) return sources;
  const match = sources.filter((s) => s.name === name);
  if (match.length === 0) throw new UnknownSourceError(name, sources.map((s) => s.name));
  return match;
}
