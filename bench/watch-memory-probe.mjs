/**
 * Preloaded (`node --import`) into the watch child by the watch bench only: on SIGUSR2 it writes
 * process.memoryUsage() as JSON to $GMS_BENCH_MEMORY_PROBE, so the bench can split the child's
 * RSS into V8 heap (used / reserved) and the rest. It adds a signal handler and nothing else: no
 * V8 flags, no GC, so what is measured is what users run.
 */
import { writeFileSync } from 'node:fs';

const out = process.env.GMS_BENCH_MEMORY_PROBE;
if (out !== undefined && out !== '') {
  process.on('SIGUSR2', () => {
    writeFileSync(out, JSON.stringify(process.memoryUsage()));
  });
}
