/** The vitest wrapper of harness.ts: the world every real-CLI test runs in, fresh per test. */
import { afterEach, beforeAll, beforeEach } from 'vitest';
import { startGraphitiServer, type GraphitiTestServer } from '../support/graphiti-server.js';
import { startFakeAnthropic, type FakeAnthropic } from './fake-anthropic.js';
import { claudeBinary, ensureBuiltOnce, makeClaudeBox, type ClaudeBox } from './harness.js';

export interface ClaudeWorld {
  api: FakeAnthropic;
  graphiti: GraphitiTestServer;
  box: ClaudeBox;
}

/**
 * Builds the product and fetches the pinned CLI once per file; then, for every test, a fake
 * Anthropic API whose model writes `writeContent`, a loopback Graphiti test server and a Claude
 * box pointing at both (closed after the test). `use` receives them for the file's own variables
 * and may seed the graph or install hooks before the test runs.
 */
export function useClaudeWorld(writeContent: string, use: (world: ClaudeWorld) => void): void {
  let world: ClaudeWorld | undefined;
  beforeAll(() => {
    ensureBuiltOnce();
    claudeBinary();
  }, 180_000);
  beforeEach(async () => {
    const api = await startFakeAnthropic({ writeContent });
    const graphiti = await startGraphitiServer({ processingDelayMs: 0 });
    world = { api, graphiti, box: makeClaudeBox(api.url, graphiti.url) };
    use(world);
  });
  afterEach(async () => {
    await world?.graphiti.close();
    await world?.api.close();
    await world?.box.cleanup();
    world = undefined;
  });
}

/** The note the model writes in the plugin tests (plugin.claude.test.ts, plugin-versions.claude.test.ts). */
export const DEPLOY_NOTE = '---\nname: deploy\ndescription: how we deploy\ntype: project\n---\n# Deploy pipeline\n\nThe deploy pipeline has a canary stage.\n';
/** A fact about it already in the group, which the session context must bring. */
export const DEPLOY_FACT = 'The deploy pipeline runs the smoke tests before the canary';

/** useClaudeWorld whose model writes DEPLOY_NOTE, with DEPLOY_FACT seeded in the group main. */
export function useDeployWorld(use: (world: ClaudeWorld) => void): void {
  useClaudeWorld(DEPLOY_NOTE, (world) => {
    world.graphiti.seedFact({ fact: DEPLOY_FACT, group_id: 'main' });
    use(world);
  });
}
