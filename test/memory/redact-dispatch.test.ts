/**
 * The redaction engine picks the rules a text needs with one scan for all hints (engine.ts); that
 * choice must be exactly "every rule one of whose hints the text holds", or speed work changes what
 * is redacted. Compared with the one-hint-at-a-time reference on the tuning corpus, the held-out
 * notes, the throughput bench's notes (bench/redact-bench.ts), and random text glued from their
 * pieces, hints and credential words: identical output. The reference also runs every selected rule
 * without the engine's shortcuts (EXEC_LOOP, RULE_NEEDS, RULE_FLAGS_REUSED), so this is the
 * differential test of those too.
 */
import { describe, expect, it } from 'vitest';
import { REDACTION_RULES } from '../../src/lib/memory/redact.js';
import { runRules, runRulesEachHint, type ScanRule } from '../../src/lib/memory/secrets/engine.js';
import { mulberry32 } from '../support/prng.js';
import { benignCorpus, secretCorpus } from '../support/secret-corpus.js';
import { heldoutBenign, heldoutSecrets } from '../support/secret-heldout/notes.js';

const corpusNotes = (): string[] => [
  ...secretCorpus().map((p) => p.note),
  ...benignCorpus().map((b) => b.note),
  ...heldoutSecrets().map((p) => p.note),
  ...heldoutBenign().map((b) => b.note),
];

/** Random notes: pieces of real notes, every hint in any case, separators and random runs, glued. */
function randomNotes(seed: number, count: number): string[] {
  const rng = mulberry32(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)] as T;
  const pieces = corpusNotes().flatMap((n) => n.split(/(?<=[\s:=,|"'`])/));
  const hints = [...new Set(REDACTION_RULES.flatMap((r) => r.hints))];
  const cased = (h: string): string => (rng() < 0.5 ? h : rng() < 0.5 ? h.toUpperCase() : h[0]?.toUpperCase() + h.slice(1));
  // Besides separators, characters outside ASCII: U+212A and U+0130 lower-case to ASCII letters, the
  // others do not (the engine reads the text unlowered unless it holds one of the first kind).
  const glue = [' ', '\n', '\n\n', ': ', '=', ' = ', '"', "'", '`', '|', ',', '\t', ' is ', '-', '_', '.', '\u212A', '\u0130', 'é', 'É', '—', '…', 'ß', '\u{1F511}'];
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=_-.~';
  const run = (): string => Array.from({ length: 8 + Math.floor(rng() * 48) }, () => pick([...alphabet])).join('');
  return Array.from({ length: count }, () => {
    let s = '';
    for (let k = 1 + Math.floor(rng() * 24); k > 0; k -= 1) {
      const r = rng();
      s += r < 0.35 ? pick(pieces) : r < 0.65 ? cased(pick(hints)) : r < 0.85 ? pick(glue) : run();
    }
    return s;
  });
}

describe('redaction rule dispatch', () => {
  it('runs the same rules as looking each hint up on its own: corpus and held-out notes', () => {
    for (const note of corpusNotes()) expect(runRules(REDACTION_RULES, note)).toEqual(runRulesEachHint(REDACTION_RULES, note));
  });

  it('runs the same rules as looking each hint up on its own: the throughput bench\'s prose and 4 KB memory notes', () => {
    // As bench/redact-bench.ts builds them: the short prose notes, and 40 notes of 40 of them joined by blank lines.
    const prose = benignCorpus()
      .filter((b) => b.cls === 'ordinary-note' || b.cls === 'prose-about-secrets')
      .map((b) => b.note);
    const memoryNotes = prose.map((_, i) => prose.slice(i, i + 40).join('\n\n')).slice(0, 40);
    for (const note of [...prose, ...memoryNotes]) expect(runRules(REDACTION_RULES, note)).toEqual(runRulesEachHint(REDACTION_RULES, note));
  });

  it('runs the same rules as looking each hint up on its own: random notes of hints and pieces', () => {
    let redacted = 0;
    for (const note of randomNotes(29, 3000)) {
      const indexed = runRules(REDACTION_RULES, note);
      expect(indexed).toEqual(runRulesEachHint(REDACTION_RULES, note));
      if (indexed.total > 0) redacted += 1;
    }
    // The random notes reach the rules, not only the hint scan.
    expect(redacted).toBeGreaterThan(300);
  });

  it('selects exactly the rules whose hints occur, lower-case hints in any case, also where lower-casing changes letters', () => {
    // Rules that only say they ran (each appends its tag), with every hint of the real rules spread
    // over them: the output names the rules selected. U+212A KELVIN SIGN lower-cases to `k` and U+0130
    // to `i` and a combining dot, so `\u212Aey` holds the hint `key` once lower-cased.
    const hints = [...new Set(REDACTION_RULES.flatMap((r) => r.hints))];
    const probes: ScanRule[] = Array.from({ length: 40 }, (_, i) => ({
      kind: `probe-${i}`,
      hints: hints.filter((_, k) => k % 40 === i),
      scan: (text: string) => `${text}[REDACTED:probe-${i}]`,
    }));
    const notes = ['api_\u212Aey', 'PASSWORD \u0130', 'to\u212Aen ghp_', '\u212A\u212A', 'İ', ...randomNotes(7, 1500)];
    let selected = 0;
    for (const note of notes) {
      const indexed = runRules(probes, note);
      expect(indexed).toEqual(runRulesEachHint(probes, note));
      selected += indexed.total;
    }
    expect(runRules(probes, 'api_\u212Aey').text).toBe(runRulesEachHint(probes, 'api_key').text.replace('api_key', 'api_\u212Aey'));
    expect(selected).toBeGreaterThan(1500);
  });

  it('a rule runs for a hint of one character and for a hint inside a longer one', () => {
    // `|` is a one-character hint (looked up apart); `key` sits inside `api_key`, which the scan reports.
    const table = '| service | token |\n|---|---|\n| ci | q8Vn2LmR7xTz4KpW9sYd |';
    const key = 'api_key: q8Vn2LmR7xTz4KpW9sYd';
    for (const note of [table, key]) {
      const r = runRules(REDACTION_RULES, note);
      expect(r.total).toBeGreaterThan(0);
      expect(r).toEqual(runRulesEachHint(REDACTION_RULES, note));
    }
  });
});
