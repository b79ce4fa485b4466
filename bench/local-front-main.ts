/**
 * The local server as `server start` wires it, for benchmarks, in a process of its own (so that
 * serving does not share a core or an event loop with the client measured): the real
 * token-checking front (server/mcp-front.ts) on 127.0.0.1, before the Graphiti test server
 * (processing at once) reached through a Unix socket in a 0700 folder.
 *
 *   node --import tsx bench/local-front-main.ts <state dir> server run
 *
 * The token goes to `<state dir>/server/mcp.token` (0600); prints one JSON line once listening:
 * {"port":<front's port>,"pid":<this process>}. The trailing `server run` is the supervisor's mark
 * (config/server-runtime.ts COMMAND_MARKS), so a runtime file naming this process counts as ours.
 * Exits when stdin closes (spawn it with stdin 'pipe': it dies with its parent).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mcpTokenPath } from '../src/lib/config/server-runtime.js';
import { startMcpFront } from '../src/lib/server/mcp-front.js';
import { newSecretFile } from '../src/lib/server/private-files.js';
import { startGraphitiServer } from '../test/support/graphiti-server.js';

const stateDir = process.argv[2] as string;
mkdirSync(join(stateDir, 'server'), { recursive: true, mode: 0o700 });
const run = mkdtempSync(join(tmpdir(), 'gms-bench-front-'));
const graphiti = await startGraphitiServer({ processingDelayMs: 0 });
const socketPath = join(run, 'graphiti.sock');
const relay = createServer((socket) => socket.pipe(connect(graphiti.port, '127.0.0.1')).pipe(socket));
await new Promise<void>((r) => relay.listen(socketPath, () => r()));
const front = await startMcpFront({ port: 0, socketPath, token: newSecretFile(mcpTokenPath(stateDir)) });
process.stdout.write(`${JSON.stringify({ port: front.port, pid: process.pid })}\n`);

const shutdown = () => {
  void Promise.all([front.close(), graphiti.close(), new Promise((r) => relay.close(r))]).finally(() => {
    rmSync(run, { recursive: true, force: true });
    process.exit(0);
  });
};
process.stdin.on('close', shutdown);
process.stdin.resume();
