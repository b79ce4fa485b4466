/**
 * MemoryDocument → Graphiti episode drafts (what `add_memory` receives).
 *
 * - The body loses only machine noise and what must not leave the machine: capture
 *   footers, `<private>` blocks and secrets. Nothing is cut: a body over the limit is
 *   split into numbered parts (see split.ts), each repeating a short header of the
 *   key frontmatter so every part stands on its own for entity extraction.
 * - Frontmatter that matters (type, description, tags, capture time, rating, executor,
 *   project …) becomes readable `Key: value` lines.
 * - `sourceDescription` ends with a stable marker `[gms:<fileId>:<hash12>:<part>/<parts>:<origin>]`
 *   (markers written before origins existed have no `:<origin>`; they are still read).
 *   add_memory returns no uuid, so the sync engine finds our episodes again in
 *   get_episodes by this marker (and tells versions apart by the hash).
 * - `referenceTime` is the capture time (ISO-8601 UTC) so the temporal graph is right.
 */
import type { SourceKind } from './types.js';
import type { MemoryDocument } from './parse.js';
import { stripCaptureFooters } from './footer.js';
import { addCounts, redactSecrets, stripPrivateBlocks } from './redact.js';
import { splitMarkdown, trimBlock } from './split.js';
import { formatIso } from './time.js';
import { linkedMemories, renderMemoryLinks } from './links.js';
import { ORIGIN_NAME } from '../util/origin.js';

export interface EpisodeInput {
  doc: MemoryDocument;
  /** Source name (e.g. `pai`, `auto-memory`, an extra source's name). */
  source: string;
  kind: SourceKind;
  relPath: string;
  mtimeMs: number;
  /** Auto memory: the Claude Code project folder name. */
  project?: string;
  /** Already normalised/validated by the caller. */
  groupId: string;
  /** Maximum characters of one episode body (values below 100 are treated as 100). */
  maxChars: number;
  /** Opaque id of the file, [A-Za-z0-9_-]{1,64} (see hash.ts fileIdOf). */
  fileId: string;
  /** sha256 hex of the normalised content (hash.ts contentHashOf). */
  contentHash: string;
  /** Who sends it, named in the marker (util/origin.ts). */
  origin?: string;
  /**
   * The note tag block of one part (memory/note-tag.ts), for a note a linked machine sends; put
   * before the marker in the source description. Undefined: no tag.
   */
  noteTag?: (part: { name: string; body: string; part: number; parts: number; origin: string | undefined }) => string | undefined;
}

export interface EpisodeDraft {
  name: string;
  body: string;
  source: 'text';
  sourceDescription: string;
  groupId: string;
  referenceTime: string;
  /** The marker embedded in sourceDescription (`parseMarker(sourceDescription).raw`). */
  marker: string;
  part: number;
  parts: number;
  /**
   * Secrets redacted from this document. Reported on part 1 only (0 on later parts),
   * so summing over the parts gives the document's total.
   */
  redactions: number;
  /** The same, by kind (empty on later parts). */
  redactionsByKind: Record<string, number>;
}

export interface MarkerInfo {
  fileId: string;
  /** Who sent it (util/origin.ts); undefined in markers written before origins existed. */
  origin?: string;
  /** First 12 hex characters of the content hash. */
  hash: string;
  part: number;
  parts: number;
  /** The whole marker text, e.g. `[gms:0123456789abcdef:0123456789ab:1/2:m-3fa92c01bd]`. */
  raw: string;
}

export const MAX_NAME_CHARS = 200;
export const MAX_SOURCE_DESCRIPTION_CHARS = 500;
const MIN_MAX_CHARS = 100;
const MARKER_HASH_CHARS = 12;

const FILE_ID = /^[A-Za-z0-9_-]{1,64}$/;
const MARKER_RE = /\[gms:([A-Za-z0-9_-]{1,64}):([0-9a-f]{12}):(\d{1,6})\/(\d{1,6})(?::([a-z0-9][a-z0-9-]{0,39}))?\]/g;

/** `[gms:<fileId>:<hash first 12>:<part>/<parts>:<origin>]` (no `:<origin>` without one). Throws TypeError on values that would not round-trip (a caller bug). */
export function formatMarker(m: { fileId: string; hash: string; part: number; parts: number; origin?: string | undefined }): string {
  const hash = m.hash.slice(0, MARKER_HASH_CHARS).toLowerCase();
  if (!FILE_ID.test(m.fileId)) throw new TypeError(`formatMarker: fileId must match ${FILE_ID.source}`);
  if (m.origin !== undefined && !ORIGIN_NAME.test(m.origin)) throw new TypeError(`formatMarker: origin must match ${ORIGIN_NAME.source}`);
  if (!/^[0-9a-f]{12}$/.test(hash)) throw new TypeError('formatMarker: hash must be at least 12 hex characters');
  if (!Number.isInteger(m.part) || !Number.isInteger(m.parts) || m.part < 1 || m.part > m.parts || m.parts > 999_999) {
    throw new TypeError('formatMarker: part must be an integer from 1 to parts');
  }
  return `[gms:${m.fileId}:${hash}:${m.part}/${m.parts}${m.origin === undefined ? '' : `:${m.origin}`}]`;
}

/** Finds our marker anywhere in a source description (the last one wins: file names may contain look-alikes). */
export function parseMarker(sourceDescription: string | null | undefined): MarkerInfo | undefined {
  if (typeof sourceDescription !== 'string' || !sourceDescription.includes('[gms:')) return undefined;
  let found: MarkerInfo | undefined;
  MARKER_RE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = MARKER_RE.exec(sourceDescription)) !== null) {
    const part = Number(m[3]);
    const parts = Number(m[4]);
    if (part < 1 || part > parts) continue;
    found = { fileId: m[1] ?? '', hash: m[2] ?? '', part, parts, raw: m[0], ...(m[5] === undefined ? {} : { origin: m[5] }) };
  }
  return found;
}

/**
 * The marker of a stored part, parsed once per part: the state holds markers as the strings we
 * wrote, and a run asks each part's origin many times (plan, reconcile, delete, context). Cached
 * on the part object; a marker rewritten in place (sync/origin-migration.ts) is parsed again.
 */
export function partMarker(ref: { readonly marker: string }): MarkerInfo | undefined {
  const cached = PART_MARKERS.get(ref);
  if (cached !== undefined && cached.raw === ref.marker) return cached.parsed;
  const parsed = parseMarker(ref.marker);
  PART_MARKERS.set(ref, { raw: ref.marker, parsed });
  return parsed;
}

const PART_MARKERS = new WeakMap<object, { raw: string; parsed: MarkerInfo | undefined }>();

/** Cuts a label at a word boundary with `…`; surrogate pairs are never split. */
export function truncateLabel(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= 1) return '…'.slice(0, Math.max(0, max));
  let cut = max - 1;
  const code = text.charCodeAt(cut - 1);
  if (code >= 0xd800 && code <= 0xdbff) cut -= 1;
  let head = text.slice(0, cut);
  // Back up to the last word boundary unless the cut already falls on one.
  if (!/\s/.test(text.charAt(cut))) {
    const space = head.search(/\s\S*$/);
    if (space >= Math.floor(max / 2)) head = head.slice(0, space);
  }
  return `${head.trimEnd()}…`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

const TIME_LABEL = { timestamp: 'Captured', modified: 'Modified', date: 'Date', created: 'Created' } as const;

function scalarLine(value: unknown): string | undefined {
  if (typeof value === 'string') return oneLine(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value) && value.every((v) => ['string', 'number', 'boolean'].includes(typeof v))) {
    return oneLine(value.map(String).join(', '));
  }
  return undefined;
}

/** `Key: value` lines for the frontmatter worth keeping. */
function headerLines(doc: MemoryDocument): string[] {
  const fm = doc.frontmatter;
  const lines: string[] = [];
  const add = (label: string, value: string | undefined) => {
    if (value !== undefined && value.trim() !== '') lines.push(`${label}: ${oneLine(value)}`);
  };
  if (oneLine(doc.title).length > MAX_NAME_CHARS - 20) add('Title', doc.title);
  add('Type', doc.type);
  if (fm.capture_type !== undefined && fm.capture_type !== doc.type) add('Capture type', fm.capture_type);
  add('Description', fm.description);
  if (doc.tags.length > 0) add('Tags', doc.tags.join(', '));
  if (doc.time !== undefined) add(TIME_LABEL[doc.timeSource ?? 'date'], doc.time);
  if (fm.rating !== undefined) add('Rating', String(fm.rating));
  add('Executor', fm.executor);
  add('Agent completion', fm.agent_completion);
  if (doc.pinned === true) add('Pinned', 'yes');
  // No `Project: <key>` line: the key is Claude Code's folder name (-home-me-repo), which a real
  // Graphiti LLM turned into junk entities (issue 13). The project stays in source_description.
  // Unknown keys with simple values are metadata too; nested structures are left to the file.
  for (const [key, value] of Object.entries(doc.extra)) {
    const text = scalarLine(value);
    if (text !== undefined && text !== '' && key.length <= 40 && text.length <= 300) add(key, text);
  }
  return lines;
}

export interface PreparedContent {
  /** Frontmatter lines (redacted), '' when none. */
  header: string;
  /** The body after footers, private blocks and secrets are removed (trimmed). */
  body: string;
  /** Title (redacted, one line). */
  title: string;
  redactions: number;
  /** The same redactions by kind (`{ 'github-token': 1 }`): kinds and counts, never values. */
  redactionsByKind: Record<string, number>;
  privateBlocks: number;
  warnings: string[];
}

/** Everything buildEpisodes sends, before splitting. Exported for tests and dry runs. */
export function prepareEpisodeContent(doc: MemoryDocument): PreparedContent {
  const warnings: string[] = [];
  const privateBody = stripPrivateBlocks(stripCaptureFooters(doc.body));
  warnings.push(...privateBody.warnings);
  // [[links]] as words, and once as a header line (memory/links.ts); private blocks are gone already.
  const body = redactSecrets(renderMemoryLinks(privateBody.text));
  const links = linkedMemories(privateBody.text);
  const privateHeader = stripPrivateBlocks([...headerLines(doc), ...(links.length === 0 ? [] : [`Related memories: ${links.join(', ')}`])].join('\n'));
  const header = redactSecrets(privateHeader.text);
  const title = redactSecrets(oneLine(stripPrivateBlocks(doc.title).text));
  return {
    header: header.text.trim(),
    body: trimBlock(body.text),
    title: title.text || 'Untitled memory',
    redactions: body.total + header.total + title.total,
    redactionsByKind: addCounts(addCounts(addCounts({}, body.counts), header.counts), title.counts),
    privateBlocks: privateBody.count + privateHeader.count,
    warnings,
  };
}

/**
 * Builds the episodes for one document: one, or several numbered parts when the body
 * is longer than `maxChars`. Returns [] when nothing is left to send (the body was
 * empty, only footers or only private blocks, and there is no description).
 */
export function buildEpisodes(input: EpisodeInput): EpisodeDraft[] {
  const { doc } = input;
  const max = Math.max(MIN_MAX_CHARS, Math.floor(Number.isFinite(input.maxChars) ? input.maxChars : MIN_MAX_CHARS));
  const prepared = prepareEpisodeContent(doc);
  if (prepared.body === '' && (doc.frontmatter.description ?? '').trim() === '') return [];

  let bodies: string[];
  const sep = '\n\n';
  if (prepared.header === '') {
    bodies = splitMarkdown(prepared.body, max);
  } else if (prepared.header.length + sep.length <= max / 2) {
    // The header is repeated in each part so every part carries its context.
    const budget = max - prepared.header.length - sep.length;
    const chunks = prepared.body === '' ? [] : splitMarkdown(prepared.body, budget);
    bodies = chunks.length === 0 ? [prepared.header] : chunks.map((c) => `${prepared.header}${sep}${c}`);
  } else {
    // A huge header (long description, many tags) is treated as text and split like the body.
    bodies = splitMarkdown(prepared.body === '' ? prepared.header : `${prepared.header}${sep}${prepared.body}`, max);
  }
  if (bodies.length === 0) return [];

  const parts = bodies.length;
  const referenceTime = doc.time ?? formatIso(input.mtimeMs) ?? (formatIso(Date.now()) as string);
  const readable = [
    `${input.kind} memory ${input.relPath}`,
    doc.type === undefined ? undefined : `type ${oneLine(doc.type)}`,
    doc.tags.length === 0 ? undefined : `tags ${oneLine(doc.tags.join(', '))}`,
    input.project === undefined ? undefined : `project ${oneLine(input.project)}`,
  ]
    .filter((s): s is string => s !== undefined)
    .join('; ');
  // Paths and tags are the user's words too: never let a secret through in the label.
  const readableSafe = redactSecrets(oneLine(readable)).text;

  return bodies.map((body, index) => {
    const part = index + 1;
    const marker = formatMarker({ fileId: input.fileId, hash: input.contentHash, part, parts, origin: input.origin });
    const suffix = partSuffix(part, parts);
    const name = `${truncateLabel(prepared.title, MAX_NAME_CHARS - suffix.length)}${suffix}`;
    const tag = input.noteTag?.({ name, body, part, parts, origin: input.origin });
    const tail = tag === undefined ? marker : `${tag} ${marker}`;
    const description = `${truncateLabel(readableSafe, Math.max(20, MAX_SOURCE_DESCRIPTION_CHARS - tail.length - 1))} ${tail}`;
    return {
      name,
      body,
      source: 'text' as const,
      sourceDescription: description,
      groupId: input.groupId,
      referenceTime,
      marker,
      part,
      parts,
      redactions: part === 1 ? prepared.redactions : 0,
      redactionsByKind: part === 1 ? prepared.redactionsByKind : {},
    };
  });
}

/**
 * A few words of an episode body for finding, later, the facts Graphiti extracted from it: the
 * text after its header lines, markdown marks dropped, at most 160 characters at a word boundary.
 */
export function searchProbe(body: string): string {
  const blank = body.indexOf('\n\n');
  const text = (blank >= 0 ? body.slice(blank + 2) : body).replace(/[#*_`>|[\]()~-]+/g, ' ').replace(/\s+/g, ' ').trim();
  if (text.length <= 160) return text;
  const cut = text.slice(0, 160);
  const space = cut.lastIndexOf(' ');
  return space > 80 ? cut.slice(0, space) : cut;
}

/** What an episode's name ends in when its note was sent in parts (`Runbook (part 2/3)`); '' for a note in one. */
export function partSuffix(part: number, parts: number): string {
  return parts > 1 ? ` (part ${part}/${parts})` : '';
}
