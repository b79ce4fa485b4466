/**
 * SERVER_OF_RECORD (state/server-of-record.ts) with `sync --source`: the first run on another
 * server that scans one source only looks at that source's notes (force-look.ts FORCE_LOOK takes
 * the run's sources). On 8fc2c7a it still recorded the new server for the whole state, so no
 * later run looked again: the other sources' notes, confirmed on the first server, never reached
 * the new one (its sessions lacked them for good, `status` said all was confirmed).
 */
import { describe, expect, it } from 'vitest';
import { runSync } from '../../src/lib/sync/sync.js';
import { startGraphitiServer } from '../support/graphiti-server.js';
import { makeSandbox } from '../support/sandbox.js';

describe('SERVER_OF_RECORD: a first run on another server that scans one source', () => {
  it('leaves the server unrecorded: the next full run looks at every source, and the new server gets every note', async () => {
    const home = await startGraphitiServer({ processingDelayMs: 0 });
    const other = await startGraphitiServer({ processingDelayMs: 0 });
    const box = makeSandbox(home.url);
    try {
      box.pai('LEARNING/ci.md', '# CI\n\nThe CI runs on Node 22.\n');
      box.auto('-home-me-app', 'deploy.md', '---\nname: Deploy\ndescription: how we deploy\ntype: project\n---\nBasalt deploys through canary.\n');
      const first = await runSync(box.config(), { waitMs: 3000 });
      expect(first.pending + first.failed).toBe(0);
      expect(home.episodes().map((e) => e.name).sort()).toEqual(['CI', 'Deploy']);

      const moved = { MADEINOZ_KNOWLEDGE_MCP_URL: other.url };
      await runSync(box.config(moved), { source: 'pai', waitMs: 3000 });
      await runSync(box.config(moved), { waitMs: 3000 });
      expect(other.episodes().map((e) => e.name).sort()).toEqual(['CI', 'Deploy']);
    } finally {
      await home.close();
      await other.close();
      box.cleanup();
    }
  });
});
