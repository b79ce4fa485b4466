import { defineConfig, mergeConfig } from 'vitest/config';
import { sharedConfig } from './test/setup/shared-config.js';

/**
 * `npm run test:old-node` (scripts/test/test-old-node.mjs): the built hooks and command line under
 * real Node.js binaries older than we need (test/old-node). Not part of the default `vitest run`:
 * the script fetches the pinned binaries first.
 */
export default mergeConfig(
  sharedConfig,
  defineConfig({
    test: {
      include: ['test/old-node/**/*.test.ts'],
      testTimeout: 60_000,
    },
  }),
);
