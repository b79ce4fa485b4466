import { defineConfig, mergeConfig } from 'vitest/config';
import { sharedConfig } from './test/setup/shared-config.js';

/**
 * `npm run test:package`: the package made from a fresh clone by the README's commands, installed
 * globally and as a dev dependency, its hooks under the real Claude Code CLI (test/package/*.slow.test.ts).
 * Not part of the default `vitest run`: it runs `npm ci` and `npm pack` in the clone.
 */
export default mergeConfig(
  sharedConfig,
  defineConfig({
    test: {
      include: ['test/package/**/*.slow.test.ts'],
      fileParallelism: false,
      testTimeout: 180_000,
      hookTimeout: 300_000,
    },
  }),
);
