import { defineConfig } from 'vitest/config';

/**
 * What every vitest suite shares (vitest.config.ts, and the real-peer suites: vitest.graphiti,
 * vitest.claude and vitest.package.config.ts merge it with mergeConfig): the one owner of these rules.
 * - Tests must never read the developer's real ~/.claude or .env (GMS_TEST=1).
 * - Each file names itself to the processes it starts (test/setup/test-file-env.ts).
 * - No process a test starts outlives the run: the teardown kills and reports any
 *   (test/setup/stray-processes.ts). It is the first global setup, so its teardown runs last
 *   (vitest tears global setups down in reverse order), after any suite's own: what a suite keeps
 *   on purpose for all its files and stops in its own teardown is gone by then; what is left is a leak.
 */
export const sharedConfig = defineConfig({
  test: {
    pool: 'forks',
    env: { GMS_TEST: '1' },
    setupFiles: ['test/setup/test-file-env.ts'],
    globalSetup: ['test/setup/stray-processes.ts'],
  },
});
