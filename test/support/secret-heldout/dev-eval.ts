/**
 * The DEV figures only, for iterating on the rules (issue 29): the dev half's recall and benign
 * notes touched, the dev recall data, the dev negatives, CredSweeper's samples, the scanners' generic rules, the linters' test suites and
 * betterleaks' rule samples (both sides; betterleaks' check half counted only), the dev
 * extension and dev docs touched per source, the weak-password set's dev half, the notes written by hand
 * (dev-own-notes.ts), and the tuning corpus. It never reads,
 * counts or prints a test-half note: those are filtered out before anything is redacted.
 * `--show` prints each touched or missed dev note and what the redaction changed.
 *
 * Batch 6's check half (dev-own-notes-6.ts) is counted only with `--check-6`, batch 7's (dev-own-notes-7.ts) only
 * with `--check-7`, batch 8's (dev-own-notes-8.ts) only with `--check-8`, and the public agent notes' check half
 * (dev-public-notes.json) only with `--check-public`, once at first contact and once at the end of a round, so that
 * their counts are not watched while the rules change.
 *
 * The scanner tests' check half (dev-scanner-tests.json) is counted only with `--check-scanner-tests`, likewise, and KICS's
 * fixtures' check half (dev-kics.json) only with `--check-kics`, Trivy's and 2ms's (dev-trivy-2ms.json) only with
 * `--check-trivy-2ms`, and the public memory notes' check half
 * (dev-memory-notes.json) only with `--check-memory`.
 *
 * Run: `npx tsx test/support/secret-heldout/dev-eval.ts [--show] [--check-6] [--check-7] [--check-8] [--check-public] [--check-scanner-tests] [--check-kics] [--check-trivy-2ms] [--check-memory]`.
 */
import { redactSecrets } from '../../../src/lib/memory/redact.js';
import { benignCorpus, secretCorpus, survives } from '../secret-corpus.js';
import { ownBenignNotes, ownSecretNotes } from './dev-own-notes.js';
import { ownBenignNotesBatch4, ownSecretNotesBatch4 } from './dev-own-notes-4.js';
import { ownBenignNotesBatch5, ownSecretNotesBatch5 } from './dev-own-notes-5.js';
import { ownBenignNotesBatch6, ownSecretNotesBatch6 } from './dev-own-notes-6.js';
import { ownBenignNotesBatch7, ownSecretNotesBatch7 } from './dev-own-notes-7.js';
import { ownBenignNotesBatch8, ownSecretNotesBatch8 } from './dev-own-notes-8.js';
import { AGENT_FILE_KINDS, publicBenignNotes, publicSecretNotes } from './public-notes.js';
import { MEMORY_FILE_KINDS, memoryBenignNotes, memorySecretNotes } from './memory-notes.js';
import { passwordTalkNotes, weakPasswordNotes, weakPasswordSurvives } from '../weak-passwords.js';
import { heldoutBenign, heldoutBenignDevBetterleaks, heldoutDevBetterleaksSecrets, heldoutBenignDevCredSweeper, heldoutBenignDevDocs, heldoutBenignDevExtra, heldoutBenignDevNegatives, heldoutDevCredSweeperSecrets, heldoutDevCredSweeperV7Secrets, heldoutBenignDevGeneric, heldoutDevGenericSecrets, heldoutDevGenericV7Secrets, heldoutBenignDevLinters, heldoutDevLintersSecrets, heldoutDevLintersV7Secrets, heldoutDevNegativesV7Secrets, heldoutDevRecall, heldoutSecrets, heldoutV7Secrets, heldoutBenignDevScannerTests, heldoutDevScannerTestsSecrets, heldoutBenignDevKics, heldoutDevKicsSecrets, heldoutBenignDevTrivy2ms, heldoutDevTrivy2msSecrets } from './notes.js';

const show = process.argv.includes('--show');
/** The batches whose check half is counted only when asked, once at the end of a round. */
const checkAsked: Record<number, boolean> = { 6: process.argv.includes('--check-6'), 7: process.argv.includes('--check-7'), 8: process.argv.includes('--check-8') };
const checkPublic = process.argv.includes('--check-public');
const checkMemory = process.argv.includes('--check-memory');
const out = (s: string): void => void process.stdout.write(`${s}\n`);

/** The lines of `after` that differ from `before`'s (what the redaction changed). */
function changed(before: string, after: string): string {
  const a = before.split('\n');
  const b = after.split('\n');
  return b.filter((line, i) => line !== a[i]).join(' | ').slice(0, 400);
}

const devSecrets = heldoutSecrets().filter((p) => p.split === 'dev');
const missed = devSecrets.filter((p) => survives(redactSecrets(p.note).text, p.secret));
out(`dev half recall: ${devSecrets.length - missed.length}/${devSecrets.length} (${((100 * (devSecrets.length - missed.length)) / devSecrets.length).toFixed(1)} %)`);
if (show) for (const p of missed) out(`  MISSED ${p.source} [${p.context}]: ${p.secret}`);

// More dev true positives (dev-recall.json, Kingfisher's rule examples; every one dev).
const devRecall = heldoutDevRecall();
const devRecallMissed = devRecall.filter((p) => survives(redactSecrets(p.note).text, p.secret));
out(`dev recall (Kingfisher examples): ${devRecall.length - devRecallMissed.length}/${devRecall.length}`);
if (show) for (const p of devRecallMissed) out(`  MISSED ${p.source}: ${p.secret}`);

const devBenign = heldoutBenign().filter((b) => b.split === 'dev');
const devTouched = devBenign.filter((b) => redactSecrets(b.note).text !== b.note);
out(`dev half benign touched: ${devTouched.length}/${devBenign.length}`);
if (show) for (const b of devTouched) out(`  TOUCHED ${b.source}: ${changed(b.note, redactSecrets(b.note).text)}`);

// Labelling rule v7 (README.md), the dev half only.
const v7Dev = heldoutBenign('v7').filter((b) => b.split === 'dev');
const v7Moved = heldoutV7Secrets().filter((m) => m.split === 'dev');
const v7Removed = v7Moved.filter((m) => m.secrets.every((v) => !survives(redactSecrets(m.note).text, v)));
out(`dev half under rule v7: benign touched ${v7Dev.filter((b) => redactSecrets(b.note).text !== b.note).length}/${v7Dev.length}; samples v7 makes secrets ${v7Moved.length}, removed ${v7Removed.length}`);

// Kingfisher's and Titus's negative examples (dev-negatives.json; every rule of a test-half vendor dropped when it was built).
const negatives = heldoutBenignDevNegatives();
const negTouched = negatives.filter((b) => redactSecrets(b.note).text !== b.note);
const negV7 = heldoutBenignDevNegatives('v7');
const negV7Moved = heldoutDevNegativesV7Secrets();
out(`dev negatives (Kingfisher, Titus): touched ${negTouched.length}/${negatives.length}; under rule v7 ${negV7.filter((b) => redactSecrets(b.note).text !== b.note).length}/${negV7.length}, v7 makes ${negV7Moved.length} secrets, removed ${negV7Moved.filter((m) => m.secrets.every((v) => !survives(redactSecrets(m.note).text, v))).length}`);
for (const cls of [...new Set(negatives.map((b) => b.cls))].sort()) out(`  ${cls}: ${negTouched.filter((b) => b.cls === cls).length}/${negatives.filter((b) => b.cls === cls).length}`);
if (show) for (const b of negTouched) out(`  TOUCHED ${b.source}: ${changed(b.note, redactSecrets(b.note).text)}`);

// CredSweeper's test samples (dev-credsweeper.json; vendors of the test half dropped when it was built): both sides.
const csSecrets = heldoutDevCredSweeperSecrets();
const csMissed = csSecrets.filter((p) => survives(redactSecrets(p.note).text, p.secret));
const csBenign = heldoutBenignDevCredSweeper();
const csTouched = csBenign.filter((b) => redactSecrets(b.note).text !== b.note);
const csV7 = heldoutBenignDevCredSweeper('v7');
const csV7Moved = heldoutDevCredSweeperV7Secrets();
out(`dev CredSweeper: recall ${csSecrets.length - csMissed.length}/${csSecrets.length} (reported ${csSecrets.filter((p) => p.basis === 'reported' && !csMissed.includes(p)).length}/${csSecrets.filter((p) => p.basis === 'reported').length}, same value ${csSecrets.filter((p) => p.basis === 'same value' && !csMissed.includes(p)).length}/${csSecrets.filter((p) => p.basis === 'same value').length}); benign touched ${csTouched.length}/${csBenign.length}; under rule v7 ${csV7.filter((b) => redactSecrets(b.note).text !== b.note).length}/${csV7.length}, v7 makes ${csV7Moved.length} secrets, removed ${csV7Moved.filter((m) => m.secrets.every((v) => !survives(redactSecrets(m.note).text, v))).length}`);
for (const cls of [...new Set(csBenign.map((b) => b.cls))].sort()) out(`  ${cls}: recall ${csSecrets.filter((p) => p.cls === cls && !csMissed.includes(p)).length}/${csSecrets.filter((p) => p.cls === cls).length}, benign touched ${csTouched.filter((b) => b.cls === cls).length}/${csBenign.filter((b) => b.cls === cls).length}`);
if (show) {
  for (const p of csMissed) out(`  CS MISSED ${p.source} [${p.basis}] ${p.secret}: ${p.note.split('\n').find((l) => l.includes(p.secret))?.slice(0, 200) ?? ''}`);
  for (const b of csTouched) out(`  CS TOUCHED ${b.source}: ${changed(b.note, redactSecrets(b.note).text)}`);
}

// The scanners' generic rules (dev-generic.json: Kingfisher's and Titus's rules without a vendor word; near copies of the test half dropped when it was built): both sides.
const gen = heldoutDevGenericSecrets();
const genMissed = gen.filter((p) => survives(redactSecrets(p.note).text, p.secret));
const genBenign = heldoutBenignDevGeneric();
const genTouched = genBenign.filter((b) => redactSecrets(b.note).text !== b.note);
const genV7 = heldoutBenignDevGeneric('v7');
const genV7Moved = heldoutDevGenericV7Secrets();
out(`dev generic (Kingfisher, Titus generic rules): recall ${gen.length - genMissed.length}/${gen.length}; benign touched ${genTouched.length}/${genBenign.length}; under rule v7 ${genV7.filter((b) => redactSecrets(b.note).text !== b.note).length}/${genV7.length}, v7 makes ${genV7Moved.length} secrets, removed ${genV7Moved.filter((m) => m.secrets.every((v) => !survives(redactSecrets(m.note).text, v))).length}`);
if (show) {
  for (const p of genMissed) out(`  GENERIC MISSED ${p.source} ${p.secret}: ${p.note.split('\n').find((l) => l.includes(p.secret))?.slice(0, 200) ?? ''}`);
  for (const b of genTouched) out(`  GENERIC TOUCHED ${b.source}: ${changed(b.note, redactSecrets(b.note).text)}`);
}

// The linters' hard-coded-credential test suites (dev-linters.json: gosec, bandit, DevSkim, eslint-plugin-no-secrets; near copies and vendors of the test half dropped when it was built): both sides.
const lint = heldoutDevLintersSecrets();
const lintMissed = lint.filter((p) => survives(redactSecrets(p.note).text, p.secret));
const lintBenign = heldoutBenignDevLinters();
const lintTouched = lintBenign.filter((b) => redactSecrets(b.note).text !== b.note);
const lintV7 = heldoutBenignDevLinters('v7');
const lintV7Moved = heldoutDevLintersV7Secrets();
out(`dev linters (gosec, bandit, DevSkim, eslint-no-secrets, earlybird, ruff tests): recall ${lint.length - lintMissed.length}/${lint.length}; benign touched ${lintTouched.length}/${lintBenign.length}; under rule v7 ${lintV7.filter((b) => redactSecrets(b.note).text !== b.note).length}/${lintV7.length}, v7 makes ${lintV7Moved.length} secrets, removed ${lintV7Moved.filter((m) => m.secrets.every((v) => !survives(redactSecrets(m.note).text, v))).length}`);
for (const cls of [...new Set([...lint, ...lintBenign].map((b) => b.cls))].sort()) out(`  ${cls}: recall ${lint.filter((p) => p.cls === cls && !lintMissed.includes(p)).length}/${lint.filter((p) => p.cls === cls).length}, benign touched ${lintTouched.filter((b) => b.cls === cls).length}/${lintBenign.filter((b) => b.cls === cls).length}`);
if (show) {
  for (const p of lintMissed) out(`  LINT MISSED ${p.source} ${p.secret}: ${p.note.split('\n').find((l) => l.includes(p.secret))?.slice(0, 200) ?? ''}`);
  for (const b of lintTouched) out(`  LINT TOUCHED ${b.source}: ${changed(b.note, redactSecrets(b.note).text)}`);
}

// betterleaks' rule samples (dev-betterleaks.json) and the scanners' own tests (dev-scanner-tests.json; vendors and near copies
// of the test half dropped when each was built): both sides, the tuned half shown with --show, the check half counted only
// (never shown line by line); the scanner tests' check half only with --check-scanner-tests (once at first contact, once at the end).
const checkScannerTests = process.argv.includes('--check-scanner-tests');
// KICS's fixtures (dev-kics.json, fifteenth session): the check half only with --check-kics, likewise.
const checkKics = process.argv.includes('--check-kics');
// Trivy's fixtures and 2ms's rule tests (dev-trivy-2ms.json, seventeenth session): the check half only with --check-trivy-2ms.
const checkTrivy2ms = process.argv.includes('--check-trivy-2ms');
for (const [name, tag, secretsOf, benignOf, checkCounted] of [
  ['betterleaks', 'BL', heldoutDevBetterleaksSecrets, heldoutBenignDevBetterleaks, true],
  ['scanner tests (secret-detector, custom patterns)', 'ST', heldoutDevScannerTestsSecrets, heldoutBenignDevScannerTests, checkScannerTests],
  ['KICS fixtures', 'KICS', heldoutDevKicsSecrets, heldoutBenignDevKics, checkKics],
  ['Trivy fixtures and 2ms rule tests', 'T2', heldoutDevTrivy2msSecrets, heldoutBenignDevTrivy2ms, checkTrivy2ms],
] as const) {
  for (const which of ['tune', 'check'] as const) {
    if (which === 'check' && !checkCounted) continue;
    const bl = secretsOf().filter((p) => p.half === which);
    const blMissed = bl.filter((p) => survives(redactSecrets(p.note).text, p.secret));
    const blBenign = benignOf().filter((b) => b.half === which);
    const blTouched = blBenign.filter((b) => redactSecrets(b.note).text !== b.note);
    const blV7 = benignOf('v7').filter((b) => b.half === which);
    const fps = (xs: { cls: string }[]): number => xs.filter((b) => !b.cls.includes('history')).length;
    out(`dev ${name}, ${which === 'tune' ? 'tuned on' : 'check (not tuned on)'}: recall ${bl.length - blMissed.length}/${bl.length}; benign touched ${blTouched.length}/${blBenign.length} (fps ${fps(blTouched)}/${fps(blBenign)}); under rule v7 ${blV7.filter((b) => redactSecrets(b.note).text !== b.note).length}/${blV7.length}`);
    if (show && which === 'tune') {
      for (const p of blMissed) out(`  ${tag} MISSED ${p.source} [${p.context}] ${p.secret}`);
      for (const b of blTouched) out(`  ${tag} TOUCHED ${b.source}: ${changed(b.note, redactSecrets(b.note).text)}`);
    }
  }
}

for (const [name, extra] of [['dev extension (scanners, AWS CLI)', heldoutBenignDevExtra()], ['dev docs', heldoutBenignDevDocs()]] as const) {
  const bySource = new Map<string, [number, number]>();
  const extraTouched = [];
  for (const b of extra) {
    const t = redactSecrets(b.note).text !== b.note;
    const [n, all] = bySource.get(b.cls) ?? [0, 0];
    bySource.set(b.cls, [n + (t ? 1 : 0), all + 1]);
    if (t) extraTouched.push(b);
  }
  out(`${name} touched: ${extraTouched.length}/${extra.length}`);
  for (const [cls, [n, all]] of [...bySource].sort()) out(`  ${cls}: ${n}/${all}`);
  if (show) for (const b of extraTouched) out(`  TOUCHED ${b.source}: ${changed(b.note, redactSecrets(b.note).text)}`);
}

// Issue 40's weak-password set: the dev half only (test-half notes are dropped before redacting).
const weakDev = weakPasswordNotes().filter((n) => n.split === 'dev');
const weakMissed = weakDev.filter((n) => weakPasswordSurvives(redactSecrets(n.note).text, n));
out(`weak passwords, dev half: removed ${weakDev.length - weakMissed.length}/${weakDev.length}`);
if (show) for (const n of weakMissed) out(`  WEAK MISSED [${n.form}] ${n.secret}: ${n.note.replace(/\n/g, ' | ').slice(0, 200)}`);
const talkDev = passwordTalkNotes().filter((b) => b.split === 'dev');
const talkTouched = talkDev.filter((b) => redactSecrets(b.note).text !== b.note);
out(`password talk, dev half: touched ${talkTouched.length}/${talkDev.length}`);
if (show) for (const b of talkTouched) out(`  TALK TOUCHED [${b.cls}]: ${changed(b.note, redactSecrets(b.note).text)}`);

// Memory notes written by hand (dev-own-notes.ts, all dev): secrets in several languages and forms, and password talk without one.
const own = ownSecretNotes();
const ownMissed = own.filter((p) => survives(redactSecrets(p.note).text, p.secret));
const ownBenign = ownBenignNotes();
const ownTouched = ownBenign.filter((b) => redactSecrets(b.note).text !== b.note);
out(`dev own notes (written by hand): removed ${own.length - ownMissed.length}/${own.length}; benign touched ${ownTouched.length}/${ownBenign.length}`);
if (show) {
  for (const p of ownMissed) out(`  OWN MISSED [${p.cls}] ${p.secret}: ${p.note.replace(/\n/g, ' | ').slice(0, 200)}`);
  for (const b of ownTouched) out(`  OWN TOUCHED [${b.cls}]: ${changed(b.note, redactSecrets(b.note).text)}`);
}

// Batches 4 to 8 of the notes written by hand (dev-own-notes-4.ts … -8.ts): the half tuned on, shown with
// --show, and the check half, counted only (never shown line by line, so it stays a check of the rules, not their source);
// batch 6's, 7's and 8's check halves only with --check-6 / --check-7 / --check-8.
for (const [batch, secretsOf, benignOf] of [[4, ownSecretNotesBatch4, ownBenignNotesBatch4], [5, ownSecretNotesBatch5, ownBenignNotesBatch5], [6, ownSecretNotesBatch6, ownBenignNotesBatch6], [7, ownSecretNotesBatch7, ownBenignNotesBatch7], [8, ownSecretNotesBatch8, ownBenignNotesBatch8]] as const) {
  for (const which of ['tune', 'check'] as const) {
    if (which === 'check' && checkAsked[batch] === false) continue;
    const secrets = secretsOf().filter((p) => p.half === which);
    const missed = secrets.filter((p) => survives(redactSecrets(p.note).text, p.secret));
    const benign = benignOf().filter((b) => b.half === which);
    const touched = benign.filter((b) => redactSecrets(b.note).text !== b.note);
    out(`dev own notes batch ${batch}, ${which === 'tune' ? 'tuned on' : 'check (not tuned on)'}: removed ${secrets.length - missed.length}/${secrets.length}; benign touched ${touched.length}/${benign.length}`);
    if (show && which === 'tune') {
      for (const p of missed) out(`  OWN${batch} MISSED [${p.cls}] ${p.secret}: ${p.note.replace(/\n/g, ' | ').slice(0, 200)}`);
      for (const b of touched) out(`  OWN${batch} TOUCHED [${b.cls}]: ${changed(b.note, redactSecrets(b.note).text)}`);
    }
  }
}

// Text people wrote for coding agents in public repositories (dev-public-notes.json, rule P1): the dev half, shown with
// --show; the check half counted only with --check-public (once at first contact, once at the end).
for (const split of checkPublic ? (['dev', 'check'] as const) : (['dev'] as const)) {
  const benign = publicBenignNotes(split);
  const touched = benign.filter((b) => redactSecrets(b.note).text !== b.note);
  const secrets = publicSecretNotes(split);
  const kept = secrets.filter((p) => p.secrets.some((v) => survives(redactSecrets(p.note).text, v)));
  const rowOf = (row: 'credential' | 'control'): string => `${touched.filter((b) => b.row === row).length}/${benign.filter((b) => b.row === row).length}`;
  out(`public agent notes, ${split === 'dev' ? 'dev (tuned on)' : 'check (not tuned on)'}: benign touched ${touched.length}/${benign.length} (credential words ${rowOf('credential')}, control ${rowOf('control')}); values in public agent files removed ${secrets.length - kept.length}/${secrets.length}`);
  out(`  per kind: ${AGENT_FILE_KINDS.map((k) => `${k} ${touched.filter((b) => b.kind === k).length}/${benign.filter((b) => b.kind === k).length}`).join(', ')}`);
  if (show && split === 'dev') {
    for (const b of touched) out(`  PUBLIC TOUCHED [${b.kind}] ${b.repo}: ${changed(b.note, redactSecrets(b.note).text)}`);
    for (const p of kept) out(`  PUBLIC KEPT [${p.kind}] ${p.repo}: ${p.secrets.join(', ')}`);
  }
}

// Memory files people and their agents keep in public repositories (dev-memory-notes.json, rule P1): the dev half,
// shown with --show; the check half counted only with --check-memory (once at first contact, once at the end).
for (const split of checkMemory ? (['dev', 'check'] as const) : (['dev'] as const)) {
  const benign = memoryBenignNotes(split);
  const touched = benign.filter((b) => redactSecrets(b.note).text !== b.note);
  const secrets = memorySecretNotes(split);
  const kept = secrets.filter((p) => p.secrets.some((v) => survives(redactSecrets(p.note).text, v)));
  const rowOf = (row: 'credential' | 'control'): string => `${touched.filter((b) => b.row === row).length}/${benign.filter((b) => b.row === row).length}`;
  out(`public memory notes, ${split === 'dev' ? 'dev (tuned on)' : 'check (not tuned on)'}: benign touched ${touched.length}/${benign.length} (credential words ${rowOf('credential')}, control ${rowOf('control')}); values in public memory files removed ${secrets.length - kept.length}/${secrets.length}`);
  out(`  per kind: ${MEMORY_FILE_KINDS.map((k) => `${k} ${touched.filter((b) => b.kind === k).length}/${benign.filter((b) => b.kind === k).length}`).join(', ')}`);
  if (show && split === 'dev') {
    for (const b of touched) out(`  MEMORY TOUCHED [${b.kind}] ${b.repo}: ${changed(b.note, redactSecrets(b.note).text)}`);
    for (const p of kept) out(`  MEMORY KEPT [${p.kind}] ${p.repo}: ${p.secrets.join(', ')}`);
  }
}

const tuning = secretCorpus();
const tMissed = tuning.filter((p) => survives(redactSecrets(p.note).text, p.secret));
const tBenign = benignCorpus();
const tTouched = tBenign.filter((b) => redactSecrets(b.note).text !== b.note);
out(`tuning corpus: recall ${tuning.length - tMissed.length}/${tuning.length}, benign touched ${tTouched.length}/${tBenign.length}`);
if (show) {
  for (const p of tMissed) out(`  TUNING MISSED ${p.kind}: ${p.secret}`);
  for (const b of tTouched) out(`  TUNING TOUCHED ${b.cls}: ${changed(b.note, redactSecrets(b.note).text)}`);
}
