/**
 * Origins: who sent an episode, named in its marker. Here: the rule for an origin's name, and
 * this machine's default origin, the same on every run, after a reinstall and after the state
 * folder is lost, and different for two users of one machine. Derived, never stored: from the OS's machine id (systemd/dbus `machine-id` on Linux,
 * the IOPlatformUUID on macOS) and the user name, hashed so neither leaves the machine. Without a
 * machine id (some containers), the host name stands in: stable as long as the host keeps its name.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { hostname, userInfo } from 'node:os';

/** An origin's name: lower-case letters, digits and hyphens (also in markers, memory/episode.ts). */
export const ORIGIN_NAME = /^[a-z0-9][a-z0-9-]{0,39}$/;

const MACHINE_ID_FILES = ['/etc/machine-id', '/var/lib/dbus/machine-id'];

function machineId(): string {
  for (const file of MACHINE_ID_FILES) {
    try {
      const id = readFileSync(file, 'utf8').trim();
      if (id !== '') return id;
    } catch {
      // next candidate
    }
  }
  if (process.platform === 'darwin') {
    try {
      const out = execFileSync('/usr/sbin/ioreg', ['-rd1', '-c', 'IOPlatformExpertDevice'], { encoding: 'utf8', timeout: 2000, stdio: ['ignore', 'pipe', 'ignore'] });
      const uuid = /"IOPlatformUUID" = "([^"]+)"/.exec(out)?.[1];
      if (uuid !== undefined) return uuid;
    } catch {
      // fall back to the host name
    }
  }
  return `host:${hostname()}`;
}

function userName(): string {
  try {
    return userInfo().username;
  } catch {
    return process.env.USER ?? process.env.USERNAME ?? '';
  }
}

/** The origin of a user on a machine: `m-` and 10 hex characters, e.g. `m-3fa92c01bd`. */
export function originOf(machine: string, user: string): string {
  return `m-${createHash('sha256').update(`graphiti-memory-sync\0${machine}\0${user}`).digest('hex').slice(0, 10)}`;
}

let cached: string | undefined;

/** This machine's and user's origin (computed once per process). */
export function machineOrigin(): string {
  cached ??= originOf(machineId(), userName());
  return cached;
}
