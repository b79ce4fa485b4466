/**
 * A named pipe a stand-in writes to when it reaches a step (its pid, or a word), so a test acts at
 * that very step: the reader blocks until the writer has written, with no polling and no sleep.
 */
import { execFileSync } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { join } from 'node:path';

export interface Fifo {
  path: string;
  /** What the next writer writes (trimmed), once it has closed its end. */
  next(): Promise<string>;
}

export function makeFifo(dir: string, name: string): Fifo {
  const path = join(dir, name);
  execFileSync('mkfifo', [path]);
  return {
    path,
    next: () =>
      new Promise((resolve, reject) => {
        let text = '';
        const stream = createReadStream(path, { encoding: 'utf8' });
        stream.on('data', (d) => (text += String(d)));
        stream.on('end', () => resolve(text.trim()));
        stream.on('error', reject);
      }),
  };
}
