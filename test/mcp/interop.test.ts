/**
 * Interop with the reference server @modelcontextprotocol/server-everything (built on
 * the official SDK), in both its Streamable HTTP and its legacy SSE mode. The server
 * runs as a child process on a free 127.0.0.1 port.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpClient } from '../../src/lib/mcp/client.js';
import { McpHttpError } from '../../src/lib/mcp/errors.js';
import { unusedPort } from '../helpers/ports.js';

const ENTRY = fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url));

interface Running {
  child: ChildProcess;
  port: number;
  output: () => string;
}

/** Starts server-everything and resolves once it says it is listening. */
async function startEverything(mode: 'streamableHttp' | 'sse'): Promise<Running> {
  const port = await unusedPort();
  const child = spawn(process.execPath, [ENTRY, mode], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server-everything ${mode} did not start:\n${output}`)), 20_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (/listening on port|running on port/i.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server-everything ${mode} exited with ${code}:\n${output}`));
    });
  });
  return { child, port, output: () => output };
}

async function stop(running: Running | undefined): Promise<void> {
  if (!running || running.child.exitCode !== null) return;
  const exited = new Promise<void>((resolve) => running.child.once('exit', () => resolve()));
  running.child.kill('SIGTERM');
  await exited;
}

describe('interop: server-everything streamableHttp', () => {
  let server: Running | undefined;
  beforeAll(async () => {
    server = await startEverything('streamableHttp');
  });
  afterAll(() => stop(server));

  it('initializes and calls echo', async () => {
    const client = new McpClient({ url: `http://127.0.0.1:${server!.port}/mcp`, timeoutMs: 10_000 });
    try {
      await client.connect();
      expect(client.transportKind).toBe('streamable-http');
      expect(client.protocolVersion).toBe('2025-11-25');
      expect(client.sessionId).toMatch(/^[0-9a-f-]{36}$/);
      expect(client.serverInfo?.name).toMatch(/everything/);
      const tools = await client.listTools();
      expect(tools.map((t) => t.name)).toContain('echo');
      const result = await client.callTool('echo', { message: 'hello interop' });
      expect(result.content[0]).toEqual({ type: 'text', text: 'Echo: hello interop' });
    } finally {
      await client.close();
    }
  });

  it('reads the result after progress notifications on the same stream', async () => {
    const client = new McpClient({ url: `http://127.0.0.1:${server!.port}/mcp`, timeoutMs: 10_000 });
    try {
      const result = (await client.request('tools/call', {
        name: 'trigger-long-running-operation',
        arguments: { duration: 0.3, steps: 3 },
        _meta: { progressToken: 'p-1' },
      })) as { content: Array<{ text: string }> };
      expect(result.content[0]!.text).toMatch(/Long running operation completed/);
    } finally {
      await client.close();
    }
  });

  it('reports a lost session (old-style 400) after re-initializing once', async () => {
    const client = new McpClient({ url: `http://127.0.0.1:${server!.port}/mcp`, timeoutMs: 10_000 });
    try {
      await client.connect();
      const first = client.sessionId;
      // Terminate the session behind the client's back: the server then answers 400
      // "No valid session ID provided" (not 404), which must also trigger re-initialization.
      await new Promise<void>((resolve, reject) => {
        const req = http.request(`http://127.0.0.1:${server!.port}/mcp`, {
          method: 'DELETE',
          headers: { 'mcp-session-id': first!, 'mcp-protocol-version': '2025-11-25' },
        });
        req.on('response', (res) => {
          res.resume();
          res.on('end', resolve);
        });
        req.on('error', reject);
        req.end();
      });
      const result = await client.callTool('echo', { message: 'after loss' });
      expect(result.content[0]!.text).toBe('Echo: after loss');
      expect(client.sessionId).not.toBe(first);
    } catch (error) {
      if (error instanceof McpHttpError) throw new Error(`${error.message}\n${server!.output()}`);
      throw error;
    } finally {
      await client.close();
    }
  });
});

describe('interop: server-everything sse (legacy HTTP+SSE)', () => {
  let server: Running | undefined;
  beforeAll(async () => {
    server = await startEverything('sse');
  });
  afterAll(() => stop(server));

  it("initializes and calls echo with transport 'sse'", async () => {
    const client = new McpClient({ url: `http://127.0.0.1:${server!.port}/sse`, transport: 'sse', timeoutMs: 10_000 });
    try {
      await client.connect();
      expect(client.transportKind).toBe('sse');
      expect(client.protocolVersion).toBe('2024-11-05');
      const result = await client.callTool('echo', { message: 'hello legacy' });
      expect(result.content[0]).toEqual({ type: 'text', text: 'Echo: hello legacy' });
    } finally {
      await client.close();
    }
  });

  it("falls back from /mcp to /sse with transport 'auto'", async () => {
    const client = new McpClient({ url: `http://127.0.0.1:${server!.port}/mcp`, timeoutMs: 10_000 });
    try {
      const result = await client.callTool('echo', { message: 'auto' });
      expect(result.content[0]!.text).toBe('Echo: auto');
      expect(client.transportKind).toBe('sse');
    } finally {
      await client.close();
    }
  });
});
