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
import { buildHintAutomaton, isFoldHazard, type HintAutomaton } from './hint-automaton.js';

export interface RedactResult {
  text: string;
  /** Number of redactions per kind, e.g. `{ 'github-token': 2 }`; never a value. */
  counts: Record<string, number>;
  total: number;
}

/**
 * Returns the replacement, or undefined to keep the match (not a secret after all). `offset` and
 * `text` say where the match is, for the few rules that judge the words before it.
 */
export type Replacer = (match: string, groups: readonly (string | undefined)[], offset: number, text: string) => string | undefined;

export interface RegexRule {
  kind: string;
  /**
   * Substrings; the rule runs only when the text contains one. A hint in lower case is looked up
   * case-insensitively, one with capitals exactly (`AKIA`, `eyJ`: prefixes whose case is fixed).
   */
  hints: readonly string[];
  re: RegExp;
  /** Strings one of which every match holds (RULE_NEEDS, below). */
  needs?: readonly string[];
  /** Default: the whole match becomes `[REDACTED:kind]`. */
  replace?: Replacer;
}

export interface ScanRule {
  kind: string;
  hints: readonly string[];
  /**
   * RULE_NEEDS: strings one of which every text the rule changes holds (`:` or `=` for a key and its
   * separator), looked up in the text as the rule is given it (after the earlier rules' tags), so a
   * rule skipped for want of them could not have changed it. Optional; the reference path
   * (runRulesEachHint) ignores it, and the dispatch test compares the two.
   */
  needs?: readonly string[];
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

/** What one match becomes: its replacement, counted, or the match itself (kept: not a secret after all). */
function replaceMatch(rule: RegexRule, match: string, groups: readonly (string | undefined)[], offset: number, text: string, counts: Map<string, number>): string {
  const replacement = rule.replace ? rule.replace(match, groups, offset, text) : tag(rule.kind);
  if (replacement === undefined || replacement === match) return match;
  countTags(replacement, counts, 1);
  countTags(match, counts, -1);
  return replacement;
}

function applyRegex(rule: RegexRule, text: string, counts: Map<string, number>, shortcuts: boolean): string {
  const re = rule.re;
  re.lastIndex = 0;
  if (!shortcuts || !re.global || re.sticky) {
    return text.replace(re, (...args: unknown[]) => {
      // Arguments after the match: capture groups, then offset (number), string, [named groups].
      const groups: (string | undefined)[] = [];
      let i = 1;
      for (; i < args.length && typeof args[i] !== 'number'; i += 1) groups.push(args[i] as string | undefined);
      return replaceMatch(rule, args[0] as string, groups, args[i] as number, args[i + 1] as string, counts);
    });
  }
  // EXEC_LOOP: what `replace` with a function does for a global regexp (ECMA-262 RegExp.prototype[@@replace]),
  // written out: every match found first (`exec` from 0; past an empty match by one character, or one code
  // point under `u`/`v`), then each replaced in order, given the same match, groups, offset and text. Most rules
  // a note's hints let run find nothing in it (prose names `password` far more often than it gives one): the
  // text comes back after one `exec`, without a call into the runtime, a closure and its arguments per rule.
  let m = re.exec(text);
  if (m === null) return text;
  const matches: RegExpExecArray[] = [];
  const unicode = re.unicode || re.flags.includes('v');
  while (m !== null) {
    matches.push(m);
    if (m[0] === '') re.lastIndex = re.lastIndex + (unicode && (text.codePointAt(re.lastIndex) ?? 0) > 0xffff ? 2 : 1);
    m = re.exec(text);
  }
  let out = '';
  let cursor = 0;
  for (const found of matches) {
    out += text.slice(cursor, found.index) + replaceMatch(rule, found[0], found.slice(1), found.index, text, counts);
    cursor = found.index + found[0].length;
  }
  return out + text.slice(cursor);
}

function applyScan(rule: ScanRule, text: string, counts: Map<string, number>): string {
  const out = rule.scan(text);
  if (out !== text) {
    countTags(out, counts, 1);
    countTags(text, counts, -1);
  }
  return out;
}

/**
 * Which hints a text contains, found in one pass instead of one substring search per hint (which
 * cost most of the time on prose). The usual way: two automata (hint-automaton.ts), one for the
 * lower-case hints read case-insensitively and one for the hints with capitals read as written,
 * walk the text together once; each state reports the rules of every hint ending there.
 * Hints of one character (`:`, `.`, `-`, `|`…) are not in the automata (prose holds them every few
 * words, and every state would report them): the walk reads them by a table of character codes
 * (ONE_CHAR_IN_WALK), which cost less on short notes than a native search per character.
 * The slow way, for a text holding a character whose lower case reads differently (U+212A, U+0130):
 * the lower-cased copy, scanned by one global alternation of the lower-case hints, longest first,
 * restarted one character after each match (it reports at each position the longest hint starting
 * there; hints inside a found one are implied, `sk-` by `sk-ant-`, `key` by `api_key`: each hint
 * maps to the rules of every hint it contains, within its case), and the text as written by one of
 * the others.
 */
interface HintIndex {
  lower: RegExp | undefined;
  exact: RegExp | undefined;
  /** Lower-case hints of one character, each looked up on its own (the slow way). */
  chars: readonly string[];
  /**
   * ONE_CHAR_IN_WALK: the usual way, the ASCII ones are read in the automata's walk, which reads every
   * character anyway: by character code, 1 + the index of its rules in `charRules` (0: no hint), `A`–`Z`
   * as `a`–`z`; each reported once per text (`charSeen`, stamped as the states are). Those outside ASCII
   * (`→`, `—`) are looked up with `includes` (`wideChars`).
   */
  charSlot: Int32Array;
  charRules: readonly (readonly number[])[];
  charSeen: Int32Array;
  wideChars: readonly string[];
  /** For each hint, the indexes of the rules it (or a hint it contains) makes run. */
  rulesOf: Map<string, readonly number[]>;
  /** The hints of more than one character as automata (hint-automaton.ts): the usual way, one pass over the text as written. */
  lowerAutomaton: HintAutomaton;
  exactAutomaton: HintAutomaton;
  /** Every character of a lower-case hint, and which characters outside ASCII were found to break reading unlowered. */
  lowerChars: ReadonlySet<string>;
  hazards: Map<number, boolean>;
  /** Per automaton state, the number of the last call that reached it (walkAutomata), and the call counter. */
  lowerSeen: Int32Array;
  exactSeen: Int32Array;
  calls: number;
  /**
   * RULE_FLAGS_REUSED: the flags of the last text, cleared, for the next (allocating a typed array per
   * note cost more than the hint scan of a short note). Taken while in use, so a call inside a rule
   * would allocate its own.
   */
  spare: Int32Array | undefined;
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function hintIndex(rules: readonly Rule[]): HintIndex {
  const hints = [...new Set(rules.flatMap((r) => r.hints))];
  const rulesOf = new Map<string, readonly number[]>();
  for (const h of hints) {
    const lower = h === h.toLowerCase();
    const contained = hints.filter((o) => (o === o.toLowerCase()) === lower && h.includes(o));
    rulesOf.set(h, rules.flatMap((r, i) => (r.hints.some((o) => contained.includes(o)) ? [i] : [])));
  }
  const build = (list: string[]): RegExp | undefined =>
    list.length === 0 ? undefined : new RegExp(`(${list.sort((a, b) => b.length - a.length).map(escape).join('|')})`, 'g');
  const lower = hints.filter((h) => h === h.toLowerCase());
  const exact = hints.filter((h) => h !== h.toLowerCase());
  const reportOf = (h: string): readonly number[] => rulesOf.get(h) ?? [];
  const lowerAutomaton = buildHintAutomaton(lower.filter((h) => h.length > 1), true, reportOf);
  const exactAutomaton = buildHintAutomaton(exact, false, reportOf);
  const chars = lower.filter((h) => h.length === 1);
  const asciiChars = chars.filter((c) => c.charCodeAt(0) < 128);
  const charSlot = new Int32Array(128);
  asciiChars.forEach((c, k) => {
    charSlot[c.charCodeAt(0)] = k + 1;
    if (c >= 'a' && c <= 'z') charSlot[c.toUpperCase().charCodeAt(0)] = k + 1;
  });
  return {
    lower: build(lower.filter((h) => h.length > 1)),
    exact: build([...exact]),
    chars,
    charSlot,
    charRules: asciiChars.map(reportOf),
    charSeen: new Int32Array(asciiChars.length + 1),
    wideChars: chars.filter((c) => c.charCodeAt(0) >= 128),
    rulesOf,
    lowerAutomaton,
    exactAutomaton,
    lowerChars: new Set(lower.flatMap((h) => [...h])),
    hazards: new Map(),
    lowerSeen: new Int32Array(lowerAutomaton.out.length),
    exactSeen: new Int32Array(exactAutomaton.out.length),
    calls: 0,
    spare: undefined,
  };
}

/**
 * RULE_BITS: which rules run is a bit per rule, 32 to a word, so the rules of a text are found by
 * its set bits (a few) rather than by a look at each of the ~200 rules' flags.
 */
function setFlag(flags: Int32Array, rule: number): void {
  flags[rule >> 5] = (flags[rule >> 5] as number) | (1 << (rule & 31));
}

/** The flags of a text, all clear: the spare ones if free (RULE_FLAGS_REUSED). */
function takeFlags(index: HintIndex, count: number): Int32Array {
  const spare = index.spare;
  if (spare === undefined) return new Int32Array((count + 31) >> 5);
  index.spare = undefined;
  return spare;
}

/** Sets the flags of the rules `hint` makes run (taking them at the first hint found). */
function mark(index: HintIndex, run: Int32Array | undefined, count: number, hint: string): Int32Array {
  const flags = run ?? takeFlags(index, count);
  const rules = index.rulesOf.get(hint);
  if (rules !== undefined) for (let k = 0; k < rules.length; k += 1) setFlag(flags, rules[k] as number);
  return flags;
}

/** Marks the rules of every hint the alternation `re` finds in `s`. */
function scanHints(index: HintIndex, re: RegExp | undefined, s: string, run: Int32Array | undefined, count: number): Int32Array | undefined {
  if (re === undefined) return run;
  re.lastIndex = 0;
  for (let m = re.exec(s); m !== null; m = re.exec(s)) {
    run = mark(index, run, count, m[1] as string);
    re.lastIndex = m.index + 1;
  }
  return run;
}

/** Sets the flags of `rules` (taking them at the first hint found). */
function markRules(index: HintIndex, run: Int32Array | undefined, count: number, rules: readonly number[]): Int32Array {
  const flags = run ?? takeFlags(index, count);
  for (let k = 0; k < rules.length; k += 1) setFlag(flags, rules[k] as number);
  return flags;
}

/** Returned by walkAutomata for a text it cannot read unlowered. */
const SLOW = null;

/**
 * Both automata over the text as written, the lower-case one reading `A`–`Z` as `a`–`z`: the rules
 * of every hint of more than one character found. SLOW if the text holds a character whose lower
 * case would read differently (then only the lower-cased copy gives the right answer).
 */
function walkAutomata(index: HintIndex, text: string, count: number): Int32Array | undefined | typeof SLOW {
  // Fields in locals: this loop runs once per character of every note.
  const { ascii: lascii, other: lother, width: lwidth, next: lnext, out: lout } = index.lowerAutomaton;
  const { ascii: xascii, other: xother, width: xwidth, next: xnext, out: xout } = index.exactAutomaton;
  let run: Int32Array | undefined;
  let ls = 0;
  let xs = 0;
  // Which reporting states were reached in this text: stamped with this call's number, so nothing is cleared or allocated per text.
  const call = (index.calls = (index.calls + 1) | 0 || 1);
  const lseen = index.lowerSeen;
  const xseen = index.exactSeen;
  const { charSlot, charSeen, charRules } = index;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    let lsym: number;
    let xsym: number;
    if (code < 128) {
      lsym = lascii[code] as number;
      xsym = xascii[code] as number;
      const slot = charSlot[code] as number;
      if (slot !== 0 && charSeen[slot] !== call) {
        charSeen[slot] = call;
        run = markRules(index, run, count, charRules[slot - 1] as readonly number[]);
      }
    } else {
      let hazard = index.hazards.get(code);
      if (hazard === undefined) {
        hazard = isFoldHazard(code, index.lowerChars);
        index.hazards.set(code, hazard);
      }
      if (hazard) {
        // The flags taken so far go back (the slow way starts afresh).
        if (run !== undefined) index.spare = run.fill(0);
        return SLOW;
      }
      lsym = lother.get(code) ?? 0;
      xsym = xother.get(code) ?? 0;
    }
    ls = lnext[ls * lwidth + lsym] as number;
    const lfound = lout[ls];
    // A hint found again marks nothing new (prose repeats `key`, `pass`, `token`): its rules are marked once per text.
    if (lfound !== undefined && lseen[ls] !== call) {
      lseen[ls] = call;
      run = markRules(index, run, count, lfound);
    }
    xs = xnext[xs * xwidth + xsym] as number;
    const xfound = xout[xs];
    if (xfound !== undefined && xseen[xs] !== call) {
      xseen[xs] = call;
      run = markRules(index, run, count, xfound);
    }
  }
  return run;
}

// Plain functions, not closures made per call: a note pays for each function created for it (and
// under tsx, which keeps function names, for naming it too), which short notes feel.
/** Which rules can apply to `text`: a flag per rule, set by the hints found. */
function rulesToRun(index: HintIndex, text: string, count: number): Int32Array | undefined {
  let run = walkAutomata(index, text, count);
  if (run !== SLOW) {
    // No character of the text lower-cases into or out of a hint character: as written is as lower-cased.
    for (let k = 0; k < index.wideChars.length; k += 1) {
      const c = index.wideChars[k] as string;
      if (text.includes(c)) run = mark(index, run, count, c);
    }
    return run;
  }
  run = undefined;
  const lower = text.toLowerCase();
  for (let k = 0; k < index.chars.length; k += 1) {
    const c = index.chars[k] as string;
    if (lower.includes(c)) run = mark(index, run, count, c);
  }
  run = scanHints(index, index.lower, lower, run, count);
  return scanHints(index, index.exact, text, run, count);
}

const INDEXES = new WeakMap<readonly Rule[], HintIndex>();

let shortcutsAllowed = true;

/**
 * IN_RULE_SHORTCUT: whether a rule may skip, inside its scan, the parts of a text where it can be shown
 * to find nothing (each such skip says in a comment why nothing there can match). Off while the
 * reference path runs (runRulesEachHint), so the dispatch test compares every shortcut with the rule
 * read in full.
 */
export function shortcutsOn(): boolean {
  return shortcutsAllowed;
}

/** Runs `rules` in order over `text`. */
export function runRules(rules: readonly Rule[], text: string): RedactResult {
  let index = INDEXES.get(rules);
  if (index === undefined) {
    index = hintIndex(rules);
    INDEXES.set(rules, index);
  }
  // Hints are looked up in the original text: a replacement only removes text and adds tags, and
  // a tag is never a secret, so a hint missing here is missing from every later version too.
  const run = rulesToRun(index, text, rules.length);
  const result = runSelected(rules, text, run, true);
  if (run !== undefined) index.spare = run.fill(0);
  return result;
}

/**
 * The same without the hint index: each rule's hints looked up one by one, as the first engine did,
 * and without the other shortcuts (EXEC_LOOP, RULE_NEEDS, RULE_FLAGS_REUSED, IN_RULE_SHORTCUT): every rule whose
 * hint the text holds is run as written. What the fast path must agree with
 * (test/memory/redact-dispatch.test.ts compares the two).
 */
export function runRulesEachHint(rules: readonly Rule[], text: string): RedactResult {
  const lower = text.toLowerCase();
  const run = new Int32Array((rules.length + 31) >> 5);
  rules.forEach((r, i) => {
    if (r.hints.some((h) => (h === h.toLowerCase() ? lower : text).includes(h))) setFlag(run, i);
  });
  const before = shortcutsAllowed;
  shortcutsAllowed = false;
  try {
    return runSelected(rules, text, run, false);
  } finally {
    shortcutsAllowed = before;
  }
}

/** Whether `text` holds one of `needs` (RULE_NEEDS). */
function holdsOne(text: string, needs: readonly string[]): boolean {
  for (let k = 0; k < needs.length; k += 1) if (text.includes(needs[k] as string)) return true;
  return false;
}

/** Runs the rules flagged in `run`, in order, and counts the tags they leave by kind; `shortcuts`: the fast path's. */
function runSelected(rules: readonly Rule[], text: string, run: Int32Array | undefined, shortcuts: boolean): RedactResult {
  const counts = new Map<string, number>();
  let out = text;
  if (run !== undefined) {
    // The set bits, lowest first: the rules in their order.
    for (let w = 0; w < run.length; w += 1) {
      for (let bits = run[w] as number; bits !== 0; bits &= bits - 1) {
        const rule = rules[(w << 5) + 31 - Math.clz32(bits & -bits)] as Rule;
        if (shortcuts && rule.needs !== undefined && !holdsOne(out, rule.needs)) continue;
        out = 'scan' in rule ? applyScan(rule, out, counts) : applyRegex(rule, out, counts, shortcuts);
      }
    }
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
