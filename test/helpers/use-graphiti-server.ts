/**
 * A test file's Graphiti test servers: `start(options)` starts one (episodes processed at once
 * unless the options say otherwise); every server a test started is closed after it.
 */
import { afterEach } from 'vitest';
import { startGraphitiServer, type GraphitiServerOptions, type GraphitiTestServer } from '../support/graphiti-server.js';

export function useGraphitiServer(defaults: GraphitiServerOptions = {}): (options?: GraphitiServerOptions) => Promise<GraphitiTestServer> {
  const started: GraphitiTestServer[] = [];
  afterEach(async () => {
    // close() is idempotent: a test may already have closed its server.
    for (const server of started.splice(0)) await server.close();
  });
  return async (options = {}) => {
    const server = await startGraphitiServer({ processingDelayMs: 0, ...defaults, ...options });
    started.push(server);
    return server;
  };
}
