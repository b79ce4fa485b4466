import { defineConfig, mergeConfig } from 'vitest/config';
import { sharedConfig } from './test/setup/shared-config.js';

/**
 * `npm run test:claude`: the real Claude Code CLI against a fake Anthropic API (test/claude).
 * Not part of the default `vitest run`: it downloads the pinned CLI once and each test runs
 * several real sessions. One file at a time: every session is a native process of its own.
 */
export default mergeConfig(
  sharedConfig,
  defineConfig({
    test: {
      include: ['test/claude/**/*.claude.test.ts'],
      maxWorkers: 1,
      fileParallelism: false,
      testTimeout: 120_000,
      hookTimeout: 180_000,
    },
  }),
);
