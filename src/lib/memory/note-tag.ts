/**
 * The note tag: proof that an episode is one of the person's own notes, sent by a machine that
 * holds their key (issue 42), and what `pull` needs to put it back where it belongs.
 *
 * An auto-memory episode sent by a linked machine carries, in its source description beside the
 * marker, `[gmsn:<project id>:<version>:<parent>:<path>:<tag>]`:
 * - `project id`: the project's identity (util/git-identity.ts), the same on every machine;
 * - `version`: the note's version (ms; util: max(file mtime, parent + 1)), ordering its edits;
 * - `parent`: the version this machine last pulled of the note (0: none), so a puller tells an
 *   edit made on top of its copy from a concurrent one;
 * - `path`: the note's path inside the project's memory folder, percent-encoded;
 * - `tag`: HMAC-SHA256 with the person's key over all of the above, the marker's origin and part,
 *   the episode's name and its body. A changed byte, another key, or a field moved from another
 *   episode (an older version replayed with a new number) fails to verify.
 * The marker (memory/episode.ts) is untouched: exactly-once bookkeeping does not depend on the tag,
 * and an episode without one is still ours; it is only not pulled.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface NoteTagFields {
  project: string;
  version: number;
  parent: number;
  /** Posix path inside the memory folder (`build.md`, `topics/ci.md`). */
  path: string;
  origin: string;
  part: number;
  parts: number;
  name: string;
  body: string;
}

export interface ParsedNoteTag {
  project: string;
  version: number;
  parent: number;
  path: string;
  tag: string;
  raw: string;
}

const PROJECT = /^[0-9a-f]{16}$/;
const TAG_RE = /\[gmsn:([0-9a-f]{16}):(\d{1,16}):(\d{1,16}):([A-Za-z0-9%._~!*'()-]{1,240}):([0-9a-f]{64})\]/g;
/** Longest path (encoded) a tag carries: a longer one is not tagged (its note stays on this machine). */
export const MAX_TAGGED_PATH_CHARS = 240;

/** A path a tag may carry: relative, posix, no `..` or empty segment, an `.md` file. */
export function taggablePath(path: string): boolean {
  if (path === '' || path.startsWith('/') || path.includes('\\') || path.includes('\0')) return false;
  const segments = path.split('/');
  if (segments.some((s) => s === '' || s === '.' || s === '..')) return false;
  return /\.md$/i.test(path) && encodeURIComponent(path).length <= MAX_TAGGED_PATH_CHARS;
}

function message(f: NoteTagFields): string {
  return JSON.stringify(['gms-note/1', f.project, f.version, f.parent, f.path, f.origin, f.part, f.parts, f.name, f.body]);
}

/** HMAC-SHA256 (hex) of the fields with the key. */
export function noteTag(key: Uint8Array, fields: NoteTagFields): string {
  return createHmac('sha256', key).update(message(fields), 'utf8').digest('hex');
}

/** The block written into the source description. Throws TypeError on fields that would not round-trip (a caller bug). */
export function formatNoteTag(key: Uint8Array, fields: NoteTagFields): string {
  if (!PROJECT.test(fields.project)) throw new TypeError('formatNoteTag: project must be 16 hex characters');
  if (!Number.isSafeInteger(fields.version) || fields.version < 1 || !Number.isSafeInteger(fields.parent) || fields.parent < 0) throw new TypeError('formatNoteTag: version and parent must be whole numbers');
  if (!taggablePath(fields.path)) throw new TypeError('formatNoteTag: not a taggable path');
  return `[gmsn:${fields.project}:${fields.version}:${fields.parent}:${encodeURIComponent(fields.path)}:${noteTag(key, fields)}]`;
}

/** The tag block in a source description (the last one), undefined when none or malformed. */
export function parseNoteTag(sourceDescription: string | null | undefined): ParsedNoteTag | undefined {
  if (typeof sourceDescription !== 'string' || !sourceDescription.includes('[gmsn:')) return undefined;
  let found: ParsedNoteTag | undefined;
  TAG_RE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = TAG_RE.exec(sourceDescription)) !== null) {
    let path: string;
    try {
      path = decodeURIComponent(m[4] ?? '');
    } catch {
      continue;
    }
    if (!taggablePath(path)) continue;
    found = { project: m[1] ?? '', version: Number(m[2]), parent: Number(m[3]), path, tag: m[5] ?? '', raw: m[0] };
  }
  return found;
}

/** True when `tag` is the key's tag over the fields (constant-time compare). */
export function verifyNoteTag(key: Uint8Array, fields: NoteTagFields, tag: string): boolean {
  const expected = Buffer.from(noteTag(key, fields), 'hex');
  const given = Buffer.from(tag, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
