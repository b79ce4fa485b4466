/**
 * Tokens of vendors we have no row for, by the shape most vendors now document for theirs: a short
 * lower-case product prefix, `_` or `-`, then a long random run of letters and digits (GitHub's
 * `ghp_…`, Stripe's `sk_live_…`, Sourcegraph's `sgp_…`, Linear's `lin_api_…`, Doppler, PlanetScale,
 * Pulumi, npm… all document this form so that scanners and people can tell a token at a glance).
 * vendor.ts and vendor-documented.ts hold the prefixes we know, with their exact lengths; this rule
 * is the class behind them, for prefixes nobody listed, and so it asks the run itself to look
 * generated:
 * - 30+ characters of `[A-Za-z0-9]` after a prefix of at most three short parts, each in one case;
 * - upper case, lower case and digits, switching often (random base62 changes class at about six
 *   characters in ten; identifiers in camelCase, words and numbers change far less often);
 * - Shannon entropy of random text (>= 4.2 bits a character, 4.4 from 40 characters);
 * - or a hex body (see looksGeneratedHex) under a prefix that does not name an id or a digest;
 * - not a digest named by its algorithm (`sha512-…`), not glued to a base64 run (`+`, `/` or a
 *   `=` pad around it) nor inside a longer word, and not
 *   elided (`ops_eyJzaWdu…`: a document's example).
 */
import { entropy } from './context.js';
import { tag, type ScanRule } from './engine.js';
import { isDummy } from './values.js';

/** How often consecutive characters change class (upper, lower, digit): about 0.6 for random base62. */
function classSwitches(v: string): number {
  const cls = (c: string): number => (c >= 'a' && c <= 'z' ? 0 : c >= 'A' && c <= 'Z' ? 1 : 2);
  let n = 0;
  for (let i = 1; i < v.length; i += 1) if (cls(v[i] as string) !== cls(v[i - 1] as string)) n += 1;
  return n / (v.length - 1);
}

export function looksGenerated(body: string): boolean {
  if (body.length < 30 || !/[a-z]/.test(body) || !/[A-Z]/.test(body) || !/\d/.test(body)) return false;
  if (classSwitches(body) < 0.4) return false;
  return entropy(body) >= (body.length >= 40 ? 4.4 : 4.2);
}

/**
 * Hex bodies: many vendors document `<prefix>_<hex>` (RubyGems `rubygems_` + 48, Shippo
 * `shippo_live_` + 40, Clojars, Buildkite…). Hex is also what ids and digests look like, so a hex
 * body counts only when 32+ long, letters and digits mixed, with the entropy of random hex, and
 * its prefix does not name an id or a digest (`commit_…`, `build-…`, `trace_…`, `cache-…`).
 */
const ID_PREFIX = /(?:^|[_-])(?:commit|build|rev|revision|hash|digest|checksum|sum|id|uuid|guid|object|obj|blob|tree|etag|cache|file|image|img|layer|release|version|ver|ref|run|job|trace|span|request|req|correlation|event|msg|message|chunk|asset|bundle|node|block|tx|txn|address|addr)[_-]$/i;

function looksGeneratedHex(body: string, prefix: string): boolean {
  if (body.length < 32 || !/^(?:[0-9a-f]+|[0-9A-F]+)$/.test(body) || !/\d/.test(body) || !/[a-fA-F]/.test(body)) return false;
  if (ID_PREFIX.test(prefix)) return false;
  return entropy(body.toLowerCase()) >= 3.5;
}

/**
 * Where a token can be: a separator and 30 characters of a body. Looked for first because it is
 * cheap (it starts at a `_` or `-`, not at every word); the prefix is then read backwards within a
 * bounded window and the body forwards, so each candidate costs its own length.
 */
const CANDIDATE = /[_-][A-Za-z0-9]{30}/g;
/** The longest prefix: 3 parts of at most 10 characters and a separator each. */
const PREFIX_MAX = 33;
/**
 * The prefix (parts in lower or upper case: `sgp_`, `CLOJARS_`, `FLWSECK-`) ending at the window's end, not
 * glued to a word or a base64 run before it (longest first). The first part has two characters or more; a
 * later one may be a single letter, as vendors mark a token's type (`fio-u-`: Frame.io's user tokens).
 */
const PREFIX = /(?:^|[^A-Za-z0-9_+/.~-])((?:[a-z][a-z0-9]{1,9}[_-]|[A-Z][A-Z0-9]{1,9}[_-])(?:[a-z][a-z0-9]{0,9}[_-]|[A-Z][A-Z0-9]{0,9}[_-]){0,2})$/;
/** The body, and what follows it: `+`, `/` or `=` (a base64 run) or `...`/`…` (an elided example). */
const BODY = /([A-Za-z0-9]+)([+/=]|\.{2,}|…)?/y;

/** A digest named by its algorithm (`sha512-…` in lock files' integrity fields) is public. */
const HASH_PREFIX = /^(?:sha\d*|md5|blake\d*\w*|sha3)[_-]/i;

export const PREFIXED_TOKEN: ScanRule = {
  kind: 'prefixed-token',
  hints: ['_', '-'],
  scan: (text) => {
    let out = '';
    let cursor = 0;
    CANDIDATE.lastIndex = 0;
    for (let c = CANDIDATE.exec(text); c !== null; c = CANDIDATE.exec(text)) {
      const bodyStart = c.index + 1;
      // One character more than the longest prefix, so a match at the window's start is a boundary.
      const from = Math.max(cursor, bodyStart - PREFIX_MAX - 1);
      const prefix = PREFIX.exec(text.slice(from, bodyStart))?.[1];
      if (prefix === undefined) continue;
      BODY.lastIndex = bodyStart;
      const b = BODY.exec(text) as RegExpExecArray;
      const body = b[1] as string;
      CANDIDATE.lastIndex = bodyStart + body.length;
      if (b[2] !== undefined || HASH_PREFIX.test(prefix) || isDummy(body) || !(looksGenerated(body) || looksGeneratedHex(body, prefix))) continue;
      out += text.slice(cursor, bodyStart) + tag('prefixed-token');
      cursor = bodyStart + body.length;
    }
    return cursor === 0 ? text : out + text.slice(cursor);
  },
};
