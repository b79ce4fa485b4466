/**
 * Redaction against the generated corpus (test/support/secret-corpus.ts): every kind, every
 * false-positive class, a property over kinds × contexts × seeds, unbounded lengths, counts by kind.
 * Recall and the false-positive rate are also printed by `npm run bench` (bench/redact-bench.ts).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactSecrets } from '../../src/lib/memory/redact.js';
import { BENIGN_UNTIL_ISSUE_40 } from '../support/secret-benign.js';
import { BENIGN_CLASSES, benignCorpus, contextsOf, KINDS, makeRng, plant, secretCorpus, survives } from '../support/secret-corpus.js';

const corpus = secretCorpus();

describe('redaction corpus: each kind is removed and labelled', () => {
  it('has the size the issue asks for (>= 72 kinds, >= 217 secrets, >= 137 benign notes)', () => {
    expect(KINDS.length).toBeGreaterThanOrEqual(72);
    expect(corpus.length).toBeGreaterThanOrEqual(217);
    expect(benignCorpus().length).toBeGreaterThanOrEqual(137);
  });

  it.each(KINDS.map((k) => [k.kind]))('%s', (kind) => {
    const planted = corpus.filter((p) => p.kind === kind);
    expect(planted.length).toBeGreaterThanOrEqual(2);
    for (const p of planted) {
      const r = redactSecrets(p.note);
      expect(survives(r.text, p.secret), `${p.context}: ${r.text}`).toBe(false);
      if (p.label !== undefined) expect(r.counts[p.label], `${p.context}: ${r.text}`).toBeGreaterThanOrEqual(1);
      expect(r.total).toBeGreaterThanOrEqual(1);
    }
  });
});

describe('redaction corpus: benign look-alikes are untouched', () => {
  const rng = makeRng(12);
  it.each(BENIGN_CLASSES.map((c) => [c.cls, c.notes(rng)] as const))('%s', (_cls, notes) => {
    for (const note of notes) {
      const r = redactSecrets(note);
      expect(r.text).toBe(note);
      expect(r.counts).toEqual({});
    }
  });
});

describe('redaction corpus: URL passwords this corpus called benign until issue 40', () => {
  it.each(BENIGN_UNTIL_ISSUE_40.map((b) => [b.note, b.secret]))('%s', (note, secret) => {
    const r = redactSecrets(note);
    // The user and the host stay; the password after the colon is gone.
    expect(r.text).not.toContain(secret);
    expect(r.counts['url-password']).toBe(1);
  });
});

describe('redaction corpus: the goals', () => {
  it('removes >= 95 % of the secrets and touches <= 3 % of the benign notes', () => {
    const missed = corpus.filter((p) => survives(redactSecrets(p.note).text, p.secret));
    const benign = benignCorpus();
    const touched = benign.filter((b) => redactSecrets(b.note).text !== b.note);
    expect(missed.length / corpus.length).toBeLessThanOrEqual(0.05);
    expect(touched.length / benign.length).toBeLessThanOrEqual(0.03);
  });
});

describe('redaction: property — a planted secret never survives any of its contexts', () => {
  const cases = KINDS.flatMap((spec) => contextsOf(spec).map((context) => ({ spec, context })));

  it('any kind, any context, any seed, with any text around it', () => {
    fc.assert(
      fc.property(fc.constantFrom(...cases), fc.integer(), fc.string({ maxLength: 80 }), fc.string({ maxLength: 80 }), ({ spec, context }, seed, before, after) => {
        const p = plant(spec, makeRng(seed), context);
        fc.pre(!survives(`${before}\n${after}`, p.secret));
        const r = redactSecrets(`${before}\n\n${p.note}\n\n${after}`);
        expect(survives(r.text, p.secret)).toBe(false);
        expect(r.total).toBeGreaterThanOrEqual(1);
      }),
      { numRuns: Number(process.env.GMS_FC_RUNS ?? 600) },
    );
  });

  it('redacting twice changes nothing more', () => {
    fc.assert(
      fc.property(fc.constantFrom(...cases), fc.integer(), ({ spec, context }, seed) => {
        const once = redactSecrets(plant(spec, makeRng(seed), context).note);
        const twice = redactSecrets(once.text);
        expect(twice.text).toBe(once.text);
        expect(twice.total).toBe(0);
      }),
      { numRuns: 200 },
    );
  });
});

describe('redaction: counterexamples the property found, kept as they were found', () => {
  // 2026-12-06, in a CI run: a password holding `&name=` was cut there, as a URL query's next
  // parameter, and the rest of it sent. `&` ends a value only in a query or a form (assignment.ts nextEntryAt).
  it.each([
    ['DB_HOST=localhost\nDB_PASSWORD=DuvlyuO&q.Cs=0N5y24\nDB_NAME=app', 'DuvlyuO&q.Cs=0N5y24'],
    ['- user: admin\n- password: pB8tFvbO&MU2kVsEqMc=q92\n- url: https://admin.corp.example', 'pB8tFvbO&MU2kVsEqMc=q92'],
    ['**Host:** db-1\n**Password:** DuvlyuO&q.Cs=0N5y24\n**Port:** 5432', 'DuvlyuO&q.Cs=0N5y24'],
  ])('a password holding `&name=` is removed whole: %s', (note, secret) => {
    const r = redactSecrets(note);
    expect(survives(r.text, secret), r.text).toBe(false);
  });
  it('a query parameter still ends at the next `&name=`', () => {
    expect(redactSecrets('GET /api?token=9f8e7d6c5b4a39281706&next=%2Fhome').text).toContain('&next=%2Fhome');
  });
  // The same day, a generated key with CamelCase's shape by chance was taken for a name (values.ts UNSPOKEN_WORD).
  it('a generated key shaped like CamelCase by chance is removed; names stay names', () => {
    const r = redactSecrets('My API key: DkbAlyfmRlbnzblbFGWQoyWPLtttkEF8');
    expect(survives(r.text, 'DkbAlyfmRlbnzblbFGWQoyWPLtttkEF8'), r.text).toBe(false);
    expect(redactSecrets('secretKey: TokenValidationParameters').text).toBe('secretKey: TokenValidationParameters');
  });
  // And one with a slug's shape by chance (names.ts hasRandomCasePart).
  it("a generated key shaped like a slug by chance is removed; a slug of names stays", () => {
    const secret = 'JLjp-ybZmZufSYZdKtZEIsWgOelxRHYkGOcwPYfNysvirRoU_3';
    const r = redactSecrets(`os.environ["DJANGO_SECRET_KEY"] = "${secret}"`);
    expect(survives(r.text, secret), r.text).toBe(false);
    expect(redactSecrets('secret_name: XMLHttpRequest-handler').text).toBe('secret_name: XMLHttpRequest-handler');
  });
});

describe('redaction: no length at which a tail escapes', () => {
  const rng = makeRng(5);
  const long = (alphabet: string, n = 100_000): string => {
    let s = '';
    while (s.length < n) s += alphabet[Math.floor(rng() * alphabet.length)];
    return `${s.slice(0, -1)}7`;
  };
  const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const B64 = `${ALNUM}+/`;
  const cases: Array<[string, (s: string) => string, string]> = [
    ['vendor token', (s) => `token ghp_${s} in prose`, ALNUM],
    ['1Password service token', (s) => `OP_SERVICE_ACCOUNT_TOKEN=ops_eyJ${s}`, B64],
    ['AWS session token', (s) => `aws_session_token = ${s}`, B64],
    ['quoted password', (s) => `password: "${s}"`, `${ALNUM}!@#%`],
    ['unclosed quote', (s) => `password: "${s}`, `${ALNUM}!@#%`],
    ['bare password', (s) => `DB_PASSWORD=${s}`, `${ALNUM}!@#%`],
    ['backticked secret', (s) => `client_secret: \`${s}\``, ALNUM],
    ['JWT', (s) => `eyJhbGciOiJIUzI1NiJ9.eyJ${s}.sig123456789`, ALNUM],
    ['PEM block', (s) => `-----BEGIN PRIVATE KEY-----\n${s}\n-----END PRIVATE KEY-----`, B64],
    ['URL password', (s) => `postgres://app:${s}@db:5432/x`, ALNUM],
    ['curl -u', (s) => `curl -u deploy:${s} https://ci`, ALNUM],
    ['--token flag', (s) => `tool --auth-token ${s} run`, ALNUM],
    ['Bearer', (s) => `Authorization: Bearer ${s}`, ALNUM],
    ['Kubernetes Secret', (s) => `kind: Secret\ndata:\n  password: ${s}\n`, B64],
    ['prose', (s) => `the admin password is ${s} for now`, ALNUM],
  ];
  it.each(cases)('%s of 100 KB', (_name, make, alphabet) => {
    const secret = long(alphabet);
    const r = redactSecrets(make(secret));
    expect(survives(r.text, secret)).toBe(false);
    expect(r.text.length).toBeLessThan(200);
  });
});

describe('redaction: counts by kind, never values', () => {
  it('counts several kinds in one note', () => {
    const rng = makeRng(3);
    const byKind = (kind: string) => plant(KINDS.find((k) => k.kind === kind) as (typeof KINDS)[number], rng, contextsOf(KINDS.find((k) => k.kind === kind) as (typeof KINDS)[number])[0] as string);
    const notes = [byKind('github-token'), byKind('github-token'), byKind('url-password'), byKind('curl-user')];
    const r = redactSecrets(notes.map((n) => n.note).join('\n\n'));
    expect(r.counts).toEqual({ 'github-token': 2, 'url-password': 1, 'cli-password': 1 });
    expect(r.total).toBe(4);
    for (const n of notes) expect(JSON.stringify(r.counts)).not.toContain(n.secret);
  });
});
