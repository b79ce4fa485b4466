/**
 * Temporary folders for tests and benchmarks: one owner for making them and for removing them.
 * Removal is `rm -rf` with `force`, so a folder a test already removed is fine. Free of vitest,
 * so benchmarks can use it too; the per-test lifecycle is use-temp-dir.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TempDir {
  dir: string;
  cleanup: () => Promise<void>;
}

export async function makeTempDir(prefix = 'gms-test-'): Promise<TempDir> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** Synchronous variant for set-up code that cannot await; `cleanup` is synchronous too. */
export function makeTempDirSync(prefix = 'gms-test-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
