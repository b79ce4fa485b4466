/**
 * Another program's MCP server (not Graphiti) on a given loopback port: what a user's own FastMCP
 * project serves when it takes Graphiti's address (both default to port 8000 and /mcp). Built with
 * the MCP SDK, Streamable HTTP, the tools it is given (each answers "ok").
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

export interface OtherMcpServer {
  /** Tool calls it received, by name. */
  calls: string[];
  close(): Promise<void>;
}

export async function startOtherMcpServer(port: number, tools: readonly string[]): Promise<OtherMcpServer> {
  const calls: string[] = [];
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const http: Server = createServer((req, res) => {
    void (async () => {
      const id = req.headers['mcp-session-id'];
      let transport = typeof id === 'string' ? sessions.get(id) : undefined;
      if (transport === undefined) {
        const created = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (session) => void sessions.set(session, created) });
        const mcp = new McpServer({ name: 'another-project', version: '1.0.0' });
        for (const name of tools) {
          mcp.registerTool(name, { description: `${name} of another project` }, async () => {
            calls.push(name);
            return { content: [{ type: 'text', text: 'ok' }] };
          });
        }
        await mcp.connect(created);
        transport = created;
      }
      await transport.handleRequest(req, res);
    })().catch(() => res.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
