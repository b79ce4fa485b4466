/**
 * Issue 32, end to end on the test server: our state tells which episodes are ours (a note of our
 * own, a file of a declared shared source), so the block tags their facts own and shared, and
 * everything else in the group group.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { refreshProjectContext } from '../../src/lib/context/context.js';
import { detectProject } from '../../src/lib/context/project.js';
import { loadContextInputs } from '../../src/lib/state/our-episodes.js';
import { runSync } from '../../src/lib/sync/sync.js';
import type { GraphitiTestServer } from '../support/graphiti-server.js';
import { learning, type Sandbox } from '../support/sandbox.js';
import { useServerAndSandbox } from '../helpers/use-server-and-sandbox.js';

let server: GraphitiTestServer;
let box: Sandbox;

useServerAndSandbox((s, b) => {
  server = s;
  box = b;
});

describe('loadContextInputs', () => {
  it('our note → own, a declared shared source → shared, someone else → group; no state → everything group', async () => {
    const team = box.path('team');
    mkdirSync(team, { recursive: true });
    const env = { MADEINOZ_KNOWLEDGE_SYNC_PATHS: `team=${team}`, MADEINOZ_KNOWLEDGE_SHARED_SOURCES: 'team=team-notes' };
    const config = box.config(env);
    expect((await loadContextInputs(config.stateDir)).ourEpisodes).toEqual([]);

    box.pai('LEARNING/2026-01/webapp.md', learning('Webapp database', 'The webapp keeps its data in PostgreSQL.'));
    writeFileSync(join(team, 'deploys.md'), learning('Webapp deploys', 'The webapp deploys with Docker Compose.'));
    server.seedFact({ fact: 'The webapp pages are served by nginx', group_id: 'main', episodes: ['someone-elses-episode'] });
    await runSync(config, { waitMs: 5000 });
    await server.whenIdle();
    await runSync(config, { waitMs: 5000 });

    const inputs = await loadContextInputs(config.stateDir);
    expect(inputs.ourEpisodes.map((e) => e.source).sort()).toEqual(['pai', 'team']);
    const project = detectProject(box.path('code', 'webapp'), config);
    const { entry } = await refreshProjectContext(config, project, inputs);
    expect(entry.text).toMatch(/^- \[own\] .*PostgreSQL/m);
    expect(entry.text).toMatch(/^- \[shared\] .*Docker Compose/m);
    expect(entry.text).toMatch(/^- \[group\] The webapp pages are served by nginx/m);

    const narrow = await refreshProjectContext(box.config({ ...env, MADEINOZ_KNOWLEDGE_CONTEXT_TRUST: 'shared' }), project, inputs);
    expect(narrow.entry.text).not.toContain('nginx');
    expect(narrow.entry.text).toMatch(/^- \[shared\] .*Docker Compose/m);
  });
});
