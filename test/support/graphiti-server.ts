/**
 * A Graphiti-shaped MCP test server (Graphiti MCP 1.0.2 on python mcp 1.26 by
 * default) built on the official SDK server classes:
 *
 * - `Server` (low-level, `@modelcontextprotocol/sdk/server/index.js`) per session,
 *   with `setRequestHandler` for initialize / tools/list / tools/call so the
 *   result shapes are exactly FastMCP's (graphiti/tools.ts);
 * - `WebStandardStreamableHTTPServerTransport` for Streamable HTTP. It is the
 *   core that the SDK's Node `StreamableHTTPServerTransport` merely wraps with
 *   @hono/node-server; using it directly hands us a `Response` whose SSE body we
 *   re-frame (CRLF, ping comments) before writing it to node:http (graphiti/framing.ts);
 * - `SSEServerTransport` for the legacy HTTP+SSE transport (`GET /sse`,
 *   `POST /messages/?session_id=…`, graphiti/legacy-sse.ts).
 *
 * Everything FastMCP does differently from the TS SDK (error bodies with
 * `"id":"server-error"`, 404 vs legacy 400 session errors, 307 slash redirects,
 * 421 Host check, session-id format, ...) is done by the node:http router in
 * front of the transports (graphiti/router.ts). Each deviation from the default
 * is a switch in `GraphitiServerOptions` (graphiti/options.ts); injected faults
 * and quirks are graphiti/faults.ts; the graph and its ingestion queue are
 * graphiti/store.ts. Reference: /work/shared/reference/graphiti-mcp-server.md.
 *
 * Served on 127.0.0.1 only. The library never writes to stdout/stderr.
 * This file is the entry point tests, benchmarks and scripts import.
 */
import type { GraphitiTestServer } from './graphiti/api.js';
import type { GraphitiServerOptions } from './graphiti/options.js';
import { GraphitiServerImpl } from './graphiti/server.js';

export type { GraphitiTestServer, HttpLog, ToolCallLog } from './graphiti/api.js';
export type { FaultKind, FaultOptions, GraphitiServerOptions } from './graphiti/options.js';
export type { FailureLog, ProcessedLog, StoredEpisode, StoredFact, StoredNode } from './graphiti/records.js';

/** Starts the server on 127.0.0.1 (`port` 0 or absent = random free port). */
export async function startGraphitiServer(options: GraphitiServerOptions & { port?: number } = {}): Promise<GraphitiTestServer> {
  const { port = 0, ...rest } = options;
  const server = new GraphitiServerImpl(rest, port);
  await server.start();
  return server;
}
