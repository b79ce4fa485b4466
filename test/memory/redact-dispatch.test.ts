/**
 * The redaction engine picks the rules a text needs with one scan for all hints (engine.ts); that
 * choice must be exactly "every rule one of whose hints the text holds", or speed work changes what
 * is redacted. Compared with the one-hint-at-a-time reference on the tuning corpus, the held-out
 * notes, and random text glued from their pieces, hints and credential words: identical output.
 */
import { describe, expect, it } from 'vitest';
import { REDACTION_RULES } from '../../src/lib/memory/redact.js';
import { runRules, runRulesEachHint } from '../../src/lib/memory/secrets/engine.js';
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
  const glue = [' ', '\n', '\n\n', ': ', '=', ' = ', '"', "'", '`', '|', ',', '\t', ' is ', '-', '_', '.'];
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
