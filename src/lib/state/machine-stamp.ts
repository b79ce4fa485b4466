/**
 * Which machine a state folder was made on: `<state dir>/machine.json`, `{ "machine": <key> }`
 * (util/origin.ts `machineKey`: a hash of the machine id, nothing about the machine itself).
 *
 * The state folder lives in the home (`~/.local/state/...`), so a backup or a migration copies
 * it; a copy names the old machine's episodes as its own. The stamp is what tells such a copy
 * (sync/copy-hold.ts). It is written by a run once the state it took up is on disk, so a kill in
 * between only makes the next run take it up again.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomicSync } from '../util/fs-atomic.js';

const FILE = 'machine.json';

/** The machine key the state folder records; undefined when it records none (made before stamps, or never run). */
export function readMachineStamp(stateDir: string): string | undefined {
  try {
    const value = JSON.parse(readFileSync(join(stateDir, FILE), 'utf8')) as { machine?: unknown } | null;
    return typeof value?.machine === 'string' && value.machine !== '' ? value.machine : undefined;
  } catch {
    return undefined; // none, or unreadable: no stamp (the copy check then goes by the origin file)
  }
}

/** Records that the state folder is this machine's from now on. */
export function writeMachineStamp(stateDir: string, key: string, now: Date = new Date()): void {
  writeFileAtomicSync(join(stateDir, FILE), `${JSON.stringify({ machine: key, at: now.toISOString() })}\n`, { mode: 0o600, mkdirMode: 0o700 });
}
