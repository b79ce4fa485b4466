/**
 * Secret redaction, measured on two sets (issue 29):
 * - held-out: secrets nobody here wrote (public scanners' own test samples, test/support/secret-heldout/),
 *   placed in memory-note contexts, and benign notes from the same sources; the goal is >= 98 %
 *   removed and <= 2 % of benign notes touched;
 * - tuning: the generated corpus the rules were written against (test/support/secret-corpus.ts).
 * Recall per kind, overall recall, the share of benign notes touched, and throughput in MB/s, each
 * beside the previous redaction engine (src/lib/memory/redact.ts and secrets/ at BASELINE_COMMIT,
 * extracted from git with `git archive` into a temporary folder and measured in the same run on the
 * same notes, interleaved). A secret counts as removed only if no 12-character piece of it is left.
 * The held-out set is split by kind into a dev half (looked at while writing rules) and a test
 * half (only ever measured); both are reported.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { redactSecrets } from '../src/lib/memory/redact.js';
import { benignCorpus, secretCorpus, survives } from '../test/support/secret-corpus.js';
import { passwordTalkNotes, weakPasswordNotes, weakPasswordSurvives } from '../test/support/weak-passwords.js';
import { ownBenignNotes, ownSecretNotes } from '../test/support/secret-heldout/dev-own-notes.js';
import { ownBenignNotesBatch4, ownSecretNotesBatch4 } from '../test/support/secret-heldout/dev-own-notes-4.js';
import { ownBenignNotesBatch5, ownSecretNotesBatch5 } from '../test/support/secret-heldout/dev-own-notes-5.js';
import { ownBenignNotesBatch6, ownSecretNotesBatch6 } from '../test/support/secret-heldout/dev-own-notes-6.js';
import { ownBenignNotesBatch7, ownSecretNotesBatch7 } from '../test/support/secret-heldout/dev-own-notes-7.js';
import { ownBenignNotesBatch8, ownSecretNotesBatch8 } from '../test/support/secret-heldout/dev-own-notes-8.js';
import { AGENT_FILE_KINDS, publicBenignNotes, publicSecretNotes } from '../test/support/secret-heldout/public-notes.js';
import { MEMORY_FILE_KINDS, memoryBenignNotes, memorySecretNotes } from '../test/support/secret-heldout/memory-notes.js';
import { heldoutBenign, heldoutBenignDevBetterleaks, heldoutDevBetterleaksSecrets, heldoutBenignDevCredSweeper, heldoutBenignDevDocs, heldoutBenignDevExtra, heldoutBenignDevNegatives, heldoutDevCredSweeperSecrets, heldoutDevCredSweeperV7Secrets, heldoutBenignDevGeneric, heldoutDevGenericSecrets, heldoutDevGenericV7Secrets, heldoutBenignDevLinters, heldoutDevLintersSecrets, heldoutDevLintersV7Secrets, heldoutDevExtraSkipped, heldoutDevNegativesV7Secrets, heldoutDevRecall, heldoutSecrets, heldoutSkipped, heldoutV6Secrets, heldoutV7Secrets, heldoutBenignDevScannerTests, heldoutDevScannerTestsSecrets, heldoutBenignDevKics, heldoutDevKicsSecrets, heldoutBenignDevTrivy2ms, heldoutDevTrivy2msSecrets } from '../test/support/secret-heldout/notes.js';
import { median, ROOT, type Row } from './util.js';

/** The redaction engine as issue 29 found it (rule tables of issue 12, before the context rules). */
const BASELINE_COMMIT = '6e6a89b';

type Redact = (text: string) => { text: string };

async function loadBaseline(): Promise<{ redact: Redact | undefined; cleanup: () => void }> {
  const dir = mkdtempSync(join(tmpdir(), 'gms-redact-baseline-'));
  const cleanup = (): void => rmSync(dir, { recursive: true, force: true });
  const archive = spawnSync('sh', ['-c', `git archive ${BASELINE_COMMIT} src/lib/memory/redact.ts src/lib/memory/secrets | tar -x -C "${dir}"`], { cwd: ROOT });
  if (archive.status !== 0) {
    cleanup();
    return { redact: undefined, cleanup: () => undefined };
  }
  const mod = (await import(join(dir, 'src/lib/memory/redact.ts'))) as { redactSecrets: Redact };
  return { redact: mod.redactSecrets, cleanup };
}

interface Quality {
  /** Kinds of secret in the set (both halves). */
  kinds: number;
  /** Per kind, outside the test half. */
  recallByKind: Map<string, [number, number]>;
  recallBySource: Map<string, [number, number]>;
  recallBySplit: Map<string, [number, number]>;
  touchedBySplit: Map<string, [number, number]>;
  recall: number;
  secrets: number;
  falsePositiveRate: number;
  benign: number;
  /** Per class of benign note, outside the test half. */
  touchedByClass: Map<string, [number, number]>;
}

interface Sets {
  secrets: readonly { kind: string; source?: string; split?: string; secret: string; note: string }[];
  benign: readonly { cls: string; split?: string; note: string }[];
}

const bump = (m: Map<string, [number, number]>, key: string, ok: boolean): void => {
  const [hit, all] = m.get(key) ?? [0, 0];
  m.set(key, [hit + (ok ? 1 : 0), all + 1]);
};

function quality(redact: Redact, sets: Sets): Quality {
  const recallByKind = new Map<string, [number, number]>();
  const recallBySource = new Map<string, [number, number]>();
  const recallBySplit = new Map<string, [number, number]>();
  const touchedBySplit = new Map<string, [number, number]>();
  const kinds = new Set<string>();
  let removed = 0;
  for (const p of sets.secrets) {
    const ok = !survives(redact(p.note).text, p.secret);
    // Per kind and per class only outside the test half: its breakdown would say which of its
    // secrets are missed and which notes are touched, and it stays unseen (aggregate rows only).
    kinds.add(p.kind);
    if (p.split !== 'test') bump(recallByKind, p.kind, ok);
    bump(recallBySource, (p.source ?? 'tuning').split(':')[0] as string, ok);
    if (p.split !== undefined) bump(recallBySplit, p.split, ok);
    if (ok) removed += 1;
  }
  const touchedByClass = new Map<string, [number, number]>();
  let touched = 0;
  for (const b of sets.benign) {
    const t = redact(b.note).text !== b.note;
    if (b.split !== 'test') bump(touchedByClass, b.cls, t);
    if (b.split !== undefined) bump(touchedBySplit, b.split, t);
    if (t) touched += 1;
  }
  return {
    kinds: kinds.size,
    recallByKind,
    recallBySource,
    recallBySplit,
    touchedBySplit,
    recall: (100 * removed) / sets.secrets.length,
    secrets: sets.secrets.length,
    falsePositiveRate: (100 * touched) / sets.benign.length,
    benign: sets.benign.length,
    touchedByClass,
  };
}

const fraction = (p: [number, number] | undefined): string => (p === undefined ? '' : `${p[0]}/${p[1]}`);

/** Rows for one set: per-kind recall (only the kinds below 100 % when `onlyMisses`; never the test half's), totals, benign classes touched (never the test half's). */
function qualityRows(set: string, ours: Quality, old: Quality | undefined, oldName: string, onlyMisses: boolean): Row[] {
  const rows: Row[] = [];
  for (const kind of [...ours.recallByKind.keys()].sort()) {
    const [hit, all] = ours.recallByKind.get(kind) as [number, number];
    if (onlyMisses && hit === all) continue;
    const before = old?.recallByKind.get(kind);
    rows.push({ name: `${set}: recall ${kind}`, value: (100 * hit) / all, unit: '%', note: `${hit}/${all}${before === undefined ? '' : `; before ${fraction(before)}`}` });
  }
  if (onlyMisses) rows.push({ name: `${set}: every other kind`, value: 100, unit: '%', note: `${[...ours.recallByKind.values()].filter(([h, a]) => h === a).length} kinds all removed` });
  for (const [source, r] of [...ours.recallBySource].sort()) {
    if (ours.recallBySource.size === 1) break;
    rows.push({ name: `${set}: recall, ${source} samples`, value: (100 * r[0]) / r[1], unit: '%', note: `${fraction(r)}; before ${fraction(old?.recallBySource.get(source))}` });
  }
  for (const [split, r] of [...ours.recallBySplit].sort()) {
    rows.push({ name: `${set}: recall, ${split} half (${split === 'dev' ? 'looked at while writing rules' : 'only ever measured'})`, value: (100 * r[0]) / r[1], unit: '%', note: `${fraction(r)}; before ${fraction(old?.recallBySplit.get(split))}` });
  }
  for (const [split, t] of [...ours.touchedBySplit].sort()) {
    rows.push({ name: `${set}: benign touched, ${split} half`, value: (100 * t[0]) / t[1], unit: '%', note: `${fraction(t)}; before ${fraction(old?.touchedBySplit.get(split))}` });
  }
  rows.push({ name: `${set}: recall, all ${ours.secrets} secrets of ${ours.kinds} kinds`, value: ours.recall, unit: '%', baseline: old?.recall, baselineName: oldName, note: old === undefined ? 'baseline unavailable (no git)' : `before: ${old.recall.toFixed(1)} %` });
  for (const [cls, t] of [...ours.touchedByClass].sort()) {
    if (t[0] === 0) continue;
    rows.push({ name: `${set}: benign ${cls} touched`, value: (100 * t[0]) / t[1], unit: '%', note: `${fraction(t)}; before ${fraction(old?.touchedByClass.get(cls))}` });
  }
  rows.push({ name: `${set}: benign notes touched, of ${ours.benign}`, value: ours.falsePositiveRate, unit: '%', baseline: old?.falsePositiveRate, baselineName: oldName, note: old === undefined ? '' : `before: ${old.falsePositiveRate.toFixed(1)} %` });
  return rows;
}

/**
 * Issue 40's set (test/support/weak-passwords.ts): common passwords written in memory notes in 19
 * forms, and notes that talk about passwords without holding one. Each half on its own: the dev
 * half was tuned on, the test half (other passwords, other kinds of password talk) only measured.
 * Per form for the dev half only (the test half's misses are not broken down, so they stay unseen).
 */
function weakPasswordRows(before: Redact | undefined, oldName: string): Row[] {
  const rows: Row[] = [];
  const notes = weakPasswordNotes();
  const talk = passwordTalkNotes();
  for (const split of ['dev', 'test'] as const) {
    const half = notes.filter((n) => n.split === split);
    const removed = (redact: Redact): number => half.filter((n) => !weakPasswordSurvives(redact(n.note).text, n)).length;
    const ours = removed(redactSecrets);
    const old = before === undefined ? undefined : removed(before);
    rows.push({ name: `weak passwords, ${split} half (${split === 'dev' ? 'tuned on' : 'only ever measured'}): removed, of ${half.length}`, value: (100 * ours) / half.length, unit: '%', baseline: old === undefined ? undefined : (100 * old) / half.length, baselineName: oldName, note: `${ours}/${half.length}${old === undefined ? '' : `; before ${old}/${half.length}`}` });
    const talkHalf = talk.filter((b) => b.split === split);
    const touched = (redact: Redact): number => talkHalf.filter((b) => redact(b.note).text !== b.note).length;
    const t = touched(redactSecrets);
    const tOld = before === undefined ? undefined : touched(before);
    rows.push({ name: `password talk without a password, ${split} half: benign notes touched, of ${talkHalf.length}`, value: (100 * t) / talkHalf.length, unit: '%', baseline: tOld === undefined ? undefined : (100 * tOld) / talkHalf.length, baselineName: oldName, note: `${t}/${talkHalf.length}${tOld === undefined ? '' : `; before ${tOld}/${talkHalf.length}`}` });
  }
  for (const form of [...new Set(notes.map((n) => n.form))].sort()) {
    const dev = notes.filter((n) => n.split === 'dev' && n.form === form);
    const ok = dev.filter((n) => !weakPasswordSurvives(redactSecrets(n.note).text, n)).length;
    if (ok < dev.length) rows.push({ name: `weak passwords, dev half: removed, form ${form}`, value: (100 * ok) / dev.length, unit: '%', note: `${ok}/${dev.length}` });
  }
  return rows;
}

/**
 * MB/s redacting each note on its own (as the engine does, per document), ours and the previous
 * engine interleaved run by run so both meet the same load: after a warm-up, the fastest of 7
 * passes each (on a shared, loaded machine the fastest pass measures the code, a median the load).
 */
function throughputPair(ours: Redact, before: Redact | undefined, notes: readonly string[]): { ours: number; before: number | undefined } {
  const bytes = notes.reduce((n, t) => n + Buffer.byteLength(t), 0);
  const once = (redact: Redact): number => {
    const t0 = process.hrtime.bigint();
    for (const n of notes) redact(n);
    return Number(process.hrtime.bigint() - t0) / 1e9;
  };
  once(ours);
  if (before !== undefined) once(before);
  let best = Infinity;
  let bestBefore = Infinity;
  for (let i = 0; i < 7; i += 1) {
    if (before !== undefined) bestBefore = Math.min(bestBefore, once(before));
    best = Math.min(best, once(ours));
  }
  return { ours: bytes / 1e6 / best, before: before === undefined ? undefined : bytes / 1e6 / bestBefore };
}

/** Notes repeated until they add up to about `bytes`. */
function repeatTo(notes: string[], bytes: number): string[] {
  const out: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i += 1) {
    const n = notes[i % notes.length] as string;
    out.push(n);
    size += n.length;
  }
  return out;
}

export async function benchRedact(): Promise<Row[]> {
  const baseline = await loadBaseline();
  try {
    const oldName = `before (${BASELINE_COMMIT})`;
    const heldout: Sets = { secrets: heldoutSecrets(), benign: heldoutBenign() };
    const tuning: Sets = { secrets: secretCorpus(), benign: benignCorpus() };
    const rows: Row[] = [];
    for (const [set, sets, onlyMisses] of [['held-out', heldout, false], ['tuning', tuning, true]] as const) {
      const ours = quality(redactSecrets, sets);
      const old = baseline.redact === undefined ? undefined : quality(baseline.redact, sets);
      rows.push(...qualityRows(set, ours, old, oldName, onlyMisses));
    }
    rows.push(...weakPasswordRows(baseline.redact, oldName));
    rows.push({ name: 'held-out: scanner samples left out (unparsed, or credential-shaped false positives)', value: heldoutSkipped().length, unit: '', note: 'see test/support/secret-heldout/data.json "skipped"' });
    // More dev data (other scanners' published non-findings, dev-extra.json): every note is dev; reported apart
    // from the original set above, whose rows stay like for like with earlier runs.
    const extra = heldoutBenignDevExtra();
    const extraTouched = (redact: Redact): number => extra.filter((b) => redact(b.note).text !== b.note).length;
    const extraOurs = extraTouched(redactSecrets);
    const extraOld = baseline.redact === undefined ? undefined : extraTouched(baseline.redact);
    rows.push({ name: `held-out dev extension (scanners' non-findings, AWS CLI examples; all dev): benign touched, of ${extra.length}`, value: (100 * extraOurs) / extra.length, unit: '%', note: `${extraOurs}/${extra.length}${extraOld === undefined ? '' : `; before ${extraOld}/${extra.length}`}; ${heldoutDevExtraSkipped().length} samples left out by rule v5` });
    for (const source of [...new Set(extra.map((b) => b.cls))].sort()) {
      const notes = extra.filter((b) => b.cls === source);
      const touched = notes.filter((b) => redactSecrets(b.note).text !== b.note).length;
      rows.push({ name: `held-out dev extension: ${source} touched`, value: (100 * touched) / notes.length, unit: '%', note: `${touched}/${notes.length}` });
    }
    // Documentation lines naming credentials, ids and hashes (dev-docs.json, issue 29's "documentation examples and
    // placeholders, ids and hashes"): every note is dev; reported apart, per source.
    const docs = heldoutBenignDevDocs();
    const docsTouched = (redact: Redact): number => docs.filter((b) => redact(b.note).text !== b.note).length;
    const docsOurs = docsTouched(redactSecrets);
    const docsOld = baseline.redact === undefined ? undefined : docsTouched(baseline.redact);
    rows.push({ name: `held-out dev docs (docs, CI workflows, lockfiles and code of 38 projects; all dev): benign touched, of ${docs.length}`, value: (100 * docsOurs) / docs.length, unit: '%', note: `${docsOurs}/${docs.length}${docsOld === undefined ? '' : `; before ${docsOld}/${docs.length}`}` });
    for (const source of [...new Set(docs.map((b) => b.cls))].sort()) {
      const notes = docs.filter((b) => b.cls === source);
      const touched = notes.filter((b) => redactSecrets(b.note).text !== b.note).length;
      rows.push({ name: `held-out dev docs: ${source} touched`, value: (100 * touched) / notes.length, unit: '%', note: `${touched}/${notes.length}` });
    }
    // More true positives, all dev (Kingfisher's rule examples, dev-recall.json; rules of test-half vendors dropped when it was built).
    const devRecall = heldoutDevRecall();
    const devRecallFound = (redact: Redact): number => devRecall.filter((p) => !survives(redact(p.note).text, p.secret)).length;
    const devRecallOurs = devRecallFound(redactSecrets);
    const devRecallOld = baseline.redact === undefined ? undefined : devRecallFound(baseline.redact);
    rows.push({ name: `held-out dev recall (Kingfisher's rule examples, vendors of the test half dropped; all dev): removed, of ${devRecall.length}`, value: (100 * devRecallOurs) / devRecall.length, unit: '%', note: `${devRecallOurs}/${devRecall.length}${devRecallOld === undefined ? '' : `; before ${devRecallOld}/${devRecall.length}`}; many are counting stand-ins (\`abcdef1234567890…\`), which stay by design` });
    // A scanner's own negative samples for one vendor's rule (Kingfisher's and Titus's negative_examples, dev-negatives.json;
    // rules of test-half vendors dropped when it was built): the kind of note the test half's benign notes are. All dev; under
    // v5 as built, per source, and under v7 with the samples it makes secrets scored as secrets.
    const negatives = heldoutBenignDevNegatives();
    const negativesTouched = (redact: Redact, notes: readonly { note: string }[]): number => notes.filter((b) => redact(b.note).text !== b.note).length;
    const negOurs = negativesTouched(redactSecrets, negatives);
    const negOld = baseline.redact === undefined ? undefined : negativesTouched(baseline.redact, negatives);
    rows.push({ name: `held-out dev negatives (Kingfisher's and Titus's negative examples, vendors of the test half dropped; all dev): benign touched, of ${negatives.length}`, value: (100 * negOurs) / negatives.length, unit: '%', note: `${negOurs}/${negatives.length}${negOld === undefined ? '' : `; before ${negOld}/${negatives.length}`}` });
    for (const source of [...new Set(negatives.map((b) => b.cls))].sort()) {
      const notes = negatives.filter((b) => b.cls === source);
      rows.push({ name: `held-out dev negatives: ${source} touched`, value: (100 * negativesTouched(redactSecrets, notes)) / notes.length, unit: '%', note: `${negativesTouched(redactSecrets, notes)}/${notes.length}` });
    }
    const negV7 = heldoutBenignDevNegatives('v7');
    const negV7Moved = heldoutDevNegativesV7Secrets();
    const negV7Removed = negV7Moved.filter((m) => m.secrets.every((v) => !survives(redactSecrets(m.note).text, v))).length;
    rows.push({ name: `held-out dev negatives under labelling rule v7: benign touched, of ${negV7.length}`, value: (100 * negativesTouched(redactSecrets, negV7)) / negV7.length, unit: '%', note: `${negativesTouched(redactSecrets, negV7)}/${negV7.length}; v7 makes ${negV7Moved.length} secrets, ${negV7Removed} removed` });
    // CredSweeper's test samples, both sides (dev-credsweeper.json: the lines its expected output reports, or the same value in
    // its doc-mode samples, as secrets; the rest labelled by v5; vendors of the test half dropped when it was built). All dev.
    const cs = heldoutDevCredSweeperSecrets();
    const csFound = (redact: Redact, notes: readonly { note: string; secret: string }[]): number => notes.filter((p) => !survives(redact(p.note).text, p.secret)).length;
    const csOurs = csFound(redactSecrets, cs);
    const csOld = baseline.redact === undefined ? undefined : csFound(baseline.redact, cs);
    rows.push({ name: `held-out dev CredSweeper (its test samples' lines its expected output reports; vendors of the test half dropped; all dev): removed, of ${cs.length}`, value: (100 * csOurs) / cs.length, unit: '%', note: `${csOurs}/${cs.length}${csOld === undefined ? '' : `; before ${csOld}/${cs.length}`}` });
    const csBenign = heldoutBenignDevCredSweeper();
    const csBenignOurs = negativesTouched(redactSecrets, csBenign);
    const csBenignOld = baseline.redact === undefined ? undefined : negativesTouched(baseline.redact, csBenign);
    rows.push({ name: `held-out dev CredSweeper (the other lines of its test samples, rule v5; all dev): benign touched, of ${csBenign.length}`, value: (100 * csBenignOurs) / csBenign.length, unit: '%', note: `${csBenignOurs}/${csBenign.length}${csBenignOld === undefined ? '' : `; before ${csBenignOld}/${csBenign.length}`}` });
    for (const cls of [...new Set([...cs, ...csBenign].map((b) => b.cls))].sort()) {
      const secrets = cs.filter((p) => p.cls === cls);
      const notes = csBenign.filter((b) => b.cls === cls);
      rows.push({ name: `held-out dev CredSweeper: ${cls} removed`, value: (100 * csFound(redactSecrets, secrets)) / secrets.length, unit: '%', note: `${csFound(redactSecrets, secrets)}/${secrets.length}` });
      rows.push({ name: `held-out dev CredSweeper: ${cls} benign touched`, value: (100 * negativesTouched(redactSecrets, notes)) / notes.length, unit: '%', note: `${negativesTouched(redactSecrets, notes)}/${notes.length}` });
    }
    const csV7 = heldoutBenignDevCredSweeper('v7');
    const csV7Moved = heldoutDevCredSweeperV7Secrets();
    const csV7Removed = csV7Moved.filter((m) => m.secrets.every((v) => !survives(redactSecrets(m.note).text, v))).length;
    rows.push({ name: `held-out dev CredSweeper under labelling rule v7: benign touched, of ${csV7.length}`, value: (100 * negativesTouched(redactSecrets, csV7)) / csV7.length, unit: '%', note: `${negativesTouched(redactSecrets, csV7)}/${csV7.length}; v7 makes ${csV7Moved.length} secrets, ${csV7Removed} removed` });
    // The scanners' generic rules, both sides (dev-generic.json: Kingfisher's and Titus's rules without a vendor word, the kind
    // the test half's generic kind is; every near copy of a test-half sample dropped when it was built). All dev.
    const gen = heldoutDevGenericSecrets();
    const genOurs = csFound(redactSecrets, gen);
    const genOld = baseline.redact === undefined ? undefined : csFound(baseline.redact, gen);
    rows.push({ name: `held-out dev generic (Kingfisher's and Titus's generic rules' examples, near copies of the test half dropped; all dev): removed, of ${gen.length}`, value: (100 * genOurs) / gen.length, unit: '%', note: `${genOurs}/${gen.length}${genOld === undefined ? '' : `; before ${genOld}/${gen.length}`}` });
    const genBenign = heldoutBenignDevGeneric();
    rows.push({ name: `held-out dev generic (their negative examples, rule v5; all dev): benign touched, of ${genBenign.length}`, value: genBenign.length === 0 ? 0 : (100 * negativesTouched(redactSecrets, genBenign)) / genBenign.length, unit: '%', note: `${negativesTouched(redactSecrets, genBenign)}/${genBenign.length}` });
    const genV7 = heldoutBenignDevGeneric('v7');
    const genV7Moved = heldoutDevGenericV7Secrets();
    const genV7Removed = genV7Moved.filter((m) => m.secrets.every((v) => !survives(redactSecrets(m.note).text, v))).length;
    rows.push({ name: `held-out dev generic under labelling rule v7: benign touched, of ${genV7.length}`, value: genV7.length === 0 ? 0 : (100 * negativesTouched(redactSecrets, genV7)) / genV7.length, unit: '%', note: `${negativesTouched(redactSecrets, genV7)}/${genV7.length}; v7 makes ${genV7Moved.length} secrets, ${genV7Removed} removed` });
    // The linters' hard-coded-credential test suites, both sides (dev-linters.json: gosec, bandit, DevSkim, eslint-plugin-no-secrets;
    // near copies and vendors of the test half dropped when it was built). All dev.
    const lint = heldoutDevLintersSecrets();
    const lintOurs = csFound(redactSecrets, lint);
    const lintOld = baseline.redact === undefined ? undefined : csFound(baseline.redact, lint);
    rows.push({ name: `held-out dev linters (gosec's, bandit's, DevSkim's, eslint-plugin-no-secrets', earlybird's and ruff's test suites, their findings; all dev): removed, of ${lint.length}`, value: (100 * lintOurs) / lint.length, unit: '%', note: `${lintOurs}/${lint.length}${lintOld === undefined ? '' : `; before ${lintOld}/${lint.length}`}` });
    const lintBenign = heldoutBenignDevLinters();
    const lintBenignOurs = negativesTouched(redactSecrets, lintBenign);
    const lintBenignOld = baseline.redact === undefined ? undefined : negativesTouched(baseline.redact, lintBenign);
    rows.push({ name: `held-out dev linters (the other lines of their test suites, rule v5; all dev): benign touched, of ${lintBenign.length}`, value: (100 * lintBenignOurs) / lintBenign.length, unit: '%', note: `${lintBenignOurs}/${lintBenign.length}${lintBenignOld === undefined ? '' : `; before ${lintBenignOld}/${lintBenign.length}`}` });
    for (const cls of [...new Set([...lint, ...lintBenign].map((b) => b.cls))].sort()) {
      const secrets = lint.filter((p) => p.cls === cls);
      const notes = lintBenign.filter((b) => b.cls === cls);
      if (secrets.length > 0) rows.push({ name: `held-out dev linters: ${cls} removed`, value: (100 * csFound(redactSecrets, secrets)) / secrets.length, unit: '%', note: `${csFound(redactSecrets, secrets)}/${secrets.length}` });
      if (notes.length > 0) rows.push({ name: `held-out dev linters: ${cls} benign touched`, value: (100 * negativesTouched(redactSecrets, notes)) / notes.length, unit: '%', note: `${negativesTouched(redactSecrets, notes)}/${notes.length}` });
    }
    const lintV7 = heldoutBenignDevLinters('v7');
    const lintV7Moved = heldoutDevLintersV7Secrets();
    const lintV7Removed = lintV7Moved.filter((m) => m.secrets.every((v) => !survives(redactSecrets(m.note).text, v))).length;
    rows.push({ name: `held-out dev linters under labelling rule v7: benign touched, of ${lintV7.length}`, value: (100 * negativesTouched(redactSecrets, lintV7)) / lintV7.length, unit: '%', note: `${negativesTouched(redactSecrets, lintV7)}/${lintV7.length}; v7 makes ${lintV7Moved.length} secrets, ${lintV7Removed} removed` });
    // betterleaks' rule samples, both sides (dev-betterleaks.json, 2026-12-07 eleventh session: a scanner's own negatives for
    // one vendor's rule, the test half's nature, from a source not used before; vendors and near copies of the test half
    // dropped when it was built), and the scanners' own tests (dev-scanner-tests.json, fourteenth session: secret-detector's
    // detector tables and GitHub's custom patterns, halves by a hash of the kind, as the test half). All dev, each half on
    // its own rows: tuned on, and a check never tuned on.
    for (const [source, secretsOf, benignOf] of [
      ['betterleaks', heldoutDevBetterleaksSecrets, heldoutBenignDevBetterleaks],
      ['scanner tests (secret-detector, custom patterns)', heldoutDevScannerTestsSecrets, heldoutBenignDevScannerTests],
      // KICS's secret-query fixtures (dev-kics.json, fifteenth session), the same shape and split.
      ['KICS fixtures', heldoutDevKicsSecrets, heldoutBenignDevKics],
      // Trivy's secret-scanner fixtures and 2ms's rule tests (dev-trivy-2ms.json, seventeenth session), the same shape and split.
      ['Trivy fixtures and 2ms rule tests', heldoutDevTrivy2msSecrets, heldoutBenignDevTrivy2ms],
    ] as const) {
      for (const half of ['tune', 'check'] as const) {
        const label = half === 'tune' ? 'tuned on' : 'check, not tuned on';
        const bl = secretsOf().filter((p) => p.half === half);
        const blOurs = csFound(redactSecrets, bl);
        const blOld = baseline.redact === undefined ? undefined : csFound(baseline.redact, bl);
        // (KICS's check half holds no positive: its positive kinds are the test half's vendors or generic, dropped when built.)
        if (bl.length > 0) rows.push({ name: `held-out dev ${source} (${label}; its rules' true positives): removed, of ${bl.length}`, value: (100 * blOurs) / bl.length, unit: '%', note: `${blOurs}/${bl.length}${blOld === undefined ? '' : `; before ${blOld}/${bl.length}`}` });
        const blBenign = benignOf().filter((b) => b.half === half);
        const blBenignOurs = negativesTouched(redactSecrets, blBenign);
        const blBenignOld = baseline.redact === undefined ? undefined : negativesTouched(baseline.redact, blBenign);
        rows.push({ name: `held-out dev ${source} (${label}; its false positives, rule v5${source === 'betterleaks' ? ', and public ids' : ''}): benign touched, of ${blBenign.length}`, value: (100 * blBenignOurs) / blBenign.length, unit: '%', note: `${blBenignOurs}/${blBenign.length}${blBenignOld === undefined ? '' : `; before ${blBenignOld}/${blBenign.length}`}` });
        const blV7 = benignOf('v7').filter((b) => b.half === half);
        rows.push({ name: `held-out dev ${source} (${label}) under labelling rule v7: benign touched, of ${blV7.length}`, value: (100 * negativesTouched(redactSecrets, blV7)) / blV7.length, unit: '%', note: `${negativesTouched(redactSecrets, blV7)}/${blV7.length}` });
      }
    }
    // Memory notes written by hand (dev-own-notes.ts, 2026-12-06; all dev): secrets in 15+ languages and many forms, and notes that
    // talk about passwords, keys and tokens without one (policies, vaults, templates, CLI help, changelogs), in the same languages.
    const own = ownSecretNotes();
    const ownFound = (redact: Redact): number => own.filter((p) => !survives(redact(p.note).text, p.secret)).length;
    const ownOurs = ownFound(redactSecrets);
    const ownOld = baseline.redact === undefined ? undefined : ownFound(baseline.redact);
    rows.push({ name: `held-out dev own notes (written by hand, several languages; all dev): removed, of ${own.length}`, value: (100 * ownOurs) / own.length, unit: '%', note: `${ownOurs}/${own.length}${ownOld === undefined ? '' : `; before ${ownOld}/${own.length}`}` });
    const ownBenign = ownBenignNotes();
    const ownBenignOurs = negativesTouched(redactSecrets, ownBenign);
    const ownBenignOld = baseline.redact === undefined ? undefined : negativesTouched(baseline.redact, ownBenign);
    rows.push({ name: `held-out dev own notes (password talk without one, several languages; all dev): benign touched, of ${ownBenign.length}`, value: (100 * ownBenignOurs) / ownBenign.length, unit: '%', note: `${ownBenignOurs}/${ownBenign.length}${ownBenignOld === undefined ? '' : `; before ${ownBenignOld}/${ownBenign.length}`}` });
    // Batches 4 and 5 of the notes written by hand (dev-own-notes-4.ts, 2026-12-07 ninth session; dev-own-notes-5.ts, tenth
    // session, benign notes that talk about credentials; all dev), each half on its own rows: the half the rules were tuned
    // on, and the check half, never tuned on.
    // Batch 6 (dev-own-notes-6.ts, twelfth session): credentials in the forms credential files and commands take.
    // Batch 7 (dev-own-notes-7.ts, twelfth session): weak passwords a clause away from their word, pairs, PINs, quotes.
    // Batch 8 (dev-own-notes-8.ts, thirteenth session): passwords in a non-Latin script after their word, and look-alikes.
    for (const [batch, secretsOf, benignOf] of [[4, ownSecretNotesBatch4, ownBenignNotesBatch4], [5, ownSecretNotesBatch5, ownBenignNotesBatch5], [6, ownSecretNotesBatch6, ownBenignNotesBatch6], [7, ownSecretNotesBatch7, ownBenignNotesBatch7], [8, ownSecretNotesBatch8, ownBenignNotesBatch8]] as const) {
      for (const half of ['tune', 'check'] as const) {
        const label = half === 'tune' ? 'tuned on' : 'check, not tuned on';
        const secrets = secretsOf().filter((p) => p.half === half);
        const found = (redact: Redact): number => secrets.filter((p) => !survives(redact(p.note).text, p.secret)).length;
        const ours = found(redactSecrets);
        const old = baseline.redact === undefined ? undefined : found(baseline.redact);
        rows.push({ name: `held-out dev own notes batch ${batch} (${label}): removed, of ${secrets.length}`, value: (100 * ours) / secrets.length, unit: '%', note: `${ours}/${secrets.length}${old === undefined ? '' : `; before ${old}/${secrets.length}`}` });
        const benign = benignOf().filter((b) => b.half === half);
        const benignOurs = negativesTouched(redactSecrets, benign);
        const benignOld = baseline.redact === undefined ? undefined : negativesTouched(baseline.redact, benign);
        rows.push({ name: `held-out dev own notes batch ${batch} (${label}): benign touched, of ${benign.length}`, value: (100 * benignOurs) / benign.length, unit: '%', note: `${benignOurs}/${benign.length}${benignOld === undefined ? '' : `; before ${benignOld}/${benign.length}`}` });
      }
    }
    // Text people wrote for coding agents in public repositories (dev-public-notes.json, thirteenth session; rule P1): the
    // benign side of issue 40's precision goal on what memory notes look like, whole repositories on each side; the dev
    // half tuned on, the check half never. Per row (samples with a credential word, and the control row) and per kind of file.
    for (const split of ['dev', 'check'] as const) {
      const label = split === 'dev' ? 'dev, tuned on' : 'check, not tuned on';
      const benign = publicBenignNotes(split);
      const touchedBy = (redact: Redact, f: (b: (typeof benign)[number]) => boolean): number => benign.filter((b) => f(b) && redact(b.note).text !== b.note).length;
      const all = (): boolean => true;
      const ours = touchedBy(redactSecrets, all);
      const old = baseline.redact === undefined ? undefined : touchedBy(baseline.redact, all);
      rows.push({ name: `public agent notes (${label}): benign touched, of ${benign.length}`, value: (100 * ours) / benign.length, unit: '%', note: `${ours}/${benign.length}${old === undefined ? '' : `; before ${old}/${benign.length}`}` });
      for (const row of ['credential', 'control'] as const) {
        const n = benign.filter((b) => b.row === row).length;
        const t = touchedBy(redactSecrets, (b) => b.row === row);
        rows.push({ name: `public agent notes (${label}), ${row === 'credential' ? 'with a credential word' : 'control row'}: benign touched, of ${n}`, value: (100 * t) / n, unit: '%', note: `${t}/${n}` });
      }
      for (const kind of AGENT_FILE_KINDS) {
        const n = benign.filter((b) => b.kind === kind).length;
        if (n === 0) continue;
        const t = touchedBy(redactSecrets, (b) => b.kind === kind);
        rows.push({ name: `public agent notes (${label}), ${kind}: benign touched, of ${n}`, value: (100 * t) / n, unit: '%', note: `${t}/${n}` });
      }
      const values = publicSecretNotes(split);
      const removed = values.filter((p) => p.secrets.every((v) => !survives(redactSecrets(p.note).text, v))).length;
      rows.push({ name: `public agent notes (${label}), values in public agent files (rule P1): removed, of ${values.length}`, value: (100 * removed) / Math.max(1, values.length), unit: '%', note: `${removed}/${values.length}` });
    }
    // Memory files people and their agents keep in public repositories (dev-memory-notes.json, sixteenth session; rule
    // P1): `MEMORY.md`, a `memory/` folder's notes, Cline's `memory-bank/`, the `CLAUDE.md` beside them; whole repositories
    // on each side, the dev half tuned on, the check half never. Per row and per kind of file.
    for (const split of ['dev', 'check'] as const) {
      const label = split === 'dev' ? 'dev, tuned on' : 'check, not tuned on';
      const benign = memoryBenignNotes(split);
      const touchedBy = (redact: Redact, f: (b: (typeof benign)[number]) => boolean): number => benign.filter((b) => f(b) && redact(b.note).text !== b.note).length;
      const all = (): boolean => true;
      const ours = touchedBy(redactSecrets, all);
      const old = baseline.redact === undefined ? undefined : touchedBy(baseline.redact, all);
      rows.push({ name: `public memory notes (${label}): benign touched, of ${benign.length}`, value: (100 * ours) / benign.length, unit: '%', note: `${ours}/${benign.length}${old === undefined ? '' : `; before ${old}/${benign.length}`}` });
      for (const row of ['credential', 'control'] as const) {
        const n = benign.filter((b) => b.row === row).length;
        const t = touchedBy(redactSecrets, (b) => b.row === row);
        rows.push({ name: `public memory notes (${label}), ${row === 'credential' ? 'with a credential word' : 'control row'}: benign touched, of ${n}`, value: (100 * t) / Math.max(1, n), unit: '%', note: `${t}/${n}` });
      }
      for (const kind of MEMORY_FILE_KINDS) {
        const n = benign.filter((b) => b.kind === kind).length;
        if (n === 0) continue;
        const t = touchedBy(redactSecrets, (b) => b.kind === kind);
        rows.push({ name: `public memory notes (${label}), ${kind}: benign touched, of ${n}`, value: (100 * t) / n, unit: '%', note: `${t}/${n}` });
      }
      const values = memorySecretNotes(split);
      const removed = values.filter((p) => p.secrets.every((v) => !survives(redactSecrets(p.note).text, v))).length;
      rows.push({ name: `public memory notes (${label}), values in public memory files (rule P1): removed, of ${values.length}`, value: (100 * removed) / Math.max(1, values.length), unit: '%', note: `${removed}/${values.length}` });
    }
    const devOrig = heldout.benign.filter((b) => b.split === 'dev');
    const devTouched = devOrig.filter((b) => redactSecrets(b.note).text !== b.note).length + extraOurs;
    rows.push({ name: `held-out dev half with the extension: benign touched, of ${devOrig.length + extra.length}`, value: (100 * devTouched) / (devOrig.length + extra.length), unit: '%', note: `${devTouched}/${devOrig.length + extra.length}` });
    // The benign notes as the earlier labelling rules had them (test/support/secret-heldout/README.md; v5 is the set above), so each relabel can be judged.
    for (const rule of ['v1', 'v2', 'v3', 'v4'] as const) {
      const earlier = heldoutBenign(rule);
      for (const split of ['dev', 'test', undefined] as const) {
        const notes = earlier.filter((b) => split === undefined || b.split === split);
        const touched = notes.filter((b) => redactSecrets(b.note).text !== b.note).length;
        rows.push({ name: `held-out: benign touched under labelling rule ${rule}, ${split ?? 'all'}${split === undefined ? '' : ' half'}`, value: (100 * touched) / notes.length, unit: '%', note: `${touched}/${notes.length}` });
      }
    }

    // Rules v6 and v7 (README.md): v6 is v5 amended by issue 40's definition; v7 adds the URL,
    // command-line and `user / password` forms issue 40 names. Their benign notes per half, and the
    // samples each moves from benign to secret (a value given as a password next to its word),
    // scored as secrets; recall under the rule counts them.
    for (const [rule, moves] of [['v6', heldoutV6Secrets()], ['v7', heldoutV7Secrets()]] as const) {
      const ruleBenign = heldoutBenign(rule);
      for (const split of ['dev', 'test'] as const) {
        const notes = ruleBenign.filter((b) => b.split === split);
        const touched = notes.filter((b) => redactSecrets(b.note).text !== b.note).length;
        rows.push({ name: `held-out: benign touched under labelling rule ${rule}, ${split} half`, value: (100 * touched) / notes.length, unit: '%', note: `${touched}/${notes.length}` });
        const moved = moves.filter((m) => m.split === split);
        const removed = moved.filter((m) => {
          const out = redactSecrets(m.note).text;
          return m.secrets.every((v) => !survives(out, v));
        }).length;
        const planted = heldout.secrets.filter((p) => p.split === split);
        const found = planted.filter((p) => !survives(redactSecrets(p.note).text, p.secret)).length;
        rows.push({ name: `held-out: recall under labelling rule ${rule}, ${split} half (with the ${moved.length} samples ${rule} makes secrets)`, value: (100 * (found + removed)) / (planted.length + moved.length), unit: '%', note: `${found + removed}/${planted.length + moved.length}; of them ${rule}'s: ${removed}/${moved.length}` });
      }
    }

    const mixed = repeatTo([...secretCorpus().map((p) => p.note), ...benignCorpus().map((b) => b.note)], 4_000_000);
    const prose = repeatTo(benignCorpus().filter((b) => b.cls === 'ordinary-note' || b.cls === 'prose-about-secrets').map((b) => b.note), 4_000_000);
    const memoryNotes = repeatTo(prose.map((_, i) => prose.slice(i, i + 40).join('\n\n')).slice(0, 40), 4_000_000);
    for (const [name, text] of [['secret-dense notes (corpus notes: secrets + look-alikes)', mixed], ['prose notes (short)', prose], ['prose notes (4 KB memory notes)', memoryNotes]] as const) {
      const { ours: rate, before: oldRate } = throughputPair(redactSecrets, baseline.redact, text);
      rows.push({ name: `throughput, ${name}`, value: rate, unit: 'MB/s', baseline: oldRate, baselineName: oldName, note: oldRate === undefined ? '' : `before: ${oldRate.toFixed(1)} MB/s` });
    }
    return rows;
  } finally {
    baseline.cleanup();
  }
}
