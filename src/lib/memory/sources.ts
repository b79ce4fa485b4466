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
import type { MemorySource } from './types.js';

export type SourceConfig = Pick<Config, 'paiDir' | 'claudeConfigDir' | 'syncPai' | 'syncAutoMemory' | 'extraSources'>;

export function resolveSources(config: SourceConfig): MemorySource[] {
  const sources: MemorySource[] = [];
  if (config.syncPai) sources.push({ name: 'pai', kind: 'pai', root: resolve(join(config.paiDir, 'MEMORY')) });
  if (config.syncAutoMemory) sources.push({ name: 'auto-memory', kind: 'auto-memory', root: resolve(join(config.claudeConfigDir, 'projects')) });
  for (const extra of config.extraSources) sources.push({ name: extra.name, kind: 'extra', root: resolve(extra.path) });
  return sources;
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
