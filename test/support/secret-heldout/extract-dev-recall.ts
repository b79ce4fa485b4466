/**
 * Builds `dev-recall.json`: MORE true positives for the DEV half of the held-out set (issue 40), from
 * a public source nobody here wrote, read as data from a repository snapshot (never a pattern):
 * - Kingfisher's (Apache-2.0, mongodb/kingfisher) `examples`, the texts each of its rules is tested
 *   to match (data/rules/*.yml; only that list, the rule's id and its name are read). Each example
 *   is one sample, pasted as written (some span lines). The value that must not survive is chosen
 *   by the same code as for gitleaks' whole-line samples (`likelySecret` in extract.ts); an example
 *   whose value carries a documentation marker (`DOC_MARKER`), where no value is found, or where the
 *   value chosen is a UUID not named by a credential key (labelling rule v5's reading) is left out.
 *
 * The held-out TEST half stays unseen: every rule whose vendor is a kind of the original set's test
 * half (data.json and vendor-format.ts, by `splitOf`) is dropped before anything is written or
 * printed, and so is every rule without a vendor word (Kingfisher's generic rules) when the test
 * half has a generic kind (test-half-vendors.ts, the filter's one owner, through scanner-rules.ts,
 * shared with extract-dev-negatives.ts). Only counts are printed. Every sample here is dev, reported on
 * rows of its own (`held-out dev recall`), never mixed into the original set's rows.
 *
 * Run: `npx tsx test/support/secret-heldout/extract-dev-recall.ts <kingfisher git dir>` (the `fetch`
 * tool's mirror at the commit recorded in `dev-recall.json`).
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CREDENTIAL_KEY_BEFORE, DOC_MARKER, likelySecret, UUID, type HeldoutSecret } from './extract.js';
import { scannerDevRules } from './scanner-rules.js';

function main(): void {
  const [dir] = process.argv.slice(2);
  if (dir === undefined) throw new Error('usage: extract-dev-recall.ts <kingfisher git dir>');
  // The test half's vendors are dropped (scanner-rules.ts, by test-half-vendors.ts, the filter's one owner) before any rule reaches here.
  const { rules, droppedRules, commit } = scannerDevRules(dir, 'data/rules/');
  const secrets: HeldoutSecret[] = [];
  const skipped: string[] = [];
  for (const rule of rules) {
    if (!Array.isArray(rule.examples)) continue;
    for (const ex of rule.examples) {
      if (typeof ex !== 'string') continue;
      const line = ex.replace(/\n+$/, '');
      const secret = likelySecret(line);
      if (secret === undefined) { skipped.push(`${rule.id}: no value found`); continue; }
      if (DOC_MARKER.test(secret)) { skipped.push(`${rule.id}: a documentation marker in the value`); continue; }
      if (UUID.test(secret) && !CREDENTIAL_KEY_BEFORE.test(line.slice(0, line.indexOf(secret)))) { skipped.push(`${rule.id}: the value is a UUID not named by a credential key`); continue; }
      secrets.push({ source: `kingfisher:${rule.id}`, secret, line });
    }
  }
  const data = {
    sources: [{ name: 'kingfisher', url: 'https://github.com/mongodb/kingfisher', commit, license: 'Apache-2.0', paths: 'data/rules/*.yml (examples)' }],
    droppedRules,
    skipped,
    secrets,
  };
  const out = fileURLToPath(new URL('./dev-recall.json', import.meta.url));
  writeFileSync(out, `${JSON.stringify(data, null, 1)}\n`);
  process.stdout.write(`${secrets.length} secrets, ${skipped.length} examples left out, ${droppedRules} rules dropped (a test-half vendor, or generic) -> ${out}\n`);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) main();
