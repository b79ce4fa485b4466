/**
 * The watch gives a burst's garbage back (src/lib/watch/heap-release.ts): the collection it asks
 * for really frees unreachable memory, and it is asked for only when the heap has grown since the
 * last one, one at a time, never throwing. How much RSS that saves is a benchmark's business
 * (bench/watch-bench.ts, watch RSS over several runs), not this test's.
 */
import { getHeapStatistics } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/lib/util/log.js';
import { collectGarbage, canCollectGarbage, HeapReleaser } from '../../src/lib/watch/heap-release.js';

const quiet = createLogger({ level: 'silent' });
const MiB = 1024 * 1024;

describe('collectGarbage', () => {
  it.runIf(canCollectGarbage())('frees memory nothing refers to any more', async () => {
    // ~40 MiB of small objects, as chokidar's scan leaves them (many short strings and records).
    let garbage: Array<{ path: string; size: number }> | undefined = Array.from({ length: 400_000 }, (_, i) => ({ path: `/notes/folder-${i % 24}/note-${i}.md`, size: i }));
    const before = getHeapStatistics().used_heap_size;
    expect(garbage.length).toBe(400_000);
    garbage = undefined;
    await collectGarbage();
    const after = getHeapStatistics().used_heap_size;
    expect(before - after).toBeGreaterThan(20 * MiB);
  });
});

describe('HeapReleaser', () => {
  function releaser(growthBytes = 16 * MiB) {
    let heap = 10 * MiB;
    const collections: Array<() => void> = [];
    const r = new HeapReleaser({
      logger: quiet,
      growthBytes,
      heapSize: () => heap,
      collect: () =>
        new Promise<void>((resolve) => {
          collections.push(() => {
            heap = 12 * MiB; // what is left after the collection
            resolve();
          });
        }),
    });
    return { r, collections, grow: (bytes: number) => (heap += bytes) };
  }

  it('does nothing while the heap has not grown by the threshold', () => {
    const { r, collections, grow } = releaser();
    r.settled();
    grow(15 * MiB);
    r.settled();
    expect(collections).toHaveLength(0);
    expect(r.releases).toBe(0);
  });

  it('collects once the heap has grown, one collection at a time, and measures growth from what is left after it', async () => {
    const { r, collections, grow } = releaser();
    grow(40 * MiB);
    r.settled();
    r.settled(); // while one runs: not a second
    expect(collections).toHaveLength(1);
    collections[0]?.();
    await r.pending;
    expect(r.pending).toBeUndefined();
    // Left: 12 MiB. Growing 10 MiB past that is below the threshold; 16 MiB past it is not.
    grow(10 * MiB);
    r.settled();
    expect(collections).toHaveLength(1);
    grow(6 * MiB);
    r.settled();
    expect(collections).toHaveLength(2);
    expect(r.releases).toBe(2);
  });

  it('a collection that fails is logged, not thrown, and the next burst may try again', async () => {
    let heap = 0;
    let attempts = 0;
    const lines: string[] = [];
    const logger = createLogger({ level: 'debug', mirror: (line) => lines.push(line) });
    const r = new HeapReleaser({
      logger,
      growthBytes: 1,
      heapSize: () => heap,
      collect: async () => {
        attempts++;
        throw new Error('inspector unavailable');
      },
    });
    heap = 5;
    r.settled();
    await r.pending;
    heap = 10;
    r.settled();
    await r.pending;
    expect(attempts).toBe(2);
    expect(lines.join('\n')).toContain('heap release failed');
  });
});
