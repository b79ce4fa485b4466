/**
 * The local server's runtime file (`<state dir>/server/runtime.json`): what `server start` (its
 * supervisor) started, where, and whether it is up. It is the one link between the server and
 * the rest of the tool: the config loader reads it so that sync, the hooks and watch use the
 * started server with no further step, as long as no MADEINOZ_KNOWLEDGE_MCP_URL is set. It is
 * kept after a stop (state "stopped") so the next start reuses the same ports when free.
 * Only node and util/ imports: the config loader reads it on every run.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { closeSync, constants as fsConstants, fstatSync, openSync, readFileSync } from 'node:fs';
import { Agent, request, type ClientRequestArgs } from 'node:http';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import { writeFileAtomicSync } from '../util/fs-atomic.js';
import { closedByEitherSide, IDLE_REUSE_MS } from '../util/keep-alive.js';
import { isProcessAlive } from '../util/process-alive.js';
import { isSameProcess, type ProcessIdentity } from '../util/process-identity.js';

/**
 * Where the local FalkorDB listens (its Unix socket in the 0700 run folder, or host and port when
 * GMS_SERVER_DB_PORT asks for TCP) and the 0600 file holding its password (never the password itself).
 */
export interface FalkorDbEndpoint {
  host?: string;
  port?: number;
  socket?: string;
  secretFile: string;
}

/**
 * `stopping`: the supervisor is stopping; its front still answers for a moment (STOP_NOTICE_MS)
 * but no client of ours sends the token any more, so whoever takes the port after it closes gets
 * none.
 */
const RUNTIME_STATES = ['starting', 'ready', 'stopping', 'stopped', 'failed'] as const;

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
  /** When the server became ready; kept in a `failed` record to tell a server that ended on its own from a start that failed. */
  readyAt?: string;
  /**
   * The supervisor runs in the foreground (`server run` as a user service or in a terminal), not
   * detached by `server start`: its service manager restarts it, and a restart or upgrade done
   * by stopping it and starting a detached one would leave the service behind (server-command.ts).
   */
  foreground?: boolean;
  /**
   * The environment the server runs on (server/environment.ts `environmentKey`: its pins and hashed
   * requirements): a later install that pins other packages for the same release is told apart.
   */
  environment?: string;
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
  const tcp = (d: Record<string, unknown>) => typeof d.host === 'string' && Number.isInteger(d.port) && (d.port as number) > 0 && (d.port as number) < 65536;
  if (db !== undefined && !(isObj(db) && (tcp(db) || typeof db.socket === 'string') && typeof db.secretFile === 'string')) return false;
  if (v.mcpTokenFile !== undefined && typeof v.mcpTokenFile !== 'string') return false;
  const ids = v.identities;
  return ids === undefined || (isObj(ids) && Object.values(ids).every((i) => i === undefined || isIdentity(i)));
}

/** Which fields must be there, with which type; the optional ones are checked when present. */
const REQUIRED = { pid: 'number', generation: 'string', serverVersion: 'string', mcp: 'string', falkordbBin: 'string', dataDir: 'string', logDir: 'string', startedAt: 'string' } as const;
const OPTIONAL = { url: 'string', port: 'number', dbPort: 'number', serverPid: 'number', dbPid: 'number', serverLog: 'string', readyAt: 'string', error: 'string', foreground: 'boolean', environment: 'string' } as const;

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

/**
 * A secret from its 0600 file (the FalkorDB password, the MCP token), or undefined. Opened with
 * O_NOFOLLOW, and only a regular file of ours that no one else can read counts: a symbolic link
 * or a wider file in its place is not our secret.
 */
export function readSecretFile(file: string | undefined): string | undefined {
  if (file === undefined) return undefined;
  let fd: number | undefined;
  try {
    fd = openSync(file, fsConstants.O_RDONLY | (fsConstants.O_NOFOLLOW ?? 0));
    const st = fstatSync(fd);
    const uid = process.getuid?.();
    if (!st.isFile() || (st.mode & 0o077) !== 0 || (uid !== undefined && st.uid !== uid)) return undefined;
    const text = readFileSync(fd, 'utf8').trim();
    return text === '' ? undefined : text;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
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
export function liveFalkorDb(stateDir: string): { host: string; port: number; password: string } | { socket: string; password: string } | undefined {
  const runtime = readRuntime(stateDir);
  const db = runtime?.falkordb;
  if (runtime?.state !== 'ready' || db === undefined || !ourProcess(runtime, 'db')) return undefined;
  const password = readSecretFile(db.secretFile);
  if (password === undefined) return undefined;
  if (db.socket !== undefined) return { socket: db.socket, password };
  return db.host === undefined || db.port === undefined ? undefined : { host: db.host, port: db.port, password };
}

/** The MCP URL the local server was last recorded at, running or not (config.ts LOCAL_SERVER_KEPT), else undefined. */
export function recordedServerUrl(stateDir: string): string | undefined {
  return readRuntime(stateDir)?.url;
}

/** The MCP URL of a local server that is up (ready, supervisor alive), else undefined. */
export function liveServerUrl(stateDir: string): string | undefined {
  return liveServer(stateDir)?.url;
}

/**
 * LOCAL_FRONT_URL: whether `url` is the live local server's front exactly as it listens: http,
 * 127.0.0.1, its port. `localhost` and `[::1]` are not: they may resolve to ::1, where the front
 * does not listen and anyone may (docs/local-server.md); nor is another 127.x.y.z (the front binds
 * 127.0.0.1 only). Stricter than util/loopback.ts LOOPBACK_HOST ("this machine"): the one rule for
 * what goes to, or is believed of, our server only: its token, its release and start, its FalkorDB.
 */
export function isLocalFrontUrl(url: string | URL, live: { url: string } | undefined): boolean {
  if (live === undefined) return false;
  try {
    const a = new URL(url);
    const b = new URL(live.url);
    return a.protocol === 'http:' && b.protocol === 'http:' && a.hostname === '127.0.0.1' && b.hostname === '127.0.0.1' && a.port === b.port;
  } catch {
    return false;
  }
}

/** Where the front answers the proof challenge without the token (mcp-front.ts serves it). */
export const FRONT_PROOF_PATH = '/.well-known/graphiti-memory-sync/front-proof';

/**
 * The front's answer to `nonce`: an HMAC keyed with the token over the port the front itself
 * listens on. Only the token's holder can compute it, so a listener that is not our front cannot
 * answer; and a relay to our front on another port gets that port's answer, which does not match.
 */
export function frontProof(token: string, port: number, nonce: string): string {
  return createHmac('sha256', token).update(`graphiti-memory-sync front proof\n${port}\n${nonce}`).digest('hex');
}

/**
 * How long a proven front counts as proven without asking again. The supervisor, when stopping,
 * marks the runtime `stopping` and keeps its front open for STOP_NOTICE_MS (longer) before it
 * closes it, so a client that proved it just before still reaches our front.
 */
export const FRONT_PROOF_TTL_MS = 1000;
export const STOP_NOTICE_MS = 2 * FRONT_PROOF_TTL_MS + 500;

/** Asks the listener on 127.0.0.1:`port` to prove it holds `token` (without sending the token). */
export async function proveFront(port: number, token: string, timeoutMs = 2000): Promise<boolean> {
  return (await askProof(port, token, timeoutMs, false)).proven;
}

/**
 * The proof challenge on a connection of `agent`'s (false: one of its own). `closes`: the listener
 * said it closes the connection after its answer (a front from before PROOF_ON_THE_CONNECTION).
 */
function askProof(port: number, token: string, timeoutMs: number, agent: Agent | false): Promise<{ proven: boolean; closes: boolean }> {
  const nonce = randomBytes(32).toString('hex');
  const expected = Buffer.from(frontProof(token, port, nonce), 'hex');
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path: `${FRONT_PROOF_PATH}?nonce=${nonce}`, method: 'GET', agent, timeout: timeoutMs }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => {
        body += d;
        if (body.length > 4096) req.destroy();
      });
      res.on('end', () => {
        try {
          const proof = Buffer.from(String((JSON.parse(body) as { proof?: unknown }).proof ?? ''), 'hex');
          const proven = res.statusCode === 200 && proof.length === expected.length && timingSafeEqual(proof, expected);
          resolve({ proven, closes: /\bclose\b/i.test(String(res.headers.connection ?? '')) });
        } catch {
          resolve({ proven: false, closes: true });
        }
      });
      res.on('error', () => resolve({ proven: false, closes: true }));
    });
    req.once('timeout', () => req.destroy());
    req.once('error', () => resolve({ proven: false, closes: true }));
    req.once('close', () => resolve({ proven: false, closes: true }));
    req.end();
  });
}

/**
 * An agent with exactly one connection, the one given: a request it cannot put on that connection
 * (closed meanwhile: its listener ended) fails before anything is written, and no other connection
 * is ever opened. Kept alive between the proof and the request, and after it for the next request
 * (PROVEN_REUSE: `keep()`); `destroy()` ends it.
 */
class OneConnection extends Agent {
  #socket: Socket | undefined;
  /** When its connection was last freed by a reply (performance.now()), undefined while in use. */
  #freeSince: number | undefined;
  /** Ends it, kept and unused, once IDLE_REUSE_MS have passed since it was freed (keep()). */
  #idleEnd: NodeJS.Timeout | undefined;
  constructor(
    socket: Socket,
    /** The front's port and the token it proved it holds: what a later request must want to reuse it. */
    readonly port: number,
    readonly token: string,
  ) {
    // No `timeout` of our own, so Node sets none on a free connection (it reads the front's
    // `Keep-Alive: timeout=5` hint only to shorten an agent timeout, and there is none: measured on
    // Node 20): a free one stays open until the front closes it idle (5 s), unref'd, never keeping
    // the process alive. A kept one is judged by `reusable` when taken; one closed meanwhile stays
    // in `provenFree` until the next `takeProven` ends it.
    super({ keepAlive: true, maxSockets: 1, maxFreeSockets: 1 });
    this.#socket = socket;
  }

  override createConnection(_options: ClientRequestArgs, callback?: (error: Error | null, stream: Duplex) => void): Duplex | null | undefined {
    const socket = this.#socket;
    this.#socket = undefined;
    if (socket !== undefined && !socket.destroyed) return socket;
    // mcp/errors.ts LOCAL_UNPROVEN's code (not imported: this module stays on node and util/): the
    // request never left, so an add_memory held back here stays pending.
    const error = Object.assign(new Error('the connection to the local Graphiti server closed after it proved itself (it stopped, or was killed): nothing was sent on another'), { code: 'ELOCALUNPROVEN' });
    callback?.(error, undefined as unknown as Duplex);
    return undefined;
  }

  // Node calls this as a reply frees the connection, and keeps it only when it returns true.
  override keepSocketAlive(socket: Duplex): boolean {
    const keep = (super.keepSocketAlive(socket) as unknown) !== false;
    this.#freeSince = keep ? performance.now() : undefined;
    return keep;
  }

  /** PROVEN_REUSE: its connection is free, open both ways, and was freed under IDLE_REUSE_MS ago. */
  reusable(at = performance.now()): boolean {
    const free = (Object.values(this.freeSockets) as Duplex[][]).flat();
    return free.length === 1 && !closedByEitherSide(free[0] as Duplex) && this.#freeSince !== undefined && at - this.#freeSince < IDLE_REUSE_MS;
  }

  /** The exchange on it ended cleanly (mcp/http.ts): kept for the next request to this front (PROVEN_REUSE), or ended. */
  keep(): void {
    if (!this.reusable()) return this.destroy();
    provenFree.push(this);
    // Ended off the request path once no request may take it (PROVEN_REUSE): the request after a
    // pause then proves a new connection without first ending this one (bench/front-cost-bench.ts).
    // Only now, kept: between the proof and its request Node's own timer applies, as before.
    // Unref'd: a kept connection never holds a process open.
    const left = IDLE_REUSE_MS - (performance.now() - (this.#freeSince ?? 0));
    this.#idleEnd = setTimeout(() => dropProven(this), Math.max(0, left)).unref();
  }

  /** Taken by a request (takeProven): no longer ended idle. */
  taken(): this {
    clearTimeout(this.#idleEnd);
    this.#idleEnd = undefined;
    return this;
  }

  override destroy(): void {
    clearTimeout(this.#idleEnd);
    this.#idleEnd = undefined;
    super.destroy();
  }
}

/** A kept connection no request may take any more: out of the pool, ended. */
function dropProven(kept: OneConnection): void {
  const i = provenFree.indexOf(kept);
  if (i >= 0) provenFree.splice(i, 1);
  kept.destroy();
}

/**
 * PROVEN_REUSE: connections that proved themselves to our front (PROOF_ON_THE_CONNECTION), free
 * after a clean exchange, for the next request to the same front with the same token. A request
 * takes one only when the runtime check before it still passes (ready, our supervisor alive, the
 * token current: localServerConnection) and the connection is still open both ways and was freed
 * under IDLE_REUSE_MS ago (util/keep-alive.ts IDLE_REUSE: the front never closes it idle while a
 * request is on its way); else it proves a new one, as every request did before. The guarantee is
 * the same as a fresh proof's: an established connection cannot pass to another listener. A
 * supervisor killed hard closes it (the request on it fails; it is never sent anywhere else), and
 * whoever binds the port afterwards gets new connections only, which we open only to prove. One
 * kept unused past IDLE_REUSE_MS is ended by its own timer (keep()), off any request's path. What
 * it saves is a connection and a proof round trip for each request of a burst
 * (bench/front-cost-bench.ts). One request at a time on each; a sync sending in parallel uses
 * several. Never for Claude Code's connections (not ours: `server headers`).
 */
const provenFree: OneConnection[] = [];

/**
 * A kept connection to the front on `port` proven for `token`, still fit for reuse. The unfit ones
 * are ended on the way: their idle end (keep()) runs first unless the event loop was held up.
 */
function takeProven(port: number, token: string): OneConnection | undefined {
  const at = performance.now();
  for (let i = provenFree.length - 1; i >= 0; i--) {
    const kept = provenFree[i] as OneConnection;
    if (kept.reusable(at)) continue;
    provenFree.splice(i, 1);
    kept.destroy();
  }
  const i = provenFree.findLastIndex((kept) => kept.port === port && kept.token === token);
  return i < 0 ? undefined : provenFree.splice(i, 1)[0]?.taken();
}

/**
 * PROOF_ON_THE_CONNECTION: a connection to our front on 127.0.0.1:`port` that has proven, on itself,
 * that it holds `token`; the request goes on that very connection, never on another. A proof made
 * on one connection says nothing of the next: between the two the supervisor can be killed hard
 * (its front gone at once, no stop notice) and another program bind the port, and a request on a new
 * connection reaches that program. An established connection cannot pass to another listener: if
 * ours dies, it closes, and the request fails before it is written.
 *
 * `'closes'`: the front proved itself but closes the connection after its answer (one started before
 * this rule; the package was updated under it): the caller sends on a new connection right after the
 * proof, as before, with the narrow window that leaves, until that server is restarted.
 * Claude Code's connections are its own: `server headers` (localServerAuthorization) keeps that window.
 */
export async function provenConnection(port: number, token: string, timeoutMs = 2000): Promise<OneConnection | 'closes' | undefined> {
  const agent = new OneConnection(connect({ host: '127.0.0.1', port }), port, token);
  const { proven, closes } = await askProof(port, token, timeoutMs, agent);
  if (proven && !closes) return agent;
  agent.destroy();
  return proven ? 'closes' : undefined;
}

const proven = new Map<string, { token: string; until: number }>();

/**
 * The bearer token to send to `url`, or undefined: only when `url` is the live local server's
 * front (runtime ready, supervisor ours, 127.0.0.1 and its port: isLocalFrontUrl) and the
 * listener there has just proven it holds the current token (proveFront; a proof is reused for
 * FRONT_PROOF_TTL_MS). For a connection that is not ours to make: Claude Code's (`server headers`),
 * which it opens after this answer, so about a millisecond after a `kill -9` stays open there (the
 * token it could leak died with that front). Our own clients prove on the connection they send on
 * (localServerAccess, PROOF_ON_THE_CONNECTION).
 */
export async function localServerAuthorization(stateDir: string, url: string | URL): Promise<string | undefined> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return undefined;
  }
  // Nothing to read for any other server.
  if (target.protocol !== 'http:' || target.hostname !== '127.0.0.1') return undefined;
  const key = `${stateDir}\n${target.origin}`;
  const cached = proven.get(key);
  const live = liveServer(stateDir);
  // A proof is reused only while its server is still the live one: killed hard (no stop notice, the
  // front gone at once), its port may be another program's within the proof's lifetime.
  if (cached !== undefined && cached.until > Date.now() && live?.token === cached.token) return cached.token;
  proven.delete(key);
  if (live?.token === undefined || !isLocalFrontUrl(target, live)) return undefined;
  if (!(await proveFront(Number(target.port), live.token))) return undefined;
  proven.set(key, { token: live.token, until: Date.now() + FRONT_PROOF_TTL_MS });
  return live.token;
}

/**
 * ONLY_PROVEN_LOCAL: what may go to `url`. The token goes only to our front once proven
 * (localServerAuthorization); so, since it is private too, does everything else we send there: the
 * notes. A request whose URL is our local server's (`chosenAsLocal`: the settings took the URL from
 * the live server, as with no URL set; or the URL is the live front's own address) is `unproven`
 * when the listener there cannot prove it holds the current token: the server stopped or restarted
 * while this process ran (a watch, a long sync), and the port it released may be anyone's now (a
 * second local user can bind it within a moment). Such a request must not be sent at all: sent
 * without the token, its add_memory would hand the note to that listener. `other`: not our local
 * server; nothing of ours to add.
 */
export type LocalServerAccess = { token: string; connection?: Agent } | 'unproven' | 'other';

export async function localServerAccess(stateDir: string, url: string | URL, chosenAsLocal: boolean): Promise<LocalServerAccess> {
  const proven = await localServerConnection(stateDir, url);
  if (proven !== undefined) return proven;
  const live = liveServer(stateDir);
  // A live server that records no token has nothing to prove itself with (a runtime written before
  // the front existed, a test's stand-in): its requests go as they always went, without one.
  const atLive = isLocalFrontUrl(url, live);
  if (atLive && live?.token === undefined) return 'other';
  return chosenAsLocal || atLive ? 'unproven' : 'other';
}

/**
 * The token and the connection it goes on (PROOF_ON_THE_CONNECTION) when `url` is the live local
 * server's front (as for localServerAuthorization) and that front proves itself on the connection;
 * a front that closes after its proof gets the token on a proof made just before; else undefined.
 */
async function localServerConnection(stateDir: string, url: string | URL): Promise<{ token: string; connection?: Agent } | undefined> {
  const live = liveServer(stateDir);
  if (live?.token === undefined || !isLocalFrontUrl(url, live)) return undefined;
  const port = Number(new URL(url).port || 80);
  // PROVEN_REUSE: checked just above, like a new one; an open connection that proved itself before.
  const kept = takeProven(port, live.token);
  if (kept !== undefined) return { token: live.token, connection: kept };
  const proven = await provenConnection(port, live.token);
  if (proven === undefined) return undefined;
  return proven === 'closes' ? { token: live.token } : { token: live.token, connection: proven };
}

/** The runtime of our local server when `url` is its endpoint (ready, our supervisor alive), else undefined. */
function liveRuntimeAt(stateDir: string, url: string): ServerRuntime | undefined {
  const runtime = readRuntime(stateDir);
  if (runtime?.state !== 'ready' || runtime.url === undefined || !ourProcess(runtime, 'supervisor')) return undefined;
  // LOCAL_FRONT_URL: another listener's answers are not judged by our server's release.
  return isLocalFrontUrl(url, { url: runtime.url }) ? runtime : undefined;
}

/**
 * The release our local server runs when `url` is its endpoint (ready, our supervisor alive):
 * the rules of that release are known without asking the server (graphiti/server-rules.ts).
 */
export function liveServerGeneration(stateDir: string, url: string): string | undefined {
  return liveRuntimeAt(stateDir, url)?.generation;
}

/**
 * When our local server behind `url` started (epoch ms, this machine's clock), else undefined.
 * Graphiti keeps its queue in memory, and the supervisor starts Graphiti anew at every start
 * (`server start`, `restart`, `upgrade`, a user service bringing it back): an episode queued
 * before then was processed by the server that ran before, or lost with its queue.
 */
export function liveServerStartedAt(stateDir: string, url: string): number | undefined {
  const started = Date.parse(liveRuntimeAt(stateDir, url)?.startedAt ?? '');
  return Number.isFinite(started) ? started : undefined;
}
