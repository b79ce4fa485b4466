/**
 * A loopback FAKE of the Anthropic Messages API, just enough for the real Claude Code CLI to run
 * a headless turn offline (facts in /work/shared/reference/real-claude-code.md):
 * - POST /v1/messages: streaming SSE (message_start … message_stop) or plain JSON; request bodies
 *   may be compressed (gzip, deflate, br);
 * - POST /v1/messages/count_tokens and GET /v1/models answer a plain 200;
 * - a scripted `tool_use` turn: when the prompt holds `WRITE <path>` the first answer asks for the
 *   Write tool with that path (content from `writeContent`), and once the `tool_result` comes back
 *   it answers with text, so the real CLI writes a memory file during the turn;
 * - `REMEMBER <file name>`: the same, into the memory folder the CLI's system prompt names ("You
 *   have a persistent file-based memory at `<folder>`"), so a test sees where the real CLI keeps memory.
 * Every /v1/messages body is recorded (decoded JSON) so tests can look for our context in it.
 * Test-only: the real API cannot be reached here.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';

export interface FakeAnthropic {
  url: string;
  /** Decoded JSON bodies of every POST /v1/messages, in arrival order. */
  requests: Array<Record<string, unknown>>;
  /** Every request line seen (method + path), for debugging. */
  seen: string[];
  close(): Promise<void>;
}

export interface FakeAnthropicOptions {
  /** File content the scripted Write tool_use carries. */
  writeContent?: string;
}

type Block = { type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };

function decode(req: IncomingMessage, body: Buffer): Buffer {
  const encoding = String(req.headers['content-encoding'] ?? '').toLowerCase();
  if (encoding === 'gzip') return gunzipSync(body);
  if (encoding === 'deflate') return inflateSync(body);
  if (encoding === 'br') return brotliDecompressSync(body);
  return body;
}

/** All text a message list carries (strings and text/tool_result blocks), for the script. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((b) => {
      if (typeof b !== 'object' || b === null) return '';
      const block = b as Record<string, unknown>;
      if (typeof block.text === 'string') return block.text;
      if (block.content !== undefined) return textOf(block.content);
      return '';
    })
    .join('\n');
}

/** The memory folder the CLI's system prompt tells the model about, if any. */
export function memoryFolderNamed(body: Record<string, unknown>): string | undefined {
  return /persistent,? file-based memory(?: system)? at `([^`]+)`/.exec(JSON.stringify(body.system ?? ''))?.[1];
}

/** What the fake model answers to one request. */
function answer(body: Record<string, unknown>, options: FakeAnthropicOptions): { blocks: Block[]; stop: string } {
  const messages = Array.isArray(body.messages) ? (body.messages as Array<Record<string, unknown>>) : [];
  // Claude Code appends its own role "system" messages (environment, hook context): the turn is the last user message.
  const last = [...messages].reverse().find((m) => m.role === 'user');
  const lastContent = last?.content;
  const isToolResult = Array.isArray(lastContent) && lastContent.some((b) => typeof b === 'object' && b !== null && (b as { type?: string }).type === 'tool_result');
  if (isToolResult) return { blocks: [{ type: 'text', text: 'Saved the decision to memory.' }], stop: 'end_turn' };
  const prompt = textOf(lastContent);
  const hasWrite = Array.isArray(body.tools) && (body.tools as Array<{ name?: string }>).some((t) => t.name === 'Write');
  const remember = /REMEMBER (\S+)/.exec(prompt);
  const folder = remember === null ? undefined : memoryFolderNamed(body);
  const m = folder === undefined ? /WRITE (\S+)/.exec(prompt) : ([remember?.[0], `${folder.replace(/\/$/, '')}/${remember?.[1]}`] as unknown as RegExpExecArray);
  if (m !== null && hasWrite) {
    const input = { file_path: m[1] as string, content: options.writeContent ?? '# Note\n\nWritten by the fake model.\n' };
    return { blocks: [{ type: 'tool_use', id: `toolu_fake_${Date.now()}`, name: 'Write', input }], stop: 'tool_use' };
  }
  return { blocks: [{ type: 'text', text: 'OK' }], stop: 'end_turn' };
}

function sse(res: ServerResponse, model: string, blocks: Block[], stop: string): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'request-id': 'req_fake' });
  const send = (event: string, data: unknown) => res.write(`event: ${event}\ndata: ${JSON.stringify({ type: event, ...(data as object) })}\n\n`);
  send('message_start', {
    message: { id: 'msg_fake', type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1 } },
  });
  blocks.forEach((block, index) => {
    if (block.type === 'text') {
      send('content_block_start', { index, content_block: { type: 'text', text: '' } });
      send('content_block_delta', { index, delta: { type: 'text_delta', text: block.text } });
    } else {
      send('content_block_start', { index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } });
      send('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } });
    }
    send('content_block_stop', { index });
  });
  send('message_delta', { delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 5 } });
  send('message_stop', {});
  res.end();
}

export async function startFakeAnthropic(options: FakeAnthropicOptions = {}): Promise<FakeAnthropic> {
  const requests: Array<Record<string, unknown>> = [];
  const seen: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0] as string;
      seen.push(`${req.method} ${path}`);
      const json = (status: number, value: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': 'req_fake' });
        res.end(JSON.stringify(value));
      };
      let body: Record<string, unknown> = {};
      try {
        const raw = decode(req, Buffer.concat(chunks)).toString('utf8');
        if (raw.trim() !== '') body = JSON.parse(raw) as Record<string, unknown>;
      } catch (error) {
        json(400, { type: 'error', error: { type: 'invalid_request_error', message: `fake Anthropic API: ${(error as Error).message}` } });
        return;
      }
      if (req.method === 'GET' && path.startsWith('/v1/models')) {
        json(200, { data: [{ type: 'model', id: 'claude-sonnet-4-5', display_name: 'Claude Sonnet', created_at: '2025-01-01T00:00:00Z' }], has_more: false, first_id: null, last_id: null });
        return;
      }
      if (req.method === 'POST' && path === '/v1/messages/count_tokens') {
        json(200, { input_tokens: 100 });
        return;
      }
      if (req.method === 'POST' && path === '/v1/messages') {
        requests.push(body);
        const model = typeof body.model === 'string' ? body.model : 'claude-sonnet-4-5';
        const { blocks, stop } = answer(body, options);
        if (body.stream === true) {
          sse(res, model, blocks, stop);
          return;
        }
        json(200, { id: 'msg_fake', type: 'message', role: 'assistant', model, content: blocks, stop_reason: stop, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 5 } });
        return;
      }
      json(200, {});
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
