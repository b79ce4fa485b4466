/**
 * Group ids and search text made safe for the configured Graphiti database.
 *
 * Why this exists (graphiti-core and its MCP server; docs/troubleshooting.md):
 * - graphiti-core validates group ids against ^[a-zA-Z0-9_-]+$, but the MCP server
 *   answers "queued" first and fails in the background, so a bad id loses data silently.
 * - On FalkorDB the group id also lands in a RediSearch TEXT filter, where a hyphen
 *   breaks most graphiti-core versions and the lone default `_` fails too. The only
 *   id shape that works everywhere is ^[A-Za-z0-9_]+$ with at least one alphanumeric.
 * - FalkorDB fulltext queries are sanitised by graphiti (punctuation → spaces); we do
 *   the same on our side so the query we log is the query that runs, and we cap the
 *   number of words because graphiti silently empties the fulltext part of a query
 *   that is too long (see maxSearchWords; madeinoz-system.md "Graphiti search limits").
 */
import type { DbKind } from '../config/config.js';
import { sha256Hex } from '../util/ids.js';

/** Maximum group id length we accept (the config loader applies the same limit). */
export const MAX_GROUP_ID_LENGTH = 128;
/** Longest group id `projectGroupId` produces. */
export const MAX_PROJECT_GROUP_LENGTH = 64;
/** graphiti-core's `max_query_length` for fulltext queries (both drivers). */
export const GRAPHITI_MAX_QUERY_LENGTH = 128;

const NEO4J_GROUP = /^[A-Za-z0-9_-]+$/;

export class GroupIdError extends Error {
  constructor(
    message: string,
    /** The id as given. */
    readonly groupId: string,
    readonly db: DbKind,
  ) {
    super(message);
    this.name = 'GroupIdError';
  }
}

/** Shows a character unambiguously in an error message (spaces, tabs and controls are invisible). */
function showChar(ch: string): string {
  if (ch === ' ') return 'space';
  if (ch === '\t') return 'tab';
  if (ch === '\n') return 'newline';
  if (ch === '\r') return 'carriage return';
  const cp = ch.codePointAt(0) ?? 0;
  if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) return `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
  return `"${ch}"`;
}

function showId(id: string): string {
  return JSON.stringify(id.length > 80 ? `${id.slice(0, 80)}…` : id);
}

/**
 * Returns the group id to use with `db`, or throws GroupIdError.
 *
 * falkordb: every character outside [A-Za-z0-9_] (hyphens, dots, spaces, non-ASCII —
 * one `_` per code point) becomes `_`; an id with no letter or digit left (empty, `_`,
 * `___`) is refused because RediSearch rejects it.
 * neo4j: the id must already match ^[A-Za-z0-9_-]+$; it is validated, never rewritten,
 * so the user's configured id is exactly the id stored in the graph.
 *
 * Surrounding whitespace is ignored in both modes (it is never meaningful in a setting).
 */
export function normalizeGroupId(db: DbKind, id: string): string {
  const trimmed = id.trim();
  if (trimmed === '') {
    throw new GroupIdError(`Group id ${showId(id)} is not allowed: it is empty; use letters, digits and underscores${db === 'neo4j' ? ' or hyphens' : ''}`, id, db);
  }
  if (db === 'falkordb') {
    const normalized = trimmed.replace(/[^A-Za-z0-9_]/gu, '_');
    if (!/[A-Za-z0-9]/.test(normalized)) {
      throw new GroupIdError(
        `Group id ${showId(id)} is not allowed with FalkorDB: after replacing characters outside [A-Za-z0-9_] it becomes "${normalized}", which has no letter or digit (RediSearch rejects ids like "_"); use e.g. "main"`,
        id,
        db,
      );
    }
    if (normalized.length > MAX_GROUP_ID_LENGTH) {
      throw new GroupIdError(`Group id ${showId(id)} is not allowed: at most ${MAX_GROUP_ID_LENGTH} characters`, id, db);
    }
    return normalized;
  }
  if (!NEO4J_GROUP.test(trimmed)) {
    const bad = [...new Set(Array.from(trimmed).filter((ch) => !/^[A-Za-z0-9_-]$/.test(ch)))];
    throw new GroupIdError(
      `Group id ${showId(id)} is not allowed: it contains ${bad.map(showChar).join(', ')}; graphiti accepts only ^[A-Za-z0-9_-]+$ (letters, digits, "_" and "-")`,
      id,
      db,
    );
  }
  if (trimmed.length > MAX_GROUP_ID_LENGTH) {
    throw new GroupIdError(`Group id ${showId(id)} is not allowed: at most ${MAX_GROUP_ID_LENGTH} characters`, id, db);
  }
  return trimmed;
}

function shortHash(text: string): string {
  return sha256Hex(text).slice(0, 8);
}

/**
 * Derives a safe, stable group id from a project name (e.g. a Claude Code project
 * folder such as `-home-me-My.Repo`): accents folded (é → e), lowercased, every run
 * of other characters becomes one separator (`_` for falkordb, `-` for neo4j),
 * separators trimmed at both ends. Names longer than 64 characters keep a prefix plus
 * a hash of the full name, so two long names never collide by truncation. A name with
 * nothing usable left (e.g. only CJK or punctuation) becomes `project<sep><hash>`.
 * The result always passes normalizeGroupId for the same db.
 */
export function projectGroupId(db: DbKind, projectName: string): string {
  const sep = db === 'falkordb' ? '_' : '-';
  const folded = projectName.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase();
  // `_` is kept as a word character for both dbs; hyphens are kept only for neo4j.
  const keep = db === 'falkordb' ? /[^a-z0-9_]+/g : /[^a-z0-9_-]+/g;
  let slug = folded.replace(keep, sep);
  slug = slug.replace(db === 'falkordb' ? /_+/g : /[-_]*-[-_]*/g, sep).replace(/^[-_]+|[-_]+$/g, '');
  if (!/[a-z0-9]/.test(slug)) return `project${sep}${shortHash(projectName)}`;
  if (slug.length > MAX_PROJECT_GROUP_LENGTH) {
    const prefix = slug.slice(0, MAX_PROJECT_GROUP_LENGTH - 9).replace(/[-_]+$/, '');
    slug = `${prefix}${sep}${shortHash(projectName)}`;
  }
  return slug;
}

/**
 * The most words a search text may have so that graphiti-core still runs its fulltext
 * part for `groupCount` groups (it silently returns '' past the limit):
 * - FalkorDB joins the words as `w1 | w2 | …` and refuses when
 *   `len(joined.split(' ')) + len(group_ids) >= 128`, i.e. 2·words − 1 + groups ≥ 128:
 *   63 words with one group. (Stopwords are dropped before that count; we count them
 *   anyway, which is safe.)
 * - Neo4j refuses when `len(query.split(' ')) + len(group_ids) >= 128`: 126 words with one group.
 * This is the one owner of that rule: every search text goes through escapeSearchQuery.
 */
export function maxSearchWords(db: DbKind, groupCount: number): number {
  const groups = Math.max(0, Math.floor(groupCount));
  const words = db === 'falkordb' ? Math.floor((GRAPHITI_MAX_QUERY_LENGTH - groups) / 2) : GRAPHITI_MAX_QUERY_LENGTH - 1 - groups;
  return Math.max(1, words);
}

/** Keeps the first `max` words of a text whose whitespace is already single spaces. */
function capWords(text: string, max: number): string {
  if (text === '') return text;
  const words = text.split(' ');
  return words.length <= max ? text : words.slice(0, max).join(' ');
}

/**
 * FalkorDB (graphiti `sanitize_falkor_fulltext_query`) turns these into spaces. That is
 * every printable ASCII punctuation character except `_`.
 */
const FALKOR_SPECIAL = /[,.<>{}[\]"':;!@#$%^&*()\-+=~?|/\\`]/g;
// C0/C1 controls and Unicode line/paragraph separators are never useful in a query.
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

/**
 * Makes free text safe to send as a Graphiti search query over `groupCount` groups.
 *
 * falkordb: punctuation that RediSearch treats as syntax becomes a space (the same set
 * graphiti's sanitizer uses).
 * neo4j: graphiti escapes Lucene syntax itself (lucene_sanitize), so every character is
 * kept as written.
 * Both: whitespace runs become one space (graphiti counts words by splitting on single
 * spaces, and Lucene and RediSearch both treat any whitespace as a separator), and the
 * text is cut to maxSearchWords(db, groupCount) words.
 * The result may be empty (e.g. a query of only punctuation): callers skip the search.
 */
export function escapeSearchQuery(db: DbKind, text: string, groupCount = 1): string {
  const cleaned = db === 'falkordb' ? text.replace(CONTROLS, ' ').replace(FALKOR_SPECIAL, ' ') : text;
  return capWords(cleaned.replace(/\s+/gu, ' ').trim(), maxSearchWords(db, groupCount));
}
