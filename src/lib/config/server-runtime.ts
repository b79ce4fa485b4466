/**
 * The local server's runtime file (`<state dir>/server/runtime.json`): what `server start` (its
 * supervisor) started, where, and whether it is up. It is the one link between the server and
 * the rest of the tool: the config loader reads it so that sync, the hooks and watch use the
 * started server with no further step, as long as no MADEINOZ_KNOWLEDGE_MCP_URL is set. It is
 * kept after a stop (state "stopped") so the next start reuses the same ports when free.
 * Only node and util/ imports: the config loader reads it on every run.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomicSync } from '../util/fs-atomic.js';
import { isProcessAlive } from '../util/process-alive.js';
import { isSameProcess, type ProcessIdentity } from '../util/process-identity.js';

/** Where the local FalkorDB listens and the 0600 file holding its password (never the password itself). */
export interface FalkorDbEndpoint {
  host: string;
  port: number;
  secretFile: string;
}

const RUNTIME_STATES = ['starting', 'ready', 'stopped', 'failed'] as const;

export interface ServerRuntime {
  state: (typeof RUNTIME_STATES)[number];
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
const isIdentity = (v: unknown): v is ProcessIdentity => isObj(v) && Number.isInteger(v.pid) && (v.pid as number) > 0 && typeof v.start === 'string';

/** The fields the locked server adds (falkordb, mcpTokenFile, identities), checked when present. */
function lockFieldsValid(v: Record<string, unknown>): boolean {
  const db = v.falkordb;
  if (db !== undefined && !(isObj(db) && typeof db.host === 'string' && Number.isInteger(db.port) && (db.port as number) > 0 && (db.port as number) < 65536 && typeof db.secretFile === 'string')) return false;
  if (v.mcpTokenFile !== undefined && typeof v.mcpTokenFile !== 'string') return false;
  const ids = v.identities;
  return ids === undefined || (isObj(ids) && Object.values(ids).every((i) => i === undefined || isIdentity(i)));
}

/** Which fields must be there, with which type; the optional ones are checked when present. */
const REQUIRED = { pid: 'number', generation: 'string', serverVersion: 'string', mcp: 'string', falkordbBin: 'string', dataDir: 'string', logDir: 'string', startedAt: 'string' } as const;
const OPTIONAL = { url: 'string', port: 'number', dbPort: 'number', serverPid: 'number', dbPid: 'number', serverLog: 'string', error: 'string' } as const;

/**
 * The runtime record if `value` is one: every field of its documented type, pids and ports whole
 * numbers, the URL an http(s) URL. Anything else (a torn, foreign or hand-edited file) is not a
 * record, so no command acts on a pid or URL it cannot trust. Unknown fields are kept (a newer
 * version may add some).
 */
export function parseRuntime(value: unknown): ServerRuntime | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const v = value as Record<string, unknown>;
  if (!(RUNTIME_STATES as readonly unknown[]).includes(v.state)) return undefined;
  for (const [key, type] of Object.entries(REQUIRED)) if (typeof v[key] !== type) return undefined;
  for (const [key, type] of Object.entries(OPTIONAL)) if (v[key] !== undefined && typeof v[key] !== type) return undefined;
  for (const key of ['pid', 'serverPid', 'dbPid', 'port', 'dbPort']) if (v[key] !== undefined && !(Number.isInteger(v[key]) && (v[key] as number) > 0)) return undefined;
  if (v.url !== undefined && !/^https?:\/\/[^\s/]+/.test(v.url as string)) return undefined;
  if (!lockFieldsValid(v)) return undefined;
  return v as unknown as ServerRuntime;
}

/** The runtime record, or undefined when there is none or it is not valid (parseRuntime). */
export function readRuntime(stateDir: string): ServerRuntime | undefined {
  let text: string;
  try {
    text = readFileSync(runtimePath(stateDir), 'utf8');
  } catch {
    return undefined;
  }
  try {
    return parseRuntime(JSON.parse(text));
  } catch {
    return undefined;
  }
}

/** Written atomically, 0600 in a 0700 folder: it names the user's ports, folders and secret files. */
export function writeRuntime(stateDir: string, runtime: ServerRuntime): void {
  // A unique temp name per writer (util/fs-atomic.ts): two writers never share one, and the file is 0600.
  writeFileAtomicSync(runtimePath(stateDir), `${JSON.stringify(runtime, null, 2)}\n`, { mkdirMode: 0o700 });
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

/**
 * The release our local server runs when `url` is its endpoint (ready, our supervisor alive):
 * the rules of that release are known without asking the server (graphiti/semantics.ts).
 */
export function liveServerGeneration(stateDir: string, url: string): string | undefined {
  const runtime = readRuntime(stateDir);
  if (runtime?.state !== 'ready' || runtime.url === undefined || !ourProcess(runtime, 'supervisor')) return undefined;
  try {
    const a = new URL(url);
    const b = new URL(runtime.url);
    const loopback = (h: string) => h === '127.0.0.1' || h === 'localhost' || h === '[::1]';
    return a.protocol === b.protocol && a.port === b.port && loopback(a.hostname) && loopback(b.hostname) ? runtime.generation : undefined;
  } catch {
    return undefined;
  }
}
