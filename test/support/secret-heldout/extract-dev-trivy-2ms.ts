/**
 * Builds `dev-trivy-2ms.json` (issue 40, seventeenth session, helper qa-redact-13): DEV data of the held-out test
 * half's SHAPE (a scanner's test data: what it must report and what it must not) from two scanners no earlier round
 * read, each read as data from a repository snapshot (the `fetch` tool's mirror), never a rule or a pattern:
 * - Trivy's secret scanner (aquasecurity/trivy, Apache-2.0): `pkg/fanal/secret/scanner_test.go`, the table of
 *   TestSecretScanner (each case names a fixture, `inputFilePath`, and the findings it expects there: variables
 *   `wantFinding… := types.SecretFinding{…}` or findings written in the case, each with its `RuleID`, `StartLine`
 *   and `EndLine`), and the fixtures those cases name, `pkg/fanal/secret/testdata/*`;
 * - Checkmarx's 2ms (Checkmarx/2ms, Apache-2.0): each rule's test, `engine/rules/ruledefine/*_test.go`, its
 *   `truePositives` and `falsePositives` lists; only an element written as one Go string literal is read (an
 *   element built by code, `"…" + x` or a call, is counted in `builtByCode` and left out).
 *
 * SAMPLES of Trivy (by code, every line alike):
 * - POSITIVES: a fixture line inside the line range of a finding some case expects there (any case, any config:
 *   what Trivy reports under some configuration is no negative). The KIND is the finding's rule (`trivy:<RuleID>`);
 *   the value is the dev recall data's choice (`likelySecret`, extract.ts), else rule v7's value beside its word;
 *   left out when none is found or it carries a documentation marker (`DOC_MARKER`), as
 *   extract-dev-scanner-tests.ts reads a positive line;
 * - NEGATIVES: every other line of a fixture some case names, holding a credential word or a credential-shaped run
 *   (rule v2's), of up to 300 characters: no case expects it reported. The KIND is the fixture
 *   (`trivy:file:<name>`). Labelled by RULE v5 (`benignByRule`); the rest left out as ambiguous (`skipped`); rule v7 at
 *   run time (notes.ts).
 *
 * SAMPLES of 2ms: a true positive is a secret of the rule's KIND (`twoms:<rule file>`); a bare literal (no whitespace,
 * no `=` or `:`) is the secret as written, else its value is read as a Trivy positive line's; a false positive is a
 * negative of that kind, each line of it a sample (a multi-line literal is a file's lines), labelled as a Trivy
 * negative (rule v5; up to 300 characters).
 *
 * The held-out TEST half stays unseen by the two checks that own that (test-half-vendors.ts, through
 * `keepCandidates`), before anything is written or printed; a text already in another dev file is counted once.
 * SPLIT by the kind (`splitOf`): `tune` where it says dev, `check` (dev-eval.ts only counts it) where it says test.
 *
 * Run: `npx tsx test/support/secret-heldout/extract-dev-trivy-2ms.ts <trivy git dir> <2ms git dir>` (the `fetch`
 * tool's mirrors at the commits recorded in `dev-trivy-2ms.json`). Only counts are printed.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { DOC_MARKER } from './extract.js';
// A fixture line worth a sample, and its value, as extract-dev-scanner-tests.ts reads fixture lines.
import { CREDENTIAL_WORD, keepCandidates, lineValue, MAX_LINE, newKeepCounts, SHAPED_RUN, writeDevData, type Candidate } from './extract-dev-scanner-tests.js';

const DIR = 'pkg/fanal/secret';
const git = (dir: string, ...args: string[]): string => execFileSync('git', ['--git-dir', dir, ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });

interface Finding { rule: string; start: number; end: number }

/** The text from an opening `{` at `open` to its matching `}` (Go source: strings hold no unbalanced braces here). */
function braced(text: string, open: number): string {
  let depth = 0;
  for (let i = open; i < text.length; i += 1) {
    if (text[i] === '{') depth += 1;
    else if (text[i] === '}') {
      depth -= 1;
      if (depth === 0) return text.slice(open, i + 1);
    }
  }
  return text.slice(open);
}

/** The findings written in a block of Go: each `RuleID:` with the first `StartLine:` and `EndLine:` after it. */
function inlineFindings(block: string): Finding[] {
  const out: Finding[] = [];
  for (const m of block.matchAll(/RuleID:\s*"([^"]+)"[\s\S]*?StartLine:\s*(\d+),[\s\S]*?EndLine:\s*(\d+)/g)) {
    out.push({ rule: m[1] as string, start: Number(m[2]), end: Number(m[3]) });
  }
  return out;
}

/** Per fixture (its name under testdata/), the findings any case expects there. */
function expectedFindings(source: string): Map<string, Finding[]> {
  const vars = new Map<string, Finding[]>();
  for (const m of source.matchAll(/^\t(\w+) := types\.SecretFinding\{/gm)) {
    vars.set(m[1] as string, inlineFindings(braced(source, (m.index as number) + m[0].length - 1)));
  }
  const table = source.slice(source.indexOf('func TestSecretScanner'));
  const byFile = new Map<string, Finding[]>();
  for (const block of table.split(/\n\t\t\{\n\t\t\tname:/).slice(1)) {
    const file = /inputFilePath:\s*(?:filepath\.Join\("testdata",\s*"([^"]+)"\)|"testdata\/([^"]+)")/.exec(block);
    if (file === null) continue;
    const name = (file[1] ?? file[2]) as string;
    const found = [...inlineFindings(block)];
    for (const id of block.matchAll(/\b(wantFinding\w*)\b/g)) found.push(...(vars.get(id[1] as string) ?? []));
    byFile.set(name, [...(byFile.get(name) ?? []), ...found]);
  }
  return byFile;
}

function candidates(dir: string, counts: Record<string, number>): { candidates: Candidate[]; fixtures: string[] } {
  const expected = expectedFindings(git(dir, 'show', `HEAD:${DIR}/scanner_test.go`));
  const present = new Set(git(dir, 'ls-tree', '--name-only', 'HEAD', `${DIR}/testdata/`).split('\n').map((p) => p.slice(`${DIR}/testdata/`.length)));
  const out: Candidate[] = [];
  const fixtures: string[] = [];
  for (const [name, findings] of [...expected].sort(([a], [b]) => a.localeCompare(b))) {
    if (!present.has(name)) { counts.fixtureMissing = (counts.fixtureMissing ?? 0) + 1; continue; }
    fixtures.push(name);
    const lines = git(dir, 'show', `HEAD:${DIR}/testdata/${name}`).split(/\r?\n/);
    lines.forEach((raw, i) => {
      const line = raw.trim();
      if (line === '' || line.length > MAX_LINE) return;
      const hit = findings.find((f) => i + 1 >= f.start && i + 1 <= f.end);
      if (hit !== undefined) {
        const secret = lineValue(line);
        if (secret === undefined) { counts.noValue = (counts.noValue ?? 0) + 1; return; }
        out.push({ kind: `trivy:${hit.rule}`, side: 'secret', text: line, secret });
        return;
      }
      if (!(CREDENTIAL_WORD.test(line) || SHAPED_RUN.test(line))) return;
      out.push({ kind: `trivy:file:${name}`, side: 'benign', text: line });
    });
  }
  return { candidates: out, fixtures };
}

/** A Go string literal's text: `"…"` with its escapes, or a raw `` `…` ``. */
function goLiteral(text: string, at: number): { value: string; end: number } | undefined {
  if (text[at] === '`') {
    const end = text.indexOf('`', at + 1);
    return end < 0 ? undefined : { value: text.slice(at + 1, end), end: end + 1 };
  }
  const m = /"((?:[^"\\\n]|\\.)*)"/y;
  m.lastIndex = at;
  const hit = m.exec(text);
  if (hit === null) return undefined;
  try {
    return { value: JSON.parse(`"${(hit[1] as string).replace(/\\'/g, "'")}"`) as string, end: at + hit[0].length };
  } catch {
    return undefined;
  }
}

/** The elements of a Go `[]string{…}` list written as one literal each (`builtByCode` counts the others). */
function goStringList(block: string, counts: Record<string, number>): string[] {
  const out: string[] = [];
  let i = block.indexOf('{') + 1;
  let element = '';
  let literal: string | undefined;
  const close = (): void => {
    if (literal !== undefined && element.trim() === '') out.push(literal);
    else if (literal !== undefined || element.trim() !== '') counts.builtByCode = (counts.builtByCode ?? 0) + 1;
    literal = undefined;
    element = '';
  };
  while (i < block.length) {
    const c = block[i] as string;
    if (c === '/' && block[i + 1] === '/') { i = block.indexOf('\n', i); if (i < 0) break; continue; }
    if (c === '"' || c === '`') {
      const lit = goLiteral(block, i);
      if (lit === undefined) break;
      if (literal === undefined && element.trim() === '') literal = lit.value;
      else element += 'x';
      i = lit.end;
      continue;
    }
    if (c === ',' || c === '}') { close(); if (c === '}') break; i += 1; continue; }
    if (!/\s/.test(c)) element += c;
    i += 1;
  }
  return out;
}

function twoMs(dir: string, counts: Record<string, number>): Candidate[] {
  const out: Candidate[] = [];
  const files = git(dir, 'ls-tree', '-r', '--name-only', 'HEAD', 'engine/rules/ruledefine/').split('\n').filter((p) => p.endsWith('_test.go')).sort();
  for (const path of files) {
    const kind = `twoms:${(path.split('/').pop() as string).replace(/_test\.go$/, '')}`;
    const source = git(dir, 'show', `HEAD:${path}`);
    for (const m of source.matchAll(/\b(truePositives|falsePositives):\s*\[\]string\{/g)) {
      const list = goStringList(braced(source, (m.index as number) + m[0].length - 1), counts);
      for (const value of list) {
        if (m[1] === 'truePositives') {
          const secret = /^[^\s=:]+$/.test(value) ? value : lineValue(value);
          if (secret === undefined || DOC_MARKER.test(secret) || value.length > MAX_LINE) { counts.noValue = (counts.noValue ?? 0) + 1; continue; }
          out.push({ kind, side: 'secret', text: value, secret });
        } else {
          for (const raw of value.split(/\r?\n/)) {
            const line = raw.trim();
            if (line === '' || line.length > MAX_LINE) continue;
            out.push({ kind, side: 'benign', text: line });
          }
        }
      }
    }
  }
  return out;
}

function main(): void {
  const [dir, twoMsDir] = process.argv.slice(2);
  if (dir === undefined || twoMsDir === undefined) throw new Error('usage: extract-dev-trivy-2ms.ts <trivy git dir> <2ms git dir>');
  const counts = newKeepCounts();
  const trivy = candidates(dir, counts);
  const read = { candidates: [...trivy.candidates, ...twoMs(twoMsDir, counts)], fixtures: trivy.fixtures };
  const { secrets, benign, skipped } = keepCandidates(read.candidates, ['dev-extra.json', 'dev-docs.json', 'dev-negatives.json', 'dev-recall.json', 'dev-credsweeper.json', 'dev-generic.json', 'dev-linters.json', 'dev-betterleaks.json', 'dev-scanner-tests.json', 'dev-kics.json', 'dev-public-notes.json', 'dev-memory-notes.json'], counts);
  const data = {
    split: 'dev (every sample): tune and check halves by a hash of the kind (splitOf; README.md)',
    sources: [
      { name: 'trivy', url: 'https://github.com/aquasecurity/trivy', commit: git(dir, 'rev-parse', 'HEAD').trim(), license: 'Apache-2.0', paths: `${DIR}/scanner_test.go (TestSecretScanner: fixture, expected findings' rules and line ranges) and the ${read.fixtures.length} fixtures its cases name under ${DIR}/testdata/` },
      { name: '2ms', url: 'https://github.com/Checkmarx/2ms', commit: git(twoMsDir, 'rev-parse', 'HEAD').trim(), license: 'Apache-2.0', paths: 'engine/rules/ruledefine/*_test.go (truePositives, falsePositives: the elements written as one string literal)' },
    ],
    counts,
    skipped,
    secrets,
    benign,
  };
  writeDevData('dev-trivy-2ms.json', data);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) main();
