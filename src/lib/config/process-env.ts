/**
 * The process's environment, for the modules outside config/ that need it (issue 25: apart from
 * the entry points, only config/ reads `process.env`). None of them reads a setting of ours from
 * it (those are in the SETTINGS table, config.ts); each uses it for one of two things:
 * - handing the environment on to a child process whole, or its PATH and HOME (pip, python, the
 *   Graphiti server, redis-server, the background worker);
 * - the default of an `env` parameter, for the platform's and Claude Code's own variables
 *   (HOME, CLAUDE_CONFIG_DIR, CLAUDE_CODE_PROJECT_DIR_NAME) when a caller passes none.
 * Node only, no dependencies: the hooks' hot path imports it.
 */

/** The live environment of this process (not a copy: a caller that changes it changes the process's). */
export function processEnv(): NodeJS.ProcessEnv {
  return process.env;
}

/**
 * The variables that tag a process with the run that started it: a test run names every process
 * it starts (GMS_TEST_RUN, and GMS_TEST_FILE for the test file) and, once it ends, finds and
 * kills the ones still running (test/setup/stray-processes.ts reads /proc/<pid>/environ). A
 * child whose environment we build from scratch (the Graphiti server, redis-server: nothing of
 * ours in them) would lose the tag, and a server a test left running would hold its port unseen:
 * ManagedProcess hands these on. Unset outside a test run: nothing is added then.
 */
export const RUN_TAG_VARS = ['GMS_TEST_RUN', 'GMS_TEST_FILE'] as const;

/** The run tag as set in `env` (the live environment by default), for a child's environment built from scratch. */
export function runTag(env: NodeJS.ProcessEnv = processEnv()): Record<string, string> {
  const tag: Record<string, string> = {};
  for (const name of RUN_TAG_VARS) {
    const value = env[name];
    if (value !== undefined && value !== '') tag[name] = value;
  }
  return tag;
}
