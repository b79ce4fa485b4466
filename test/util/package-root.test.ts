/** util/package-root.ts: where the package lives, and whether its files changed under a running process. */
import { mkdirSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { filesFingerprint } from '../../src/lib/util/package-root.js';
import { useTempDir } from '../helpers/use-temp-dir.js';

let dir: string;
useTempDir('gms-pkgroot-', (d) => (dir = d));

describe('filesFingerprint', () => {
  it('stays the same while the files do, and changes when a file is replaced (npm), rewritten (a rebuild) or removed', () => {
    mkdirSync(join(dir, 'dist'));
    const entry = join(dir, 'dist', 'entry.js');
    const pkg = join(dir, 'package.json');
    writeFileSync(entry, 'export {};\n');
    writeFileSync(pkg, '{"version":"0.1.0"}\n');
    utimesSync(entry, 1_000, 1_000);
    const files = [entry, pkg];
    const started = filesFingerprint(files);
    expect(filesFingerprint(files)).toBe(started);

    // npm: the new version's file written beside, then put in place (same bytes, same times: a new inode).
    const next = join(dir, 'dist', 'entry.js.new');
    writeFileSync(next, 'export {};\n');
    utimesSync(next, 1_000, 1_000);
    renameSync(next, entry);
    const replaced = filesFingerprint(files);
    expect(replaced).not.toBe(started);

    // A rebuild writing the same path in place.
    writeFileSync(entry, 'export const x = 1;\n');
    const rebuilt = filesFingerprint(files);
    expect(rebuilt).not.toBe(replaced);

    // Half replaced: the file is gone for now.
    rmSync(entry);
    expect(filesFingerprint(files)).not.toBe(rebuilt);
  });
});
