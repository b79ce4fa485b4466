/**
 * MOVED_NOTE_WRITER_BACK (with state/server-of-record.ts SERVER_OF_RECORD): the first pull on another
 * server judges no absence: every note it does not list is marked lost with an emptied group
 * (`PulledNote.emptiedSince`), kept and unjudged until listed again, so that nothing is removed for a
 * server that never held it. But a note deleted on purpose on a linked machine meanwhile (before it
 * moved too, or once there) is never listed again: its copy here was kept for good, in every session
 * here, a deletion made on purpose never carried out.
 *
 * The machine that wrote the note's version (its origin) settles it once it writes to this graph:
 * its first sync on a server it did not sync to before looks, as `sync --force` does, whether the
 * graph holds every note it calls confirmed, and sends again what it lacks. So once the group lists
 * an episode of that origin created after the mark (by more than a server's clock may be off), that
 * machine has synced here since: a note of its still missing was deleted there (or is an edit in
 * flight, which the usual patience counts from the group's last movement). The mark is taken off and
 * the note's absence judged as any other (pull.ts `absenceSettled`: the group's patience).
 *
 * Only marks a move made (`emptiedByMove`): after a wipe a machine's next ordinary sync does not send
 * its notes again (the graph lost them behind its back; `sync --force` does), so its writing there
 * proves nothing. Only notes of another machine's origin: this machine's own are sent again by its
 * own sync, whose first run on the server may look at some sources only (`sync --source`), and
 * taking one of those for deleted would remove the person's own file here. A note removed so is not
 * lost: the machine that wrote it has no such note, or sends it again, and the next pull brings it
 * back (its ledger entry gone, it is new here).
 */
import type { PulledLedger } from '../state/pulled.js';
import { MAX_SKEW_MS } from '../sync/pace.js';
import type { NoteVersion } from './incoming.js';

/** Takes the move's mark off every note whose writer has written to its group since; their files. */
export function writersBack(ledger: PulledLedger, listed: ReadonlyMap<string, readonly NoteVersion[]>, ours: ReadonlySet<string>): string[] {
  const marked = Object.values(ledger.notes).filter((n) => n.emptiedByMove === true && n.emptiedSince !== undefined && !ours.has(n.origin));
  if (marked.length === 0) return [];
  // The newest creation of each origin in each group this listing shows.
  const latest = new Map<string, number>();
  for (const versions of listed.values()) {
    for (const v of versions) {
      for (const part of v.parts) {
        const at = part.createdAt === undefined || part.createdAt === null ? NaN : Date.parse(part.createdAt);
        const key = `${v.origin}\0${part.groupId}`;
        if (Number.isFinite(at) && at > (latest.get(key) ?? -Infinity)) latest.set(key, at);
      }
    }
  }
  const back: string[] = [];
  for (const note of marked) {
    const since = Date.parse(note.emptiedSince as string);
    const wrote = latest.get(`${note.origin}\0${note.group}`);
    if (!Number.isFinite(since) || wrote === undefined || wrote <= since + MAX_SKEW_MS) continue;
    delete note.emptiedSince;
    delete note.emptiedByMove;
    back.push(note.file);
  }
  return back;
}
