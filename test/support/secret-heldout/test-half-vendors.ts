/**
 * The one owner of the filter that keeps the held-out TEST half unseen when dev data is taken from
 * other scanners' rules (Kingfisher's examples and negative examples, Titus's negative examples): a
 * rule is dropped when one of its vendor words (a word of its file's name, its name or its id that is
 * not a generic word) is a word of a kind of the original set's test half (data.json and
 * vendor-format.ts, by `splitOf`), or when it has no vendor word and the test half has a generic
 * kind. The test half's kinds are read here and never leave: callers get a yes or no per rule, and
 * print only counts.
 *
 * It also owns the check that keeps the test half's own TEXTS out of dev data taken from a scanner's
 * generic rules (`testHalfNearCopy`): scanners copy one another's examples (gitleaks' generic rule's
 * among them, which the test half's generic kind holds), so a candidate sharing a 12-character piece
 * with a test-half sample is dropped before anything is written or printed.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { HeldoutSecret } from './extract.js';
import { splitOf } from './notes.js';
import { VENDOR_FORMAT_BENIGN, VENDOR_FORMAT_SECRETS } from './vendor-format.js';

/** Words that name no vendor: a kind made of these only is generic. */
const GENERIC = new Set(
  'api key keys token tokens secret secrets access personal client private public auth oauth password passwd pass pwd service account webhook webhooks refresh app application user username id ids pat generic credential credentials bearer basic the and for with of v1 v2 v3 v4 legacy new old cloud live test prod sandbox management admin read write data url uri dsn connection string sample samples config file test_data gitleaks fp doc example history commit blob vendor detect py ini env md txt yml yaml json'.split(' '),
);
export const vendorWords = (s: string): string[] => s.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w.length >= 3 && !GENERIC.has(w) && !/^\d+$/.test(w));

interface Data { secrets: HeldoutSecret[]; benign: { source: string; text: string }[] }

const readData = (): Data => JSON.parse(readFileSync(fileURLToPath(new URL('./data.json', import.meta.url)), 'utf8')) as Data;

/** The vendor words of the original set's test half, and whether it has a generic kind; never printed. */
function testHalfKinds(): { vendors: Set<string>; generic: boolean } {
  const data = readData();
  const kinds = [
    ...[...data.secrets, ...VENDOR_FORMAT_SECRETS].map((s) => s.source.replace(/^[a-z-]+:/, '')).filter((k) => splitOf(k) === 'test'),
    ...[...data.benign, ...VENDOR_FORMAT_BENIGN].map((b) => b.source).filter((s) => splitOf(s) === 'test').map((s) => s.replace(/^[a-z-]+:/, '')),
  ];
  const vendors = new Set<string>();
  let generic = false;
  for (const k of kinds) {
    const w = vendorWords(k);
    if (w.length === 0) generic = true;
    for (const x of w) vendors.add(x);
  }
  return { vendors, generic };
}

/** Whether a rule with these vendor words must be dropped (see the file's comment). */
export type TestHalfFilter = (ruleWords: readonly string[]) => boolean;

/**
 * The filter, with the test half's kinds read once. `keepGeneric`: keep what names no vendor (for
 * CredSweeper's sample files, extract-dev-credsweeper.ts: files of lines, not a scanner's rules, whose
 * generic passwords are what issue 40 is about, as the dev docs' and the weak-password set's are);
 * a scanner's generic rules are dropped by default, since the test half has a generic kind.
 */
export function testHalfFilter(options: { keepGeneric?: boolean } = {}): TestHalfFilter {
  const { vendors, generic } = testHalfKinds();
  const dropGeneric = generic && options.keepGeneric !== true;
  return (ruleWords) => ruleWords.some((w) => vendors.has(w)) || (ruleWords.length === 0 && dropGeneric);
}

/** The length of a shared piece that makes a candidate a near copy of a test-half sample (the scorer's piece, README.md). */
const PIECE = 12;
/** Case and runs of whitespace do not make a copy new. */
const normalize = (s: string): string => s.toLowerCase().replace(/\s+/g, ' ');
const pieces = (s: string): string[] => Array.from({ length: Math.max(0, s.length - PIECE + 1) }, (_, i) => s.slice(i, i + PIECE));

/**
 * Whether a candidate text shares a 12-character piece (after lower-casing and collapsing whitespace)
 * with a sample of the original set's test half (data.json and vendor-format.ts, by `splitOf` as
 * above): a secret's value and its whole line, a benign sample's text. The pieces are read here and
 * never leave: callers get a yes or no per candidate and print only counts.
 */
export function testHalfNearCopy(): (candidate: string) => boolean {
  const data = readData();
  const texts = [
    ...[...data.secrets, ...VENDOR_FORMAT_SECRETS].filter((s) => splitOf(s.source.replace(/^[a-z-]+:/, '')) === 'test').flatMap((s) => [s.secret, s.line ?? '']),
    ...[...data.benign, ...VENDOR_FORMAT_BENIGN].filter((b) => splitOf(b.source) === 'test').map((b) => b.text),
  ];
  const held = new Set(texts.flatMap((t) => pieces(normalize(t))));
  return (candidate) => pieces(normalize(candidate)).some((p) => held.has(p));
}
