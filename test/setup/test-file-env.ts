/**
 * Names the running test file in the environment (GMS_TEST_FILE, test/support/test-run.ts), so a
 * process a test leaves behind says which file started it (test/setup/stray-processes.ts).
 */
import { relative } from 'node:path';
import { expect } from 'vitest';
import { REPO_ROOT } from '../support/paths.js';
import { TEST_FILE_VAR } from '../support/test-run.js';

const file = expect.getState().testPath;
if (file !== undefined) process.env[TEST_FILE_VAR] = relative(REPO_ROOT, file);
