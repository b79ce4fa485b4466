/**
 * The local server's locks around the real FalkorDB (redis-server + falkordb.so from the pinned
 * environment, which the real-server suite builds before any test runs, so nothing here is skipped
 * on a fresh machine) and the MCP front:
 * - FalkorDB requires the password, which is in no process's arguments, and readiness is our own
 *   process after AUTH;
 * - the MCP front requires the token, answers the proof challenge without it, and is the only way
 *   to the server's Unix socket;
 * - and, as a second local user: nothing of it can be listed, read or used without the secrets.
 */
import { createServer as createHttpServer, request, type Server } from 'node:http';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { falkordbSecretPath, liveFalkorDb, mcpTokenPath, readRuntime, runtimePath, serverStateDir, writeRuntime } from '../../src/lib/config/server-runtime.js';
import { ensureEnvironment, type GraphitiEnvironment } from '../../src/lib/server/environment.js';
import { isOurFalkorDb, probeFalkorDb, respCommand, respCommands, startFalkorDb, type FalkorDb } from '../../src/lib/server/falkordb.js';
import { startMcpFront, type McpFront } from '../../src/lib/server/mcp-front.js';
import { newestGeneration } from '../../src/lib/server/user-settings.js';
import { newSecretFile, privateDir, PRIVATE_UMASK } from '../../src/lib/server/private-files.js';
import { lockDownFolders } from '../../src/lib/server/supervisor.js';
import { identifyProcess, processCommandLine } from '../../src/lib/util/process-identity.js';
import { otherUser, probeAsOtherUser } from '../support/other-user.js';
import { modeOf as mode, openLockedSandbox, tooOpen, type LockedSandbox } from '../support/locked-sandbox.js';


let root: string;
let settings: { stateDir: string; dataDir: string; logDir: string };
let sandbox: LockedSandbox;

beforeAll(() => {
  sandbox = openLockedSandbox();
  ({ root, settings } = sandbox);
  lockDownFolders(settings);
  writeRuntime(settings.stateDir, { state: 'stopped', pid: process.pid, generation: 'x', serverVersion: 'x', mcp: 'x', falkordbBin: 'x', dataDir: settings.dataDir, logDir: settings.logDir, startedAt: '' });
});

afterAll(() => {
  sandbox.close();
});

describe('FalkorDB requires its password (real redis-server + falkordb.so from the pinned environment)', () => {
  let environment: GraphitiEnvironment;
  let db: FalkorDb;
  let password: string;
  let front: McpFront;
  let upstream: Server;
  let token: string;
  let socketPath: string;
  let openStream: import('node:http').ServerResponse | undefined;

  beforeAll(async () => {
    environment = await ensureEnvironment(newestGeneration());
    password = newSecretFile(falkordbSecretPath(settings.stateDir));
    token = newSecretFile(mcpTokenPath(settings.stateDir));
    // As the supervisor does: what the children create is private.
    process.umask(PRIVATE_UMASK);
    db = await startFalkorDb(environment, { dataDir: settings.dataDir, password, persist: true });
    socketPath = join(privateDir(join(serverStateDir(settings.stateDir), 'run')), 'graphiti.sock');
    // A stand-in for Graphiti on the socket: answers every request with what it saw.
    upstream = createHttpServer((req, res) => {
      if (req.url === '/stream') {
        // An SSE reply held open: its first event must reach the client before the stream ends.
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('event: message\ndata: first\n\n');
        openStream = res;
        return;
      }
      if (req.url === '/end') openStream?.end('event: message\ndata: last\n\n');
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ path: req.url, host: req.headers.host, authorization: req.headers.authorization ?? null }));
    });
    await new Promise<void>((r) => upstream.listen(socketPath, () => r()));
    front = await startMcpFront({ port: 0, socketPath, token, tokenFile: mcpTokenPath(settings.stateDir) });
    writeRuntime(settings.stateDir, { ...(readRuntime(settings.stateDir) as NonNullable<ReturnType<typeof readRuntime>>), state: 'ready', falkordb: { host: '127.0.0.1', port: db.port, secretFile: falkordbSecretPath(settings.stateDir) }, mcpTokenFile: mcpTokenPath(settings.stateDir) });
  });

  afterAll(async () => {
    await front?.close();
    await new Promise<void>((r) => (upstream === undefined ? r() : upstream.close(() => r())));
    await db?.stop();
    process.umask(sandbox.savedUmask);
  });

  it('refuses every command without the password; answers with it; the password is in no process arguments', async () => {
    expect(await respCommand(db.port, ['GRAPH.LIST'])).toMatch(/^-NOAUTH/);
    expect(await respCommand(db.port, ['FLUSHALL'])).toMatch(/^-NOAUTH/);
    const wrong = await respCommands(db.port, [['GRAPH.LIST']], { password: 'wrong-password-0000' });
    expect(wrong?.[0]).toMatch(/^-WRONGPASS/);
    expect(wrong?.[1]).toMatch(/^-NOAUTH/);
    expect(await respCommand(db.port, ['GRAPH.LIST'], 2000, password)).toMatch(/^\*/);
    expect(processCommandLine(db.process.pid as number)).toContain('redis-server');
    expect(processCommandLine(db.process.pid as number)).not.toContain(password);
    expect(readFileSync(join(settings.dataDir, 'falkordb.log'), 'utf8')).not.toContain(password);
  });

  it('readiness is our own process after our own auth: another pid on the port, or no password, is not ours', async () => {
    expect(await isOurFalkorDb(db.port, db.process.pid, password)).toBe(true);
    expect(await isOurFalkorDb(db.port, (db.process.pid as number) + 100_000, password)).toBe(false);
    expect(await isOurFalkorDb(db.port, db.process.pid, 'not-the-password-000')).toBe(false);
    // What a start-up that times out reports as its last try: each reason in words.
    expect(await probeFalkorDb(db.port, (db.process.pid as number) + 100_000, password)).toBe(`another process answers (process_id ${db.process.pid}, ours is ${(db.process.pid as number) + 100_000})`);
    expect(await probeFalkorDb(db.port, db.process.pid, 'not-the-password-000')).toMatch(/^AUTH refused: -WRONGPASS/);
    expect(await probeFalkorDb(join(settings.dataDir, 'no.sock'), db.process.pid, password)).toBe('no socket file (ENOENT)');
  });

  it('liveFalkorDb (what other parts of the tool read) gives host, port and password only while the recorded redis is still ours', () => {
    const base = readRuntime(settings.stateDir) as NonNullable<ReturnType<typeof readRuntime>>;
    const db0 = identifyProcess(db.process.pid);
    writeRuntime(settings.stateDir, { ...base, identities: { db: db0 } });
    expect(liveFalkorDb(settings.stateDir)).toEqual({ host: '127.0.0.1', port: db.port, password });
    writeRuntime(settings.stateDir, { ...base, identities: { db: { pid: db.process.pid as number, start: 'another boot' } } });
    expect(liveFalkorDb(settings.stateDir)).toBeUndefined();
    writeRuntime(settings.stateDir, base);
  });

  it('what FalkorDB writes in the data folder is 0600 in 0700 folders', async () => {
    expect(await respCommand(db.port, ['GRAPH.QUERY', 'main', "CREATE (:Marker {name: 'private'})"], 5000, password)).toContain('Nodes created: 1');
    expect(readdirSync(settings.dataDir).length).toBeGreaterThan(1);
    expect(tooOpen(settings.dataDir)).toEqual([]);
  });

  it('the MCP front refuses a request without the token, or with another one (401); with it, forwards to the socket without the token', async () => {
    const post = (headers: Record<string, string>) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request(`http://127.0.0.1:${front.port}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers } }, (res) => {
          let body = '';
          res.on('data', (d: Buffer) => (body += d.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on('error', reject);
        req.end('{}');
      });
    const none = await post({});
    expect(none.status).toBe(401);
    // The refusal says where the token is and what to run, never the token.
    expect(JSON.parse(none.body).error.message).toContain(`requires the token in ${mcpTokenPath(settings.stateDir)}`);
    expect(none.body).toContain('install --with-mcp');
    expect(none.body).not.toContain(token);
    // Another token: its last character changed (a fixed '0' was the token itself whenever it ended in 0, one run in 16).
    expect((await post({ authorization: `Bearer ${token.slice(0, -1)}${token.endsWith('0') ? '1' : '0'}` })).status).toBe(401);
    expect((await post({ authorization: `Basic ${token}` })).status).toBe(401);
    const ok = await post({ authorization: `Bearer ${token}` });
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body)).toEqual({ path: '/mcp', host: `127.0.0.1:${front.port}`, authorization: null });
  });

  it('the front streams replies as they come (an SSE event reaches the client while its stream is still open)', async () => {
    const auth = { authorization: `Bearer ${token}` };
    const received: string[] = [];
    const ended = new Promise<void>((resolve, reject) => {
      const req = request(`http://127.0.0.1:${front.port}/stream`, { headers: auth }, (res) => {
        res.on('data', (d: Buffer) => {
          received.push(d.toString());
          // Only now (the first event arrived while the stream is open) is the stream ended.
          if (received.length === 1) request(`http://127.0.0.1:${front.port}/end`, { headers: auth }, (r) => r.resume()).end();
        });
        res.on('end', () => resolve());
      });
      req.on('error', reject);
      req.end();
    });
    await ended;
    expect(received.join('')).toBe('event: message\ndata: first\n\nevent: message\ndata: last\n\n');
    expect(received[0]).toBe('event: message\ndata: first\n\n');
  });

  const user = otherUser();
  it.skipIf('skip' in user)(`as a second local user: FalkorDB refuses without the secret, the folders cannot be listed or read, the MCP endpoint refuses without the token${'skip' in user ? ` (skipped: ${user.skip})` : ''}`, async () => {
    const other = user as { uid: number; gid: number };
    const server = serverStateDir(settings.stateDir);
    const results = await probeAsOtherUser(other, [
      { kind: 'readdir', path: root },
      { kind: 'readdir', path: settings.stateDir },
      { kind: 'readdir', path: server },
      { kind: 'readdir', path: settings.logDir },
      { kind: 'readdir', path: settings.dataDir },
      { kind: 'read', path: falkordbSecretPath(settings.stateDir) },
      { kind: 'read', path: mcpTokenPath(settings.stateDir) },
      { kind: 'read', path: runtimePath(settings.stateDir) },
      { kind: 'read', path: join(settings.dataDir, 'falkordb.log') },
      { kind: 'redis', port: db.port, command: ['GRAPH.LIST'] },
      { kind: 'redis', port: db.port, command: ['FLUSHALL'] },
      { kind: 'http', url: `http://127.0.0.1:${front.port}/mcp` },
      { kind: 'unix-socket', path: socketPath },
      { kind: 'http', url: `http://127.0.0.1:${front.port}/mcp`, headers: { authorization: `Bearer ${token}` } },
    ]);
    const [rootDir, ...rest] = results;
    // Control: the probe works, and the folder around ours is open to them.
    expect(rootDir?.ok).toBe(true);
    const [state, serverDir, logs, data, secret, tokenFile, runtime, dbLog, graphList, flush, mcp, socket, withToken] = rest;
    for (const denied of [state, serverDir, logs, data, secret, tokenFile, runtime, dbLog]) expect(denied).toEqual({ ok: false, code: 'EACCES' });
    expect(graphList?.result).toMatch(/^-NOAUTH/);
    expect(flush?.result).toMatch(/^-NOAUTH/);
    expect(mcp).toEqual({ ok: true, result: 401 });
    expect(socket).toEqual({ ok: false, code: 'EACCES' });
    // Only the token opens it: whoever has it (and only the user can read it) gets in.
    expect(withToken).toEqual({ ok: true, result: 200 });
  });
});
