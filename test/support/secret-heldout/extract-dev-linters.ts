/**
 * Builds `dev-linters.json`: more DEV data for the held-out set (issue 40, 2026-12-06 fifth session), from
 * a kind of source no earlier round used: static analysers' hard-coded-credential rules' TEST SUITES,
 * which hold both sides (code the linter must flag as a hard-coded secret, and code it must not), written
 * by people nobody here knows. Read as data from repository snapshots (the `fetch` tool's mirrors), never
 * a pattern or a line of their rules' logic:
 * - gosec (Apache-2.0, securego/gosec): `testutils/g101_samples.go`, G101's code samples, each Go code with
 *   the number of issues gosec must report on it;
 * - bandit (Apache-2.0, PyCQA/bandit): `examples/hardcoded-passwords.py`, its B105/B106/B107 example, where
 *   each finding is announced by a comment `# Possible hardcoded password: '<value>'` before its line;
 * - DevSkim (MIT, microsoft/DevSkim): `rules/default/security/privacy/secrets.json`, only its rules'
 *   `must-match` and `must-not-match` lists (the rule's self-tests), never a pattern;
 * - eslint-plugin-no-secrets (MIT, nickdeis/eslint-plugin-no-secrets): `tests/lib/rules/no-secrets.ts`'s
 *   `valid` and `invalid` code, and `staging/has-secret.*` / `staging/has-no-secret.*` (its staging test
 *   expects a report on the first two and none on the others). The tests that feed the rule's own
 *   patterns to it (`REGEX_TESTS`, `PATTERN_MATCH_TESTS`) are not read: they are its patterns;
 * - earlybird (Apache-2.0, americanexpress/earlybird), added in a second pass after the first fixes (its
 *   labelling, step 3b, written down before the redaction ran on it): the table tests of its false-positive
 *   filter and password post-processing, one line and one expectation per case
 *   (`pkg/scan/falsePositives_test.go`: `MatchValue`/`LineValue` and `wantIsFP`;
 *   `pkg/postprocess/skipSameKeyValue_test.go`: `lineValue` and `wantIgnore`;
 *   `pkg/postprocess/validatePassword_test.go`: `testPD` and `wantIgnore`). Its false-positive patterns
 *   (`config/falsepositives/*`) are not read;
 * - ruff (MIT, astral-sh/ruff), added in a third pass after earlybird's fixes (its labelling, step 3c,
 *   written down before the redaction ran on it): flake8-bandit's hard-coded-password fixtures as ruff's
 *   authors rewrote them (`crates/ruff_linter/resources/test/fixtures/flake8_bandit/S10{5,6,7}.py`) and the
 *   snapshots its tests compare against (`…/flake8_bandit/snapshots/…__S10{5,6,7}_S10{5,6,7}.py.snap`),
 *   which give every reported finding's line and column (`--> S105.py:13:12`).
 *
 * LABELLING (written down here before the redaction was run on any of it). A sample is one line of a
 * snippet, trimmed of its indentation, that holds a credential word (`password`, `passwd`, `pwd`, `pass`,
 * `pw`, `secret`, `token`, `key`, `cred`, `credential`, `auth`, `bearer`; any case, glued or not) or a
 * CREDENTIAL-SHAPED RUN (rule v2's: 16+ characters of `[A-Za-z0-9+/_.~=-]` with a letter and a digit;
 * a leading `name=` is not part of it, a name being letters, `_`, `.` and `-` only, so base64's `…8B=/…`
 * is not cut at its `=`); other lines (`package main`, `}`) are not samples (counted).
 * Each line is, in this order:
 * 1. POSITIVE SNIPPETS, where the source expects a report per snippet (gosec: a count >= 1; eslint: an
 *    `invalid` case, or `staging/has-secret.*`): a line that holds a credential-shaped run inside a string
 *    literal (`"…"`, `'…'`, `` `…` ``) or in a comment is a SECRET whose value is its longest such run;
 *    LEFT OUT when that value carries a documentation marker (`DOC_MARKER`: `AKIA…EXAMPLE` is AWS's
 *    documented example, benign by issue 29's words, not a secret). The snippet's other lines (a user name,
 *    a declaration) go to step 4. The source counts per snippet, not per line: the line with the run is
 *    what a linter reports (gosec's value, the literal it judged), so it is the one labelled;
 * 2. bandit: a line after a comment `# Possible hardcoded password: '<V>'` (the first line after that
 *    comment block that holds V in quotes, `'V'` or `"V"`; a `class …:` line may come between) is a SECRET
 *    whose value is V, when V is non-empty. An announced `''` or `None` gives no value to remove: that line goes to step 4. The
 *    announcing comments (`# Possible hardcoded password: …`, `# Severity: …`, an issue link, `# ... but
 *    not:`) are the test's expectation, not data: not samples;
 * 3. DevSkim: a `must-match` entry is a SECRET, its value chosen by `likelySecret` as for the dev recall
 *    data (left out: none found, a documentation marker in it, a UUID no credential key names); a
 *    `must-not-match` entry goes to step 4, whole;
 * 3b. earlybird: a case its test expects to be KEPT as a finding (`wantIsFP: false`, `wantIgnore: false`)
 *    is a SECRET, its value chosen by `likelySecret`, or when that finds none (a short password:
 *    `<Password>abc13</Password>`) the value rule v7 reads beside its word (`passwordValuesV7`, the first);
 *    left out when neither gives one or it carries a documentation marker. A case expected to be SKIPPED
 *    goes to step 4, whole (earlybird's "skip" is its authors' judgement, not ours: v5 decides);
 * 3c. ruff: a fixture line its snapshot reports a finding on is a SECRET whose value is the string
 *    literal that starts at the reported column, without its quotes, as written (`"s3cr3t"` -> `s3cr3t`;
 *    of several on one line, the leftmost); left out when no quoted literal starts there, or it is empty.
 *    A fixture line no finding is reported on goes to step 4;
 * 4. everything else (negative snippets: gosec's count 0, eslint's `valid` cases with its default
 *    options, `staging/has-no-secret.*`; and the other lines of positive snippets) is labelled by RULE v5
 *    (`benignByRule`), as every other dev source: benign, or left out as possibly a secret (`skipped`).
 *    The source's "no report" does not make a line benign by itself (gosec's `Username: "<40 hex>"` is a
 *    non-finding for its rule, and rule v5 leaves it out). Rule v7 is applied to the benign ones at run
 *    time (notes.ts), so `password := "secret"` (gosec's low-entropy negative) counts under v7 as the
 *    password issue 40 makes it;
 * 5. eslint `valid` cases that pass only through an option that tells the rule to ignore something
 *    (`ignoreContent`, `ignoreIdentifiers`, `ignoreModules`, `additionalDelimiters`, `ignoreCase`) are
 *    LEFT OUT whole: their value is a secret the user chose to let through, not a negative of the rule.
 * The same text is counted once (first source in the order above keeps it), and a text already in
 * another dev file is counted once there.
 *
 * The held-out TEST half stays unseen, by two checks in code, on every candidate line before anything of
 * it is kept, written or printed (test-half-vendors.ts, their one owner; only counts are printed):
 * `testHalfNearCopy` (a 12-character piece shared with a test-half sample) and `testHalfFilter` asked
 * of the line's own vendor words (split at case changes too: `githubToken` -> `github`, `token`), with
 * generic lines KEPT (`keepGeneric`): these are linters' code samples, not a scanner's rules, and generic
 * passwords in code and notes are what issue 40 is about, as for CredSweeper's samples.
 *
 * Rows: `held-out dev linters …` (bench) and `dev linters` (dev-eval.ts), per source. Every sample is dev,
 * placed like CredSweeper's (the whole-line contexts of notes.ts, rotating, both sides alike).
 *
 * Run: `npx tsx test/support/secret-heldout/extract-dev-linters.ts gosec=<git dir> bandit=<git dir>
 * devskim=<git dir> eslint-no-secrets=<git dir> earlybird=<git dir> ruff=<git dir>` (the `fetch` tool's mirrors at the commits recorded in
 * `dev-linters.json`).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { benignByRule, CREDENTIAL_KEY_BEFORE, DOC_MARKER, likelySecret, UUID, type HeldoutBenign } from './extract.js';
import { passwordValuesV7 } from './rule-v7.js';
import { testHalfFilter, testHalfNearCopy, vendorWords } from './test-half-vendors.js';

const git = (dir: string, ...args: string[]): string => execFileSync('git', ['--git-dir', dir, ...args], { maxBuffer: 64 << 20 }).toString('utf8');

export interface LinterSecret {
  source: string;
  secret: string;
  line: string;
}

/** A credential word, glued or not (the header's list). */
const CREDENTIAL_WORD = /pass|pwd|\bpw\b|pw[A-Z_ ]|secret|token|key|cred|auth|bearer/i;
/** Rule v2's run (README.md); a leading `name=` is an assignment's key. */
const RUN = /[A-Za-z0-9+/_.~=-]{16,}/g;
const shaped = (v: string): boolean => v.length >= 16 && /\d/.test(v) && /[A-Za-z]/.test(v);

function shapedRuns(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(RUN)) {
    const value = m[0].replace(/^[A-Za-z_][A-Za-z_.-]*=(?=.)/, '');
    if (shaped(value)) out.push(value);
  }
  return out;
}

/** The longest credential-shaped run inside a string literal or a comment of the line (step 1), if any. */
function literalValue(line: string): string | undefined {
  const parts = [...line.matchAll(/"([^"]*)"|'([^']*)'|`([^`]*)`/g)].map((m) => m[1] ?? m[2] ?? m[3] ?? '');
  const comment = /(?:^|\s)(?:\/\/|#)(.*)$/.exec(line)?.[1];
  if (comment !== undefined) parts.push(comment);
  return parts.flatMap(shapedRuns).sort((a, b) => b.length - a.length)[0];
}

const isCandidate = (line: string): boolean => CREDENTIAL_WORD.test(line) || shapedRuns(line).length > 0;

/** A snippet of a source with what the source expects of it. */
interface Snippet {
  source: string;
  text: string;
  side: 'positive' | 'negative' | 'left out';
  /** bandit's announced values, by line index (step 2). */
  announced?: Map<number, string>;
  /** DevSkim's and earlybird's entries are judged whole (steps 3 and 3b). */
  whole?: boolean;
  /** earlybird: when `likelySecret` finds no value, the one rule v7 reads (step 3b). */
  orV7?: boolean;
}

function gosecSnippets(dir: string): Snippet[] {
  const text = git(dir, 'show', 'HEAD:testutils/g101_samples.go');
  const out: Snippet[] = [];
  for (const m of text.matchAll(/\{\[\]string\{((?:\s*`[^`]*`\s*,?)+)\},\s*(\d+),/g)) {
    const count = Number(m[2]);
    for (const code of (m[1] as string).matchAll(/`([^`]*)`/g)) out.push({ source: 'gosec:G101', text: code[1] as string, side: count >= 1 ? 'positive' : 'negative' });
  }
  return out;
}

function banditSnippets(dir: string): Snippet[] {
  const lines = git(dir, 'show', 'HEAD:examples/hardcoded-passwords.py').split('\n');
  const announced = new Map<number, string>();
  let pending: string | undefined;
  const kept: string[] = [];
  for (const line of lines) {
    const a = /^\s*# Possible hardcoded password: (?:'(.*)'|None)\s*$/.exec(line);
    if (a !== null) {
      pending = a[1] ?? '';
      continue;
    }
    if (/^\s*# (?:Severity:|https?:\/\/|\.\.\. but not:)/.test(line)) continue;
    if (pending === '' && line.trim() !== '' && !line.trim().startsWith('#')) pending = undefined;
    else if (pending !== undefined && (line.includes(`'${pending}'`) || line.includes(`"${pending}"`))) {
      announced.set(kept.length, pending);
      pending = undefined;
    }
    kept.push(line);
  }
  return [{ source: 'bandit:B105-B107', text: kept.join('\n'), side: 'negative', announced }];
}

function devskimSnippets(dir: string): Snippet[] {
  const rules = JSON.parse(git(dir, 'show', 'HEAD:rules/default/security/privacy/secrets.json')) as { id: string; 'must-match'?: string[]; 'must-not-match'?: string[] }[];
  return rules.flatMap((r) => [
    ...(r['must-match'] ?? []).map((t) => ({ source: `devskim:${r.id}`, text: t, side: 'positive' as const, whole: true })),
    ...(r['must-not-match'] ?? []).map((t) => ({ source: `devskim:${r.id}`, text: t, side: 'negative' as const, whole: true })),
  ]);
}

/** Options by which an eslint `valid` case passes only because the user told the rule to ignore something (step 5). */
const IGNORING_OPTION = /ignoreContent|ignoreIdentifiers|ignoreModules|additionalDelimiters|ignoreCase/;

function eslintSnippets(dir: string): Snippet[] {
  const test = git(dir, 'show', 'HEAD:tests/lib/rules/no-secrets.ts');
  const constants = new Map<string, string>();
  for (const m of test.matchAll(/const ([A-Z_]+) =\s*(?:`([^`]*)`|"([^"]*)");/g)) constants.set(m[1] as string, (m[2] ?? m[3]) as string);
  // `IMPORT_TEST_LEGACY`/`_FLAT` wrap IMPORT_TEST with `ignoreModules`.
  for (const m of test.matchAll(/const ([A-Z_]+) = \{\s*code: ([A-Z_]+),\s*options: (\[[^\]]*\])/g)) constants.set(m[1] as string, `${m[3]}\u0000${m[2]}`);
  const body = test.slice(test.indexOf('export function createTests'));
  const validAt = body.indexOf('valid: [');
  const invalidAt = body.indexOf('invalid: [');
  const out: Snippet[] = [];
  const read = (part: string, side: 'positive' | 'negative'): void => {
    for (const m of part.matchAll(/code:\s*(?:([A-Z_]+)|`([^`]*)`)\s*,\s*(?:options:\s*(\[[\s\S]*?\])\s*,?)?/g)) {
      let code = m[1] !== undefined ? constants.get(m[1]) : m[2];
      let options = m[3] ?? '';
      if (code === undefined) continue;
      if (code.includes('\u0000')) [options, code] = [code.split('\u0000')[0] as string, constants.get(code.split('\u0000')[1] as string) ?? ''];
      out.push({ source: 'eslint-no-secrets:test', text: code, side: side === 'negative' && IGNORING_OPTION.test(options) ? 'left out' : side });
    }
    for (const m of part.matchAll(/(?:^|[\s,[])(IMPORT_TEST_LEGACY|IMPORT_TEST_FLAT)\b/g)) {
      const [options, name] = (constants.get(m[1] as string) ?? '').split('\u0000');
      out.push({ source: 'eslint-no-secrets:test', text: constants.get(name ?? '') ?? '', side: IGNORING_OPTION.test(options ?? '') ? 'left out' : side });
    }
  };
  read(body.slice(validAt, invalidAt), 'negative');
  read(body.slice(invalidAt), 'positive');
  for (const f of ['has-secret.js', 'has-secret.json', 'has-no-secret.js', 'has-no-secret.json']) {
    out.push({ source: `eslint-no-secrets:staging/${f}`, text: git(dir, 'show', `HEAD:staging/${f}`), side: f.startsWith('has-secret') ? 'positive' : 'negative' });
  }
  return out;
}

/** A Go string literal as written in a test table (`…` raw, or "…" with escapes). */
const goString = (lit: string): string => (lit.startsWith('`') ? lit.slice(1, -1) : (JSON.parse(lit) as string));

function earlybirdSnippets(dir: string): Snippet[] {
  const out: Snippet[] = [];
  for (const [file, field, want] of [
    ['pkg/scan/falsePositives_test.go', '(?:MatchValue|LineValue)', 'wantIsFP'],
    ['pkg/postprocess/skipSameKeyValue_test.go', 'lineValue', 'wantIgnore'],
    ['pkg/postprocess/validatePassword_test.go', 'testPD', 'wantIgnore'],
  ] as const) {
    const text = git(dir, 'show', `HEAD:${file}`);
    const re = new RegExp(`${field}:\\s*(\`[^\`]*\`|"(?:[^"\\\\\\n]|\\\\.)*")[\\s\\S]*?${want}:\\s*(true|false)`, 'g');
    for (const m of text.matchAll(re)) out.push({ source: `earlybird:${file.slice(file.lastIndexOf('/') + 1, -'.go'.length)}`, text: goString(m[1] as string), side: m[2] === 'false' ? 'positive' : 'negative', whole: true, orV7: true });
  }
  return out;
}

function ruffSnippets(dir: string): Snippet[] {
  const out: Snippet[] = [];
  for (const rule of ['S105', 'S106', 'S107']) {
    const fixture = git(dir, 'show', `HEAD:crates/ruff_linter/resources/test/fixtures/flake8_bandit/${rule}.py`);
    const snapshot = git(dir, 'show', `HEAD:crates/ruff_linter/src/rules/flake8_bandit/snapshots/ruff_linter__rules__flake8_bandit__tests__${rule}_${rule}.py.snap`);
    const lines = fixture.split('\n');
    const announced = new Map<number, string>();
    const noLiteral = new Set<number>();
    for (const m of snapshot.matchAll(new RegExp(`--> ${rule}\\.py:(\\d+):(\\d+)`, 'g'))) {
      const at = Number(m[1]) - 1;
      if (announced.has(at)) continue; // the leftmost finding of a line (the snapshot lists them in order)
      const rest = (lines[at] ?? '').slice(Number(m[2]) - 1);
      const literal = /^(["'])((?:(?!\1).)*)\1/.exec(rest);
      if (literal === null || literal[2] === '') noLiteral.add(at);
      else announced.set(at, literal[2] as string);
    }
    for (const at of noLiteral) if (!announced.has(at)) announced.set(at, '\u0000');
    out.push({ source: `ruff:${rule}`, text: fixture, side: 'negative', announced });
  }
  return out;
}

/** The same text, whatever its case or spacing, is counted once. */
export const sameText = (s: string): string => s.toLowerCase().replace(/\s+/g, ' ').trim();

/** Every text the named dev files hold (a benign sample's text, a secret's line or value); later extractors pass their own list. */
export function existingDevTexts(files: readonly string[] = ['dev-extra.json', 'dev-docs.json', 'dev-negatives.json', 'dev-recall.json', 'dev-credsweeper.json', 'dev-generic.json']): Set<string> {
  const texts: string[] = [];
  for (const file of files) {
    const data = JSON.parse(readFileSync(fileURLToPath(new URL(`./${file}`, import.meta.url)), 'utf8')) as { benign?: HeldoutBenign[]; secrets?: { line?: string; secret: string }[] };
    for (const b of data.benign ?? []) texts.push(b.text);
    for (const s of data.secrets ?? []) texts.push(s.line ?? s.secret);
  }
  return new Set(texts.map(sameText));
}

/** A line's vendor words, split at case changes too (`githubToken` -> `github`, `token`). */
const lineVendorWords = (line: string): string[] => vendorWords(line.replace(/([a-z0-9])([A-Z])/g, '$1 $2'));

interface Counts { snippets: number; notSamples: number; nearCopies: number; testHalfVendors: number; duplicates: number }

const SOURCES = {
  gosec: { read: gosecSnippets, url: 'https://github.com/securego/gosec', license: 'Apache-2.0', paths: 'testutils/g101_samples.go (G101 code samples and their expected issue counts)' },
  bandit: { read: banditSnippets, url: 'https://github.com/PyCQA/bandit', license: 'Apache-2.0', paths: "examples/hardcoded-passwords.py (B105-B107; each finding announced by '# Possible hardcoded password: …')" },
  devskim: { read: devskimSnippets, url: 'https://github.com/microsoft/DevSkim', license: 'MIT', paths: 'rules/default/security/privacy/secrets.json (must-match and must-not-match only)' },
  'eslint-no-secrets': { read: eslintSnippets, url: 'https://github.com/nickdeis/eslint-plugin-no-secrets', license: 'MIT', paths: 'tests/lib/rules/no-secrets.ts (valid and invalid code, not the pattern tests), staging/has-secret.*, staging/has-no-secret.*' },
  earlybird: { read: earlybirdSnippets, url: 'https://github.com/americanexpress/earlybird', license: 'Apache-2.0', paths: 'pkg/scan/falsePositives_test.go, pkg/postprocess/skipSameKeyValue_test.go, pkg/postprocess/validatePassword_test.go (one line and its expectation per case)' },
  ruff: { read: ruffSnippets, url: 'https://github.com/astral-sh/ruff', license: 'MIT', paths: 'crates/ruff_linter/resources/test/fixtures/flake8_bandit/S10{5,6,7}.py and their snapshots (the reported line and column of each finding)' },
} as const;

function main(): void {
  const dirs = new Map(process.argv.slice(2).map((a) => [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] as const));
  const nearCopy = testHalfNearCopy();
  const vendorFilter = testHalfFilter({ keepGeneric: true });
  const seen = existingDevTexts();
  const secrets: LinterSecret[] = [];
  const benign: HeldoutBenign[] = [];
  const skipped: string[] = [];
  const sources = [];
  const counts: Record<string, Counts> = {};
  for (const [name, src] of Object.entries(SOURCES)) {
    const dir = dirs.get(name);
    if (dir === undefined) throw new Error(`usage: extract-dev-linters.ts ${Object.keys(SOURCES).map((n) => `${n}=<git dir>`).join(' ')}`);
    const commit = git(dir, 'rev-parse', 'HEAD').trim();
    sources.push({ name, url: src.url, commit, license: src.license, paths: src.paths });
    const snippets = src.read(dir);
    const c: Counts = { snippets: snippets.length, notSamples: 0, nearCopies: 0, testHalfVendors: 0, duplicates: 0 };
    counts[name] = c;
    for (const s of snippets) {
      const lines = s.whole === true ? [s.text.trim()] : s.text.split('\n').map((l) => l.trim());
      lines.forEach((line, i) => {
        if (line === '' || !isCandidate(line)) {
          if (line !== '') c.notSamples += 1;
          return;
        }
        // First, before anything of it is kept or counted by content: the test half's two checks.
        if (nearCopy(line)) { c.nearCopies += 1; return; }
        if (vendorFilter(lineVendorWords(line))) { c.testHalfVendors += 1; return; }
        if (seen.has(sameText(line))) { c.duplicates += 1; return; }
        seen.add(sameText(line));
        if (s.side === 'left out') { skipped.push(`${s.source}: valid only by an option that ignores it`); return; }
        const announced = s.announced?.get(i);
        if (announced === '\u0000') { skipped.push(`${s.source}: no quoted literal at the reported column`); return; }
        if (announced !== undefined) {
          if (line.includes(announced)) secrets.push({ source: s.source, secret: announced, line });
          else skipped.push(`${s.source}: the announced value is not on the line as written`);
          return;
        }
        if (s.side === 'positive' && s.whole === true) {
          const v = likelySecret(line) ?? (s.orV7 === true ? passwordValuesV7(line)[0] : undefined);
          if (v === undefined) skipped.push(`${s.source}: no value found`);
          else if (DOC_MARKER.test(v)) skipped.push(`${s.source}: a documentation marker in the value`);
          else if (UUID.test(v) && !CREDENTIAL_KEY_BEFORE.test(line.slice(0, line.indexOf(v)))) skipped.push(`${s.source}: the value is a UUID not named by a credential key`);
          else secrets.push({ source: s.source, secret: v, line });
          return;
        }
        if (s.side === 'positive') {
          const v = literalValue(line);
          if (v !== undefined) {
            if (DOC_MARKER.test(v)) skipped.push(`${s.source}: a documentation marker in the value`);
            else secrets.push({ source: s.source, secret: v, line });
            return;
          }
        }
        if (benignByRule(line, 'v5')) benign.push({ source: s.source, text: line });
        else skipped.push(`${s.source}: ambiguous (a credential-shaped token that is neither a placeholder nor an id, rule v5)`);
      });
    }
  }
  const data = { split: 'dev (every sample; the original set keeps its split)', sources, counts, skipped, secrets, benign };
  const out = fileURLToPath(new URL('./dev-linters.json', import.meta.url));
  writeFileSync(out, `${JSON.stringify(data, null, 1)}\n`);
  const per = Object.entries(counts).map(([n, c]) => `${n}: ${c.snippets} snippets, ${c.notSamples} lines without a credential word, ${c.nearCopies} near copies of the test half and ${c.testHalfVendors} lines of its vendors dropped, ${c.duplicates} already counted`).join('; ');
  process.stdout.write(`${secrets.length} secrets, ${benign.length} benign, ${skipped.length} left out (${per}) -> ${out}\n`);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) main();
