/**
 * Every process a test run starts carries the run's name in its environment, so that the run can
 * find what it left behind (test/setup/stray-processes.ts): GMS_TEST_RUN names the run (a fresh id
 * the global setup sets; vitest's workers and every child started with `...process.env` inherit
 * it) and GMS_TEST_FILE the test file that started it (test/setup/test-file-env.ts). The sandboxes
 * that build a child's environment from scratch hand both on with `testRunMarker()`.
 * Outside a marked run (a benchmark, the demo) there is nothing to hand on.
 */
export const TEST_RUN_VAR = 'GMS_TEST_RUN';
export const TEST_FILE_VAR = 'GMS_TEST_FILE';

/** The run's and the test file's names, as set in `env`, for a child's environment built from scratch. */
export function testRunMarker(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const marker: Record<string, string> = {};
  for (const name of [TEST_RUN_VAR, TEST_FILE_VAR]) {
    const value = env[name];
    if (value !== undefined && value !== '') marker[name] = value;
  }
  return marker;
}
