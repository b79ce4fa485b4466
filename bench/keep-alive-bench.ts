/**
 * What IDLE_REUSE (util/keep-alive.ts) costs: a request after a pause of IDLE_REUSE_MS or more
 * opens a new connection instead of using the kept one. Measured on 127.0.0.1 against a Node
 * server, plain HTTP and TLS 1.3 (a throw-away self-signed certificate from `openssl`; skipped
 * without it), as the wall time of one request and the client's CPU time for it. The pause is an
 * injected clock (no real waiting). A remote server adds its round trips on top: one for TCP, one
 * more for TLS 1.3 (Node's agent resumes TLS sessions, which saves work, not the round trip).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { idleLimitedAgent, IDLE_REUSE_MS } from '../src/lib/util/keep-alive.js';
import { median, type Row } from './util.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 300);

type Get = (agent: http.Agent) => Promise<number>;

function getter(mod: typeof http | typeof https, url: string, ca?: Buffer): Get {
  return (agent) =>
    new Promise((resolve, reject) => {
      const t0 = performance.now();
      const req = mod.request(url, { agent, ...(ca === undefined ? {} : { ca }) }, (res) => {
        res.resume();
        res.once('end', () => resolve(performance.now() - t0));
      });
      req.once('error', reject);
      req.end();
    });
}

/** Wall ms and client CPU ms per request: the connection kept, then a new one each time (the clock moved past the limit). */
async function measure(get: Get, Base: typeof http.Agent): Promise<{ kept: number; fresh: number; keptCpu: number; freshCpu: number }> {
  let clock = 0;
  const kept = idleLimitedAgent(Base, { now: () => 0 });
  const fresh = idleLimitedAgent(Base, { now: () => clock });
  try {
    await get(kept.take());
    await get(fresh.take());
    const keptMs: number[] = [];
    const freshMs: number[] = [];
    let keptCpu = 0;
    let freshCpu = 0;
    for (let i = 0; i < RUNS; i++) {
      let cpu = process.cpuUsage();
      keptMs.push(await get(kept.take()));
      cpu = process.cpuUsage(cpu);
      keptCpu += cpu.user + cpu.system;
      clock += IDLE_REUSE_MS;
      cpu = process.cpuUsage();
      freshMs.push(await get(fresh.take()));
      cpu = process.cpuUsage(cpu);
      freshCpu += cpu.user + cpu.system;
    }
    return { kept: median(keptMs), fresh: median(freshMs), keptCpu: keptCpu / RUNS / 1000, freshCpu: freshCpu / RUNS / 1000 };
  } finally {
    kept.agent.destroy();
    fresh.agent.destroy();
  }
}

function rows(label: string, m: Awaited<ReturnType<typeof measure>>): Row[] {
  return [
    { name: `${label}: request on a new connection (wall, median)`, value: m.fresh, unit: 'ms', baseline: m.kept, baselineName: 'kept connection' },
    { name: `${label}: client CPU per request on a new connection`, value: m.freshCpu, unit: 'ms', baseline: m.keptCpu, baselineName: 'kept connection' },
  ];
}

function listen(server: http.Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

export async function benchKeepAlive(): Promise<Row[]> {
  const out: Row[] = [];
  const plain = http.createServer((_req, res) => res.end('{"status":"healthy"}'));
  try {
    out.push(...rows('HTTP 127.0.0.1', await measure(getter(http, `http://127.0.0.1:${await listen(plain)}/`), http.Agent)));
  } finally {
    plain.close();
  }
  const dir = mkdtempSync(join(tmpdir(), 'gms-bench-tls-'));
  try {
    const made = spawnSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' });
    if (made.status !== 0) {
      out.push({ name: 'TLS 127.0.0.1', value: 0, unit: 'ms', note: 'skipped: no openssl to make a certificate' });
      return out;
    }
    const cert = readFileSync(join(dir, 'cert.pem'));
    const tls = https.createServer({ key: readFileSync(join(dir, 'key.pem')), cert }, (_req, res) => res.end('{"status":"healthy"}'));
    try {
      out.push(...rows('TLS 1.3 127.0.0.1', await measure(getter(https, `https://127.0.0.1:${await listen(tls)}/`, cert), https.Agent)));
    } finally {
      tls.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return out;
}
