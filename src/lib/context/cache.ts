/**
 * The per-project context cache: what the SessionStart hook injects.
 *
 * The background worker builds the context (network) and writes it here; the hook
 * only reads this one small file synchronously, so a session start never waits on
 * Graphiti. One JSON file per Claude project key: `<stateDir>/context/<key>.json`,
 * written atomically (temp + fsync + rename, mode 0600) so the hook never sees a torn
 * file. A missing, unreadable or malformed cache reads as `undefined` (inject nothing).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../util/fs-atomic.js';

export { CONTEXT_HEADER_PATTERN, CONTEXT_HEADER_START, LEGACY_CONTEXT_MARKER } from '../memory/context-header.js';

/**
 * Hard maximum of `additionalContext` characters. Claude Code caps hook output strings at
 * 10,000 characters and replaces longer ones by a file path; 9,000 leaves room for the JSON
 * envelope and escaping so the whole stdout line stays below 10,000 too.
 */
export const MAX_CONTEXT_CHARS = 9000;

/** Absolute limit of config.contextBudget (the setting's documented hard cap). */
export const MAX_CONTEXT_BUDGET = 10_000;

export type ContextFormatUsed = 'lines' | 'toon' | 'none';

export interface ContextCacheEntry {
  version: 1;
  /** ISO time the worker built this context. */
  builtAt: string;
  /** Project name (basename of the root). */
  project: string;
  /** Claude project key (the cache file name). */
  key: string;
  root: string;
  groupIds: string[];
  /** The block to inject; '' when the graph has nothing for this project. */
  text: string;
  format: ContextFormatUsed;
  /** Facts and entities included in `text`. */
  facts: number;
  nodes: number;
  /** Length of the same facts in both formats before fitting (for `auto` and the README figures). */
  measured?: { lines: number; toon: number } | undefined;
  /** What the block left out and why (context.ts `Omission`), for `context --omitted`; absent in caches written before. */
  omitted?: Array<{ kind: 'fact' | 'entity'; from: 'own' | 'shared' | 'group'; text: string; reason: string }> | undefined;
  /** Lines that passed every filter but did not fit the budget. */
  overBudget?: number | undefined;
}

export function contextCacheDir(stateDir: string): string {
  return join(stateDir, 'context');
}

export function contextCachePath(stateDir: string, key: string): string {
  // Keys are [A-Za-z0-9-] plus at most a hash; guard anyway against separators.
  const safe = key.replace(/[^A-Za-z0-9_-]/g, '-') || 'default';
  return join(contextCacheDir(stateDir), `${safe}.json`);
}

function isEntry(value: unknown): value is ContextCacheEntry {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    v.version === 1 &&
    typeof v.text === 'string' &&
    typeof v.builtAt === 'string' &&
    typeof v.project === 'string' &&
    typeof v.key === 'string' &&
    (v.format === 'lines' || v.format === 'toon' || v.format === 'none') &&
    typeof v.facts === 'number'
  );
}

/** Reads the cache for a project key. Synchronous and cheap (one small file); never throws. */
export function readContextCache(stateDir: string, key: string): ContextCacheEntry | undefined {
  try {
    const text = readFileSync(contextCachePath(stateDir, key), 'utf8');
    const value: unknown = JSON.parse(text);
    return isEntry(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Writes the cache atomically (mode 0600, folder 0700). */
export async function writeContextCache(stateDir: string, entry: ContextCacheEntry): Promise<string> {
  const path = contextCachePath(stateDir, entry.key);
  await writeFileAtomic(path, `${JSON.stringify(entry, null, 2)}\n`, { mode: 0o600, mkdirMode: 0o700 });
  return path;
}
