import { mkdir, readFile, readdir, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JsonFileError, readJsonFile, removeStaleTempFiles, writeFileAtomic, writeFileAtomicSync } from '../../src/lib/util/fs-atomic.js';
import { deadPid, startChild } from '../helpers/child-process.js';
import { srcUrl } from '../support/paths.js';
import { useTempDir } from '../helpers/use-temp-dir.js';

let dir: string;
useTempDir('gms-atomic-', (d) => (dir = d));

describe('writeFileAtomicSync (the hooks, the worker lease, the runtime record)', () => {
  it('writes with mode 0600 by default, creates the folder when asked and leaves no temp file', async () => {
    const path = join(dir, 'sync', 'a.json');
    writeFileAtomicSync(path, '{"a":1}', { mkdirMode: 0o700 });
    expect(await readFile(path, 'utf8')).toBe('{"a":1}');
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect((await stat(join(dir, 'sync'))).mode & 0o777).toBe(0o700);
    writeFileAtomicSync(path, Buffer.from('new'), { mode: 0o640 });
    expect(await readFile(path, 'utf8')).toBe('new');
    expect((await stat(path)).mode & 0o777).toBe(0o640);
    expect(await readdir(join(dir, 'sync'))).toEqual(['a.json']);
  });

  it('removes its temp file when the rename fails and leaves the target alone', async () => {
    const target = join(dir, 'target-sync');
    await mkdir(join(target, 'child'), { recursive: true });
    expect(() => writeFileAtomicSync(target, 'data')).toThrow();
    expect(await readdir(dir)).toEqual(['target-sync']);
  });
});

describe('writeFileAtomic', () => {
  it('writes the data with mode 0600 by default and leaves no temp file', async () => {
    const path = join(dir, 'a.json');
    await writeFileAtomic(path, '{"a":1}');
    expect(await readFile(path, 'utf8')).toBe('{"a":1}');
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(await readdir(dir)).toEqual(['a.json']);
  });

  it('replaces an existing file and applies an explicit mode exactly', async () => {
    const path = join(dir, 'b.txt');
    await writeFile(path, 'old', { mode: 0o644 });
    await writeFileAtomic(path, Buffer.from('new'), { mode: 0o640 });
    expect(await readFile(path, 'utf8')).toBe('new');
    expect((await stat(path)).mode & 0o777).toBe(0o640);
  });

  it('creates the parent folder when asked', async () => {
    const path = join(dir, 'x', 'y', 'c.txt');
    await writeFileAtomic(path, 'hi', { mkdirMode: 0o700 });
    expect(await readFile(path, 'utf8')).toBe('hi');
    expect((await stat(join(dir, 'x'))).mode & 0o777).toBe(0o700);
  });

  it('removes its temp file when the rename fails and leaves the target alone', async () => {
    const target = join(dir, 'target');
    await mkdir(join(target, 'child'), { recursive: true }); // a non-empty folder cannot be replaced by a file
    await expect(writeFileAtomic(target, 'data')).rejects.toThrow();
    expect(await readdir(dir)).toEqual(['target']);
    expect(await readdir(target)).toEqual(['child']);
  });

  it('a reader in another process never sees a partial file', async () => {
    const path = join(dir, 'big.json');
    await writeFileAtomic(path, JSON.stringify({ i: -1, pad: '' }));
    const script = `
      import { writeFileAtomic } from ${JSON.stringify(srcUrl('src/lib/util/fs-atomic.ts'))};
      const path = process.argv[2];
      const pad = 'x'.repeat(512 * 1024); // big enough that a plain write would be seen half-done
      console.log('ready');
      for (let i = 0; i < 150; i++) await writeFileAtomic(path, JSON.stringify({ i, pad, tail: 'end' }));
      console.log('done');
    `;
    const child = await startChild(dir, 'writer', script, [path]);
    expect(await child.nextLine()).toBe('ready');
    let running = true;
    void child.exited.then(() => {
      running = false;
    });
    let reads = 0;
    let lastI = -1;
    // Bounded: the writer finishes after 150 writes; the cap only guards against a hung child.
    for (let n = 0; running && n < 200_000; n++) {
      const text = await readFile(path, 'utf8');
      const parsed = JSON.parse(text) as { i: number; tail?: string };
      if (parsed.i >= 0) expect(parsed.tail).toBe('end');
      expect(parsed.i).toBeGreaterThanOrEqual(lastI); // never goes back to an older version
      lastI = parsed.i;
      reads++;
    }
    const exit = await child.exited;
    expect(exit.code, exit.stderr).toBe(0);
    expect(reads).toBeGreaterThan(10);
    expect(JSON.parse(await readFile(path, 'utf8')).i).toBe(149);
    expect(await readdir(dir)).toEqual(['big.json', 'writer.mjs']);
  });
});

describe('readJsonFile', () => {
  it('returns undefined for a missing file', async () => {
    expect(await readJsonFile(join(dir, 'nope.json'))).toBeUndefined();
  });

  it('parses valid JSON', async () => {
    await writeFile(join(dir, 'ok.json'), '{"x":[1,2]}');
    expect(await readJsonFile(join(dir, 'ok.json'))).toEqual({ x: [1, 2] });
  });

  it('throws JsonFileError for invalid JSON, with the size', async () => {
    await writeFile(join(dir, 'bad.json'), '{"x":');
    const error = await readJsonFile(join(dir, 'bad.json')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JsonFileError);
    expect((error as JsonFileError).bytes).toBe(5);
  });

  it('rethrows other I/O errors', async () => {
    await expect(readJsonFile(dir)).rejects.toMatchObject({ code: 'EISDIR' });
  });
});

describe('removeStaleTempFiles', () => {
  it('removes temp files of dead writers and very old ones, keeps live ones and other files', async () => {
    const path = join(dir, 'state.json');
    const dead = await deadPid();
    await writeFile(join(dir, `.state.json.${dead}.abc123.tmp`), 'x');
    await writeFile(join(dir, `.state.json.${process.pid}.def456.tmp`), 'x');
    const old = join(dir, `.state.json.${process.pid}.old000.tmp`);
    await writeFile(old, 'x');
    const t = new Date(Date.now() - 2 * 60 * 60_000);
    await utimes(old, t, t);
    await writeFile(join(dir, '.other.json.1.a.tmp'), 'x');
    await writeFile(path, '{}');
    expect(await removeStaleTempFiles(path)).toBe(2);
    expect((await readdir(dir)).sort()).toEqual([`.other.json.1.a.tmp`, `.state.json.${process.pid}.def456.tmp`, 'state.json']);
  });
});
