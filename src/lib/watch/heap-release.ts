/**
 * Gives the garbage of a burst of work back to the system once the burst is over, so that an idle
 * watch stays small.
 *
 * Why: V8 collects garbage only while the program allocates. chokidar's start-up scan allocates
 * ~6 KiB per file under watch (a Stats object per file, paths), fast enough that much of it
 * survives into the old generation and the young generation grows to its 32 MiB maximum; then the
 * watch goes idle, allocates nothing, and the heap keeps that size: at 10,000 files 105-113 MiB
 * of RSS instead of 60, unless V8's memory reducer happened to be armed by a full collection
 * during the scan (in 1 to 6 runs of 10, varying with the machine's load, it was not, and the
 * watch stayed there for good).
 *
 * How: after start-up and after each pass (see run.ts), if V8's heap has grown by `growthBytes`
 * since the last release, V8 is asked for a memory-reducing full collection through Node's
 * inspector module (`HeapProfiler.collectGarbage` on an in-process session: no port is opened, no
 * flag is needed, nothing is printed). It takes ~20-40 ms at 10,000 files, once. Where Node was
 * built without the inspector (`process.features.inspector` false) nothing is done.
 */
import { getHeapStatistics } from 'node:v8';
import type { Logger } from '../util/log.js';

/** How much V8's heap must have grown since the last release before a burst is worth collecting. */
export const DEFAULT_HEAP_GROWTH_BYTES = 16 * 1024 * 1024;

export interface HeapReleaserOptions {
  logger: Logger;
  /** Growth that triggers a release; default DEFAULT_HEAP_GROWTH_BYTES. */
  growthBytes?: number;
  /** V8's committed heap now, in bytes; default getHeapStatistics().total_heap_size. */
  heapSize?: () => number;
  /** Runs the memory-reducing collection; default collectGarbage. */
  collect?: () => Promise<void>;
}

/** V8's committed heap (all spaces), in bytes. */
export function committedHeapBytes(): number {
  return getHeapStatistics().total_heap_size;
}

/** Whether this Node can collect garbage on request (built with the inspector). */
export function canCollectGarbage(): boolean {
  return process.features.inspector;
}

/**
 * A full, memory-reducing garbage collection (it also shrinks the young generation), asked of V8
 * through an in-process inspector session.
 */
export async function collectGarbage(): Promise<void> {
  if (!canCollectGarbage()) return;
  const { Session } = await import('node:inspector');
  const session = new Session();
  session.connect();
  try {
    await new Promise<void>((resolve, reject) => {
      session.post('HeapProfiler.collectGarbage', (error) => (error === null ? resolve() : reject(error)));
    });
  } finally {
    session.disconnect();
  }
}

export class HeapReleaser {
  private baseline: number;
  private running: Promise<void> | undefined;
  private readonly growthBytes: number;
  private readonly heapSize: () => number;
  private readonly collect: () => Promise<void>;
  private releasesDone = 0;

  constructor(private readonly options: HeapReleaserOptions) {
    this.growthBytes = options.growthBytes ?? DEFAULT_HEAP_GROWTH_BYTES;
    this.heapSize = options.heapSize ?? committedHeapBytes;
    this.collect = options.collect ?? collectGarbage;
    this.baseline = this.heapSize();
  }

  /** How many collections were asked for so far. */
  get releases(): number {
    return this.releasesDone;
  }

  /** The one running now, if any (tests wait for it). */
  get pending(): Promise<void> | undefined {
    return this.running;
  }

  /**
   * A burst of work has ended (the start-up scan, a pass): if the heap grew by the threshold since
   * the last release, collect now. Never throws; at most one collection at a time.
   */
  settled(): void {
    if (this.running !== undefined) return;
    const before = this.heapSize();
    if (before - this.baseline < this.growthBytes) return;
    this.releasesDone++;
    const started = Date.now();
    this.running = this.collect()
      .then(
        () => this.options.logger.info('heap released', { beforeMiB: mib(before), afterMiB: mib(this.heapSize()), ms: Date.now() - started }),
        (error: unknown) => this.options.logger.debug('heap release failed', { error: error as Error }),
      )
      .finally(() => {
        this.baseline = this.heapSize();
        this.running = undefined;
      });
  }
}

function mib(bytes: number): number {
  return Math.round((bytes / 1048576) * 10) / 10;
}
