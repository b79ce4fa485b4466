/**
 * Issue 2: our MCP client vs the official SDK client — cold import time in a fresh process,
 * and the wall time of one initialize + tools/call round trip against the test server.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpClient } from '../src/lib/mcp/client.js';
import { startGraphitiServer } from '../test/support/graphiti-server.js';
import { ensureBuilt, median, ROOT, timeProcess, type Row } from './util.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 15);

function importTime(specifier: string): number {
  return timeProcess(process.execPath, ['--input-type=module', '-e', `await import(${JSON.stringify(specifier)})`], RUNS);
}

export async function benchClient(): Promise<Row[]> {
  ensureBuilt();
  const bare = timeProcess(process.execPath, ['-e', ''], RUNS);
  const ours = importTime(`${ROOT}dist/lib/mcp/client.js`);
  const sdk = importTime('@modelcontextprotocol/sdk/client/index.js').valueOf();
  const sdkBoth = timeProcess(
    process.execPath,
    ['--input-type=module', '-e', "await import('@modelcontextprotocol/sdk/client/index.js'); await import('@modelcontextprotocol/sdk/client/streamableHttp.js')"],
    RUNS,
  );

  const server = await startGraphitiServer({ processingDelayMs: 0 });
  const oursRt: number[] = [];
  const sdkRt: number[] = [];
  try {
    for (let i = 0; i <= RUNS; i++) {
      let t0 = performance.now();
      const c = new McpClient({ url: server.url });
      await c.connect();
      await c.callTool('get_status', {});
      const t1 = performance.now();
      await c.close();
      if (i > 0) oursRt.push(t1 - t0);

      t0 = performance.now();
      const sc = new Client({ name: 'bench', version: '0' });
      await sc.connect(new StreamableHTTPClientTransport(new URL(server.url)));
      await sc.callTool({ name: 'get_status', arguments: {} });
      const t2 = performance.now();
      await sc.close();
      if (i > 0) sdkRt.push(t2 - t0);
    }
  } finally {
    await server.close();
  }
  const sdkMedian = median(sdkRt);
  return [
    { name: 'bare node -e ""', value: bare, unit: 'ms' },
    { name: 'import our client (dist/lib/mcp/client.js)', value: ours, unit: 'ms', baseline: bare, baselineName: 'bare node', note: `+${(ours - bare).toFixed(0)} ms over bare node` },
    { name: 'import SDK client/index.js', value: sdk, unit: 'ms', baseline: bare, baselineName: 'bare node', note: `+${(sdk - bare).toFixed(0)} ms over bare node` },
    { name: 'import SDK index + streamableHttp', value: sdkBoth, unit: 'ms', baseline: bare, baselineName: 'bare node', note: `+${(sdkBoth - bare).toFixed(0)} ms; ours is ${((ours - bare) / Math.max(1, sdkBoth - bare)).toFixed(2)}x of the SDK's import cost` },
    { name: 'initialize + tools/call, our client', value: median(oursRt), unit: 'ms', baseline: sdkMedian, baselineName: 'SDK' },
    { name: 'initialize + tools/call, SDK client', value: sdkMedian, unit: 'ms' },
  ];
}
