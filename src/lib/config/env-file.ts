/**
 * The part of the settings rules that the hooks' hot path needs without zod: which `.env` file
 * is read, and the error type every settings problem uses. config.ts (the one owner of the
 * settings themselves) re-exports all of it; only hook code imports this module directly, so
 * the bundled hooks do not load zod when a config snapshot can be used (config-snapshot.ts).
 */
import { existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { packageRoot } from '../util/package-root.js';
import { unsafeAncestor } from '../util/safe-ancestors.js';

type Env = Record<string, string | undefined>;

export class ConfigError extends Error {
  constructor(
    message: string,
    readonly variable?: string,
  ) {
    super(message);
    this.name = 'ConfigError';
  }
}

/**
 * The setting a ConfigError names, if the error is one. By name rather than `instanceof`: the
 * bundled hooks load config.ts from a bundle of its own (scripts/build/bundle-hooks.mjs), whose
 * ConfigError is a different class object.
 */
export function configErrorVariable(error: unknown): string | undefined {
  if (!(error instanceof Error) || error.name !== 'ConfigError') return undefined;
  const variable = (error as { variable?: unknown }).variable;
  return typeof variable === 'string' ? variable : undefined;
}

export function home(env: Env): string {
  return env.HOME && env.HOME !== '' ? env.HOME : homedir();
}

export function expandHome(p: string, env: Env): string {
  if (p === '~') return home(env);
  if (p.startsWith('~/')) return join(home(env), p.slice(2));
  return p;
}

/**
 * The state folder when MADEINOZ_KNOWLEDGE_STATE_DIR is unset: `$XDG_STATE_HOME/graphiti-memory-sync`,
 * else `~/.local/state/graphiti-memory-sync`. The one owner of this rule: config.ts (the setting),
 * snapshot.ts (where snapshots live), the hooks' fallback and install all ask here.
 */
export function defaultStateDir(env: Env): string {
  const stateHome = env.XDG_STATE_HOME && env.XDG_STATE_HOME !== '' ? env.XDG_STATE_HOME : join(home(env), '.local', 'state');
  return join(stateHome, 'graphiti-memory-sync');
}

/**
 * OWN_STATE_DIR: the state folder holds what the hooks put into a session (the context cache),
 * where notes are sent (the local server's runtime record), what was sent (state.json) and the
 * hooks' settings snapshots. A folder another local user owns, or may write to, would let them
 * plant any of it: made first by them in a shared folder (XDG_STATE_HOME or
 * MADEINOZ_KNOWLEDGE_STATE_DIR under /tmp), or opened up since. We make it 0700; one found already
 * there is used only when it is the user's own and no one else can write to it. Followed through
 * a link (a link the user made to a folder of their own is fine).
 *
 * And the folders above it (util/safe-ancestors.ts SAFE_ANCESTORS, the one judge of those): whoever
 * may rename entries in one of them can swap the state folder for one of theirs at any moment,
 * between this check and the reads that follow it (a context cache injected, a runtime record
 * followed). Judged on every run, hooks included: about 0.4 ms on a hook's first call for
 * ~/.local/state's folders and 20 µs warm (measured on this build; a hook takes ~50 ms, most of it
 * Node's own start); a group-writable folder above adds one read of /etc/passwd and /etc/group.
 * Why `dir` is refused, or undefined: usable, or not there yet (its folders above still judged).
 * Windows has no such modes: not judged there.
 */
export function stateDirProblem(dir: string): StateDirProblem | undefined {
  if (process.platform === 'win32') return undefined;
  let st;
  try {
    st = statSync(dir);
  } catch {
    return ancestorProblem(dir);
  }
  if (!st.isDirectory()) return undefined; // not a folder: writing there fails on its own, said where it fails
  const uid = process.getuid?.();
  if (uid !== undefined && st.uid !== uid) return { problem: `${dir} belongs to another user (uid ${st.uid})`, above: false };
  if ((st.mode & 0o022) !== 0) return { problem: `${dir} can be written by others (mode ${(st.mode & 0o777).toString(8)})`, above: false };
  return ancestorProblem(dir);
}

/** What is wrong with the state folder: itself, or (`above`) a folder above it. */
export interface StateDirProblem {
  problem: string;
  above: boolean;
}

function ancestorProblem(dir: string): StateDirProblem | undefined {
  const problem = unsafeAncestor(dir);
  return problem === undefined ? undefined : { problem, above: true };
}

/** OWN_STATE_DIR as a settings error, naming the fix. */
export function checkStateDir(dir: string): void {
  const found = stateDirProblem(dir);
  if (found === undefined) return;
  const fix = found.above
    ? `another user could put their own folder in the place of ${dir}. Make that folder writable by you alone (or root), or set MADEINOZ_KNOWLEDGE_STATE_DIR to a folder of your own under folders only you (or root) can write to`
    : 'graphiti-memory-sync keeps its state only in a folder of yours that no one else can write to. Remove that folder (or, if it is yours, chmod 700 it after checking what is in it), or set MADEINOZ_KNOWLEDGE_STATE_DIR to a folder of your own';
  throw new ConfigError(`${found.problem}: ${fix}`, 'MADEINOZ_KNOWLEDGE_STATE_DIR');
}

/**
 * MADEINOZ_KNOWLEDGE_STATE_DIR from the environment alone, `~/` expanded, when it is an absolute
 * path: where the hooks log when the full settings cannot be loaded (config.ts validates it otherwise).
 */
export function stateDirFromEnvironment(env: Env): string | undefined {
  const explicit = env.MADEINOZ_KNOWLEDGE_STATE_DIR?.trim();
  if (explicit === undefined || explicit === '') return undefined;
  const path = expandHome(explicit, env);
  return isAbsolute(path) ? path : undefined;
}

/**
 * Where a .env file is looked for, first match wins:
 *   1. MADEINOZ_KNOWLEDGE_ENV_FILE (an explicit file that must exist),
 *   2. <package root>/config/.env,
 *   3. $XDG_CONFIG_HOME/graphiti-memory-sync/.env (default ~/.config/...).
 */
export function findEnvFile(env: Env): string | undefined {
  const explicit = env.MADEINOZ_KNOWLEDGE_ENV_FILE;
  if (explicit !== undefined && explicit.trim() !== '') {
    const p = resolve(expandHome(explicit.trim(), env));
    if (!existsSync(p)) throw new ConfigError(`MADEINOZ_KNOWLEDGE_ENV_FILE="${explicit}" is not allowed: the file does not exist`, 'MADEINOZ_KNOWLEDGE_ENV_FILE');
    return p;
  }
  return envFileCandidates(env).find((candidate) => existsSync(candidate));
}

/** Where our `.env` may be, in the order `findEnvFile` looks (existing or not): for watch mode, which takes up a file created or edited while it runs. */
export function envFileCandidates(env: Env): string[] {
  const explicit = env.MADEINOZ_KNOWLEDGE_ENV_FILE;
  if (explicit !== undefined && explicit.trim() !== '') return [resolve(expandHome(explicit.trim(), env))];
  const xdg = env.XDG_CONFIG_HOME && env.XDG_CONFIG_HOME !== '' ? env.XDG_CONFIG_HOME : join(home(env), '.config');
  return [join(packageRoot(), 'config', '.env'), join(xdg, 'graphiti-memory-sync', '.env')];
}

/**
 * The madeinoz Knowledge system's settings file, read after ours (lower precedence), first match wins:
 *   1. $PAI_DIR/.env (when PAI_DIR is set),
 *   2. $CLAUDE_CONFIG_DIR/.env (default ~/.claude/.env).
 */
export function findPaiEnvFile(env: Env): string | undefined {
  return paiEnvFileCandidates(env).find((candidate) => existsSync(candidate));
}

/** Where the madeinoz `.env` may be, in the order `findPaiEnvFile` looks (existing or not). */
export function paiEnvFileCandidates(env: Env): string[] {
  const candidates: string[] = [];
  const pai = paiDirFromEnvironment(env);
  if (pai !== undefined) candidates.push(join(pai, '.env'));
  candidates.push(join(claudeConfigDirFromEnvironment(env), '.env'));
  return candidates;
}

/** CLAUDE_CONFIG_DIR as set (resolved, `~/` expanded), else `~/.claude`: Claude Code's own rule, for code that runs before or without the full settings. */
export function claudeConfigDirFromEnvironment(env: Env): string {
  const claude = env.CLAUDE_CONFIG_DIR?.trim();
  return claude !== undefined && claude !== '' ? resolve(expandHome(claude, env)) : join(home(env), '.claude');
}

/** Claude Code's `.claude.json` (user MCP servers): inside CLAUDE_CONFIG_DIR when that is set, else in the home folder. */
export function claudeJsonPathFromEnvironment(env: Env): string {
  const claude = env.CLAUDE_CONFIG_DIR?.trim();
  return claude !== undefined && claude !== '' ? join(claudeConfigDirFromEnvironment(env), '.claude.json') : join(home(env), '.claude.json');
}

/** PAI_DIR as set (resolved, `~/` expanded), else undefined. */
export function paiDirFromEnvironment(env: Env): string | undefined {
  const pai = env.PAI_DIR?.trim();
  return pai !== undefined && pai !== '' ? resolve(expandHome(pai, env)) : undefined;
}
