/**
 * The lock-file protocol (util/lock-file.ts) on a full disk: the exclusive create of the owner's
 * temp file succeeds and its write fails (ENOSPC). Injected at writeFileSync, since a full file
 * system cannot be made without privileges.
 */
import * as fs from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { createLockFile } from '../../src/lib/util/lock-file.js';
import { useTempDir } from '../helpers/use-temp-dir.js';

vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs')>();
  return { ...real, writeFileSync: vi.fn(real.writeFileSync) };
});

const real = await vi.importActual<typeof import('node:fs')>('node:fs');
let dir = '';
useTempDir('gms-lock-file-', (d) => {
  dir = d;
});

describe('createLockFile on a full disk', () => {
  it('the write of the temp file fails: the error is thrown, no lock is made, and no empty temp file is left behind (one per try until space is freed)', () => {
    vi.mocked(fs.writeFileSync).mockImplementationOnce((path, _data, options) => {
      real.writeFileSync(path as string, '', options as fs.WriteFileOptions); // created, then the write fails
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    });
    const lock = join(dir, 'sync.lock');
    expect(() => createLockFile(lock, '{"pid":1}', 'tag1')).toThrow(/ENOSPC/);
    expect(real.readdirSync(dir)).toEqual([]);
    // Space back: the next try takes the lock and leaves only it.
    expect(createLockFile(lock, '{"pid":1}', 'tag2')).toBe(true);
    expect(real.readdirSync(dir)).toEqual(['sync.lock']);
  });
});
