/**
 * Taking over what the madeinoz memory-sync hook already sent (migrate/prior-hook.ts), in the
 * first run that meets each of its notes: between the listing and the sends.
 *
 * A note is matched only with evidence from both sides: the prior hook's state names this file's
 * absolute path with a content hash, and the group lists an episode without a marker of ours
 * whose `File:` is this file's name and whose body is that content. Then:
 * - the note is unchanged since (same hash), fits one episode and had no secret redacted: the
 *   episode is adopted as this file's, nothing is sent (`adopted` in the summary); copies the
 *   prior hook sent twice (a killed run re-sent everything) are deleted;
 * - otherwise (edited since, `--replace-prior`, a secret in it, several parts): ours is sent and
 *   the prior episodes retire like an older version, deleted once ours is confirmed.
 * Without that evidence nothing of the prior hook's is touched and ours is sent: an episode that
 * only looks like one (a teammate's note of the same name, another machine's) is never deleted.
 */
import { readFile } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { holdsPriorContent, isPriorEpisodeFor, loadPriorState, priorFingerprint, type PriorEntry } from '../migrate/prior-hook.js';
import type { Episode } from '../graphiti/graphiti.js';
import type { EpisodeRef, FileRecord } from '../state/state.js';
import type { ListedEpisode, Listing } from './listing.js';
import type { Outgoing, RunContext } from './types.js';

export interface PriorCandidate {
  record: FileRecord;
  absPath: string;
  entry: PriorEntry;
}

export interface PriorMigration {
  candidates: PriorCandidate[];
  /** The groups to list in full before anything is sent. */
  groups: Set<string>;
  /** `sync --replace-prior`: send ours even for unchanged notes, and retire the prior episodes. */
  replace: boolean;
}

/** The files this run would add that the prior hook has a record of; undefined when there are none. */
export function priorMigration(ctx: RunContext, plannedAdds: ReadonlySet<string>): PriorMigration | undefined {
  if (plannedAdds.size === 0) return undefined;
  const entries = loadPriorState(ctx.config.priorHookStates, (path, problem) => ctx.logger.warn('the madeinoz hook state is unreadable; its episodes are not adopted', { path, problem }));
  if (entries.size === 0) return undefined;
  const candidates: PriorCandidate[] = [];
  const groups = new Set<string>();
  for (const id of plannedAdds) {
    const record = ctx.outgoing.get(id)?.record;
    const source = ctx.sources.find((s) => s.name === record?.source);
    if (record === undefined || source === undefined || record.episodes.length === 0) continue;
    const absPath = resolve(source.root, record.relPath);
    const entry = entries.get(absPath);
    if (entry === undefined) continue;
    candidates.push({ record, absPath, entry });
    for (const ref of record.episodes) groups.add(ref.groupId);
  }
  return candidates.length === 0 ? undefined : { candidates, groups, replace: ctx.options.replacePrior === true };
}

interface GroupIndex {
  /** Episodes without a marker of ours, by the file name their `File:` names. */
  byFile: Map<string, Episode[]>;
  /** Our markers the listing shows. */
  markers: Set<string>;
}

/** One pass over a group's listing (thousands of episodes, hundreds of notes to match). */
function indexGroup(episodes: ListedEpisode[]): GroupIndex {
  const index: GroupIndex = { byFile: new Map(), markers: new Set() };
  for (const e of episodes) {
    if (e.marker !== undefined) {
      index.markers.add(e.marker.raw);
      continue;
    }
    const file = /(?:^| \| )File: (.*)$/.exec(e.source_description)?.[1];
    if (file !== undefined) index.byFile.set(file, [...(index.byFile.get(file) ?? []), e]);
  }
  return index;
}

/** What to do with the prior hook's episodes, decided from a listing made before any send. */
export interface PriorTakeover {
  /** Unchanged notes: their prior episode becomes this file's part (nothing is sent); copies it sent twice retire as orphans. */
  adoptions: Array<{ record: FileRecord; uuid: string; copies: EpisodeRef[] }>;
  /** Edited notes (or `--replace-prior`, a secret, several parts): ours is sent, the prior episodes retire like an older version. */
  replacements: Array<{ record: FileRecord; retired: EpisodeRef[] }>;
}

export interface PriorTakeoverInput {
  migration: PriorMigration;
  listing: Listing;
  /** The run's outgoing drafts: a note whose draft had a secret redacted is never adopted. */
  outgoing: ReadonlyMap<string, Outgoing>;
}

/** Decides, touching nothing, which prior episodes are adopted and which retire (reads the notes' files for their content). */
export async function decidePriorTakeover({ migration, listing, outgoing }: PriorTakeoverInput): Promise<PriorTakeover> {
  const takeover: PriorTakeover = { adoptions: [], replacements: [] };
  const indexes = new Map<string, GroupIndex>();
  for (const { record, absPath, entry } of migration.candidates) {
    const group = record.episodes[0]?.groupId;
    const listed = group === undefined ? undefined : listing.get(group);
    if (listed === undefined || group === undefined) continue;
    const index = indexes.get(group) ?? indexGroup(listed.episodes);
    indexes.set(group, index);
    let raw: string;
    try {
      raw = await readFile(absPath, 'utf8');
    } catch {
      continue;
    }
    const current = priorFingerprint(raw);
    const name = basename(absPath);
    const theirs = (index.byFile.get(name) ?? []).filter((e) => isPriorEpisodeFor(e, name) && holdsPriorContent(e, entry, current)).sort((a, b) => (a.uuid < b.uuid ? -1 : 1));
    const [kept, ...copies] = theirs;
    if (kept === undefined) continue;
    const [ref] = record.episodes;
    // A secret the prior hook sent as it was must not stay in the graph: ours is redacted.
    const redacted = [...(outgoing.get(record.id)?.drafts.values() ?? [])].some((d) => d.redactions > 0);
    const adoptable = !migration.replace && current.contentHash === entry.contentHash && record.episodes.length === 1 && !redacted && ref !== undefined && !index.markers.has(ref.marker);
    const retire = (e: Episode): EpisodeRef => ({ marker: `madeinoz:${e.uuid}`, name: e.name, groupId: group, part: 1, parts: 1, uuid: e.uuid, resends: 0 });
    if (adoptable) takeover.adoptions.push({ record, uuid: kept.uuid, copies: copies.map(retire) });
    else takeover.replacements.push({ record, retired: theirs.map(retire) });
  }
  return takeover;
}

/** Writes a takeover into the run: adopted parts confirmed and out of the outbox, retired ones queued for deletion; one journal entry. */
export async function applyPriorTakeover(ctx: RunContext, takeover: PriorTakeover): Promise<void> {
  const nowIso = new Date(ctx.now()).toISOString();
  for (const { record, uuid, copies } of takeover.adoptions) {
    const [ref] = record.episodes;
    if (ref === undefined) continue;
    ref.uuid = uuid;
    ref.sentAt = nowIso;
    ref.confirmedAt = nowIso;
    ctx.outgoing.delete(record.id);
    ctx.counts.adopted++;
    ctx.counts.added--;
    ctx.state.orphans.push(...copies);
    ctx.logger.info('adopted the madeinoz hook episode of an unchanged note', { id: record.id, uuid, copiesRemoved: copies.length });
  }
  for (const { record, retired } of takeover.replacements) {
    record.superseded.push(...retired);
    ctx.logger.info('the madeinoz hook episode is replaced by ours once ours is confirmed', { id: record.id, episodes: retired.length });
  }
  const touched = [...takeover.adoptions, ...takeover.replacements].map((t) => t.record);
  // One journal entry for the lot: a thousand notes must not cost a thousand fsyncs.
  if (touched.length > 0) await ctx.ledger.journal(touched, takeover.adoptions.some((a) => a.copies.length > 0));
}
