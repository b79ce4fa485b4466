import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { contentHashOf, fileIdOf, normalizeContent } from '../../src/lib/memory/hash.js';
import { isCaptureFooter, stripCaptureFooters } from '../../src/lib/memory/footer.js';

const sha = (s: string | Buffer) => createHash('sha256').update(s).digest('hex');

describe('contentHashOf', () => {
  const text = '---\ntitle: x\n---\nline 1\nline 2\n';

  it('is sha256 hex of the normalised text', () => {
    expect(contentHashOf(Buffer.from(text))).toBe(sha(text));
    expect(contentHashOf(Buffer.from(text))).toMatch(/^[0-9a-f]{64}$/);
  });

  it('ignores BOM and line-end style', () => {
    const h = contentHashOf(Buffer.from(text));
    expect(contentHashOf(Buffer.from(text.replace(/\n/g, '\r\n')))).toBe(h);
    expect(contentHashOf(Buffer.from(text.replace(/\n/g, '\r')))).toBe(h);
    expect(contentHashOf(Buffer.from(`\ufeff${text}`))).toBe(h);
  });

  it('ignores capture footers (and the rule above them)', () => {
    const h = contentHashOf(Buffer.from(text));
    expect(contentHashOf(Buffer.from(`${text}\n---\n\n*Auto-captured by WorkCompletionLearning hook at session end*\n`))).toBe(h);
    expect(contentHashOf(Buffer.from(`${text}*Captured by PAI History System v2*\n`))).toBe(h);
  });

  it('changes when the content changes', () => {
    expect(contentHashOf(Buffer.from(text))).not.toBe(contentHashOf(Buffer.from(text.replace('line 2', 'line 3'))));
  });

  it('hashes non-UTF-8 bytes as they are', () => {
    const latin1 = Buffer.from('caf\u00e9', 'latin1');
    expect(normalizeContent(latin1)).toBeUndefined();
    expect(contentHashOf(latin1)).toBe(sha(latin1));
  });
});

describe('fileIdOf', () => {
  it('is the first 16 hex of sha256(source NUL relPath), stable and distinct', () => {
    expect(fileIdOf('pai', 'a/b.md')).toBe(sha('pai\0a/b.md').slice(0, 16));
    expect(fileIdOf('pai', 'a/b.md')).toMatch(/^[0-9a-f]{16}$/);
    expect(fileIdOf('pai', 'a/b.md')).not.toBe(fileIdOf('pai-a', '/b.md'));
    expect(fileIdOf('pai', 'a/b.md')).not.toBe(fileIdOf('auto-memory', 'a/b.md'));
  });
});

describe('capture footers', () => {
  it.each([
    ['*Auto-captured by WorkCompletionLearning hook at session end*'],
    ['*Captured by PAI History System*'],
    ['**Captured by PAI (v2.4)**'],
    ['_Auto-captured by SessionHarvester_'],
    ['  *auto captured via the RatingCapture hook*  '],
  ])('%j is a footer', (line) => {
    expect(isCaptureFooter(line)).toBe(true);
  });

  it.each([['Captured by the camera at dawn.'], ['*Captured by* the camera, then edited'], ['We captured by hand.'], ['*Important*']])('%j is not a footer', (line) => {
    expect(isCaptureFooter(line)).toBe(false);
  });

  it('removes the footer, the separator rule above it and the blank tail', () => {
    expect(stripCaptureFooters('Body.\n\n---\n\n*Auto-captured by X hook*\n')).toBe('Body.\n');
    expect(stripCaptureFooters('Body.\n*Captured by PAI*')).toBe('Body.');
  });

  it('keeps a rule that is not directly above a footer, and text without footers unchanged', () => {
    expect(stripCaptureFooters('A\n\n---\n\nB\n*Captured by PAI*\n')).toBe('A\n\n---\n\nB\n');
    const plain = 'No footer here.\n---\nStill here.\n';
    expect(stripCaptureFooters(plain)).toBe(plain);
  });
});
