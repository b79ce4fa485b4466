/**
 * Switches for the background worker, read on the hooks' hot path (no zod, no dotenv, node only):
 * tests and operators turn spawning off, run another worker script, or shorten its time limit.
 * Environment only (a hook never reads a `.env` file for these). Each name is listed in SETTINGS
 * (config.ts, group `developer`), from which docs/configuration.md is generated.
 */
import { ConfigError } from './env-file.js';

type Env = Record<string, string | undefined>;

export interface WorkerSwitches {
  /** GMS_WORKER_DISABLED=1: the hooks never start the worker (tests that must see no network). */
  disabled: boolean;
  /** GMS_WORKER_SCRIPT: the worker script to run instead of ours (tests use a fake worker). */
  script: string | undefined;
}

/** What the hooks read before starting the worker. */
export function workerSwitches(env: Env): WorkerSwitches {
  const script = env.GMS_WORKER_SCRIPT?.trim();
  return { disabled: env.GMS_WORKER_DISABLED?.trim() === '1', script: script === undefined || script === '' ? undefined : script };
}

/**
 * GMS_WORKER_TIMEOUT_MS, read by the worker itself: a shorter time limit than its own (tests of
 * hung servers). Throws ConfigError for a value that is not a positive whole number.
 */
export function workerTimeoutMs(env: Env): number | undefined {
  const timeout = env.GMS_WORKER_TIMEOUT_MS?.trim();
  if (timeout === undefined || timeout === '') return undefined;
  const ms = Number(timeout);
  if (!Number.isInteger(ms) || ms <= 0) throw new ConfigError(`GMS_WORKER_TIMEOUT_MS="${timeout}" is not allowed: use a whole number of milliseconds above 0`, 'GMS_WORKER_TIMEOUT_MS');
  return ms;
}
