/**
 * The local server's runtime file (`<state dir>/server/runtime.json`): what `server start` (its
 * supervisor) started, where, and whether it is up. It is the one link between the server and
 * the rest of the tool: the config loader reads it so that sync, the hooks and watch use the
 * started server with no further step, as long as no MADEINOZ_KNOWLEDGE_MCP_URL is set. It is
 * kept after a stop (state "stopped") so the next start reuses the same ports when free.
 * No imports beyond node: the config loader reads it on every run.
 */
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isProcessAlive } from '../util/process-alive.js';
import { isSameProcess, type ProcessIdentity } from '../util/process-identity.js';

/** Where the local FalkorDB listens and the 0600 file holding its password (never the password itself). */
export interface FalkorDbEndpoint {
  host: string;
  port: number;
  secretFile: string;
}

export interface ServerRuntime {
  state: 'starting' | 'ready' | 'stopped' | 'failed';
  /** The supervisor (`server run`): the process to signal to stop everything. */
  pid: number;
  generation: string;
  serverVersion: string;
  mcp: string;
  falkordbBin: string;
  url?: string;
  port?: number;
  dbPort?: number;
  /** Children, so a stop can make sure none is left even if the supervisor was killed hard. */
  serverPid?: number;
  dbPid?: number;
  /** Pid and start time of each process, recorded when it started: a pid alone is never trusted. */
  identities?: { supervisor?: ProcessIdentity; server?: ProcessIdentity; db?: ProcessIdentity };
  /** FalkorDB, which requires the password in `secretFile` (server/falkordb.secret). */
  falkordb?: FalkorDbEndpoint;
  /** The 0600 file with the bearer token the MCP endpoint (our front) requires (server/mcp.token). */
  mcpTokenFile?: string;
  dataDir: string;
  logDir: string;
  serverLog?: string;
  startedAt: string;
  error?: string;
}

export function serverStateDir(stateDir: string): string {
  return join(stateDir, 'server');
}

export function runtimePath(stateDir: string): string {
  return join(serverStateDir(stateDir), 'runtime.json');
}

/** The 0600 file holding FalkorDB's password (the server lane writes it, others read it). */
export function falkordbSecretPath(stateDir: string): string {
  return join(serverStateDir(stateDir), 'falkordb.secret');
}

/** The 0600 file holding the bearer token of the local MCP endpoint. */
export function mcpTokenPath(stateDir: string): string {
  return join(serverStateDir(stateDir), 'mcp.token');
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isPort = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v > 0 && v < 65536;
const isIdentity = (v: unknown): v is ProcessIdentity => isObj(v) && typeof v.pid === 'number' && Number.isInteger(v.pid) && typeof v.start === 'string';

/** The fields the rest of the tool relies on, checked: a malformed file reads as no file. */
function validRuntime(v: unknown): v is ServerRuntime {
  if (!isObj(v)) return false;
  if (!['starting', 'ready', 'stopped', 'failed'].includes(v.state as string) || typeof v.pid !== 'number' || typeof v.generation !== 'string') return false;
  if (v.url !== undefined && typeof v.url !== 'string') return false;
  if (v.falkordb !== undefined && !(isObj(v.falkordb) && typeof v.falkordb.host === 'string' && isPort(v.falkordb.port) && typeof v.falkordb.secretFile === 'string')) return false;
  if (v.mcpTokenFile !== undefined && typeof v.mcpTokenFile !== 'string') return false;
  if (v.identities !== undefined && !(isObj(v.identities) && Object.values(v.identities).every((i) => i === undefined || isIdentity(i)))) return false;
  return true;
}

export function readRuntime(stateDir: string): ServerRuntime | undefined {
  try {
    const parsed: unknown = JSON.parse(readFileSync(runtimePath(stateDir), 'utf8'));
    return validRuntime(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** Written atomically, 0600 in a 0700 folder: it names the user's ports, folders and secret files. */
export function writeRuntime(stateDir: string, runtime: ServerRuntime): void {
  const file = runtimePath(stateDir);
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(`${file}.tmp`, `${JSON.stringify(runtime, null, 2)}\n`, { mode: 0o600 });
  chmodSync(`${file}.tmp`, 0o600);
  renameSync(`${file}.tmp`, file);
}

/** A secret from its 0600 file (the FalkorDB password, the MCP token), or undefined. */
export function readSecretFile(file: string | undefined): string | undefined {
  if (file === undefined) return undefined;
  try {
    const text = readFileSync(file, 'utf8').trim();
    return text === '' ? undefined : text;
  } catch {
    return undefined;
  }
}

/** Alive, zombies excluded (util/process-alive.ts owns the rule). */
export function processAlive(pid: number | undefined): boolean {
  return pid !== undefined && isProcessAlive(pid);
}

/** What each recorded process's command line contains (arguments joined by spaces). */
export const COMMAND_MARKS = { supervisor: 'server run', server: 'main.py', db: 'redis-server' } as const;
export type ServerProcessRole = keyof typeof COMMAND_MARKS;

/**
 * Whether the runtime's process in `role` is still the one we started: same pid, same start
 * time, and its command line still contains its mark (util/process-identity.ts). A pid alone,
 * as recorded before a reboot, is never enough.
 */
export function ourProcess(runtime: ServerRuntime | undefined, role: ServerProcessRole): boolean {
  return isSameProcess(runtime?.identities?.[role], COMMAND_MARKS[role]);
}

/** The local server that is up (ready, our supervisor alive): its MCP URL and the token it requires. */
export function liveServer(stateDir: string): { url: string; token?: string } | undefined {
  const runtime = readRuntime(stateDir);
  if (runtime?.state !== 'ready' || runtime.url === undefined || !ourProcess(runtime, 'supervisor')) return undefined;
  const token = readSecretFile(runtime.mcpTokenFile);
  return token === undefined ? { url: runtime.url } : { url: runtime.url, token };
}

/**
 * The local FalkorDB of a server that is up, with its password read from the 0600 secret file
 * (for direct reads of the graph); undefined when no server of ours runs or the file is missing.
 */
export function liveFalkorDb(stateDir: string): { host: string; port: number; password: string } | undefined {
  const runtime = readRuntime(stateDir);
  if (runtime?.state !== 'ready' || runtime.falkordb === undefined || !ourProcess(runtime, 'db')) return undefined;
  const password = readSecretFile(runtime.falkordb.secretFile);
  return password === undefined ? undefined : { host: runtime.falkordb.host, port: runtime.falkordb.port, password };
}

/** The MCP URL of a local server that is up (ready, supervisor alive), else undefined. */
export function liveServerUrl(stateDir: string): string | undefined {
  return liveServer(stateDir)?.url;
}

/**
 * The bearer token to send to `url` when it is the live local server's endpoint (our client,
 * `install --with-mcp`); undefined for any other server, so the token never leaves for one.
 * `live` is liveServer(stateDir) when the caller has it already.
 */
export function localServerToken(stateDir: string, url: string, live = liveServer(stateDir)): string | undefined {
  if (live?.token === undefined) return undefined;
  try {
    const a = new URL(url);
    const b = new URL(live.url);
    const loopback = (h: string) => h === '127.0.0.1' || h === 'localhost' || h === '[::1]';
    return a.protocol === b.protocol && a.port === b.port && loopback(a.hostname) && loopback(b.hostname) ? live.token : undefined;
  } catch {
    return undefined;
  }
}
