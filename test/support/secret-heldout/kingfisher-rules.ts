/**
 * Kingfisher's rules (mongodb/kingfisher, Apache-2.0, data/rules/*.yml) that the DEV data may use:
 * the one owner of the filter that keeps the held-out TEST half unseen. Both extractors that read
 * Kingfisher (extract-dev-recall.ts, its `examples`; extract-dev-negatives.ts, its
 * `negative_examples`) take their rules from here, so a vendor of the test half can never reach
 * one of them and not the other.
 *
 * The filter: every rule whose vendor word (a word of its file's name, its name or its id that is
 * not a generic word) is a word of a kind of the original set's test half (data.json and
 * vendor-format.ts, by `splitOf`) is dropped, and so is every rule without a vendor word when the
 * test half has a generic kind. It runs before anything of a rule is returned; the test half's
 * kinds and the dropped rules are never printed, only counted.
 *
 * Only data is read from a rule (its id, its name and the example lists), never a pattern.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as jsYamlModule from 'js-yaml';
import type { HeldoutSecret } from './extract.js';
import { splitOf } from './notes.js';
import { VENDOR_FORMAT_BENIGN, VENDOR_FORMAT_SECRETS } from './vendor-format.js';

const jsYaml = ((jsYamlModule as { default?: unknown }).default ?? jsYamlModule) as { safeLoad: (s: string) => unknown };
export const git = (dir: string, ...args: string[]): string => execFileSync('git', ['--git-dir', dir, ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });

/** Words that name no vendor: a kind made of these only is generic. */
const GENERIC = new Set(
  'api key keys token tokens secret secrets access personal client private public auth oauth password passwd pass pwd service account webhook webhooks refresh app application user username id ids pat generic credential credentials bearer basic the and for with of v1 v2 v3 v4 legacy new old cloud live test prod sandbox management admin read write data url uri dsn connection string sample samples config file test_data gitleaks fp doc example history commit blob vendor detect py ini env md txt yml yaml json'.split(' '),
);
const words = (s: string): string[] => s.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w.length >= 3 && !GENERIC.has(w) && !/^\d+$/.test(w));

interface Data { secrets: HeldoutSecret[]; benign: { source: string }[] }

/** The vendor words of the original set's test half, and whether it has a generic kind; never printed. */
function testHalfKinds(): { vendors: Set<string>; generic: boolean } {
  const data = JSON.parse(readFileSync(fileURLToPath(new URL('./data.json', import.meta.url)), 'utf8')) as Data;
  const kinds = [
    ...[...data.secrets, ...VENDOR_FORMAT_SECRETS].map((s) => s.source.replace(/^[a-z-]+:/, '')).filter((k) => splitOf(k) === 'test'),
    ...[...data.benign, ...VENDOR_FORMAT_BENIGN].map((b) => b.source).filter((s) => splitOf(s) === 'test').map((s) => s.replace(/^[a-z-]+:/, '')),
  ];
  const vendors = new Set<string>();
  let generic = false;
  for (const k of kinds) {
    const w = words(k);
    if (w.length === 0) generic = true;
    for (const x of w) vendors.add(x);
  }
  return { vendors, generic };
}

/** A Kingfisher rule as the dev data reads it: its id, its name and its two example lists. */
export interface KingfisherRule {
  id: string;
  name?: string;
  examples?: unknown[];
  negative_examples?: unknown[];
}

export interface KingfisherDevRules {
  /** The rules kept, in file order then rule order. */
  rules: KingfisherRule[];
  /** How many rules were dropped (a vendor of the test half, or generic); only the count leaves here. */
  droppedRules: number;
  commit: string;
}

/** The rules of the snapshot at `dir` that no vendor of the test half names (see the file's comment). */
export function kingfisherDevRules(dir: string): KingfisherDevRules {
  const { vendors, generic } = testHalfKinds();
  const rules: KingfisherRule[] = [];
  let droppedRules = 0;
  const files = git(dir, 'ls-tree', '--name-only', 'HEAD', 'data/rules/').split('\n').filter((f) => /\.ya?ml$/.test(f));
  for (const file of files) {
    const stem = file.replace(/^.*\//, '').replace(/\.ya?ml$/, '');
    const doc = jsYaml.safeLoad(git(dir, 'show', `HEAD:${file}`)) as { rules?: Partial<KingfisherRule>[] } | undefined;
    for (const rule of doc?.rules ?? []) {
      if (rule.id === undefined) continue;
      const own = [...words(stem), ...words(rule.name ?? ''), ...words(rule.id.replace(/^kingfisher\./, ''))];
      if (own.some((w) => vendors.has(w)) || (own.length === 0 && generic)) {
        droppedRules += 1;
        continue;
      }
      rules.push({ id: rule.id, name: rule.name, examples: rule.examples, negative_examples: rule.negative_examples });
    }
  }
  return { rules, droppedRules, commit: git(dir, 'rev-parse', 'HEAD').trim() };
}
