import { defineConfig, mergeConfig } from 'vitest/config';
import { sharedConfig } from './test/setup/shared-config.js';

/**
 * `npm run test:graphiti`: the real Graphiti MCP server (Python, from PyPI) on FalkorDB with the
 * stand-in LLM. Separate from the default run, which stays fast and needs no Python.
 */
export default mergeConfig(
  sharedConfig,
  defineConfig({
    test: {
      include: ['test/real-graphiti/**/*.test.ts'],
      // One generation at a time: the servers' own timing matters and the machine is small.
      fileParallelism: false,
      testTimeout: 240_000,
      hookTimeout: 600_000,
    },
  }),
);
