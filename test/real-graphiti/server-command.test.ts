/**
 * `graphiti-memory-sync server` against the real Graphiti MCP server and FalkorDB, with the
 * stand-in LLM (test-only; users bring their own): start, status, a second start, stop leaving
 * no process, and the graph kept across a stop and a start. The CLI runs as users run it (a child
 * process, isolated home); the pinned environment comes from the shared cache (npm run test:graphiti
 * builds it). The server is locked (docs/local-server.md): FalkorDB requires the password in its
 * 0600 secret file, the MCP endpoint requires the token, and a second local user gets nowhere.
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cacheRoot } from '../../src/lib/server/environment.js';
import { respCommand } from '../../src/lib/server/falkordb.js';
import { newestGeneration } from '../../src/lib/server/user-settings.js';
import { processAlive, readRuntime, readSecretFile, serverStateDir, writeRuntime, type ServerRuntime } from '../../src/lib/config/server-runtime.js';
import { processCommandLine } from '../../src/lib/util/process-identity.js';
import { listenAsOtherUser, otherUser, probeAsOtherUser, waitForPortAsOtherUser } from '../support/other-user.js';
import { runHook } from '../helpers/hook-runner.js';
import { unusedPort } from '../helpers/ports.js';
import { REPO_ROOT, TSX_LOADER } from '../support/paths.js';
import { readLock, workerFiles } from '../../src/lib/worker/spawn.js';
import { isolatedEnv } from '../support/isolated-env.js';
import { TEST_RUN_VAR } from '../support/test-run.js';
import { eventually, runCli } from '../support/real-graphiti.js';
import { startStandInLlm, type StandInLlm } from '../support/standin-llm/server.js';

let root: string;
let llm: StandInLlm;
let env: Record<string, string>;

/** The TCP ports a process listens on (Linux: its socket inodes matched against /proc/net/tcp*). */
function listeningTcpPorts(pid: number): number[] {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m !== null) inodes.add(m[1] as string);
    } catch {
      // closed meanwhile
    }
  }
  const ports: number[] = [];
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      // st 0A = LISTEN; f[9] = inode
      if (f[3] === '0A' && inodes.has(f[9] as string)) ports.push(parseInt((f[1] as string).split(':')[1] as string, 16));
    }
  }
  return ports;
}

/** Where the server's FalkorDB listens: its Unix socket (no TCP port unless GMS_SERVER_DB_PORT is set). */
function dbAt(r: ServerRuntime): string | number {
  return r.falkordb?.socket ?? (r.dbPort as number);
}

/** A FalkorDB command with the server's password, read from the secret file the runtime names. */
function db(r: ServerRuntime, args: string[]): Promise<string | undefined> {
  return respCommand(dbAt(r), args, 5000, readSecretFile(r.falkordb?.secretFile));
}

function runtime(): ServerRuntime {
  const r = readRuntime(env.MADEINOZ_KNOWLEDGE_STATE_DIR as string);
  if (r === undefined) throw new Error('no runtime file');
  return r;
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'gms-server-cmd-'));
  // Open down to our own folders: the only barrier a second user meets is what the server made.
  chmodSync(root, 0o755);
  llm = await startStandInLlm();
  const { MADEINOZ_KNOWLEDGE_MCP_URL: _unset, ...base } = isolatedEnv(root, 'unused');
  env = { ...base, XDG_DATA_HOME: join(root, 'xdg-data'), GMS_GRAPHITI_CACHE: cacheRoot(process.env), OPENAI_API_KEY: 'stand-in', OPENAI_BASE_URL: llm.url, GMS_SERVER_MODEL: 'stand-in', GMS_SERVER_EMBEDDER_MODEL: 'stand-in-embedder', GMS_SERVER_GENERATION: newestGeneration().id };
});

afterAll(async () => {
  await runCli(env, ['server', 'stop']);
  await llm.close();
  rmSync(root, { recursive: true, force: true });
});

describe('server command with the stand-in LLM', () => {
  it('starts Graphiti + FalkorDB, and health (with no URL set) reaches it', async () => {
    const started = await runCli(env, ['server', 'start']);
    expect(started.stderr).toBe('');
    expect(started.code).toBe(0);
    expect(started.stdout).toMatch(/^started: http:\/\/127\.0\.0\.1:\d+\/mcp \(Graphiti /);
    const r = runtime();
    expect(r.state).toBe('ready');
    expect([r.pid, r.serverPid, r.dbPid].every(processAlive)).toBe(true);
    expect(r.dataDir).toBe(join(root, 'xdg-data', 'graphiti-memory-sync', 'falkordb'));
    const health = await runCli(env, ['health']);
    expect(health.code).toBe(0);
    expect(health.stdout).toContain(`url: ${r.url}`);
  });

  it.runIf(process.platform === 'linux')("every process of the server carries the test run's tag, so a run finds any it left running (test/setup/stray-processes.ts reads /proc/<pid>/environ)", () => {
    const r = runtime();
    const tag = `${TEST_RUN_VAR}=${process.env[TEST_RUN_VAR]}`;
    expect(process.env[TEST_RUN_VAR]).toBeTruthy();
    // The supervisor inherits it; Graphiti and redis-server, whose environments are built from
    // scratch, get it from ManagedProcess (and redis keeps its environment readable: no process title).
    const untagged = [r.pid, r.serverPid, r.dbPid].filter((pid) => !readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(tag));
    expect(untagged.map((pid) => processCommandLine(pid as number))).toEqual([]);
  });

  it('sync, with no URL set, sends a memory file to the started server and sees it processed', async () => {
    const dir = join(env.PAI_DIR as string, 'MEMORY', 'LEARNING', '2026-11');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'server-note.md'), '---\ntitle: Local server note\n---\nThe team runs Graphiti without Docker through graphiti-memory-sync server start.\n');
    const run = await runCli(env, ['sync', '--json', '--wait', '90000']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ added: 1, confirmed: 1, queued: 0, failed: 0, serverReachable: true });
  });

  it('is locked: FalkorDB needs the password, the MCP endpoint the token (Graphiti itself on no TCP port); secrets in no arguments or logs, and in the environment of Graphiti only; every file 0600 in 0700 folders', async () => {
    const r = runtime();
    const password = readSecretFile(r.falkordb?.secretFile) as string;
    const token = readSecretFile(r.mcpTokenFile) as string;
    // FalkorDB on its Unix socket in the 0700 run folder, and on no TCP port at all.
    expect(r.falkordb).toEqual({ socket: join(serverStateDir(env.MADEINOZ_KNOWLEDGE_STATE_DIR as string), 'run', 'falkordb.sock'), secretFile: join(serverStateDir(env.MADEINOZ_KNOWLEDGE_STATE_DIR as string), 'falkordb.secret') });
    expect(r.dbPort).toBeUndefined();
    if (process.platform === 'linux') expect(listeningTcpPorts(r.dbPid as number)).toEqual([]);
    expect(await respCommand(dbAt(r), ['GRAPH.LIST'])).toMatch(/^-NOAUTH/);
    expect(await respCommand(dbAt(r), ['GRAPH.LIST'], 5000, password)).toMatch(/^\*/);
    const call = (headers: Record<string, string>) => fetch(r.url as string, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } }) });
    expect((await call({})).status).toBe(401);
    expect((await call({ authorization: `Bearer ${token}` })).status).toBe(200);
    if (process.platform === 'linux') expect(listeningTcpPorts(r.serverPid as number)).toEqual([]);
    for (const pid of [r.pid, r.serverPid, r.dbPid]) {
      const cmd = processCommandLine(pid as number) ?? '';
      expect(cmd).not.toContain(password);
      expect(cmd).not.toContain(token);
    }
    if (process.platform === 'linux') {
      // Secrets only where they are used: Graphiti has the LLM key and FalkorDB's password in its
      // environment; the supervisor and redis-server have no secret in theirs.
      const environ = (pid: number | undefined) => readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
      const names = (pid: number | undefined) => environ(pid).map((kv) => kv.split('=')[0]);
      expect(names(r.serverPid)).toEqual(expect.arrayContaining(['OPENAI_API_KEY', 'FALKORDB_PASSWORD']));
      for (const pid of [r.pid, r.dbPid]) {
        expect(names(pid).filter((n) => /KEY|TOKEN|SECRET|PASSWORD/i.test(n as string))).toEqual([]);
        expect(environ(pid).join('\n')).not.toContain(password);
        expect(environ(pid).join('\n')).not.toContain(token);
      }
    }
    const stateDir = env.MADEINOZ_KNOWLEDGE_STATE_DIR as string;
    const walk = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
        const p = join(dir, e.name);
        const m = statSync(p).mode & 0o777;
        if (e.isDirectory()) return [...(m === 0o700 ? [] : [`${p} ${m.toString(8)}`]), ...walk(p)];
        if (e.isFile()) {
          const text = readFileSync(p, 'utf8');
          const leaks = !p.endsWith('.secret') && !p.endsWith('.token') && (text.includes(password) || text.includes(token)) ? [`${p} holds a secret`] : [];
          return [...(m === 0o600 ? [] : [`${p} ${m.toString(8)}`]), ...leaks];
        }
        return [];
      });
    expect([stateDir, r.dataDir, r.logDir].map((d) => (statSync(d).mode & 0o777).toString(8))).toEqual(['700', '700', '700']);
    expect([...walk(stateDir), ...walk(r.dataDir)]).toEqual([]);
  });

  const user = otherUser();
  it.skipIf('skip' in user)(`a second local user cannot reach the graph: FalkorDB's socket refuses them, the folders cannot be listed or read, the MCP endpoint refuses without the token${'skip' in user ? ` (skipped: ${user.skip})` : ''}`, async () => {
    const r = runtime();
    const stateDir = env.MADEINOZ_KNOWLEDGE_STATE_DIR as string;
    const [control, ...results] = await probeAsOtherUser(user as { uid: number; gid: number }, [
      { kind: 'readdir', path: root },
      { kind: 'readdir', path: stateDir },
      { kind: 'readdir', path: serverStateDir(stateDir) },
      { kind: 'readdir', path: r.logDir },
      { kind: 'readdir', path: r.dataDir },
      { kind: 'read', path: r.falkordb?.secretFile as string },
      { kind: 'read', path: r.mcpTokenFile as string },
      { kind: 'read', path: r.serverLog as string },
      { kind: 'unix-socket', path: r.falkordb?.socket as string },
      { kind: 'http', url: r.url as string },
      { kind: 'unix-socket', path: join(serverStateDir(stateDir), 'run', 'graphiti.sock') },
    ]);
    expect(control?.ok).toBe(true);
    const [state, server, logs, data, secret, token, log, dbSocket, mcp, socket] = results;
    for (const denied of [state, server, logs, data, secret, token, log]) expect(denied).toEqual({ ok: false, code: 'EACCES' });
    // FalkorDB cannot even be connected to: its socket is in the 0700 run folder, and it has no TCP port.
    expect(dbSocket).toEqual({ ok: false, code: 'EACCES' });
    expect(mcp).toEqual({ ok: true, result: 401 });
    expect(socket).toEqual({ ok: false, code: 'EACCES' });
    // The graph is untouched: FLUSHALL was refused.
    expect(await db(r, ['GRAPH.LIST'])).toMatch(/main/);
  });

  it('status names versions, ports, data size and that get_status answers', async () => {
    const r = runtime();
    const status = await runCli(env, ['server', 'status']);
    expect(status.code).toBe(0);
    expect(status.stdout).toContain(`running: ${r.url}`);
    expect(status.stdout).toContain(`Graphiti ${newestGeneration().id} (MCP server ${newestGeneration().serverVersion}`);
    expect(status.stdout).toContain(`ports: MCP ${r.port} (token required) on 127.0.0.1, FalkorDB on its private socket ${r.falkordb?.socket} (password required)`);
    // Both checked with the secrets: get_status through the front with the token, FalkorDB with its password.
    expect(status.stdout).toContain('FalkorDB: ok (answers with its password)');
    expect(status.stdout).toMatch(/data: .*falkordb \(\d/);
    expect(status.stdout).toContain('get_status: ok');
    const logs = await runCli(env, ['server', 'logs', '--lines', '1000']);
    expect(logs.code).toBe(0);
    expect(logs.stdout).toContain(`==> ${r.serverLog} <==`);
    expect(logs.stdout).toContain(`transport on 127.0.0.1:${r.port}`);
  });

  it('a second start reports the running server instead of starting another', async () => {
    const before = runtime();
    const again = await runCli(env, ['server', 'start']);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`already running: ${before.url}`);
    expect(runtime().pid).toBe(before.pid);
  });

  it('two starts at once give one server: one starts it, the other reports it', async () => {
    expect((await runCli(env, ['server', 'stop'])).code).toBe(0);
    const [a, b] = await Promise.all([runCli(env, ['server', 'start']), runCli(env, ['server', 'start'])]);
    expect([a.code, b.code]).toEqual([0, 0]);
    const outputs = [a.stdout, b.stdout].sort();
    const r = runtime();
    expect(outputs[0]).toContain(`already running: ${r.url}`);
    expect(outputs[1]).toContain(`started: ${r.url}`);
    expect(outputs[0]).toContain(`pid ${r.pid})`);
    expect(outputs[1]).toContain(`pid ${r.pid})`);
  });

  it('stop leaves no process behind, and the graph survives a stop and a start; a note left in the stopped server\'s queue is sent again by the next sync, once', async () => {
    const first = runtime();
    const created = await db(first, ['GRAPH.QUERY', 'main', "CREATE (:Marker {name: 'kept-across-restart'})"]);
    expect(created).toContain('Nodes created: 1');
    // A note Graphiti accepted and is still extracting (its LLM answers slowly) when the server stops.
    llm.delayMs = 60_000;
    const dir = join(env.PAI_DIR as string, 'MEMORY', 'LEARNING', '2026-11');
    // In a group of its own, never seen moving: without the restart known, its patience would be MADEINOZ_KNOWLEDGE_CONFIRM_MAX_AGE.
    writeFileSync(join(dir, 'queued-note.md'), '---\ntitle: Queued across restart\ngroup_id: restart_check\n---\nThe billing service keeps its invoices in Quendor.\n');
    const queued = await runCli(env, ['sync', '--json']);
    expect(JSON.parse(queued.stdout)).toMatchObject({ added: 1, queued: 1 });
    const stopped = await runCli(env, ['server', 'stop']);
    expect(stopped.code).toBe(0);
    expect(stopped.stdout).toContain('stopped');
    expect([first.pid, first.serverPid, first.dbPid].filter(processAlive)).toEqual([]);
    expect(runtime().state).toBe('stopped');
    const down = await runCli(env, ['server', 'status']);
    expect(down.code).toBe(1);
    expect(down.stdout).toMatch(/^stopped/);

    const restarted = await runCli(env, ['server', 'start']);
    expect(restarted.code).toBe(0);
    const second = runtime();
    expect(second.pid).not.toBe(first.pid);
    // The last ports were free again, so the URL is the same.
    expect(second.url).toBe(first.url);
    const found = await db(second, ['GRAPH.QUERY', 'main', 'MATCH (m:Marker) RETURN m.name']);
    expect(found).toContain('kept-across-restart');

    // Its queue died with it: the next sync knows (runtime.json's start) and sends the note again
    // at once, rather than after MADEINOZ_KNOWLEDGE_CONFIRM_MAX_AGE (30 minutes).
    llm.delayMs = 0;
    const resent = await runCli(env, ['sync', '--json']);
    expect(JSON.parse(resent.stdout)).toMatchObject({ resent: 1, queued: 1, serverReachable: true });
    const confirmed = await runCli(env, ['sync', '--json', '--wait', '30000']);
    expect(JSON.parse(confirmed.stdout)).toMatchObject({ resent: 0, queued: 0, pending: 0, failed: 0 });
    const episodes = await db(second, ['GRAPH.QUERY', 'restart_check', "MATCH (e:Episodic) WHERE e.name = 'Queued across restart' RETURN e.uuid"]);
    expect(episodes?.match(/\$36\r\n[0-9a-f-]{36}/g)).toHaveLength(1);
  });
});

describe('server restart', () => {
  it('stops cleanly and starts again: same URL (its port still free), the graph kept, nothing of the old server left; the old password and token open nothing after it', async () => {
    const first = runtime();
    expect(first.state).toBe('ready');
    expect(await db(first, ['GRAPH.QUERY', 'main', "CREATE (:Marker {name: 'kept-across-server-restart'})"])).toContain('Nodes created: 1');
    const oldPassword = readSecretFile(first.falkordb?.secretFile) as string;
    const oldToken = readSecretFile(first.mcpTokenFile) as string;
    const restarted = await runCli(env, ['server', 'restart']);
    expect(restarted.stderr).toBe('');
    expect(restarted.code).toBe(0);
    expect(restarted.stdout).toMatch(new RegExp(`^stopped \\(graph kept in ${first.dataDir}\\)\nrestarted: ${first.url} \\(Graphiti `));
    const second = runtime();
    expect([second.state, second.url]).toEqual(['ready', first.url]);
    expect(second.pid).not.toBe(first.pid);
    expect([first.pid, first.serverPid, first.dbPid].filter(processAlive)).toEqual([]);
    expect(await db(second, ['GRAPH.QUERY', 'main', 'MATCH (m:Marker) RETURN m.name'])).toContain('kept-across-server-restart');
    const newToken = readSecretFile(second.mcpTokenFile) as string;
    expect(newToken).not.toBe(oldToken);
    const initialize = (token: string) =>
      fetch(second.url as string, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${token}` }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } }) });
    expect((await initialize(oldToken)).status).toBe(401);
    expect((await initialize(newToken)).status).toBe(200);
    expect(await respCommand(dbAt(second), ['GRAPH.LIST'], 5000, oldPassword)).toMatch(/^-NOAUTH/);
    expect(await respCommand(dbAt(second), ['GRAPH.LIST'], 5000, readSecretFile(second.falkordb?.secretFile))).toMatch(/^\*/);
    // The tool follows it with no setting.
    expect((await runCli(env, ['health'])).code).toBe(0);
  });
});

describe('server restart while another server start is still starting', () => {
  it('waits for that start, which reports its server; then restarts it: one server runs afterwards, the restart\'s own, and the start\'s is gone', async () => {
    expect((await runCli(env, ['server', 'stop'])).code).toBe(0);
    const stateDir = env.MADEINOZ_KNOWLEDGE_STATE_DIR as string;
    const starting = runCli(env, ['server', 'start']);
    // Its supervisor is up and recorded, not yet ready: the start is under way.
    await eventually('the start under way', () => readRuntime(stateDir)?.state === 'starting');
    const [started, restarted] = await Promise.all([starting, runCli(env, ['server', 'restart'])]);
    // Before: the restart stopped that supervisor half-way, and the start failed ("the server did not start").
    expect(started.stderr).toBe('');
    expect([started.code, restarted.code]).toEqual([0, 0]);
    const first = Number(/^started: .* pid (\d+)\)\n/.exec(started.stdout)?.[1]);
    expect(restarted.stdout).toMatch(/^"server start" \(pid \d+\) is still starting the server: waiting for it to finish, then restarting it\nstopped \(graph kept in .*\)\nrestarted: http:\/\/127\.0\.0\.1:\d+\/mcp /);
    const now = runtime();
    expect(now.state).toBe('ready');
    expect(restarted.stdout).toContain(`pid ${now.pid})`);
    expect(now.pid).not.toBe(first);
    expect(processAlive(first)).toBe(false);
    expect(processCommandLine(now.pid)).toContain('server run');
    expect((await runCli(env, ['health'])).code).toBe(0);
  });
});

describe('a foreground server run (the user service) under the start lock', () => {
  it('a start given while it starts waits for it, then reports its server (one server runs); the lock is freed once it is ready, so a stop ends it at once, cleanly', async () => {
    expect((await runCli(env, ['server', 'stop'])).code).toBe(0);
    const stateDir = env.MADEINOZ_KNOWLEDGE_STATE_DIR as string;
    const service = spawn(process.execPath, ['--import', TSX_LOADER, join(REPO_ROOT, 'src', 'cli.ts'), 'server', 'run'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let log = '';
    service.stderr?.on('data', (d: Buffer) => void (log += d.toString()));
    const exited = new Promise<number | null>((r) => service.once('exit', (code) => r(code)));
    try {
      await eventually('the foreground start under way', () => readRuntime(stateDir)?.state === 'starting' && readRuntime(stateDir)?.pid === service.pid);
      const started = await runCli(env, ['server', 'start']);
      // Before: the start went on to start a second server on the same data folder.
      expect(started.code).toBe(0);
      expect(started.stdout).toMatch(new RegExp(`^"server run" \\(pid ${service.pid}\\) is starting the server in the foreground: waiting for it to finish, then starting it unless it runs\nalready running: http://127\\.0\\.0\\.1:\\d+/mcp .*pid ${service.pid}\\)`));
      const r = runtime();
      expect([r.state, r.pid, r.foreground]).toEqual(['ready', service.pid, true]);
      expect(existsSync(join(serverStateDir(stateDir), 'start.lock'))).toBe(false);
      expect((await runCli(env, ['health'])).code).toBe(0);
      const stopped = await runCli(env, ['server', 'stop']);
      expect(stopped.stdout).toBe(`stopped (graph kept in ${r.dataDir})\n`);
      expect(await exited).toBe(0);
      expect([r.serverPid, r.dbPid].filter((pid) => pid !== undefined && processAlive(pid))).toEqual([]);
      expect(log).toContain('ready: ');
    } finally {
      service.kill('SIGKILL');
    }
    // As the tests after this one expect: a server started by `server start`.
    expect((await runCli(env, ['server', 'start'])).code).toBe(0);
  });
});

describe('the lock through stop and restart, against a second local user', () => {
  const user = otherUser();
  /** The owner's clients, all pointed at `url` by hand (the worst case: the old port pinned in their settings). */
  const pinned = (url: string) => ({ ...env, MADEINOZ_KNOWLEDGE_MCP_URL: url });
  const initialize = (url: string, token: string) =>
    fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${token}` }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } }) });

  it.skipIf('skip' in user)(`the runtime never says ready while the front is closed; a second user on the old port gets requests but no token from watch, sync, context, the hooks or Claude Code's headersHelper; after a restart the old token opens nothing; [::1] and an SSE URL on another port get no token; ~/.claude.json is 0600 and holds none${'skip' in user ? ` (skipped: ${user.skip})` : ''}`, async () => {
    const other = user as { uid: number; gid: number };
    const first = runtime();
    const oldUrl = first.url as string;
    const oldPort = first.port as number;
    const oldToken = readSecretFile(first.mcpTokenFile) as string;
    // Claude Code's entry: a headersHelper, no token, in a 0600 file.
    const installed = await runCli(env, ['install', '--with-mcp', '--scope', 'user']);
    expect(installed.code).toBe(0);
    const claudeJson = join(env.CLAUDE_CONFIG_DIR as string, '.claude.json');
    expect(statSync(claudeJson).mode & 0o777).toBe(0o600);
    const entry = (JSON.parse(readFileSync(claudeJson, 'utf8')) as { mcpServers: Record<string, { url: string; headersHelper?: string }> }).mcpServers.graphiti;
    expect(entry).toMatchObject({ url: oldUrl, headersHelper: expect.stringMatching(/ server headers$/) });
    expect(readFileSync(claudeJson, 'utf8')).not.toContain(oldToken);
    const helper = (url: string) => runCli({ ...env, CLAUDE_CODE_MCP_SERVER_URL: url }, ['server', 'headers']);
    expect(JSON.parse((await helper(oldUrl)).stdout)).toEqual({ Authorization: `Bearer ${oldToken}` });

    // watch runs, pinned to the old URL, before and through the stop.
    const project = join(root, 'proj');
    mkdirSync(project, { recursive: true });
    spawnSync('git', ['init', '-q', project]);
    const watch = spawn(process.execPath, ['--import', TSX_LOADER, join(REPO_ROOT, 'src', 'cli.ts'), 'watch', '--json'], { env: pinned(oldUrl), cwd: project, stdio: ['ignore', 'pipe', 'pipe'] });
    let watchOut = '';
    watch.stdout.on('data', (d: Buffer) => (watchOut += d.toString()));
    try {
      await eventually('watch is ready', () => watchOut.includes('"event":"ready"'));
      // Stop, sampling meanwhile whether the runtime says ready while nothing of ours listens.
      const stopping = runCli(env, ['server', 'stop']);
      let done = false;
      void stopping.then(() => (done = true));
      const readyButClosed: string[] = [];
      let samples = 0;
      while (!done) {
        const state = readRuntime(env.MADEINOZ_KNOWLEDGE_STATE_DIR as string)?.state;
        const open = await new Promise<boolean>((resolve) => {
          const c = connect(oldPort, '127.0.0.1');
          c.once('connect', () => (c.destroy(), resolve(true)));
          c.once('error', () => resolve(false));
        });
        samples++;
        if (state === 'ready' && !open) readyButClosed.push(`sample ${samples}`);
      }
      expect((await stopping).code).toBe(0);
      expect(samples).toBeGreaterThan(5);
      expect(readyButClosed).toEqual([]);

      // The second user takes the old front port, and [::1] beside it.
      const listener = await listenAsOtherUser(other, '127.0.0.1', oldPort);
      try {
        const note = join(env.PAI_DIR as string, 'MEMORY', 'LEARNING', '2026-11', 'after-stop.md');
        mkdirSync(join(note, '..'), { recursive: true });
        writeFileSync(note, '---\ntitle: After the stop\n---\nWritten while the server is stopped.\n');
        await eventually('watch reached the old port', () => listener.requests().length > 0, 90_000);
        await runCli(pinned(oldUrl), ['sync', '--json']);
        await runCli(pinned(oldUrl), ['context', '--refresh', '--cwd', project]);
        const hookEnv = pinned(oldUrl);
        await runHook('session-start', hookEnv, { input: JSON.stringify({ session_id: 'lock-1', cwd: project, hook_event_name: 'SessionStart', source: 'startup' }), cwd: project });
        await runHook('stop', hookEnv, { input: JSON.stringify({ session_id: 'lock-1', cwd: project, hook_event_name: 'Stop', stop_hook_active: false }), cwd: project });
        // The hooks' background worker, to its end.
        await eventually('the hooks\' worker is done', () => {
          const holder = readLock(workerFiles(env.MADEINOZ_KNOWLEDGE_STATE_DIR as string).pidFile);
          return holder === undefined || !processAlive(holder.pid);
        }, 90_000);
        // Claude Code's entry, as Claude Code runs it for that URL: no token printed.
        expect(JSON.parse((await helper(oldUrl)).stdout)).toEqual({});
        const seen = listener.requests();
        // They came (the test can fail), and none carried a token.
        expect(seen.length).toBeGreaterThan(1);
        expect(seen.filter((r) => r.authorization !== null)).toEqual([]);
        watch.kill('SIGTERM');
        await new Promise((r) => watch.once('close', r));

        // Restart while the second user still holds the old port: another port, a new token, and
        // the old URL (still in Claude Code's entry) gets none.
        const restarted = await runCli(env, ['server', 'start']);
        expect(restarted.code).toBe(0);
        expect(restarted.stdout).toContain(`the port changed (was ${oldPort}, taken meanwhile)`);
        expect(JSON.parse((await helper(oldUrl)).stdout)).toEqual({});
        expect(listener.requests().filter((r) => r.authorization !== null)).toEqual([]);
      } finally {
        await listener.close();
      }
      const second = runtime();
      expect(second.port).not.toBe(oldPort);
      const newToken = readSecretFile(second.mcpTokenFile) as string;
      expect(newToken).not.toBe(oldToken);
      expect((await initialize(second.url as string, oldToken)).status).toBe(401);
      expect((await initialize(second.url as string, newToken)).status).toBe(200);
      expect(JSON.parse((await helper(second.url as string)).stdout)).toEqual({ Authorization: `Bearer ${newToken}` });

      // [::1] on the front's port (the front binds 127.0.0.1 only), and an SSE URL on another port.
      const v6 = await listenAsOtherUser(other, '::1', second.port as number);
      const ssePort = await unusedPort();
      const sse = await listenAsOtherUser(other, '127.0.0.1', ssePort);
      // And the case a record and the listener disagree while our supervisor lives (the runtime
      // file names a port the second user holds): only the proof stands between them and the token.
      const strayPort = await unusedPort();
      const stray = await listenAsOtherUser(other, '127.0.0.1', strayPort);
      const stateDir = env.MADEINOZ_KNOWLEDGE_STATE_DIR as string;
      try {
        const strayUrl = `http://127.0.0.1:${strayPort}/mcp`;
        writeRuntime(stateDir, { ...second, url: strayUrl, port: strayPort });
        await runCli(env, ['sync', '--json']);
        await runCli(pinned(strayUrl), ['sync', '--json']);
        expect(JSON.parse((await helper(strayUrl)).stdout)).toEqual({});
        expect(stray.requests().some((r) => r.url.startsWith('/.well-known/graphiti-memory-sync/front-proof'))).toBe(true);
        expect(stray.requests().filter((r) => r.authorization !== null)).toEqual([]);
        // Nor anything else: it could not prove itself, so no request (no note) was sent at all
        // (ONLY_PROVEN_LOCAL; before, the syncs' requests went there without the token).
        expect(stray.requests().filter((r) => !r.url.startsWith('/.well-known/graphiti-memory-sync/front-proof'))).toEqual([]);
      } finally {
        writeRuntime(stateDir, second);
        await stray.close();
      }
      try {
        await runCli(pinned(`http://[::1]:${second.port}/mcp`), ['sync', '--json']);
        await runCli(pinned(`http://localhost:${second.port}/mcp`), ['sync', '--json']);
        expect(JSON.parse((await helper(`http://[::1]:${second.port}/mcp`)).stdout)).toEqual({});
        await runCli({ ...pinned(second.url as string), MADEINOZ_KNOWLEDGE_TRANSPORT: 'sse', MADEINOZ_KNOWLEDGE_SSE_URL: `http://127.0.0.1:${ssePort}/sse` }, ['sync', '--json']);
        expect(v6.requests().length).toBeGreaterThan(0);
        expect(sse.requests().length).toBeGreaterThan(0);
        expect([...v6.requests(), ...sse.requests()].filter((r) => r.authorization !== null)).toEqual([]);
      } finally {
        await v6.close();
        await sse.close();
      }
    } finally {
      watch.kill('SIGKILL');
    }
  });
});

describe('a second local user waiting on the port the server releases', () => {
  const user = otherUser();
  it.skipIf('skip' in user)(`through server restart and server stop then start, with our clients (sync with no URL set, Claude Code's headersHelper) asking all along, the user who takes the port the moment it is released gets no token and no request, and the server runs on another port${'skip' in user ? ` (skipped: ${user.skip})` : ''}`, async () => {
    const other = user as { uid: number; gid: number };
    const stateDir = env.MADEINOZ_KNOWLEDGE_STATE_DIR as string;
    if (readRuntime(stateDir)?.state !== 'ready') expect((await runCli(env, ['server', 'start'])).code).toBe(0);
    const note = (name: string) => {
      const file = join(env.PAI_DIR as string, 'MEMORY', 'LEARNING', '2026-12', `${name}.md`);
      mkdirSync(join(file, '..'), { recursive: true });
      writeFileSync(file, `---\ntitle: ${name}\n---\nPrivate note ${name}, written while the server changes.\n`);
    };
    // Our clients, one after another until told to stop: a sync (a new note each time) and the helper
    // for the address Claude Code's entry names (the port being released).
    let asking = true;
    let rounds = 0;
    const clients = async (oldUrl: string) => {
      while (asking) {
        note(`waiting-${rounds}`);
        await runCli(env, ['sync', '--json']);
        await runCli({ ...env, CLAUDE_CODE_MCP_SERVER_URL: oldUrl }, ['server', 'headers']);
        rounds++;
      }
    };
    const strangers: Array<Awaited<ReturnType<typeof waitForPortAsOtherUser>>> = [];
    try {
      for (const change of [['server', 'restart'], ['server', 'stop']]) {
        const before = runtime();
        const released = before.port as number;
        const stranger = await waitForPortAsOtherUser(other, '127.0.0.1', released);
        strangers.push(stranger);
        asking = true;
        rounds = 0;
        const asked = clients(before.url as string);
        const changed = await runCli(env, change);
        expect(changed.code, changed.stderr).toBe(0);
        // It had the port the moment ours let it go (the premise), while our clients went on asking.
        await stranger.listening;
        if (change[1] === 'stop') {
          const started = await runCli(env, ['server', 'start']);
          expect(started.code, started.stderr).toBe(0);
          expect(started.stdout).toContain(`the port changed (was ${released}, taken meanwhile)`);
        } else expect(changed.stdout).toContain(`the port changed (was ${released}, taken meanwhile)`);
        const after = runtime();
        expect(after.state).toBe('ready');
        expect(after.port).not.toBe(released);
        // A round or more on each side of the change, then the helper once more for the old address.
        const roundsNow = rounds;
        await eventually('our clients asked after the change', () => rounds >= roundsNow + 1, 120_000);
        asking = false;
        await asked;
        expect(JSON.parse((await runCli({ ...env, CLAUDE_CODE_MCP_SERVER_URL: before.url as string }, ['server', 'headers'])).stdout)).toEqual({});
        // Nothing reached the user on the released port: no token, and no request but proof challenges (no note).
        expect(stranger.requests().filter((r) => r.authorization !== null)).toEqual([]);
        expect(stranger.requests().filter((r) => !r.url.startsWith('/.well-known/graphiti-memory-sync/front-proof'))).toEqual([]);
      }
      // And the notes were not lost: the server that runs now has them all.
      const synced = await runCli(env, ['sync', '--json', '--wait', '90000']);
      expect(synced.code, synced.stdout + synced.stderr).toBe(0);
      expect(JSON.parse(synced.stdout)).toMatchObject({ failed: 0, serverReachable: true });
      expect(readRuntime(stateDir)?.state).toBe('ready');
    } finally {
      asking = false;
      for (const stranger of strangers) await stranger.close();
    }
  });
});

describe('server upgrade', () => {
  it('moves a running server from an older pinned release to the newest and keeps the graph', async () => {
    const older = '0.29.3';
    const upRoot = mkdtempSync(join(tmpdir(), 'gms-server-upgrade-'));
    const { MADEINOZ_KNOWLEDGE_MCP_URL: _unset, ...base } = isolatedEnv(upRoot, 'unused');
    const upEnv: Record<string, string> = { ...base, XDG_DATA_HOME: join(upRoot, 'xdg-data'), GMS_GRAPHITI_CACHE: cacheRoot(process.env), OPENAI_API_KEY: 'stand-in', OPENAI_BASE_URL: llm.url, GMS_SERVER_MODEL: 'stand-in', GMS_SERVER_EMBEDDER_MODEL: 'stand-in-embedder' };
    const stateDir = upEnv.MADEINOZ_KNOWLEDGE_STATE_DIR as string;
    try {
      expect((await runCli({ ...upEnv, GMS_SERVER_GENERATION: older }, ['server', 'start'])).code).toBe(0);
      const before = readRuntime(stateDir) as ServerRuntime;
      expect(before.generation).toBe(older);
      expect(await db(before, ['GRAPH.QUERY', 'main', "CREATE (:Marker {name: 'kept-across-upgrade'})"])).toContain('Nodes created: 1');
      // Refused, the running server untouched: a release pinned to the old one (the start would
      // run it again, under "upgraded"), and no LLM for the start that follows the stop.
      const pinned = await runCli({ ...upEnv, GMS_SERVER_GENERATION: older }, ['server', 'upgrade']);
      expect([pinned.code, pinned.stdout]).toEqual([2, '']);
      expect(pinned.stderr).toContain(`GMS_SERVER_GENERATION=${older} keeps the server on that release`);
      const { OPENAI_API_KEY: _key, OPENAI_BASE_URL: _base, ...noLlm } = upEnv;
      expect((await runCli(noLlm, ['server', 'upgrade'])).code).toBe(2);
      expect(readRuntime(stateDir)).toMatchObject({ state: 'ready', pid: before.pid, generation: older });
      const upgraded = await runCli(upEnv, ['server', 'upgrade']);
      expect(upgraded.code).toBe(0);
      expect(upgraded.stdout).toContain(`upgraded: Graphiti ${older} -> ${newestGeneration().id}`);
      const after = readRuntime(stateDir) as ServerRuntime;
      expect([after.state, after.generation]).toEqual(['ready', newestGeneration().id]);
      expect([before.pid, before.serverPid, before.dbPid].filter(processAlive)).toEqual([]);
      expect(await db(after, ['GRAPH.QUERY', 'main', 'MATCH (m:Marker) RETURN m.name'])).toContain('kept-across-upgrade');
      const again = await runCli(upEnv, ['server', 'upgrade']);
      expect(again.stdout).toContain('already on the newest pinned release');
    } finally {
      await runCli(upEnv, ['server', 'stop']);
      rmSync(upRoot, { recursive: true, force: true });
    }
  });
});
