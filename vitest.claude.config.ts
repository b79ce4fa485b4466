import { defineConfig } from 'vitest/config';

/**
 * `npm run test:claude`: the real Claude Code CLI against a fake Anthropic API (test/claude).
 * Not part of the default `vitest run`: it downloads the pinned CLI once and each test runs
 * several real sessions. One file at a time: every session is a native process of its own.
 */
export default defineConfig({
  test: {
    include: ['test/claude/**/*.claude.test.ts'],
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 180_000,
    env: { GMS_TEST: '1' },
  },
});
