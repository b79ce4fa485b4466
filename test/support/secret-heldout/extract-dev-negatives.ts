/**
 * Builds `dev-negatives.json`: MORE benign samples for the DEV half of the held-out set (issue 40),
 * of the kind the test half's benign notes are (a scanner's own negative samples for one vendor's
 * rule), from a public source nobody here wrote, read as data from a repository snapshot (never a
 * pattern):
 * - Kingfisher's (Apache-2.0, mongodb/kingfisher) `negative_examples`, the texts a rule of
 *   data/rules/*.yml is tested NOT to match (only that list and the rule's id are read). Each
 *   example is one sample, as written (some span lines).
 *
 * The held-out TEST half stays unseen: the rules come from kingfisher-rules.ts, the same filter as
 * the dev recall data (every rule of a vendor of the test half, and every generic rule, dropped
 * before anything is written or printed). Only counts are printed.
 *
 * A sample is labelled by the SAME rule as the other dev sources (labelling rule v5, README.md,
 * `benignByRule` in extract.ts): benign when every credential-shaped token in it is a placeholder
 * or an identifier; the rest (a negative may be a real-looking key that only that vendor's rule
 * rejects, for its prefix or length) is left out, counted in `skipped`. Rule v7 is applied at run
 * time (notes.ts), as for the original set. Every sample is dev, on bench rows of its own.
 *
 * Run: `npx tsx test/support/secret-heldout/extract-dev-negatives.ts <kingfisher git dir>` (the
 * `fetch` tool's mirror at the commit recorded in `dev-negatives.json`).
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { benignByRule, type HeldoutBenign } from './extract.js';
import { kingfisherDevRules } from './kingfisher-rules.js';

function main(): void {
  const [dir] = process.argv.slice(2);
  if (dir === undefined) throw new Error('usage: extract-dev-negatives.ts <kingfisher git dir>');
  const { rules, droppedRules, commit } = kingfisherDevRules(dir);
  const benign: HeldoutBenign[] = [];
  const skipped: string[] = [];
  let withNegatives = 0;
  for (const rule of rules) {
    if (!Array.isArray(rule.negative_examples)) continue;
    withNegatives += 1;
    for (const ex of rule.negative_examples) {
      if (typeof ex !== 'string' || ex.trim() === '') continue;
      const text = ex.replace(/\n+$/, '');
      const source = `kingfisher-negative:${rule.id}`;
      if (benignByRule(text, 'v5')) benign.push({ source, text });
      else skipped.push(`${source}: ambiguous (a credential-shaped token that is neither a placeholder nor an id, rule v5)`);
    }
  }
  const data = {
    split: 'dev (every sample; the original set keeps its split)',
    sources: [{ name: 'kingfisher', url: 'https://github.com/mongodb/kingfisher', commit, license: 'Apache-2.0', paths: 'data/rules/*.yml (negative_examples only)' }],
    droppedRules,
    rulesWithNegatives: withNegatives,
    skipped,
    benign,
  };
  const out = fileURLToPath(new URL('./dev-negatives.json', import.meta.url));
  writeFileSync(out, `${JSON.stringify(data, null, 1)}\n`);
  process.stdout.write(`${benign.length} benign samples of ${withNegatives} rules, ${skipped.length} left out by rule v5, ${droppedRules} rules dropped (a test-half vendor, or generic) -> ${out}\n`);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) main();
