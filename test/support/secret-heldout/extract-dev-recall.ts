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
 * half (data.json and vendor-format.ts, by `splitOf`) is dropped by this code before anything is
 * written or printed, and so is every rule without a vendor word (Kingfisher's generic rules) when
 * the test half has a generic kind. Only counts are printed. Every sample here is dev, reported on
 * rows of its own (`held-out dev recall`), never mixed into the original set's rows.
 *
 * Run: `npx tsx test/support/secret-heldout/extract-dev-recall.ts <kingfisher git dir>` (the `fetch`
 * tool's mirror at the commit recorded in `dev-recall.json`).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as jsYamlModule from 'js-yaml';
import { CREDENTIAL_KEY_BEFORE, DOC_MARKER, likelySecret, UUID, type HeldoutSecret } from './extract.js';
import { splitOf } from './notes.js';
import { VENDOR_FORMAT_BENIGN, VENDOR_FORMAT_SECRETS } from './vendor-format.js';

const jsYaml = ((jsYamlModule as { default?: unknown }).default ?? jsYamlModule) as { safeLoad: (s: string) => unknown };
const git = (dir: string, ...args: string[]): string => execFileSync('git', ['--git-dir', dir, ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });

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

interface Rule { id?: string; name?: string; examples?: unknown[] }

function main(): void {
  const [dir] = process.argv.slice(2);
  if (dir === undefined) throw new Error('usage: extract-dev-recall.ts <kingfisher git dir>');
  const { vendors, generic } = testHalfKinds();
  const secrets: HeldoutSecret[] = [];
  const skipped: string[] = [];
  let droppedRules = 0;
  const files = git(dir, 'ls-tree', '--name-only', 'HEAD', 'data/rules/').split('\n').filter((f) => /\.ya?ml$/.test(f));
  for (const file of files) {
    const stem = file.replace(/^.*\//, '').replace(/\.ya?ml$/, '');
    const doc = jsYaml.safeLoad(git(dir, 'show', `HEAD:${file}`)) as { rules?: Rule[] } | undefined;
    for (const rule of doc?.rules ?? []) {
      if (rule.id === undefined || !Array.isArray(rule.examples)) continue;
      const own = [...words(stem), ...words(rule.name ?? ''), ...words(rule.id.replace(/^kingfisher\./, ''))];
      if (own.some((w) => vendors.has(w)) || (own.length === 0 && generic)) {
        droppedRules += 1;
        continue;
      }
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
  }
  const data = {
    sources: [{ name: 'kingfisher', url: 'https://github.com/mongodb/kingfisher', commit: git(dir, 'rev-parse', 'HEAD').trim(), license: 'Apache-2.0', paths: 'data/rules/*.yml (examples)' }],
    droppedRules,
    skipped,
    secrets,
  };
  const out = fileURLToPath(new URL('./dev-recall.json', import.meta.url));
  writeFileSync(out, `${JSON.stringify(data, null, 1)}\n`);
  process.stdout.write(`${secrets.length} secrets, ${skipped.length} examples left out, ${droppedRules} rules dropped (a test-half vendor, or generic) -> ${out}\n`);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) main();
