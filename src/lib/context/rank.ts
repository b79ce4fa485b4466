/**
 * Which knowledge is most useful at session start: expired or invalidated facts dropped,
 * duplicates by text removed, decisions, architecture and conventions first, then the newest.
 */
import type { EntityNode, Fact } from '../graphiti/graphiti.js';

const STRONG = /\b(decid(?:e|ed|es|ing)|decisions?|chose|chosen|choose|architect(?:ure|ural)?|design(?:ed|s)?|conventions?)\b/i;
const WEAK = /\b(must|always|never|uses?|using|prefer(?:s|red|ence|ences)?|requires?|standard|policy|rules?)\b/i;
const STRONG_LABEL = /decision|architecture|design|convention|preference|procedure|requirement/i;

function words(text: string): string {
  return text.replace(/_/g, ' ');
}

export function timeOf(...values: Array<string | null | undefined>): number {
  for (const v of values) {
    if (v === undefined || v === null || v === '') continue;
    const t = Date.parse(v);
    if (Number.isFinite(t)) return t;
  }
  return Number.NEGATIVE_INFINITY;
}

/** True when the fact was expired or invalidated at or before `now`. */
export function isExpired(fact: Fact, now: Date): boolean {
  const n = now.getTime();
  for (const v of [fact.expired_at, fact.invalid_at]) {
    if (v === undefined || v === null || v === '') continue;
    const t = Date.parse(v);
    if (Number.isFinite(t) && t <= n) return true;
  }
  return false;
}

/** 2 = decision/architecture/design/convention, 1 = must/always/never/uses/prefer…, 0 = other. */
export function factTier(fact: Pick<Fact, 'fact' | 'name'>): number {
  const text = `${words(fact.name ?? '')} ${fact.fact}`;
  if (STRONG.test(text)) return 2;
  if (WEAK.test(text)) return 1;
  return 0;
}

export function nodeTier(node: Pick<EntityNode, 'name' | 'labels' | 'summary'>): number {
  const labels = (node.labels ?? []).filter((l) => l !== 'Entity').join(' ');
  if (STRONG_LABEL.test(labels) || STRONG.test(words(node.name))) return 2;
  if (STRONG.test(node.summary ?? '') || WEAK.test(`${words(node.name)} ${node.summary ?? ''}`)) return 1;
  return 0;
}

/**
 * SAME_WORDS (qa-context-budget): two lines are the same when they differ only in case, spacing,
 * the articles a/an/the, quotes and a closing stop ("Quokka keeps invoices in Postgres." and "quokka
 * keeps the invoices in Postgres"): two notes saying one thing gave two lines, the second spending
 * the budget on nothing. Word order, every other word, number and sign still tell lines apart.
 */
export function sameWordsKey(text: string): string {
  // Articles in lower case, or opening the line: a capital "A" elsewhere names something ("plan A").
  return text
    .trim()
    .replace(/^(?:A|An|The)(?=\s)/u, ' ')
    .replace(/(?<![\p{L}\p{N}])(?:a|an|the)(?![\p{L}\p{N}])/gu, ' ')
    .toLowerCase()
    .replace(/["'\u2018\u2019\u201c\u201d`]/g, '')
    .replace(/[.!。\s]+$/u, '')
    .replace(/\s+/g, ' ')
    .trim();
}

function normText(text: string): string {
  return sameWordsKey(text);
}

/**
 * The one ranking rule for facts and entities: skip blank items, keep the first of each uuid, sort
 * by standing (how near the session, when the caller knows), tier (decisions first), newest, input
 * order, then keep one of each text (SAME_WORDS), where the first stood: the one `prefer` rates
 * highest, else the best-ranked. The context prefers this project's own notes' copy, then a copy it
 * shows: another writer's copy of the user's own words, judged as an order or outside the trust
 * setting, would take the user's line with it.
 */
function rankUnique<T extends { uuid: string }>(items: readonly T[], text: (item: T) => unknown, tier: (item: T) => number, time: (item: T) => number, skip: (item: T) => boolean = () => false, standing: (item: T) => number = () => 0, prefer: (item: T) => number = () => 0): T[] {
  const seenUuid = new Set<string>();
  const kept: Array<{ item: T; key: string; standing: number; tier: number; time: number; index: number }> = [];
  items.forEach((item, index) => {
    const t = text(item);
    if (typeof t !== 'string' || t.trim() === '') return;
    if (seenUuid.has(item.uuid)) return;
    seenUuid.add(item.uuid);
    if (skip(item)) return;
    kept.push({ item, key: normText(t), standing: standing(item), tier: tier(item), time: time(item), index });
  });
  kept.sort((a, b) => a.standing - b.standing || b.tier - a.tier || cmpTime(b.time, a.time) || a.index - b.index);
  // Of copies with the same words, the one `prefer` rates highest (the first on a tie) stands where the first stood.
  const best = new Map<string, T>();
  for (const k of kept) {
    const b = best.get(k.key);
    if (b === undefined || prefer(k.item) > prefer(b)) best.set(k.key, k.item);
  }
  const placed = new Set<string>();
  return kept.filter((k) => !placed.has(k.key) && placed.add(k.key) !== undefined).map((k) => best.get(k.key) as T);
}

/**
 * Drops expired/invalidated facts and duplicates (same uuid or same text), then ranks: by
 * `standing` when given (lower first: beyond-project.ts RELEVANCE_CLASS), then tier, then newest
 * (valid_at, else created_at).
 */
export function rankFacts(facts: readonly Fact[], now: Date, standing?: (fact: Fact) => number, prefer?: (fact: Fact) => number): Fact[] {
  return rankUnique(facts, (f) => f.fact, factTier, (f) => timeOf(f.valid_at, f.created_at), (f) => isExpired(f, now), standing, prefer);
}

/** Deduplicates entities (uuid, then name) and ranks them: tier, newest, input order. */
export function rankNodes(nodes: readonly EntityNode[]): EntityNode[] {
  return rankUnique(nodes, (n) => n.name, nodeTier, (n) => timeOf(n.created_at));
}

function cmpTime(a: number, b: number): number {
  if (a === b) return 0;
  return a > b ? 1 : -1;
}
