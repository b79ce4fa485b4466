/**
 * Builds `dev-generic.json`: DEV data of the kind the held-out test half's generic kind is (a scanner's
 * generic rule: a password, secret or API key named by no vendor), which no earlier dev round held,
 * since every earlier scanner round dropped the rules without a vendor word. From public sources
 * nobody here wrote, read as data from repository snapshots (never a pattern):
 * - Kingfisher's (Apache-2.0, mongodb/kingfisher) rules without a vendor word (`data/rules/*.yml`);
 * - Titus's (Apache-2.0, praetorian-inc/titus, Nosey Parker's successor) rules without a vendor word
 *   (`pkg/rule/rules/*.yml`).
 * Only a rule's id, its name and its two example lists are read: its `examples` (texts it is tested to
 * match) are secrets, the value chosen by the same code as for the dev recall data (`likelySecret`,
 * the same samples left out); its `negative_examples` are labelled by rule v5 like every dev source
 * (benign, or left out), and rule v7 is applied at run time (notes.ts).
 *
 * The held-out TEST half stays unseen. The rules come through scanner-rules.ts (`genericOnly`), and
 * scanners copy one another's examples, gitleaks' generic rule's among them, which the test half's
 * generic kind holds. So, before anything is written or printed, every candidate text sharing a
 * 12-character piece (lower-cased, whitespace collapsed) with a test-half sample is dropped by code
 * (`testHalfNearCopy` in test-half-vendors.ts, the one owner of what keeps the test half unseen);
 * then a text already in another dev file, or already read here (Titus copies Kingfisher's generic
 * rules), is counted once. Only counts are printed. Every sample is dev, on rows of its own.
 *
 * Run: `npx tsx test/support/secret-heldout/extract-dev-generic.ts <kingfisher git dir> <titus git dir>`
 * (the `fetch` tool's mirrors at the commits recorded in `dev-generic.json`).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { benignByRule, CREDENTIAL_KEY_BEFORE, DOC_MARKER, likelySecret, UUID, type HeldoutBenign, type HeldoutSecret } from './extract.js';
import { scannerDevRules } from './scanner-rules.js';
import { testHalfNearCopy } from './test-half-vendors.js';

/** The same text, whatever its case or spacing, is counted once. */
const sameText = (s: string): string => s.toLowerCase().replace(/\s+/g, ' ').trim();

/** Every text the other dev files hold (a sample's text, or a secret's line and value). */
function existingDevTexts(): Set<string> {
  const texts: string[] = [];
  for (const file of ['dev-extra.json', 'dev-docs.json', 'dev-negatives.json', 'dev-recall.json', 'dev-credsweeper.json']) {
    const data = JSON.parse(readFileSync(fileURLToPath(new URL(`./${file}`, import.meta.url)), 'utf8')) as { benign?: HeldoutBenign[]; secrets?: HeldoutSecret[] };
    for (const b of data.benign ?? []) texts.push(b.text);
    for (const s of data.secrets ?? []) texts.push(s.line ?? s.secret);
  }
  return new Set(texts.map(sameText));
}

/** Why an example yields no secret sample (the dev recall data's reasons), or its value. */
function exampleValue(line: string): { secret: string } | { skip: string } {
  const secret = likelySecret(line);
  if (secret === undefined) return { skip: 'no value found' };
  if (DOC_MARKER.test(secret)) return { skip: 'a documentation marker in the value' };
  if (UUID.test(secret) && !CREDENTIAL_KEY_BEFORE.test(line.slice(0, line.indexOf(secret)))) return { skip: 'the value is a UUID not named by a credential key' };
  return { secret };
}

interface Counts { rules: number; vendorRulesNotRead: number; nearCopies: number; duplicates: number }

function main(): void {
  const [kingfisherDir, titusDir] = process.argv.slice(2);
  if (kingfisherDir === undefined || titusDir === undefined) throw new Error('usage: extract-dev-generic.ts <kingfisher git dir> <titus git dir>');
  const nearCopy = testHalfNearCopy();
  const seen = existingDevTexts();
  const secrets: HeldoutSecret[] = [];
  const benign: HeldoutBenign[] = [];
  const skipped: string[] = [];
  const sources = [];
  const counts: Record<string, Counts> = {};
  for (const [name, dir, rulesDir, url] of [['kingfisher', kingfisherDir, 'data/rules/', 'https://github.com/mongodb/kingfisher'], ['titus', titusDir, 'pkg/rule/rules/', 'https://github.com/praetorian-inc/titus']] as const) {
    const { rules, droppedRules, commit } = scannerDevRules(dir, rulesDir, { genericOnly: true });
    const c: Counts = { rules: rules.length, vendorRulesNotRead: droppedRules, nearCopies: 0, duplicates: 0 };
    counts[name] = c;
    sources.push({ name, url, commit, license: 'Apache-2.0', paths: `${rulesDir}*.yml (rules without a vendor word: examples and negative_examples)` });
    for (const rule of rules) {
      for (const [list, side] of [[rule.examples, 'secret'], [rule.negative_examples, 'benign']] as const) {
        for (const ex of Array.isArray(list) ? list : []) {
          if (typeof ex !== 'string' || ex.trim() === '') continue;
          const text = ex.replace(/\n+$/, '');
          // First, before anything of it is kept or counted by content: a near copy of the test half is dropped.
          if (nearCopy(text)) { c.nearCopies += 1; continue; }
          if (seen.has(sameText(text))) { c.duplicates += 1; continue; }
          seen.add(sameText(text));
          if (side === 'secret') {
            const v = exampleValue(text);
            if ('skip' in v) skipped.push(`${name}:${rule.id}: ${v.skip}`);
            else secrets.push({ source: `${name}:${rule.id}`, secret: v.secret, line: text });
          } else if (benignByRule(text, 'v5')) benign.push({ source: `${name}-negative:${rule.id}`, text });
          else skipped.push(`${name}-negative:${rule.id}: ambiguous (a credential-shaped token that is neither a placeholder nor an id, rule v5)`);
        }
      }
    }
  }
  const data = { split: 'dev (every sample; the original set keeps its split)', sources, counts, skipped, secrets, benign };
  const out = fileURLToPath(new URL('./dev-generic.json', import.meta.url));
  writeFileSync(out, `${JSON.stringify(data, null, 1)}\n`);
  const per = Object.entries(counts).map(([n, c]) => `${n}: ${c.rules} generic rules, ${c.nearCopies} near copies of the test half dropped, ${c.duplicates} already counted`).join('; ');
  process.stdout.write(`${secrets.length} secrets, ${benign.length} benign, ${skipped.length} left out (${per}) -> ${out}\n`);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) main();
