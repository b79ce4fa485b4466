/**
 * The locked local server's sandbox, shared by its fast tests (test/server/locked-server.test.ts)
 * and its real-server tests (test/real-graphiti/locked-server.test.ts): a root open all the way
 * down to our folders, so the only barrier a second local user meets is ours, and the check that
 * every folder is 0700 and every file 0600.
 */
import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const modeOf = (p: string): number => statSync(p).mode & 0o777;

/** Every folder and file under `dir` with a mode other than 0700 (folders) / 0600 (files). */
export function tooOpen(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (modeOf(p) !== 0o700) out.push(`${p} ${modeOf(p).toString(8)}`);
      out.push(...tooOpen(p));
    } else if (entry.isFile() && modeOf(p) !== 0o600) out.push(`${p} ${modeOf(p).toString(8)}`);
  }
  return out;
}

export interface LockedSandbox {
  root: string;
  settings: { stateDir: string; dataDir: string; logDir: string };
  /** The umask the tests found: the server's code sets its own, and the tests give this one back. */
  savedUmask: number;
  /** Gives the umask back and removes the root. */
  close(): void;
}

/** A fresh root (0755: open all the way down to our folders) and the server's folders inside it. */
export function openLockedSandbox(): LockedSandbox {
  // Read by setting and restoring: process.umask() with no argument is deprecated.
  const savedUmask = process.umask(0o077);
  process.umask(savedUmask);
  const root = mkdtempSync(join(tmpdir(), 'gms-locked-'));
  chmodSync(root, 0o755);
  return {
    root,
    settings: { stateDir: join(root, 'state'), dataDir: join(root, 'share', 'graphiti-memory-sync', 'falkordb'), logDir: join(root, 'state', 'server', 'logs') },
    savedUmask,
    close: () => {
      process.umask(savedUmask);
      rmSync(root, { recursive: true, force: true });
    },
  };
}
