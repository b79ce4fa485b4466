/**
 * The local Graphiti server's settings (`graphiti-memory-sync server`): the LLM endpoint it
 * extracts facts with, its ports, its data folder, its release, and the Python that builds it.
 *
 * Read from the environment, then our own `.env` file (`findEnvFile`); the madeinoz/PAI `.env` is
 * not read for these, because an OPENAI_API_KEY there belongs to the madeinoz system's own server.
 * GMS_PYTHON and GMS_GRAPHITI_CACHE come from the environment only (test runners and scripts set
 * them). Each name is listed in SETTINGS (config.ts, group `server`), from which the docs and
 * `.env.example` are generated; each value is checked here, and a bad one is a ConfigError that
 * names the variable and, when it came from a file, the file.
 */
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { readSettingsFile } from './dotenv-file.js';
import { ConfigError, expandHome, findEnvFile } from './env-file.js';

type Env = Record<string, string | undefined>;

/** Names read from the environment or our `.env` file. */
export const SERVER_SETTING_NAMES = [
  'OPENAI_API_KEY',
  'OPENAI_BASE_URL',
  'OPENAI_API_URL',
  'GMS_SERVER_MODEL',
  'GMS_SERVER_EMBEDDER_MODEL',
  'GMS_SERVER_PORT',
  'GMS_SERVER_DB_PORT',
  'GMS_SERVER_GENERATION',
  'GMS_SERVER_DATA_DIR',
] as const;
export type ServerSettingName = (typeof SERVER_SETTING_NAMES)[number];

/** The server settings as set (validated; unset ones absent); `GMS_SERVER_DATA_DIR` with `~/` expanded. */
export type ServerSettingValues = Partial<Record<ServerSettingName, string>>;

/**
 * The server settings from the environment (wins) and our `.env` file. Throws ConfigError for a
 * value that cannot work: a port outside 1-65535, an endpoint that is not an http(s) URL, a
 * relative data folder.
 */
const isServerSetting = (name: string): boolean => (SERVER_SETTING_NAMES as readonly string[]).includes(name);

/**
 * What dotenv reads otherwise than written in the server's settings in our `.env` file
 * (dotenv-file.ts DOTENV_SURPRISES: an OPENAI_API_KEY cut at its `#` is a key the LLM endpoint
 * refuses only once episodes are processed, far from here), each with its line and fix, never the
 * value. Only lines whose value is the one used: a name set in the environment wins over the file.
 */
export function serverSettingNotes(env: Env): string[] {
  const file = findEnvFile(env);
  if (file === undefined) return [];
  return readSettingsFile(file, isServerSetting)
    .notes.filter((note) => (env[note.name] ?? '') === '')
    .map((note) => note.text);
}

/**
 * Where each port setting's service listens when it is unset: the front on any free port, FalkorDB on a private
 * Unix socket (no TCP port at all). One owner for every message that says "or unset it for …" (here, and
 * server/user-settings.ts portTakenMessage).
 */
export const PORT_WHEN_UNSET: Readonly<Record<'GMS_SERVER_PORT' | 'GMS_SERVER_DB_PORT', string>> = {
  GMS_SERVER_PORT: 'any free port',
  GMS_SERVER_DB_PORT: 'its private Unix socket',
};

export function readServerSettings(env: Env): ServerSettingValues {
  const values: ServerSettingValues = {};
  const fromFile = new Set<ServerSettingName>();
  const file = findEnvFile(env);
  if (file !== undefined) {
    for (const [name, value] of Object.entries(readSettingsFile(file, isServerSetting).values)) {
      values[name as ServerSettingName] = value;
      fromFile.add(name as ServerSettingName);
    }
  }
  for (const name of SERVER_SETTING_NAMES) {
    const value = env[name];
    if (value !== undefined && value !== '') {
      values[name] = value;
      fromFile.delete(name);
    }
  }
  const where = (name: ServerSettingName) => (fromFile.has(name) && file !== undefined ? ` (set in ${file})` : '');
  for (const name of ['GMS_SERVER_PORT', 'GMS_SERVER_DB_PORT'] as const) {
    const value = values[name];
    if (value === undefined) continue;
    const port = Number(value.trim());
    if (!Number.isInteger(port) || port < 1 || port > 65535) {
      throw new ConfigError(`${name}="${value}"${where(name)} is not a port: use a whole number from 1 to 65535, or unset it for ${PORT_WHEN_UNSET[name]}`, name);
    }
  }
  for (const name of ['OPENAI_BASE_URL', 'OPENAI_API_URL'] as const) {
    const value = values[name];
    if (value !== undefined && !/^https?:\/\/[^\s/]+/.test(value)) {
      throw new ConfigError(`${name}="${value}"${where(name)} is not an http(s) URL: use the endpoint's OpenAI-compatible base, e.g. http://localhost:11434/v1`, name);
    }
  }
  const dataDir = values.GMS_SERVER_DATA_DIR;
  if (dataDir !== undefined) {
    const expanded = expandHome(dataDir.trim(), env);
    if (!isAbsolute(expanded)) throw new ConfigError(`GMS_SERVER_DATA_DIR="${dataDir}"${where('GMS_SERVER_DATA_DIR')} is not an absolute path: use an absolute path (or one starting with ~/)`, 'GMS_SERVER_DATA_DIR');
    values.GMS_SERVER_DATA_DIR = expanded;
  }
  return values;
}

/** The Python that builds the server's environment: GMS_PYTHON, else `python3` on PATH. */
export function serverPython(env: Env): string {
  const python = env.GMS_PYTHON?.trim();
  return python !== undefined && python !== '' ? python : 'python3';
}

/** Where the built server environments are cached: GMS_GRAPHITI_CACHE, else `$XDG_CACHE_HOME/graphiti-memory-sync` (`~/.cache/…`). */
export function serverCacheRoot(env: Env): string {
  const explicit = env.GMS_GRAPHITI_CACHE?.trim();
  if (explicit !== undefined && explicit !== '') return explicit;
  const base = env.XDG_CACHE_HOME !== undefined && env.XDG_CACHE_HOME !== '' ? env.XDG_CACHE_HOME : join(env.HOME !== undefined && env.HOME !== '' ? env.HOME : homedir(), '.cache');
  return join(base, 'graphiti-memory-sync');
}
