/**
 * Builds `dev-kics.json` (issue 40, fifteenth session): DEV data of the held-out test half's SHAPE (a scanner's test
 * fixtures for its secret queries, what it must report and what it must not) from a scanner no earlier round read:
 * KICS (Checkmarx/kics, Apache-2.0), its `passwords_and_secrets` query's test fixtures, read as data, never a rule.
 * Its repository snapshot is larger than the `fetch` tool brings, so the fixtures were read one by one with the
 * search index's `read_file` and copied verbatim into `kics-snapshot.json` (each with the commit the index stores
 * it at); this file reads only that snapshot.
 *
 * SAMPLES (by code, every line alike):
 * - a fixture's caption (a comment line naming a query and `positive-test`, `negative-test`, `allow-rule-test` or
 *   `Negative Test`) is the fixture's own description, not a sample;
 * - POSITIVES: KICS marks what a fixture must report: a header `# "<query>" - <id> … positive-test - #N` and the
 *   line carrying `#N` at its end (`… #1 & #2`), or the line after a comment `#N:`; a fixture with one
 *   `positive-test` header and no number marks its lines `# positiveN`. The KIND is the query's name; the value
 *   is the dev recall data's choice (`likelySecret`, extract.ts), else rule v7's value beside its word, else the
 *   URL's password (rule v7's URL form); left out when none is found or it carries a documentation marker
 *   (`DOC_MARKER`), as extract-dev-scanner-tests.ts does. A positive fixture with no header naming its query is
 *   not read (none of the snapshot's);
 * - NEGATIVES: every other line that holds a credential word or a credential-shaped run (rule v2's), of up to
 *   300 characters: KICS expects none of the negative fixtures' lines reported, and no unmarked line of a
 *   positive fixture. The KIND is the fixture (`kics:file:<name>`), as a fixture line's is in
 *   extract-dev-scanner-tests.ts. Labelled by RULE v5 (`benignByRule`); the rest left out as ambiguous
 *   (`skipped`); rule v7 at run time (notes.ts).
 *
 * The held-out TEST half stays unseen, by the two checks that own that (test-half-vendors.ts), before anything is
 * written or printed: a kind whose vendor words meet a test-half kind's, or that has none (the test half has a
 * generic kind: KICS's `Generic Password`, `Password in URL`), is dropped; a candidate sharing a 12-character piece
 * with a test-half sample is dropped. A text already in another dev file is counted once.
 *
 * SPLIT by the kind, as the original set is (`splitOf`): `tune` where it says dev, `check` (dev-eval.ts only counts
 * it) where it says test.
 *
 * Run: `npx tsx test/support/secret-heldout/extract-dev-kics.ts`. Only counts are printed.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DOC_MARKER, likelySecret } from './extract.js';
import { keepCandidates, newKeepCounts, type Candidate, type DevHalf } from './extract-dev-scanner-tests.js';
import { passwordValuesV7 } from './rule-v7.js';

/** `pass`: 1, read and measured first; 2, read after the first pass's rules were written (a check that they generalise). */
interface Snapshot { source: string; url: string; license: string; dir: string; read: string; files: { path: string; commit: string; text: string; pass: number }[] }

/** A fixture line worth a sample, as extract-dev-scanner-tests.ts reads fixture lines. */
const CREDENTIAL_WORD = /pass|pwd|secret|token|key|cred|auth|bearer/i;
const SHAPED_RUN = /(?=[A-Za-z0-9+/_.~=-]*\d)(?=[A-Za-z0-9+/_.~=-]*[A-Za-z])[A-Za-z0-9+/_.~=-]{16,}/;
const MAX_LINE = 300;

/** A fixture's caption: a comment naming the test it is (KICS's own words). */
const CAPTION = /^\s*(?:#|\/\/).*(?:positive-test|negative-test|allow-rule-test|Negative Test)/;
/** A header naming a query a fixture must report: the query, then its number when the fixture has several. */
const POSITIVE_HEADER = /^\s*#\s*"([^"]+)"\s*-\s*[0-9a-f-]{36}\s+positive-test(?:\s*-\s*#(\d+))?/;
/** The numbers a line is marked with at its end (`… #1`, `… #1 & #2`), or a comment line of them before the line (`#1 & #2:`). */
const TRAILING_MARKS = /#(\d+)(?:\s*&\s*#(\d+))*\s*$/;
const MARK_LINE = /^\s*#(\d+)(?:\s*&\s*#\d+)*\s*:\s*$/;
const POSITIVE_N = /#\s*positive\d+\s*$/;

/** The value of a positive line, as extract-dev-scanner-tests.ts reads one (its `lineValue`), and a URL's password. */
function lineValue(line: string): string | undefined {
  const url = /[a-z][a-z0-9+.-]*:\/\/[^\s:/@"']+:([^\s/@"']+)@/i.exec(line)?.[1];
  const v = likelySecret(line) ?? passwordValuesV7(line)[0] ?? url;
  return v === undefined || v === '' || DOC_MARKER.test(v) ? undefined : v;
}

function candidates(snapshot: Snapshot, counts: Record<string, number>): Candidate[] {
  const out: Candidate[] = [];
  for (const f of snapshot.files) {
    const lines = f.text.split('\n');
    const headers = new Map<string, string>();
    let single: string | undefined;
    for (const l of lines) {
      const h = POSITIVE_HEADER.exec(l);
      if (h === null) continue;
      if (h[2] === undefined) single = h[1];
      else headers.set(h[2], h[1] as string);
    }
    const positive = f.path.startsWith('positive');
    let pendingMark: string | undefined;
    for (const raw of lines) {
      const line = raw.trim();
      if (line === '') continue;
      const mark = MARK_LINE.exec(line);
      if (mark !== null) { pendingMark = mark[1]; continue; }
      if (CAPTION.test(line)) continue;
      const trailing = TRAILING_MARKS.exec(line);
      const numbers = trailing === null ? [] : [...line.slice(trailing.index).matchAll(/#(\d+)/g)].map((m) => m[1] as string);
      if (pendingMark !== undefined) numbers.push(pendingMark);
      pendingMark = undefined;
      const kind = positive ? (numbers.map((n) => headers.get(n)).find((k) => k !== undefined) ?? (single !== undefined && POSITIVE_N.test(line) ? single : undefined)) : undefined;
      if (kind !== undefined) {
        const text = line.replace(POSITIVE_N, '').replace(TRAILING_MARKS, '').trim();
        const secret = lineValue(text);
        if (secret === undefined) { counts.noValue = (counts.noValue ?? 0) + 1; continue; }
        out.push({ kind: `kics:${kind}`, side: 'secret', text, secret });
        continue;
      }
      if (line.length > MAX_LINE || !(CREDENTIAL_WORD.test(line) || SHAPED_RUN.test(line))) continue;
      out.push({ kind: `kics:file:${f.path}`, side: 'benign', text: line });
    }
  }
  return out;
}

function main(): void {
  const snapshot = JSON.parse(readFileSync(fileURLToPath(new URL('./kics-snapshot.json', import.meta.url)), 'utf8')) as Snapshot;
  const counts = newKeepCounts();
  const { secrets, benign, skipped } = keepCandidates(candidates(snapshot, counts), ['dev-extra.json', 'dev-docs.json', 'dev-negatives.json', 'dev-recall.json', 'dev-credsweeper.json', 'dev-generic.json', 'dev-linters.json', 'dev-betterleaks.json', 'dev-scanner-tests.json'], counts);
  const data = {
    split: 'dev (every sample): tune and check halves by a hash of the kind (splitOf; README.md)',
    sources: [{ name: 'kics', url: snapshot.url, license: snapshot.license, paths: `${snapshot.dir} (kics-snapshot.json: ${snapshot.files.length} fixtures, each at its own commit)` }],
    counts,
    skipped,
    secrets,
    benign,
  };
  const out = fileURLToPath(new URL('./dev-kics.json', import.meta.url));
  writeFileSync(out, `${JSON.stringify(data, null, 1)}\n`);
  const n = (xs: { half: DevHalf }[], h: DevHalf): number => xs.filter((x) => x.half === h).length;
  const kinds = (h: DevHalf): number => new Set([...secrets, ...benign].filter((x) => x.half === h).map((x) => x.source)).size;
  process.stdout.write(`${secrets.length} secrets (tune ${n(secrets, 'tune')}, check ${n(secrets, 'check')}), ${benign.length} benign (tune ${n(benign, 'tune')}, check ${n(benign, 'check')}); kinds tune ${kinds('tune')}, check ${kinds('check')}; ${JSON.stringify(counts)} -> ${out}\n`);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) main();
