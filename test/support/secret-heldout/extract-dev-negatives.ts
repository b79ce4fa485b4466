/**
 * Builds `dev-negatives.json`: MORE benign samples for the DEV half of the held-out set (issue 40),
 * of the kind the test half's benign notes are (a scanner's own negative samples for one vendor's
 * rule), from public sources nobody here wrote, read as data from repository snapshots (never a
 * pattern):
 * - Kingfisher's (Apache-2.0, mongodb/kingfisher) `negative_examples`, the texts a rule of
 *   `data/rules/*.yml` is tested NOT to match;
 * - Titus's (Apache-2.0, praetorian-inc/titus, Nosey Parker's successor, whose rules are Nosey
 *   Parker's and some of Kingfisher's) `negative_examples` in `pkg/rule/rules/*.yml`, except those
 *   already in this file from Kingfisher or in the dev extension (`dev-extra.json`, which holds
 *   Nosey Parker's): the same text is not counted twice.
 * Only that list and the rule's id are read. Each example is one sample, as written (some span lines).
 *
 * The held-out TEST half stays unseen: the rules come through scanner-rules.ts, the same filter as
 * the dev recall data (test-half-vendors.ts, its one owner: every rule of a vendor of the test half,
 * and every generic rule, dropped before anything is written or printed). Only counts are printed.
 *
 * A sample is labelled by the SAME rule as the other dev sources (labelling rule v5, README.md,
 * `benignByRule` in extract.ts): benign when every credential-shaped token in it is a placeholder
 * or an identifier; the rest (a negative may be a real-looking key that only that vendor's rule
 * rejects, for its prefix or length) is left out, counted in `skipped`. Rule v7 is applied at run
 * time (notes.ts), as for the original set. Every sample is dev, on bench rows of their own.
 *
 * Run: `npx tsx test/support/secret-heldout/extract-dev-negatives.ts <kingfisher git dir> [<titus git dir>]`
 * (the `fetch` tool's mirrors at the commits recorded in `dev-negatives.json`).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { benignByRule, type HeldoutBenign } from './extract.js';
import { scannerDevRules } from './scanner-rules.js';

interface Source { name: string; url: string; commit: string; license: string; paths: string; rulesWithNegatives: number; droppedRules: number }

/** The negative examples of the rules under `rulesDir` that the filter keeps, labelled by rule v5; texts in `seen` are skipped (counted once). */
function negatives(dir: string, rulesDir: string, sourceName: string, seen: Set<string>, benign: HeldoutBenign[], skipped: string[]): { commit: string; rulesWithNegatives: number; droppedRules: number; duplicates: number } {
  const { rules, droppedRules, commit } = scannerDevRules(dir, rulesDir);
  let rulesWithNegatives = 0;
  let duplicates = 0;
  for (const rule of rules) {
    if (!Array.isArray(rule.negative_examples)) continue;
    rulesWithNegatives += 1;
    for (const ex of rule.negative_examples) {
      if (typeof ex !== 'string' || ex.trim() === '') continue;
      const text = ex.replace(/\n+$/, '');
      if (seen.has(text)) { duplicates += 1; continue; }
      seen.add(text);
      const source = `${sourceName}:${rule.id}`;
      if (benignByRule(text, 'v5')) benign.push({ source, text });
      else skipped.push(`${source}: ambiguous (a credential-shaped token that is neither a placeholder nor an id, rule v5)`);
    }
  }
  return { commit, rulesWithNegatives, droppedRules, duplicates };
}

function main(): void {
  const [kingfisherDir, titusDir] = process.argv.slice(2);
  if (kingfisherDir === undefined) throw new Error('usage: extract-dev-negatives.ts <kingfisher git dir> [<titus git dir>]');
  const benign: HeldoutBenign[] = [];
  const skipped: string[] = [];
  const sources: Source[] = [];
  // The dev extension's texts (Nosey Parker's negatives among them) are counted there already.
  const extra = JSON.parse(readFileSync(fileURLToPath(new URL('./dev-extra.json', import.meta.url)), 'utf8')) as { benign: HeldoutBenign[] };
  const seen = new Set(extra.benign.map((b) => b.text));
  const k = negatives(kingfisherDir, 'data/rules/', 'kingfisher-negative', seen, benign, skipped);
  sources.push({ name: 'kingfisher', url: 'https://github.com/mongodb/kingfisher', commit: k.commit, license: 'Apache-2.0', paths: 'data/rules/*.yml (negative_examples only)', rulesWithNegatives: k.rulesWithNegatives, droppedRules: k.droppedRules });
  let duplicates = k.duplicates;
  if (titusDir !== undefined) {
    const t = negatives(titusDir, 'pkg/rule/rules/', 'titus-negative', seen, benign, skipped);
    sources.push({ name: 'titus', url: 'https://github.com/praetorian-inc/titus', commit: t.commit, license: 'Apache-2.0', paths: 'pkg/rule/rules/*.yml (negative_examples only)', rulesWithNegatives: t.rulesWithNegatives, droppedRules: t.droppedRules });
    duplicates += t.duplicates;
  }
  const data = { split: 'dev (every sample; the original set keeps its split)', sources, duplicates, skipped, benign };
  const out = fileURLToPath(new URL('./dev-negatives.json', import.meta.url));
  writeFileSync(out, `${JSON.stringify(data, null, 1)}\n`);
  const per = sources.map((s) => `${s.name}: ${benign.filter((b) => b.source.startsWith(`${s.name}-`)).length} benign of ${s.rulesWithNegatives} rules, ${s.droppedRules} rules dropped`).join('; ');
  process.stdout.write(`${benign.length} benign samples (${per}), ${skipped.length} left out by rule v5, ${duplicates} already counted -> ${out}\n`);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) main();
