/**
 * No note disappears while it is being replaced. Where an edit deletes the old version before the
 * new one is sent (break-before-make: graphiti-core 0.29.3 and 0.31.1, sync/retire.ts), the note
 * is in the graph in no version until the new one is stored. If the new one never is (the server
 * drops it past its re-sends, or rejects it), the old version's text, kept as it was sent
 * (state/kept-text.ts), is sent again: the note's last stored knowledge is back, the file reports
 * the failed version (`failedVersion`, `status`), and that text is tried again only when the file
 * changes or on `sync --force`. Only the user's own deletion of a note removes its last version.
 */
import type { EpisodeRef, FileRecord } from '../state/state.js';
import { keptDrafts } from './prepare.js';
import type { RunContext } from './types.js';

/** A record whose new version failed after its old one was deleted first: its old version is to be sent again. */
export function needsRestore(record: FileRecord): boolean {
  return record.status === 'failed' && record.failedVersion === undefined && (record.bridgedFrom?.length ?? 0) > 0;
}

/** Puts each such record's older version back into the outbox, from its kept text. Returns how many. */
export async function restoreFailedBridges(ctx: RunContext): Promise<number> {
  let restored = 0;
  for (const record of Object.values(ctx.state.files)) {
    if (!needsRestore(record)) continue;
    const parts = record.bridgedFrom as EpisodeRef[];
    const drafts = await keptDrafts(ctx.config.stateDir, parts);
    if (drafts === undefined) {
      ctx.logger.warn('the new version could not be stored and the older one\'s text was not kept: the note is not in the graph until the file changes or sync --force', { id: record.id });
      continue;
    }
    const iso = new Date(ctx.now()).toISOString();
    record.failedVersion = { hash: record.hash ?? '', error: record.lastError ?? 'not stored', at: iso };
    // What of the failed version reached the graph (a part of several) is retired like any older version;
    // its parts judged dropped are not waited for.
    record.superseded.push(...record.episodes.filter((ref) => ref.uuid !== undefined));
    record.episodes = parts.map((ref) => ({ marker: ref.marker, name: ref.name, groupId: ref.groupId, part: ref.part, parts: ref.parts, ...(ref.probe === undefined ? {} : { probe: ref.probe }), resends: 0 }));
    delete record.bridgedFrom;
    record.status = 'pending';
    record.attempts = 0;
    record.updatedAt = iso;
    ctx.outgoing.set(record.id, { record, drafts });
    await ctx.ledger.journal([record]);
    ctx.logger.warn('the new version could not be stored; sending the previous version again so the note stays in the graph', { id: record.id, error: record.failedVersion.error });
    restored++;
  }
  return restored;
}
