/**
 * What `graphiti-memory-sync server` runs with, from the user's environment and .env file: the
 * LLM (an OpenAI key, or any OpenAI-compatible endpoint with its model names; we never ship or
 * fake one), the ports (configured, else the last ones if free, else free ones), the generation,
 * and the folders (FalkorDB data under the XDG data dir, logs and runtime under the state dir).
 * Each problem is one line naming the setting and the fix.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { ConfigError } from '../config/env-file.js';
import { PORT_WHEN_UNSET, readServerSettings } from '../config/server-settings.js';
import { ServerSetupError } from './errors.js';
import type { LlmSettings } from './graphiti-process.js';
import { GENERATIONS, generation, type GraphitiGeneration } from './pins.js';
import { readRuntime, serverStateDir } from '../config/server-runtime.js';

type Env = Record<string, string | undefined>;

/** A setting the user must change (exit 2), as opposed to a machine or install problem (exit 1). */
export class ServerSettingError extends ServerSetupError {
  override name = 'ServerSettingError';
}

export interface ServerSettings {
  generation: GraphitiGeneration;
  llm: LlmSettings;
  /** Configured ports; undefined = pick (the last used one if free, else any free one). */
  port?: number;
  dbPort?: number;
  dataDir: string;
  stateDir: string;
  logDir: string;
  groupId: string;
}

/**
 * The server settings as set, from the environment or our .env file (the environment wins):
 * config/server-settings.ts reads and checks them; a bad value is a setting to change (exit 2).
 */
export function serverEnvSettings(env: Env): Env {
  try {
    return readServerSettings(env);
  } catch (error) {
    if (error instanceof ConfigError) throw new ServerSettingError(error.message);
    throw error;
  }
}

export function llmSettings(values: Env): LlmSettings {
  const baseUrl = values.OPENAI_BASE_URL ?? values.OPENAI_API_URL;
  const apiKey = values.OPENAI_API_KEY;
  if (apiKey === undefined && baseUrl === undefined) {
    throw new ServerSettingError('No LLM for the Graphiti server: set OPENAI_API_KEY, or OPENAI_BASE_URL to an OpenAI-compatible endpoint (Ollama: http://localhost:11434/v1) with GMS_SERVER_MODEL, in your environment or ~/.config/graphiti-memory-sync/.env');
  }
  if (baseUrl !== undefined && !/^https?:\/\/[^\s/]+/.test(baseUrl)) {
    throw new ServerSettingError(`OPENAI_BASE_URL="${baseUrl}" is not an http(s) URL: use the endpoint's OpenAI-compatible base, e.g. http://localhost:11434/v1`);
  }
  if (baseUrl !== undefined && values.GMS_SERVER_MODEL === undefined && !/^https:\/\/api\.openai\.com(\/|$)/.test(baseUrl)) {
    // Without a model name the server asks the endpoint for OpenAI's default models, which Ollama
    // or LM Studio reject only once episodes are processed: every episode would be dropped silently.
    throw new ServerSettingError(
      `OPENAI_BASE_URL="${baseUrl}" needs the endpoint's model names: set GMS_SERVER_MODEL (its chat model, e.g. llama3.1:8b) and GMS_SERVER_EMBEDDER_MODEL (its embedding model, e.g. nomic-embed-text), in your environment or ~/.config/graphiti-memory-sync/.env`,
    );
  }
  return {
    baseUrl: (baseUrl ?? 'https://api.openai.com/v1').replace(/\/+$/, ''),
    // Local endpoints (Ollama, LM Studio) take any key; the openai SDK insists on one.
    apiKey: apiKey ?? 'not-needed',
    ...(values.GMS_SERVER_MODEL === undefined ? {} : { model: values.GMS_SERVER_MODEL }),
    ...(values.GMS_SERVER_EMBEDDER_MODEL === undefined ? {} : { embedderModel: values.GMS_SERVER_EMBEDDER_MODEL }),
  };
}

/** A port setting, already checked by config/server-settings.ts. */
function portSetting(value: string | undefined): number | undefined {
  return value === undefined ? undefined : Number(value);
}

/** The generation to run: GMS_SERVER_GENERATION, else the one installed last (see upgrade), else the newest. */
export function chooseGeneration(values: Env, stateDir: string): GraphitiGeneration {
  const wanted = values.GMS_SERVER_GENERATION ?? readRuntime(stateDir)?.generation;
  if (wanted === undefined) return newestGeneration();
  try {
    return generation(wanted);
  } catch {
    if (values.GMS_SERVER_GENERATION !== undefined) throw new ServerSettingError(`GMS_SERVER_GENERATION="${wanted}" is not one we pin: use one of ${GENERATIONS.map((g) => g.id).join(', ')}`);
    return newestGeneration();
  }
}

export function newestGeneration(): GraphitiGeneration {
  return GENERATIONS[GENERATIONS.length - 1] as GraphitiGeneration;
}

export function dataDirOf(env: Env, values: Env): string {
  if (values.GMS_SERVER_DATA_DIR !== undefined) return values.GMS_SERVER_DATA_DIR;
  const home = env.HOME && env.HOME !== '' ? env.HOME : homedir();
  const base = env.XDG_DATA_HOME && env.XDG_DATA_HOME !== '' ? env.XDG_DATA_HOME : join(home, '.local', 'share');
  return join(base, 'graphiti-memory-sync', 'falkordb');
}

/** Everything `server start` needs except the LLM (status, stop and logs work without one). */
export function serverSettings(env: Env, config: { stateDir: string; groupId: string }, options: { needLlm: boolean }): ServerSettings {
  const values = serverEnvSettings(env);
  const port = portSetting(values.GMS_SERVER_PORT);
  const dbPort = portSetting(values.GMS_SERVER_DB_PORT);
  return {
    generation: chooseGeneration(values, config.stateDir),
    llm: options.needLlm ? llmSettings(values) : { baseUrl: '', apiKey: '' },
    ...(port === undefined ? {} : { port }),
    ...(dbPort === undefined ? {} : { dbPort }),
    dataDir: dataDirOf(env, values),
    stateDir: config.stateDir,
    logDir: join(serverStateDir(config.stateDir), 'logs'),
    groupId: config.groupId,
  };
}

export function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A port setting and what listens there, as the messages name them. */
export interface PortSetting {
  name: 'GMS_SERVER_PORT' | 'GMS_SERVER_DB_PORT';
  what: string;
  /** Where it listens when the setting is unset. */
  unset: string;
}
export const FRONT_PORT: PortSetting = { name: 'GMS_SERVER_PORT', what: 'Graphiti MCP server', unset: PORT_WHEN_UNSET.GMS_SERVER_PORT };
export const DB_PORT: PortSetting = { name: 'GMS_SERVER_DB_PORT', what: 'FalkorDB', unset: PORT_WHEN_UNSET.GMS_SERVER_DB_PORT };

/**
 * The one line for a port the user set (`name`) that another program holds: the port, the setting
 * and what to do. `since`: it was free at the start's check and taken before the front listened
 * (the front: mcp-front.ts PORT_TAKEN_SINCE, a set port is never swapped for another, unlike the last
 * one used; FalkorDB: falkordb.ts REDIS_PORT_TAKEN).
 */
export function portTakenMessage(port: number, { name, what, unset }: PortSetting, since = false): string {
  const taken = since ? 'was taken by another program after the start found it free' : 'is taken by another program';
  return `Port ${port} on 127.0.0.1 (${what}) ${taken}: stop it, or set ${name} to a free port (or unset it for ${unset})`;
}

/** Configured ports must be free (one line naming the setting otherwise); unconfigured ones reuse the last if free. */
export async function choosePorts(settings: ServerSettings): Promise<{ port?: number; dbPort?: number }> {
  const last = readRuntime(settings.stateDir);
  const pick = async (configured: number | undefined, previous: number | undefined, setting: PortSetting): Promise<number | undefined> => {
    if (configured !== undefined) {
      if (!(await portFree(configured))) throw new ServerSetupError(portTakenMessage(configured, setting));
      return configured;
    }
    return previous !== undefined && (await portFree(previous)) ? previous : undefined;
  };
  const port = await pick(settings.port, last?.port, FRONT_PORT);
  // FalkorDB listens on its private Unix socket unless GMS_SERVER_DB_PORT asks for a TCP port.
  const dbPort = settings.dbPort === undefined ? undefined : await pick(settings.dbPort, undefined, DB_PORT);
  return { ...(port === undefined ? {} : { port }), ...(dbPort === undefined ? {} : { dbPort }) };
}
