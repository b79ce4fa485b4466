/**
 * The messages between the watcher and the child process running its sync passes (pass-process.ts
 * starts it; pass-process-entry.ts is the child). Everything crossing the channel is
 * structured-cloned (IPC with serialization 'advanced'), which keeps an Error's message but not a custom `name` (LockTimeoutError,
 * StateConflictError: the scheduler's backoff and fatal rules read it), so errors travel as
 * plain fields and are revived on the watcher's side. Types and two pure functions only: both
 * sides import it.
 */
import type { Config } from '../config/config.js';
import type { LogFields, LogLevel } from '../util/log.js';
import type { SyncSummary } from '../sync/types.js';

/** What the child is told first: what every pass runs with (the settings come with each pass: they may change while the watch runs). */
export interface PassProcessInit {
  /** Lock wait per pass, as runSync's lockTimeoutMs. */
  lockTimeoutMs: number;
  /** Lines below this level are dropped in the child (a pass over 10,000 notes logs a debug line or more per note). */
  logLevel: LogLevel;
}

export type ToPassProcess = { type: 'init'; data: PassProcessInit } | { type: 'run'; id: number; config: Config } | { type: 'abort'; id: number; reason: string };

export type LogLevelName = 'debug' | 'info' | 'warn' | 'error';

export type FromPassProcess =
  | { type: 'log'; level: LogLevelName; msg: string; base: LogFields; fields?: LogFields }
  | { type: 'done'; id: number; summary: SyncSummary }
  | { type: 'failed'; id: number; error: SentError };

/** An error as fields that survive structured cloning. */
export interface SentError {
  name: string;
  message: string;
  stack?: string;
  code?: string;
}

export function sendableError(error: unknown): SentError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  const code = (error as NodeJS.ErrnoException).code;
  return { name: error.name, message: error.message, ...(error.stack === undefined ? {} : { stack: error.stack }), ...(typeof code === 'string' ? { code } : {}) };
}

/** The error as the pass threw it: same name, message, stack and code. */
export function revivedError(sent: SentError): Error {
  const error = new Error(sent.message) as NodeJS.ErrnoException;
  error.name = sent.name;
  if (sent.stack !== undefined) error.stack = sent.stack;
  if (sent.code !== undefined) error.code = sent.code;
  return error;
}

/** Log fields made cloneable: Errors as {name, message} (what the log file keeps of them anyway). */
export function sendableFields(fields: LogFields): LogFields {
  const out: LogFields = {};
  for (const [key, value] of Object.entries(fields)) out[key] = value instanceof Error ? { name: value.name, message: value.message } : value;
  return out;
}
