/**
 * A case-insensitive disk, simulated over this machine's case-sensitive one, for tests that mock
 * `node:fs` and `node:fs/promises` with it (vi.mock). macOS (APFS and HFS+ by default) and Windows
 * keep a name as it was written but open it under any spelling that differs only in case (and, on
 * APFS, in Unicode normalization): `Note.md` and `note.md` are one file there, and this kernel mounts
 * no such file system (no ext4 casefold, tmpfs refuses the option), so the tests fold names here.
 *
 * Under a folding root every path is looked up one name at a time against what the folder holds:
 * the entry spelt exactly so, else the one that folds alike, else the name as given (a new file gets
 * the spelling it is made with). Listings show the spelling on disk. A rename between two spellings
 * of one entry renames it in place (a case-only rename), as the real disks do. A rename onto another
 * entry replaces it under the spelling the folder held (the disks may take either; no test here
 * depends on which). Paths outside every root are the real disk's, untouched.
 */
import type * as FsModule from 'node:fs';
import type * as FsPromisesModule from 'node:fs/promises';
import { basename, dirname, join, resolve, sep } from 'node:path';

/** Where the disk folds names: absolute folders, added and removed by the test. */
export interface FoldingDisk {
  roots: string[];
}

/** How the disk compares names: APFS ignores case and normalization form. */
const fold = (name: string) => name.normalize('NFD').toLowerCase();

/** Functions taking two paths (source, destination); every other takes at most one, first. */
const TWO_PATHS = new Set(['rename', 'renameSync', 'link', 'linkSync', 'copyFile', 'copyFileSync', 'cp', 'cpSync']);
/** Functions whose first argument is a link's text, not a path: only the second is one. */
const TARGET_FIRST = new Set(['symlink', 'symlinkSync']);

function lookup(real: typeof FsModule, disk: FoldingDisk, path: unknown): unknown {
  if (typeof path !== 'string') return path;
  const abs = resolve(path);
  const root = disk.roots.find((r) => abs === r || abs.startsWith(`${r}${sep}`));
  if (root === undefined) return path;
  let at = root;
  for (const name of abs.slice(root.length).split(sep).filter((n) => n !== '')) {
    let names: string[] = [];
    try {
      names = real.readdirSync(at);
    } catch {
      // Not a folder (yet): the rest of the path is as given.
    }
    const hit = names.includes(name) ? name : names.find((n) => fold(n) === fold(name));
    at = join(at, hit ?? name);
  }
  return at;
}

/**
 * The destination of a rename as the disk sees it: another spelling of the source's own entry is
 * the source renamed in place (the name as given), anything else is looked up as usual.
 */
function renameTarget(real: typeof FsModule, disk: FoldingDisk, from: unknown, to: unknown): unknown {
  const source = lookup(real, disk, from);
  const target = lookup(real, disk, to);
  if (typeof to !== 'string' || target !== source) return target;
  return join(dirname(target as string), basename(resolve(to)));
}

function wrap<T extends object>(real: typeof FsModule, disk: FoldingDisk, module: T): T {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(module)) {
    // Classes (Stats, Dirent, ReadStream...) and constants pass as they are.
    if (typeof value !== 'function' || !/^[a-z]/.test(key)) {
      out[key] = value;
      continue;
    }
    const fn = value as (...args: unknown[]) => unknown;
    const wrapped = (...args: unknown[]) => {
      const mapped = [...args];
      if (TARGET_FIRST.has(key)) mapped[1] = lookup(real, disk, args[1]);
      else if (key.startsWith('rename')) {
        mapped[1] = renameTarget(real, disk, args[0], args[1]);
        mapped[0] = lookup(real, disk, args[0]);
      } else {
        mapped[0] = lookup(real, disk, args[0]);
        if (TWO_PATHS.has(key)) mapped[1] = lookup(real, disk, args[1]);
      }
      return fn.apply(module, mapped);
    };
    // realpath.native and the like.
    for (const [k, v] of Object.entries(fn)) (wrapped as unknown as Record<string, unknown>)[k] = typeof v === 'function' ? (...a: unknown[]) => (v as (...x: unknown[]) => unknown)(lookup(real, disk, a[0]), ...a.slice(1)) : v;
    out[key] = wrapped;
  }
  return out as T;
}

/** `node:fs` on the folding disk (its `promises` too). */
export function foldingFs(real: typeof FsModule, disk: FoldingDisk): typeof FsModule {
  const fs = wrap(real, disk, real);
  const promises = wrap(real, disk, real.promises);
  return { ...fs, promises, default: { ...fs, promises } } as typeof FsModule;
}

/** `node:fs/promises` on the folding disk. */
export function foldingFsPromises(realFs: typeof FsModule, real: typeof FsPromisesModule, disk: FoldingDisk): typeof FsPromisesModule {
  const fs = wrap(realFs, disk, real);
  return { ...fs, default: fs } as typeof FsPromisesModule;
}
