/**
 * Property tests for the file → document → episodes mapping: nothing throws, no part
 * exceeds the limit, nothing is silently lost, and no planted secret gets through.
 */
import fc from 'fast-check';
import matter from 'gray-matter';
import { describe, expect, it } from 'vitest';
import { buildEpisodes, parseMarker, prepareEpisodeContent, type EpisodeDraft, type EpisodeInput } from '../../src/lib/memory/episode.js';
import { parseMemoryFile, type MemoryDocument } from '../../src/lib/memory/parse.js';

const RUNS = Number(process.env.GMS_FC_RUNS ?? 200);
const HASH = 'f'.repeat(64);

function episodes(doc: MemoryDocument, maxChars: number, over: Partial<EpisodeInput> = {}): EpisodeDraft[] {
  return buildEpisodes({ doc, source: 'extra', kind: 'extra', relPath: 'notes/file.md', mtimeMs: 1_767_000_000_000, groupId: 'main', maxChars, fileId: '0011223344556677', contentHash: HASH, ...over });
}

const nonWs = (s: string) => s.replace(/\s+/g, '');

/** Markdown-ish bodies: headings, paragraphs, fences, lists, long lines, blank lines, unicode. */
const line = fc.oneof(
  fc.string({ maxLength: 80 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ minLength: 1, maxLength: 40 }).map((s) => `# ${s}`),
  fc.string({ minLength: 1, maxLength: 40 }).map((s) => `## ${s}`),
  fc.string({ maxLength: 40 }).map((s) => `- ${s}`),
  fc.constant(''),
  fc.constant('```'),
  fc.constant('---'),
  fc.string({ minLength: 200, maxLength: 1500 }),
  fc.array(fc.constantFrom('word', 'another', 'x', 'sentence.', 'end!'), { maxLength: 400 }).map((w) => w.join(' ')),
);
const body = fc.array(line, { maxLength: 60 }).map((lines) => lines.join('\n'));

const KNOWN_KEYS = ['title', 'name', 'description', 'type', 'tags', 'timestamp', 'rating', 'source', 'auto_captured', 'session_id', 'executor', 'agent_completion', 'capture_type', 'modified', 'pinned', 'metadata', 'date', 'created', 'group_id', 'sync', 'private'];
const value: fc.Arbitrary<unknown> = fc.oneof(
  { depthSize: 'small' },
  fc.jsonValue({ maxDepth: 3 }),
  fc.date({ min: new Date(Date.UTC(1970, 0, 1)), max: new Date(Date.UTC(2100, 0, 1)), noInvalidDate: true }),
  fc.constantFrom('2026-01-04 10:30:00 PST', '7.5', 'explicit', 'true', 'a, b, c', '2026-03-01T10:00:00Z'),
  fc.record({ type: fc.jsonValue({ maxDepth: 1 }), pinned: fc.jsonValue({ maxDepth: 1 }) }, { requiredKeys: [] }),
);
const frontmatter = fc.dictionary(fc.oneof(fc.constantFrom(...KNOWN_KEYS, '__proto__', 'constructor', 'prototype'), fc.string({ minLength: 1, maxLength: 20 })), value, { maxKeys: 12 });

describe('properties: frontmatter → episodes', () => {
  it('arbitrary bytes never make parseMemoryFile or buildEpisodes throw', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2000 }), fc.integer({ min: 100, max: 3000 }), (bytes, maxChars) => {
        const r = parseMemoryFile(Buffer.from(bytes), 'x.md');
        if (!r.ok) {
          expect(['yaml', 'js-frontmatter', 'binary', 'not-utf8', 'empty']).toContain(r.reason);
          return;
        }
        for (const e of episodes(r.data, maxChars)) expect(e.body.length).toBeLessThanOrEqual(maxChars);
      }),
      { numRuns: RUNS * 5 },
    );
  });

  it('arbitrary text (with a frontmatter fence) never throws', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 300 }), fc.constantFrom('', '---\n', '---\r\n', '\ufeff---\n', '---js\n', '---yaml\n'), fc.boolean(), (text, open, close) => {
        const r = parseMemoryFile(Buffer.from(`${open}${text}${close ? '\n---\n' : ''}body`), 'x.md');
        if (r.ok) episodes(r.data, 500);
      }),
      { numRuns: RUNS * 2 },
    );
  });

  it('arbitrary frontmatter objects serialised as YAML parse into documents; parts stay within maxChars and lose nothing', () => {
    fc.assert(
      fc.property(frontmatter, body, fc.integer({ min: 100, max: 2500 }), (data, text, maxChars) => {
        let raw: string;
        // gray-matter writes no frontmatter for an empty object; the body could then be read as one.
        if (Object.keys(data).length === 0) data.capture_type = 'LEARNING';
        try {
          raw = matter.stringify({ content: text }, data);
        } catch {
          fc.pre(false); // not representable as YAML (the generator's problem, not ours)
          return;
        }
        const r = parseMemoryFile(Buffer.from(raw), 'notes/file.md');
        if (!r.ok) {
          // Only an empty document may fail; serialised YAML is always valid.
          expect(r.reason).toBe('empty');
          return;
        }
        const doc = r.data;
        expect(Object.getPrototypeOf(doc.extra)).toBeNull();
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
        const drafts = episodes(doc, maxChars);
        const prepared = prepareEpisodeContent(doc);
        if (prepared.body === '' && (doc.frontmatter.description ?? '') === '') {
          expect(drafts).toEqual([]);
          return;
        }
        expect(drafts.length).toBeGreaterThan(0);
        drafts.forEach((e, i) => {
          expect(e.body.length).toBeLessThanOrEqual(maxChars);
          expect(e.body.trim()).not.toBe('');
          expect(e.name.length).toBeLessThanOrEqual(200);
          expect(e.sourceDescription.length).toBeLessThanOrEqual(500);
          expect(parseMarker(e.sourceDescription)).toMatchObject({ part: i + 1, parts: drafts.length, raw: e.marker });
          expect(e.part).toBe(i + 1);
          expect(e.parts).toBe(drafts.length);
          expect(Number.isNaN(Date.parse(e.referenceTime))).toBe(false);
        });
        // No silent loss: the parts, minus the repeated header, carry every non-whitespace character in order.
        const repeated = prepared.header !== '' && prepared.header.length + 2 <= maxChars / 2;
        const expected = repeated || prepared.header === '' ? prepared.body : prepared.body === '' ? prepared.header : `${prepared.header}\n\n${prepared.body}`;
        const got = drafts.map((e) => {
          if (!repeated) return e.body;
          expect(e.body.startsWith(prepared.header)).toBe(true);
          return e.body.slice(prepared.header.length);
        });
        if (repeated && prepared.body === '') expect(nonWs(got.join(''))).toBe('');
        else expect(nonWs(got.join(''))).toBe(nonWs(expected));
      }),
      { numRuns: RUNS },
    );
  });

  it('a planted secret never appears in any part, name or description', () => {
    const secret = fc.oneof(
      fc.stringMatching(/^[A-Za-z0-9]{36}$/).map((s) => `ghp_${s}`),
      fc.stringMatching(/^[A-Z0-9]{16}$/).map((s) => `AKIA${s}`),
      fc.stringMatching(/^[A-Za-z0-9_-]{40,80}$/).map((s) => `sk-proj-${s}`),
      fc.stringMatching(/^[A-Za-z0-9_-]{40,80}$/).map((s) => `sk-ant-api03-${s}`),
      fc.stringMatching(/^[A-Za-z0-9]{36}$/).map((s) => `npm_${s}`),
    );
    fc.assert(
      fc.property(body, body, secret, fc.integer({ min: 100, max: 2000 }), fc.constantFrom('body', 'description', 'title', 'tags', 'private'), (before, after, planted, maxChars, where) => {
        fc.pre(!before.includes(planted) && !after.includes(planted));
        const data: Record<string, unknown> = { capture_type: 'LEARNING' };
        let text = `${before}\n${planted}\n${after}`;
        if (where === 'description') {
          data.description = `key is ${planted} ok`;
          text = `${before}\n${after}`;
        } else if (where === 'title') {
          data.title = `Note ${planted}`;
          text = `${before}\n${after}`;
        } else if (where === 'tags') {
          data.tags = ['a', planted];
          text = `${before}\n${after}`;
        } else if (where === 'private') {
          text = `${before}\n<private>${planted}</private>\n${after}`;
        }
        const r = parseMemoryFile(Buffer.from(matter.stringify({ content: text }, data)), 'notes/file.md');
        if (!r.ok) return;
        for (const e of episodes(r.data, maxChars)) {
          expect(e.body).not.toContain(planted);
          expect(e.name).not.toContain(planted);
          expect(e.sourceDescription).not.toContain(planted);
        }
      }),
      { numRuns: RUNS },
    );
  });
});
