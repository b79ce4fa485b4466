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
