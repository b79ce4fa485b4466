/**
 * A stand-in for the OpenAI API, for tests only (never shipped): Graphiti's LLM and embedder talk
 * to it on 127.0.0.1. `/v1/chat/completions` (json_schema response_format, graphiti-core 0.29+),
 * `/v1/responses` (responses.parse, 0.28.x) and `/v1/embeddings` (base64 float32). Answers are
 * deterministic; failures (HTTP 400, invalid JSON) can be injected per call or for the calls
 * about one episode, every LLM answer can be delayed, and the calls about one episode can be held
 * until the test lets them go (`hold`: the episode stays in the server's queue, unprocessed and
 * unlisted, for exactly as long as the test needs, with no timing involved).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerFor } from './answers.js';
import { embeddingBase64 } from './extract.js';
import type { JsonSchema } from './schema-answer.js';

export type FailureKind = 'http-400' | 'invalid-json';

export interface FailureRule {
  kind: FailureKind;
  /** Only LLM calls whose prompt contains this text (an episode's words); any call if absent. */
  match?: string;
  /** How many matching calls fail; Infinity for all of them. */
  times: number;
}

export interface LlmCall {
  schema: string;
  prompt: string;
  failed?: FailureKind;
}

export interface StandInLlm {
  /** Base URL ending in /v1, for OPENAI_BASE_URL. */
  url: string;
  calls: LlmCall[];
  embeddings: number;
  delayMs: number;
  fail(rule: FailureRule): void;
  clearFailures(): void;
  /**
   * LLM calls whose prompt contains `match` (an episode's words) wait until the returned function
   * is called, as do calls made after it until then; `close` lets every held call go.
   */
  hold(match: string): () => void;
  /** How many LLM calls are waiting in a hold now. */
  held(): number;
  close(): Promise<void>;
}

interface ChatBody {
  messages?: Array<{ content?: unknown }>;
  input?: unknown;
  response_format?: { json_schema?: { name?: string; schema?: JsonSchema } };
  text?: { format?: { name?: string; schema?: JsonSchema } };
  model?: string;
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((c) => (typeof c === 'object' && c !== null && 'text' in c ? String((c as { text: unknown }).text) : '')).join('\n');
  return '';
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

export async function startStandInLlm(options: { delayMs?: number } = {}): Promise<StandInLlm> {
  const rules: FailureRule[] = [];
  const holds = new Set<{ match: string; released: Promise<void>; release: () => void }>();
  let waiting = 0;
  let seq = 0;
  const state: Omit<StandInLlm, 'url' | 'close'> = {
    calls: [],
    embeddings: 0,
    delayMs: options.delayMs ?? 0,
    fail: (rule) => rules.push({ ...rule }),
    clearFailures: () => void rules.splice(0),
    hold: (match) => {
      let release = () => {};
      const released = new Promise<void>((resolve) => (release = resolve));
      const gate = { match, released, release: () => { holds.delete(gate); release(); } };
      holds.add(gate);
      return gate.release;
    },
    held: () => waiting,
  };
  const heldFor = async (prompt: string): Promise<void> => {
    const gate = [...holds].find((h) => prompt.includes(h.match));
    if (gate === undefined) return;
    waiting += 1;
    try {
      await gate.released;
    } finally {
      waiting -= 1;
    }
  };

  const failureFor = (prompt: string): FailureKind | undefined => {
    const rule = rules.find((r) => r.times > 0 && (r.match === undefined || prompt.includes(r.match)));
    if (rule === undefined) return undefined;
    rule.times -= 1;
    return rule.kind;
  };

  const llm = async (body: ChatBody, api: 'chat' | 'responses', res: ServerResponse): Promise<void> => {
    const format = api === 'chat' ? body.response_format?.json_schema : body.text?.format;
    const prompt = api === 'chat' ? (body.messages ?? []).map((m) => textOf(m.content)).join('\n') : Array.isArray(body.input) ? body.input.map((m) => textOf((m as { content?: unknown }).content)).join('\n') : textOf(body.input);
    const schemaName = format?.name ?? 'unknown';
    const failed = failureFor(prompt);
    state.calls.push({ schema: schemaName, prompt, ...(failed ? { failed } : {}) });
    await heldFor(prompt);
    if (state.delayMs > 0) await new Promise((r) => setTimeout(r, state.delayMs));
    if (failed === 'http-400') {
      send(res, 400, { error: { message: 'stand-in LLM: injected failure', type: 'invalid_request_error', param: null, code: null } });
      return;
    }
    const content = failed === 'invalid-json' ? '{"not json' : JSON.stringify(answerFor(schemaName, format?.schema ?? {}, prompt));
    const id = `standin-${++seq}`;
    const created = Math.floor(Date.now() / 1000);
    const model = body.model ?? 'stand-in';
    if (api === 'chat') {
      send(res, 200, {
        id, object: 'chat.completion', created, model,
        choices: [{ index: 0, message: { role: 'assistant', content, refusal: null }, finish_reason: 'stop', logprobs: null }],
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      });
    } else {
      send(res, 200, {
        id, object: 'response', created_at: created, model, status: 'completed', error: null, incomplete_details: null,
        instructions: null, metadata: {}, parallel_tool_calls: false, temperature: 0, tool_choice: 'auto', tools: [], top_p: 1,
        output: [{ type: 'message', id: `msg-${seq}`, status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: content, annotations: [] }] }],
        usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } },
      });
    }
  };

  const server = createServer((req, res) => {
    void (async () => {
      try {
        const body = (await readJson(req)) as ChatBody & { input?: unknown };
        const path = (req.url ?? '').replace(/\?.*$/, '');
        if (req.method === 'POST' && path.endsWith('/chat/completions')) return await llm(body, 'chat', res);
        if (req.method === 'POST' && path.endsWith('/responses')) return await llm(body, 'responses', res);
        if (req.method === 'POST' && path.endsWith('/embeddings')) {
          const inputs = Array.isArray(body.input) ? body.input : [body.input];
          state.embeddings += 1;
          return send(res, 200, {
            object: 'list', model: 'stand-in-embedder', usage: { prompt_tokens: 1, total_tokens: 1 },
            data: inputs.map((input, index) => ({ object: 'embedding', index, embedding: embeddingBase64(Array.isArray(input) ? input.join(' ') : String(input)) })),
          });
        }
        send(res, 404, { error: { message: `stand-in LLM: no route ${req.method} ${path}` } });
      } catch (error) {
        send(res, 500, { error: { message: `stand-in LLM: ${(error as Error).message}` } });
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}/v1`,
    close: () => new Promise<void>((resolve) => { for (const h of [...holds]) h.release(); server.closeAllConnections(); server.close(() => resolve()); }),
  }) as StandInLlm;
}
