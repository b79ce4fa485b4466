/** The vitest wrapper of sandbox.ts: a test server and a sandbox home per test. */
import { afterEach, beforeEach } from 'vitest';
import { startGraphitiServer, type GraphitiTestServer } from '../support/graphiti-server.js';
import { makeSandbox, type Sandbox } from '../support/sandbox.js';

/**
 * Gives every test of the calling file a fresh loopback Graphiti test server and a sandbox home
 * pointing at it (registered as beforeEach/afterEach); `use` receives them for the file's own variables.
 */
export function useServerAndSandbox(use: (server: GraphitiTestServer, box: Sandbox) => void): void {
  let server: GraphitiTestServer | undefined;
  let box: Sandbox | undefined;
  beforeEach(async () => {
    server = await startGraphitiServer({ processingDelayMs: 0 });
    box = makeSandbox(server.url);
    use(server, box);
  });
  afterEach(async () => {
    await server?.close();
    box?.cleanup();
  });
}
