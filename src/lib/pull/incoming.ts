/**
 * The graph's episodes → the person's notes, proven (issue 42). An episode counts only when its
 * note tag (memory/note-tag.ts) verifies with this machine's key over its marker's origin and
 * part, its name and its body; a note counts only when every one of its parts does and they agree
 * on project, path, version and parent. Everything else (another person's key, another client, a
 * forged or altered episode, an untagged one) is counted and never written anywhere.
 *
 * Per note (`<project id>:<path>`), the newest version from another machine (`incoming`) and the
 * newest of this machine's own (`own`: what it sent, to tell an untouched local note from an edit).
 */
import type { Episode } from '../graphiti/graphiti.js';
import { parseMarker } from '../memory/episode.js';
import { parseNoteTag, verifyNoteTag } from '../memory/note-tag.js';
import { noteId } from '../state/pulled.js';
import { keeper } from '../sync/reconcile.js';

export interface VersionPart {
  uuid: string;
  groupId: string;
  part: number;
  name: string;
  body: string;
  /** When the server processed it (the episode's `created_at`). */
  createdAt?: string | null;
}

export interface NoteVersion {
  id: string;
  project: string;
  path: string;
  version: number;
  parent: number;
  origin: string;
  /** First 12 hex of the sender's content hash (from the marker). */
  hash12: string;
  /** The marker's file id: which memory file on the sending machine it is (memory/sources.ts fileIdFor). */
  fileId: string;
  groupId: string;
  /** In part order. */
  parts: VersionPart[];
}

export interface Incoming {
  /** Newest complete version from another of the person's machines, per note. */
  incoming: Map<string, NoteVersion>;
  /** Newest complete version this machine sent, per note. */
  own: Map<string, NoteVersion>;
  /** This machine's newest version of each of its files that holds the note (two clones, an old path), per note. */
  ownByFile: Map<string, NoteVersion[]>;
  /** Every complete verified version, per note (a deletion here removes them all). */
  all: Map<string, NoteVersion[]>;
  /** Tagged episodes whose tag did not verify with this key (another person's, forged or altered). */
  unverified: number;
  /** Verified parts of a note with a part missing (not processed yet): judged on a later pull. */
  incomplete: number;
}

function newer(a: NoteVersion | undefined, b: NoteVersion): boolean {
  return a === undefined || b.version > a.version || (b.version === a.version && b.origin < a.origin);
}

export function collectNotes(episodes: readonly Episode[], key: Uint8Array, ourOrigins: ReadonlySet<string>): Incoming {
  const versions = new Map<string, { v: Omit<NoteVersion, 'parts'>; parts: Map<number, VersionPart>; parts_total: number }>();
  let unverified = 0;
  for (const ep of episodes) {
    const tag = parseNoteTag(ep.source_description);
    if (tag === undefined) continue;
    const marker = parseMarker(ep.source_description);
    if (marker?.origin === undefined) {
      unverified++;
      continue;
    }
    const fields = { project: tag.project, version: tag.version, parent: tag.parent, path: tag.path, origin: marker.origin, part: marker.part, parts: marker.parts, name: ep.name, body: ep.content };
    if (!verifyNoteTag(key, fields, tag.tag)) {
      unverified++;
      continue;
    }
    const vid = `${marker.origin}\0${marker.fileId}\0${marker.hash}\0${tag.version}`;
    let entry = versions.get(vid);
    if (entry === undefined) {
      entry = { v: { id: noteId(tag.project, tag.path), project: tag.project, path: tag.path, version: tag.version, parent: tag.parent, origin: marker.origin, hash12: marker.hash, fileId: marker.fileId, groupId: ep.group_id }, parts: new Map(), parts_total: marker.parts };
      versions.set(vid, entry);
    }
    // Parts of one version must agree on everything the tag names; a duplicate copy of a part is one part.
    if (entry.v.project !== tag.project || entry.v.path !== tag.path || entry.v.parent !== tag.parent || entry.parts_total !== marker.parts) {
      unverified++;
      continue;
    }
    if (!entry.parts.has(marker.part)) entry.parts.set(marker.part, { uuid: ep.uuid, groupId: ep.group_id, part: marker.part, name: ep.name, body: ep.content, createdAt: ep.created_at });
  }
  const out: Incoming = { incoming: new Map(), own: new Map(), ownByFile: new Map(), all: new Map(), unverified, incomplete: 0 };
  for (const { v, parts, parts_total } of versions.values()) {
    if (parts.size !== parts_total) {
      out.incomplete++;
      continue;
    }
    const version: NoteVersion = { ...v, parts: [...parts.values()].sort((a, b) => a.part - b.part) };
    out.all.set(v.id, [...(out.all.get(v.id) ?? []), version]);
    const map = ourOrigins.has(v.origin) ? out.own : out.incoming;
    if (newer(map.get(v.id), version)) map.set(v.id, version);
    if (ourOrigins.has(v.origin)) {
      const byFile = out.ownByFile.get(v.id) ?? [];
      const i = byFile.findIndex((o) => o.fileId === version.fileId);
      if (i < 0) byFile.push(version);
      else if (newer(byFile[i], version)) byFile[i] = version;
      out.ownByFile.set(v.id, byFile);
    }
  }
  return out;
}

/**
 * A note's versions as one memory file here sees them: `own` is what this very file sent (its
 * marker's file id); `incoming` the newest of the other machines' and of this machine's other files
 * holding the note (another clone of the repository, a checkout's old path: Claude Code keeps a
 * memory folder per path), so an edit in one clone reaches the other as it reaches another machine.
 * `fileId` undefined (a folder whose notes are not tagged): this machine's versions are all `own`.
 */
export function versionsFor(notes: Incoming, id: string, fileId: string | undefined): { incoming: NoteVersion | undefined; own: NoteVersion | undefined } {
  const incoming = notes.incoming.get(id);
  if (fileId === undefined) return { incoming, own: notes.own.get(id) };
  let own: NoteVersion | undefined;
  let fromSibling: NoteVersion | undefined;
  for (const v of notes.ownByFile.get(id) ?? []) {
    if (v.fileId === fileId) own = v;
    else if (newer(fromSibling, v)) fromSibling = v;
  }
  return { incoming: fromSibling !== undefined && newer(incoming, fromSibling) ? fromSibling : incoming, own };
}

/**
 * One text sent as its own by several of the person's files (two machines, two clones: saved alike,
 * copied with the folder, a `pull --to` copy moved in by hand) is one note in the graph more than
 * once. The copy that stays is the one processed first (sync/reconcile.ts `keeper`: it created the
 * facts, so deleting the others loses none, on every server generation); every other file holding
 * the text gives way (decide.ts). Every machine sees the same times and uuids, so all pick the same
 * copy, and the one processed first never gives way: the note is never left with no copy.
 * `holds`: whether a version is the text of the file here. Only the newest version of each sending
 * file counts (an older one is on its way out of the graph), and a version another one holding the
 * text was built on does not (`buildsOn`).
 */
export function firstOfText(notes: Incoming, id: string, holds: (v: NoteVersion) => boolean): NoteVersion | undefined {
  const all = notes.all.get(id) ?? [];
  const current = all.filter((v) => !all.some((o) => o !== v && o.origin === v.origin && o.fileId === v.fileId && o.version > v.version));
  const holding = current.filter(holds);
  const candidates = holding.filter((v) => !holding.some((o) => buildsOn(o, v))).map((v) => ({ v, uuid: v.parts[0]?.uuid ?? '', created_at: v.parts[0]?.createdAt ?? null }));
  return candidates.length === 0 ? undefined : keeper(candidates).v;
}

/**
 * Whether `later`, sent by another file, was built on `earlier` (its tag's parent is that version or
 * newer): the note's next version, not the same text saved on its own. It holds the same text only
 * after an edit reverted (state/pulled.ts `sentOverPulled`), and its sender may already have made
 * the other machine give way to the edit in between: the successor stays, as it would if the text
 * differed (decide.ts writes it over an untouched copy), on every machine alike.
 */
function buildsOn(later: NoteVersion, earlier: NoteVersion): boolean {
  return later !== earlier && !(later.origin === earlier.origin && later.fileId === earlier.fileId) && later.parent >= earlier.version;
}
