/**
 * Builds `dev-betterleaks.json`: DEV data of the same nature as the held-out test half (issue 40) from a
 * source not used before: betterleaks (MIT, betterleaks/betterleaks), a secret scanner by gitleaks'
 * author whose rules validate themselves against true-positive (`tps`) and false-positive (`fps`)
 * samples in `cmd/generate/config/rules/*.go`, as gitleaks' do. Read as data from a repository snapshot
 * (the `fetch` tool's mirror) through the reader the original set uses (`gitleaks` in extract.ts, so
 * both are parsed alike), never a pattern:
 * - its fps: a scanner's own negative samples for one vendor's rule, the kind the test half's benign
 *   notes are; labelled by rule v5 like every dev source (the rest left out, counted in `skipped`);
 *   rule v7 is applied at run time (notes.ts);
 * - its tps: recall data (a generated value, or the most secret-looking token of a literal line);
 * - its snapshot's newest commit SHAs and rule-file blob SHAs, as the original set's public ids are.
 *
 * The held-out TEST half stays unseen, by the two checks that own that (test-half-vendors.ts), before
 * anything is written or printed: every rule whose id has a vendor word of a test-half kind, and every
 * rule without a vendor word (the test half has a generic kind), is dropped; and since betterleaks
 * carries many of gitleaks' samples over, every candidate sharing a 12-character piece with a test-half
 * sample is dropped (`testHalfNearCopy`). A text or value already in the original set's dev half is
 * counted there, not again. Only counts are printed.
 *
 * Split by position before the redaction ran on any of it: the kept rules in file order, even ones
 * `tune` (may be looked at while changing rules), odd ones `check` (dev-eval.ts only counts them);
 * a rule's samples stay on one side, as the original set splits by kind. The public ids alternate.
 *
 * Run: `npx tsx test/support/secret-heldout/extract-dev-betterleaks.ts <betterleaks git dir>`
 * (the `fetch` tool's mirror at the commit recorded in `dev-betterleaks.json`).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gitleaks, type HeldoutBenign, type HeldoutSecret } from './extract.js';
import { splitOf } from './notes.js';
import { testHalfFilter, testHalfNearCopy, vendorWords } from './test-half-vendors.js';

export type DevHalf = 'tune' | 'check';
export interface BetterleaksSecret extends HeldoutSecret { half: DevHalf }
export interface BetterleaksBenign extends HeldoutBenign { half: DevHalf }

const git = (dir: string, ...args: string[]): string => execFileSync('git', ['--git-dir', dir, ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });
const ruleOf = (source: string): string => source.replace(/^[a-z-]+:/, '');

function main(): void {
  const [dir] = process.argv.slice(2);
  if (dir === undefined) throw new Error('usage: extract-dev-betterleaks.ts <betterleaks git dir>');
  const secrets: HeldoutSecret[] = [];
  const benign: HeldoutBenign[] = [];
  const skipped: string[] = [];
  gitleaks(dir, secrets, benign, skipped, 'betterleaks');

  const drops = testHalfFilter();
  const nearCopy = testHalfNearCopy();
  const original = JSON.parse(readFileSync(fileURLToPath(new URL('./data.json', import.meta.url)), 'utf8')) as { secrets: HeldoutSecret[]; benign: HeldoutBenign[] };
  const devTexts = new Set([
    ...original.benign.filter((b) => splitOf(b.source) === 'dev').map((b) => b.text),
    ...original.secrets.filter((s) => splitOf(ruleOf(s.source)) === 'dev').map((s) => s.secret),
  ]);

  // The kept rules, in file order, and their side.
  const ruleIds = [...new Set([...secrets, ...benign].map((x) => ruleOf(x.source)))];
  const kept = ruleIds.filter((id) => !drops(vendorWords(id)));
  const half = new Map(kept.map((id, i) => [id, (i % 2 === 0 ? 'tune' : 'check') as DevHalf]));
  const counts = { rules: ruleIds.length, rulesKept: kept.length, rulesDropped: ruleIds.length - kept.length, nearCopies: 0, alreadyInDevHalf: 0, notBenignByV5: 0 };

  const outSecrets: BetterleaksSecret[] = [];
  for (const s of secrets) {
    const side = half.get(ruleOf(s.source));
    if (side === undefined) continue;
    if (nearCopy(s.secret) || (s.line !== undefined && nearCopy(s.line))) { counts.nearCopies += 1; continue; }
    if (devTexts.has(s.secret)) { counts.alreadyInDevHalf += 1; continue; }
    outSecrets.push({ ...s, half: side });
  }
  const outBenign: BetterleaksBenign[] = [];
  const seen = new Set<string>();
  for (const b of benign) {
    const side = half.get(ruleOf(b.source));
    if (side === undefined) continue;
    if (nearCopy(b.text)) { counts.nearCopies += 1; continue; }
    if (devTexts.has(b.text) || seen.has(b.text)) { counts.alreadyInDevHalf += 1; continue; }
    seen.add(b.text);
    // Rule v5 decides, as for every scanner's negatives (a sample benign under older rules only is left out).
    if (b.rules !== undefined && !b.rules.includes('v5')) { counts.notBenignByV5 += 1; continue; }
    outBenign.push({ source: b.source, text: b.text, half: side });
  }
  // Public ids, as the original set's (`publicIds` in extract.ts): the newest commits and the rule files' blobs.
  const ids = [
    ...git(dir, 'log', '--format=%H', '-n', '30', 'HEAD').trim().split('\n').map((sha) => ({ source: 'betterleaks-history:commit', text: sha })),
    ...git(dir, 'ls-tree', 'HEAD', 'cmd/generate/config/rules/').trim().split('\n').slice(0, 20).map((row) => ({ source: 'betterleaks-history:blob', text: row.split(/\s+/)[2] ?? '' })),
  ].filter((b) => b.text !== '');
  ids.forEach((b, i) => {
    if (nearCopy(b.text)) counts.nearCopies += 1;
    else outBenign.push({ ...b, half: i % 2 === 0 ? 'tune' : 'check' });
  });

  const data = {
    split: 'dev (every sample): tune and check halves by rule position (README.md)',
    sources: [{ name: 'betterleaks', url: 'https://github.com/betterleaks/betterleaks', commit: git(dir, 'rev-parse', 'HEAD').trim(), license: 'MIT', paths: 'cmd/generate/config/rules/*.go (tps/fps samples); its newest commit and rule-file blob SHAs' }],
    counts,
    skipped: skipped.filter((s) => half.has(s.replace(/^betterleaks(?:-fp|-doc-example)?:/, '').split(':')[0] ?? '')),
    secrets: outSecrets,
    benign: outBenign,
  };
  const out = fileURLToPath(new URL('./dev-betterleaks.json', import.meta.url));
  writeFileSync(out, `${JSON.stringify(data, null, 1)}\n`);
  const n = (xs: { half: DevHalf }[], h: DevHalf): number => xs.filter((x) => x.half === h).length;
  process.stdout.write(`${outSecrets.length} secrets (tune ${n(outSecrets, 'tune')}, check ${n(outSecrets, 'check')}), ${outBenign.length} benign (tune ${n(outBenign, 'tune')}, check ${n(outBenign, 'check')}); ${JSON.stringify(counts)} -> ${out}\n`);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) main();
