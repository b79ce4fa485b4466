/** A temp folder per test (or per file) of the calling test file, made and removed by vitest hooks. */
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { makeTempDir } from '../support/temp-dir.js';

/**
 * Gives the calling file a fresh temp folder before each test (`'each'`) or once for the file
 * (`'all'`); `use` receives it for the file's own variable. Register it before the file's own
 * beforeEach/beforeAll so those already see the folder. All folders are removed after the file
 * (not after each test: a child process a test started may still be writing into its folder), and
 * with allSettled, so one folder that cannot be removed does not leave all the others behind.
 */
export function useTempDir(prefix: string, use: (dir: string) => void, scope: 'each' | 'all' = 'each'): void {
  const cleanups: Array<() => Promise<void>> = [];
  const create = async () => {
    const t = await makeTempDir(prefix);
    cleanups.push(t.cleanup);
    use(t.dir);
  };
  if (scope === 'each') beforeEach(create);
  else beforeAll(create);
  afterAll(async () => {
    await Promise.allSettled(cleanups.map((c) => c()));
  });
}
