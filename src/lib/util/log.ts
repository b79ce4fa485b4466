/**
 * A tiny append-only JSON-lines logger writing to a file in the state directory.
 *
 * Hooks must never write to stdout (it becomes Claude's context) and stderr is
 * shown to the user on some events, so everything diagnostic goes to a file.
 * Writes are synchronous and small (one appendFileSync per line): a hook may be
 * killed at any moment and the line must already be on disk. Logging never throws.
 */
import { appendFileSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';

export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  /** A logger whose lines all carry these fields (e.g. the component name). */
  child(fields: LogFields): Logger;
  readonly file: string | undefined;
}

/** Settings name it MADEINOZ_KNOWLEDGE_LOG_LEVEL (config.ts). */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

const ORDER: Record<Exclude<LogLevel, 'silent'>, number> = { debug: 10, info: 20, warn: 30, error: 40 };
const MAX_LOG_BYTES = 5 * 1024 * 1024;

/** Field names whose values are never written, whatever they hold. */
const SECRET_KEYS = /^(authorization|auth_?token|token|password|secret|api_?key|headers|cookie)$/i;

/** Whether a logger set to `threshold` writes lines of `level` (also used to drop lines before they cross a process boundary). */
export function levelEnabled(threshold: LogLevel, level: Exclude<LogLevel, 'silent'>): boolean {
  return threshold !== 'silent' && ORDER[level] >= ORDER[threshold];
}

export function logFilePath(stateDir: string): string {
  return join(stateDir, 'logs', 'graphiti-memory-sync.log');
}

function scrub(fields: LogFields): LogFields {
  const out: LogFields = {};
  for (const [key, value] of Object.entries(fields)) {
    if (SECRET_KEYS.test(key)) out[key] = '[redacted]';
    else if (value instanceof Error) out[key] = { name: value.name, message: value.message };
    else out[key] = value;
  }
  return out;
}

export function createLogger(options: { file?: string | undefined; level?: LogLevel; base?: LogFields; mirror?: (line: string) => void }): Logger {
  const level = options.level ?? 'info';
  const file = options.file;
  let dirReady = false;
  let checkedSize = false;

  const write = (lvl: Exclude<LogLevel, 'silent'>, msg: string, base: LogFields, fields?: LogFields) => {
    if (!levelEnabled(level, lvl)) return;
    const line = JSON.stringify({ t: new Date().toISOString(), level: lvl, pid: process.pid, msg, ...scrub(base), ...(fields ? scrub(fields) : {}) });
    options.mirror?.(line);
    if (file === undefined) return;
    try {
      if (!dirReady) {
        mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
        dirReady = true;
      }
      if (!checkedSize) {
        checkedSize = true;
        try {
          if (statSync(file).size > MAX_LOG_BYTES) renameSync(file, `${file}.1`);
        } catch {
          // no file yet
        }
      }
      appendFileSync(file, `${line}\n`, { mode: 0o600 });
    } catch {
      // A log that cannot be written must not break a sync or a hook.
    }
  };

  const make = (base: LogFields): Logger => ({
    debug: (m, f) => write('debug', m, base, f),
    info: (m, f) => write('info', m, base, f),
    warn: (m, f) => write('warn', m, base, f),
    error: (m, f) => write('error', m, base, f),
    child: (f) => make({ ...base, ...f }),
    file,
  });
  return make(options.base ?? {});
}

/** A logger that drops everything: the default for library code called without one. */
export const nullLogger: Logger = createLogger({ level: 'silent' });
