/**
 * Reading JSON lines (the log file, `watch --json`, `sync --json`): one owner for splitting,
 * skipping blanks, and what to do with a line that is not JSON.
 *
 * `strict` (the default) throws on a line that is not JSON: output a test asserts on must be
 * clean. `lenient` skips it: a log being written concurrently may end in a torn line, and a
 * child's stdout may mix JSON with plain text.
 */
import { existsSync, readFileSync } from 'node:fs';

export type BadLinePolicy = 'strict' | 'lenient';

/** Parses one line; undefined for a blank line, or (lenient) for one that is not a JSON object. */
export function parseJsonLine<T = Record<string, unknown>>(text: string, policy: BadLinePolicy = 'strict'): T | undefined {
  const line = text.trim();
  if (line === '') return undefined;
  if (policy === 'strict') return JSON.parse(line) as T;
  if (!line.startsWith('{')) return undefined;
  try {
    return JSON.parse(line) as T;
  } catch {
    return undefined;
  }
}

/**
 * The JSON lines of a log file another process may be appending to right now: only its complete
 * lines (each ends in a newline), each strictly. The line being written has no newline yet and is
 * read at the next look (read whole, a CI run once caught it half-written and threw from a watcher).
 */
export function readLogLines<T = Record<string, unknown>>(file: string): T[] {
  if (!existsSync(file)) return [];
  const text = readFileSync(file, 'utf8');
  return parseJsonLines<T>(text.slice(0, text.lastIndexOf('\n') + 1));
}

export function parseJsonLines<T = Record<string, unknown>>(text: string, policy: BadLinePolicy = 'strict'): T[] {
  const out: T[] = [];
  for (const raw of text.split('\n')) {
    const value = parseJsonLine<T>(raw, policy);
    if (value !== undefined) out.push(value);
  }
  return out;
}

/**
 * Collects JSON lines from a stream fed in chunks (a child's stdout); `waitFor` resolves on the
 * first matching line, already seen or still to come, and rejects after `timeoutMs` or when
 * `ended` (e.g. the child's exit) resolves first.
 */
export class JsonLineStream<T extends object = Record<string, unknown>> {
  readonly lines: T[] = [];
  private buffer = '';
  private readonly waiters: Array<{ match: (l: T) => boolean; resolve: (l: T) => void }> = [];

  constructor(
    private readonly policy: BadLinePolicy = 'strict',
    /** Called with every parsed line before it is stored (e.g. to stamp when it arrived). */
    private readonly onLine?: (line: T) => void,
  ) {}

  push(chunk: string): void {
    this.buffer += chunk;
    let nl: number;
    while ((nl = this.buffer.indexOf('\n')) >= 0) {
      const text = this.buffer.slice(0, nl);
      this.buffer = this.buffer.slice(nl + 1);
      const line = parseJsonLine<T>(text, this.policy);
      if (line === undefined) continue;
      this.onLine?.(line);
      this.lines.push(line);
      for (const w of [...this.waiters]) {
        if (w.match(line)) {
          this.waiters.splice(this.waiters.indexOf(w), 1);
          w.resolve(line);
        }
      }
    }
  }

  waitFor(match: (l: T) => boolean, timeoutMs: number, describe: () => string, ended?: { promise: Promise<unknown>; describe: () => string }): Promise<T> {
    const found = this.lines.find(match);
    if (found !== undefined) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(describe())), timeoutMs);
      this.waiters.push({
        match,
        resolve: (l) => {
          clearTimeout(timer);
          resolve(l);
        },
      });
      if (ended) {
        void ended.promise.then(() => {
          clearTimeout(timer);
          reject(new Error(ended.describe()));
        });
      }
    });
  }
}
