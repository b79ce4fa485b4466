/**
 * The stand-in LLM (ours, test-only) that the real Graphiti server talks to: answers built from
 * the request's JSON schema, entities and facts from the episode text, deterministic embeddings,
 * injected failures, calls held until the test lets them go.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { answerFor } from '../support/standin-llm/answers.js';
import { EMBEDDING_DIM } from '../support/standin-llm/extract.js';
import { answerFromSchema } from '../support/standin-llm/schema-answer.js';
import { startStandInLlm, type StandInLlm } from '../support/standin-llm/server.js';

let llm: StandInLlm | undefined;
afterEach(async () => {
  await llm?.close();
  llm = undefined;
});

const EDGE_SCHEMA = {
  $defs: {
    Edge: {
      type: 'object',
      properties: {
        source_entity_name: { type: 'string' },
        target_entity_name: { type: 'string' },
        relation_type: { type: 'string' },
        fact: { type: 'string' },
        valid_at: { anyOf: [{ type: 'string' }, { type: 'null' }], default: null },
      },
      required: ['source_entity_name', 'target_entity_name', 'relation_type', 'fact'],
    },
  },
  type: 'object',
  properties: { edges: { type: 'array', items: { $ref: '#/$defs/Edge' } } },
  required: ['edges'],
};

describe('stand-in LLM', () => {
  it('fills a schema: $ref/$defs, defaults, const, enum, nullable, nested required objects', () => {
    const schema = {
      $defs: { Inner: { type: 'object', properties: { kind: { const: 'k' }, level: { enum: ['low', 'high'] } }, required: ['kind', 'level'] } },
      type: 'object',
      properties: { inner: { $ref: '#/$defs/Inner' }, n: { type: 'integer', default: 7 }, maybe: { anyOf: [{ type: 'string' }, { type: 'null' }] }, list: { type: 'array', items: { type: 'string' } } },
      required: ['inner', 'maybe', 'list'],
    };
    expect(answerFromSchema(schema, () => undefined)).toEqual({ inner: { kind: 'k', level: 'low' }, n: 7, maybe: null, list: [] });
  });

  it('extracts entities and facts from the episode text, the same every time', () => {
    const prompt = '<CURRENT_MESSAGE>\nZephyr uses Kafka for the event bus. Kafka feeds Postgres.\n</CURRENT_MESSAGE>';
    const answer = answerFor('ExtractedEdges', EDGE_SCHEMA, prompt);
    expect(answer).toEqual({
      edges: [
        { source_entity_name: 'Zephyr', target_entity_name: 'Kafka', relation_type: 'RELATES_TO', fact: 'Zephyr uses Kafka for the event bus.', valid_at: null },
        { source_entity_name: 'Kafka', target_entity_name: 'Postgres', relation_type: 'RELATES_TO', fact: 'Kafka feeds Postgres.', valid_at: null },
      ],
    });
    expect(answerFor('ExtractedEdges', EDGE_SCHEMA, prompt)).toEqual(answer);
  });

  it('answers one non-duplicate resolution per listed entity', () => {
    const schema = {
      $defs: { NodeDuplicate: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' }, duplicate_candidate_id: { type: 'integer' } }, required: ['id', 'name', 'duplicate_candidate_id'] } },
      type: 'object',
      properties: { entity_resolutions: { type: 'array', items: { $ref: '#/$defs/NodeDuplicate' } } },
    };
    const prompt = '<ENTITIES>\n[{"id": 0, "name": "Zephyr"}, {"id": 1, "name": "Kafka"}]\n</ENTITIES>';
    expect(answerFor('NodeResolutions', schema, prompt)).toEqual({
      entity_resolutions: [
        { id: 0, name: 'Zephyr', duplicate_candidate_id: -1 },
        { id: 1, name: 'Kafka', duplicate_candidate_id: -1 },
      ],
    });
  });

  it('serves chat completions and responses, base64 embeddings where similar texts are near, and injected failures', async () => {
    llm = await startStandInLlm();
    const post = async (path: string, body: unknown) => {
      const res = await fetch(`${llm?.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return { status: res.status, json: (await res.json()) as Record<string, unknown> };
    };
    const chat = await post('/chat/completions', { messages: [{ role: 'user', content: '<CURRENT_MESSAGE>Zephyr uses Kafka.</CURRENT_MESSAGE>' }], response_format: { type: 'json_schema', json_schema: { name: 'ExtractedEdges', schema: EDGE_SCHEMA } } });
    const content = (chat.json.choices as Array<{ message: { content: string } }>)[0]?.message.content ?? '';
    expect(JSON.parse(content)).toMatchObject({ edges: [{ fact: 'Zephyr uses Kafka.' }] });

    const responses = await post('/responses', { input: [{ role: 'user', content: '<CURRENT_MESSAGE>Zephyr uses Kafka.</CURRENT_MESSAGE>' }], text: { format: { type: 'json_schema', name: 'ExtractedEdges', schema: EDGE_SCHEMA, strict: true } } });
    const text = (responses.json.output as Array<{ content: Array<{ text: string }> }>)[0]?.content[0]?.text ?? '';
    expect(JSON.parse(text)).toEqual(JSON.parse(content));

    const emb = await post('/embeddings', { input: ['kafka event bus zephyr', 'zephyr kafka event bus today', 'postgres backups nightly'], encoding_format: 'base64' });
    const vectors = (emb.json.data as Array<{ embedding: string }>).map((d) => new Float32Array(new Uint8Array(Buffer.from(d.embedding, 'base64')).buffer));
    expect(vectors[0]).toHaveLength(EMBEDDING_DIM);
    const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * (b[i] ?? 0), 0);
    expect(dot(vectors[0] as Float32Array, vectors[1] as Float32Array)).toBeGreaterThan(dot(vectors[0] as Float32Array, vectors[2] as Float32Array) + 0.3);

    llm.fail({ kind: 'http-400', match: 'Quokka', times: 1 });
    llm.fail({ kind: 'invalid-json', times: 1 });
    const body = (word: string) => ({ messages: [{ role: 'user', content: `<CURRENT_MESSAGE>${word} ships.</CURRENT_MESSAGE>` }], response_format: { json_schema: { name: 'ExtractedEdges', schema: EDGE_SCHEMA } } });
    expect((await post('/chat/completions', body('Quokka'))).status).toBe(400);
    const bad = await post('/chat/completions', body('Wombat'));
    expect(() => JSON.parse((bad.json.choices as Array<{ message: { content: string } }>)[0]?.message.content ?? '')).toThrow();
    expect((await post('/chat/completions', body('Quokka'))).status).toBe(200);
    expect(llm.calls.map((c) => c.failed ?? 'ok')).toEqual(['ok', 'ok', 'http-400', 'invalid-json', 'ok']);
  });

  it('holds the calls about one episode until released; every other call is answered meanwhile', async () => {
    llm = await startStandInLlm();
    const ask = (word: string) =>
      fetch(`${llm?.url}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ messages: [{ role: 'user', content: `<CURRENT_MESSAGE>${word} ships.</CURRENT_MESSAGE>` }], response_format: { json_schema: { name: 'ExtractedEdges', schema: EDGE_SCHEMA } } }) });
    const release = llm.hold('Quokka');
    let answered = false;
    const held = ask('Quokka').then((res) => {
      answered = true;
      return res.status;
    });
    await vi.waitFor(() => expect(llm?.held()).toBe(1));
    expect((await ask('Wombat')).status).toBe(200);
    expect(answered).toBe(false);
    release();
    expect(await held).toBe(200);
    expect(llm.held()).toBe(0);
    // Released for good: a later call about it is answered at once.
    expect((await ask('Quokka')).status).toBe(200);
  });
});
