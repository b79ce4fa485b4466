/** The note tag (issue 42): made with the key over every field; any change, or another key, fails. */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { formatNoteTag, parseNoteTag, taggablePath, verifyNoteTag, type NoteTagFields } from '../../src/lib/memory/note-tag.js';

const key = new Uint8Array(randomBytes(32));
const fields: NoteTagFields = { project: '0123456789abcdef', version: 1732800000123, parent: 0, path: 'topics/ci build.md', origin: 'm-3fa92c01bd', part: 1, parts: 1, name: 'CI build', body: 'The build uses Bun.' };

describe('note tag', () => {
  it('round-trips through a source description and verifies with the key', () => {
    const block = formatNoteTag(key, fields);
    const parsed = parseNoteTag(`auto-memory memory x; project y ${block} [gms:abc:0123456789ab:1/1:m-3fa92c01bd]`);
    expect(parsed).toMatchObject({ project: fields.project, version: fields.version, parent: 0, path: 'topics/ci build.md' });
    expect(verifyNoteTag(key, fields, parsed?.tag ?? '')).toBe(true);
  });
  it('fails for another key, and for any field changed (body, name, path, project, version, parent, origin, part)', () => {
    const tag = parseNoteTag(formatNoteTag(key, fields))?.tag ?? '';
    expect(verifyNoteTag(new Uint8Array(randomBytes(32)), fields, tag)).toBe(false);
    const changes: Array<Partial<NoteTagFields>> = [{ body: 'The build uses Bun!' }, { name: 'CI' }, { path: 'other.md' }, { project: 'fedcba9876543210' }, { version: fields.version + 1 }, { parent: 5 }, { origin: 'm-0000000000' }, { part: 2, parts: 2 }];
    for (const change of changes) expect(verifyNoteTag(key, { ...fields, ...change }, tag)).toBe(false);
  });
  it('only relative .md paths inside the folder are tagged', () => {
    for (const bad of ['../x.md', '/etc/x.md', 'a//b.md', 'a/./b.md', 'x.txt', 'a\\b.md', '']) expect(taggablePath(bad)).toBe(false);
    expect(taggablePath('a/b c.md')).toBe(true);
    expect(() => formatNoteTag(key, { ...fields, path: '../x.md' })).toThrow(TypeError);
    expect(parseNoteTag('[gmsn:0123456789abcdef:1:0:..%2Fx.md:' + 'a'.repeat(64) + ']')).toBeUndefined();
  });
});
