/**
 * Tokens of vendors we have no row for, by the shape most vendors now document for theirs: a short
 * lower-case product prefix, `_` or `-`, then a long random run of letters and digits (GitHub's
 * `ghp_…`, Stripe's `sk_live_…`, Sourcegraph's `sgp_…`, Linear's `lin_api_…`, Doppler, PlanetScale,
 * Pulumi, npm… all document this form so that scanners and people can tell a token at a glance).
 * vendor.ts and vendor-documented.ts hold the prefixes we know, with their exact lengths; this rule
 * is the class behind them, for prefixes nobody listed, and so it asks the run itself to look
 * generated:
 * - 30+ characters of `[A-Za-z0-9]` after a prefix of at most three short lower-case parts;
 * - upper case, lower case and digits, switching often (random base62 changes class at about six
 *   characters in ten; identifiers in camelCase, words and numbers change far less often);
 * - Shannon entropy of random text (>= 4.2 bits a character, 4.4 from 40 characters);
 * - not a digest named by its algorithm (`sha512-…`), not glued to a base64 run (`+`, `/` or a
 *   `=` pad around it) nor inside a longer word, and not
 *   elided (`ops_eyJzaWdu…`: a document's example).
 */
import { entropy } from './context.js';
import { tag, type RegexRule } from './engine.js';
import { isDummy, isRedacted } from './values.js';

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

// The prefix is bounded (at most 3 parts of at most 10 characters), so the work at each word start
// is bounded too; the body is one greedy run followed only by an optional capture.
// The capture after the body holds `+`, `/` or `=` (a base64 run) or `...`/`…` (an elided example in a document).
const PREFIXED = /(?<![A-Za-z0-9_+/.~-])((?:[a-z][a-z0-9]{1,9}[_-]){1,3})([A-Za-z0-9]+)([+/=]|\.{2,}|…)?/g;

/** A digest named by its algorithm (`sha512-…` in lock files' integrity fields) is public. */
const HASH_PREFIX = /^(?:sha\d*|md5|blake\d*\w*|sha3)[_-]/i;

export const PREFIXED_TOKEN: RegexRule = {
  kind: 'prefixed-token',
  hints: ['_', '-'],
  re: PREFIXED,
  replace: (m, g) => {
    const body = g[1] ?? '';
    if (g[2] !== undefined || HASH_PREFIX.test(g[0] ?? '') || isRedacted(m) || isDummy(body) || !looksGenerated(body)) return undefined;
    return `${g[0]}${tag('prefixed-token')}`;
  },
};
