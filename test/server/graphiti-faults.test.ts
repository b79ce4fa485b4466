/**
 * Fault injection of the test server: deterministic with a seed, one-shot
 * failNext, and each fault's wire behaviour (503, 429 + Retry-After, reset,
 * session loss, hang cleaned up on close, latency). Never on /health.
 */
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { GraphitiServerOptions, GraphitiTestServer, ToolCallLog } from '../support/graphiti-server.js';
import { RawSession, rawRequest } from '../helpers/raw-mcp.js';
import { useGraphitiServer } from '../helpers/use-graphiti-server.js';

const startServer = useGraphitiServer();
async function start(o: GraphitiServerOptions = {}): Promise<{ srv: GraphitiTestServer; s: RawSession }> {
  const srv = await startServer(o);
  return { srv, s: await RawSession.open(srv.url) };
}

const statusCall = { name: 'get_status', arguments: {} };

describe('seeded faults', () => {
  it('rate503/rate429 with a seed give the same sequence every run', async () => {
    const run = async () => {
      const { srv, s } = await start({ faults: { rate503: 0.2, rate429: 0.2, seed: 42 } });
      const statuses: number[] = [];
      for (let i = 0; i < 40; i += 1) statuses.push((await s.rpc('tools/call', statusCall)).res.status);
      const outcomes = srv.calls.map((c) => c.outcome);
      await srv.close();
      return { statuses, outcomes };
    };
    const a = await run();
    const b = await run();
    expect(a).toEqual(b);
    const n503 = a.statuses.filter((x) => x === 503).length;
    const n429 = a.statuses.filter((x) => x === 429).length;
    expect(n503).toBeGreaterThan(0);
    expect(n429).toBeGreaterThan(0);
    expect(n503 + n429 + a.statuses.filter((x) => x === 200).length).toBe(40);
    expect(a.outcomes.filter((o) => o === 'http503').length).toBe(n503);
    expect(a.outcomes.filter((o) => o === 'ok').length).toBe(40 - n503 - n429);
  });

  it('faults only hit tools/call by default; methods:["*"] hits initialize too; never /health', async () => {
    const { srv, s } = await start({ faults: { rate503: 1 } });
    expect((await s.rpc('tools/list')).res.status).toBe(200);
    expect((await s.rpc('tools/call', statusCall)).res.status).toBe(503);
    expect((await rawRequest(`http://127.0.0.1:${srv.port}/health`, 'GET')).status).toBe(200);
    srv.setOptions({ faults: { rate503: 1, methods: ['*'] } });
    await expect(RawSession.open(srv.url)).rejects.toThrow(/HTTP 503/);
  });
});

describe('the fault schedule counted by requests', () => {
  it('faultScheduleMet counts the eligible requests the seeded schedule met (work, not time), whenFaultScheduleMet waits for them, new faults start over', async () => {
    const { srv, s } = await start({ faults: { rate503: 0.25, seed: 7 } });
    const reached = srv.whenFaultScheduleMet(20);
    let settled = false;
    void reached.then(() => (settled = true));
    expect((await s.rpc('tools/list')).res.status).toBe(200); // not eligible: tools/call only
    for (let i = 0; i < 19; i += 1) await s.rpc('tools/call', statusCall);
    expect(srv.faultScheduleMet).toBe(19);
    expect(settled).toBe(false);
    await s.rpc('tools/call', statusCall);
    await reached;
    expect(srv.faultScheduleMet).toBe(20);
    // Faults off (empty options) leave the schedule counting from zero; counting never depends on the rates.
    srv.setOptions({ faults: {} });
    expect(srv.faultScheduleMet).toBe(0);
    await s.rpc('tools/call', statusCall);
    expect(srv.faultScheduleMet).toBe(1);
    await expect(srv.whenFaultScheduleMet(1)).resolves.toBeUndefined();
  });
});

describe('each fault', () => {
  it('429 carries Retry-After', async () => {
    const { srv, s } = await start({ faults: { retryAfterSeconds: 7 } });
    srv.failNext('http429');
    const { res } = await s.rpc('tools/call', statusCall);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('7');
    expect(srv.http.at(-1)).toMatchObject({ status: 429, fault: 'http429', rpcMethod: 'tools/call' });
  });

  it('failNext(kind, count) is consumed in order before random faults', async () => {
    const { srv, s } = await start();
    srv.failNext('http503', 2);
    srv.failNext('http429');
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) statuses.push((await s.rpc('tools/call', statusCall)).res.status);
    expect(statuses).toEqual([503, 503, 429, 200]);
  });

  it('reset: the socket is destroyed without a response', async () => {
    const { srv, s } = await start();
    srv.failNext('reset');
    await expect(s.rpc('tools/call', statusCall)).rejects.toThrow(/fetch failed|terminated|socket/i);
    expect(srv.http.at(-1)).toMatchObject({ status: 0, fault: 'reset' });
    expect((await s.rpc('tools/call', statusCall)).res.status).toBe(200);
  });

  it('sessionLoss: 404 and the session is gone (legacy: 400)', async () => {
    const { srv, s } = await start();
    srv.failNext('sessionLoss');
    const { res } = await s.rpc('tools/call', statusCall);
    expect(res.status).toBe(404);
    expect(JSON.parse(res.text).error.message).toBe('Session not found');
    expect(srv.sessionIds()).not.toContain(s.sessionId);
    expect((await s.rpc('tools/list')).res.status).toBe(404);
    srv.setOptions({ legacySessionErrors: true });
    const s2 = await RawSession.open(srv.url);
    srv.failNext('sessionLoss');
    expect((await s2.rpc('tools/call', statusCall)).res).toMatchObject({ status: 400, text: 'Bad Request: No valid session ID provided' });
  });

  it('hang: never answered; the client can abort; close() cleans up hung requests', async () => {
    const { srv, s } = await start();
    srv.failNext('hang', 2);
    const ac = new AbortController();
    const hungCall = once(srv.events, 'call') as Promise<[ToolCallLog]>;
    const aborted = s.rpc('tools/call', statusCall, { signal: ac.signal });
    const [entry] = await hungCall;
    expect(entry.outcome).toBe('hang');
    ac.abort();
    await expect(aborted).rejects.toThrow();

    const second = once(srv.events, 'call');
    const pending = s.rpc('tools/call', statusCall);
    await second;
    await srv.close();
    await expect(pending).rejects.toThrow();
  });

  it('latencyMs delays every POST', async () => {
    const { srv, s } = await start();
    srv.setOptions({ faults: { latencyMs: 120 } });
    const t0 = performance.now();
    await s.rpc('tools/list');
    expect(performance.now() - t0).toBeGreaterThanOrEqual(110);
  });
});
