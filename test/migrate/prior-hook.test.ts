/**
 * The madeinoz hook's fingerprint of a note, checked against what that hook's own rules give
 * by hand (frontmatter split by its regex, PAI capture footer removed, blank-line runs collapsed).
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { holdsPriorContent, isPriorEpisodeFor, loadPriorState, priorFingerprint } from '../../src/lib/migrate/prior-hook.js';

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

describe('priorFingerprint', () => {
  it('hashes the body as the prior hook cleaned it', () => {
    const raw = '---\ncapture_type: LEARNING\nsession_id: abc\n---\n# Title\n\nFirst line.\n\n\n\nSecond line.\n\n---\n\n*Captured by PAI History System*\n';
    expect(priorFingerprint(raw)).toEqual({ contentHash: sha('# Title\n\nFirst line.\n\nSecond line.'), episodeBody: '# Title\n\nFirst line.\n\nSecond line.' });
  });

  it('a note without frontmatter (or with CRLF, which its regex does not split) is its whole text, trimmed', () => {
    expect(priorFingerprint('\nJust text.\n').contentHash).toBe(sha('Just text.'));
    const crlf = '---\r\ncapture_type: LEARNING\r\n---\r\nBody\r\n';
    expect(priorFingerprint(crlf).episodeBody).toBe(crlf.trim());
  });

  it('the episode body is cut at 5,000 characters; the hash covers all of it', () => {
    const body = 'x'.repeat(6000);
    const fp = priorFingerprint(body);
    expect(fp.episodeBody).toHaveLength(5000);
    expect(fp.contentHash).toBe(sha(body));
    const episode = { uuid: 'u', name: 'LEARNING: x', content: fp.episodeBody, source_description: 'File: a.md' };
    expect(holdsPriorContent(episode, { contentHash: sha(body), captureType: 'LEARNING' }, fp)).toBe(true);
    expect(holdsPriorContent(episode, { contentHash: sha('other'), captureType: 'LEARNING' }, fp)).toBe(false);
  });
});

describe('isPriorEpisodeFor', () => {
  it('needs File: <basename> as the last part and no marker of ours', () => {
    const e = (source_description: string) => ({ uuid: 'u', name: 'n', source_description });
    expect(isPriorEpisodeFor(e('Source: capture | Session: 1a2b3c4d | Rating: 8/10 | File: deploy.md'), 'deploy.md')).toBe(true);
    expect(isPriorEpisodeFor(e('File: deploy.md'), 'deploy.md')).toBe(true);
    expect(isPriorEpisodeFor(e('File: deploy.md.bak'), 'deploy.md')).toBe(false);
    expect(isPriorEpisodeFor(e('graphiti-memory-sync [gms:0123456789abcdef:0123456789ab:1/1] | File: deploy.md'), 'deploy.md')).toBe(false);
  });
});

describe('loadPriorState', () => {
  it('reads its entries by absolute path; a broken file is reported and adopts nothing', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gms-prior-'));
    try {
      const good = join(dir, 'good.json');
      writeFileSync(good, JSON.stringify({ version: '1.0.0', synced_files: [{ filepath: '/m/a.md', content_hash: sha('a'), capture_type: 'LEARNING' }, { filepath: '/m/b.md', content_hash: 'nothex' }] }));
      const broken = join(dir, 'broken.json');
      writeFileSync(broken, '{"synced_files": [');
      const problems: string[] = [];
      const entries = loadPriorState([good, broken, join(dir, 'absent.json')], (path) => problems.push(path));
      expect([...entries]).toEqual([['/m/a.md', { contentHash: sha('a'), captureType: 'LEARNING' }]]);
      expect(problems).toEqual([broken]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
