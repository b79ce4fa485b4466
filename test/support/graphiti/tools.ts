/**
 * The MCP side of one session: an SDK `Server` whose initialize / tools/list / tools/call handlers
 * answer exactly as FastMCP does, and the tools/call path that logs the call, applies the tool-level
 * faults (queue error, startup errors, dropped episode) and runs the tool body on the store.
 * The nine tools themselves (schemas, argument checks, bodies) are tool-catalog.ts, tool-arguments.ts
 * and tool-bodies.ts.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  InitializeRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { ToolCallLog } from './api.js';
import type { ServerCore } from './core.js';
import type { Session } from './sessions.js';
import { validateArguments } from './tool-arguments.js';
import { errorResult, executeTool, toCallToolResult, type ToolCallResult } from './tool-bodies.js';
import { findTool, listTools } from './tool-catalog.js';

const INSTRUCTIONS = `Graphiti is a memory service for AI agents built on a knowledge graph. Graphiti performs well
with dynamic data such as user interactions, changing enterprise data, and external information.

Graphiti transforms information into a richly connected knowledge network, allowing you to
capture relationships between concepts, entities, and information. The system organizes data as episodes
(content snippets), nodes (entities), and facts (relationships between entities), creating a dynamic,
queryable memory store that evolves with new information. Graphiti supports multiple data formats, including
structured JSON data, enabling seamless integration with existing data pipelines and systems.

Facts contain temporal metadata, allowing you to track the time of creation and whether a fact is invalid
(superseded by new information).

Key capabilities:
1. Add episodes (text, messages, or JSON) to the knowledge graph with the add_memory tool
2. Search for nodes (entities) in the graph using natural language queries with search_nodes
3. Find relevant facts (relationships between entities) with search_facts
4. Retrieve specific entity edges or episodes by UUID
5. Manage the knowledge graph with tools like delete_episode, delete_entity_edge, and clear_graph

The server connects to a database for persistent storage and uses language models for certain operations.
Each piece of information is organized by group_id, allowing you to maintain separate knowledge domains.

When adding information, provide descriptive names and detailed content to improve search quality.
When searching, use specific queries and consider filtering by group_id for more relevant results.

For optimal performance, ensure the database is properly configured and accessible, and valid
API keys are provided for any language model operations.`;

const CAPABILITIES = {
  experimental: {},
  prompts: { listChanged: false },
  resources: { subscribe: false, listChanged: false },
  tools: { listChanged: false },
};

/** One shared validator: building Ajv per session would cost milliseconds per initialize. */
const SHARED_VALIDATOR = new AjvJsonSchemaValidator();

export function createMcpServer(core: ServerCore, session: Session): Server {
  const version = core.opts.serverVersion ?? (core.opts.oldServer ? '1.9.4' : '1.26.0');
  const server = new Server(
    { name: 'Graphiti Agent Memory', version },
    { capabilities: CAPABILITIES, instructions: INSTRUCTIONS, jsonSchemaValidator: SHARED_VALIDATOR },
  );
  server.setRequestHandler(InitializeRequestSchema, (request) => {
    const supported = core.supportedVersions();
    const requested = request.params.protocolVersion;
    return {
      protocolVersion: supported.includes(requested) ? requested : supported[supported.length - 1]!,
      capabilities: CAPABILITIES,
      serverInfo: { name: 'Graphiti Agent Memory', version },
      instructions: INSTRUCTIONS,
    };
  });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listTools(core.toolConfig()) }));
  server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
    heldInFlight(core, request.params.name, () => callTool(core, session, request.params.name, (request.params.arguments ?? {}) as Record<string, unknown>, extra.requestId)),
  );
  server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: [] }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: [] }));
  server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: [] }));
  return server;
}

/** An add_memory the server takes in another order than it arrived (in-flight-order.ts) waits its turn; anything else is handled at once. */
function heldInFlight(core: ServerCore, name: string, handle: () => ToolCallResult): ToolCallResult | Promise<ToolCallResult> {
  const turn = name === 'add_memory' || name === 'add_episode' ? core.reorder.turn() : undefined;
  return turn === undefined ? handle() : turn.then(handle);
}

function callTool(core: ServerCore, session: Session, name: string, args: Record<string, unknown>, rpcId: string | number): ToolCallResult {
  const entry = core.logCall({ at: Date.now(), tool: name, args, sessionId: session.id, rpcId, outcome: 'pending' });
  const finish = (result: ToolCallResult, outcome: ToolCallLog['outcome'], payload: unknown): ToolCallResult => {
    entry.outcome = outcome;
    entry.result = payload;
    core.events.emit('call', entry);
    return result;
  };
  const cfg = core.toolConfig();
  const tool = findTool(name, cfg);
  if (!tool) return finish(errorResult(`Unknown tool: ${name}`), 'error', `Unknown tool: ${name}`);
  const v = validateArguments(tool, args);
  if (!v.ok) return finish(errorResult(v.message), 'error', v.message);
  if (tool.spec.name === 'add_memory' && core.faults.takeQueueError()) {
    const payload = { error: 'Error queuing episode: injected failure' };
    return finish(toCallToolResult(tool.spec.name, payload, cfg.structuredContent), 'error', payload);
  }
  let dropped = false;
  const o = core.opts;
  const payload = executeTool(tool.spec.name, v.args, {
    store: core.store,
    groupId: o.groupId,
    db: o.db,
    deleteMode: o.deleteMode,
    mainParams: o.mainParams,
    graphPerGroup: o.graphPerGroup,
    lastWrittenGroup: o.lastWrittenGroup && o.db === 'falkordb' && !o.graphPerGroup,
    statusError: o.statusError,
    takeStartupError: () => core.faults.takeStartupError(),
    decideDrop: (episodeName) => (dropped = core.faults.decideDrop(core.opts, episodeName)),
    searchError: core.opts.faults.searchError,
  });
  const isDomainError = 'error' in payload || (tool.spec.name === 'get_status' && payload.status === 'error');
  return finish(toCallToolResult(tool.spec.name, payload, cfg.structuredContent), dropped ? 'drop' : isDomainError ? 'error' : 'ok', payload);
}
