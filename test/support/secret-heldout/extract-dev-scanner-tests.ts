/**
 * Builds `dev-scanner-tests.json` (issue 40, fourteenth session): DEV data of the held-out test half's own
 * SHAPE (a scanner's test data for one kind of secret, its positives and its negatives) from two scanners
 * no earlier round read, each read as data from a repository snapshot (the `fetch` tool's mirror), never a
 * pattern:
 * - octarinesec/secret-detector (Apache-2.0): every detector's table test
 *   (`pkg/detectors/**\/*_detector_test.go`), one case per `{"name", input, expectDetection}` row; the KIND
 *   is the detector (its file's name: `slack`, `aws-client-id`, `keyword`);
 * - advanced-security/secret-scanning-custom-patterns (MIT, GitHub's custom patterns for secret scanning):
 *   every pattern's own test (`test: data`, with `start_offset`/`end_offset`), the ranges its `expected`
 *   list names in the fixture files beside it, and the other lines of those fixture files; the KIND is the
 *   pattern's `type` (a fixture line outside every expected range: its file, `file:<dir>/<name>`).
 *   `pii/` is not read (card numbers and IBANs are not credentials), nor the patterns whose match is an
 *   address or an id and not a secret (NOT_SECRET below, each with its reason).
 *
 * LABELLING (the existing rules, no new one):
 * - positives: what the scanner's own test expects reported. A bare value (no whitespace, no `=`) is the
 *   secret as written; in a line, the value is the scanner's range when the test gives one (custom
 *   patterns' offsets), else the dev recall data's choice (`likelySecret`, extract.ts), else the value rule
 *   v7 reads beside its word (`passwordValuesV7`, the first), as the linters' earlybird step does; left out
 *   when none is found or it carries a documentation marker (`DOC_MARKER`, issue 29's placeholders);
 * - negatives: what the scanner's test expects NOT reported, and fixture lines outside every expected
 *   range that hold a credential word or a credential-shaped run: labelled by RULE v5 (`benignByRule`),
 *   the rest left out as ambiguous (counted in `skipped`); rule v7 is applied at run time (notes.ts).
 *
 * The held-out TEST half stays unseen, by the two checks that own that (test-half-vendors.ts), before
 * anything is written or printed: a kind whose vendor words meet a test-half kind's, or that has none
 * (the test half has a generic kind), is dropped; a candidate sharing a 12-character piece with a
 * test-half sample is dropped. A text already in another dev file, or read twice here, is counted once.
 *
 * SPLIT by the kind, as the original set is (`splitOf`, a hash of the kind's name): `tune` (may be looked at
 * while changing rules) where it says dev, `check` (dev-eval.ts only counts it, never shows a line) where it
 * says test. So the check half holds kinds the tuned half never saw, as the test half does.
 *
 * Run: `npx tsx test/support/secret-heldout/extract-dev-scanner-tests.ts <secret-detector git dir> <custom-patterns git dir>`
 * (the `fetch` tool's mirrors at the commits recorded in `dev-scanner-tests.json`). Only counts are printed.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as jsYamlModule from 'js-yaml';
import { benignByRule, DOC_MARKER, likelySecret, type HeldoutBenign, type HeldoutSecret } from './extract.js';
import { existingDevTexts, sameText } from './extract-dev-linters.js';
import { splitOf } from './notes.js';
import { passwordValuesV7 } from './rule-v7.js';
import { testHalfFilter, testHalfNearCopy, vendorWords } from './test-half-vendors.js';

const jsYaml = ((jsYamlModule as unknown as { default?: typeof jsYamlModule }).default ?? jsYamlModule) as typeof jsYamlModule;

export type DevHalf = 'tune' | 'check';
export interface ScannerTestSecret extends HeldoutSecret { half: DevHalf }
export interface ScannerTestBenign extends HeldoutBenign { half: DevHalf }

const git = (dir: string, ...args: string[]): string => execFileSync('git', ['--git-dir', dir, ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });
const gitBytes = (dir: string, path: string): Buffer => execFileSync('git', ['--git-dir', dir, 'show', `HEAD:${path}`], { maxBuffer: 64 << 20 });
const halfOf = (kind: string): DevHalf => (splitOf(kind) === 'dev' ? 'tune' : 'check');

/** Custom patterns whose match is not a credential: the redaction keeps such text on purpose (issue 29's benign ids and addresses). */
const NOT_SECRET: Record<string, string> = {
  hardcoded_internal_emails: 'an e-mail address',
  hardcoded_internal_urls: 'a URL without credentials',
  any_ipv4_addresses: 'an IP address',
  ghcr_typos: 'a misspelt registry host',
  uuids: 'a UUID no credential word names',
  github_actions_sha_checker: 'a pinned commit SHA',
  ssh_public_key: 'a public key',
  azure_sql_connection_string: 'a database host name',
};

/** A fixture line worth a sample: a credential word, or a credential-shaped run (rule v2's), as the linters' extractor reads lines. */
export const CREDENTIAL_WORD = /pass|pwd|secret|token|key|cred|auth|bearer/i;
export const SHAPED_RUN = /(?=[A-Za-z0-9+/_.~=-]*\d)(?=[A-Za-z0-9+/_.~=-]*[A-Za-z])[A-Za-z0-9+/_.~=-]{16,}/;
export const MAX_LINE = 300;

/** The value of a positive line (see LABELLING), or undefined. */
export function lineValue(line: string): string | undefined {
  const v = likelySecret(line) ?? passwordValuesV7(line)[0];
  return v === undefined || v === '' || DOC_MARKER.test(v) ? undefined : v;
}

/** A Go string literal (raw or interpreted) as its text, or undefined when it is not one JSON can read. */
function goString(lit: string): string | undefined {
  if (lit.startsWith('`')) return lit.slice(1, -1);
  try {
    return JSON.parse(lit) as string;
  } catch {
    return undefined;
  }
}

const GO_CASE = /^\s*\{\s*("(?:[^"\\]|\\.)*"|`[^`]*`)\s*,\s*("(?:[^"\\]|\\.)*"|`[^`]*`)\s*,\s*(true|false)\s*\},?\s*$/;

export interface Candidate { kind: string; side: 'secret' | 'benign'; text: string; secret?: string }

/** secret-detector's table tests, one candidate per row. */
function secretDetector(dir: string, counts: Record<string, number>): Candidate[] {
  const out: Candidate[] = [];
  const files = git(dir, 'ls-tree', '-r', '--name-only', 'HEAD', 'pkg/detectors/').split('\n').filter((f) => f.endsWith('_detector_test.go'));
  for (const file of files) {
    const kind = `secret-detector:${(file.split('/').pop() as string).replace(/_detector_test\.go$/, '').replace(/_/g, '-')}`;
    for (const row of git(dir, 'show', `HEAD:${file}`).split('\n')) {
      const m = GO_CASE.exec(row);
      if (m === null) continue;
      const input = goString(m[2] as string);
      if (input === undefined) { counts.unreadable = (counts.unreadable ?? 0) + 1; continue; }
      if (input.trim() === '') continue;
      if (m[3] === 'false') { out.push({ kind, side: 'benign', text: input }); continue; }
      const bare = !/[\s=]/.test(input);
      const secret = bare ? input : lineValue(input);
      if (secret === undefined || DOC_MARKER.test(secret)) { counts.noValue = (counts.noValue ?? 0) + 1; continue; }
      out.push({ kind, side: 'secret', text: input, secret });
    }
  }
  return out;
}

interface CustomPattern { name?: string; type?: string; test?: { data?: string; start_offset?: number; end_offset?: number }; expected?: { name: string; start_offset: number; end_offset: number }[] }

/** The bytes [start, end) of a text, as the custom patterns count offsets. */
const bytesOf = (b: Buffer, start: number, end: number): string => b.subarray(start, end).toString('utf8');

/** GitHub's custom patterns: each pattern's test and expected ranges (positives), and the other fixture lines (negatives). */
function customPatterns(dir: string, counts: Record<string, number>): Candidate[] {
  const out: Candidate[] = [];
  const all = git(dir, 'ls-tree', '-r', '--name-only', 'HEAD').split('\n').filter((f) => f !== '');
  const patternFiles = all.filter((f) => f.endsWith('/patterns.yml') && !f.startsWith('pii/'));
  for (const pf of patternFiles) {
    const base = pf.slice(0, pf.lastIndexOf('/') + 1);
    const doc = jsYaml.load(git(dir, 'show', `HEAD:${pf}`)) as { patterns?: CustomPattern[] };
    const covered = new Map<string, [number, number][]>();
    for (const p of doc.patterns ?? []) {
      for (const e of p.expected ?? []) covered.set(e.name, [...(covered.get(e.name) ?? []), [e.start_offset, e.end_offset]]);
      if (p.type === undefined || p.type in NOT_SECRET) { counts.notSecretKinds = (counts.notSecretKinds ?? 0) + 1; continue; }
      const kind = `custom-patterns:${p.type}`;
      const data = p.test?.data;
      if (typeof data === 'string' && data.trim() !== '') {
        const b = Buffer.from(data, 'utf8');
        const whole = data.replace(/\n+$/, '');
        const hasRange = p.test?.start_offset !== undefined || p.test?.end_offset !== undefined;
        const value = hasRange ? bytesOf(b, p.test?.start_offset ?? 0, p.test?.end_offset ?? b.length).replace(/\n+$/, '') : /[\s=]/.test(whole) ? lineValue(whole) : whole;
        if (value !== undefined && value !== '' && !DOC_MARKER.test(value)) out.push({ kind, side: 'secret', text: whole, secret: value });
        else counts.noValue = (counts.noValue ?? 0) + 1;
      }
      for (const e of p.expected ?? []) {
        const path = `${base}${e.name}`;
        if (!all.includes(path)) { counts.missingFixture = (counts.missingFixture ?? 0) + 1; continue; }
        const b = gitBytes(dir, path);
        const value = bytesOf(b, e.start_offset, e.end_offset);
        const lineStart = b.lastIndexOf(10, e.start_offset - 1) + 1;
        const nl = b.indexOf(10, e.end_offset);
        const line = bytesOf(b, lineStart, nl < 0 ? b.length : nl).trim();
        if (value.trim() === '' || DOC_MARKER.test(value)) { counts.noValue = (counts.noValue ?? 0) + 1; continue; }
        out.push({ kind, side: 'secret', text: line.length <= MAX_LINE || value.includes('\n') ? line : value, secret: value });
      }
    }
    // The fixture files beside the patterns: lines outside every expected range are negatives of their file.
    const fixtures = all.filter((f) => f.startsWith(base) && !f.slice(base.length).includes('/') && !/(?:patterns\.yml|README\.md|\.html|\.keystore)$/.test(f));
    for (const f of fixtures) {
      const b = gitBytes(dir, f);
      if (b.includes(0)) continue;
      const ranges = covered.get(f.slice(base.length)) ?? [];
      let at = 0;
      for (const raw of b.toString('utf8').split('\n')) {
        const start = at;
        const end = at + Buffer.byteLength(raw, 'utf8');
        at = end + 1;
        const line = raw.trim();
        if (line === '' || line.length > MAX_LINE || !(CREDENTIAL_WORD.test(line) || SHAPED_RUN.test(line))) continue;
        if (ranges.some(([s, e]) => s < end && e > start)) continue;
        out.push({ kind: `custom-patterns:file:${f}`, side: 'benign', text: line });
      }
    }
  }
  return out;
}

/** What every scanner-tests extractor counts as it keeps candidates (and its readers add their own counts to). */
export type KeepCounts = Record<string, number> & { kindsDropped: number; samplesOfDroppedKinds: number; nearCopies: number; duplicates: number; notBenignByV5: number };
export const newKeepCounts = (): KeepCounts => ({ kindsDropped: 0, samplesOfDroppedKinds: 0, nearCopies: 0, duplicates: 0, notBenignByV5: 0 });

/**
 * The one owner of what a scanner's test candidates become (this file's LABELLING and SPLIT, shared with
 * extract-dev-kics.ts): the test half's two checks first (a kind of a test-half vendor or none, a near copy), then
 * texts already in the dev files `seenFiles` or read twice, then positives kept as read and negatives labelled by
 * rule v5, each in the half its kind hashes to. A kind is `<scanner>:<id>` or `<scanner>:file:<path>`.
 */
export function keepCandidates(candidates: readonly Candidate[], seenFiles: readonly string[], counts: KeepCounts): { secrets: ScannerTestSecret[]; benign: ScannerTestBenign[]; skipped: string[] } {
  const drops = testHalfFilter();
  const nearCopy = testHalfNearCopy();
  const seen = existingDevTexts(seenFiles);
  const secrets: ScannerTestSecret[] = [];
  const benign: ScannerTestBenign[] = [];
  const skipped: string[] = [];
  const droppedKinds = new Set<string>();
  for (const c of candidates) {
    const id = c.kind.replace(/^[a-z-]+:(?:file:)?/, '');
    if (drops(vendorWords(id.replace(/\.[a-z]+$/, '')))) { droppedKinds.add(c.kind); counts.samplesOfDroppedKinds += 1; continue; }
    // Before anything of it is kept or counted by content: a near copy of the test half is dropped.
    if (nearCopy(c.text) || (c.secret !== undefined && nearCopy(c.secret))) { counts.nearCopies += 1; continue; }
    const key = sameText(c.side === 'secret' ? `${c.text}\u0000${c.secret ?? ''}` : c.text);
    if (seen.has(sameText(c.text)) || seen.has(key)) { counts.duplicates += 1; continue; }
    seen.add(key);
    const half = halfOf(c.kind);
    if (c.side === 'secret') {
      const s = c.secret as string;
      secrets.push(c.text === s ? { source: c.kind, secret: s, half } : { source: c.kind, secret: s, line: c.text, half });
    } else if (benignByRule(c.text, 'v5')) benign.push({ source: c.kind, text: c.text, half });
    else {
      counts.notBenignByV5 += 1;
      skipped.push(`${c.kind}: ambiguous negative (a credential-shaped token that is neither a placeholder nor an id under rule v5)`);
    }
  }
  counts.kindsDropped = droppedKinds.size;
  return { secrets, benign, skipped };
}

function main(): void {
  const [detectorDir, patternsDir] = process.argv.slice(2);
  if (detectorDir === undefined || patternsDir === undefined) throw new Error('usage: extract-dev-scanner-tests.ts <secret-detector git dir> <custom-patterns git dir>');
  const counts = newKeepCounts();
  const candidates = [...secretDetector(detectorDir, counts), ...customPatterns(patternsDir, counts)];
  const { secrets, benign, skipped } = keepCandidates(candidates, ['dev-extra.json', 'dev-docs.json', 'dev-negatives.json', 'dev-recall.json', 'dev-credsweeper.json', 'dev-generic.json', 'dev-linters.json', 'dev-betterleaks.json'], counts);
  const commit = (dir: string): string => git(dir, 'rev-parse', 'HEAD').trim();
  const data = {
    split: 'dev (every sample): tune and check halves by a hash of the kind (splitOf; README.md)',
    sources: [
      { name: 'secret-detector', url: 'https://github.com/octarinesec/secret-detector', commit: commit(detectorDir), license: 'Apache-2.0', paths: 'pkg/detectors/**/*_detector_test.go (table tests: input, expected detection)' },
      { name: 'custom-patterns', url: 'https://github.com/advanced-security/secret-scanning-custom-patterns', commit: commit(patternsDir), license: 'MIT', paths: '*/patterns.yml (test data and expected ranges) and the fixture files beside them; pii/ not read' },
    ],
    counts,
    skipped,
    secrets,
    benign,
  };
  writeDevData('dev-scanner-tests.json', data);
}

/** Writes a dev data file beside this one (its samples' halves counted on stdout), as both dev extractors do. */
export function writeDevData(fileName: string, data: { counts: unknown; secrets: readonly { half: DevHalf; source: string }[]; benign: readonly { half: DevHalf; source: string }[] }): void {
  const { counts, secrets, benign } = data;
  const out = fileURLToPath(new URL(`./${fileName}`, import.meta.url));
  writeFileSync(out, `${JSON.stringify(data, null, 1)}\n`);
  const n = (xs: readonly { half: DevHalf }[], h: DevHalf): number => xs.filter((x) => x.half === h).length;
  const kinds = (h: DevHalf): number => new Set([...secrets, ...benign].filter((x) => x.half === h).map((x) => x.source)).size;
  process.stdout.write(`${secrets.length} secrets (tune ${n(secrets, 'tune')}, check ${n(secrets, 'check')}), ${benign.length} benign (tune ${n(benign, 'tune')}, check ${n(benign, 'check')}); kinds tune ${kinds('tune')}, check ${kinds('check')}; ${JSON.stringify(counts)} -> ${out}\n`);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) main();
