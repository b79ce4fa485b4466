/**
 * Memory file → MemoryDocument. Never throws: every problem is either a warning on a
 * usable document or a failure with a reason the caller can record.
 *
 * Safety:
 * - Frontmatter is parsed by gray-matter, but with our own engine table: `---js`,
 *   `---javascript` and `---coffee` blocks would be `eval`ed by gray-matter's default
 *   engine, so we refuse them before gray-matter sees them and also replace those
 *   engines with ones that throw (defence in depth).
 * - YAML is loaded with js-yaml's safe schema, resolved from gray-matter's own
 *   dependency so it is the exact copy gray-matter uses (3.x: `load` would honour
 *   `!!js/function`; `safeLoad` + DEFAULT_SAFE_SCHEMA does not).
 * - gray-matter caches results by content string when called without options; we
 *   always pass options, so nothing is cached or shared between calls.
 * - The parsed data is copied into null-prototype objects, dropping `__proto__`,
 *   `constructor` and `prototype` keys, with a size/depth budget (YAML aliases can
 *   make a small file expand into a huge tree).
 * - Error and warning messages never quote frontmatter values (they may be secrets);
 *   YAML errors give the parser's reason with line and column, not its source snippet.
 */
import matter from 'gray-matter';
// gray-matter's own YAML engine (js-yaml 3), imported by name so the plugin's single-file bundle
// carries it: resolving it at run time beside gray-matter failed in the plugin cache copy.
import * as jsYamlModule from 'js-yaml';
import {
  FIELD_SCHEMAS,
  METADATA_SCHEMAS,
  type MemoryFrontmatter,
  type ScalarField,
  describeType,
  readField,
  readTags,
} from './frontmatter-schema.js';
import { copyFields, isMapping, toPlain } from './safe-copy.js';
import { decode } from './text.js';
import { humanizeSlug, oneLine, titleFromBody, titleFromPath } from './title.js';
import { ALLOWED_LANGUAGES, JS_LANGUAGES, JsFrontmatterError, matterOptions, yamlErrorMessage } from './yaml.js';
import { parseTime } from './time.js';

export { toIsoTime, parseTime } from './time.js';
export type { MemoryFrontmatter } from './frontmatter-schema.js';

export type ParseFailureReason = 'yaml' | 'js-frontmatter' | 'binary' | 'not-utf8' | 'empty';
export type OptOutReason = 'sync-false' | 'private';
/** Which frontmatter field `time` came from. */
export type TimeSource = 'timestamp' | 'modified' | 'date' | 'created';

export interface MemoryDocument {
  title: string;
  /** Markdown after the frontmatter, LF line ends, otherwise as written. */
  body: string;
  frontmatter: MemoryFrontmatter;
  /** Unknown keys (and unknown keys under `metadata`, as `extra.metadata`), JSON-friendly values. */
  extra: Record<string, unknown>;
  warnings: string[];
  optOut?: OptOutReason;
  /** ISO-8601 UTC from timestamp, modified, date or created (first that parses). */
  time?: string;
  timeSource?: TimeSource;
  tags: string[];
  /** `type`, else `metadata.type`, else PAI's `capture_type`. */
  type?: string;
  /** The file's own `group_id`, unvalidated (the caller escapes/validates it). */
  groupId?: string;
  pinned?: boolean;
  /** Whether the file had a frontmatter block at all. */
  hasFrontmatter: boolean;
}

export type ParseResult =
  | { ok: true; data: MemoryDocument }
  | { ok: false; reason: ParseFailureReason; message: string };

// ---------------------------------------------------------------------------
// Frontmatter block

type Split =
  | { kind: 'none' }
  | { kind: 'unclosed' }
  | { kind: 'language'; language: string }
  | { kind: 'block' };

/** Mirrors gray-matter's detection so we can refuse code languages and unclosed blocks first. */
function inspectFrontmatter(text: string): Split {
  if (!text.startsWith('---') || text.charAt(3) === '-') return { kind: 'none' };
  const eol = text.indexOf('\n');
  if (eol === -1) return { kind: 'unclosed' };
  const language = text.slice(3, eol).trim().toLowerCase();
  // `--- Meeting notes ---` is a decorative first line, not a frontmatter language.
  if (!/^[a-z0-9_+-]*$/.test(language)) return { kind: 'none' };
  if (!ALLOWED_LANGUAGES.has(language)) return { kind: 'language', language };
  if (text.indexOf('\n---', eol) === -1) return { kind: 'unclosed' };
  return { kind: 'block' };
}

/** Whether the text opens a frontmatter block it never closes (read as text, with a warning: `parseMemoryFile`). */
export function frontmatterUnclosed(text: string): boolean {
  return inspectFrontmatter(text).kind === 'unclosed';
}

// ---------------------------------------------------------------------------

/** Parses one memory file. Never throws. */
export function parseMemoryFile(raw: Buffer | Uint8Array, relPath: string): ParseResult {
  try {
    return parseUnsafe(raw, relPath);
  } catch (error) {
    // Defensive: any unexpected failure is a reason, never an exception for the caller.
    return { ok: false, reason: 'yaml', message: `could not parse the file: ${error instanceof Error ? error.message.split('\n')[0] : 'unknown error'}` };
  }
}

function parseUnsafe(raw: Uint8Array, relPath: string): ParseResult {
  const decoded = decode(raw);
  if (!decoded.ok) return decoded;
  const text = decoded.text;
  if (text.trim() === '') return { ok: false, reason: 'empty', message: 'the file is empty' };

  const warnings: string[] = [];
  let data: unknown = {};
  let body = text;
  let hasFrontmatter = false;

  const split = inspectFrontmatter(text);
  if (split.kind === 'language') {
    if (JS_LANGUAGES.has(split.language)) {
      return { ok: false, reason: 'js-frontmatter', message: `frontmatter language ${split.language} is not allowed (it would run code); use YAML` };
    }
    return { ok: false, reason: 'yaml', message: `frontmatter language "${split.language.slice(0, 20)}" is not supported; use YAML` };
  }
  if (split.kind === 'unclosed') {
    warnings.push('the file starts with --- but the frontmatter is never closed with a --- line; the whole file is read as text');
  } else if (split.kind === 'block') {
    let file: { data: unknown; content: string };
    try {
      file = matter(text, matterOptions(warnings));
    } catch (error) {
      if (error instanceof JsFrontmatterError) return { ok: false, reason: 'js-frontmatter', message: error.message };
      return { ok: false, reason: 'yaml', message: yamlErrorMessage(error) };
    }
    hasFrontmatter = true;
    data = file.data;
    body = file.content;
  }

  let fields: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  if (data === null || data === undefined) {
    // `---\n---` or a block of comments: no fields.
  } else if (!isMapping(data)) {
    warnings.push(`frontmatter is ${describeType(data)}, not a mapping of keys to values; ignored`);
  } else {
    fields = copyFields(data, warnings);
  }

  const fm: MemoryFrontmatter = {};
  const extra = Object.create(null) as Record<string, unknown>;
  const rawTimes: Partial<Record<TimeSource, unknown>> = {};
  let tags: string[] = [];

  for (const key of Object.keys(fields)) {
    const value = fields[key];
    const lower = key.toLowerCase();
    if (lower === 'tags') {
      if (fm.tags !== undefined) {
        warnings.push(`${key}: given twice; the first is used`);
        continue;
      }
      const r = readTags(value);
      for (const p of r.problems) warnings.push(`${key}: ${p}`);
      tags = r.tags;
      fm.tags = [...r.tags];
      continue;
    }
    if (lower === 'metadata') {
      if (!isMapping(value)) {
        warnings.push(`${key}: expected a mapping, got ${describeType(value)}; ignored`);
        continue;
      }
      const meta: { type?: string; pinned?: boolean } = {};
      const rest = Object.create(null) as Record<string, unknown>;
      for (const [mk, mv] of Object.entries(value)) {
        if (mk === 'type' || mk === 'pinned') {
          const spec = METADATA_SCHEMAS[mk];
          const r = readField(spec.schema, spec.expected, mv);
          if (!r.ok) warnings.push(`${key}.${mk}: ${r.problem ?? 'invalid'}; ignored`);
          else if (mk === 'type' && typeof r.value === 'string' && r.value !== '') meta.type = r.value;
          else if (mk === 'pinned' && typeof r.value === 'boolean') meta.pinned = r.value;
        } else rest[mk] = toPlain(mv);
      }
      fm.metadata = meta;
      if (Object.keys(rest).length > 0) extra[key] = rest;
      continue;
    }
    if (Object.prototype.hasOwnProperty.call(FIELD_SCHEMAS, lower)) {
      const field = lower as ScalarField;
      if (fm[field] !== undefined) {
        warnings.push(`${key}: given twice; the first is used`);
        continue;
      }
      const spec = FIELD_SCHEMAS[field];
      const r = readField(spec.schema, spec.expected, value);
      if (!r.ok) {
        warnings.push(`${key}: ${r.problem ?? 'invalid'}; ignored`);
        continue;
      }
      if (r.value === '' || r.value === undefined) continue;
      (fm as Record<string, unknown>)[field] = r.value;
      if (field === 'timestamp' || field === 'modified' || field === 'date' || field === 'created') rawTimes[field] = value;
      continue;
    }
    extra[key] = toPlain(value);
  }

  // Time: the first field that parses, in order of precision/meaning.
  let time: string | undefined;
  let timeSource: TimeSource | undefined;
  for (const source of ['timestamp', 'modified', 'date', 'created'] as const) {
    if (!(source in rawTimes)) continue;
    const parsed = parseTime(rawTimes[source]);
    if (parsed.warning !== undefined) warnings.push(`${source}: ${parsed.warning}`);
    if (time === undefined && parsed.iso !== undefined) {
      time = parsed.iso;
      timeSource = source;
    }
  }

  if (!hasFrontmatter || Object.keys(fields).length === 0) {
    if (body.trim() === '') return { ok: false, reason: 'empty', message: 'the file has no content (empty frontmatter and no text)' };
  }

  // Claude Code's newer layout makes `name` a kebab-case slug ("project-architecture"): a heading
  // in the body reads better as an episode name, and the slug itself is humanized as a fallback.
  const slug = fm.name !== undefined && /^[a-z0-9]+(?:[-_][a-z0-9]+)+$/.test(fm.name) ? fm.name : undefined;
  const title = fm.title ?? (slug === undefined ? fm.name : (titleFromBody(body) ?? humanizeSlug(slug))) ?? titleFromBody(body) ?? titleFromPath(relPath);
  const doc: MemoryDocument = {
    title: oneLine(title) || titleFromPath(relPath),
    body,
    frontmatter: fm,
    extra,
    warnings,
    tags,
    hasFrontmatter,
  };
  if (fm.private === true) doc.optOut = 'private';
  else if (fm.sync === false) doc.optOut = 'sync-false';
  if (time !== undefined) {
    doc.time = time;
    if (timeSource !== undefined) doc.timeSource = timeSource;
  }
  const type = fm.type ?? fm.metadata?.type ?? fm.capture_type;
  if (type !== undefined) doc.type = type;
  if (fm.group_id !== undefined) doc.groupId = fm.group_id;
  const pinned = fm.pinned ?? fm.metadata?.pinned;
  if (pinned !== undefined) doc.pinned = pinned;
  return { ok: true, data: doc };
}
