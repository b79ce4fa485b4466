/**
 * The settings the hooks need, without loading zod or dotenv on the hot path.
 *
 * Validating every setting (config.ts: zod schema + dotenv) costs more than the rest of a hook
 * together, and Claude Code runs our hooks on every session start and every turn. The settings
 * only change when the environment or the `.env` file changes, so the first hook run after a
 * change validates them fully and keeps the few fields the hooks use in a snapshot file named by
 * a fingerprint of its inputs: every MADEINOZ_* variable and the others config.ts reads, plus
 * the `.env` files' paths, sizes and mtimes (ours and the madeinoz/PAI one). Later runs read that file and nothing else.
 * The snapshot holds no secrets (no auth token, no headers): only paths, numbers and names.
 * A configuration error is never snapshotted, so it is reported on every run.
 */
import { readdirSync, readFileSync, statSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from './config.js';
import { checkStateDir, defaultStateDir, findEnvFile, findPaiEnvFile, stateDirProblem } from './env-file.js';
import { writeFileAtomicSync } from '../util/fs-atomic.js';
import { cacheKey } from '../util/ids.js';

type Env = Record<string, string | undefined>;

/** What the SessionStart and Stop hooks read from the settings. */
export type HookConfig = Pick<Config, 'stateDir' | 'logLevel' | 'contextBudget' | 'contextOnResume' | 'claudeConfigDir' | 'db' | 'groupId' | 'sourceGroups'>;

/** Variables outside MADEINOZ_* that config.ts and project.ts read. */
const OTHER_INPUTS = ['HOME', 'XDG_CONFIG_HOME', 'XDG_STATE_HOME', 'PAI_DIR', 'CLAUDE_CONFIG_DIR', 'CLAUDE_CODE_PROJECT_DIR_NAME'];
const VERSION = 1;
const KEEP_SNAPSHOTS = 16;

/** Fingerprint of everything the settings are computed from (throws ConfigError for a missing explicit .env). */
export function settingsFingerprint(env: Env = process.env): string {
  const entries = Object.entries(env)
    .filter(([k, v]) => v !== undefined && v !== '' && (k.startsWith('MADEINOZ_') || OTHER_INPUTS.includes(k)))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  // Both settings files count: ours and the madeinoz/PAI one read below it (config.ts).
  const files = [findEnvFile(env), findPaiEnvFile(env)].map((file) => [file ?? null, file === undefined ? '' : fileStamp(file)]);
  // A cache key, not a commitment: the inputs include tokens, which its 64 bits do not reveal.
  return cacheKey(JSON.stringify([VERSION, entries, files]));
}

function fileStamp(file: string): string {
  try {
    const st = statSync(file);
    return `${st.size}:${st.mtimeMs}:${st.ino}`;
  } catch {
    return 'unreadable';
  }
}

/** Where snapshots live: fixed by the environment alone (the state dir itself is a setting). */
export function snapshotDir(env: Env = process.env): string {
  return join(defaultStateDir(env), 'config-snapshots');
}

const LOG_LEVELS: readonly unknown[] = ['debug', 'info', 'warn', 'error', 'silent'];
const isString = (v: unknown) => typeof v === 'string';

/** One check per field of HookConfig: a snapshot from another version, torn or edited, is not used. */
const FIELD_CHECKS: { [K in keyof HookConfig]-?: (v: unknown) => boolean } = {
  stateDir: (v) => isString(v) && v !== '',
  logLevel: (v) => LOG_LEVELS.includes(v),
  contextBudget: (v) => Number.isInteger(v) && (v as number) >= 0,
  contextOnResume: (v) => typeof v === 'boolean',
  claudeConfigDir: (v) => isString(v) && v !== '',
  db: (v) => v === 'neo4j' || v === 'falkordb',
  groupId: (v) => isString(v) && v !== '',
  sourceGroups: (v) => typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).every(isString),
};

/** The fields snapshotted: every key of HookConfig (FIELD_CHECKS is typed to name them all). */
const FIELDS = Object.keys(FIELD_CHECKS) as Array<keyof HookConfig>;

function pick(config: HookConfig): HookConfig {
  const out: Record<string, unknown> = {};
  for (const f of FIELDS) out[f] = config[f];
  return out as HookConfig;
}

function save(dir: string, key: string, config: HookConfig): void {
  try {
    writeFileAtomicSync(join(dir, `${key}.json`), JSON.stringify(pick(config)), { mkdirMode: 0o700 });
    const names = readdirSync(dir).filter((n) => n.endsWith('.json'));
    if (names.length > KEEP_SNAPSHOTS) {
      const byAge = names.map((n) => ({ n, t: statSync(join(dir, n)).mtimeMs })).sort((a, b) => a.t - b.t);
      for (const { n } of byAge.slice(0, names.length - KEEP_SNAPSHOTS)) if (n !== `${key}.json`) unlinkSync(join(dir, n));
    }
  } catch {
    // A snapshot is only a shortcut: without it the next run validates again.
  }
}

function valid(value: unknown): value is HookConfig {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const v = value as Record<string, unknown>;
  return FIELDS.every((field) => FIELD_CHECKS[field](v[field]));
}

/**
 * The hook settings: from the snapshot for the current inputs when there is one, else fully
 * validated by config.ts (loaded only then) and snapshotted. Throws ConfigError like loadConfig.
 */
export async function loadHookConfig(env: Env = process.env): Promise<HookConfig> {
  const key = settingsFingerprint(env);
  const dir = snapshotDir(env);
  // OWN_STATE_DIR (env-file.ts): a snapshot names the state folder, so one is read and written
  // only where no one else can write; elsewhere every run validates in full (config.ts judges the
  // state folder in use then).
  const ownSnapshots = stateDirProblem(defaultStateDir(env)) === undefined;
  if (ownSnapshots) {
    try {
      const value: unknown = JSON.parse(readFileSync(join(dir, `${key}.json`), 'utf8'));
      if (valid(value)) {
        checkStateDir(value.stateDir);
        return value;
      }
    } catch (error) {
      if (error instanceof Error && error.name === 'ConfigError') throw error;
      // no snapshot yet
    }
  }
  const config = await loadFullConfig(env);
  if (ownSnapshots) save(dir, key, config);
  return pick(config);
}

/**
 * Part of this package could not be loaded: its files are being replaced (npm removes the old
 * version's files before it writes the new ones) or were left half-written. Not a configuration
 * error: nothing the person set is wrong, and the next run finds the complete new version.
 */
export class PackageIncompleteError extends Error {
  constructor(cause: unknown) {
    super(`a part of graphiti-memory-sync could not be loaded (${cause instanceof Error ? cause.message.split('\n')[0] : String(cause)}): its files are being replaced or are incomplete; the next run uses the installed version (if this stays, install graphiti-memory-sync again)`, { cause });
    this.name = 'PackageIncompleteError';
  }
}

/** A module that is missing, or cut short (a half-written file does not parse). */
function isLoadFailure(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'MODULE_NOT_FOUND' || code === 'ERR_MODULE_NOT_FOUND' || error instanceof SyntaxError;
}

/** config.ts, loaded only now (in the hooks' build, the sibling bundle hook-config.js, with dotenv beside it). */
async function loadFullConfig(env: Env): Promise<Config> {
  try {
    const { loadConfig } = await import('./config.js');
    return await loadConfig({ env });
  } catch (error) {
    throw isLoadFailure(error) ? new PackageIncompleteError(error) : error;
  }
}
