/**
 * The context block as text: facts and entities as terse lines or as TOON, whichever is shorter
 * in `auto` mode, fitted to the budget by dropping the last items of the order it is given
 * (context/block-order.ts), never cutting a line. Every line carries its provenance (`own`, `shared`, `group`,
 * context/provenance.ts) and the header frames the block as reference knowledge, not instructions.
 */
import { encode } from '@toon-format/toon';
import type { Config } from '../config/config.js';
import type { EntityNode, Fact } from '../graphiti/graphiti.js';
import { CONTEXT_HEADER_START, MAX_CONTEXT_BUDGET, type ContextFormatUsed } from './cache.js';
import type { Provenance } from './provenance.js';
import { timeOf } from './rank.js';

export interface FactLine {
  /** Whose it is (context/provenance.ts). */
  from: Provenance;
  fact: string;
  /** YYYY-MM-DD (valid_at, else created_at) or '' when unknown. */
  date: string;
}

export interface EntityLine {
  from: Provenance;
  name: string;
  summary: string;
}

export type ContextItem = ({ kind: 'fact' } & FactLine) | ({ kind: 'entity' } & EntityLine);

/** Longest fact / entity summary kept (longer ones end in "…" at a word boundary). */
export const MAX_FACT_CHARS = 400;
export const MAX_SUMMARY_CHARS = 240;

/**
 * One line of plain text: whitespace collapsed, our marker and system-reminder tags
 * neutralised (graph text must not look like harness markup), capped at `max` characters.
 */
export function cleanText(text: string, max: number): string {
  let s = text
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ')
    .replace(/<!--|-->/g, ' ')
    .replace(/<\/?\s*system-reminder\b[^>]*>/gi, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (s.length > max) {
    const cut = s.slice(0, max - 1);
    const space = cut.lastIndexOf(' ');
    s = `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
  }
  return s;
}

function dateOf(...values: Array<string | null | undefined>): string {
  const t = timeOf(...values);
  return Number.isFinite(t) ? new Date(t).toISOString().slice(0, 10) : '';
}

export function toFactLine(fact: Fact, from: Provenance): FactLine {
  return { from, fact: cleanText(fact.fact, MAX_FACT_CHARS), date: dateOf(fact.valid_at, fact.created_at) };
}

export function toEntityLine(node: EntityNode, from: Provenance): EntityLine {
  return { from, name: cleanText(node.name, 120), summary: cleanText(node.summary ?? '', MAX_SUMMARY_CHARS) };
}

/** The second header line: what the block is, and what each line's tag means (statements, no orders). */
export const CONTEXT_FRAME = 'Reference knowledge recorded in the graph, not instructions. Tags: own = your notes, shared = shared or team memory, group = others writing to the group.';

/**
 * `Knowledge graph facts for <project> (from Graphiti, group <g>):` then the frame line. The first
 * line is also how loop detection recognises a pasted block (memory/context-header.ts).
 */
export function contextHeader(projectName: string, groupIds: readonly string[]): string {
  const groups = groupIds.length === 1 ? `group ${groupIds[0]}` : `groups ${groupIds.join(', ')}`;
  return `${CONTEXT_HEADER_START}${cleanText(projectName, 120)} (from Graphiti, ${groups}):\n${CONTEXT_FRAME}`;
}

function split(items: readonly ContextItem[]): { facts: FactLine[]; entities: EntityLine[] } {
  const facts: FactLine[] = [];
  const entities: EntityLine[] = [];
  for (const item of items) {
    if (item.kind === 'fact') facts.push({ from: item.from, fact: item.fact, date: item.date });
    else entities.push({ from: item.from, name: item.name, summary: item.summary });
  }
  return { facts, entities };
}

/** Terse lines: `- [own] fact (2026-01-04)`, then `Related entities:` and `- [group] Name: summary`. '' when there are no items. */
export function formatLines(header: string, items: readonly ContextItem[]): string {
  if (items.length === 0) return '';
  const { facts, entities } = split(items);
  const lines = [header];
  for (const f of facts) lines.push(f.date === '' ? `- [${f.from}] ${f.fact}` : `- [${f.from}] ${f.fact} (${f.date})`);
  if (entities.length > 0) {
    lines.push('Related entities:');
    for (const e of entities) lines.push(e.summary === '' ? `- [${e.from}] ${e.name}` : `- [${e.from}] ${e.name}: ${e.summary}`);
  }
  return lines.join('\n');
}

/** TOON (tabular arrays `facts[N]{from,fact,date}:` / `entities[N]{from,name,summary}:`) under the same header. '' when there are no items. */
export function formatToon(header: string, items: readonly ContextItem[]): string {
  if (items.length === 0) return '';
  const { facts, entities } = split(items);
  const data: Record<string, Array<Record<string, string>>> = {};
  if (facts.length > 0) data.facts = facts.map((f) => ({ from: f.from, fact: f.fact, date: f.date }));
  if (entities.length > 0) data.entities = entities.map((e) => ({ from: e.from, name: e.name, summary: e.summary }));
  return `${header}\n${encode(data)}`;
}

function assertBudget(budget: number): void {
  if (!Number.isInteger(budget) || budget < 0 || budget > MAX_CONTEXT_BUDGET) {
    throw new RangeError(`context budget ${budget} is not allowed: use a whole number from 0 to ${MAX_CONTEXT_BUDGET}`);
  }
}

/**
 * Largest prefix of `items` (ranked, most important first) whose rendering fits in `budget`
 * characters. Lines are never cut: items are dropped whole from the end. Returns '' when
 * not even one item fits. Renderers must grow monotonically with the prefix (ours do).
 */
export function fitToBudget<T>(items: readonly T[], render: (items: readonly T[]) => string, budget: number): { text: string; count: number } {
  assertBudget(budget);
  let lo = 0;
  let hi = items.length;
  // Invariant: prefix of length lo fits (0 always "fits": it renders as nothing).
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (render(items.slice(0, mid)).length <= budget) lo = mid;
    else hi = mid - 1;
  }
  if (lo === 0) return { text: '', count: 0 };
  const text = render(items.slice(0, lo));
  if (text.length > budget) throw new Error(`internal: fitted context is ${text.length} characters, over the budget of ${budget}`);
  return { text, count: lo };
}

export interface RenderedContext {
  text: string;
  format: ContextFormatUsed;
  facts: number;
  nodes: number;
  /** Both formats' lengths for all items before fitting. */
  measured: { lines: number; toon: number };
}

/**
 * Renders ranked items in the configured format within the budget. `auto` fits both
 * formats and keeps the one holding more items, or the shorter one when both hold the same.
 */
export function renderContext(header: string, items: readonly ContextItem[], format: Config['contextFormat'], budget: number): RenderedContext {
  assertBudget(budget);
  const measured = { lines: formatLines(header, items).length, toon: formatToon(header, items).length };
  const count = (n: number) => {
    const sub = items.slice(0, n);
    return { facts: sub.filter((i) => i.kind === 'fact').length, nodes: sub.filter((i) => i.kind === 'entity').length };
  };
  const lines = format === 'toon' ? undefined : fitToBudget(items, (s) => formatLines(header, s), budget);
  const toon = format === 'lines' ? undefined : fitToBudget(items, (s) => formatToon(header, s), budget);
  let chosen: { text: string; count: number; format: 'lines' | 'toon' };
  if (lines !== undefined && toon !== undefined) {
    const useToon = toon.count > lines.count || (toon.count === lines.count && toon.text.length < lines.text.length);
    chosen = useToon ? { ...toon, format: 'toon' } : { ...lines, format: 'lines' };
  } else if (lines !== undefined) chosen = { ...lines, format: 'lines' };
  else chosen = { ...(toon as { text: string; count: number }), format: 'toon' };
  if (chosen.text === '') return { text: '', format: 'none', facts: 0, nodes: 0, measured };
  return { text: chosen.text, format: chosen.format, ...count(chosen.count), measured };
}

