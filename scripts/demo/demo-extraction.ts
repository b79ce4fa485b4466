/**
 * The demo's stand-in for Graphiti's LLM extraction: facts a person recognises. Each prose
 * sentence of an episode becomes one fact (the sentence, cleaned of markdown and of "Decided:"
 * labels), between its subject and its object, named after its verb, as a real Graphiti gives
 * "The API runs on Fastify 5" as API -RUNS_ON-> Fastify 5. The metadata lines our episodes start
 * with (`Type: …`, `Tags: …`), headings and captions are not facts. Deterministic, no LLM; only
 * `npm run demo` uses it (the test server keeps its line-splitter for the tests).
 */
import type { Extracted } from '../../test/support/graphiti/options.js';

/** Verbs (and auxiliaries) that start a predicate in the kind of notes people keep. */
const VERBS = new Set(
  'is are was were be must should never always runs run uses use prefers prefer stores stored replies reply rejects reject accepts accept match matches break breaks belong belongs waited took used wants want needs need hides hid keeps keep sends send talks talk returns return'.split(' '),
);
const LEADING = /^(?:the|a|an|all|every|each)\s+/i;
const PREPOSITION = /^(?:on|to|in|at|with|as|by|for|from|of|about|into|over)\s+/i;

function clean(text: string): string {
  return text
    .replace(/\*\*([^*]+)\*\*/g, '$1')
    .replace(/`([^`]+)`/g, '$1')
    .replace(/\[\[([^\]]+)\]\]/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Prose sentences: paragraphs and bullets joined across line breaks, metadata and headings left out. */
export function proseSentences(content: string): string[] {
  const blocks: string[] = [];
  let current: string[] = [];
  const flush = () => {
    if (current.length > 0) blocks.push(current.join(' '));
    current = [];
  };
  for (const raw of content.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || /^\*[^*].*\*$/.test(line) || /^\*\*[^*]+:\*\*/.test(line) || /^[A-Z][\w -]{0,30}: \S/.test(line) && current.length === 0 && !/[.!?]$/.test(line)) {
      flush();
      continue;
    }
    const bullet = /^(?:[-*+]|\d+[.)])\s+(.*)$/.exec(line);
    if (bullet !== null) {
      flush();
      current.push(bullet[1] as string);
      continue;
    }
    current.push(line);
  }
  flush();
  const out: string[] = [];
  for (const block of blocks) {
    for (const piece of clean(block).split(/(?<=[.!?])\s+(?=[A-Z])/)) {
      // "Decided: the API runs …" → "The API runs …"
      const sentence = piece.replace(/^[A-Z][a-z]+(?: [a-z]+)?: (?=[a-z])/, '').replace(/^[a-z]/, (c) => c.toUpperCase());
      if (sentence.split(' ').length >= 4 && !/^See also\b/.test(sentence)) out.push(sentence);
    }
  }
  return out;
}

function phrase(words: string[], max: number): string {
  return words.slice(0, max).join(' ').replace(LEADING, '').replace(/[,:;.]+$/, '').trim();
}

/** Subject, relation and object of a sentence, or undefined when it has no predicate we know. */
export function tripleOf(sentence: string): { subject: string; relation: string; object: string } | undefined {
  const words = sentence.replace(/[.!?]$/, '').split(' ');
  const at = words.findIndex((w, i) => i > 0 && VERBS.has(w.toLowerCase()));
  if (at <= 0) return undefined;
  const subject = phrase(words.slice(0, at), 4);
  let rest = words.slice(at + 1);
  let relation = (words[at] as string).toUpperCase();
  // "must never wait on", "is stored as": one relation name.
  while (rest.length > 0 && /^(?:never|not|be|been|only|always)$|ed$/.test(rest[0] as string) && relation.split('_').length < 3) {
    relation += `_${(rest[0] as string).toUpperCase()}`;
    rest = rest.slice(1);
  }
  const prep = PREPOSITION.exec(rest.join(' '));
  if (prep !== null) {
    relation += `_${prep[0].trim().toUpperCase()}`;
    rest = rest.slice(1);
  }
  const stop = rest.findIndex((w) => /[,;:]$/.test(w) || /^(?:with|before|after|then|and|because|not|who|which|that)$/.test(w));
  const object = phrase(stop === -1 ? rest : rest.slice(0, stop + (/[,;:]$/.test(rest[stop] as string) ? 1 : 0)), 5);
  if (subject === '' || object === '') return undefined;
  return { subject: subject.replace(/^[a-z]/, (c) => c.toUpperCase()), relation, object };
}

/** The extraction the demo's server runs on every episode. */
export function demoExtraction({ name, content, sourceDescription }: { name: string; content: string; sourceDescription: string }): Extracted {
  // What the fact is about, for the test server's term search (a real Graphiti's embedding knows it).
  const about = `${name} ${sourceDescription.replace(/\[gms:[^\]]*\]/, '')}`;
  const entities = new Map<string, string>();
  const facts: Extracted['facts'] = [];
  const entity = (n: string, summary: string) => {
    const known = [...entities.keys()].find((k) => k.toLowerCase() === n.toLowerCase());
    if (known === undefined) entities.set(n, summary);
    return known ?? n;
  };
  const topic = entity(name, proseSentences(content)[0] ?? name);
  for (const sentence of proseSentences(content)) {
    const t = tripleOf(sentence);
    if (t === undefined) {
      facts.push({ fact: sentence, source: topic, target: topic, relation: 'NOTES', about });
      continue;
    }
    facts.push({ fact: sentence, source: entity(t.subject, sentence), target: entity(t.object, sentence), relation: t.relation, about });
  }
  return { entities: [...entities].map(([n, summary]) => ({ name: n, summary })), facts };
}
