/**
 * The held-out redaction evaluation (issue 29): secrets nobody here wrote, placed in the ways
 * memory notes hold them. Kept apart from the tuning corpus (../secret-corpus.ts): the values
 * come from data.json (public scanners' own test samples, see extract.ts for sources, commits and
 * licences) and from vendor-format.ts (formats from vendor documentation); the note contexts
 * below were written once, before the redaction was measured on them, and are not tuned to it.
 *
 * Each secret meets two contexts (rotating through all of them by index, so the set is fixed);
 * a scanner sample that is a whole line is pasted as written (code block or log paste).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { HeldoutBenign, HeldoutSecret } from './extract.js';
import { passwordValuesV6 } from './rule-v6.js';
import { passwordValuesV7 } from './rule-v7.js';
import { VENDOR_FORMAT_BENIGN, VENDOR_FORMAT_SECRETS } from './vendor-format.js';

/**
 * Half of the held-out set, by rule or format (so one rule's samples are all on one side): `dev`
 * may be looked at while working on the rules, `test` is only ever measured (the bench reports both).
 */
export type HeldoutSplit = 'dev' | 'test';

/** FNV-1a of the kind, even: dev, odd: test. Fixed by the kind's name alone. */
export function splitOf(kind: string): HeldoutSplit {
  let h = 0x811c9dc5;
  for (let i = 0; i < kind.length; i += 1) h = Math.imul(h ^ kind.charCodeAt(i), 0x01000193) >>> 0;
  return h % 2 === 0 ? 'dev' : 'test';
}

export interface HeldoutPlanted {
  /** `gitleaks:<rule>`, `detect-secrets:<file>` or `vendor:<format>`. */
  source: string;
  /** The kind by which results are reported: the rule or format name without the source. */
  kind: string;
  secret: string;
  note: string;
  context: string;
  split: HeldoutSplit;
}

export interface HeldoutBenignNote {
  source: string;
  cls: string;
  note: string;
  split: HeldoutSplit;
}

interface Data {
  sources: unknown[];
  skipped: string[];
  secrets: HeldoutSecret[];
  benign: HeldoutBenign[];
}

const DATA = JSON.parse(readFileSync(fileURLToPath(new URL('./data.json', import.meta.url)), 'utf8')) as Data;

/** The credential word a rule's name calls its secret by. */
function credentialWord(kind: string): string {
  if (/password|passwd/.test(kind)) return 'password';
  if (/\bdsn\b/.test(kind)) return 'DSN';
  if (/-pat\b|personal-access/.test(kind)) return 'PAT';
  if (/secret/.test(kind)) return 'secret';
  if (/token/.test(kind)) return 'token';
  if (/key/.test(kind)) return 'API key';
  return 'credential';
}

const title = (s: string): string => s.replace(/[-_]+/g, ' ').replace(/\b\w/g, (c) => c.toUpperCase());
const envName = (id: string, word: string): string => `${id}_${word}`.replace(/[^A-Za-z0-9]+/g, '_').toUpperCase();

/** Memory-note contexts for a bare value next to its name. */
const CONTEXTS: Record<string, (secret: string, id: string, word: string) => string> = {
  prose: (s, id, w) => `Set up the ${title(id)} integration today. The ${w} for the staging account is ${s} and it expires next quarter.`,
  list: (s, id, w) => `## ${title(id)} access\n\n- account: ops-staging\n- ${w}: ${s}\n- owner: platform team`,
  table: (s, id, w) => `| service | ${w} | notes |\n|---|---|---|\n| ${title(id)} | ${s} | rotated in March |\n| Internal wiki | n/a | SSO |`,
  yaml: (s, id, w) => `Config that worked:\n\n\`\`\`yaml\n${id.toLowerCase()}:\n  region: eu-west-1\n  ${w.toLowerCase().replace(/ /g, '_')}: ${s}\n  timeout: 30\n\`\`\``,
  json: (s, id, w) => `Saved the settings file:\n\n\`\`\`json\n{\n  "service": "${id}",\n  "${w.toLowerCase().replace(/ /g, '_')}": "${s}",\n  "retries": 3\n}\n\`\`\``,
  dotenv: (s, id, w) => `Local .env for the worker:\n\n\`\`\`\nNODE_ENV=development\n${envName(id, w)}=${s}\nLOG_LEVEL=info\n\`\`\``,
  shell: (s, id, w) => `To reproduce the failing call:\n\n\`\`\`sh\nexport ${envName(id, w)}='${s}'\nnpm run sync -- --verbose\n\`\`\``,
  log: (s, id, w) => `Log excerpt from the failed deploy:\n\n2026-11-20T10:02:11Z INFO  starting ${id} client\n2026-11-20T10:02:11Z DEBUG ${id} ${w}=${s} region=eu-west-1\n2026-11-20T10:02:12Z ERROR 401 Unauthorized`,
};
const CONTEXT_NAMES = Object.keys(CONTEXTS);

const LINE_CONTEXTS: Record<string, (line: string) => string> = {
  'code-block': (line) => `Found this while debugging the build:\n\n\`\`\`\n${line}\n\`\`\`\n\nMoved it to the secret store afterwards.`,
  'log-paste': (line) => `Output of the failing step, pasted as it was:\n\n${line}\n\nNext: ask the owner to rotate it.`,
};
const LINE_CONTEXT_NAMES = Object.keys(LINE_CONTEXTS);

function kindOf(source: string): string {
  return source.replace(/^[a-z-]+:/, '');
}

function identifierOf(s: HeldoutSecret): string {
  if (s.identifier !== undefined && s.identifier !== '') return s.identifier;
  return kindOf(s.source).split(/[-_]/)[0] ?? 'service';
}

/** The held-out secrets in their contexts: two contexts per value, one per whole-line sample. */
export function heldoutSecrets(): HeldoutPlanted[] {
  return [...DATA.secrets, ...VENDOR_FORMAT_SECRETS].flatMap((s, i) => placeSecret(s, i, splitOf(kindOf(s.source))));
}

/** The `i`-th scanner secret in its notes (rotating by `i`): one whole-line context for a line, two contexts for a bare value. */
function placeSecret(s: HeldoutSecret, i: number, split: HeldoutSplit): HeldoutPlanted[] {
  const kind = kindOf(s.source);
  if (s.line !== undefined) {
    const context = LINE_CONTEXT_NAMES[i % LINE_CONTEXT_NAMES.length] as string;
    return [{ source: s.source, kind, secret: s.secret, note: (LINE_CONTEXTS[context] as (l: string) => string)(s.line), context, split }];
  }
  const id = identifierOf(s);
  const word = credentialWord(kind);
  return [i, i + 3].map((k) => {
    const context = CONTEXT_NAMES[k % CONTEXT_NAMES.length] as string;
    return { source: s.source, kind, secret: s.secret, note: (CONTEXTS[context] as (a: string, b: string, c: string) => string)(s.secret, id, word), context, split };
  });
}

const BENIGN_CONTEXTS: Record<string, (text: string, source: string) => string> = {
  'gitleaks-fp': (t) => `A scanner flagged this line in review; it is not a credential:\n\n\`\`\`\n${t}\n\`\`\``,
  'gitleaks-doc-example': (t) => `The docs show the format like this:\n\n\`\`\`\n${t}\n\`\`\``,
  'gitleaks-history:commit': (t) => `Fixed in commit ${t}; the release notes link to it.`,
  'gitleaks-history:blob': (t) => `| file | blob |\n|---|---|\n| rules/aws.go | ${t} |`,
};

/**
 * Benign notes: scanner false positives our definition agrees with, doc examples, public ids, vendor
 * placeholders. `rule`: which labelling rule decides the scanner false positives (README.md); v5 is
 * the set in use, v1 to v4 the ones before it, kept so the bench can report each relabel.
 */
export function heldoutBenign(rule: 'v1' | 'v2' | 'v3' | 'v4' | 'v5' | 'v6' | 'v7' = 'v5'): HeldoutBenignNote[] {
  if (rule === 'v7') return v7Benign().map(benignNote);
  const vendor = rule === 'v6' ? VENDOR_FORMAT_BENIGN.filter((b) => passwordValuesV6(b.text).length === 0) : VENDOR_FORMAT_BENIGN;
  const all = [...DATA.benign.filter((b) => b.rules === undefined || b.rules.includes(rule)), ...vendor];
  return all.map(benignNote);
}

/** Rule v7 (README.md, rule-v7.ts), applied at run time to the samples benign under v5: those holding none of its password values. */
function v5BenignSamples(): HeldoutBenign[] {
  return [...DATA.benign.filter((b) => b.rules === undefined || b.rules.includes('v5')), ...VENDOR_FORMAT_BENIGN];
}
function v7Benign(): HeldoutBenign[] {
  return v5BenignSamples().filter((b) => passwordValuesV7(b.text).length === 0);
}

/** The samples rule v5 calls benign and rule v7 makes secrets, each in its benign note; its secrets are its values. */
export function heldoutV7Secrets(): (HeldoutBenignNote & { secrets: string[] })[] {
  return v5BenignSamples()
    .map((b) => ({ b, secrets: passwordValuesV7(b.text) }))
    .filter((x) => x.secrets.length > 0)
    .map((x) => ({ ...benignNote(x.b), secrets: x.secrets }));
}

function benignNote(b: HeldoutBenign): HeldoutBenignNote {
  const cls = b.source.startsWith('gitleaks-history') ? b.source : (b.source.split(':')[0] as string);
  const make = BENIGN_CONTEXTS[cls];
  return { source: b.source, cls, note: make === undefined ? b.text : make(b.text, b.source), split: splitOf(b.source) };
}

/**
 * The samples rule v5 calls benign and rule v6 (README.md, rule-v6.ts) makes secrets: a value given
 * as a password next to its word. Each in the same note as its benign form; its secrets are its values.
 */
export function heldoutV6Secrets(): (HeldoutBenignNote & { secrets: string[] })[] {
  const fromData = DATA.benign.filter((b) => b.v6Secrets !== undefined).map((b) => ({ ...benignNote(b), secrets: b.v6Secrets as string[] }));
  const fromVendor = VENDOR_FORMAT_BENIGN.map((b) => ({ b, secrets: passwordValuesV6(b.text) }))
    .filter((x) => x.secrets.length > 0)
    .map((x) => ({ ...benignNote(x.b), secrets: x.secrets }));
  return [...fromData, ...fromVendor];
}

interface DevExtraData {
  sources: unknown[];
  skipped: string[];
  benign: HeldoutBenign[];
}

const DEV_EXTRA = JSON.parse(readFileSync(fileURLToPath(new URL('./dev-extra.json', import.meta.url)), 'utf8')) as DevExtraData;

/**
 * More benign notes for the DEV half only (dev-extra.json, built by extract-dev-extra.ts from
 * other scanners' published non-findings (secretlint, Nosey Parker, whispers, ripsecrets), labelled by rule v5): every one is `dev`, whatever its name hashes to,
 * so the original set's split, and its figures, stay as they were. Reported on rows of their own.
 */
export function heldoutBenignDevExtra(): HeldoutBenignNote[] {
  return DEV_EXTRA.benign.map((b) => ({
    source: b.source,
    cls: b.source.split(':')[0] as string,
    note: `A scanner's test fixture that it must not report, kept as a note:\n\n\`\`\`\n${b.text}\n\`\`\``,
    split: 'dev' as const,
  }));
}

const DEV_DOCS = JSON.parse(readFileSync(fileURLToPath(new URL('./dev-docs.json', import.meta.url)), 'utf8')) as { benign: HeldoutBenign[] };

/**
 * More benign notes for the DEV half only (dev-docs.json, built by extract-dev-docs.ts from the
 * documentation of projects that handle credentials: lines that name a credential, an id or a
 * hash, labelled by rule v5): every one is `dev`. A line of documentation is kept in a note as
 * written, without a code block (it is prose, a list item, a table row or a snippet line).
 * Reported on rows of their own, per source (`cls`: the repository's name).
 */
export function heldoutBenignDevDocs(): HeldoutBenignNote[] {
  return DEV_DOCS.benign.map((b) => ({
    source: b.source,
    cls: b.source.split(':')[0] as string,
    note: `From the docs I read today:\n\n${b.text}`,
    split: 'dev' as const,
  }));
}

const DEV_NEGATIVES = JSON.parse(readFileSync(fileURLToPath(new URL('./dev-negatives.json', import.meta.url)), 'utf8')) as { benign: HeldoutBenign[] };

/**
 * More benign notes for the DEV half only (dev-negatives.json, built by extract-dev-negatives.ts
 * from Kingfisher's and Titus's `negative_examples`, labelled by rule v5; every rule of a test-half
 * vendor was dropped there): a scanner's own negative samples for one vendor's rule, the kind the test half's
 * benign notes are, so each is placed as the original set's scanner false positives are
 * (`gitleaks-fp`'s note). `rule`: v5 (as built) or v7 (those holding none of v7's password values).
 * Every one `dev`; reported on rows of their own.
 */
export function heldoutBenignDevNegatives(rule: 'v5' | 'v7' = 'v5'): HeldoutBenignNote[] {
  return DEV_NEGATIVES.benign.filter((b) => rule === 'v5' || passwordValuesV7(b.text).length === 0).map(devNegativeNote);
}

/** The Kingfisher negatives rule v5 calls benign and rule v7 makes secrets, each in its benign note; its secrets are its values. */
export function heldoutDevNegativesV7Secrets(): (HeldoutBenignNote & { secrets: string[] })[] {
  return DEV_NEGATIVES.benign
    .map((b) => ({ b, secrets: passwordValuesV7(b.text) }))
    .filter((x) => x.secrets.length > 0)
    .map((x) => ({ ...devNegativeNote(x.b), secrets: x.secrets }));
}

function devNegativeNote(b: HeldoutBenign): HeldoutBenignNote {
  return { source: b.source, cls: b.source.split(':')[0] as string, note: (BENIGN_CONTEXTS['gitleaks-fp'] as (t: string, s: string) => string)(b.text, b.source), split: 'dev' as const };
}

const DEV_RECALL = JSON.parse(readFileSync(fileURLToPath(new URL('./dev-recall.json', import.meta.url)), 'utf8')) as { secrets: HeldoutSecret[] };

/**
 * More true positives for the DEV half only (dev-recall.json, built by extract-dev-recall.ts from
 * Kingfisher's rule examples; every rule of a test-half vendor was dropped there): each example in
 * one of the whole-line contexts above (rotating), every one `dev`. Reported on rows of their own.
 */
export function heldoutDevRecall(): HeldoutPlanted[] {
  return DEV_RECALL.secrets.map((s, i) => {
    const context = LINE_CONTEXT_NAMES[i % LINE_CONTEXT_NAMES.length] as string;
    return { source: s.source, kind: kindOf(s.source), secret: s.secret, note: (LINE_CONTEXTS[context] as (l: string) => string)(s.line ?? s.secret), context, split: 'dev' as const };
  });
}

interface DevCredSweeperData {
  secrets: { source: string; secret: string; line: string; basis: 'reported' | 'same value' }[];
  benign: HeldoutBenign[];
}

const DEV_CREDSWEEPER = JSON.parse(readFileSync(fileURLToPath(new URL('./dev-credsweeper.json', import.meta.url)), 'utf8')) as DevCredSweeperData;

/** A CredSweeper sample's group for the rows: its documentation-mode samples (`doc_*`, written as people write notes) or the others. */
const credSweeperGroup = (source: string): string => (source.startsWith('credsweeper:doc_') ? 'credsweeper doc-mode samples' : 'credsweeper other samples');

/**
 * More DEV data, both sides (dev-credsweeper.json, built by extract-dev-credsweeper.ts from CredSweeper's
 * test samples and its expected output; vendors of the test half dropped there): the lines its data makes
 * secrets, each in one of the whole-line contexts above (rotating), every one `dev`. `basis`: reported by
 * CredSweeper's expected output, or the same value as a reported line of a doc-mode sample.
 */
export function heldoutDevCredSweeperSecrets(): (HeldoutPlanted & { basis: 'reported' | 'same value'; cls: string })[] {
  return DEV_CREDSWEEPER.secrets.map((s, i) => {
    const context = LINE_CONTEXT_NAMES[i % LINE_CONTEXT_NAMES.length] as string;
    return { source: s.source, kind: kindOf(s.source), secret: s.secret, note: (LINE_CONTEXTS[context] as (l: string) => string)(s.line), context, split: 'dev' as const, basis: s.basis, cls: credSweeperGroup(s.source) };
  });
}

/**
 * The other side: the lines labelled benign by rule v5, placed like the secrets (the same files' lines,
 * so the placement is no difference between the two). `rule`: v5 (as built) or v7 (those holding none
 * of v7's password values). Every one `dev`; `cls` the group (`credSweeperGroup`).
 */
export function heldoutBenignDevCredSweeper(rule: 'v5' | 'v7' = 'v5'): HeldoutBenignNote[] {
  return DEV_CREDSWEEPER.benign.map(credSweeperNote).filter((_, i) => rule === 'v5' || passwordValuesV7((DEV_CREDSWEEPER.benign[i] as HeldoutBenign).text).length === 0);
}

/** The CredSweeper lines rule v5 calls benign and rule v7 makes secrets, each in its benign note; its secrets are its values. */
export function heldoutDevCredSweeperV7Secrets(): (HeldoutBenignNote & { secrets: string[] })[] {
  return DEV_CREDSWEEPER.benign
    .map((b, i) => ({ note: credSweeperNote(b, i), secrets: passwordValuesV7(b.text) }))
    .filter((x) => x.secrets.length > 0)
    .map((x) => ({ ...x.note, secrets: x.secrets }));
}

function credSweeperNote(b: HeldoutBenign, i: number): HeldoutBenignNote {
  const context = LINE_CONTEXT_NAMES[i % LINE_CONTEXT_NAMES.length] as string;
  return { source: b.source, cls: credSweeperGroup(b.source), note: (LINE_CONTEXTS[context] as (l: string) => string)(b.text), split: 'dev' as const };
}

/** What extract-dev-extra.ts left out and why. */
export function heldoutDevExtraSkipped(): readonly string[] {
  return DEV_EXTRA.skipped;
}

/** What extract.ts left out and why (reported by the bench). */
export function heldoutSkipped(): readonly string[] {
  return DATA.skipped;
}

interface DevGenericData {
  secrets: HeldoutSecret[];
  benign: HeldoutBenign[];
}

const DEV_GENERIC = JSON.parse(readFileSync(fileURLToPath(new URL('./dev-generic.json', import.meta.url)), 'utf8')) as DevGenericData;

/**
 * More DEV data of the kind the test half's generic kind is (dev-generic.json, built by extract-dev-generic.ts
 * from Kingfisher's and Titus's rules without a vendor word; every near copy of a test-half sample dropped
 * there): their examples as secrets, each in one of the whole-line contexts above (rotating, as the dev
 * recall data), every one `dev`. Reported on rows of their own.
 */
export function heldoutDevGenericSecrets(): HeldoutPlanted[] {
  return DEV_GENERIC.secrets.map((s, i) => {
    const context = LINE_CONTEXT_NAMES[i % LINE_CONTEXT_NAMES.length] as string;
    return { source: s.source, kind: kindOf(s.source), secret: s.secret, note: (LINE_CONTEXTS[context] as (l: string) => string)(s.line ?? s.secret), context, split: 'dev' as const };
  });
}

/**
 * The other side: their negative examples that rule v5 calls benign, placed as the dev negatives are
 * (`gitleaks-fp`'s note). `rule`: v5 (as built) or v7 (those holding none of v7's password values).
 */
export function heldoutBenignDevGeneric(rule: 'v5' | 'v7' = 'v5'): HeldoutBenignNote[] {
  return DEV_GENERIC.benign.filter((b) => rule === 'v5' || passwordValuesV7(b.text).length === 0).map(devNegativeNote);
}

/** The generic negatives rule v5 calls benign and rule v7 makes secrets, each in its benign note; its secrets are its values. */
export function heldoutDevGenericV7Secrets(): (HeldoutBenignNote & { secrets: string[] })[] {
  return DEV_GENERIC.benign
    .map((b) => ({ b, secrets: passwordValuesV7(b.text) }))
    .filter((x) => x.secrets.length > 0)
    .map((x) => ({ ...devNegativeNote(x.b), secrets: x.secrets }));
}

interface DevLintersData {
  secrets: { source: string; secret: string; line: string }[];
  benign: HeldoutBenign[];
}

const DEV_LINTERS = JSON.parse(readFileSync(fileURLToPath(new URL('./dev-linters.json', import.meta.url)), 'utf8')) as DevLintersData;

/** A linter sample's group for the rows: its source (`gosec`, `bandit`, `devskim`, `eslint-no-secrets`). */
const linterGroup = (source: string): string => source.slice(0, source.indexOf(':'));

/**
 * More DEV data, both sides (dev-linters.json, built by extract-dev-linters.ts from static analysers'
 * hard-coded-credential rules' test suites: gosec, bandit, DevSkim, eslint-plugin-no-secrets; near copies and
 * vendors of the test half dropped there): the lines their expectations make secrets, each in one of the
 * whole-line contexts above (rotating, as CredSweeper's), every one `dev`; `cls` the source.
 */
export function heldoutDevLintersSecrets(): (HeldoutPlanted & { cls: string })[] {
  return DEV_LINTERS.secrets.map((s, i) => {
    const context = LINE_CONTEXT_NAMES[i % LINE_CONTEXT_NAMES.length] as string;
    return { source: s.source, kind: kindOf(s.source), secret: s.secret, note: (LINE_CONTEXTS[context] as (l: string) => string)(s.line), context, split: 'dev' as const, cls: linterGroup(s.source) };
  });
}

/** The other side: the lines labelled benign by rule v5, placed like the secrets. `rule`: v5 (as built) or v7 (those holding none of v7's password values). */
export function heldoutBenignDevLinters(rule: 'v5' | 'v7' = 'v5'): HeldoutBenignNote[] {
  return DEV_LINTERS.benign.map(linterNote).filter((_, i) => rule === 'v5' || passwordValuesV7((DEV_LINTERS.benign[i] as HeldoutBenign).text).length === 0);
}

/** The linter lines rule v5 calls benign and rule v7 makes secrets, each in its benign note; its secrets are its values. */
export function heldoutDevLintersV7Secrets(): (HeldoutBenignNote & { secrets: string[] })[] {
  return DEV_LINTERS.benign
    .map((b, i) => ({ note: linterNote(b, i), secrets: passwordValuesV7(b.text) }))
    .filter((x) => x.secrets.length > 0)
    .map((x) => ({ ...x.note, secrets: x.secrets }));
}

function linterNote(b: HeldoutBenign, i: number): HeldoutBenignNote {
  const context = LINE_CONTEXT_NAMES[i % LINE_CONTEXT_NAMES.length] as string;
  return { source: b.source, cls: linterGroup(b.source), note: (LINE_CONTEXTS[context] as (l: string) => string)(b.text), split: 'dev' as const };
}

interface DevBetterleaksData {
  secrets: (HeldoutSecret & { half: 'tune' | 'check' })[];
  benign: (HeldoutBenign & { half: 'tune' | 'check' })[];
}

const DEV_BETTERLEAKS = JSON.parse(readFileSync(fileURLToPath(new URL('./dev-betterleaks.json', import.meta.url)), 'utf8')) as DevBetterleaksData;

/** betterleaks' sources placed as the original set's gitleaks sources are (the same scanner layout). */
const asGitleaks = (source: string): string => source.replace(/^betterleaks/, 'gitleaks');

/**
 * DEV data of the test half's own nature from a scanner not used before (dev-betterleaks.json, built by
 * extract-dev-betterleaks.ts from betterleaks' rule samples; vendors and near copies of the test half
 * dropped there): its true positives placed exactly as the original set's (`placeSecret`: two
 * contexts per value, one whole-line context per line), every one `dev`; `half`: tuned on, or a check
 * that dev-eval.ts only counts.
 */
export function heldoutDevBetterleaksSecrets(): (HeldoutPlanted & { half: 'tune' | 'check' })[] {
  return DEV_BETTERLEAKS.secrets.flatMap((s, i) => placeSecret(s, i, 'dev').map((p) => ({ ...p, half: s.half })));
}

/**
 * The other side: its false positives rule v5 calls benign and its public ids, in the original set's
 * notes for them (`benignNote`). `rule`: v5 (as built) or v7 (those holding none of v7's password values).
 */
export function heldoutBenignDevBetterleaks(rule: 'v5' | 'v7' = 'v5'): (HeldoutBenignNote & { half: 'tune' | 'check' })[] {
  return DEV_BETTERLEAKS.benign
    .filter((b) => rule === 'v5' || passwordValuesV7(b.text).length === 0)
    .map((b) => ({ ...benignNote({ source: asGitleaks(b.source), text: b.text }), source: b.source, cls: b.source.startsWith('betterleaks-history') ? b.source : 'betterleaks-fp', split: 'dev' as const, half: b.half }));
}

interface DevScannerTestsData {
  secrets: (HeldoutSecret & { half: 'tune' | 'check' })[];
  benign: (HeldoutBenign & { half: 'tune' | 'check' })[];
}

const DEV_SCANNER_TESTS = JSON.parse(readFileSync(fileURLToPath(new URL('./dev-scanner-tests.json', import.meta.url)), 'utf8')) as DevScannerTestsData;
/** KICS's secret-query fixtures (dev-kics.json, built by extract-dev-kics.ts; fifteenth session), in the same shape. */
const DEV_KICS = JSON.parse(readFileSync(fileURLToPath(new URL('./dev-kics.json', import.meta.url)), 'utf8')) as DevScannerTestsData;
/** Trivy's fixtures and 2ms's rule tests (dev-trivy-2ms.json, built by extract-dev-trivy-2ms.ts; seventeenth session), in the same shape. */
const DEV_TRIVY_2MS = JSON.parse(readFileSync(fileURLToPath(new URL('./dev-trivy-2ms.json', import.meta.url)), 'utf8')) as DevScannerTestsData;

/** A scanner-tests file's positives placed exactly as the original set's (`placeSecret`), every one `dev`, each with its half. */
const scannerTestsPlanted = (data: DevScannerTestsData): (HeldoutPlanted & { half: 'tune' | 'check' })[] =>
  data.secrets.flatMap((s, i) => placeSecret(s, i, 'dev').map((p) => ({ ...p, half: s.half })));

/** Its negatives rule v5 calls benign, in the note the original set gives a scanner's false positive. `rule`: v5 (as built) or v7. */
const scannerTestsBenign = (data: DevScannerTestsData, rule: 'v5' | 'v7'): (HeldoutBenignNote & { half: 'tune' | 'check' })[] =>
  data.benign
    .filter((b) => rule === 'v5' || passwordValuesV7(b.text).length === 0)
    .map((b) => ({ ...benignNote({ source: `gitleaks-fp:${b.source}`, text: b.text }), source: b.source, cls: b.source.split(':')[0] as string, split: 'dev' as const, half: b.half }));

/**
 * DEV data of the test half's shape from two scanners' own tests not read before (dev-scanner-tests.json, built by
 * extract-dev-scanner-tests.ts from octarinesec/secret-detector's detector tests and GitHub's custom patterns; vendors
 * and near copies of the test half dropped there; halves by a hash of the kind): its positives placed exactly as the
 * original set's (`placeSecret`), every one `dev`; `half`: tuned on, or a check that dev-eval.ts only counts.
 */
export function heldoutDevScannerTestsSecrets(): (HeldoutPlanted & { half: 'tune' | 'check' })[] {
  return scannerTestsPlanted(DEV_SCANNER_TESTS);
}

/** The other side: the scanners' negatives rule v5 calls benign, in the note the original set gives a scanner's false positive. `rule`: v5 (as built) or v7. */
export function heldoutBenignDevScannerTests(rule: 'v5' | 'v7' = 'v5'): (HeldoutBenignNote & { half: 'tune' | 'check' })[] {
  return scannerTestsBenign(DEV_SCANNER_TESTS, rule);
}

/** KICS's fixtures (dev-kics.json), both sides, as the scanner tests above: halves by a hash of the kind. */
export function heldoutDevKicsSecrets(): (HeldoutPlanted & { half: 'tune' | 'check' })[] {
  return scannerTestsPlanted(DEV_KICS);
}
export function heldoutBenignDevKics(rule: 'v5' | 'v7' = 'v5'): (HeldoutBenignNote & { half: 'tune' | 'check' })[] {
  return scannerTestsBenign(DEV_KICS, rule);
}

/** Trivy's fixtures and 2ms's rule tests (dev-trivy-2ms.json), both sides, as the scanner tests above: halves by a hash of the kind. */
export function heldoutDevTrivy2msSecrets(): (HeldoutPlanted & { half: 'tune' | 'check' })[] {
  return scannerTestsPlanted(DEV_TRIVY_2MS);
}
export function heldoutBenignDevTrivy2ms(rule: 'v5' | 'v7' = 'v5'): (HeldoutBenignNote & { half: 'tune' | 'check' })[] {
  return scannerTestsBenign(DEV_TRIVY_2MS, rule);
}
