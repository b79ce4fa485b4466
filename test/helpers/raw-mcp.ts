/**
 * Raw HTTP helpers for testing the Graphiti-shaped test server byte by byte,
 * independent of our MCP client: fetch/node:http requests, a CRLF-aware SSE
 * parser that keeps comments, and a minimal session driver.
 */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';

export const ACCEPT_BOTH = 'application/json, text/event-stream';
export const LATEST = '2025-11-25';

export interface RawResponse {
  status: number;
  headers: Headers;
  text: string;
}

export interface PostOptions {
  sessionId?: string;
  protocolVersion?: string;
  accept?: string;
  contentType?: string;
  headers?: Record<string, string>;
  redirect?: 'follow' | 'manual' | 'error';
  signal?: AbortSignal;
}

export async function rawPost(url: string, body: unknown, o: PostOptions = {}): Promise<RawResponse> {
  const headers: Record<string, string> = {
    'content-type': o.contentType ?? 'application/json',
    accept: o.accept ?? ACCEPT_BOTH,
    ...(o.sessionId ? { 'mcp-session-id': o.sessionId } : {}),
    ...(o.protocolVersion ? { 'mcp-protocol-version': o.protocolVersion } : {}),
    ...o.headers,
  };
  const res = await fetch(url, {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
    redirect: o.redirect ?? 'manual',
    ...(o.signal ? { signal: o.signal } : {}),
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

export async function rawRequest(url: string, method: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  const res = await fetch(url, { method, headers, redirect: 'manual' });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** node:http request (lets the test set Host, which fetch drops). */
export function nodeRequest(
  url: string,
  o: { method?: string; headers?: Record<string, string>; body?: string },
): Promise<{ status: number; headers: IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: o.method ?? 'GET', headers: o.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (o.body !== undefined) req.write(o.body);
    req.end();
  });
}

export interface SseEvent {
  event: string | undefined;
  data: string;
  id: string | undefined;
  /** Comment lines (without the leading ':') seen since the previous event. */
  comments: string[];
}

/** Line-level SSE state machine: feed complete lines, get events on blank lines (comments kept). */
export class SseLineParser {
  private cur: { event?: string; data: string[]; id?: string; comments: string[] } = { data: [], comments: [] };
  private pendingComments: string[] = [];

  constructor(private readonly emit: (e: SseEvent) => void) {}

  line(line: string): void {
    if (line === '') {
      const cur = this.cur;
      if (cur.data.length > 0 || cur.event !== undefined) {
        this.emit({ event: cur.event, data: cur.data.join('\n'), id: cur.id, comments: [...this.pendingComments, ...cur.comments] });
        this.pendingComments = [];
      } else this.pendingComments.push(...cur.comments);
      this.cur = { data: [], comments: [] };
      return;
    }
    if (line.startsWith(':')) {
      this.cur.comments.push(line.slice(1));
      return;
    }
    const idx = line.indexOf(':');
    const field = idx < 0 ? line : line.slice(0, idx);
    let value = idx < 0 ? '' : line.slice(idx + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.cur.event = value;
    else if (field === 'data') this.cur.data.push(value);
    else if (field === 'id') this.cur.id = value;
  }
}

/** WHATWG-style SSE parsing of a complete body: CRLF, LF or CR line ends; comments kept. */
export function parseSse(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  const parser = new SseLineParser((e) => events.push(e));
  for (const line of text.split(/\r\n|\r|\n/)) parser.line(line);
  return events;
}

/** The JSON-RPC messages of an SSE or JSON body. */
export function messagesOf(res: RawResponse): Array<Record<string, unknown>> {
  const ct = res.headers.get('content-type') ?? '';
  if (ct.startsWith('application/json')) {
    const v = JSON.parse(res.text) as unknown;
    return (Array.isArray(v) ? v : [v]) as Array<Record<string, unknown>>;
  }
  return parseSse(res.text)
    .filter((e) => (e.event === undefined || e.event === 'message') && e.data !== '')
    .map((e) => JSON.parse(e.data) as Record<string, unknown>);
}

/** Incremental reader of a streaming SSE response (legacy /sse, GET /mcp). */
export class SseStream {
  private buf = '';
  private queue: SseEvent[] = [];
  private waiters: Array<(e: SseEvent | undefined) => void> = [];
  private ended = false;
  private textWaiters: Array<() => void> = [];
  private readonly parser = new SseLineParser((e) => this.deliver(e));
  readonly raw: string[] = [];

  constructor(
    readonly response: Response,
    private readonly controller: AbortController,
  ) {
    void this.pump();
  }

  static async open(url: string, headers: Record<string, string> = { accept: 'text/event-stream' }): Promise<SseStream> {
    const controller = new AbortController();
    const response = await fetch(url, { headers, signal: controller.signal });
    return new SseStream(response, controller);
  }

  private async pump(): Promise<void> {
    const body = this.response.body;
    if (!body) return this.finish();
    const reader = body.getReader();
    const decoder = new TextDecoder();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        const chunk = decoder.decode(value, { stream: true });
        this.raw.push(chunk);
        for (const w of this.textWaiters.splice(0)) w();
        this.buf += chunk;
        // Complete lines only; a trailing CR may be the first half of a CRLF.
        for (let m = /\r\n|\r|\n/.exec(this.buf); m; m = /\r\n|\r|\n/.exec(this.buf)) {
          if (m[0] === '\r' && m.index === this.buf.length - 1) break;
          const line = this.buf.slice(0, m.index);
          this.buf = this.buf.slice(m.index + m[0].length);
          this.parser.line(line);
        }
      }
    } catch {
      // aborted
    }
    this.finish();
  }

  private deliver(e: SseEvent): void {
    const w = this.waiters.shift();
    if (w) w(e);
    else this.queue.push(e);
  }

  private finish(): void {
    this.ended = true;
    for (const w of this.textWaiters.splice(0)) w();
    for (const w of this.waiters.splice(0)) w(undefined);
  }

  /** Next event, or undefined once the stream ended. */
  next(): Promise<SseEvent | undefined> {
    const e = this.queue.shift();
    if (e) return Promise.resolve(e);
    if (this.ended) return Promise.resolve(undefined);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Next event satisfying the predicate (others are skipped). */
  async nextMatching(pred: (e: SseEvent) => boolean): Promise<SseEvent | undefined> {
    for (;;) {
      const e = await this.next();
      if (e === undefined || pred(e)) return e;
    }
  }

  /** Resolves once the raw bytes received so far contain `text` (false if the stream ends first). */
  async waitForText(text: string): Promise<boolean> {
    for (;;) {
      if (this.raw.join('').includes(text)) return true;
      if (this.ended) return false;
      await new Promise<void>((resolve) => this.textWaiters.push(resolve));
    }
  }

  get isEnded(): boolean {
    return this.ended;
  }

  close(): void {
    this.controller.abort();
  }
}

/** A minimal Streamable HTTP session driven by raw fetch. */
export class RawSession {
  sessionId = '';
  protocolVersion = LATEST;
  private nextId = 1;

  constructor(readonly url: string) {}

  static async open(url: string, o: { protocolVersion?: string; skipInitialized?: boolean } = {}): Promise<RawSession> {
    const s = new RawSession(url);
    await s.initialize(o.protocolVersion ?? LATEST);
    if (!o.skipInitialized) await s.initialized();
    return s;
  }

  async initialize(protocolVersion: string): Promise<Record<string, unknown>> {
    const res = await rawPost(this.url, {
      jsonrpc: '2.0',
      id: this.nextId++,
      method: 'initialize',
      params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw-test', version: '0' } },
    });
    if (res.status !== 200) throw new Error(`initialize: HTTP ${res.status} ${res.text}`);
    this.sessionId = res.headers.get('mcp-session-id') ?? '';
    const msg = messagesOf(res)[0]!;
    const result = msg.result as Record<string, unknown>;
    this.protocolVersion = result.protocolVersion as string;
    return result;
  }

  async initialized(): Promise<RawResponse> {
    return this.post({ jsonrpc: '2.0', method: 'notifications/initialized' });
  }

  post(body: unknown, o: PostOptions = {}): Promise<RawResponse> {
    return rawPost(this.url, body, { sessionId: this.sessionId, protocolVersion: this.protocolVersion, ...o });
  }

  /** Sends a request; returns the raw response and its JSON-RPC message. */
  async rpc(method: string, params?: Record<string, unknown>, o: PostOptions = {}): Promise<{ res: RawResponse; msg: Record<string, unknown> | undefined }> {
    const res = await this.post({ jsonrpc: '2.0', id: this.nextId++, method, ...(params ? { params } : {}) }, o);
    const msg = res.status === 200 ? messagesOf(res)[0] : undefined;
    return { res, msg };
  }

  /** tools/call → the CallToolResult (throws on HTTP/JSON-RPC errors). */
  async call(name: string, args: Record<string, unknown> = {}): Promise<CallResult> {
    const { res, msg } = await this.rpc('tools/call', { name, arguments: args });
    if (!msg) throw new Error(`tools/call ${name}: HTTP ${res.status} ${res.text}`);
    if (msg.error) throw new Error(`tools/call ${name}: ${JSON.stringify(msg.error)}`);
    return msg.result as CallResult;
  }

  /** tools/call → the parsed content[0].text JSON (the unwrapped dict). */
  async payload(name: string, args: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    const r = await this.call(name, args);
    return JSON.parse(r.content[0]!.text) as Record<string, unknown>;
  }
}

export interface CallResult {
  content: Array<{ type: string; text: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}
