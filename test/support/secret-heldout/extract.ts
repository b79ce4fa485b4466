/**
 * Builds `data.json`, the held-out redaction evaluation (issue 29), from two public secret
 * scanners' own test data, read as DATA from repository snapshots (never their rules or code):
 *
 * - gitleaks (MIT): the true-positive samples (`tps`) and false-positive samples (`fps`) that each
 *   rule in cmd/generate/config/rules/*.go validates itself against. Literal samples are taken as
 *   written; samples built with `secrets.NewSecret(<pattern>)` are generated here from that
 *   pattern with a seeded generator (the pattern describes a vendor's published token shape).
 * - detect-secrets (Apache-2.0): the secrets in its test_data/ files.
 * - Public identifiers from the gitleaks snapshot itself (commit SHAs, blob SHAs), as benign ids.
 *
 * Run: `npx tsx test/support/secret-heldout/extract.ts <gitleaks git dir> <detect-secrets git dir>`
 * (the `fetch` tool's mirrors). The output is committed, so tests and the bench need no network.
 * Nothing here looks at what our redaction does: the set is fixed before it is measured.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { mulberry32 } from '../prng.js';

export interface HeldoutSecret {
  /** Where it comes from: `gitleaks:<rule id>` or `detect-secrets:<file>`. */
  source: string;
  /** The vendor or product word the scanner names it by (`twilio`, `AWS`), if any. */
  identifier?: string;
  /** The value that must not survive redaction. */
  secret: string;
  /** A whole sample line as the scanner wrote it, when the sample is a line and not a bare value. */
  line?: string;
}

export interface HeldoutBenign {
  source: string;
  text: string;
  /** The labelling rules (README.md) under which this sample is benign; absent: all of them. The set in use is rule v5's. */
  rules?: ('v1' | 'v2' | 'v3' | 'v4' | 'v5' | 'v6')[];
  /** Rule v6 (relabel-v6.ts): the values given as a password next to their word that make this sample a secret. */
  v6Secrets?: string[];
}

const rng = mulberry32(29);
const git = (dir: string, ...args: string[]): string => execFileSync('git', ['--git-dir', dir, ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });

// ---- a tiny generator for the regular expressions gitleaks' samples are generated from ----

function expandClass(body: string): string {
  let out = '';
  for (let i = 0; i < body.length; i += 1) {
    let c = body[i] as string;
    if (c === '\\') {
      i += 1;
      c = body[i] as string;
      if (c === 'd') { out += '0123456789'; continue; }
      if (c === 'w') { out += 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_'; continue; }
      if (c === 's') { out += ' '; continue; }
    }
    if (body[i + 1] === '-' && i + 2 < body.length && body[i + 2] !== ']') {
      const to = body[i + 2] === '\\' ? (body[i + 3] as string) : (body[i + 2] as string);
      for (let k = c.charCodeAt(0); k <= to.charCodeAt(0); k += 1) out += String.fromCharCode(k);
      i += body[i + 2] === '\\' ? 3 : 2;
      continue;
    }
    out += c;
  }
  return out;
}

/** Generates one string matching `re` (character classes, groups, alternation, quantifiers). Throws on what it does not know. */
export function generate(re: string): string {
  let i = 0;
  const pick = (s: string): string => s[Math.floor(rng() * s.length)] as string;
  function atom(): () => string {
    const c = re[i] as string;
    if (c === '[') {
      const end = re.indexOf(']', i + 2);
      if (end < 0) throw new Error('unclosed class');
      let body = re.slice(i + 1, end);
      i = end + 1;
      if (body.startsWith('^')) throw new Error('negated class');
      body = expandClass(body);
      return () => pick(body);
    }
    if (c === '(') {
      i += 1;
      if (re.startsWith('?:', i)) i += 2;
      else if (re.startsWith('?i)', i)) { i += 3; return () => ''; }
      const alts = alternation();
      if (re[i] !== ')') throw new Error('unclosed group');
      i += 1;
      return () => alts();
    }
    if (c === '\\') {
      const e = re[i + 1] as string;
      i += 2;
      if (e === 'd') return () => pick('0123456789');
      if (e === 'w') return () => pick('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_');
      if (e === 'b' || e === 'B') return () => '';
      if (/[A-Za-z]/.test(e)) throw new Error(`escape \\${e}`);
      return () => e;
    }
    if (c === '.') { i += 1; return () => pick('abcdefghijklmnopqrstuvwxyz0123456789'); }
    if (c === '^' || c === '$') { i += 1; return () => ''; }
    i += 1;
    return () => c;
  }
  function quantified(): () => string {
    const a = atom();
    const q = re[i];
    let min = 1;
    let max = 1;
    if (q === '{') {
      const m = /^\{(\d+)(?:,(\d*))?\}/.exec(re.slice(i));
      if (m === null) throw new Error('bad quantifier');
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[2] === '' ? min + 8 : Number(m[2]);
      i += m[0].length;
    } else if (q === '?') { min = 0; max = 1; i += 1; }
    else if (q === '*') { min = 0; max = 8; i += 1; }
    else if (q === '+') { min = 1; max = 8; i += 1; }
    if (re[i] === '?') i += 1; // lazy: same strings
    return () => {
      const n = min + Math.floor(rng() * (max - min + 1));
      let s = '';
      for (let k = 0; k < n; k += 1) s += a();
      return s;
    };
  }
  function sequence(): () => string {
    const parts: (() => string)[] = [];
    while (i < re.length && re[i] !== '|' && re[i] !== ')') parts.push(quantified());
    return () => parts.map((p) => p()).join('');
  }
  function alternation(): () => string {
    const alts = [sequence()];
    while (re[i] === '|') {
      i += 1;
      alts.push(sequence());
    }
    return () => (alts[Math.floor(rng() * alts.length)] as () => string)();
  }
  const g = alternation();
  if (i !== re.length) throw new Error(`unparsed at ${i}`);
  return g();
}

// ---- reading Go source as data: string literals, concatenations, a few helper calls ----

const PATTERN_HELPERS: Record<string, (n: string) => string> = {
  Numeric: (n) => `[0-9]{${n}}`,
  Hex: (n) => `[a-f0-9]{${n}}`,
  AlphaNumeric: (n) => `[a-z0-9]{${n}}`,
  AlphaNumericExtendedShort: (n) => `[a-z0-9_-]{${n}}`,
  AlphaNumericExtended: (n) => `[a-z0-9=_\\-]{${n}}`,
  AlphaNumericExtendedLong: (n) => `[a-z0-9\\/=_\\+\\-]{${n}}`,
};

/** Splits `s` at top-level occurrences of `sep` (outside strings and brackets), dropping `//` comments. */
function splitTop(s: string, sep: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let part = '';
  for (let i = 0; i < s.length; i += 1) {
    const c = s[i] as string;
    if (c === '"' || c === '`') {
      const end = endOfString(s, i);
      part += s.slice(i, end + 1);
      i = end;
      continue;
    }
    if (c === '/' && s[i + 1] === '/') {
      const nl = s.indexOf('\n', i);
      i = (nl < 0 ? s.length : nl) - 1;
      continue;
    }
    if ('([{'.includes(c)) depth += 1;
    else if (')]}'.includes(c)) depth -= 1;
    else if (c === sep && depth === 0) {
      out.push(part);
      part = '';
      continue;
    }
    part += c;
  }
  out.push(part);
  return out.map((p) => p.trim()).filter((p) => p !== '');
}

function endOfString(s: string, at: number): number {
  const q = s[at];
  for (let i = at + 1; i < s.length; i += 1) {
    if (q === '"' && s[i] === '\\') { i += 1; continue; }
    if (s[i] === q) return i;
  }
  return s.length;
}

function goString(lit: string): string {
  if (lit.startsWith('`')) return lit.slice(1, -1);
  return JSON.parse(lit.replace(/\\'/g, "'")) as string;
}

/** The argument list of the call whose `(` is at `open`. */
function callArgs(s: string, open: number): { args: string; end: number } {
  let depth = 0;
  for (let i = open; i < s.length; i += 1) {
    const c = s[i] as string;
    if (c === '"' || c === '`') { i = endOfString(s, i); continue; }
    if (c === '(') depth += 1;
    else if (c === ')') {
      depth -= 1;
      if (depth === 0) return { args: s.slice(open + 1, i), end: i + 1 };
    }
  }
  throw new Error('unclosed call');
}

interface Evaluated {
  text: string;
  /** The generated parts (what NewSecret produced). */
  generated: string[];
}

/** Evaluates a Go string expression of literals, `+`, `secrets.NewSecret(p)`, `utils.<Pattern>("n")`, `utils.Hex8_4_4_4_12()`. */
function evaluate(expr: string, pattern = false): Evaluated {
  const out: Evaluated = { text: '', generated: [] };
  for (const term of splitTop(expr, '+')) {
    if (/^["`]/.test(term)) {
      out.text += goString(term);
      continue;
    }
    const helper = /^utils\.(\w+)\("([\d,]+)"\)$/.exec(term);
    if (helper !== null && PATTERN_HELPERS[helper[1] as string] !== undefined) {
      out.text += (PATTERN_HELPERS[helper[1] as string] as (n: string) => string)(helper[2] as string);
      continue;
    }
    if (term === 'utils.Hex8_4_4_4_12()') {
      out.text += '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
      continue;
    }
    const ns = /^(?:secrets\.NewSecret|newPlausibleSecret)\(/.exec(term);
    if (ns !== null && !pattern) {
      const { args, end } = callArgs(term, term.indexOf('('));
      if (end !== term.length) throw new Error(`trailing ${term.slice(end)}`);
      const value = generate(evaluate(args, true).text);
      out.text += value;
      out.generated.push(value);
      continue;
    }
    throw new Error(`unknown term ${term.slice(0, 40)}`);
  }
  return out;
}

/**
 * The most secret-looking token of a sample line: the longest run with the most distinct
 * characters, leaving out what is plainly not the secret (URLs, host names, e-mail addresses,
 * identifiers such as `BUNDLE_GEMS__CONTRIBSYS__COM` or `client_secret`, `$VARIABLES`).
 */
export function likelySecret(line: string): string | undefined {
  const userinfo = /:\/\/[^:/@\s]*:([^@\s/]+)@/.exec(line);
  if (userinfo !== null) return userinfo[1];
  const tokens = line
    .split(/[\s"'`=:@,;(){}<>[\]|\\]+/)
    .filter((t) => t.length >= 6 && /\d/.test(t) && /[A-Za-z]/.test(t))
    .filter((t) => !t.includes('//') && !t.startsWith('$') && !/^[\w-]+(?:\.[\w-]+)+$/.test(t) && !/^(?:[\w.-]*\/)+[\w.-]*$/.test(t))
    .filter((t) => !/^[A-Z][A-Z0-9_]*$/.test(t) || /\d.*[A-Z]{2}|^[A-Z0-9]{16,}$/.test(t));
  let best: string | undefined;
  let bestScore = 0;
  for (const t of tokens) {
    const score = new Set(t).size * Math.log(t.length);
    if (score > bestScore) {
      best = t;
      bestScore = score;
    }
  }
  return best;
}

/**
 * Clearly a placeholder or documentation example, by the issue's definition (decided before any
 * measurement): AWS-style EXAMPLE, runs of x, masks, ellipses, angle-bracket and ${} templates.
 * Used on true-positive samples (a documented example is benign) and, in labelling rule v1, on
 * whole false-positive samples.
 */
export const DOC_MARKER = /EXAMPLE|x{4,}|X{4,}|\*{3}|\.{3}|…|<[^<>\n]+>|\$\{[^}]*\}|your[_-]|placeholder|redacted/i;
/** Rule v2's marker on a token itself (templates are judged by what encloses the token). */
const TOKEN_MARKER = /EXAMPLE|x{4,}|\*{3}|\.{3}|…|your[_-]|placeholder|redacted/i;
/** The token alphabet of rule v1 and v2 (README.md): runs of it are a sample's candidate values. */
const TOKEN_RUN = /[A-Za-z0-9+/_.~=-]{16,}/g;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const HASH_PREFIX = /^(?:sha(?:1|224|256|384|512)|md5)-/i;
const HASH_WORD_BEFORE = /\b(?:sha(?:1|224|256|384|512)?|md5|checksum|digest|hash|etag|commit|integrity)["']?\s*[:=]?\s*["']?$/i;

/** Rule v5: the key or label right before a value ends in a credential word. */
export const CREDENTIAL_KEY_BEFORE = /(?:pass(?:word|wd)?|pwd|secret|token|key|credentials?|auth)["'\]]?[ \t]*(?:[:=]|=>)?[ \t]*["'`]?$/i;

/** A value that could be a credential: 16+ characters mixing letters and digits. */
const shaped = (v: string): boolean => v.length >= 16 && /\d/.test(v) && /[A-Za-z]/.test(v);

/**
 * Labelling rules v2 to v5 (README.md): each credential-shaped token of a sample is a placeholder (a
 * marker on the token itself, or inside `<…>` / `${…}`) or an identifier (a UUID, part of a URL
 * without user information, a hash named as such); the sample is benign when every token is one.
 * A leading `name=` inside a run is an assignment's key, not part of the value.
 */
export function benignByRule(text: string, version: 'v2' | 'v3' | 'v4' | 'v5'): boolean {
  for (const m of text.matchAll(TOKEN_RUN)) {
    const run = m[0];
    const at = m.index as number;
    const key = /^[A-Za-z_][A-Za-z0-9_.-]*=/.exec(run)?.[0] ?? '';
    const value = run.slice(key.length);
    if (!shaped(value)) continue;
    const start = at + key.length;
    const end = at + run.length;
    const lineStart = text.lastIndexOf('\n', start) + 1;
    const nl = text.indexOf('\n', end);
    const before = text.slice(lineStart, start);
    const after = text.slice(end, nl < 0 ? text.length : nl);
    if (TOKEN_MARKER.test(value) || (version !== 'v2' && value.endsWith('..'))) continue;
    // v4: the brackets enclose the token directly (`<your-token>`), not an attribute value inside a tag.
    const inAngle =
      version === 'v4' || version === 'v5'
        ? before.endsWith('<') && after.startsWith('>')
        : before.lastIndexOf('<') > before.lastIndexOf('>') && after.indexOf('>') >= 0 && (after.indexOf('<') < 0 || after.indexOf('>') < after.indexOf('<'));
    const inDollar = before.lastIndexOf('${') > before.lastIndexOf('}') && after.indexOf('}') >= 0;
    if (inAngle || inDollar) continue;
    // v5: a UUID named by a credential key right before it is a key (HubSpot, Snyk, Heroku), not an id.
    const namedByCredential = version === 'v5' && CREDENTIAL_KEY_BEFORE.test(before + key.slice(0, -1));
    if ((UUID.test(value) && !namedByCredential) || HASH_PREFIX.test(value) || HASH_WORD_BEFORE.test(before + key.slice(0, -1))) continue;
    const wordStart = Math.max(...[' ', '\t', '"', "'", '`', '<', '>'].map((c) => before.lastIndexOf(c))) + 1;
    const wordEnd = after.search(/[\s"'`<>]/);
    const word = before.slice(wordStart) + run + (wordEnd < 0 ? after : after.slice(0, wordEnd));
    if (word.includes('://') && !word.includes('@')) {
      // v3: a URL that carries a credential (a credential-named parameter's value, a webhook) is not an id.
      const param = /[?&#;][^=&#?;]*(?:pass|pwd|secret|token|key|sig|auth|credential)[^=&#?;]*=$/i.test(before.slice(wordStart));
      if (version === 'v2' || !(param || /webhook|:\/\/hooks\./i.test(word))) continue;
    }
    return false;
  }
  return true;
}

/** Rule v1, kept so the bench can report the set under both: a marker anywhere, or nothing credential-shaped. */
const CREDENTIAL_SHAPED = /(?=[A-Za-z0-9+/_.~=-]*\d)(?=[A-Za-z0-9+/_.~=-]*[A-Za-z])[A-Za-z0-9+/_.~=-]{16,}/;
const benignByRuleV1 = (text: string): boolean => DOC_MARKER.test(text) || !CREDENTIAL_SHAPED.test(text);

/**
 * A scanner's false positive is benign for us only if our definition agrees (rule v2, README.md).
 * The rest (a real-looking key that one scanner rule rejects for its own reasons, e.g. a wrong
 * suffix) may be a secret by our definition, so it is in neither set; it is counted in `skipped`.
 * A sample benign under some rules only is kept with `rules` set, so the bench can give the
 * figures under each rule (the relabel is reported, not hidden).
 */
function addFalsePositive(benign: HeldoutBenign[], skipped: string[], source: string, text: string): void {
  const rules = (['v1', 'v2', 'v3', 'v4', 'v5'] as const).filter((r) => (r === 'v1' ? benignByRuleV1(text) : benignByRule(text, r)));
  if (rules.length === 5) benign.push({ source, text });
  else if (rules.length > 0) benign.push({ source, text, rules: [...rules] });
  if (!rules.includes('v5')) skipped.push(`${source}: ambiguous false positive (a credential-shaped token that is neither a placeholder nor an id${rules.length > 0 ? `; benign under rule ${rules.join(', ')}` : ''})`);
}

/**
 * The tps and fps of the Go rule files under cmd/generate/config/rules/ of a gitleaks-layout snapshot.
 * `scanner` names the sources (`gitleaks:`, `gitleaks-fp:`, `gitleaks-doc-example:`); betterleaks, a
 * later scanner by gitleaks' author with the same layout, is read by extract-dev-betterleaks.ts through
 * this same reader, so both are parsed alike.
 */
export function gitleaks(dir: string, secrets: HeldoutSecret[], benign: HeldoutBenign[], skipped: string[], scanner = 'gitleaks'): void {
  const files = git(dir, 'ls-tree', '--name-only', 'HEAD', 'cmd/generate/config/rules/').split('\n').filter((f) => f.endsWith('.go') && !f.endsWith('_test.go'));
  for (const file of files) {
    const src = git(dir, 'show', `HEAD:${file}`);
    for (const fn of src.split(/\nfunc /).slice(1)) {
      const ruleId = /RuleID:\s*"([^"]+)"/.exec(fn)?.[1];
      if (ruleId === undefined) continue;
      // tps and fps lists: `tps := []string{…}`, `tps = append(tps, …)`, `fps := …`.
      for (const m of fn.matchAll(/\b(tps|fps|truePositives|falsePositives)\s*(?::=|=)\s*/g)) {
        const which = /^(tps|truePositives)$/.test(m[1] as string) ? 'tp' : 'fp';
        const at = (m.index as number) + m[0].length;
        const rest = fn.slice(at);
        let elements: string[];
        try {
          if (rest.startsWith('[]string{')) {
            const body = rest.slice('[]string'.length);
            let depth = 0;
            let end = 0;
            for (let i = 0; i < body.length; i += 1) {
              const c = body[i] as string;
              if (c === '"' || c === '`') { i = endOfString(body, i); continue; }
              if (c === '{') depth += 1;
              if (c === '}' && --depth === 0) { end = i; break; }
            }
            elements = splitTop(body.slice(1, end), ',');
          } else if (rest.startsWith('append(')) {
            elements = splitTop(callArgs(rest, rest.indexOf('(')).args, ',').slice(1);
          } else if (/^utils\.GenerateSampleSecrets?\(/.test(rest)) {
            elements = [callArgs(rest, rest.indexOf('(')).args].map((a) => `utils.GenerateSampleSecret(${a})`);
          } else continue;
        } catch (error) {
          skipped.push(`${ruleId}: ${(error as Error).message}`);
          continue;
        }
        for (let el of elements) {
          el = el.replace(/\.\.\.$/, '');
          try {
            const gen = /^utils\.GenerateSampleSecrets?\(/.exec(el);
            if (gen !== null) {
              const args = splitTop(callArgs(el, el.indexOf('(')).args, ',');
              const identifier = evaluate(args[0] as string).text;
              const secret = evaluate(args[1] as string).text;
              if (which === 'fp') addFalsePositive(benign, skipped, `${scanner}-fp:${ruleId}`, `${identifier}_token = ${secret}`);
              else if (DOC_MARKER.test(secret)) benign.push({ source: `${scanner}-doc-example:${ruleId}`, text: `${identifier}_token = ${secret}` });
              else secrets.push({ source: `${scanner}:${ruleId}`, identifier, secret });
              continue;
            }
            const value = evaluate(el);
            if (which === 'fp') {
              addFalsePositive(benign, skipped, `${scanner}-fp:${ruleId}`, value.text);
              continue;
            }
            const secret = value.generated.length === 1 ? value.generated[0] : likelySecret(value.text);
            if (secret === undefined) skipped.push(`${ruleId}: no token in a sample line`);
            else if (DOC_MARKER.test(secret)) benign.push({ source: `${scanner}-doc-example:${ruleId}`, text: value.text });
            else secrets.push({ source: `${scanner}:${ruleId}`, secret, line: value.text });
          } catch (error) {
            skipped.push(`${ruleId}: ${(error as Error).message}`);
          }
        }
      }
    }
  }
}

/** detect-secrets' test data: the values its own tests expect to be found (read by hand from the files, listed here with where they are). */
function detectSecrets(dir: string, secrets: HeldoutSecret[]): void {
  const lines = (file: string): string[] => git(dir, 'show', `HEAD:${file}`).split('\n');
  const wanted: Array<[string, RegExp]> = [
    ['test_data/config.env', /^mimi=/],
    ['test_data/config.ini', /^password = 123456789a1234$/],
    ['test_data/config.ini', /^real_secret_which_isnt_an_i_d = /],
    ['test_data/config.md', /^key="/],
    ['test_data/each_secret.py', /^(base64_secret|hex_secret|basic_auth) = /],
    ['test_data/files/file_with_secrets.py', /^SUPER_SEECRET_VALUE = /],
    ['test_data/files/file_with_secrets.py', /^VERY_SECRET_TOO = /],
  ];
  for (const [file, re] of wanted) {
    for (const line of lines(file)) {
      if (!re.test(line)) continue;
      const clean = line.replace(/\s+#\s*pragma: allowlist secret/, '');
      const url = /:\/\/[^:]+:([^@]+)@/.exec(clean);
      const secret = url?.[1] ?? likelySecret(clean.replace(/^[^=]*=\s*/, ''));
      if (secret !== undefined) secrets.push({ source: `detect-secrets:${file}`, secret, line: clean });
    }
  }
}

/** Public ids from the gitleaks snapshot: commit SHAs and blob SHAs, the ids notes cite. */
function publicIds(dir: string, benign: HeldoutBenign[]): void {
  for (const sha of git(dir, 'log', '--format=%H', '-n', '30', 'HEAD').trim().split('\n')) benign.push({ source: 'gitleaks-history:commit', text: sha });
  for (const row of git(dir, 'ls-tree', 'HEAD', 'cmd/generate/config/rules/').trim().split('\n').slice(0, 20)) {
    const blob = row.split(/\s+/)[2];
    if (blob !== undefined) benign.push({ source: 'gitleaks-history:blob', text: blob });
  }
}

function main(): void {
  const [gitleaksDir, detectSecretsDir] = process.argv.slice(2);
  if (gitleaksDir === undefined || detectSecretsDir === undefined) throw new Error('usage: extract.ts <gitleaks git dir> <detect-secrets git dir>');
  const secrets: HeldoutSecret[] = [];
  const benign: HeldoutBenign[] = [];
  const skipped: string[] = [];
  gitleaks(gitleaksDir, secrets, benign, skipped);
  detectSecrets(detectSecretsDir, secrets);
  publicIds(gitleaksDir, benign);
  const data = {
    sources: [
      { name: 'gitleaks', url: 'https://github.com/gitleaks/gitleaks', commit: git(gitleaksDir, 'rev-parse', 'HEAD').trim(), license: 'MIT', paths: 'cmd/generate/config/rules/*.go (tps/fps samples)' },
      { name: 'detect-secrets', url: 'https://github.com/Yelp/detect-secrets', commit: git(detectSecretsDir, 'rev-parse', 'HEAD').trim(), license: 'Apache-2.0', paths: 'test_data/' },
    ],
    skipped,
    secrets,
    benign,
  };
  const out = fileURLToPath(new URL('./data.json', import.meta.url));
  writeFileSync(out, `${JSON.stringify(data, null, 1)}\n`);
  process.stdout.write(`${secrets.length} secrets, ${benign.length} benign samples, ${skipped.length} skipped -> ${out}\n`);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) main();
