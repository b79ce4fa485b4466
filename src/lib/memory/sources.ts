/**
 * Which folders are memory sources, from the configuration.
 *
 * - `pai`: `<PAI_DIR>/MEMORY` (scan.ts only looks under LEARNING/ and RESEARCH/ there);
 * - `auto-memory`: `<CLAUDE_CONFIG_DIR>/projects` (scan.ts only looks in `<project>/memory/`);
 * - one `extra` source per MADEINOZ_KNOWLEDGE_SYNC_PATHS entry, named by the entry.
 *
 * Roots are not checked here: a missing root simply scans as empty.
 */
import { join, resolve } from 'node:path';
import type { Config } from '../config/config.js';
import { fileIdOf } from './hash.js';
import type { MemorySource } from './types.js';

export type SourceConfig = Pick<Config, 'paiDir' | 'claudeConfigDir' | 'syncPai' | 'syncAutoMemory' | 'extraSources' | 'origin' | 'sharedSources'>;

export function resolveSources(config: SourceConfig): MemorySource[] {
  const roots: Array<Omit<MemorySource, 'origin' | 'shared'>> = [];
  if (config.syncPai) roots.push({ name: 'pai', kind: 'pai', root: resolve(join(config.paiDir, 'MEMORY')) });
  if (config.syncAutoMemory) roots.push({ name: 'auto-memory', kind: 'auto-memory', root: resolve(join(config.claudeConfigDir, 'projects')) });
  for (const extra of config.extraSources) roots.push({ name: extra.name, kind: 'extra', root: resolve(extra.path) });
  return roots.map((s) => {
    const shared = config.sharedSources[s.name];
    return { ...s, origin: shared ?? config.origin, shared: shared !== undefined };
  });
}

/**
 * The id of a file in its markers. Per source name and path; for a shared source per shared
 * origin and path instead, so every owner computes the same id however they named the source.
 */
export function fileIdFor(source: Pick<MemorySource, 'name' | 'origin' | 'shared'>, relPath: string): string {
  return source.shared ? fileIdOf(`shared:${source.origin}`, relPath) : fileIdOf(source.name, relPath);
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
