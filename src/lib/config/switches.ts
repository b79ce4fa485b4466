/**
 * Switches for the background worker, read on the hooks' hot path (no zod, no dotenv, node only):
 * tests and operators turn spawning off, run another worker script, or shorten its time limit.
 * Environment only (a hook never reads a `.env` file for these). Each name is listed in SETTINGS
 * (config.ts, group `developer`), from which docs/configuration.md is generated.
 */
import { ConfigError } from './env-file.js';

type Env = Record<string, string | undefined>;

export const WORKER_SWITCH_NAMES = ['GMS_WORKER_DISABLED', 'GMS_WORKER_SCRIPT', 'GMS_WORKER_TIMEOUT_MS'] as const;

export interface WorkerSwitches {
  /** GMS_WORKER_DISABLED=1: the hooks never start the worker (tests that must see no network). */
  disabled: boolean;
  /** GMS_WORKER_SCRIPT: the worker script to run instead of ours (tests use a fake worker). */
  script: string | undefined;
  /** GMS_WORKER_TIMEOUT_MS: a shorter time limit than the worker's own (tests of hung servers). */
  timeoutMs: number | undefined;
}

/** The worker switches; throws ConfigError for a GMS_WORKER_TIMEOUT_MS that is not a positive whole number. */
export function workerSwitches(env: Env): WorkerSwitches {
  const script = env.GMS_WORKER_SCRIPT?.trim();
  const timeout = env.GMS_WORKER_TIMEOUT_MS?.trim();
  let timeoutMs: number | undefined;
  if (timeout !== undefined && timeout !== '') {
    timeoutMs = Number(timeout);
    if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) throw new ConfigError(`GMS_WORKER_TIMEOUT_MS="${timeout}" is not allowed: use a whole number of milliseconds above 0`, 'GMS_WORKER_TIMEOUT_MS');
  }
  return { disabled: env.GMS_WORKER_DISABLED?.trim() === '1', script: script === undefined || script === '' ? undefined : script, timeoutMs };
}
