/**
 * Is the server behind an address still the process we learnt its rules from? (graphiti/server-rules.ts)
 *
 * 0.31.1 and 0.31.2 have the same tools and the same `serverInfo`, so a server swapped behind the
 * same address (a docker tag rolled back, another release started on the same port) looks the same
 * from the outside. Every swap is a restart, and a restarted MCP server has forgotten its sessions.
 * So when the rules are learnt, one extra session is opened and left open (the "sentinel"); each
 * later run sends it a `ping`. Answered: the same process, the learnt rules still hold. Refused
 * (404 / 400 unknown session): the server restarted, perhaps as another build, so its rules are
 * unknown until learnt again. python mcp 2.x also closes a session idle for 30 minutes: then the
 * sentinel is lost without a restart, which costs a probe, never a wrong answer.
 *
 * Raw HTTP (one POST each), not our McpClient: that client re-initializes a lost session by
 * design, which is exactly what must not happen here. Streamable HTTP only (a legacy SSE session
 * lives as long as its stream, so it cannot outlive a run).
 */
import type { Config } from '../config/config.js';

export interface Sentinel {
  session: string;
  protocol: string;
}

type Endpoint = Pick<Config, 'mcpUrl' | 'headers' | 'authToken' | 'transport' | 'timeoutMs'>;

/**
 * How long python mcp 2.x keeps a session with no request in flight (DEFAULT_SESSION_IDLE_TIMEOUT
 * in mcp/server/streamable_http_manager.py, 1800 s): a sentinel lost at least this long after it
 * last answered may have been closed for idleness alone (server-rules.ts IDLE_LOSS_EXPLAINED).
 */
export const SESSION_IDLE_CLOSE_MS = 30 * 60_000;

/** The protocol version the sentinel speaks: one every server generation we know accepts. */
const SENTINEL_PROTOCOL = '2025-03-26';

function headers(config: Endpoint, sentinel?: Sentinel): Record<string, string> {
  return {
    ...config.headers,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    ...(config.authToken === undefined ? {} : { authorization: `Bearer ${config.authToken}` }),
    ...(sentinel === undefined ? {} : { 'mcp-session-id': sentinel.session, 'mcp-protocol-version': sentinel.protocol }),
  };
}

async function post(config: Endpoint, body: unknown, sentinel: Sentinel | undefined, signal: AbortSignal | undefined): Promise<Response> {
  const timeout = AbortSignal.timeout(Math.min(config.timeoutMs, 10_000));
  const response = await fetch(config.mcpUrl, { method: 'POST', headers: headers(config, sentinel), body: JSON.stringify(body), redirect: 'error', signal: signal === undefined ? timeout : AbortSignal.any([signal, timeout]) });
  await response.text().catch(() => ''); // the reply of one request: its stream ends after it
  return response;
}

/** Opens the sentinel session (initialize, then `initialized`); undefined where it cannot be kept. */
export async function openSentinel(config: Endpoint, signal?: AbortSignal): Promise<Sentinel | undefined> {
  if (config.transport === 'sse') return undefined;
  try {
    const init = await post(config, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: SENTINEL_PROTOCOL, capabilities: {}, clientInfo: { name: 'graphiti-memory-sync-sentinel', version: '1' } } }, undefined, signal);
    const session = init.headers.get('mcp-session-id');
    if (!init.ok || session === null || session === '') return undefined;
    const sentinel = { session, protocol: SENTINEL_PROTOCOL };
    const done = await post(config, { jsonrpc: '2.0', method: 'notifications/initialized' }, sentinel, signal);
    return done.ok ? sentinel : undefined;
  } catch {
    return undefined;
  }
}

/** The sentinel session still answers: the server has not restarted since it was opened. */
export async function sentinelAlive(config: Endpoint, sentinel: Sentinel, signal?: AbortSignal): Promise<boolean> {
  if (config.transport === 'sse') return false;
  try {
    return (await post(config, { jsonrpc: '2.0', id: 2, method: 'ping' }, sentinel, signal)).ok;
  } catch {
    return false;
  }
}
