import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GroupIdError, escapeSearchQuery, maxSearchWords, normalizeGroupId, projectGroupId } from '../../src/lib/graphiti/escape.js';

/** Every printable ASCII punctuation character. */
const PUNCTUATION = Array.from({ length: 0x7e - 0x21 + 1 }, (_, i) => String.fromCharCode(0x21 + i)).filter((c) => !/[A-Za-z0-9]/.test(c));
/** graphiti's sanitize_falkor_fulltext_query set: all ASCII punctuation but `_`. */
const FALKOR_SPECIAL = new Set(',.<>{}[]"\':;!@#$%^&*()-+=~?|/\\`'.split(''));
const WHITESPACE = [' ', '\t', '\n', '\r'];
const UNICODE = ['é', 'ß', 'Ж', '中', 'ا', '😀', '👩‍💻'];

describe('punctuation table', () => {
  it('covers the 32 printable ASCII punctuation characters, and the FalkorDB set is all of them but _', () => {
    expect(PUNCTUATION).toHaveLength(32);
    expect(PUNCTUATION.filter((c) => !FALKOR_SPECIAL.has(c))).toEqual(['_']);
  });
});

describe('normalizeGroupId (falkordb)', () => {
  it.each(PUNCTUATION.map((c) => [c]))('%j inside an id', (c) => {
    expect(normalizeGroupId('falkordb', `a${c}b`)).toBe('a_b');
  });

  it.each(WHITESPACE.map((c) => [c]))('whitespace %j inside an id becomes _', (c) => {
    expect(normalizeGroupId('falkordb', `a${c}b`)).toBe('a_b');
  });

  it.each(UNICODE.map((c) => [c]))('unicode %j: one _ per code point', (c) => {
    expect(normalizeGroupId('falkordb', `a${c}b`)).toBe(`a${'_'.repeat(Array.from(c).length)}b`);
  });

  it('keeps valid ids and makes hyphenated and UUID ids safe', () => {
    expect(normalizeGroupId('falkordb', 'main')).toBe('main');
    expect(normalizeGroupId('falkordb', 'My_Group_1')).toBe('My_Group_1');
    expect(normalizeGroupId('falkordb', 'vt-firmware')).toBe('vt_firmware');
    expect(normalizeGroupId('falkordb', '123e4567-e89b-12d3-a456-426614174000')).toBe('123e4567_e89b_12d3_a456_426614174000');
    expect(normalizeGroupId('falkordb', '  main  ')).toBe('main');
  });

  it.each([[''], ['   '], ['_'], ['___'], ['-'], ['.-.'], ['😀']])('refuses %j (no letter or digit left)', (id) => {
    expect(() => normalizeGroupId('falkordb', id)).toThrow(GroupIdError);
  });

  it('explains why "_" is refused', () => {
    try {
      normalizeGroupId('falkordb', '-');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(GroupIdError);
      const e = error as GroupIdError;
      expect(e.message).toMatch(/no letter or digit/);
      expect(e.message).toMatch(/RediSearch/);
      expect(e.db).toBe('falkordb');
      expect(e.groupId).toBe('-');
    }
  });

  it('refuses ids longer than 128 characters', () => {
    expect(normalizeGroupId('falkordb', 'a'.repeat(128))).toHaveLength(128);
    expect(() => normalizeGroupId('falkordb', 'a'.repeat(129))).toThrow(/at most 128/);
  });

  it('is idempotent and always yields ^[A-Za-z0-9_]+$ (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (id) => {
        let out: string;
        try {
          out = normalizeGroupId('falkordb', id);
        } catch (error) {
          expect(error).toBeInstanceOf(GroupIdError);
          return;
        }
        expect(out).toMatch(/^[A-Za-z0-9_]+$/);
        expect(out).toMatch(/[A-Za-z0-9]/);
        expect(normalizeGroupId('falkordb', out)).toBe(out);
      }),
    );
  });
});

describe('normalizeGroupId (neo4j)', () => {
  it.each(PUNCTUATION.map((c) => [c]))('%j inside an id', (c) => {
    if (c === '-' || c === '_') {
      expect(normalizeGroupId('neo4j', `a${c}b`)).toBe(`a${c}b`);
      return;
    }
    let caught: unknown;
    try {
      normalizeGroupId('neo4j', `a${c}b`);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(GroupIdError);
    const message = (caught as Error).message;
    expect(message).toContain(JSON.stringify(`a${c}b`)); // names the id
    expect(message).toContain(`"${c}"`); // names the offending character
    expect(message).toContain('^[A-Za-z0-9_-]+$'); // names the allowed pattern
  });

  it.each([
    [' ', 'space'],
    ['\t', 'tab'],
    ['\n', 'newline'],
    ['\r', 'carriage return'],
    ['\u0000', 'U+0000'],
  ])('whitespace/control %j is named readably', (c, shown) => {
    expect(() => normalizeGroupId('neo4j', `a${c}b`)).toThrow(shown);
  });

  it.each(UNICODE.map((c) => [c]))('unicode %j is refused and named', (c) => {
    expect(() => normalizeGroupId('neo4j', `a${c}b`)).toThrow(GroupIdError);
    expect(() => normalizeGroupId('neo4j', `a${c}b`)).toThrow(`"${Array.from(c)[0]}"`);
  });

  it('lists each offending character once', () => {
    expect(() => normalizeGroupId('neo4j', 'a.b.c:d')).toThrow(/contains "\.", ":";/);
  });

  it('keeps valid ids unchanged (hyphens are fine for Neo4j)', () => {
    expect(normalizeGroupId('neo4j', 'main')).toBe('main');
    expect(normalizeGroupId('neo4j', 'vt-firmware_2')).toBe('vt-firmware_2');
    expect(normalizeGroupId('neo4j', '_')).toBe('_');
    expect(normalizeGroupId('neo4j', ' main ')).toBe('main');
  });

  it('refuses empty and too long ids', () => {
    expect(() => normalizeGroupId('neo4j', '')).toThrow(/empty/);
    expect(() => normalizeGroupId('neo4j', 'a'.repeat(129))).toThrow(/at most 128/);
  });
});

describe('projectGroupId', () => {
  it('lowercases and joins words with the db separator', () => {
    expect(projectGroupId('falkordb', '-home-me-My.Repo')).toBe('home_me_my_repo');
    expect(projectGroupId('neo4j', '-home-me-My.Repo')).toBe('home-me-my-repo');
    expect(projectGroupId('neo4j', 'a__b')).toBe('a__b');
    expect(projectGroupId('falkordb', 'Café Déjà-vu')).toBe('cafe_deja_vu');
  });

  it('is stable and short for long names, without truncation collisions', () => {
    const a = `${'x'.repeat(100)}-one`;
    const b = `${'x'.repeat(100)}-two`;
    expect(projectGroupId('falkordb', a)).toBe(projectGroupId('falkordb', a));
    expect(projectGroupId('falkordb', a).length).toBeLessThanOrEqual(64);
    expect(projectGroupId('falkordb', a)).not.toBe(projectGroupId('falkordb', b));
  });

  it('falls back to project_<hash> when nothing usable is left', () => {
    expect(projectGroupId('falkordb', '日本語')).toMatch(/^project_[0-9a-f]{8}$/);
    expect(projectGroupId('neo4j', '---')).toMatch(/^project-[0-9a-f]{8}$/);
    expect(projectGroupId('falkordb', '日本語')).not.toBe(projectGroupId('falkordb', '中文'));
  });

  it.each(PUNCTUATION.concat(WHITESPACE, UNICODE).map((c) => [c]))('a name containing %j gives a valid id for both dbs', (c) => {
    for (const db of ['falkordb', 'neo4j'] as const) {
      const g = projectGroupId(db, `my${c}project`);
      expect(normalizeGroupId(db, g)).toBe(g);
    }
  });

  it('always passes normalizeGroupId unchanged (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), fc.constantFrom('falkordb' as const, 'neo4j' as const), (name, db) => {
        const g = projectGroupId(db, name);
        expect(g.length).toBeLessThanOrEqual(64);
        expect(normalizeGroupId(db, g)).toBe(g);
      }),
    );
  });
});

describe('escapeSearchQuery (falkordb)', () => {
  it.each(PUNCTUATION.map((c) => [c]))('%j between words', (c) => {
    const out = escapeSearchQuery('falkordb', `alpha${c}beta`);
    expect(out).toBe(c === '_' ? 'alpha_beta' : 'alpha beta');
  });

  it.each(PUNCTUATION.map((c) => [c]))('%j alone gives an empty or safe query', (c) => {
    expect(escapeSearchQuery('falkordb', c)).toBe(c === '_' ? '_' : '');
  });

  it.each(WHITESPACE.concat(['\u000b', '\f', '\u00a0', '\u2028']).map((c) => [c]))('whitespace %j collapses to one space', (c) => {
    expect(escapeSearchQuery('falkordb', `${c}alpha${c}${c}beta${c}`)).toBe('alpha beta');
  });

  it.each(UNICODE.map((c) => [c]))('unicode %j is kept', (c) => {
    expect(escapeSearchQuery('falkordb', `word ${c} x${c}y`)).toBe(`word ${c} x${c}y`);
  });

  it('removes control characters', () => {
    expect(escapeSearchQuery('falkordb', 'a\u0000b\u007fc\u0085d')).toBe('a b c d');
  });

  it('handles a realistic query', () => {
    expect(escapeSearchQuery('falkordb', 'What did we decide about "auth-token" rotation (v2)?')).toBe('What did we decide about auth token rotation v2');
  });

  it('keeps fewer than 64 words with one group, where graphiti would empty the search', () => {
    const words = Array.from({ length: 200 }, (_, i) => `w${i}`);
    const out = escapeSearchQuery('falkordb', words.join(' - '));
    expect(out.split(' ')).toEqual(words.slice(0, 63));
    expect(escapeSearchQuery('falkordb', words.join(' '), 3).split(' ')).toHaveLength(62);
  });

  it('never leaves a special character, and never more words than graphiti accepts (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 400 }), (text) => {
        const out = escapeSearchQuery('falkordb', text);
        for (const ch of out) expect(FALKOR_SPECIAL.has(ch)).toBe(false);
        expect(out).toBe(out.trim());
        expect(out).not.toMatch(/\s\s/);
        expect(out === '' ? 0 : out.split(' ').length).toBeLessThanOrEqual(63);
      }),
    );
  });
});

describe('maxSearchWords (graphiti-core build_fulltext_query)', () => {
  // graphiti-core's own refusal rules, written out as it computes them, for every group count.
  const falkorRefuses = (words: number, groups: number) => (words === 0 ? 0 : 2 * words - 1) + groups >= 128;
  const neo4jRefuses = (words: number, groups: number) => words + groups >= 128;
  it.each([0, 1, 2, 3, 10, 40])('is the largest word count graphiti accepts with %i group(s)', (groups) => {
    const f = maxSearchWords('falkordb', groups);
    expect(falkorRefuses(f, groups)).toBe(false);
    expect(falkorRefuses(f + 1, groups)).toBe(true);
    const n = maxSearchWords('neo4j', groups);
    expect(neo4jRefuses(n, groups)).toBe(false);
    expect(neo4jRefuses(n + 1, groups)).toBe(true);
  });

  it('matches the documented limits for one group', () => {
    expect(maxSearchWords('falkordb', 1)).toBe(63);
    expect(maxSearchWords('neo4j', 1)).toBe(126);
  });
});

describe('escapeSearchQuery (neo4j)', () => {
  it.each(PUNCTUATION.map((c) => [c]))('%j passes through (graphiti escapes Lucene syntax itself)', (c) => {
    expect(escapeSearchQuery('neo4j', `alpha${c}beta`)).toBe(`alpha${c}beta`);
    expect(escapeSearchQuery('neo4j', c)).toBe(c);
  });

  it.each(WHITESPACE.map((c) => [c]))('whitespace %j inside becomes one space (graphiti counts words split on spaces), outside trimmed', (c) => {
    expect(escapeSearchQuery('neo4j', `${c}alpha${c}${c}beta${c}`)).toBe('alpha beta');
  });

  it.each(UNICODE.map((c) => [c]))('unicode %j is kept', (c) => {
    expect(escapeSearchQuery('neo4j', `word ${c} x${c}y`)).toBe(`word ${c} x${c}y`);
  });

  it('keeps words + groups under 128, where graphiti would empty the search', () => {
    const words = Array.from({ length: 130 }, (_, i) => `w${i}`);
    expect(escapeSearchQuery('neo4j', words.join('  '))).toBe(words.slice(0, 126).join(' '));
    expect(escapeSearchQuery('neo4j', words.join(' '), 4).split(' ')).toHaveLength(123);
  });

  it('is the trimmed input when under the cap (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ minLength: 1, maxLength: 8 }).filter((s) => !/\s/.test(s)), { maxLength: 126 }), (words) => {
        const text = ` ${words.join(' ')} `;
        expect(escapeSearchQuery('neo4j', text)).toBe(text.trim());
      }),
    );
  });
});
