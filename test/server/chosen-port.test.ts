/**
 * CHOSEN_PORT_RETRIED (server/chosen-port.ts) and HEALTH_FROM_OUR_CHILD (server/graphiti-process.ts),
 * fast: a stand-in for the Graphiti server's main.py (Node, behaving as every pinned generation does
 * at start-up: its "transport on" line before uvicorn binds, uvicorn's words when the port is taken,
 * an access log line per request) and another program on the port chosen first. On 539ca3f5 the
 * start took that program's /health answer for our server's and handed out its address; the real
 * server's case is test/real-graphiti/taken-port.test.ts.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as proc from '../../src/lib/server/proc.js';
import { CHOSEN_PORT_TRIES, startOnPort } from '../../src/lib/server/chosen-port.js';
import { PortTakenError } from '../../src/lib/server/errors.js';
import { startGraphitiServer, type GraphitiServer } from '../../src/lib/server/graphiti-process.js';
import type { GraphitiEnvironment } from '../../src/lib/server/environment.js';
import { generation } from '../../src/lib/server/pins.js';

vi.mock('../../src/lib/server/proc.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/lib/server/proc.js')>();
  return { ...real, freePort: vi.fn(real.freePort) };
});

/** main.py as the server starts: says where it listens, then binds; taken, uvicorn's line and exit 1; else /health with an access log line. */
const FAKE_MAIN = `
const http = require('node:http');
const port = Number(process.env.SERVER__PORT);
console.log('INFO - Running MCP server with streamable HTTP transport on 127.0.0.1:' + port);
const server = http.createServer((req, res) => {
  console.log('INFO:     ' + req.socket.remoteAddress + ':' + req.socket.remotePort + ' - "' + req.method + ' ' + req.url + ' HTTP/1.1" 200 OK');
  res.end('{"status":"healthy"}');
});
server.once('error', () => {
  console.log("ERROR:    [Errno 98] error while attempting to bind on address ('127.0.0.1', " + port + "): address already in use");
  setTimeout(() => process.exit(1), 300);
});
server.listen(port, '127.0.0.1');
`;

const dirs: string[] = [];
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  vi.mocked(proc.freePort).mockRestore?.();
});

function fakeEnvironment(): GraphitiEnvironment {
  const dir = mkdtempSync(join(tmpdir(), 'gms-chosen-port-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'main.py'), FAKE_MAIN);
  return { dir, python: process.execPath, serverDir: dir, redisServer: '/nonexistent', falkordbModule: '/nonexistent', generation: generation('0.31.2') };
}

/** Another program on a port: answers every request 200, counting them. */
async function stranger(): Promise<{ port: number; requests: () => number }> {
  let requests = 0;
  const server: Server = createServer((_req, res) => {
    requests++;
    res.end('{"status":"healthy"}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push(() => new Promise<void>((r) => server.close(() => r())));
  const address = server.address();
  return { port: typeof address === 'object' && address !== null ? address.port : 0, requests: () => requests };
}

describe('a port we chose, taken before our server binds it (CHOSEN_PORT_RETRIED, HEALTH_FROM_OUR_CHILD)', () => {
  it('the server starts on another free port, and the address handed out is its own', async () => {
    const env = fakeEnvironment();
    const other = await stranger();
    const real = vi.mocked(proc.freePort).getMockImplementation() as () => Promise<number>;
    let calls = 0;
    vi.mocked(proc.freePort).mockImplementation(async () => (++calls === 1 ? other.port : real()));
    const server: GraphitiServer = await startGraphitiServer(env, { transport: 'http', groupId: 'g', falkordbUri: 'redis://127.0.0.1:1', llm: { baseUrl: 'http://127.0.0.1:1/v1', apiKey: 'x' }, logDir: env.dir });
    closers.push(() => server.stop());
    expect(server.port).not.toBe(other.port);
    expect(calls).toBe(2);
    expect(server.process.running).toBe(true);
    expect(server.process.recentOutput).toContain('"GET /health');
  });

  it('a port we were given and find taken is a PortTakenError at once, not another port', async () => {
    const env = fakeEnvironment();
    const other = await stranger();
    const error = await startGraphitiServer(env, { transport: 'http', groupId: 'g', falkordbUri: 'redis://127.0.0.1:1', llm: { baseUrl: 'http://127.0.0.1:1/v1', apiKey: 'x' }, logDir: env.dir, port: other.port }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(PortTakenError);
    expect((error as PortTakenError).port).toBe(other.port);
  });

  it('startOnPort: a chosen port is chosen again only when it was taken, at most CHOSEN_PORT_TRIES times; a given one is tried once', async () => {
    const taken = () => new PortTakenError(1, 'taken');
    const seen: number[] = [];
    await expect(startOnPort(undefined, async (p) => { seen.push(p); throw taken(); }, (e) => e instanceof PortTakenError)).rejects.toBeInstanceOf(PortTakenError);
    expect(seen).toHaveLength(CHOSEN_PORT_TRIES);
    seen.length = 0;
    await expect(startOnPort(undefined, async (p) => { seen.push(p); throw new Error('no python'); }, (e) => e instanceof PortTakenError)).rejects.toThrow('no python');
    expect(seen).toHaveLength(1);
    seen.length = 0;
    await expect(startOnPort(4321, async (p) => { seen.push(p); throw taken(); }, (e) => e instanceof PortTakenError)).rejects.toBeInstanceOf(PortTakenError);
    expect(seen).toEqual([4321]);
    let n = 0;
    expect(await startOnPort(undefined, async (p) => { if (++n === 1) throw taken(); return p; }, (e) => e instanceof PortTakenError)).toBeGreaterThan(0);
  });
});
