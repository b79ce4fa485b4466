/**
 * What `install` remembers so that `uninstall` can put a settings file back EXACTLY as it was
 * (the same bytes, or no file at all when there was none), and where backups go.
 *
 * Both live in the state dir, never next to the settings file: a project's `.claude/` is
 * usually committed, and `.bak-*` files there showed up in `git status` (issue 13).
 * - `<stateDir>/install/<hash of the path>.json`: the file's bytes before our first install
 *   (only taken while the file holds none of our hooks, so it is a true "before");
 * - `<stateDir>/backups/<name>-<hash>.bak-<time>`: a copy before every change.
 * Uninstall restores the record only when the file, with our entries removed, still means
 * the same as the record (nobody changed anything else since); otherwise it removes just our
 * entries and keeps the rest.
 */
import { chmodSync, copyFileSync, constants as fsConstants, existsSync, mkdirSync, readFileSync, rmdirSync, unlinkSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { writeFileAtomic } from '../util/fs-atomic.js';

export interface PriorState {
  /** The settings file this is about (absolute). */
  file: string;
  existed: boolean;
  /** Whether the file's folder existed (we created `.claude/` otherwise). */
  dirExisted: boolean;
  /** The exact text before install ('' when the file did not exist). */
  text: string;
}

function pathHash(file: string): string {
  return createHash('sha256').update(file).digest('hex').slice(0, 16);
}

function recordPath(stateDir: string, file: string): string {
  return join(stateDir, 'install', `${pathHash(file)}.json`);
}

export function readPrior(stateDir: string, file: string): PriorState | undefined {
  try {
    const value = JSON.parse(readFileSync(recordPath(stateDir, file), 'utf8')) as PriorState;
    return value.file === file && typeof value.text === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

export async function rememberPrior(stateDir: string, prior: PriorState): Promise<void> {
  await writeFileAtomic(recordPath(stateDir, prior.file), `${JSON.stringify(prior)}\n`, { mode: 0o600, mkdirMode: 0o700 });
}

export function forgetPrior(stateDir: string, file: string): void {
  try {
    unlinkSync(recordPath(stateDir, file));
  } catch {
    // nothing remembered
  }
}

/**
 * Puts the file back as the record says: its exact bytes, or gone (with the folder we created).
 * `target` is the file behind `prior.file` when that is a symlink: it is what gets written or
 * removed, so the link stays as the user made it.
 */
export async function restorePrior(prior: PriorState, target: string, mode: number | undefined): Promise<void> {
  if (prior.existed) {
    await writeFileAtomic(target, prior.text, { mode: mode ?? 0o644, mkdirMode: 0o755 });
    return;
  }
  unlinkSync(target);
  if (!prior.dirExisted) {
    try {
      rmdirSync(dirname(target)); // only when empty
    } catch {
      // something else lives there now
    }
  }
}

/** Copies `file` into `<stateDir>/backups/` before it changes; returns the copy's path. */
export function backupInto(stateDir: string, file: string, now: Date): string {
  const dir = join(stateDir, 'backups');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const ts = now.toISOString().replace(/[:.]/g, '-');
  const stem = join(dir, `${basename(file)}-${pathHash(file).slice(0, 8)}.bak-${ts}`);
  let name = stem;
  for (let i = 1; existsSync(name); i++) name = `${stem}-${i}`;
  copyFileSync(file, name, fsConstants.COPYFILE_EXCL);
  // A copy of ~/.claude.json may hold tokens (other servers' headers, an entry of an earlier version).
  chmodSync(name, 0o600);
  return name;
}
