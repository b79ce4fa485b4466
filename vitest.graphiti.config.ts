import { defineConfig } from 'vitest/config';

/**
 * `npm run test:graphiti`: the real Graphiti MCP server (Python, from PyPI) on FalkorDB with the
 * stand-in LLM. Separate from the default run, which stays fast and needs no Python.
 */
export default defineConfig({
  test: {
    include: ['test/real-graphiti/**/*.test.ts'],
    pool: 'forks',
    // One generation at a time: the servers' own timing matters and the machine is small.
    fileParallelism: false,
    testTimeout: 240_000,
    hookTimeout: 600_000,
    env: { GMS_TEST: '1' },
  },
});
