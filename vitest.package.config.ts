import { defineConfig } from 'vitest/config';

/**
 * `npm run test:package`: the package made from a fresh clone by the README's commands, installed
 * globally and as a dev dependency, its hooks under the real Claude Code CLI (test/package/*.slow.test.ts).
 * Not part of the default `vitest run`: it runs `npm ci` and `npm pack` in the clone.
 */
export default defineConfig({
  test: {
    include: ['test/package/**/*.slow.test.ts'],
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 300_000,
    env: { GMS_TEST: '1' },
  },
});
