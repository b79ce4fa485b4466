/**
 * What the madeinoz memory-sync hook (`sync-memory-to-knowledge.ts`, the tool this one replaces)
 * left behind, read so that the first sync can take over its episodes instead of sending every
 * note again (../shared/reference/madeinoz-system.md has the facts; docs/architecture.md the flow).
 *
 * - Its state, `~/.claude/MEMORY/STATE/knowledge-sync/sync-state.json`: per file its absolute path,
 *   capture type and `content_hash`, the sha256 of the cleaned body. No episode uuid.
 * - Its episodes: no marker of ours; `source_description` ends in `File: <basename>`; the body is
 *   the cleaned body cut to 5,000 characters.
 *
 * The cleaning and the body split below reproduce that hook's (they fingerprint what it sent; they
 * are not how this tool reads a note). If they ever differ from what it did, a note simply does not
 * match and is sent again: the safe side.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { parseMarker } from '../memory/episode.js';

/** The prior hook cut every body to this many characters. */
export const PRIOR_BODY_LIMIT = 5000;

export interface PriorEntry {
  /** sha256 hex of the cleaned body the prior hook sent (before its 5,000-character cut). */
  contentHash: string;
  captureType: string;
}

const priorStateSchema = z.object({
  synced_files: z.array(z.object({ filepath: z.string(), content_hash: z.string().optional(), capture_type: z.string().optional() }).passthrough()),
}).passthrough();

/**
 * The prior hook's record by absolute file path; empty when there is none. A file it could not
 * read or parse is reported through `onProblem` and treated as absent (nothing is adopted then).
 */
export function loadPriorState(paths: string[], onProblem: (path: string, problem: string) => void = () => undefined): Map<string, PriorEntry> {
  const entries = new Map<string, PriorEntry>();
  for (const path of paths) {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      continue;
    }
    let parsed: z.infer<typeof priorStateSchema>;
    try {
      parsed = priorStateSchema.parse(JSON.parse(text));
    } catch (error) {
      onProblem(path, error instanceof Error ? error.message.split('\n')[0] ?? 'unreadable' : 'unreadable');
      continue;
    }
    for (const file of parsed.synced_files) {
      if (file.content_hash === undefined || !/^[0-9a-f]{64}$/.test(file.content_hash)) continue;
      entries.set(resolve(file.filepath), { contentHash: file.content_hash, captureType: file.capture_type ?? '' });
    }
  }
  return entries;
}

/** The body as the prior hook split it from the frontmatter (a regex of its own, not YAML). */
function priorBody(raw: string): string {
  const match = /^---\n([\s\S]*?)\n---\n?([\s\S]*)$/.exec(raw);
  return (match === null ? raw : (match[2] ?? '')).trim();
}

/** The prior hook's `cleanBody`: capture footers removed, runs of blank lines collapsed, trimmed. */
function priorClean(body: string): string {
  return body
    .replace(/\n+---\n+\*Captured by PAI[^*]*\*\s*$/s, '')
    .replace(/\n+---\n+\*Auto-captured by[^*]*\*\s*$/s, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

export interface PriorFingerprint {
  /** What the prior hook's state records for this content. */
  contentHash: string;
  /** The episode body it sent for this content. */
  episodeBody: string;
}

export function priorFingerprint(raw: string): PriorFingerprint {
  const cleaned = priorClean(priorBody(raw));
  return { contentHash: createHash('sha256').update(cleaned).digest('hex'), episodeBody: cleaned.slice(0, PRIOR_BODY_LIMIT) };
}

export interface ListedEpisode {
  uuid: string;
  name: string;
  content?: string;
  source_description: string;
}

/** An episode as the prior hook sends it for a file of this name: no marker of ours, `File: <basename>` last. */
export function isPriorEpisodeFor(episode: ListedEpisode, basename: string): boolean {
  if (parseMarker(episode.source_description) !== undefined) return false;
  const parts = episode.source_description.split(' | ');
  return parts[parts.length - 1] === `File: ${basename}`;
}

/**
 * Whether the episode holds exactly the content the prior hook recorded: its body hashes to the
 * recorded hash (bodies under the cut), or it is the cut of the current content whose hash that is.
 */
export function holdsPriorContent(episode: ListedEpisode, entry: PriorEntry, current: PriorFingerprint | undefined): boolean {
  const content = episode.content ?? '';
  if (createHash('sha256').update(content).digest('hex') === entry.contentHash) return true;
  return current !== undefined && current.contentHash === entry.contentHash && content === current.episodeBody;
}
