/**
 * Redaction on the held-out set (test/support/secret-heldout/: public scanners' own samples and
 * vendor formats, in memory-note contexts), the set the rules were not written against. The goals
 * of issue 29 (>= 98 % removed, <= 2 % of benign notes touched) are measured by `npm run bench`;
 * here the floors below guard against regressions, and the property keeps the removed secrets
 * removed whatever text surrounds them. A leak found here becomes a test in redact-context.test.ts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactSecrets } from '../../src/lib/memory/redact.js';
import { survives } from '../support/secret-corpus.js';
import { heldoutBenign, heldoutBenignDevDocs, heldoutBenignDevExtra, heldoutSecrets } from '../support/secret-heldout/notes.js';

const secrets = heldoutSecrets();
const benign = heldoutBenign();
const removed = secrets.filter((p) => !survives(redactSecrets(p.note).text, p.secret));

describe('redaction on the held-out set', () => {
  it('is built from public samples: >= 400 secrets of >= 150 kinds, >= 200 benign notes, both halves present', () => {
    expect(secrets.length).toBeGreaterThanOrEqual(400);
    expect(new Set(secrets.map((s) => s.kind)).size).toBeGreaterThanOrEqual(150);
    expect(benign.length).toBeGreaterThanOrEqual(200);
    expect(new Set(secrets.map((s) => s.split))).toEqual(new Set(['dev', 'test']));
  });

  it('removes at least 97.5 % of the held-out secrets (measured 98.6 % when this floor was set)', () => {
    expect(removed.length / secrets.length).toBeGreaterThanOrEqual(0.975);
  });

  it('removes at least 99 % of the dev half and 96.5 % of the test half, only ever measured (measured 99.7 % and 97.6 %)', () => {
    const gone = new Set(removed);
    const floors = { dev: 0.99, test: 0.965 } as const;
    for (const split of ['dev', 'test'] as const) {
      const half = secrets.filter((s) => s.split === split);
      const kept = half.filter((p) => gone.has(p));
      expect(kept.length / half.length, split).toBeGreaterThanOrEqual(floors[split]);
    }
  });

  // Issue 40 (a password, PIN or secret named as such is one however weak; only explicit placeholders
  // stay) raised the touched share of the test half from 4 to 8 of 154, measured once by the bench
  // (2026-11-28) and not looked at: the goal (<= 2 %) is missed there, and these ceilings guard the
  // figure as measured, not the goal. Labelling rule v5 calls a short value beside a credential word
  // benign (secret-heldout/README.md), which issue 40's words may make a password.
  it("touches at most 3.1 % of the held-out benign notes (issue 29's goal 2 %: 1.5 %, 4 of 260, before issue 40; 3.1 %, 8 of 260, after)", () => {
    const touched = benign.filter((b) => redactSecrets(b.note).text !== b.note);
    expect(touched.length / benign.length).toBeLessThanOrEqual(0.031);
  });

  it('touches at most 2 % of the dev half and 5.2 % of the test half, only ever measured (measured 0 of 106 and 8 of 154 after issue 40)', () => {
    const ceilings = { dev: 0.02, test: 0.052 } as const;
    for (const split of ['dev', 'test'] as const) {
      const half = benign.filter((b) => b.split === split);
      const touched = half.filter((b) => redactSecrets(b.note).text !== b.note);
      expect(touched.length / half.length, split).toBeLessThanOrEqual(ceilings[split]);
    }
  });

  // Issue 40 raised it: a scanner's fixture or an AWS CLI example that gives a weak password
  // (`password = foo-bar`, `mongodb://mongodb:mongodb@`, `--master-user-password secret99`) is, pasted
  // into a note, a password; these are documentation, reported on their own row, not notes.
  it('touches at most 5 % of the dev extension (other scanners\' non-findings, AWS CLI examples; measured 1.7 %, 20 of 1,179, before issue 40; 4.3 %, 51, after)', () => {
    const extra = heldoutBenignDevExtra();
    expect(extra.length).toBeGreaterThanOrEqual(1000);
    const touched = extra.filter((b) => redactSecrets(b.note).text !== b.note);
    expect(touched.length / extra.length).toBeLessThanOrEqual(0.05);
  });

  it('touches at most 1 % of the dev docs (documentation lines naming credentials, ids and hashes; 2.6 % of the first 10,231 when they were added, 0.15 % of 28,807 after the classes they showed were fixed, 0.17 % of 41,410 after four more passes, the first 28,807 at 0.07 %)', () => {
    const docs = heldoutBenignDevDocs();
    expect(docs.length).toBeGreaterThanOrEqual(28000);
    const touched = docs.filter((b) => redactSecrets(b.note).text !== b.note);
    expect(touched.length / docs.length).toBeLessThanOrEqual(0.01);
  });

  it('property: a removed held-out secret stays removed with any text before and after it', () => {
    fc.assert(
      fc.property(fc.constantFrom(...removed), fc.string({ maxLength: 80 }), fc.string({ maxLength: 80 }), (p, before, after) => {
        fc.pre(!survives(`${before}\n${after}`, p.secret));
        expect(survives(redactSecrets(`${before}\n${p.note}\n${after}`).text, p.secret)).toBe(false);
      }),
      { numRuns: 300 },
    );
  });
});
