/**
 * SERVER_OF_RECORD (state/server-of-record.ts): a note deleted while the machine was pointed at
 * another server. Its episode on the first server is the state's to delete (an orphan); the run on
 * the other server asked that server to delete it, heard "not found" and took it for gone. Back on
 * the first server nothing named it any more (the rebuild finds older versions of files it still
 * has, not of deleted ones): the deleted note stayed in the first server's graph for good, in every
 * session there, and linked machines' pulls kept it.
 */
import { describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import { runSync } from '../../src/lib/sync/sync.js';
import { startGraphitiServer } from '../support/graphiti-server.js';
import { makeSandbox } from '../support/sandbox.js';

describe('SERVER_OF_RECORD: a note deleted while on another server', () => {
  it('is deleted from the first server once the machine is back on it', async () => {
    const home = await startGraphitiServer({ processingDelayMs: 0 });
    const other = await startGraphitiServer({ processingDelayMs: 0 });
    const box = makeSandbox(home.url);
    try {
      box.pai('LEARNING/ci.md', '# CI\n\nThe CI runs on Node 22.\n');
      const gone = box.pai('LEARNING/old.md', '# Old\n\nThe build used Make.\n');
      const first = await runSync(box.config(), { waitMs: 3000 });
      expect(first.pending + first.failed).toBe(0);
      expect(home.episodes().map((e) => e.name).sort()).toEqual(['CI', 'Old']);

      const moved = { MADEINOZ_KNOWLEDGE_MCP_URL: other.url };
      await runSync(box.config(moved), { waitMs: 3000 });
      rmSync(gone);
      await runSync(box.config(moved), { waitMs: 3000 });
      expect(other.episodes().map((e) => e.name).sort()).toEqual(['CI']);

      await runSync(box.config(), { waitMs: 3000 });
      await runSync(box.config(), { waitMs: 3000 });
      expect(home.episodes().map((e) => e.name).sort()).toEqual(['CI']);
    } finally {
      await home.close();
      await other.close();
      box.cleanup();
    }
  });
});
