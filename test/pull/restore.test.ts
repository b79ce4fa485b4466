/** A note version from the graph back to a memory file (issue 42): frontmatter from the header lines, parts joined once, the restored line. */
import matter from 'gray-matter';
import { describe, expect, it } from 'vitest';
import { contentHashOf } from '../../src/lib/memory/hash.js';
import type { NoteVersion } from '../../src/lib/pull/incoming.js';
import { joinParts, restoreNote } from '../../src/lib/pull/restore.js';

const v = (bodies: string[], name = 'CI build'): NoteVersion => ({
  id: 'p:ci.md', project: '0123456789abcdef', path: 'ci.md', version: 1795887833740, parent: 0, origin: 'm-0a4d2b4b92', hash12: '0123456789ab', fileId: 'f0', groupId: 'main',
  parts: bodies.map((body, i) => ({ uuid: `u${i}`, groupId: 'main', part: i + 1, name: bodies.length > 1 ? `${name} (part ${i + 1}/${bodies.length})` : name, body })),
});

describe('restoreNote', () => {
  it('name, description and type become frontmatter; other header lines stay; the restored line names the machine and version', () => {
    const r = restoreNote(v(['Type: project\nDescription: how CI builds\nTags: ci, build\n\nThe build uses Bun.']), '2026-11-28T00:00:00.000Z');
    const parsed = matter(r.text);
    expect(parsed.data).toEqual({ name: 'CI build', description: 'how CI builds', type: 'project' });
    expect(parsed.content).toContain('Tags: ci, build\n\nThe build uses Bun.');
    expect(r.text.trimEnd().split('\n').at(-1)).toBe('<!-- graphiti-memory-sync: restored from m-0a4d2b4b92 (version 1795887833740, pulled 2026-11-28T00:00:00.000Z) -->');
    expect(r.redacted).toBe(false);
    // The restored line is not content: the same note without it hashes the same.
    expect(contentHashOf(Buffer.from(r.text))).toBe(contentHashOf(Buffer.from(`${r.text.replace(/<!-- graphiti-memory-sync: restored[^\n]*-->\n$/, '').trimEnd()}\n`)));
  });
  it('parts: the repeated header once, bodies in order; a redacted body says so', () => {
    const header = 'Description: long one';
    const joined = joinParts([`${header}\n\nOne.`, `${header}\n\nTwo.`, `${header}\n\nThree [REDACTED:github-token].`]);
    expect(joined).toEqual({ header, body: 'One.\n\nTwo.\n\nThree [REDACTED:github-token].' });
    const r = restoreNote(v([`${header}\n\nOne.`, `${header}\n\nTwo [REDACTED:github-token].`]), 'now');
    expect(matter(r.text).data.name).toBe('CI build');
    expect(r.redacted).toBe(true);
    expect(r.text).toContain('secrets in it were redacted');
  });
  it('a body whose first paragraph is prose keeps it as prose', () => {
    const r = restoreNote(v(['We decided: Bun, not Node.\nBecause it is faster.\n\nMore.']), 'now');
    expect(matter(r.text).content).toContain('We decided: Bun, not Node.\nBecause it is faster.\n\nMore.');
  });
});
