/**
 * A file's status, derived from its parts: any part not yet accepted → `pending`; all accepted,
 * some not yet visible → `queued`; all visible → `confirmed`. `failed` and `skipped` are verdicts,
 * set by planning, a rejection or a drop; only a new version of the file (or --force) lifts them.
 */
import type { FileRecord } from '../state/state.js';

export function refreshStatus(record: FileRecord, nowIso: string): void {
  if (record.status === 'failed' || record.status === 'skipped') return;
  const previous = record.status;
  if (record.episodes.some((e) => e.sentAt === undefined)) record.status = 'pending';
  else if (record.episodes.some((e) => e.uuid === undefined)) record.status = 'queued';
  else {
    record.status = 'confirmed';
    if (previous !== 'confirmed') record.confirmedAt = nowIso;
    // The new version is in: the gap a break-before-make edit opened is closed.
    delete record.bridgingSince;
    delete record.bridgedFrom;
  }
}
