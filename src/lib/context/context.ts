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
import type { Config } from '../config/config.js';
import { MAX_CONTEXT_BUDGET, MAX_CONTEXT_CHARS, writeContextCache, type ContextCacheEntry } from './cache.js';
import { factRestsOnlyOn, type EntityNode, type Fact } from '../graphiti/graphiti.js';
import { nullLogger, type Logger } from '../util/log.js';
import { McpNetworkError, McpTimeoutError } from '../mcp/errors.js';
import { recentCommitSubjects, recentMemoryTitles, type ProjectInfo } from './project.js';
import { isExpired, rankFacts, rankNodes } from './rank.js';
import { contextHeader, renderContext, toEntityLine, toFactLine, type ContextItem, type RenderedContext } from './render.js';

export * from './rank.js';
export * from './render.js';

/** The two GraphitiClient calls the context needs (tests pass a fake). */
export interface ContextSearcher {
  searchFacts(query: string, groupIds: string[], maxFacts?: number, signal?: AbortSignal): Promise<Fact[]>;
  searchNodes(query: string, groupIds: string[], maxNodes?: number, signal?: AbortSignal): Promise<EntityNode[]>;
  /** Removes a fact left behind by deleted episodes (optional: a searcher without it only leaves them out). */
  deleteEntityEdge?(uuid: string, groupId: string, signal?: AbortSignal): Promise<unknown>;
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
  /**
   * Our episodes that are deleted or replaced (state/retired.ts `loadRetiredEpisodes`): a fact
   * resting only on them is left out, and removed from the graph, whatever the server kept.
   */
  retiredEpisodes?: ReadonlySet<string>;
}

export interface BuiltContext extends RenderedContext {
  queries: string[];
  /** Facts/entities found before ranking and fitting, facts dropped as expired, and facts left out as resting only on retired episodes. */
  found: { facts: number; nodes: number; expired: number; retired: number };
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

  // Deleted stays deleted: an older version's facts, or a deleted note's, never reach the block.
  const retired = input.retiredEpisodes ?? new Set<string>();
  const stale = new Map<string, Fact>();
  for (const f of facts) if (factRestsOnlyOn(f, retired)) stale.set(f.uuid, f);
  if (stale.size > 0) {
    facts.splice(0, facts.length, ...facts.filter((f) => !stale.has(f.uuid)));
    for (const f of stale.values()) {
      if (graphiti.deleteEntityEdge === undefined || f.group_id === undefined || input.signal?.aborted === true) continue;
      await graphiti.deleteEntityEdge(f.uuid, f.group_id, input.signal).catch((error: unknown) => logger.warn('could not remove a fact left by a deleted episode', { uuid: f.uuid, error: error instanceof Error ? error.message : String(error) }));
    }
    logger.info('left out facts resting only on deleted or replaced episodes', { facts: stale.size });
  }

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
  return { ...rendered, queries, found: { facts: unique.size, nodes: rankedNodes.length, expired, retired: stale.size }, failedSearches: failed };
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
  /** See BuildContextInput.retiredEpisodes. */
  retiredEpisodes?: ReadonlySet<string>;
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
      // Given by a caller that has them at hand (tests), else read from the state (state/retired.ts).
      retiredEpisodes: options.retiredEpisodes ?? (await (await import('../state/retired.js')).loadRetiredEpisodes(config.stateDir)),
    });
    const entry = toCacheEntry(project, built, now);
    const path = await writeContextCache(config.stateDir, entry);
    logger.info('context cache written', { project: project.name, key: project.key, format: entry.format, chars: entry.text.length, facts: entry.facts, nodes: entry.nodes, measured: entry.measured, failedSearches: built.failedSearches });
    return { entry, path, built };
  } finally {
    await close?.().catch(() => undefined);
  }
}

