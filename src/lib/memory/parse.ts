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
import { basename } from 'node:path';
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
  scalarText,
} from './frontmatter-schema.js';
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
// YAML engine

interface YamlMark {
  line: number;
  column: number;
}
interface JsYaml {
  safeLoad?: (input: string, options?: { schema?: unknown }) => unknown;
  load: (input: string, options?: { schema?: unknown }) => unknown;
  DEFAULT_SAFE_SCHEMA?: unknown;
  DEFAULT_SCHEMA?: unknown;
}

const jsYaml = ((jsYamlModule as { default?: unknown }).default ?? jsYamlModule) as JsYaml;

/** Loads YAML without any code-executing type. */
function loadYamlSafely(source: string): unknown {
  if (jsYaml.DEFAULT_SAFE_SCHEMA !== undefined && typeof jsYaml.safeLoad === 'function') {
    return jsYaml.safeLoad(source, { schema: jsYaml.DEFAULT_SAFE_SCHEMA });
  }
  // js-yaml 4: `load` is safe by default (no js types exist any more).
  return jsYaml.load(source, { schema: jsYaml.DEFAULT_SCHEMA });
}

class JsFrontmatterError extends Error {
  constructor(readonly language: string) {
    super(`frontmatter language ${language} is not allowed (it would run code); use YAML`);
    this.name = 'JsFrontmatterError';
  }
}

const refuse = (language: string) => ({
  parse: (): object => {
    throw new JsFrontmatterError(language);
  },
});

const JS_LANGUAGES = new Set(['js', 'javascript', 'coffee', 'coffeescript', 'cson']);
const ALLOWED_LANGUAGES = new Set(['', 'yaml', 'yml', 'json']);

const PLAIN_PAIR = /^([A-Za-z0-9_][A-Za-z0-9_.-]*)[ \t]*:[ \t]+([^\s"'[\]{}|>&*!#%@`-].*)$/;

/**
 * PAI and hand-written frontmatter contain top-level values such as
 * `description: Fix: the parser`, which YAML rejects ("mapping values are not allowed").
 * When strict parsing fails, such values (top-level, unquoted, containing ": ") are
 * quoted and the block is parsed again — still by the YAML parser, never by hand.
 * Returns the repaired block and the 1-based line numbers changed (same line count).
 */
function quoteColonValues(block: string): { text: string; lines: number[] } {
  const lines = block.split('\n');
  const changed: number[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    const m = PLAIN_PAIR.exec(lines[i] ?? '');
    if (m === null) continue;
    const value = (m[2] ?? '').trimEnd();
    if (!/:(?:[ \t]|$)/.test(value)) continue;
    lines[i] = `${m[1]}: ${JSON.stringify(value)}`;
    changed.push(i + 1);
  }
  return { text: lines.join('\n'), lines: changed };
}

/** YAML engine with the colon-value fallback; notes go to `warnings`. */
function yamlEngine(warnings: string[]) {
  return {
    parse: (block: string): object => {
      try {
        return loadYamlSafely(block) as object;
      } catch (error) {
        const repaired = quoteColonValues(block);
        if (repaired.lines.length === 0) throw error;
        let data: unknown;
        try {
          data = loadYamlSafely(repaired.text);
        } catch {
          throw error; // report the original problem, at its original place
        }
        warnings.push(`frontmatter line ${repaired.lines.join(", ")}: a value containing ": " was read as text (quote it to make the YAML valid)`);
        return data as object;
      }
    },
  };
}

/** Fresh options on every call: gray-matter only caches option-less calls. */
function matterOptions(warnings: string[]) {
  return {
    excerpt: false,
    language: 'yaml',
    engines: {
      yaml: yamlEngine(warnings),
      json: { parse: (s: string): object => JSON.parse(s) as object },
      js: refuse('js'),
      javascript: refuse('javascript'),
      coffee: refuse('coffee'),
      coffeescript: refuse('coffeescript'),
      cson: refuse('cson'),
    },
  };
}

function yamlErrorMessage(error: unknown): string {
  const e = error as { name?: unknown; reason?: unknown; mark?: YamlMark; message?: unknown };
  if (typeof e.reason === 'string' && e.mark !== undefined && typeof e.mark.line === 'number') {
    // The block handed to js-yaml starts with the rest of the opening `---` line, so its
    // line numbers are the file's line numbers.
    return `YAML error in frontmatter: ${e.reason} at line ${e.mark.line + 1}, column ${e.mark.column + 1}`;
  }
  if (error instanceof SyntaxError) return `JSON error in frontmatter: ${error.message}`;
  const first = typeof e.message === 'string' ? e.message.split('\n')[0] : String(error);
  return `frontmatter error: ${first}`;
}

// ---------------------------------------------------------------------------
// Bytes → text

/** Offset of the first byte that is not valid UTF-8, or -1. Used only to explain a failure. */
function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i] ?? 0;
    let need: number;
    let min: number;
    if (b < 0x80) {
      i += 1;
      continue;
    } else if (b >= 0xc2 && b <= 0xdf) {
      need = 1;
      min = 0x80;
    } else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      min = 0x800;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      min = 0x10000;
    } else return i;
    let cp = b & (0x3f >> need);
    for (let k = 1; k <= need; k += 1) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return -1;
}

type Decoded = { ok: true; text: string } | { ok: false; reason: 'binary' | 'not-utf8'; message: string };

function decode(raw: Uint8Array): Decoded {
  if ((raw[0] === 0xff && raw[1] === 0xfe) || (raw[0] === 0xfe && raw[1] === 0xff)) {
    return { ok: false, reason: 'not-utf8', message: 'the file is UTF-16 text; convert it to UTF-8' };
  }
  const nul = raw.indexOf(0);
  if (nul !== -1) {
    return { ok: false, reason: 'binary', message: `the file contains a NUL byte at offset ${nul}: it looks binary, not markdown` };
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(raw);
  } catch {
    const at = firstInvalidUtf8(raw);
    return { ok: false, reason: 'not-utf8', message: `the file is not valid UTF-8 (first bad byte at offset ${at < 0 ? '?' : at}); convert it to UTF-8` };
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  return { ok: true, text: text.replace(/\r\n?/g, '\n') };
}

// ---------------------------------------------------------------------------
// Safe copy of parsed data

const RESERVED_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
/** Values one top-level key may expand to (YAML aliases can turn a few lines into millions). */
const MAX_NODES_PER_KEY = 10_000;
/** Values all keys together may expand to; scalar top-level values are always kept. */
const MAX_NODES_TOTAL = 100_000;
const MAX_DEPTH = 32;

interface CopyState {
  nodes: number;
  limit: number;
  tooLarge: boolean;
  warnings: string[];
  stack: Set<object>;
}

/**
 * A JSON-like copy (Dates kept) in null-prototype objects, without reserved keys.
 * Undefined means "leave out"; `st.tooLarge` is set when the value exceeds `st.limit`.
 */
function safeCopy(value: unknown, path: string, depth: number, st: CopyState): unknown {
  st.nodes += 1;
  if (st.nodes > st.limit) {
    st.tooLarge = true;
    return undefined;
  }
  if (value === null || typeof value === 'string' || typeof value === 'boolean' || typeof value === 'number') return value;
  if (value instanceof Date) return new Date(value.getTime());
  if (value instanceof Uint8Array) {
    st.warnings.push(`${path}: binary value left out`);
    return undefined;
  }
  if (typeof value !== 'object') return undefined;
  if (depth >= MAX_DEPTH || st.stack.has(value)) {
    st.warnings.push(`${path}: nested too deeply (or refers to itself); left out`);
    return undefined;
  }
  st.stack.add(value);
  try {
    if (Array.isArray(value)) {
      const out: unknown[] = [];
      for (let i = 0; i < value.length && !st.tooLarge; i += 1) {
        const v = safeCopy(value[i], `${path}[${i}]`, depth + 1, st);
        if (v !== undefined) out.push(v);
      }
      return out;
    }
    const out = Object.create(null) as Record<string, unknown>;
    for (const key of Object.keys(value)) {
      if (st.tooLarge) break;
      const keyPath = path === '' ? key : `${path}.${key}`;
      if (RESERVED_KEYS.has(key)) {
        st.warnings.push(`${keyPath}: reserved key name ignored`);
        continue;
      }
      const v = safeCopy((value as Record<string, unknown>)[key], keyPath, depth + 1, st);
      if (v !== undefined) out[key] = v;
    }
    return out;
  } finally {
    st.stack.delete(value);
  }
}

/** Copies the top-level mapping key by key, so one oversized value costs only itself. */
function copyFields(data: Record<string, unknown>, warnings: string[]): Record<string, unknown> {
  const fields = Object.create(null) as Record<string, unknown>;
  let total = 0;
  for (const key of Object.keys(data)) {
    if (RESERVED_KEYS.has(key)) {
      warnings.push(`${key}: reserved key name ignored`);
      continue;
    }
    const value = data[key];
    const isScalar = value === null || typeof value !== 'object' || value instanceof Date;
    const limit = isScalar ? 1 : Math.min(MAX_NODES_PER_KEY, MAX_NODES_TOTAL - total);
    const st: CopyState = { nodes: 0, limit, tooLarge: false, warnings: [], stack: new Set() };
    const copied = limit > 0 ? safeCopy(value, key, 1, st) : undefined;
    total += st.nodes;
    if (limit <= 0 || st.tooLarge) {
      warnings.push(`${key}: value is too large (over ${MAX_NODES_PER_KEY} items, or the frontmatter over ${MAX_NODES_TOTAL}); left out`);
      continue;
    }
    warnings.push(...st.warnings);
    if (copied !== undefined) fields[key] = copied;
  }
  return fields;
}

/** Extra values are handed on as JSON-friendly data: dates become text. */
function toPlain(value: unknown): unknown {
  if (value instanceof Date) return scalarText(value);
  if (Array.isArray(value)) return value.map(toPlain);
  if (value !== null && typeof value === 'object') {
    const out = Object.create(null) as Record<string, unknown>;
    for (const [k, v] of Object.entries(value)) out[k] = toPlain(v);
    return out;
  }
  return value;
}

function isMapping(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Date);
}

// ---------------------------------------------------------------------------
// Title

function oneLine(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

const TITLE_LINE = /^[ \t]*\*\*Title:?\*\*:?[ \t]*(.+?)[ \t]*$/i;
const HEADING = /^[ \t]{0,3}#{1,6}[ \t]+(.+?)(?:[ \t]+#+)?[ \t]*$/;
const FENCE = /^[ \t]{0,3}(`{3,}|~{3,})/;

/** `**Title:** …` line first (PAI work files), else the first ATX heading outside code fences. */
function titleFromBody(body: string): string | undefined {
  let heading: string | undefined;
  let fence: string | undefined;
  let start = 0;
  while (start <= body.length) {
    let end = body.indexOf('\n', start);
    if (end === -1) end = body.length;
    const line = body.slice(start, end);
    start = end + 1;
    const f = FENCE.exec(line);
    if (f?.[1] !== undefined) {
      if (fence === undefined) fence = f[1][0];
      else if (f[1][0] === fence) fence = undefined;
      continue;
    }
    if (fence !== undefined) continue;
    const t = TITLE_LINE.exec(line);
    if (t?.[1] !== undefined && oneLine(t[1]) !== '') return oneLine(t[1]);
    if (heading === undefined) {
      const h = HEADING.exec(line);
      if (h?.[1] !== undefined && oneLine(h[1]) !== '') heading = oneLine(h[1]);
    }
    if (end === body.length) break;
  }
  return heading;
}

function humanizeSlug(slug: string): string {
  const words = slug.replace(/[-_]+/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function titleFromPath(relPath: string): string {
  const base = basename(relPath.replace(/\\/g, '/'));
  const stem = base.includes('.') && !base.startsWith('.') ? base.slice(0, base.lastIndexOf('.')) : base;
  return oneLine(stem.replace(/[_-]+/g, ' ')) || base || 'Untitled memory';
}

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
