/**
 * Stand-ins for a built release's two programs, so `server start` runs its real supervisor to the
 * end without Python: a FalkorDB (redis-server) that answers our readiness probe on its Unix socket
 * (AUTH, INFO with its own pid, GRAPH.LIST), and a Graphiti (the venv's python) that says where it
 * listens and answers /health on the socket the supervisor gives it.
 *
 * `takePort`: the stand-in FalkorDB first binds 127.0.0.1:takePort, as a second local user would
 * between the start's free-port check and the front's listen (FalkorDB starts in between), and only
 * then answers, so the front always finds it taken. Both end on SIGTERM (their supervisor's stop).
 *
 * With GMS_SERVER_DB_PORT set the supervisor starts FalkorDB on that TCP port (`--port P`) and,
 * since PASSWORD_ON_OUR_SOCKET, on its Unix socket too: the stand-in listens on both (the port first,
 * as redis binds it) and answers the same way. `takeDbPort`: another program binds P first (as a
 * second local user would between the start's check and redis's listen; here the stand-in's own
 * process, before it tries), and the stand-in then does what redis-server 8.2.3 does when its port
 * is taken: writes its two lines (copied from the real binary) and exits 1.
 *
 * `takeDbPortAs`: that other program is a listener run as the second local user (test/support/
 * other-user.ts), which writes every byte it receives to `record`. The stand-in then waits for the
 * supervisor's first readiness probe before it exits, so the probe cannot miss the window a real
 * redis leaves: on the port (the listener says it got bytes) or on the socket (the stand-in listens
 * there after the failure, to see the probe come; a real redis would have exited).
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const FALKORDB = `
import { createServer } from 'node:net';
import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
const [take, takeDb, ...args] = process.argv.slice(2);
const socketPath = args.includes('--unixsocket') ? args[args.indexOf('--unixsocket') + 1] : undefined;
const dbPort = Number(args[args.indexOf('--port') + 1]);
/** takeDbPortAs: { uid, gid, record } in base64 JSON. */
const takenAs = takeDb !== '0' && takeDb !== '1' ? JSON.parse(Buffer.from(takeDb, 'base64').toString()) : undefined;
const bulk = (text) => '$' + Buffer.byteLength(text) + '\\r\\n' + text + '\\r\\n';
function answer(command) {
  const name = String(command[0] ?? '').toUpperCase();
  if (name === 'INFO') return bulk('# Server\\r\\nprocess_id:' + process.pid + '\\r\\n');
  if (name === 'GRAPH.LIST') return '*0\\r\\n';
  return '+OK\\r\\n';
}
/** The complete RESP commands at the start of buf, and what is left. */
function commands(buf) {
  const out = [];
  for (;;) {
    const head = /^\\*(\\d+)\\r\\n/.exec(buf);
    if (head === null) return [out, buf];
    let at = head[0].length;
    const command = [];
    for (let i = 0; i < Number(head[1]); i++) {
      const len = /^\\$(\\d+)\\r\\n/.exec(buf.slice(at));
      if (len === null || buf.length < at + len[0].length + Number(len[1]) + 2) return [out, buf];
      at += len[0].length;
      command.push(buf.slice(at, at + Number(len[1])));
      at += Number(len[1]) + 2;
    }
    out.push(command);
    buf = buf.slice(at);
  }
}
/** A listener that answers as redis does. */
function redisListener() {
  return createServer((socket) => {
    let buf = '';
    socket.on('data', (chunk) => {
      const [done, rest] = commands(buf + chunk);
      buf = rest;
      for (const command of done) socket.write(answer(command));
    });
    socket.on('error', () => {});
  });
}
function serve() {
  const redis = redisListener();
  if (dbPort === 0) return void redis.listen(socketPath);
  redis.once('error', () => {
    console.log('# Warning: Could not create server TCP listening socket 127.0.0.1:' + dbPort + ': bind: Address already in use');
    console.log('# Failed listening on port ' + dbPort + ' (tcp), aborting.');
    if (takenAs === undefined) process.exit(1);
    // Exit at the first probe, wherever it goes (see takeDbPortAs above).
    if (socketPath !== undefined) createServer(() => process.exit(1)).listen(socketPath);
  });
  redis.listen(dbPort, '127.0.0.1', () => {
    if (socketPath !== undefined) redisListener().listen(socketPath);
  });
}
const RECORDER = "const s = require('node:net').createServer((c) => { c.on('error', () => {}); c.on('data', (d) => process.stdout.write(JSON.stringify({ got: d.toString('latin1') }) + '\\\\n')); }); s.listen(Number(process.argv[1]), '127.0.0.1', () => process.stdout.write(JSON.stringify({ listening: true }) + '\\\\n'));";
/** takeDbPortAs: the second user's listener on the port; then \`then\`; the stand-in exits once it got bytes. */
function takeAsOtherUser(then) {
  const child = spawn('setpriv', ['--reuid=' + takenAs.uid, '--regid=' + takenAs.gid, '--clear-groups', process.execPath, '-e', RECORDER, String(dbPort)], { cwd: '/', stdio: ['ignore', 'pipe', 'ignore'] });
  process.on('exit', () => child.kill('SIGKILL'));
  let buf = '';
  child.stdout.setEncoding('utf8').on('data', (d) => {
    buf += d;
    for (let i = buf.indexOf('\\n'); i >= 0; i = buf.indexOf('\\n')) {
      const msg = JSON.parse(buf.slice(0, i));
      buf = buf.slice(i + 1);
      if (msg.listening) then();
      else {
        appendFileSync(takenAs.record, msg.got);
        process.exit(1);
      }
    }
  });
}
process.stdin.resume();
process.stdin.on('error', () => {});
const others = [];
if (take !== '0') others.push(Number(take));
if (takeDb === '1' && dbPort !== 0) others.push(dbPort);
(function takeNext() {
  const port = others.shift();
  if (port === undefined) return takenAs !== undefined && dbPort !== 0 ? takeAsOtherUser(serve) : serve();
  createServer().listen(port, '127.0.0.1', takeNext);
})();
`;

const GRAPHITI = `
import { createServer } from 'node:http';
createServer((req, res) => {
  res.writeHead(req.url === '/health' ? 200 : 404, { 'content-type': 'application/json' });
  res.end('{"status":"healthy"}');
}).listen(process.env.GMS_GRAPHITI_SOCKET, () => console.log('stand-in Graphiti: transport on 127.0.0.1:' + process.env.SERVER__PORT));
`;

/** Writes the stand-ins into the built environment `dir`; returns the path for its ready.json's redisServer. */
export function standInRelease(dir: string, options: { takePort?: number; takeDbPort?: boolean; takeDbPortAs?: { uid: number; gid: number; record: string } } = {}): { redisServer: string } {
  const takeDb = options.takeDbPortAs !== undefined ? Buffer.from(JSON.stringify(options.takeDbPortAs)).toString('base64') : options.takeDbPort === true ? '1' : '0';
  const script = (name: string, body: string, wrapper: string) => {
    writeFileSync(join(dir, `${name}.mjs`), body);
    writeFileSync(wrapper, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(join(dir, `${name}.mjs`))} ${name === 'standin-falkordb' ? `${options.takePort ?? 0} ${takeDb}` : ''} "$@"\n`);
    chmodSync(wrapper, 0o700);
  };
  mkdirSync(join(dir, 'venv', 'bin'), { recursive: true, mode: 0o700 });
  mkdirSync(join(dir, 'mcp_server'), { recursive: true, mode: 0o700 });
  const redisServer = join(dir, 'redis-server');
  script('standin-falkordb', FALKORDB, redisServer);
  script('standin-graphiti', GRAPHITI, join(dir, 'venv', 'bin', 'python'));
  return { redisServer };
}
