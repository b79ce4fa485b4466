/**
 * What the stand-in LLM answers to each Graphiti prompt: the reply is built from the request's
 * JSON schema, and the few places that carry meaning (entities, facts, entity resolutions) are
 * filled from the episode text. Names are the pydantic model names Graphiti sends as the schema
 * name; an unknown one still gets a schema-valid (empty) answer.
 */
import { answerFromSchema, arrayOf, type JsonSchema, type Pick } from './schema-answer.js';
import { entities, episodeText, facts, taggedJsonArray } from './extract.js';

const nameOf = (x: unknown, i: number): string =>
  typeof x === 'object' && x !== null && typeof (x as { name?: unknown }).name === 'string' ? (x as { name: string }).name : `entity ${i}`;

export function answerFor(schemaName: string, schema: JsonSchema, prompt: string): unknown {
  const text = episodeText(prompt);
  const names = entities(text);
  const pick: Pick = (path, sub) => {
    const key = path[path.length - 1];
    if (path.length !== 1) return undefined;
    if (key === 'extracted_entities') {
      return arrayOf(sub, schema, names, (name) => (p) => {
        const k = p[p.length - 1];
        if (k === 'name') return name;
        if (k === 'entity_type_id') return 0;
        if (k === 'episode_indices') return [0];
        return undefined;
      });
    }
    if (key === 'edges' && schemaName === 'ExtractedEdges') {
      return arrayOf(sub, schema, facts(text, names), (f) => (p) => {
        const k = p[p.length - 1];
        if (k === 'source_entity_name') return f.source;
        if (k === 'target_entity_name') return f.target;
        if (k === 'relation_type') return 'RELATES_TO';
        if (k === 'fact') return f.fact;
        if (k === 'episode_indices') return [0];
        return undefined;
      });
    }
    if (key === 'entity_resolutions') {
      // One resolution per entity Graphiti listed, none a duplicate: "EXACTLY n resolutions".
      const listed = taggedJsonArray(prompt, 'ENTITIES');
      return arrayOf(sub, schema, listed, (entity, i) => (p) => {
        const k = p[p.length - 1];
        if (k === 'id') return i;
        if (k === 'name') return nameOf(entity, i);
        if (k === 'duplicate_candidate_id' || k === 'duplicate_idx') return -1;
        if (k === 'duplicate_name') return '';
        if (k === 'duplicates') return [];
        return undefined;
      });
    }
    return undefined;
  };
  return answerFromSchema(schema, pick);
}
