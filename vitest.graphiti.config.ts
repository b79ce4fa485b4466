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
      // REAL_PIP_IN_LANE: the local server's install path with the real Python and pip (stand-in wheels,
      // offline) runs here, off the fast suite that every later CI step waits for: in CI this suite's
      // lane has time to spare beside the Claude Code one (scripts/test/test-all.mjs LANES_BALANCED).
      include: ['test/real-graphiti/**/*.test.ts', 'test/server/install-path.test.ts'],
      // Two files at a time (GRAPHITI_TWO_FILES): each file starts its own servers on free ports, in
      // its own folders, and mostly waits on them (three files took 291 s of wall clock for 57 s of
      // CPU), so a second file fills that wait; more would crowd the two cores CI shares with the
      // other peer lane (scripts/test/test-all.mjs PEER_LANES).
      fileParallelism: true,
      maxWorkers: 2,
      testTimeout: 240_000,
      hookTimeout: 600_000,
    },
  }),
);
