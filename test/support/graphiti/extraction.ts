/**
 * The deterministic fake of Graphiti's LLM extraction and search: entity names and fact sentences
 * derived from an episode's text, and term-overlap scoring for searches.
 */

const STOPWORDS = new Set(
  'The This That These Those And But For With When What Where Which While Who Why How Then Than There Here Our Your Their Its His Her Not Use Uses Used Using All Any Each Every Some From Into Onto Over Under After Before Also Only Just Very Yes Has Have Had Was Were Are Will Would Should Could Can May Might Must Let Make Keep See Note'.split(
    ' ',
  ),
);

/** Candidate entity names: the episode name, markdown headings, then capitalised words. */
export function deriveNodeNames(name: string, content: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const add = (raw: string) => {
    const n = raw.trim().replace(/\s+/g, ' ').slice(0, 120);
    if (n === '') return;
    const key = n.toLowerCase();
    if (seen.has(key)) return;
    seen.add(key);
    out.push(n);
  };
  add(name);
  for (const line of content.split(/\r?\n/)) {
    const h = /^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (h?.[1]) add(h[1]);
  }
  for (const m of content.matchAll(/\b[A-Z][A-Za-z0-9_]{2,}\b/g)) {
    if (!STOPWORDS.has(m[0])) add(m[0]);
  }
  return out;
}

/** Candidate fact texts: one per non-empty sentence of prose/bullet lines. */
export function deriveFactSentences(content: string): string[] {
  const out: string[] = [];
  let inFence = false;
  for (const rawLine of content.split(/\r?\n/)) {
    const line = rawLine.trim();
    if (line.startsWith('```') || line.startsWith('~~~')) {
      inFence = !inFence;
      continue;
    }
    if (inFence || line === '' || line === '---' || line.startsWith('#') || line.startsWith('|')) continue;
    const stripped = line.replace(/^([-*+]|\d+[.)])\s+/, '').replace(/^\[[ xX]\]\s+/, '');
    for (const sentence of stripped.split(/(?<=[.!?])\s+/)) {
      const s = sentence.trim();
      if (s.split(/\s+/).length < 2) continue;
      out.push(s.slice(0, 500));
    }
  }
  return out;
}

/** Lower-case search terms of a query (letters/digits/underscore runs of length >= 2). */
export function queryTerms(query: string): string[] {
  const terms = new Set<string>();
  for (const m of query.toLowerCase().matchAll(/[\p{L}\p{N}_]+/gu)) {
    if (m[0].length >= 2) terms.add(m[0]);
  }
  return [...terms];
}

export function score(text: string, terms: string[]): number {
  const lower = text.toLowerCase();
  let n = 0;
  for (const t of terms) if (lower.includes(t)) n += 1;
  return n;
}

export function summarize(name: string, content: string): string {
  const lower = name.toLowerCase();
  const sentence = deriveFactSentences(content).find((s) => s.toLowerCase().includes(lower));
  return (sentence ?? `${name} is mentioned in the episode.`).slice(0, 200);
}
