/**
 * The rules of a scanner whose rule files are YAML lists of rules with examples (Kingfisher,
 * mongodb/kingfisher, `data/rules/*.yml`; Titus, praetorian-inc/titus, `pkg/rule/rules/*.yml`, which
 * holds Nosey Parker's rules and some of Kingfisher's) that the DEV data may use. The extractors that
 * read them (extract-dev-recall.ts, Kingfisher's `examples`; extract-dev-negatives.ts, the
 * `negative_examples`) take their rules from here, and every rule of a vendor of the test half is
 * dropped here, by test-half-vendors.ts (the filter's one owner), before anything of it is returned;
 * the dropped rules are never printed, only counted.
 *
 * Only data is read from a rule (its id, its name and the example lists), never a pattern.
 */
import { execFileSync } from 'node:child_process';
import * as jsYamlModule from 'js-yaml';
import { testHalfFilter, vendorWords } from './test-half-vendors.js';

const jsYaml = ((jsYamlModule as { default?: unknown }).default ?? jsYamlModule) as { safeLoad: (s: string) => unknown };
export const git = (dir: string, ...args: string[]): string => execFileSync('git', ['--git-dir', dir, ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });

/** A rule as the dev data reads it: its id, its name and its two example lists. */
export interface ScannerRule {
  id: string;
  name?: string;
  examples?: unknown[];
  negative_examples?: unknown[];
}

export interface ScannerDevRules {
  /** The rules kept, in file order then rule order. */
  rules: ScannerRule[];
  /** How many rules were dropped (a vendor of the test half, or generic; with `genericOnly`, every vendor's); only the count leaves here. */
  droppedRules: number;
  commit: string;
}

/** A rule id's scanner namespace (`kingfisher.`, Nosey Parker's `np.`), which names no vendor. */
const NAMESPACE = /^(?:kingfisher|np)\./;

/**
 * The rules under `rulesDir` of the snapshot at `dir` that no vendor of the test half names (see the
 * file's comment): Kingfisher's are under `data/rules/`, Titus's under `pkg/rule/rules/`.
 * `genericOnly`: the rules without a vendor word instead, and only those (extract-dev-generic.ts);
 * their examples may copy the test half's generic kind, so that reader drops near copies itself
 * (`testHalfNearCopy`) before anything is written or printed.
 */
export function scannerDevRules(dir: string, rulesDir: string, options: { genericOnly?: boolean } = {}): ScannerDevRules {
  const genericOnly = options.genericOnly === true;
  const drops = testHalfFilter({ keepGeneric: genericOnly });
  const rules: ScannerRule[] = [];
  let droppedRules = 0;
  const files = git(dir, 'ls-tree', '--name-only', 'HEAD', rulesDir).split('\n').filter((f) => /\.ya?ml$/.test(f));
  for (const file of files) {
    const stem = file.replace(/^.*\//, '').replace(/\.ya?ml$/, '');
    const doc = jsYaml.safeLoad(git(dir, 'show', `HEAD:${file}`)) as { rules?: Partial<ScannerRule>[] } | undefined;
    for (const rule of doc?.rules ?? []) {
      if (rule.id === undefined) continue;
      const words = [...vendorWords(stem), ...vendorWords(rule.name ?? ''), ...vendorWords(rule.id.replace(NAMESPACE, ''))];
      if (drops(words) || (genericOnly && words.length > 0)) {
        droppedRules += 1;
        continue;
      }
      rules.push({ id: rule.id, name: rule.name, examples: rule.examples, negative_examples: rule.negative_examples });
    }
  }
  return { rules, droppedRules, commit: git(dir, 'rev-parse', 'HEAD').trim() };
}
