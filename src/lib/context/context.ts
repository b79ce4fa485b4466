/**
 * Builds the knowledge block injected at session start. Runs in the background worker
 * (and the CLI), never in the hook: it talks to Graphiti and loads the TOON encoder.
 *
 * Steps: a few searches (project name, "<name> architecture decisions conventions",
 * recent commit subjects, recently edited memory titles) over the project's groups →
 * results deduplicated by uuid and by text → expired/invalidated facts dropped → ranked
 * (decisions/architecture/conventions first, then newest) → rendered as terse lines or
 * TOON, whichever is shorter for the same facts in `auto` mode → fitted to the budget by
 * dropping the lowest-ranked items (entities before facts), never cutting a line.
 *
 * Escaping: GraphitiClient normalizes group ids and escapes search text per
 * MADEINOZ_KNOWLEDGE_DB itself (graphiti/graphiti.ts), so queries are passed as plain text
 * here and never escaped twice.
 *
 * Phrasing: everything is stated as facts from the graph ("Knowledge graph facts for …"),
 * with no imperative instructions: Claude Code's docs warn that system-style orders in
 * injected context can trigger prompt-injection defences.
 */
import { encode } from '@toon-format/toon';
import type { Config } from '../config/config.js';
import {
  CONTEXT_HEADER_START,
  MAX_CONTEXT_BUDGET,
  MAX_CONTEXT_CHARS,
  writeContextCache,
  type ContextCacheEntry,
  type ContextFormatUsed,
} from './cache.js';
import type { EntityNode, Fact } from '../graphiti/graphiti.js';
import { nullLogger, type Logger } from '../util/log.js';
import { McpNetworkError, McpTimeoutError } from '../mcp/errors.js';
import { recentCommitSubjects, recentMemoryTitles, type ProjectInfo } from './project.js';

/** The two GraphitiClient calls the context needs (tests pass a fake). */
export interface ContextSearcher {
  searchFacts(query: string, groupIds: string[], maxFacts?: number, signal?: AbortSignal): Promise<Fact[]>;
  searchNodes(query: string, groupIds: string[], maxNodes?: number, signal?: AbortSignal): Promise<EntityNode[]>;
}

export interface FactLine {
  fact: string;
  /** YYYY-MM-DD (valid_at, else created_at) or '' when unknown. */
  date: string;
}

export interface EntityLine {
  name: string;
  summary: string;
}

export type ContextItem = ({ kind: 'fact' } & FactLine) | ({ kind: 'entity' } & EntityLine);

/** Longest fact / entity summary kept (longer ones end in "…" at a word boundary). */
export const MAX_FACT_CHARS = 400;
export const MAX_SUMMARY_CHARS = 240;

const STRONG = /\b(decid(?:e|ed|es|ing)|decisions?|chose|chosen|choose|architect(?:ure|ural)?|design(?:ed|s)?|conventions?)\b/i;
const WEAK = /\b(must|always|never|uses?|using|prefer(?:s|red|ence|ences)?|requires?|standard|policy|rules?)\b/i;
const STRONG_LABEL = /decision|architecture|design|convention|preference|procedure|requirement/i;

function words(text: string): string {
  return text.replace(/_/g, ' ');
}

function timeOf(...values: Array<string | null | undefined>): number {
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

function normText(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').trim();
}

/**
 * Drops expired/invalidated facts and duplicates (same uuid or same text), then sorts:
 * tier (decisions first), then newest (valid_at, else created_at), then input order.
 */
export function rankFacts(facts: readonly Fact[], now: Date): Fact[] {
  const seenUuid = new Set<string>();
  const seenText = new Set<string>();
  const kept: Array<{ fact: Fact; tier: number; time: number; index: number }> = [];
  facts.forEach((fact, index) => {
    if (typeof fact.fact !== 'string' || fact.fact.trim() === '') return;
    if (seenUuid.has(fact.uuid)) return;
    seenUuid.add(fact.uuid);
    if (isExpired(fact, now)) return;
    const key = normText(fact.fact);
    if (seenText.has(key)) return;
    seenText.add(key);
    kept.push({ fact, tier: factTier(fact), time: timeOf(fact.valid_at, fact.created_at), index });
  });
  kept.sort((a, b) => b.tier - a.tier || cmpTime(b.time, a.time) || a.index - b.index);
  return kept.map((k) => k.fact);
}

/** Deduplicates entities (uuid, then name) and sorts: tier, newest, input order. */
export function rankNodes(nodes: readonly EntityNode[]): EntityNode[] {
  const seenUuid = new Set<string>();
  const seenName = new Set<string>();
  const kept: Array<{ node: EntityNode; tier: number; time: number; index: number }> = [];
  nodes.forEach((node, index) => {
    if (typeof node.name !== 'string' || node.name.trim() === '') return;
    if (seenUuid.has(node.uuid)) return;
    seenUuid.add(node.uuid);
    const key = normText(node.name);
    if (seenName.has(key)) return;
    seenName.add(key);
    kept.push({ node, tier: nodeTier(node), time: timeOf(node.created_at), index });
  });
  kept.sort((a, b) => b.tier - a.tier || cmpTime(b.time, a.time) || a.index - b.index);
  return kept.map((k) => k.node);
}

function cmpTime(a: number, b: number): number {
  if (a === b) return 0;
  return a > b ? 1 : -1;
}

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

export function toFactLine(fact: Fact): FactLine {
  return { fact: cleanText(fact.fact, MAX_FACT_CHARS), date: dateOf(fact.valid_at, fact.created_at) };
}

export function toEntityLine(node: EntityNode): EntityLine {
  return { name: cleanText(node.name, 120), summary: cleanText(node.summary ?? '', MAX_SUMMARY_CHARS) };
}

/** `Knowledge graph facts for <project> (from Graphiti, group <g>):` (a statement, not an instruction). */
export function contextHeader(projectName: string, groupIds: readonly string[]): string {
  const groups = groupIds.length === 1 ? `group ${groupIds[0]}` : `groups ${groupIds.join(', ')}`;
  return `${CONTEXT_HEADER_START}${cleanText(projectName, 120)} (from Graphiti, ${groups}):`;
}

function split(items: readonly ContextItem[]): { facts: FactLine[]; entities: EntityLine[] } {
  const facts: FactLine[] = [];
  const entities: EntityLine[] = [];
  for (const item of items) {
    if (item.kind === 'fact') facts.push({ fact: item.fact, date: item.date });
    else entities.push({ name: item.name, summary: item.summary });
  }
  return { facts, entities };
}

/** Terse lines: `- fact (2026-01-04)`, then `Related entities:` and `- Name: summary`. '' when there are no items. */
export function formatLines(header: string, items: readonly ContextItem[]): string {
  if (items.length === 0) return '';
  const { facts, entities } = split(items);
  const lines = [header];
  for (const f of facts) lines.push(f.date === '' ? `- ${f.fact}` : `- ${f.fact} (${f.date})`);
  if (entities.length > 0) {
    lines.push('Related entities:');
    for (const e of entities) lines.push(e.summary === '' ? `- ${e.name}` : `- ${e.name}: ${e.summary}`);
  }
  return lines.join('\n');
}

/** TOON (tabular arrays `facts[N]{fact,date}:` / `entities[N]{name,summary}:`) under the same header. '' when there are no items. */
export function formatToon(header: string, items: readonly ContextItem[]): string {
  if (items.length === 0) return '';
  const { facts, entities } = split(items);
  const data: Record<string, Array<Record<string, string>>> = {};
  if (facts.length > 0) data.facts = facts.map((f) => ({ fact: f.fact, date: f.date }));
  if (entities.length > 0) data.entities = entities.map((e) => ({ name: e.name, summary: e.summary }));
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

export interface BuildContextInput {
  graphiti: ContextSearcher;
  config: Pick<Config, 'contextBudget' | 'contextFormat'>;
  project: ProjectInfo;
  now?: Date;
  logger?: Logger;
  signal?: AbortSignal;
  /** Per query (defaults 20 and 8). */
  maxFacts?: number;
  maxNodes?: number;
}

export interface BuiltContext extends RenderedContext {
  queries: string[];
  /** Facts/entities found before ranking and fitting, and facts dropped as expired. */
  found: { facts: number; nodes: number; expired: number };
  /** Searches that failed (the others still count). */
  failedSearches: number;
}

function clip(text: string, max: number): string {
  const s = text.replace(/\s+/g, ' ').trim();
  if (s.length <= max) return s;
  const cut = s.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return space > max / 2 ? cut.slice(0, space) : cut;
}

/** The search queries for a project: its name, its decisions, recent commits and recently edited memory titles. */
export function contextQueries(project: Pick<ProjectInfo, 'name' | 'root' | 'gitDir' | 'memoryDir' | 'isGit'>): string[] {
  const name = project.name.replace(/[-_.]+/g, ' ').trim() || project.name;
  const queries = [name, `${name} architecture decisions conventions`];
  const commits = project.isGit ? recentCommitSubjects(project.root, 5, project.gitDir) : [];
  if (commits.length > 0) queries.push(clip(commits.join('; '), 300));
  const titles = recentMemoryTitles(project.memoryDir, 5);
  if (titles.length > 0) queries.push(clip(titles.join('; '), 300));
  return [...new Set(queries.filter((q) => q !== ''))];
}

/**
 * Searches Graphiti and renders the context block for a project. Returns text '' when the
 * graph has nothing (inject nothing). Throws when EVERY search failed (server down), so a
 * caller keeps its previous cache instead of replacing it with an empty one.
 */
export async function buildContext(input: BuildContextInput): Promise<BuiltContext> {
  const { graphiti, config, project } = input;
  const now = input.now ?? new Date();
  const logger = input.logger ?? nullLogger;
  if (config.contextBudget > MAX_CONTEXT_BUDGET) throw new RangeError(`contextBudget ${config.contextBudget} is over the hard cap of ${MAX_CONTEXT_BUDGET}`);
  const budget = Math.max(0, Math.min(config.contextBudget, MAX_CONTEXT_CHARS));
  const queries = contextQueries(project);
  const maxFacts = input.maxFacts ?? 20;
  const maxNodes = input.maxNodes ?? 8;

  const facts: Fact[] = [];
  const nodes: EntityNode[] = [];
  let failed = 0;
  let firstError: unknown;
  // Sequential on purpose: this is background work and must be gentle on the server. A server
  // that cannot be reached (refused, reset, timed out, after the client's own retries) is not
  // asked again for the other searches: that was ~20 connection attempts per worker run.
  searches: for (const query of queries) {
    for (const kind of ['facts', 'nodes'] as const) {
      if (input.signal?.aborted === true) throw input.signal.reason instanceof Error ? input.signal.reason : new Error('aborted');
      try {
        if (kind === 'facts') facts.push(...(await graphiti.searchFacts(query, project.groupIds, maxFacts, input.signal)));
        else nodes.push(...(await graphiti.searchNodes(query, project.groupIds, maxNodes, input.signal)));
      } catch (error) {
        failed++;
        firstError ??= error;
        logger.warn('context search failed', { kind, query: query.slice(0, 80), error: error instanceof Error ? error.message : String(error) });
        if (error instanceof McpNetworkError || error instanceof McpTimeoutError) {
          failed = queries.length * 2;
          break searches;
        }
      }
    }
  }
  if (failed === queries.length * 2) throw firstError instanceof Error ? firstError : new Error(String(firstError));

  const rankedFacts = rankFacts(facts, now);
  const unique = new Map<string, Fact>();
  for (const f of facts) if (!unique.has(f.uuid)) unique.set(f.uuid, f);
  const expired = [...unique.values()].filter((f) => isExpired(f, now)).length;
  const rankedNodes = rankNodes(nodes);
  const items: ContextItem[] = [
    ...rankedFacts.map((f) => ({ kind: 'fact' as const, ...toFactLine(f) })),
    ...rankedNodes.map((n) => ({ kind: 'entity' as const, ...toEntityLine(n) })),
  ];
  const header = contextHeader(project.name, project.groupIds);
  const rendered = budget === 0 ? { text: '', format: 'none' as const, facts: 0, nodes: 0, measured: { lines: 0, toon: 0 } } : renderContext(header, items, config.contextFormat, budget);
  if (rendered.text.length > budget) throw new Error(`internal: context of ${rendered.text.length} characters exceeds the budget of ${budget}`);
  return { ...rendered, queries, found: { facts: unique.size, nodes: rankedNodes.length, expired }, failedSearches: failed };
}

/** The cache entry for a built context. */
export function toCacheEntry(project: ProjectInfo, built: RenderedContext, now: Date = new Date()): ContextCacheEntry {
  return {
    version: 1,
    builtAt: now.toISOString(),
    project: project.name,
    key: project.key,
    root: project.root,
    groupIds: project.groupIds,
    text: built.text,
    format: built.format,
    facts: built.facts,
    nodes: built.nodes,
    measured: built.measured,
  };
}

export interface RefreshOptions {
  /** A ready client (tests, or a CLI that already has one); otherwise one is created and closed. */
  graphiti?: ContextSearcher;
  logger?: Logger;
  signal?: AbortSignal;
  now?: Date;
}

/** Builds the context for a project with Graphiti and writes the cache the hook reads. */
export async function refreshProjectContext(
  config: Config,
  project: ProjectInfo,
  options: RefreshOptions = {},
): Promise<{ entry: ContextCacheEntry; path: string; built: BuiltContext }> {
  const logger = options.logger ?? nullLogger;
  let graphiti = options.graphiti;
  let close: (() => Promise<void>) | undefined;
  if (graphiti === undefined) {
    const { GraphitiClient } = await import('../graphiti/graphiti.js');
    const client = new GraphitiClient(config, { logger: logger.child({ component: 'graphiti' }) });
    graphiti = client;
    close = () => client.close();
  }
  try {
    const now = options.now ?? new Date();
    const built = await buildContext({
      graphiti,
      config,
      project,
      now,
      logger,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    const entry = toCacheEntry(project, built, now);
    const path = await writeContextCache(config.stateDir, entry);
    logger.info('context cache written', { project: project.name, key: project.key, format: entry.format, chars: entry.text.length, facts: entry.facts, nodes: entry.nodes, measured: entry.measured, failedSearches: built.failedSearches });
    return { entry, path, built };
  } finally {
    await close?.().catch(() => undefined);
  }
}
