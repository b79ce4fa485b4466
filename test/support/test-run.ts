/**
 * Every process a test run starts carries the run's name in its environment, so that the run can
 * find what it left behind (test/setup/stray-processes.ts): GMS_TEST_RUN names the run (a fresh id
 * the global setup sets; vitest's workers and every child started with `...process.env` inherit
 * it) and GMS_TEST_FILE the test file that started it (test/setup/test-file-env.ts). The sandboxes
 * that build a child's environment from scratch hand both on with `testRunMarker()`, and so do the
 * product's server processes (src/lib/config/process-env.ts, the owner of these names: runTag).
 * Outside a marked run (a benchmark, the demo) there is nothing to hand on.
 */
import { RUN_TAG_VARS, runTag } from '../../src/lib/config/process-env.js';

export const [TEST_RUN_VAR, TEST_FILE_VAR] = RUN_TAG_VARS;

/** The run's and the test file's names, as set in `env`, for a child's environment built from scratch. */
export const testRunMarker = (env: NodeJS.ProcessEnv = process.env): Record<string, string> => runTag(env);
