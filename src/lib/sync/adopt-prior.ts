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
import type { OnlineRun, RunContext } from './types.js';

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

/** Adopts or retires the prior hook's episodes of the candidates, from a listing made before any send. */
export async function adoptPriorEpisodes(ctx: OnlineRun, listing: Listing, migration: PriorMigration): Promise<void> {
  const nowIso = new Date(ctx.now()).toISOString();
  const touched: FileRecord[] = [];
  let copiesRetired = false;
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
    if (theirs.length === 0) continue;
    const [ref] = record.episodes;
    // A secret the prior hook sent as it was must not stay in the graph: ours is redacted.
    const redacted = [...(ctx.outgoing.get(record.id)?.drafts.values() ?? [])].some((d) => d.redactions > 0);
    const adoptable = !migration.replace && current.contentHash === entry.contentHash && record.episodes.length === 1 && !redacted && ref !== undefined && !index.markers.has(ref.marker);
    const retire = (uuid: string, name: string): EpisodeRef => ({ marker: `madeinoz:${uuid}`, name, groupId: group as string, part: 1, parts: 1, uuid, resends: 0 });
    if (adoptable) {
      const [kept, ...copies] = theirs;
      ref.uuid = kept!.uuid;
      ref.sentAt = nowIso;
      ref.confirmedAt = nowIso;
      ctx.outgoing.delete(record.id);
      ctx.counts.adopted++;
      ctx.counts.added--;
      ctx.state.orphans.push(...copies.map((e) => retire(e.uuid, e.name)));
      ctx.logger.info('adopted the madeinoz hook episode of an unchanged note', { id: record.id, uuid: kept!.uuid, copiesRemoved: copies.length });
    } else {
      record.superseded.push(...theirs.map((e) => retire(e.uuid, e.name)));
      ctx.logger.info('the madeinoz hook episode is replaced by ours once ours is confirmed', { id: record.id, episodes: theirs.length });
    }
    touched.push(record);
    copiesRetired ||= adoptable && theirs.length > 1;
  }
  // One journal entry for the lot: a thousand notes must not cost a thousand fsyncs.
  if (touched.length > 0) await ctx.ledger.journal(touched, copiesRetired);
}
