/**
 * Probes run as a second local user, to prove that what the local server creates is the user's
 * alone. Needs Linux and root (to create the user with useradd and switch to it with setpriv, no
 * shell or PAM involved); elsewhere `otherUser()` says why the tests are skipped. The probes run
 * in a plain `node -e` as that user and report what each attempt got (an error code or a reply).
 */
import { execFile, spawn, spawnSync } from 'node:child_process';

export const OTHER_USER = 'gms-other';

export type Probe =
  | { kind: 'readdir'; path: string }
  | { kind: 'read'; path: string }
  | { kind: 'redis'; port: number; command: string[] }
  | { kind: 'http'; url: string; headers?: Record<string, string> }
  | { kind: 'unix-socket'; path: string };

/** What a probe got: `ok` with a result, or the error code (EACCES, ECONNREFUSED, ...). */
export interface ProbeResult {
  ok: boolean;
  code?: string;
  result?: string | number;
}

const PROBE_SCRIPT = `
const fs = require('node:fs'), net = require('node:net'), http = require('node:http');
const probes = JSON.parse(process.argv[1]);
const fail = (e) => ({ ok: false, code: e.code || String(e.message || e) });
async function run(p) {
  try {
    if (p.kind === 'readdir') return { ok: true, result: fs.readdirSync(p.path).join(',') };
    if (p.kind === 'read') return { ok: true, result: fs.readFileSync(p.path, 'utf8').slice(0, 200) };
    if (p.kind === 'redis') return await new Promise((resolve) => {
      const s = net.connect({ host: '127.0.0.1', port: p.port });
      let reply = '';
      s.setTimeout(3000, () => { s.destroy(); resolve({ ok: false, code: 'TIMEOUT' }); });
      s.on('error', (e) => resolve(fail(e)));
      s.on('data', (d) => { reply += d; if (reply.endsWith('\\r\\n')) { s.destroy(); resolve({ ok: true, result: reply }); } });
      s.write('*' + p.command.length + '\\r\\n' + p.command.map((a) => '$' + Buffer.byteLength(a) + '\\r\\n' + a + '\\r\\n').join(''));
    });
    if (p.kind === 'http') return await new Promise((resolve) => {
      const req = http.request(p.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(p.headers || {}) } }, (res) => { res.resume(); resolve({ ok: true, result: res.statusCode }); });
      req.on('error', (e) => resolve(fail(e)));
      req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'clear_graph', arguments: {} } }));
    });
    if (p.kind === 'unix-socket') return await new Promise((resolve) => {
      const s = net.connect({ path: p.path });
      s.on('connect', () => { s.destroy(); resolve({ ok: true }); });
      s.on('error', (e) => resolve(fail(e)));
    });
  } catch (e) { return fail(e); }
}
(async () => { const out = []; for (const p of probes) out.push(await run(p)); process.stdout.write(JSON.stringify(out)); })();
`;

/** The second user's uid and gid, created when missing; or the reason it cannot be had here. */
export function otherUser(): { uid: number; gid: number } | { skip: string } {
  if (process.platform !== 'linux') return { skip: 'needs Linux (useradd, setpriv) to run as a second user' };
  if (process.getuid?.() !== 0) return { skip: 'needs root to create and become a second local user (run the suite as root, e.g. in CI)' };
  for (const tool of ['useradd', 'setpriv']) {
    if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0) return { skip: `needs ${tool} to run as a second local user` };
  }
  const id = () => spawnSync('id', ['-u', OTHER_USER], { encoding: 'utf8' });
  if (id().status !== 0) spawnSync('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', OTHER_USER], { encoding: 'utf8' });
  const uid = id();
  if (uid.status !== 0) return { skip: `could not create the user ${OTHER_USER}` };
  const gid = spawnSync('id', ['-g', OTHER_USER], { encoding: 'utf8' });
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/** Runs the probes as the second user, in order; one result each (async: the servers probed may live in this process). */
export function probeAsOtherUser(user: { uid: number; gid: number }, probes: Probe[]): Promise<ProbeResult[]> {
  return new Promise((resolve, reject) => {
    execFile(
      'setpriv',
      [`--reuid=${user.uid}`, `--regid=${user.gid}`, '--clear-groups', process.execPath, '-e', PROBE_SCRIPT, JSON.stringify(probes)],
      { encoding: 'utf8', cwd: '/', env: { PATH: process.env.PATH ?? '/usr/bin:/bin' }, timeout: 30_000 },
      (error, stdout, stderr) => {
        if (error !== null) reject(new Error(`probe as ${OTHER_USER} failed: ${error.message} ${stderr}`));
        else resolve(JSON.parse(stdout) as ProbeResult[]);
      },
    );
  });
}

const LISTENER_SCRIPT = `
const http = require('node:http');
const [host, port] = [process.argv[1], Number(process.argv[2])];
const server = http.createServer((req, res) => {
  process.stdout.write(JSON.stringify({ method: req.method, url: req.url, authorization: req.headers.authorization || null }) + '\\n');
  req.resume();
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end('{"jsonrpc":"2.0","id":1,"result":{}}');
});
const wait = process.argv[3] === 'wait';
server.on('error', (e) => {
  // Waiting for the port (a second user who knows it will be released): try again at once.
  if (wait && e.code === 'EADDRINUSE') return setTimeout(() => server.listen(port, host), 1);
  process.stdout.write(JSON.stringify({ error: e.code }) + '\\n');
  process.exit(1);
});
server.on('listening', () => process.stdout.write(JSON.stringify({ listening: port }) + '\\n'));
if (wait) process.stdout.write(JSON.stringify({ waiting: port }) + '\\n');
server.listen(port, host);
`;

/** What a listener run by the second user saw: each request's method, path and Authorization header. */
export interface OtherUserListener {
  requests(): Array<{ method: string; url: string; authorization: string | null }>;
  close(): Promise<void>;
}

/**
 * An HTTP listener run as the second user on `host:port` (a port our server just released, or
 * [::1] beside our 127.0.0.1): it answers every request with 200 and reports what it received.
 * Resolves once it listens; rejects if the port cannot be had.
 */
export function listenAsOtherUser(user: { uid: number; gid: number }, host: string, port: number): Promise<OtherUserListener> {
  return otherUserListener(user, host, port, false).then((l) => l.listening.then(() => l));
}

/**
 * A second user waiting for `host:port`, held by our server now: it tries to bind again at once
 * whenever the port is taken, so it has the port the moment our server releases it. Resolves once
 * it is trying; `listening` once it has the port.
 */
export function waitForPortAsOtherUser(user: { uid: number; gid: number }, host: string, port: number): Promise<OtherUserListener & { listening: Promise<void> }> {
  return otherUserListener(user, host, port, true);
}

function otherUserListener(user: { uid: number; gid: number }, host: string, port: number, wait: boolean): Promise<OtherUserListener & { listening: Promise<void> }> {
  const child = spawn('setpriv', [`--reuid=${user.uid}`, `--regid=${user.gid}`, '--clear-groups', process.execPath, '-e', LISTENER_SCRIPT, host, String(port), ...(wait ? ['wait'] : [])], { cwd: '/', env: { PATH: process.env.PATH ?? '/usr/bin:/bin' }, stdio: ['ignore', 'pipe', 'inherit'] });
  let bound: () => void = () => undefined;
  let failed: (error: Error) => void = () => undefined;
  const listening = new Promise<void>((resolve, reject) => {
    bound = resolve;
    failed = reject;
  });
  listening.catch(() => undefined);
  const lines: string[] = [];
  let buffer = '';
  return new Promise((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      buffer += d;
      for (let i = buffer.indexOf('\n'); i >= 0; i = buffer.indexOf('\n')) {
        const line = buffer.slice(0, i);
        buffer = buffer.slice(i + 1);
        const msg = JSON.parse(line) as Record<string, unknown>;
        const handle = {
          listening,
          requests: () => lines.map((l) => JSON.parse(l) as { method: string; url: string; authorization: string | null }),
          close: () => new Promise<void>((done) => (child.exitCode !== null ? done() : (child.once('close', () => done()), child.kill('SIGKILL')))),
        };
        if (msg.waiting !== undefined) resolve(handle);
        else if (msg.listening !== undefined) {
          bound();
          resolve(handle);
        } else if (msg.error !== undefined) {
          const error = new Error(`${OTHER_USER} could not listen on ${host}:${port}: ${String(msg.error)}`);
          failed(error);
          reject(error);
        } else lines.push(line);
      }
    });
    child.once('error', reject);
    child.once('close', (code) => {
      const error = new Error(`listener as ${OTHER_USER} exited (${code})`);
      failed(error);
      reject(error);
    });
  });
}
