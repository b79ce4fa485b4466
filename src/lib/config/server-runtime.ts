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

export function writeRuntime(stateDir: string, runtime: ServerRuntime): void {
  // A unique temp name per writer (util/fs-atomic.ts): two writers never share one, and the file is 0600.
  writeFileAtomicSync(runtimePath(stateDir), `${JSON.stringify(runtime, null, 2)}\n`, { mkdirMode: 0o700 });
}

/** Alive, zombies excluded (util/process-alive.ts owns the rule). */
export function processAlive(pid: number | undefined): boolean {
  return pid !== undefined && isProcessAlive(pid);
}

/** What each recorded process's command line contains: after a reboot a recorded pid may be someone else's. */
export const COMMAND_MARKS = { supervisor: 'server\0run', server: 'main.py', db: 'redis-server' } as const;

/** Alive and (where /proc exists) still running `mark`; without /proc the pid is trusted. */
export function ourProcessAlive(pid: number | undefined, mark: string): boolean {
  if (!processAlive(pid)) return false;
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(mark);
  } catch {
    return true;
  }
}

/** The MCP URL of a local server that is up (ready, supervisor alive), else undefined. */
export function liveServerUrl(stateDir: string): string | undefined {
  const runtime = readRuntime(stateDir);
  if (runtime?.state !== 'ready' || runtime.url === undefined || !ourProcessAlive(runtime.pid, COMMAND_MARKS.supervisor)) return undefined;
  return runtime.url;
}
