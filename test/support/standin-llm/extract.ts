/**
 * The stand-in LLM's "understanding": deterministic, crude, and enough for Graphiti to build a
 * small graph whose facts carry the episode's own words (so search and the SessionStart context
 * rank something real). Entities are capitalised words; a fact links neighbouring entities with
 * the sentence the first one appears in. Embeddings are hashed bags of words, so texts sharing
 * words are near each other.
 */
const STOP = new Set(['The', 'This', 'That', 'These', 'Those', 'When', 'Then', 'There', 'With', 'From', 'Into', 'After', 'Before', 'Tags', 'Type', 'Title', 'Project', 'Captured', 'Source', 'Key', 'And', 'But', 'For', 'Not', 'Use', 'Each', 'Every', 'What', 'Why', 'How', 'Note', 'Notes', 'LEARNING', 'RESEARCH', 'REDACTED']);
const MAX_ENTITIES = 4;

export interface Fact {
  source: string;
  target: string;
  fact: string;
}

/** The episode text inside the prompt, from whichever tag this prompt version uses. */
export function episodeText(prompt: string): string {
  for (const tag of ['TEXT', 'CURRENT MESSAGE', 'CURRENT_MESSAGE', 'JSON']) {
    const m = new RegExp(`<${tag}>\\n?([\\s\\S]*?)</${tag}>`).exec(prompt);
    if (m?.[1] !== undefined && m[1].trim() !== '') return m[1].trim();
  }
  return '';
}

export function entities(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/\b[A-Z][A-Za-z0-9]{2,}\b/g)) {
    const word = m[0];
    if (STOP.has(word) || found.includes(word)) continue;
    found.push(word);
    if (found.length === MAX_ENTITIES) break;
  }
  return found;
}

export function facts(text: string, names: readonly string[]): Fact[] {
  const sentences = text.split(/(?<=[.!?])\s+|\n+/).map((s) => s.replace(/^#+\s*/, '').trim()).filter((s) => s !== '');
  const out: Fact[] = [];
  for (let i = 0; i + 1 < names.length; i++) {
    const source = names[i] as string;
    const target = names[i + 1] as string;
    const sentence = sentences.find((s) => s.includes(source) && s.includes(target)) ?? sentences.find((s) => s.includes(source));
    out.push({ source, target, fact: (sentence ?? `${source} relates to ${target}`).slice(0, 240) });
  }
  return out;
}

/** The JSON array inside `<TAG>…</TAG>` (the entity lists Graphiti shows the LLM), or []. */
export function taggedJsonArray(prompt: string, tag: string): unknown[] {
  const m = new RegExp(`<${tag}>\\s*([\\s\\S]*?)\\s*</${tag}>`).exec(prompt);
  if (m?.[1] === undefined) return [];
  try {
    const value: unknown = JSON.parse(m[1]);
    return Array.isArray(value) ? value : [];
  } catch {
    return [];
  }
}

export const EMBEDDING_DIM = 1536;

function fnv1a(word: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < word.length; i++) {
    h ^= word.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** Unit-length hashed bag of words as base64 little-endian float32, the form both OpenAI SDKs ask for. */
export function embeddingBase64(text: string): string {
  const v = new Float32Array(EMBEDDING_DIM);
  for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    const h = fnv1a(word);
    v[h % EMBEDDING_DIM] = (v[h % EMBEDDING_DIM] ?? 0) + ((h >>> 16) & 1 ? 1 : -1);
  }
  let norm = 0;
  for (const x of v) norm += x * x;
  if (norm === 0) v[0] = 1;
  else for (let i = 0; i < v.length; i++) v[i] = (v[i] ?? 0) / Math.sqrt(norm);
  return Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64');
}
