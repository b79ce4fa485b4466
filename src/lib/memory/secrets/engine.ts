/**
 * The redaction engine: runs the rule tables in order and counts redactions by kind.
 *
 * Why it is shaped like this:
 * - Each rule owns one secret family and lives in one table (vendor.ts, structured.ts,
 *   command-line.ts, assignment.ts); this file knows no formats.
 * - A rule runs only when the lower-cased text contains one of its `hints`, a plain
 *   substring search, so a note pays for the few families it could contain instead of
 *   every regular expression (this is where the throughput comes from).
 * - Linear time, unbounded length: rules match a literal anchor followed by greedy runs
 *   with nothing after them that can fail, and leave validation to code. A value of any
 *   length is replaced whole, so no tail escapes.
 * - Later rules see earlier replacements: `[REDACTED:…]` is never a secret (values.ts).
 */

export interface RedactResult {
  text: string;
  /** Number of redactions per kind, e.g. `{ 'github-token': 2 }`; never a value. */
  counts: Record<string, number>;
  total: number;
}

/** Returns the replacement, or undefined to keep the match (not a secret after all). */
export type Replacer = (match: string, groups: readonly (string | undefined)[]) => string | undefined;

export interface RegexRule {
  kind: string;
  /**
   * Substrings; the rule runs only when the text contains one. A hint in lower case is looked up
   * case-insensitively, one with capitals exactly (`AKIA`, `eyJ`: prefixes whose case is fixed).
   */
  hints: readonly string[];
  re: RegExp;
  /** Default: the whole match becomes `[REDACTED:kind]`. */
  replace?: Replacer;
}

export interface ScanRule {
  kind: string;
  hints: readonly string[];
  /** Rewrites the text in one linear pass; must only insert `tag()`s, never reorder text. */
  scan: (text: string) => string;
}

export type Rule = RegexRule | ScanRule;

export const tag = (kind: string): string => `[REDACTED:${kind}]`;

const TAG = /\[REDACTED:([a-z0-9-]+)\]/g;

function countTags(text: string, into: Map<string, number>, sign: 1 | -1): void {
  if (!text.includes('[REDACTED:')) return;
  for (const m of text.matchAll(TAG)) {
    const kind = m[1] as string;
    into.set(kind, (into.get(kind) ?? 0) + sign);
  }
}

function applyRegex(rule: RegexRule, text: string, counts: Map<string, number>): string {
  rule.re.lastIndex = 0;
  return text.replace(rule.re, (...args: unknown[]) => {
    const match = args[0] as string;
    // Arguments after the match: capture groups, then offset (number), string, [named groups].
    const groups: (string | undefined)[] = [];
    for (let i = 1; i < args.length && typeof args[i] !== 'number'; i += 1) groups.push(args[i] as string | undefined);
    const replacement = rule.replace ? rule.replace(match, groups) : tag(rule.kind);
    if (replacement === undefined || replacement === match) return match;
    countTags(replacement, counts, 1);
    countTags(match, counts, -1);
    return replacement;
  });
}

function applyScan(rule: ScanRule, text: string, counts: Map<string, number>): string {
  const out = rule.scan(text);
  if (out !== text) {
    countTags(out, counts, 1);
    countTags(text, counts, -1);
  }
  return out;
}

/** Runs `rules` in order over `text`. */
export function runRules(rules: readonly Rule[], text: string): RedactResult {
  const counts = new Map<string, number>();
  let out = text;
  // Hints are looked up in the original text: a replacement only removes text and adds tags, and
  // a tag is never a secret, so a hint missing here is missing from every later version too.
  const lower = text.toLowerCase();
  for (const rule of rules) {
    if (!rule.hints.some((h) => (h === h.toLowerCase() ? lower : text).includes(h))) continue;
    out = 'scan' in rule ? applyScan(rule, out, counts) : applyRegex(rule, out, counts);
  }
  const result: Record<string, number> = {};
  let total = 0;
  for (const [kind, n] of counts) {
    if (n <= 0) continue;
    result[kind] = n;
    total += n;
  }
  return { text: out, counts: result, total };
}
