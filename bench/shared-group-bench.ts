/**
 * Issue 10: what confirming costs in a shared group. One changed file among our 20 in a group that
 * holds 1,000 / 10,000 / 50,000 episodes of other clients, against the test server (in this
 * process, answering at once). Per sync run: get_episodes requests, bytes of their replies (counted
 * on the wire by a loopback proxy) and wall time, beside a run with no change, which must not list
 * at all. The first run of a new state (was it lost?) lists the whole group, growing its cap; later
 * runs use the size it remembered.
 */
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildConfig } from '../src/lib/config/config.js';
import { runSync } from '../src/lib/sync/sync.js';
import { startGraphitiServer } from '../test/support/graphiti-server.js';
import { isolatedEnv } from '../test/support/isolated-env.js';
import { makeTempDirSync } from '../test/support/temp-dir.js';
import type { Row } from './util.js';

const SIZES = (process.env.BENCH_SHARED_SIZES ?? '1000,10000,50000').split(',').map(Number);
const OURS = 20;

/** Forwards to the server and counts the reply bytes of each get_episodes call. */
async function countingProxy(target: URL): Promise<{ url: string; listedBytes: () => number; listRequests: () => number; close: () => Promise<void> }> {
  let bytes = 0;
  let requests = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const isListing = body.includes('"get_episodes"');
      if (isListing) requests++;
      const out = request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: { ...req.headers, host: target.host } }, (up: IncomingMessage) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.on('data', (c: Buffer) => {
          if (isListing) bytes += c.length;
          res.write(c);
        });
        up.on('end', () => res.end());
      });
      out.on('error', () => res.destroy());
      out.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${target.pathname}`,
    listedBytes: () => bytes,
    listRequests: () => requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function note(i: number, version: string): string {
  return `---\ncapture_type: LEARNING\ntimestamp: 2026-01-04 10:30:00 PST\n---\n# Note ${i}\n\n${version} A learning about item ${i}. ${'Some realistic text. '.repeat(10)}\n`;
}

export async function benchSharedGroup(): Promise<Row[]> {
  const rows: Row[] = [];
  for (const foreign of SIZES) {
    const server = await startGraphitiServer({ processingDelayMs: 0, logLimit: 1000 });
    const proxy = await countingProxy(new URL(server.url));
    const { dir, cleanup } = makeTempDirSync('gms-bench-shared-');
    try {
      const base = Date.parse('2026-01-01T00:00:00Z');
      for (let i = 0; i < foreign; i++) {
        server.seedEpisode({ name: `Foreign ${i}`, content: `Knowledge someone else added, number ${i}. ${'Words of a real note. '.repeat(8)}`, source_description: 'PAI Knowledge skill', created_at: new Date(base + i * 1000).toISOString(), group_id: 'main' });
      }
      const write = (i: number, version: string) => {
        const d = join(dir, 'pai', 'MEMORY', 'LEARNING', 'SYSTEM');
        mkdirSync(d, { recursive: true });
        writeFileSync(join(d, `note-${i}.md`), note(i, version));
      };
      for (let i = 0; i < OURS; i++) write(i, 'v1');
      const config = buildConfig(isolatedEnv(dir, proxy.url, { MADEINOZ_KNOWLEDGE_TIMEOUT: '120000' }));
      let clock = Date.now();
      const now = () => clock;
      const measure = async (name: string, baseline?: number) => {
        const b0 = proxy.listedBytes();
        const r0 = proxy.listRequests();
        const t0 = performance.now();
        await runSync(config, { now });
        const ms = performance.now() - t0;
        await server.whenIdle();
        clock += 60_000;
        const requests = proxy.listRequests() - r0;
        const mb = (proxy.listedBytes() - b0) / 1e6;
        rows.push({ name: `${foreign.toLocaleString('en-US')} foreign: ${name}`, value: ms, unit: 'ms', baseline, baselineName: 'no-change run', note: `get_episodes ×${requests}, ${mb.toFixed(2)} MB listed` });
        return ms;
      };
      await measure('first run, new state (sends 20)');
      await measure('next run (confirms 20)');
      const idle = await measure('no-change run');
      write(0, 'v2');
      await measure('one file changed (sends it)', idle);
      await measure('next run (confirms it)', idle);
      await measure('no-change run again', idle);
    } finally {
      await proxy.close();
      await server.close();
      cleanup();
    }
  }
  return rows;
}
