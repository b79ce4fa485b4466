/**
 * Conformance-suite client: `npx tsx test/conformance/client.ts <server-url>`.
 *
 * @modelcontextprotocol/conformance starts a mock server per scenario, runs this with
 * the server URL as the last argument and MCP_CONFORMANCE_SCENARIO set, then grades
 * what the server saw. We do what each scenario asks with OUR client.
 * Exit 0 on success, 1 on failure (errors on stderr).
 */
import { McpClient, type ToolInfo } from '../../src/lib/mcp/client.js';

const url = process.argv[process.argv.length - 1];
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';

/** Arguments for a tool from its input schema: numbers get 5, 3, ...; strings "test"; booleans true. */
function argumentsFor(tool: ToolInfo): Record<string, unknown> {
  if (tool.name === 'add_numbers') return { a: 5, b: 3 };
  const args: Record<string, unknown> = {};
  const properties = tool.inputSchema.properties ?? {};
  const required = new Set(tool.inputSchema.required ?? []);
  const numbers = [5, 3];
  for (const [name, schema] of Object.entries(properties)) {
    if (!required.has(name)) continue;
    const type = (schema as { type?: unknown }).type;
    if (type === 'number' || type === 'integer') args[name] = numbers.shift() ?? 1;
    else if (type === 'boolean') args[name] = true;
    else if (type === 'array') args[name] = [];
    else if (type === 'object') args[name] = {};
    else args[name] = 'test';
  }
  return args;
}

async function main(): Promise<void> {
  if (!url || !/^https?:\/\//.test(url)) throw new Error(`usage: client.ts <server-url> (got ${String(url)})`);
  const client = new McpClient({
    url,
    transport: 'streamable-http',
    timeoutMs: 20_000,
    clientInfo: { name: 'graphiti-memory-sync-conformance', version: '0.1.0' },
  });
  try {
    await client.connect();
    switch (scenario) {
      case 'initialize':
        break;
      case 'tools_call': {
        const tools = await client.listTools();
        const tool = tools.find((t) => t.name === 'add_numbers') ?? tools[0];
        if (!tool) throw new Error('the server lists no tools');
        const result = await client.callTool(tool.name, argumentsFor(tool));
        if (result.isError) throw new Error(`tool ${tool.name} failed: ${JSON.stringify(result.content)}`);
        break;
      }
      case 'sse-retry': {
        const tools = await client.listTools();
        const tool = tools[0];
        if (!tool) throw new Error('the server lists no tools');
        const result = await client.callTool(tool.name, argumentsFor(tool));
        if (result.isError) throw new Error(`tool ${tool.name} failed: ${JSON.stringify(result.content)}`);
        break;
      }
      default:
        await client.listTools();
    }
  } finally {
    await client.close();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`conformance client failed (${scenario}): ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
