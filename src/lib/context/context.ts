/**
 * Builds the knowledge block injected at session start. Runs in the background worker
 * (and the CLI), never in the hook: it talks to Graphiti and loads the TOON encoder.
 *
 * Steps: a few searches (project name, "<name> architecture decisions conventions",
 * recent commit subjects, recently edited memory titles) over the project's groups →
 * results deduplicated by uuid and by text (rank.ts SAME_WORDS) → expired/invalidated facts
 * dropped → ranked (how near the session, then decisions/architecture/conventions first, then
 * newest) → ordered (block-order.ts: the project's facts, the team's and the preferences in
 * turns, the near entities, the rest) → rendered as terse lines or TOON, whichever is shorter for
 * the same facts in `auto` mode → fitted to the budget by dropping the last items, never cutting a line.
 *
 * Escaping: GraphitiClient normalizes group ids and escapes search text per
 * MADEINOZ_KNOWLEDGE_DB itself (graphiti/graphiti.ts), so queries are passed as plain text
 * here and never escaped twice.
 *
 * Phrasing: everything is stated as facts from the graph ("Knowledge graph facts for …"),
 * with no imperative instructions: Claude Code's docs warn that system-style orders in
 * injected context can trigger prompt-injection defences.
 *
 * Data, not orders (issue 32): each line says whose it is (provenance.ts); the trust setting
 * (MADEINOZ_KNOWLEDGE_CONTEXT_TRUST) keeps out what comes from further away; text shaped like
 * orders to the assistant is kept out (orders.ts) unless it is this project's own notes, which
 * Claude Code loads into the session anyway (issue 45, provenance.ts says who gets the filter). Retired words (issue 24):
 * facts resting only on deleted or replaced notes are left out, and entity summaries only appear
 * on servers that rebuild them when an episode is deleted (`rebuildsSummaries`, graphiti 0.31.2+):
 * elsewhere a summary keeps the words of every episode that ever mentioned the entity, so it cannot
 * be shown current. Everything left out is listed with its reason (`omitted`, `context --omitted`).
 */
import { join, resolve } from 'node:path';
import { resolveSources } from '../memory/sources.js';
import type { Config } from '../config/config.js';
import { MAX_CONTEXT_BUDGET, MAX_CONTEXT_CHARS, writeContextCache, type ContextCacheEntry } from './cache.js';
import { factRestsOnlyOn, type EntityNode, type Fact } from '../graphiti/graphiti.js';
import { nullLogger, type Logger } from '../util/log.js';
import { McpNetworkError, McpTimeoutError } from '../mcp/errors.js';
import { recentCommitSubjects, recentMemoryTitles, type ProjectInfo } from './project.js';
import { isOrderReason, orderReason } from './orders.js';
import { classifyOurEpisodes, factProvenance, restsOnThisProject, thisProjectsEpisodes, trusted, type ContextTrust, type EpisodeProvenance, type Provenance, type ThisProject } from './provenance.js';
import { isExpired, rankFacts, rankNodes } from './rank.js';
import { beyondProjectEpisodes, beyondProjectNotes, notesForBudget, answersNoteSearch, FACTS_PER_TITLE, noteOpening, noteQuery, relevanceClass, type BeyondProjectNote, type OurEpisodeNote } from './beyond-project.js';
import { blockOrder, entityClass, saidOnlyByFacts, saidWords, streamOf, type Ordered } from './block-order.js';
import { cleanText, contextHeader, MAX_FACT_CHARS, MAX_SUMMARY_CHARS, renderContext, toEntityLine, toFactLine, type ContextItem, type RenderedContext } from './render.js';

export * from './orders.js';
export * from './provenance.js';
export * from './rank.js';
export * from './render.js';

/** A fact or entity the block leaves out, and why (`context --omitted`). */
export interface Omission {
  kind: 'fact' | 'entity';
  from: Provenance;
  /** The line as it would have read (one line, capped). */
  text: string;
  reason: string;
}

/** Most omissions kept with a built context (the cache stays small). */
export const MAX_OMISSIONS = 100;

export const OMIT_RETIRED = 'rests only on deleted or replaced notes';
export const OMIT_EXPIRED = 'expired or invalidated';
export const OMIT_EMPTY_SUMMARY = 'entity without a summary';
/** block-order.ts ENTITY_SAID_BY_FACTS. */
export const OMIT_SAID_BY_FACTS = 'an entity of other projects or writers whose summary says nothing the facts before it do not';
export const OMIT_SUMMARY_NOT_CURRENT = 'summary may keep words of deleted or replaced notes (this server does not rebuild summaries)';
export const OMIT_SUMMARY_RULES_UNKNOWN = 'summary may keep words of deleted or replaced notes (this server\'s rules are not known now: the hook worker learns them after building the context, with a small probe, and builds it again; or pin them with MADEINOZ_KNOWLEDGE_SERVER_RULES)';
export function omitByTrust(trust: ContextTrust): string {
  return `outside the trust setting (MADEINOZ_KNOWLEDGE_CONTEXT_TRUST=${trust})`;
}

/**
 * Whether entity summaries can be shown current: `current` (the server rebuilds them after a
 * delete), `not-current` (it does not: they keep retired words), `rules-unknown` (its rules are
 * not known now, so neither can be told: they stay out, and the block says how many would have
 * reached the session, `summariesAwaitingRules`).
 */
export type SummaryRule = 'current' | 'not-current' | 'rules-unknown';

/** The summary rule, and whether a probe may learn the rules now (server-rules.ts `probeable`): what makes asking worth a sync run. */
interface SummaryRuleNow {
  rule: SummaryRule;
  askable: boolean;
}

/** Why an entity line (not an order) stays out: no summary, a summary that cannot be shown current, or the trust setting. */
function entityLeftOut(summary: string, rule: SummaryRule, trust: ContextTrust): string | undefined {
  if (summary === '') return OMIT_EMPTY_SUMMARY;
  if (rule === 'not-current') return OMIT_SUMMARY_NOT_CURRENT;
  if (!trusted('group', trust)) return omitByTrust(trust);
  return rule === 'rules-unknown' ? OMIT_SUMMARY_RULES_UNKNOWN : undefined;
}

/** The two GraphitiClient calls the context needs (tests pass a fake). */
export interface ContextSearcher {
  searchFacts(query: string, groupIds: string[], maxFacts?: number, signal?: AbortSignal): Promise<Fact[]>;
  searchNodes(query: string, groupIds: string[], maxNodes?: number, signal?: AbortSignal): Promise<EntityNode[]>;
  /** Removes a fact left behind by deleted episodes (optional: a searcher without it only leaves them out). */
  deleteEntityEdge?(uuid: string, groupId: string, signal?: AbortSignal): Promise<unknown>;
}

export interface BuildContextInput {
  graphiti: ContextSearcher;
  config: Pick<Config, 'contextBudget' | 'contextFormat'> & Partial<Pick<Config, 'contextTrust'>>;
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
  /** Our current parts' episodes and whose they are (state/our-episodes.ts); any other episode is `group`. */
  episodeProvenance?: EpisodeProvenance;
  /**
   * Our episodes from this project's own notes (provenance.ts `thisProjectsEpisodes`): a fact
   * resting on one is the user's own text, shown `[own]` whatever its shape (issue 45). Default none.
   */
  thisProjectEpisodes?: ReadonlySet<string>;
  /**
   * Whether the server rebuilds entity summaries when an episode is deleted (graphiti/semantics.ts
   * `ServerSemantics.rebuildsSummaries`). Default false: summaries cannot be shown current.
   */
  rebuildsSummaries?: boolean;
  /**
   * `rebuildsSummaries` is false only because the server's rules are not known now (server-rules.ts
   * `source: 'assumed'`): the summaries left out for it are counted (`summariesAwaitingRules`).
   */
  summaryRulesUnknown?: boolean;
  /**
   * The user's and the team's knowledge beyond any one project (beyond-project.ts): a query per
   * note (BEYOND_PROJECT_QUERIES, `noteQuery`) and the episodes ranked after this project's own and
   * before the rest of the group (RELEVANCE_CLASS). Default none.
   */
  beyondProject?: { queries: readonly string[]; episodes: ReadonlySet<string> };
}

export interface BuiltContext extends RenderedContext {
  queries: string[];
  /** Facts/entities found before ranking and fitting, facts dropped as expired, and facts left out as resting only on retired episodes. */
  found: { facts: number; nodes: number; expired: number; retired: number };
  /** What was left out and why (at most MAX_OMISSIONS), and how many ranked lines did not fit the budget. */
  omitted: Omission[];
  overBudget: number;
  /** Searches that failed (the others still count). */
  failedSearches: number;
  /**
   * Entity lines that would reach the session (in the budget) were the server's rules known to
   * rebuild summaries, left out only because they are not known now (`summaryRulesUnknown`): what
   * makes the worker ask for the rules (refreshProjectContext SUMMARIES_WANT_RULES). 0 when known.
   */
  summariesAwaitingRules: number;
  /** The groups whose knowledge the block shows (`shownGroups`); none when it is empty. */
  shownGroups: string[];
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
  const here = input.thisProjectEpisodes ?? new Set<string>();
  // BEYOND_PROJECT_QUERIES (beyond-project.ts): the team's and the user's notes, one note a search,
  // facts only, and only the facts it was asked for (`answersNoteSearch`).
  const beyond = input.beyondProject;
  const relevance = { projectName: project.name, thisProject: here, beyondProject: beyond?.episodes ?? new Set<string>() };
  const beyondQueries = [...new Set(beyond?.queries ?? [])].filter((q) => q !== '' && !queries.includes(q));
  const plan: Array<{ query: string; kind: 'facts' | 'nodes'; max: number; keep?: (fact: Fact) => boolean }> = [
    ...queries.flatMap((query) => [{ query, kind: 'facts' as const, max: maxFacts }, { query, kind: 'nodes' as const, max: maxNodes }]),
    ...beyondQueries.map((query) => ({ query, kind: 'facts' as const, max: FACTS_PER_TITLE, keep: (fact: Fact) => answersNoteSearch(fact, relevance) })),
  ];
  let failed = 0;
  let firstError: unknown;
  // Sequential on purpose: this is background work and must be gentle on the server. A server
  // that cannot be reached (refused, reset, timed out, after the client's own retries) is not
  // asked again for the other searches: that was ~20 connection attempts per worker run.
  for (const { query, kind, max, keep } of plan) {
    if (input.signal?.aborted === true) throw input.signal.reason instanceof Error ? input.signal.reason : new Error('aborted');
    try {
      if (kind === 'facts') facts.push(...(await graphiti.searchFacts(query, project.groupIds, max, input.signal)).filter((f) => keep?.(f) ?? true));
      else nodes.push(...(await graphiti.searchNodes(query, project.groupIds, max, input.signal)));
    } catch (error) {
      failed++;
      firstError ??= error;
      logger.warn('context search failed', { kind, query: query.slice(0, 80), error: error instanceof Error ? error.message : String(error) });
      if (error instanceof McpNetworkError || error instanceof McpTimeoutError) {
        failed = plan.length;
        break;
      }
    }
  }
  if (failed === plan.length) throw firstError instanceof Error ? firstError : new Error(String(firstError));

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

  const trust = config.contextTrust ?? 'group';
  const known = input.episodeProvenance ?? new Map();
  const left: Omission[] = [];
  for (const f of stale.values()) left.push({ kind: 'fact', from: factProvenance(f, known), text: cleanText(f.fact, MAX_FACT_CHARS), reason: OMIT_RETIRED });

  const unique = new Map<string, Fact>();
  for (const f of facts) if (!unique.has(f.uuid)) unique.set(f.uuid, f);
  const expiredFacts = [...unique.values()].filter((f) => isExpired(f, now));
  for (const f of expiredFacts) left.push({ kind: 'fact', from: factProvenance(f, known), text: cleanText(f.fact, MAX_FACT_CHARS), reason: OMIT_EXPIRED });

  const items: ContextItem[] = [];
  /** Each item's group, as the server named it (`group_id`), beside `items`: what `shownGroups` reads. */
  const itemGroups: Array<string | undefined> = [];
  /** The lines that pass, before block-order.ts orders them (FAIR_SHARE, ENTITY_RELEVANCE). */
  const passing: Array<Ordered<{ line: ContextItem; group: string | undefined }, { line: ContextItem; group: string | undefined }>> = [];
  const kept: Array<{ fact: Fact; relevance: 0 | 1 | 2 }> = [];
  /** Why a fact stays out (an order, the trust setting), or undefined when it is shown; each fact judged once. */
  const judged = new Map<Fact, string | undefined>();
  const leftOutBecause = (f: Fact): string | undefined => {
    if (judged.has(f)) return judged.get(f);
    // This project's own notes are the user's, loaded by Claude Code anyway: not judged as orders.
    const reason = (restsOnThisProject(f, here) ? undefined : orderReason(f.fact)) ?? (trusted(factProvenance(f, known), trust) ? undefined : omitByTrust(trust));
    judged.set(f, reason);
    return reason;
  };
  // SAME_WORDS keeps one copy of a text: this project's own, else one that is shown. A copy left out (another
  // writer's, read as an order or outside the trust setting) would take the user's own line of the same words with it.
  const preferred = (f: Fact): number => (restsOnThisProject(f, here) ? 2 : leftOutBecause(f) === undefined ? 1 : 0);
  for (const f of rankFacts(facts, now, (fact) => relevanceClass(fact, relevance), preferred)) {
    const line = toFactLine(f, factProvenance(f, known));
    const reason = leftOutBecause(f);
    if (reason === undefined) {
      const near = relevanceClass(f, relevance);
      kept.push({ fact: f, relevance: near });
      passing.push({ kind: 'fact', item: { line: { kind: 'fact', ...line }, group: f.group_id }, stream: streamOf(near, line.from) });
    } else left.push({ kind: 'fact', from: line.from, text: line.fact, reason });
  }
  const rankedNodes = rankNodes(nodes);
  const rule: SummaryRule = input.rebuildsSummaries === true ? 'current' : input.summaryRulesUnknown === true ? 'rules-unknown' : 'not-current';
  /** Entity lines left out only because the rules are not known (their rank order kept). */
  const awaiting: Array<{ line: ContextItem & { kind: 'entity' }; relevance: 0 | 1 | 2 }> = [];
  for (const n of rankedNodes) {
    // A summary names no episode: it mixes everyone's in the group.
    const line = toEntityLine(n, 'group');
    const reason = orderReason(`${n.name}: ${n.summary ?? ''}`) ?? entityLeftOut(line.summary, rule, trust);
    const near = reason === undefined || reason === OMIT_SUMMARY_RULES_UNKNOWN ? entityClass(n, kept, project.name) : 2;
    if (reason === undefined) passing.push({ kind: 'entity', item: { line: { kind: 'entity', ...line }, group: n.group_id }, relevance: near });
    else left.push({ kind: 'entity', from: 'group', text: line.summary === '' ? line.name : `${line.name}: ${line.summary}`, reason });
    if (reason === OMIT_SUMMARY_RULES_UNKNOWN) awaiting.push({ line: { kind: 'entity', ...line }, relevance: near });
  }
  /** Every word of the facts before an entity line (the rest's entities come after every fact: blockOrder). */
  const factWords = new Set<string>();
  for (const { item, ...order } of blockOrder(passing)) {
    const { line } = item;
    if (line.kind === 'fact') for (const w of saidWords(line.fact)) factWords.add(w);
    else if ('relevance' in order && saidOnlyByFacts(order.relevance, line.summary, factWords)) {
      left.push({ kind: 'entity', from: line.from, text: `${line.name}: ${line.summary}`, reason: OMIT_SAID_BY_FACTS });
      continue;
    }
    items.push(line);
    itemGroups.push(item.group);
  }
  // Orders first: they are what `context --omitted` is most often asked about.
  const omitted = [...left.filter((o) => isOrderReason(o.reason)), ...left.filter((o) => !isOrderReason(o.reason))].slice(0, MAX_OMISSIONS);
  if (left.length > 0) logger.info('context lines left out', { count: left.length, reasons: [...new Set(left.map((o) => o.reason))] });

  const header = contextHeader(project.name, project.groupIds);
  const rendered = budget === 0 ? { text: '', format: 'none' as const, facts: 0, nodes: 0, measured: { lines: 0, toon: 0 } } : renderContext(header, items, config.contextFormat, budget);
  if (rendered.text.length > budget) throw new Error(`internal: context of ${rendered.text.length} characters exceeds the budget of ${budget}`);
  // The same block with them: how many would fit beside the facts kept (none, when facts fill the budget).
  // Not those ENTITY_SAID_BY_FACTS would leave out once the rules are known: a probe for them would change nothing.
  const wanted = awaiting.filter((a) => !saidOnlyByFacts(a.relevance, a.line.summary, factWords)).map((a) => a.line);
  const summariesAwaitingRules = budget === 0 || wanted.length === 0 ? 0 : renderContext(header, [...items, ...wanted], config.contextFormat, budget).nodes - rendered.nodes;
  return {
    ...rendered,
    queries: [...queries, ...beyondQueries],
    found: { facts: unique.size, nodes: rankedNodes.length, expired: expiredFacts.length, retired: stale.size },
    omitted,
    overBudget: items.length - rendered.facts - rendered.nodes,
    failedSearches: failed,
    summariesAwaitingRules,
    shownGroups: shownGroups(itemGroups.slice(0, rendered.facts + rendered.nodes), project.groupIds),
  };
}

/**
 * The groups whose knowledge the block shows (graph-problem.ts EMPTIED_WARNING_OWNS_ITS_GROUPS): the
 * group each shown line came from (the block keeps a prefix of the ranked items). A line the server
 * gave no group (every peer we know names it) counts only where the project searched one group.
 */
function shownGroups(groups: ReadonlyArray<string | undefined>, searched: readonly string[]): string[] {
  const out = new Set<string>();
  for (const g of groups) {
    if (g !== undefined && g !== '') out.add(g);
    else if (searched.length === 1) out.add(searched[0] as string);
  }
  return [...out];
}

/** The cache entry for a built context. */
export function toCacheEntry(project: ProjectInfo, built: RenderedContext & Partial<Pick<BuiltContext, 'omitted' | 'overBudget'>>, now: Date = new Date()): ContextCacheEntry {
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
    ...(built.omitted === undefined ? {} : { omitted: built.omitted }),
    ...(built.overBudget === undefined ? {} : { overBudget: built.overBudget }),
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
  /** Our episodes with their source, origin, project, title and group (state/our-episodes.ts), classified here with config.sharedSources. */
  ourEpisodes?: Iterable<OurEpisodeNote>;
  /** See BuildContextInput.rebuildsSummaries. */
  rebuildsSummaries?: boolean;
  /**
   * SUMMARIES_WANT_RULES: asks for the server's rules (the worker: a sync run that probes them),
   * true once they are known. Without it (`context --refresh`) nothing is asked: a context build
   * never costs LLM calls itself.
   */
  askRules?: () => Promise<boolean>;
}

/**
 * The retired set and our episodes' provenance: given by a caller that has them at hand (tests),
 * else read from the state once (state/our-episodes.ts).
 */
async function stateInputs(
  stateDir: string,
  options: RefreshOptions & { sharedSources: Readonly<Record<string, string>>; here: ThisProject },
  beyond: { groupIds: readonly string[]; roots: ReadonlyMap<string, string>; projectFolders: ReadonlySet<string>; budget: number },
): Promise<{ retiredEpisodes: ReadonlySet<string>; episodeProvenance: EpisodeProvenance; thisProjectEpisodes: ReadonlySet<string>; beyondProject: NonNullable<BuildContextInput['beyondProject']> }> {
  const fromState = options.retiredEpisodes === undefined || options.ourEpisodes === undefined ? await (await import('../state/our-episodes.js')).loadContextInputs(stateDir) : undefined;
  const ours = [...(options.ourEpisodes ?? fromState?.ourEpisodes ?? [])];
  const opening = (n: BeyondProjectNote) => {
    const root = beyond.roots.get(n.source);
    return root === undefined || n.relPath === undefined ? '' : noteOpening(join(root, n.relPath));
  };
  return {
    retiredEpisodes: options.retiredEpisodes ?? fromState?.retiredEpisodes ?? new Set(),
    episodeProvenance: classifyOurEpisodes(ours, options.sharedSources),
    thisProjectEpisodes: thisProjectsEpisodes(ours, options.sharedSources, options.here),
    beyondProject: {
      queries: beyondProjectNotes(ours, options.sharedSources, beyond.groupIds, notesForBudget(beyond.budget), beyond.projectFolders).map((n) => noteQuery(n.title, opening(n))),
      episodes: beyondProjectEpisodes(ours, options.sharedSources, beyond.projectFolders),
    },
  };
}

/** This project's key, and the moved memory folders (config.autoMemoryFolders) that are its memory folder. */
function thisProject(config: Pick<Config, 'autoMemoryFolders'>, project: Pick<ProjectInfo, 'key' | 'memoryDir'>): ThisProject {
  const dir = resolve(project.memoryDir);
  return { key: project.key, folderSources: new Set((config.autoMemoryFolders ?? []).filter((f) => f.layout === 'folder' && resolve(f.root) === dir).map((f) => f.name)) };
}

/**
 * Whether this server rebuilds entity summaries after a delete (graphiti/semantics.ts), known from
 * its generation or as the sync cached it (trusted only while the server process that answered
 * still does, server-rules.ts); never probed from here (a context build must not cost LLM calls).
 * `rules-unknown` when it cannot be told now (a probed answer lost with the server's session, a
 * server not probed yet): summaries may keep retired words and stay out, and the worker may ask
 * for the rules; `not-current` when the server could not be asked at all, or when the last probe
 * of it found no rebuilding (nothing to show would come of asking).
 */
async function summaryRule(graphiti: ContextSearcher, config: Config, logger: Logger, signal: AbortSignal | undefined): Promise<SummaryRuleNow> {
  const rule = (value: SummaryRule, askable = false): SummaryRuleNow => ({ rule: value, askable });
  if (!('serverProfile' in graphiti)) return rule('not-current');
  const { resolveSemantics, semanticsOptions } = await import('../graphiti/server-rules.js');
  const { withLockIfFree } = await import('../state/lock.js');
  // A sentinel found answering here is recorded as a sync's would be (server-rules.ts
  // IDLE_LOSS_EXPLAINED): under the state lock, taken only if no run holds it (never waited for).
  const noteAnswer = (write: () => Promise<void>) => withLockIfFree(config.stateDir, write, { label: 'context refresh', ...(signal === undefined ? {} : { signal }) });
  const semantics = await resolveSemantics(graphiti as import('../graphiti/graphiti.js').GraphitiClient, { ...semanticsOptions(config, logger, signal), probe: false, noteAnswer }).catch(() => undefined);
  if (semantics === undefined) return rule('not-current');
  // The last probe here found no rebuilding: a stale answer may only withhold (server-rules.ts LAST_PROBED_ONLY_WITHHOLDS), so no probe is asked for to show them.
  if (semantics.source === 'assumed') return semantics.lastProbed?.rebuildsSummaries === false ? rule('not-current') : rule('rules-unknown', semantics.probeable === true);
  return rule(semantics.rebuildsSummaries ? 'current' : 'not-current');
}

/** The summary rule's inputs: as the caller says (tests), else as this server's rules are known now. */
async function summaryInputs(graphiti: ContextSearcher, config: Config, logger: Logger, options: RefreshOptions): Promise<Pick<BuildContextInput, 'rebuildsSummaries' | 'summaryRulesUnknown'> & { askable: boolean }> {
  if (options.rebuildsSummaries !== undefined) return { rebuildsSummaries: options.rebuildsSummaries, askable: false };
  const { rule, askable } = await summaryRule(graphiti, config, logger, options.signal);
  return { rebuildsSummaries: rule === 'current', summaryRulesUnknown: rule === 'rules-unknown', askable };
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
    const searcher = graphiti;
    let askable = false;
    const build = async () => {
      const summaries = await summaryInputs(searcher, config, logger, options);
      askable = summaries.askable;
      return buildContext({
        graphiti: searcher,
        config,
        project,
        now,
        logger,
        ...(options.signal === undefined ? {} : { signal: options.signal }),
        ...(await stateInputs(config.stateDir, { ...options, sharedSources: config.sharedSources, here: thisProject(config, project) }, { groupIds: project.groupIds, roots: new Map(resolveSources(config).map((source) => [source.name, source.root])), projectFolders: new Set((config.autoMemoryFolders ?? []).map((f) => f.name)), budget: config.contextBudget })),
        rebuildsSummaries: summaries.rebuildsSummaries ?? false,
        summaryRulesUnknown: summaries.summaryRulesUnknown ?? false,
      });
    };
    let built = await build();
    // SUMMARIES_WANT_RULES: entity summaries that would reach the session were left out only
    // because the server's rules are not known now. On 0.31.x a probed answer lasts only while the
    // server's session does (30 idle minutes), and nothing else tells a restarted server, perhaps
    // another build, from the same one (docs/semantics.md): no cached answer may stand in. So they
    // are asked for, but only when the block would change (summaries within its budget, allowed by
    // the trust setting, a probe allowed now by the setting and the budgets), and after a first
    // block is built (a session start's pull and context are not held up by a probe); the block is
    // built again once they are known.
    if (built.summariesAwaitingRules > 0 && askable && options.askRules !== undefined && options.signal?.aborted !== true) {
      await writeContextCache(config.stateDir, toCacheEntry(project, built, now));
      if (await options.askRules().catch((error: unknown) => (logger.warn('could not learn the server\'s rules for the entity summaries', { error: error instanceof Error ? error.message : String(error) }), false))) built = await build();
    }
    const entry = toCacheEntry(project, built, now);
    const path = await writeContextCache(config.stateDir, entry);
    logger.info('context cache written', { project: project.name, key: project.key, format: entry.format, chars: entry.text.length, facts: entry.facts, nodes: entry.nodes, measured: entry.measured, omitted: built.omitted.length, failedSearches: built.failedSearches });
    return { entry, path, built };
  } finally {
    await close?.().catch(() => undefined);
  }
}

