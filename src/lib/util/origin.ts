/**
 * Origins: who sent an episode, named in its marker. Here: the rule for an origin's name, and
 * which origin is ours.
 *
 * Our origin follows the memory it owns: an id created once and kept beside that memory, in
 * `<CLAUDE_CONFIG_DIR>/graphiti-memory-sync/origin.json` (folder 0700, file 0600). So it is
 * - different for two homes, or two Claude config folders, on one machine (each has its own file);
 * - the same after a reinstall, an upgrade, a lost state folder, and a container rebuild that keeps
 *   `~/.claude` (new host name, no machine id: the file is still there).
 * The id is random (`m-` and 10 hex characters): nothing about the machine, user or host leaves it.
 *
 * Earlier versions derived the origin from the machine id and the user name (the host name
 * standing in without a machine id), so two homes of one user collided and a container rebuild
 * drifted. That derived id is recorded in the file when it is created (`previous`): markers with
 * it are still ours (`ourOrigins`), and the engine takes them over without sending anything again
 * (sync/origin-migration.ts). Without the Claude config folder (nothing to keep the id beside) or
 * when it cannot be written, the origin is derived from the machine id, the user name AND the
 * config folder's path, never from a host name alone.
 *
 * Because the file travels with `~/.claude`, two machines can share one origin: a synced folder
 * (one memory: right) or a copied one (two memories: each would replace and delete the other's
 * episodes). So the file also says where it was made (`madeOn`, a hash of the machine id: nothing
 * about the machine leaves it) and what each other machine's user decided about it (`machines`,
 * keyed by that hash: `keep`, the same memory; `split`, an origin of that machine's own). Only a
 * machine id tells machines apart: without one (many containers) the place is `unknown`, never
 * `elsewhere`, or every container rebuild would look like a copy (sync/copy-hold.ts decides
 * what an origin made elsewhere may touch).
 */
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, linkSync, mkdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { writeFileAtomicSync } from './fs-atomic.js';
import { hostname, userInfo } from 'node:os';
import { join, resolve } from 'node:path';

/** An origin's name: lower-case letters, digits and hyphens (also in markers, memory/episode.ts). */
export const ORIGIN_NAME = /^[a-z0-9][a-z0-9-]{0,39}$/;

/** The file that keeps our origin, inside the Claude config folder. */
export const ORIGIN_FILE = join('graphiti-memory-sync', 'origin.json');

/** What identifies this machine and user, for the derived (fallback and earlier) origins. Injectable for tests. */
export interface MachineFacts {
  /** systemd/dbus `machine-id` on Linux, IOPlatformUUID on macOS; undefined in many containers. */
  machineId: string | undefined;
  hostname: string;
  user: string;
}

export interface OriginIdentity {
  /** The origin new markers carry. */
  origin: string;
  /** Earlier origins of this same memory: their episodes are ours too (migrated without a re-send). */
  previous: string[];
  /** Where the origin is kept; undefined when it is derived (no Claude config folder, or not writable). */
  file: string | undefined;
}

const MACHINE_ID_FILES = ['/etc/machine-id', '/var/lib/dbus/machine-id'];

function readMachineId(): string | undefined {
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
      return /"IOPlatformUUID" = "([^"]+)"/.exec(out)?.[1];
    } catch {
      // none
    }
  }
  return undefined;
}

/** The login name; where the system has no entry for this user, the environment's USER (USERNAME on Windows). */
function userName(env: Readonly<Record<string, string | undefined>>): string {
  try {
    return userInfo().username;
  } catch {
    return env.USER ?? env.USERNAME ?? '';
  }
}

let facts: MachineFacts | undefined;

/**
 * This machine's facts (read once per process). `env` is the process's environment, passed in by
 * config/ (util/ reads no environment of its own); it is consulted only for the user's name when
 * the system has no entry for the user.
 */
export function machineFacts(env: Readonly<Record<string, string | undefined>> = {}): MachineFacts {
  facts ??= { machineId: readMachineId(), hostname: hostname(), user: userName(env) };
  return facts;
}

/** The origin of a user on a machine: `m-` and 10 hex characters, e.g. `m-3fa92c01bd`. */
export function originOf(machine: string, user: string): string {
  return `m-${createHash('sha256').update(`graphiti-memory-sync\0${machine}\0${user}`).digest('hex').slice(0, 10)}`;
}

/** The origin earlier versions derived (machine id, else `host:<hostname>`, and user): recognised, never created anew. */
export function earlierDerivedOrigin(m: MachineFacts): string {
  return originOf(m.machineId ?? `host:${m.hostname}`, m.user);
}

/** The origin used when none can be kept: per machine, user and Claude config folder (the host name only beside them). */
export function derivedOrigin(m: MachineFacts, claudeConfigDir: string): string {
  return originOf(`${m.machineId ?? `host:${m.hostname}`}\0${resolve(claudeConfigDir)}`, m.user);
}

/** A kept origin file that is not what we write: a clear error, never silently replaced (that would change who we are). */
export class OriginFileError extends Error {
  constructor(
    readonly file: string,
    detail: string,
  ) {
    super(`${file} is not a valid origin file (${detail}): restore it from a backup, or delete it to start a new origin (this memory's episodes in the graph would then be sent again), or set MADEINOZ_KNOWLEDGE_ORIGIN`);
    this.name = 'OriginFileError';
  }
}

/** What the user of one machine decided about an origin file made on another (`origin --keep`, `origin --split`). */
export type MachineChoice = { choice: 'keep'; at: string } | { choice: 'split'; origin: string; at: string };

interface OriginFile {
  origin: string;
  previous: string[];
  createdAt: string;
  /** The machine key of the machine it was made on (`machineKey`); absent in files made before it was recorded, or without a machine id. */
  madeOn?: string;
  /** Other machines' choices, by machine key. */
  machines?: Record<string, MachineChoice>;
}

/** Where an origin file was made, as far as this machine can tell (`originPlace`). */
export type OriginPlace = 'here' | 'elsewhere' | 'unknown';

/**
 * A machine's key: a hash of its machine id (MADEINOZ_KNOWLEDGE_MACHINE_ID where set), what the
 * origin file and the state folder record about where they were made. Undefined without an id.
 */
export function machineKey(machineId: string | undefined): string | undefined {
  if (machineId === undefined || machineId === '') return undefined;
  return `k-${createHash('sha256').update(`graphiti-memory-sync machine\0${machineId}`).digest('hex').slice(0, 16)}`;
}

function parseChoices(value: unknown): Record<string, MachineChoice> | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const out: Record<string, MachineChoice> = Object.create(null) as Record<string, MachineChoice>;
  for (const [key, raw] of Object.entries(value as Record<string, unknown>)) {
    const c = raw as { choice?: unknown; origin?: unknown; at?: unknown } | null;
    if (typeof c !== 'object' || c === null) continue;
    const at = typeof c.at === 'string' ? c.at : '';
    if (c.choice === 'keep') out[key] = { choice: 'keep', at };
    else if (c.choice === 'split' && typeof c.origin === 'string' && ORIGIN_NAME.test(c.origin)) out[key] = { choice: 'split', origin: c.origin, at };
  }
  return out;
}

function parseOriginFile(file: string, text: string): OriginFile {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new OriginFileError(file, 'not JSON');
  }
  const v = value as Partial<OriginFile> | null;
  if (typeof v !== 'object' || v === null || typeof v.origin !== 'string' || !ORIGIN_NAME.test(v.origin)) throw new OriginFileError(file, 'no valid "origin"');
  const previous = Array.isArray(v.previous) ? v.previous.filter((p): p is string => typeof p === 'string' && ORIGIN_NAME.test(p) && p !== v.origin) : [];
  const machines = parseChoices(v.machines);
  return { origin: v.origin, previous, createdAt: typeof v.createdAt === 'string' ? v.createdAt : '', ...(typeof v.madeOn === 'string' ? { madeOn: v.madeOn } : {}), ...(machines === undefined ? {} : { machines }) };
}

function readOriginFile(file: string): OriginFile | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new OriginFileError(file, (error as Error).message);
  }
  return parseOriginFile(file, text);
}

/**
 * Creates the origin file once: written to a private temporary name, then linked into place, so
 * two processes creating it at the same time agree on one (the loser reads the winner's).
 */
function createOriginFile(file: string, content: OriginFile): OriginFile {
  const dir = join(file, '..');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(content, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  try {
    linkSync(tmp, file);
    return content;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return readOriginFile(file) ?? content;
  } finally {
    unlinkSync(tmp);
  }
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Our origin for the memory under `claudeConfigDir`: the kept one, created on first use when the
 * folder exists. Throws OriginFileError for a kept file that cannot be read or understood.
 */
export function originIdentity(claudeConfigDir: string, m: MachineFacts = machineFacts(), now: () => Date = () => new Date(), key: string | undefined = machineKey(m.machineId)): OriginIdentity {
  const file = join(resolve(claudeConfigDir), ORIGIN_FILE);
  const earlier = [earlierDerivedOrigin(m), derivedOrigin(m, claudeConfigDir)];
  const kept = readOriginFile(file);
  if (kept !== undefined) {
    // `origin --split` on this machine: an origin of its own, and nothing earlier is ours (the file's `previous` is the other machine's).
    const choice = key === undefined ? undefined : kept.machines?.[key];
    if (choice?.choice === 'split') return { origin: choice.origin, previous: [], file };
    return { origin: kept.origin, previous: kept.previous, file };
  }
  const fallback = { origin: derivedOrigin(m, claudeConfigDir), previous: [earlierDerivedOrigin(m)], file: undefined };
  if (!isFolder(claudeConfigDir)) return fallback;
  try {
    const created = createOriginFile(file, { origin: `m-${randomBytes(5).toString('hex')}`, previous: earlier, createdAt: now().toISOString(), ...(key === undefined ? {} : { madeOn: key }) });
    return { origin: created.origin, previous: created.previous.filter((p) => p !== created.origin), file };
  } catch {
    // Read-only config folder: the derived origin, stable as long as the folder stays where it is.
    return fallback;
  }
}

/**
 * Where the kept origin file was made, seen from this machine (key: `machineKey`): `here` for a
 * file made here, or one this machine's user kept or split from (`origin --keep`/`--split`);
 * `elsewhere` for a file another machine made; `unknown` without a machine id here (a container:
 * its rebuilds must not look like copies), or without a file. A file from before `madeOn` was
 * recorded is placed by its `previous`, which holds the id this machine and user would have
 * derived had they made it (a renamed user looks like another machine: asked once, kept after).
 */
export function originPlace(claudeConfigDir: string, m: MachineFacts, key: string | undefined): OriginPlace {
  if (key === undefined) return 'unknown';
  const kept = readOriginFile(join(resolve(claudeConfigDir), ORIGIN_FILE));
  if (kept === undefined) return 'unknown';
  if (kept.machines?.[key] !== undefined) return 'here';
  if (kept.madeOn !== undefined) return kept.madeOn === key ? 'here' : 'elsewhere';
  if (m.machineId === undefined) return 'unknown';
  return kept.previous.includes(earlierDerivedOrigin(m)) ? 'here' : 'elsewhere';
}

/**
 * Records this machine's choice in the kept origin file (`origin --keep`, `origin --split`): the
 * other fields and other machines' choices stay as they are, so a synced file carries it to the
 * other machines harmlessly (each reads only its own). Returns the choice written.
 */
export function recordMachineChoice(claudeConfigDir: string, key: string, choice: 'keep' | 'split', now: () => Date = () => new Date()): MachineChoice {
  const file = join(resolve(claudeConfigDir), ORIGIN_FILE);
  const kept = readOriginFile(file);
  if (kept === undefined) throw new OriginFileError(file, 'there is none to keep or split from');
  const at = now().toISOString();
  const made: MachineChoice = choice === 'keep' ? { choice, at } : { choice, origin: `m-${randomBytes(5).toString('hex')}`, at };
  const machines = { ...(kept.machines ?? {}), [key]: made };
  writeFileAtomicSync(file, `${JSON.stringify({ ...kept, machines }, null, 2)}\n`, { mode: 0o600 });
  return made;
}

/** The origins that count as ours: the current one and the earlier ones of the same memory. */
export function ourOrigins(config: { origin: string; previousOrigins: readonly string[] }): ReadonlySet<string> {
  return new Set([config.origin, ...config.previousOrigins]);
}
