/**
 * The JSON control API under `/__control/…` (option `control`), for a test server run as its own
 * process (graphiti-server-main.ts): every method of the test handle, over HTTP.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GraphitiTestServer } from './api.js';
import { readBody, sendJson } from './framing.js';
import type { FaultKind, GraphitiServerOptions } from './options.js';
import type { StoredEpisode, StoredFact, StoredNode } from './records.js';

export async function handleControl(server: GraphitiTestServer, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const route = `${req.method ?? 'GET'} ${url.pathname.slice('/__control'.length)}`;
  const group = url.searchParams.get('group') ?? undefined;
  const readJson = async (): Promise<Record<string, unknown>> => {
    const raw = (await readBody(req)).toString('utf8').trim();
    return raw === '' ? {} : (JSON.parse(raw) as Record<string, unknown>);
  };
  try {
    switch (route) {
      case 'GET /episodes':
        return sendJson(res, 200, server.episodes(group));
      case 'GET /facts':
        return sendJson(res, 200, server.facts(group));
      case 'GET /nodes':
        return sendJson(res, 200, server.nodes(group));
      case 'GET /calls':
        return sendJson(res, 200, server.calls);
      case 'GET /http':
        return sendJson(res, 200, server.http);
      case 'GET /failures':
        return sendJson(res, 200, server.failures);
      case 'GET /processed':
        return sendJson(res, 200, server.processed);
      case 'GET /idle':
        await server.whenIdle();
        return sendJson(res, 200, { idle: true });
      case 'GET /state':
        return sendJson(res, 200, { options: server.options, sessions: server.sessionIds(), pendingEpisodes: server.pendingEpisodes, port: server.port });
      case 'POST /options':
        server.setOptions((await readJson()) as Partial<GraphitiServerOptions>);
        return sendJson(res, 200, { ok: true, options: server.options });
      case 'POST /pause':
        server.pauseProcessing();
        return sendJson(res, 200, { ok: true });
      case 'POST /resume':
        server.resumeProcessing();
        return sendJson(res, 200, { ok: true });
      case 'POST /restart':
        await server.restart();
        return sendJson(res, 200, { ok: true });
      case 'POST /fail-next': {
        const b = await readJson();
        server.failNext(b.kind as FaultKind, typeof b.count === 'number' ? b.count : 1);
        return sendJson(res, 200, { ok: true });
      }
      case 'POST /seed-fact':
        return sendJson(res, 200, server.seedFact((await readJson()) as Partial<StoredFact> & { fact: string }));
      case 'POST /seed-node':
        return sendJson(res, 200, server.seedNode((await readJson()) as Partial<StoredNode> & { name: string }));
      case 'POST /seed-episode':
        return sendJson(res, 200, server.seedEpisode((await readJson()) as Partial<StoredEpisode> & { name: string; content: string }));
      case 'POST /drop-sse-streams':
        return sendJson(res, 200, { dropped: server.dropSseStreams() });
      case 'POST /clear-logs':
        server.clearLogs();
        return sendJson(res, 200, { ok: true });
      default:
        return sendJson(res, 404, { error: `unknown control route: ${route}` });
    }
  } catch (e) {
    return sendJson(res, 400, { error: (e as Error).message });
  }
}
