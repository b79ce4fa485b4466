/**
 * Hostile-file corpus: every file gives a document (maybe with warnings) or a clear
 * reason — never an exception, never code execution, never prototype pollution.
 * Files are written to a temp dir at test time and read back as Buffers, the way the
 * sync engine reads them.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { contentHashOf, fileIdOf } from '../../src/lib/memory/hash.js';
import { buildEpisodes } from '../../src/lib/memory/episode.js';
import { parseMemoryFile, type ParseResult } from '../../src/lib/memory/parse.js';
import { useTempDir } from '../helpers/use-temp-dir.js';

type Pwned = typeof globalThis & { __gmsPwned?: unknown; __gmsPwned2?: unknown; __gmsPwned3?: unknown };
const g = globalThis as Pwned;

const CORPUS: Record<string, Buffer> = {
  'malformed-yaml.md': Buffer.from('---\ntitle: [unclosed\ntags: {a: \n---\nbody\n'),
  'bad-indent.md': Buffer.from('---\ntitle: x\n  bad: indent\n- list\n---\nbody\n'),
  'duplicate-key.md': Buffer.from('---\ntitle: a\ntitle: b\n---\nbody\n'),
  'js-block.md': Buffer.from('---js\n{ title: (globalThis.__gmsPwned = "ran", "x") }\n---\nbody\n'),
  'javascript-block.md': Buffer.from('---javascript\nglobalThis.__gmsPwned2 = "ran"; ({title: "x"})\n---\nbody\n'),
  'coffee-block.md': Buffer.from('---coffee\ntitle: "x"\n---\nbody\n'),
  'toml-block.md': Buffer.from('---toml\ntitle = "x"\n---\nbody\n'),
  'js-function-tag.md': Buffer.from('---\ntitle: x\nf: !!js/function "function () { globalThis.__gmsPwned3 = \'ran\'; }"\n---\nbody\n'),
  'js-undefined-tag.md': Buffer.from('---\nu: !!js/undefined ""\nr: !!js/regexp /x/\n---\nbody\n'),
  'python-tag.md': Buffer.from('---\nx: !!python/object/apply:os.system ["echo hi"]\n---\nbody\n'),
  'bom.md': Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('---\ntitle: With BOM\n---\nbody\n')]),
  'crlf.md': Buffer.from('---\r\ntitle: CRLF\r\ntags: [a, b]\r\n---\r\nline 1\r\nline 2\r\n'),
  'lone-cr.md': Buffer.from('---\rtitle: CR\r---\rline 1\rline 2\r'),
  'png.md': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x01, 0x00]),
  'empty.md': Buffer.alloc(0),
  'whitespace.md': Buffer.from(' \n\t\n  \r\n'),
  'latin1.md': Buffer.from('---\ntitle: Caf\u00e9\n---\nna\u00efve\n', 'latin1'),
  'proto.md': Buffer.from('---\n__proto__:\n  polluted: yes\n  title: from proto\nconstructor:\n  prototype:\n    polluted2: yes\nprototype: x\nnested:\n  __proto__: {polluted3: yes}\n  ok: 1\n---\nbody\n'),
  'json-proto.md': Buffer.from('---json\n{"__proto__": {"polluted4": true}, "title": "J"}\n---\nbody\n'),
  'wrong-types.md': Buffer.from(
    [
      '---',
      'tags: 5',
      'rating: "high"',
      'timestamp: [1]',
      'name: {a: 1}',
      'title: [x]',
      'description: {a: 1}',
      'type: [feedback]',
      'metadata: 7',
      'pinned: maybe',
      'modified: {when: now}',
      'capture_type: [LEARNING]',
      'source: telepathy',
      'auto_captured: 42',
      'session_id: [1, 2]',
      'executor: {}',
      'agent_completion: []',
      'date: [2026]',
      'created: {}',
      'group_id: [a]',
      'sync: perhaps',
      'private: 3',
      '---',
      'body',
    ].join('\n'),
  ),
  'unclosed-frontmatter.md': Buffer.from('---\ntitle: never closed\n\n# Heading\n\nText.\n'),
  'only-dashes.md': Buffer.from('---'),
  'frontmatter-only.md': Buffer.from('---\nname: just-metadata\ndescription: Everything is in the frontmatter\ntype: user\n---\n'),
  'frontmatter-not-mapping.md': Buffer.from('---\n- a\n- b\n---\nbody\n'),
  'frontmatter-scalar.md': Buffer.from('---\njust a sentence\n---\nbody\n'),
  'unicode-title.md': Buffer.from('---\ntitle: "Ünïcødé 标题 🚀"\n---\nbody\n'),
  'alias-bomb.md': Buffer.from(
    [
      '---',
      'a: &a ["x","x","x","x","x","x","x","x","x","x"]',
      'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]',
      'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]',
      'd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]',
      'e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d]',
      'f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e,*e]',
      'g: [*f,*f,*f,*f,*f,*f,*f,*f,*f,*f]',
      'title: Bomb',
      '---',
      'body',
    ].join('\n'),
  ),
  'deep-nesting.md': Buffer.from(`---\nx: ${'['.repeat(200)}${']'.repeat(200)}\n---\nbody\n`),
  'binary-yaml.md': Buffer.from('---\nblob: !!binary aGVsbG8=\ntitle: B\n---\nbody\n'),
  'four-dashes.md': Buffer.from('----\ntitle: not frontmatter\n----\nbody\n'),
  'decorative-first-line.md': Buffer.from('--- Meeting notes ---\nWe met.\n---\nBye.\n'),
  'excerpt-separator.md': Buffer.from('---\nexcerpt_separator: "<!-- more -->"\ntitle: E\n---\nintro\n<!-- more -->\nrest\n'),
};

let dir: string;
useTempDir('gms-hostile-', (d) => (dir = d), 'all');
const results = new Map<string, ParseResult>();

beforeAll(() => {
  for (const [name, content] of Object.entries(CORPUS)) writeFileSync(join(dir, name), content);
  for (const name of Object.keys(CORPUS)) results.set(name, parseMemoryFile(readFileSync(join(dir, name)), name));
});

function result(name: string): ParseResult {
  const r = results.get(name);
  if (r === undefined) throw new Error(`no result for ${name}`);
  return r;
}

describe('hostile corpus', () => {
  it.each(Object.keys(CORPUS).map((n) => [n]))('%s: a document or a clear reason, and episodes build without throwing', (name) => {
    const r = result(name);
    expect(typeof r.ok).toBe('boolean');
    if (!r.ok) {
      expect(['yaml', 'js-frontmatter', 'binary', 'not-utf8', 'empty']).toContain(r.reason);
      expect(r.message.length).toBeGreaterThan(5);
      return;
    }
    const raw = CORPUS[name] as Buffer;
    const drafts = buildEpisodes({ doc: r.data, source: 'extra', kind: 'extra', relPath: name, mtimeMs: 1_700_000_000_000, groupId: 'main', maxChars: 500, fileId: fileIdOf('extra', name), contentHash: contentHashOf(raw) });
    for (const d of drafts) expect(d.body.length).toBeLessThanOrEqual(500);
  });

  it('nothing ran and nothing was polluted', () => {
    expect(g.__gmsPwned).toBeUndefined();
    expect(g.__gmsPwned2).toBeUndefined();
    expect(g.__gmsPwned3).toBeUndefined();
    const probe: Record<string, unknown> = {};
    for (const key of ['polluted', 'polluted2', 'polluted3', 'polluted4', 'title']) {
      expect(probe[key]).toBeUndefined();
      expect((Object.prototype as Record<string, unknown>)[key]).toBeUndefined();
    }
  });

  it.each([
    ['malformed-yaml.md', 'yaml', /YAML error in frontmatter: .* at line \d+, column \d+/],
    ['bad-indent.md', 'yaml', /line \d+/],
    ['duplicate-key.md', 'yaml', /duplicated mapping key at line 3/],
    ['js-block.md', 'js-frontmatter', /frontmatter language js is not allowed/],
    ['javascript-block.md', 'js-frontmatter', /frontmatter language javascript is not allowed/],
    ['coffee-block.md', 'js-frontmatter', /frontmatter language coffee is not allowed/],
    ['toml-block.md', 'yaml', /frontmatter language "toml" is not supported/],
    ['js-function-tag.md', 'yaml', /unknown tag .*js\/function/],
    ['js-undefined-tag.md', 'yaml', /unknown tag/],
    ['python-tag.md', 'yaml', /unknown tag/],
    ['png.md', 'binary', /NUL byte/],
    ['empty.md', 'empty', /empty/],
    ['whitespace.md', 'empty', /empty/],
    ['latin1.md', 'not-utf8', /not valid UTF-8/],
  ])('%s fails with reason %s', (name, reason, message) => {
    const r = result(name);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.reason).toBe(reason);
    expect(r.message).toMatch(message);
  });

  it('gray-matter bundles js-yaml 3, whose full-schema load WOULD build a function from !!js/function; we never use it', () => {
    const req = createRequire(import.meta.url);
    const grayMatterPath = req.resolve('gray-matter');
    const yamlReq = createRequire(grayMatterPath);
    const version = (yamlReq('js-yaml/package.json') as { version: string }).version;
    expect(version).toMatch(/^3\./);
    const jsYaml = yamlReq('js-yaml') as { load: (s: string) => unknown };
    // The dangerous path exists in this version (that is why the safe schema matters)…
    const loaded = jsYaml.load('f: !!js/function "function () { return 42; }"') as { f: unknown };
    expect(typeof loaded.f).toBe('function');
    // …and parseMemoryFile refuses the tag instead of honouring it.
    expect(result('js-function-tag.md')).toMatchObject({ ok: false, reason: 'yaml' });
    expect(g.__gmsPwned3).toBeUndefined();
  });

  it('YAML error messages carry no source snippet (a value could be a secret)', () => {
    const r = parseMemoryFile(Buffer.from('---\napi_key: "sk-abc123abc123abc123abc123\n---\nbody'), 'x.md');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).not.toContain('sk-abc');
  });

  it('BOM, CRLF and lone CR parse like LF', () => {
    const bom = result('bom.md');
    const crlf = result('crlf.md');
    const cr = result('lone-cr.md');
    expect(bom.ok && bom.data.title).toBe('With BOM');
    expect(crlf.ok && crlf.data).toMatchObject({ title: 'CRLF', tags: ['a', 'b'], body: 'line 1\nline 2\n' });
    expect(cr.ok && cr.data).toMatchObject({ title: 'CR', body: 'line 1\nline 2\n' });
  });

  it('reserved keys are dropped with warnings, at any depth, and objects have no prototype', () => {
    const r = result('proto.md');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.data.title).toBe('proto'); // not "from proto"
    expect(r.data.warnings).toEqual(expect.arrayContaining(['__proto__: reserved key name ignored', 'constructor: reserved key name ignored', 'prototype: reserved key name ignored', 'nested.__proto__: reserved key name ignored']));
    expect(Object.getPrototypeOf(r.data.extra)).toBeNull();
    expect(Object.keys(r.data.extra)).toEqual(['nested']);
    expect(Object.keys(r.data.extra.nested as object)).toEqual(['ok']);
    const json = result('json-proto.md');
    expect(json.ok && json.data.title).toBe('J');
  });

  it('every wrong type is dropped with a warning naming the field', () => {
    const r = result('wrong-types.md');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const w = r.data.warnings.join('\n');
    for (const field of ['rating', 'timestamp', 'name', 'title', 'description', 'type', 'metadata', 'pinned', 'modified', 'capture_type', 'source', 'auto_captured', 'session_id', 'executor', 'agent_completion', 'date', 'created', 'group_id', 'sync', 'private']) {
      expect(w).toMatch(new RegExp(`^${field}: .*ignored$`, 'm'));
    }
    expect(w).toMatch(/^tags: expected a list or comma-separated text, got a number; read as one tag$/m);
    expect(w).toMatch(/^rating: expected a number such as 7 or "7.5"; ignored$/m);
    expect(w).toMatch(/^timestamp: expected a date\/time, got a list; ignored$/m);
    expect(w).toMatch(/^name: expected text, got a mapping; ignored$/m);
    expect(w).toMatch(/^source: expected explicit or implicit; ignored$/m);
    expect(r.data.frontmatter).toEqual({ tags: ['5'] });
    expect(r.data.optOut).toBeUndefined();
    expect(r.data.title).toBe('wrong types');
  });

  it('unclosed frontmatter is read as text with a warning (nothing lost)', () => {
    const r = result('unclosed-frontmatter.md');
    expect(r.ok && r.data).toMatchObject({ title: 'Heading', hasFrontmatter: false, body: (CORPUS['unclosed-frontmatter.md'] as Buffer).toString() });
    expect(r.ok && r.data.warnings.join()).toMatch(/never closed/);
    const dashes = result('only-dashes.md');
    expect(dashes.ok && dashes.data.body).toBe('---');
  });

  it('a frontmatter-only file is a document whose episode carries the description', () => {
    const r = result('frontmatter-only.md');
    expect(r.ok && r.data).toMatchObject({ title: 'Just metadata', body: '', type: 'user' });
  });

  it('frontmatter that is not a mapping is ignored with a warning', () => {
    for (const name of ['frontmatter-not-mapping.md', 'frontmatter-scalar.md']) {
      const r = result(name);
      expect(r.ok && r.data.body).toBe('body\n');
      expect(r.ok && r.data.warnings.join()).toMatch(/not a mapping/);
    }
  });

  it('an alias bomb is cut off by the size budget, with a warning; other keys are kept', () => {
    const r = result('alias-bomb.md');
    expect(r.ok && r.data.title).toBe('Bomb');
    expect(r.ok && r.data.warnings).toEqual(expect.arrayContaining([expect.stringMatching(/^e: value is too large/), expect.stringMatching(/^f: value is too large/), expect.stringMatching(/^g: value is too large/)]));
    // d expands to 11,111 values: over the per-key budget too.
    expect(r.ok && Object.keys(r.data.extra)).toEqual(['a', 'b', 'c']);
  });

  it('very deep nesting is left out with a warning', () => {
    const r = result('deep-nesting.md');
    expect(r.ok && r.data.warnings.join()).toMatch(/nested too deeply/);
    let depth = 0;
    let node: unknown = r.ok ? r.data.extra.x : undefined;
    while (Array.isArray(node) && node.length > 0) {
      node = node[0];
      depth += 1;
    }
    expect(depth).toBeLessThan(40);
  });

  it('!!binary values are left out with a warning', () => {
    const r = result('binary-yaml.md');
    expect(r.ok && r.data.extra).toEqual({});
    expect(r.ok && r.data.warnings).toContain('blob: binary value left out');
  });

  it('four dashes are not a frontmatter delimiter', () => {
    const r = result('four-dashes.md');
    expect(r.ok && r.data.hasFrontmatter).toBe(false);
  });

  it('a decorative "--- text ---" first line is body text, not a frontmatter language', () => {
    const r = result('decorative-first-line.md');
    expect(r.ok && r.data).toMatchObject({ hasFrontmatter: false, body: '--- Meeting notes ---\nWe met.\n---\nBye.\n' });
  });

  it('unicode titles survive', () => {
    const r = result('unicode-title.md');
    expect(r.ok && r.data.title).toBe('Ünïcødé 标题 🚀');
  });

  it('excerpt_separator does not change the body', () => {
    const r = result('excerpt-separator.md');
    expect(r.ok && r.data.body).toBe('intro\n<!-- more -->\nrest\n');
  });

  it('gray-matter results are not cached across calls (same content, fresh objects)', () => {
    const text = Buffer.from('---\ntitle: Same\ntags: [a]\n---\nbody');
    const a = parseMemoryFile(text, 'a.md');
    const b = parseMemoryFile(text, 'b.md');
    expect(a.ok && b.ok).toBe(true);
    if (!a.ok || !b.ok) return;
    a.data.tags.push('mutated');
    (a.data.frontmatter.tags as string[]).push('mutated');
    expect(b.data.tags).toEqual(['a']);
    expect(b.data.frontmatter.tags).toEqual(['a']);
  });

  it('a 10 MB file parses in reasonable time', () => {
    const line = 'Some ordinary markdown text about the project, with `code` and **bold**.\n';
    const big = `---\ntitle: Big\ntags: [big]\n---\n# Big\n\n${line.repeat(Math.ceil((10 * 1024 * 1024) / line.length))}`;
    const started = performance.now();
    const r = parseMemoryFile(Buffer.from(big), 'big.md');
    const elapsed = performance.now() - started;
    expect(r.ok && r.data.title).toBe('Big');
    expect(r.ok && r.data.body.length).toBeGreaterThan(10 * 1024 * 1024 - 100);
    expect(elapsed).toBeLessThan(5000);
  });
});
