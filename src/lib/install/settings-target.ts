/**
 * Where a settings file really lives, and whether we may write it.
 *
 * Many users keep `~/.claude/settings.json` in a dotfiles repository: GNU stow, chezmoi (symlink
 * mode) and `ln -s` make it a symlink into that repository, Nix home-manager a symlink to a
 * read-only file in the Nix store. Replacing the link with a regular file would silently lose our
 * hooks on the next dotfiles sync, so every write goes THROUGH the link to its target (the atomic
 * temp + rename happens in the target's folder) and the link itself is never touched.
 *
 * A target that we cannot or must not write (the Nix store, a read-only file or file system, a
 * file that belongs to another user) is refused: the caller prints the entries for the user to add
 * in their own configuration instead of replacing a managed file with a local copy.
 */
import { accessSync, constants as fsConstants, lstatSync, readlinkSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

export interface SettingsTarget {
  /** The path Claude Code reads (what the user knows). */
  file: string;
  /** The regular file behind it: `file` itself, or the end of its symlink chain (it may not exist yet). */
  target: string;
  /** True when `file` is a symlink. */
  linked: boolean;
}

/** Follows `file`'s symlinks (relative ones against their own folder), also when the last target is missing. */
export function resolveSettingsTarget(file: string): SettingsTarget {
  let current = resolve(file);
  let linked = false;
  for (let hops = 0; hops < 40; hops++) {
    let isLink = false;
    try {
      isLink = lstatSync(current).isSymbolicLink();
    } catch {
      return { file, target: current, linked };
    }
    if (!isLink) return { file, target: current, linked };
    linked = true;
    current = resolve(dirname(current), readlinkSync(current));
  }
  // A loop: report the link itself; reading it fails with ELOOP and names the file.
  return { file, target: resolve(file), linked };
}

/** Paths under these prefixes are managed by Nix (home-manager) and read-only by design. */
export const NIX_STORE_PREFIXES = ['/nix/store/'];

export interface WriteCheckOptions {
  /** The uid we write as (default process.getuid()). */
  uid?: number | undefined;
  /** Nix store prefixes (tests). */
  nixStore?: readonly string[];
}

/**
 * Why `target` must not be written, or undefined when it may. Root can write almost anything, so
 * the mode bits and the owner are judged as a person would, not by access(2) alone.
 */
export function whyNotWritable(target: string, options: WriteCheckOptions = {}): string | undefined {
  const nix = options.nixStore ?? NIX_STORE_PREFIXES;
  if (nix.some((prefix) => target.startsWith(prefix))) return 'it is in the Nix store (managed by Nix or home-manager, read-only by design)';
  const uid = options.uid ?? (typeof process.getuid === 'function' ? process.getuid() : undefined);
  let stat;
  try {
    stat = statSync(target);
  } catch {
    stat = undefined;
  }
  if (stat !== undefined) {
    if (uid !== undefined && stat.uid !== uid) return `it belongs to another user (uid ${stat.uid})`;
    if ((stat.mode & 0o200) === 0) return `it is read-only (mode ${(stat.mode & 0o777).toString(8).padStart(4, '0')})`;
    const denied = accessError(target);
    if (denied !== undefined) return denied;
  }
  // The atomic write creates a temp file beside the target and renames it: the folder must be writable.
  const folder = nearestExisting(dirname(target));
  return accessError(folder, `its folder ${folder}`);
}

function nearestExisting(dir: string): string {
  let current = dir;
  for (;;) {
    try {
      statSync(current);
      return current;
    } catch {
      const parent = dirname(current);
      if (parent === current) return current;
      current = parent;
    }
  }
}

function accessError(path: string, what = 'it'): string | undefined {
  try {
    accessSync(path, fsConstants.W_OK);
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EROFS') return `${what} is on a read-only file system`;
    if (code === 'EACCES' || code === 'EPERM') return `${what} is not writable by you (${code})`;
    return `${what} cannot be written (${code ?? (error as Error).message})`;
  }
}
