import { describe, expect, it } from 'vitest';
import { parseMemoryFile, toIsoTime, type MemoryDocument, type ParseResult } from '../../src/lib/memory/parse.js';

const buf = (s: string) => Buffer.from(s, 'utf8');

function ok(result: ParseResult): MemoryDocument {
  if (!result.ok) throw new Error(`expected a document, got ${result.reason}: ${result.message}`);
  return result.data;
}

function parse(text: string, relPath = 'notes/some_file-name.md'): ParseResult {
  return parseMemoryFile(buf(text), relPath);
}

describe('PAI files', () => {
  const pai = [
    '---',
    'capture_type: LEARNING',
    'timestamp: 2026-01-04 10:30:00 PST',
    'rating: 3',
    'source: explicit',
    'auto_captured: true',
    'tags: [auth, testing]',
    'session_id: 4f1c-99',
    '---',
    '# Low Rating Captured: 3/10',
    '',
    'The user was unhappy with the test run.',
    '',
  ].join('\n');

  it('reads every PAI field and converts the timestamp to UTC', () => {
    const doc = ok(parse(pai));
    expect(doc.frontmatter).toEqual({
      capture_type: 'LEARNING',
      timestamp: '2026-01-04 10:30:00 PST',
      rating: 3,
      source: 'explicit',
      auto_captured: true,
      tags: ['auth', 'testing'],
      session_id: '4f1c-99',
    });
    expect(doc.time).toBe('2026-01-04T18:30:00Z');
    expect(doc.timeSource).toBe('timestamp');
    expect(doc.tags).toEqual(['auth', 'testing']);
    expect(doc.type).toBe('LEARNING');
    expect(doc.title).toBe('Low Rating Captured: 3/10');
    expect(doc.body).toBe('# Low Rating Captured: 3/10\n\nThe user was unhappy with the test run.\n');
    expect(doc.warnings).toEqual([]);
    expect(doc.hasFrontmatter).toBe(true);
  });

  it('reads RESEARCH fields and a numeric-string rating', () => {
    const doc = ok(parse('---\ncapture_type: RESEARCH\nrating: "7.5"\nexecutor: claude-researcher\nagent_completion: Found three sources\n---\nBody'));
    expect(doc.frontmatter.rating).toBe(7.5);
    expect(doc.frontmatter.executor).toBe('claude-researcher');
    expect(doc.frontmatter.agent_completion).toBe('Found three sources');
  });

  it('accepts unquoted values containing ": " (common in PAI files) with a warning', () => {
    const doc = ok(parse('---\ncapture_type: LEARNING\ndescription: Fix: the parser broke\ntags: [a]\n---\nBody'));
    expect(doc.frontmatter.description).toBe('Fix: the parser broke');
    expect(doc.tags).toEqual(['a']);
    expect(doc.warnings.join('\n')).toMatch(/line 3: a value containing ": " was read as text/);
  });

  it('takes the title from a **Title:** line in files without frontmatter', () => {
    const doc = ok(parse('# Work\n\n**Title:** Fixed the flaky test\n**Date:** today\n\nDetails.\n\n*Auto-captured by WorkCompletionLearning hook at session end*\n'));
    expect(doc.title).toBe('Fixed the flaky test');
    expect(doc.hasFrontmatter).toBe(false);
    expect(doc.frontmatter).toEqual({});
  });
});

describe('Claude Code auto memory files', () => {
  it('reads the documented flat layout', () => {
    const doc = ok(parse('---\nname: Debugging patterns\ndescription: Auth token rotation and DB troubleshooting\ntype: reference\n---\n\nUse the staging DB.\n'));
    expect(doc.title).toBe('Debugging patterns');
    expect(doc.type).toBe('reference');
    expect(doc.frontmatter.description).toBe('Auth token rotation and DB troubleshooting');
    expect(doc.time).toBeUndefined();
  });

  it('reads the nested metadata layout with pinned and modified, keeping unknown metadata keys', () => {
    const doc = ok(parse('---\nname: testing-feedback\ndescription: Prefers vitest\nmetadata:\n  type: feedback\n  pinned: true\n  origin: dream\nmodified: 2026-03-01T10:00:00.000Z\n---\nSee [[other-memory]].\n'));
    expect(doc.type).toBe('feedback');
    expect(doc.pinned).toBe(true);
    expect(doc.frontmatter.metadata).toEqual({ type: 'feedback', pinned: true });
    expect(doc.extra).toEqual({ metadata: { origin: 'dream' } });
    expect(doc.time).toBe('2026-03-01T10:00:00Z');
    expect(doc.timeSource).toBe('modified');
    expect(doc.body).toContain('[[other-memory]]');
  });

  it('top-level type wins over metadata.type; top-level pinned over metadata.pinned', () => {
    const doc = ok(parse('---\ntype: user\npinned: false\nmetadata: {type: project, pinned: true}\n---\nx'));
    expect(doc.type).toBe('user');
    expect(doc.pinned).toBe(false);
  });

  it('reads a MEMORY.md index without frontmatter, titled by its first heading or file name', () => {
    expect(ok(parse('- [Role](user_role.md) — senior dev\n', 'MEMORY.md')).title).toBe('MEMORY');
    expect(ok(parse('# Memory index\n- [Role](user_role.md)\n', 'MEMORY.md')).title).toBe('Memory index');
  });
});

describe('generic fields', () => {
  it('prefers title over name over headings over the file name', () => {
    expect(ok(parse('---\ntitle: T\nname: N\n---\n# H\n')).title).toBe('T');
    expect(ok(parse('---\nname: N\n---\n# H\n')).title).toBe('N');
    expect(ok(parse('---\nfoo: 1\n---\n## H two ##\n')).title).toBe('H two');
    expect(ok(parse('---\nfoo: 1\n---\nplain', 'a/b/my_note-file.md')).title).toBe('my note file');
  });

  it('ignores headings inside code fences', () => {
    expect(ok(parse('```bash\n# not a title\n```\n\n# Real title\n')).title).toBe('Real title');
  });

  it.each([
    ['tags: [a, b]', ['a', 'b']],
    ['tags:\n  - a\n  - b', ['a', 'b']],
    ['tags: a, b , c', ['a', 'b', 'c']],
    ['tags: "#a, #b, a"', ['a', 'b']],
    ['tags: [1, true, x]', ['1', 'true', 'x']],
    ['tags: []', []],
  ])('tags %j', (yaml, tags) => {
    expect(ok(parse(`---\n${yaml}\n---\nbody`)).tags).toEqual(tags);
  });

  it('keeps unknown keys in extra, with JSON-friendly values', () => {
    const doc = ok(parse('---\nstatus: active\nreviewed: 2026-01-04\nnested: {a: [1, 2]}\n---\nbody'));
    expect(doc.extra).toEqual({ status: 'active', reviewed: '2026-01-04', nested: { a: [1, 2] } });
  });

  it('reads group_id and YAML dates', () => {
    const doc = ok(parse('---\ngroup_id: team-a\ndate: 2026-01-04\n---\nbody'));
    expect(doc.groupId).toBe('team-a');
    expect(doc.frontmatter.date).toBe('2026-01-04');
    expect(doc.time).toBe('2026-01-04T00:00:00Z');
    expect(doc.timeSource).toBe('date');
  });

  it('uses timestamp, then modified, then date, then created', () => {
    expect(ok(parse('---\ncreated: 2020-01-01\ndate: 2021-01-01\n---\nx')).time).toBe('2021-01-01T00:00:00Z');
    expect(ok(parse('---\ncreated: 2020-01-01\nmodified: 2022-01-01T00:00:00Z\n---\nx')).timeSource).toBe('modified');
    expect(ok(parse('---\ncreated: 2020-01-01\n---\nx')).timeSource).toBe('created');
  });

  it('matches known keys case-insensitively and warns on duplicates', () => {
    const doc = ok(parse('---\nTitle: Upper\ntitle: lower\n---\nx'));
    expect(doc.title).toBe('Upper');
    expect(doc.warnings).toContain('title: given twice; the first is used');
  });

  it.each([
    ['sync: false', 'sync-false'],
    ['sync: "no"', 'sync-false'],
    ['private: true', 'private'],
    ['private: yes', 'private'],
    ['private: true\nsync: false', 'private'],
  ])('opt-out %j', (yaml, reason) => {
    expect(ok(parse(`---\n${yaml}\n---\nbody`)).optOut).toBe(reason);
  });

  it('sync: true and private: false do not opt out', () => {
    expect(ok(parse('---\nsync: true\nprivate: false\n---\nbody')).optOut).toBeUndefined();
  });
});

describe('line ends, BOM and encodings', () => {
  const lf = '---\ntitle: Hello\ntags: [a]\n---\nline 1\nline 2\n';

  it.each([
    ['LF', lf],
    ['CRLF', lf.replace(/\n/g, '\r\n')],
    ['lone CR', lf.replace(/\n/g, '\r')],
    ['BOM + CRLF', `\ufeff${lf.replace(/\n/g, '\r\n')}`],
  ])('%s gives the same document', (_name, text) => {
    const doc = ok(parse(text));
    expect(doc.title).toBe('Hello');
    expect(doc.tags).toEqual(['a']);
    expect(doc.body).toBe('line 1\nline 2\n');
  });

  it('rejects binary (PNG header) as binary', () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52]);
    const r = parseMemoryFile(png, 'image.md');
    expect(r).toMatchObject({ ok: false, reason: 'binary' });
  });

  it('rejects latin1 bytes as not-utf8, naming the offset', () => {
    const r = parseMemoryFile(Buffer.from('Caf\u00e9 au lait', 'latin1'), 'x.md');
    expect(r).toMatchObject({ ok: false, reason: 'not-utf8' });
    expect(!r.ok && r.message).toMatch(/offset 3/);
  });

  it('rejects UTF-16 as not-utf8', () => {
    const r = parseMemoryFile(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('hi', 'utf16le')]), 'x.md');
    expect(r).toMatchObject({ ok: false, reason: 'not-utf8' });
  });

  it.each([[''], ['   \n\t\r\n'], ['\ufeff'], ['---\n---\n'], ['---\n# only a comment\n---\n\n']])('%j is empty', (text) => {
    expect(parse(text)).toMatchObject({ ok: false, reason: 'empty' });
  });

  it('keeps unicode titles', () => {
    expect(ok(parse('---\ntitle: Café ☕ 日本語 😀\n---\nx')).title).toBe('Café ☕ 日本語 😀');
    expect(ok(parse('# Überblick 😀\n')).title).toBe('Überblick 😀');
  });
});

describe('timestamps', () => {
  it.each([
    ['2026-01-04 10:30:00 PST', '2026-01-04T18:30:00Z'],
    ['2026-07-04 10:30:00 PDT', '2026-07-04T17:30:00Z'],
    ['2026-01-04 10:30:00 MST', '2026-01-04T17:30:00Z'],
    ['2026-01-04 10:30:00 MDT', '2026-01-04T16:30:00Z'],
    ['2026-01-04 10:30:00 CST', '2026-01-04T16:30:00Z'],
    ['2026-01-04 10:30:00 CDT', '2026-01-04T15:30:00Z'],
    ['2026-01-04 10:30:00 EST', '2026-01-04T15:30:00Z'],
    ['2026-01-04 10:30:00 EDT', '2026-01-04T14:30:00Z'],
    ['2026-01-04 10:30:00 UTC', '2026-01-04T10:30:00Z'],
    ['2026-01-04 10:30:00 GMT', '2026-01-04T10:30:00Z'],
    ['2026-01-04 10:30:00 CET', '2026-01-04T09:30:00Z'],
    ['2026-01-04 10:30:00 CEST', '2026-01-04T08:30:00Z'],
    ['2026-01-04 10:30:00 BST', '2026-01-04T09:30:00Z'],
    ['2026-01-04 10:30:00 AEST', '2026-01-04T00:30:00Z'],
    ['2026-01-04 10:30:00 AEDT', '2026-01-03T23:30:00Z'],
    ['2026-01-04 10:30:00 JST', '2026-01-04T01:30:00Z'],
    ['2026-01-04 10:30:00 IST', '2026-01-04T05:00:00Z'],
    ['2026-01-04 10:30:00 pst', '2026-01-04T18:30:00Z'],
    ['2026-01-04 10:30 PST', '2026-01-04T18:30:00Z'],
    ['2026-01-04T10:30:00Z', '2026-01-04T10:30:00Z'],
    ['2026-01-04T10:30:00.250Z', '2026-01-04T10:30:00.250Z'],
    ['2026-01-04T10:30:00+01:00', '2026-01-04T09:30:00Z'],
    ['2026-01-04T10:30:00-0500', '2026-01-04T15:30:00Z'],
    ['2026-01-04 10:30:00 +05:30', '2026-01-04T05:00:00Z'],
    ['2026-01-04 10:30:00 UTC+2', '2026-01-04T08:30:00Z'],
    ['2026-01-04T10:30:00', '2026-01-04T10:30:00Z'],
    ['2026-01-04', '2026-01-04T00:00:00Z'],
    ['2024-02-29', '2024-02-29T00:00:00Z'],
  ])('toIsoTime(%j) = %s', (input, expected) => {
    expect(toIsoTime(input)).toBe(expected);
  });

  it.each([['yesterday'], ['2026-02-30'], ['2026-13-01'], ['2026-01-04 25:00:00'], [''], ['Jan 4, 2026']])('toIsoTime(%j) is undefined', (input) => {
    expect(toIsoTime(input)).toBeUndefined();
  });

  it('accepts Date objects and epoch numbers, not small numbers', () => {
    expect(toIsoTime(new Date(Date.UTC(2026, 0, 4, 18, 30)))).toBe('2026-01-04T18:30:00Z');
    expect(toIsoTime(new Date(Number.NaN))).toBeUndefined();
    expect(toIsoTime(1767551400)).toBe('2026-01-04T18:30:00Z');
    expect(toIsoTime(1767551400000)).toBe('2026-01-04T18:30:00Z');
    expect(toIsoTime(2026)).toBeUndefined();
    expect(toIsoTime({})).toBeUndefined();
  });

  it('reads an unknown zone as UTC with a warning', () => {
    const doc = ok(parse('---\ntimestamp: 2026-01-04 10:30:00 XYZT\n---\nx'));
    expect(doc.time).toBe('2026-01-04T10:30:00Z');
    expect(doc.warnings.join('\n')).toMatch(/unknown time zone "XYZT".*read as UTC/);
  });

  it('warns on an unreadable time and falls back to the next field', () => {
    const doc = ok(parse('---\ntimestamp: last tuesday\ncreated: 2026-01-01\n---\nx'));
    expect(doc.time).toBe('2026-01-01T00:00:00Z');
    expect(doc.timeSource).toBe('created');
    expect(doc.warnings.join('\n')).toMatch(/timestamp: cannot read "last tuesday" as a time/);
  });

  it('reads a YAML timestamp without zone as UTC (machine zone never matters)', () => {
    expect(ok(parse('---\ntimestamp: 2026-01-04 10:30:00\n---\nx')).time).toBe('2026-01-04T10:30:00Z');
  });
});

describe('titles for kebab-case auto-memory names', () => {
  it('prefers the first heading over a slug name, and humanizes the slug otherwise', async () => {
    const { parseMemoryFile } = await import('../../src/lib/memory/parse.js');
    const withHeading = parseMemoryFile(Buffer.from('---\nname: project-architecture\nmetadata:\n  type: project\n---\n# Architecture decisions\n\n- Fastify\n'), 'project_architecture.md');
    expect(withHeading.ok && withHeading.data.title).toBe('Architecture decisions');
    const bare = parseMemoryFile(Buffer.from('---\nname: user-role\n---\nThe user is a backend engineer.\n'), 'user_role.md');
    expect(bare.ok && bare.data.title).toBe('User role');
    const prose = parseMemoryFile(Buffer.from('---\nname: Testing feedback\n---\n# Other heading\n'), 'feedback_testing.md');
    expect(prose.ok && prose.data.title).toBe('Testing feedback');
  });
});
