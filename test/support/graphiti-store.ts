/**
 * In-memory "graph" behind the Graphiti-shaped test server: episodes, a
 * deterministic fake extraction into nodes and facts, the per-group FIFO
 * ingestion queue, and the silent-failure log.
 *
 * Mirrors Graphiti MCP 1.0.2 (see /work/shared/reference/graphiti-mcp-server.md,
 * sections 2, 4 and 5): `add_memory` only enqueues; an episode becomes visible
 * once its group's worker has processed it; every background failure is only
 * "logged" (kept in `failures`) and never reported to the client.
 */
import { randomUUID } from 'node:crypto';

/** The 7 fields `get_episodes` returns on v1.x. */
export interface StoredEpisode {
  uuid: string;
  name: string;
  content: string;
  created_at: string;
  source: string;
  source_description: string;
  group_id: string;
}

/** A fact (EntityEdge dump) as `search_memory_facts` / `get_entity_edge` return it. */
export interface StoredFact {
  uuid: string;
  group_id: string;
  source_node_uuid: string;
  target_node_uuid: string;
  created_at: string;
  name: string;
  fact: string;
  episodes: string[];
  expired_at: string | null;
  valid_at: string | null;
  invalid_at: string | null;
  attributes: Record<string, unknown>;
}

/** A node as `search_nodes` returns it. */
export interface StoredNode {
  uuid: string;
  name: string;
  labels: string[];
  created_at: string | null;
  summary: string | null;
  group_id: string;
  attributes: Record<string, unknown>;
}

/** One background failure, as the real server would only log it. */
export interface FailureLog {
  at: number;
  groupId: string;
  /** The `name` argument of the add_memory call. */
  name: string;
  /** The `uuid` argument (re-process request), or null (Graphiti logs "None"). */
  episodeUuid: string | null;
  /** The exception text. */
  error: string;
  /** The full log line: `Failed to process episode <uuid|None> for group <g>: <error>`. */
  message: string;
  /** 'drop' when injected by faults.dropRate / failNext('drop'). */
  cause: 'invalid-group' | 'falkordb-hyphen' | 'unknown-uuid' | 'drop';
}

/** One successful worker run. */
export interface ProcessedLog {
  at: number;
  uuid: string;
  groupId: string;
  name: string;
  /** True when the call carried `uuid` of an existing episode (re-extraction, no new episode). */
  reprocessed: boolean;
}

export interface QueueItem {
  name: string;
  body: string;
  groupId: string;
  source: string;
  sourceDescription: string;
  /** `uuid` argument: re-process this existing episode. */
  uuid: string | null;
  /** ISO reference time (main's parameter), used as the facts' valid_at. */
  referenceTime: string | null;
  /** Decided at enqueue time (deterministic): the worker silently drops the item. */
  drop: boolean;
}

export interface StoreConfig {
  db: 'neo4j' | 'falkordb';
  processingDelayMs: number;
  maxFactsPerEpisode: number;
  maxNodesPerEpisode: number;
}

export const GROUP_ID_RE = /^[a-zA-Z0-9_-]+$/;

export function invalidGroupIdMessage(groupId: string): string {
  return `group_id "${groupId}" must contain only alphanumeric characters, dashes, or underscores`;
}

/**
 * The RediSearch error FalkorDB gives for a hyphenated group id in the fulltext
 * filter `(@group_id:"<g>") (...)`, e.g. `acpt-probe` → `Syntax error at offset 16 near acpt`.
 */
export function redisearchSyntaxError(groupIds: string[]): string | undefined {
  const query = `(@group_id:${groupIds.map((g) => `"${g}"`).join(' | ')})`;
  const offset = query.indexOf('-');
  if (offset < 0) return undefined;
  const before = /([A-Za-z0-9_]+)$/.exec(query.slice(0, offset));
  const near = before?.[1] ?? query.slice(offset + 1).split(/[^A-Za-z0-9_]/)[0] ?? '';
  return `RediSearch: Syntax error at offset ${offset} near ${near}`;
}

/** Python's `datetime.now(timezone.utc).isoformat()`: microseconds and `+00:00`. */
export function pyIsoNow(ms: number = Date.now()): string {
  return new Date(ms).toISOString().replace('Z', '000+00:00');
}

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

function score(text: string, terms: string[]): number {
  const lower = text.toLowerCase();
  let n = 0;
  for (const t of terms) if (lower.includes(t)) n += 1;
  return n;
}

type Timer = { kind: 'timeout'; handle: NodeJS.Timeout } | { kind: 'immediate'; handle: NodeJS.Immediate };

export class GraphitiStore {
  readonly episodes = new Map<string, StoredEpisode>();
  readonly facts = new Map<string, StoredFact>();
  readonly nodes = new Map<string, StoredNode>();
  /** node uuid → episode uuids that mention it (for cascade delete). */
  private readonly mentions = new Map<string, Set<string>>();
  /**
   * Dedup lookups `<group>\0<lower name|fact>` → uuid, so extraction stays O(1) per
   * entity in long soak runs. Entries may go stale after deletes; lookups verify them.
   */
  private readonly nodeIndex = new Map<string, string>();
  private readonly factIndex = new Map<string, string>();
  readonly failures: FailureLog[] = [];
  readonly processed: ProcessedLog[] = [];

  private readonly queues = new Map<string, QueueItem[]>();
  private readonly running = new Set<string>();
  private readonly timers = new Set<Timer>();
  private pending = 0;
  private paused = false;
  private idleWaiters: Array<() => void> = [];

  constructor(
    private readonly config: () => StoreConfig,
    private readonly hooks: { onProcessed?: (p: ProcessedLog) => void; onFailure?: (f: FailureLog) => void } = {},
  ) {}

  /** Items enqueued and not yet finished (processed, failed or dropped). */
  get pendingCount(): number {
    return this.pending;
  }

  // ---------------------------------------------------------------- queue

  enqueue(item: QueueItem): void {
    this.pending += 1;
    let q = this.queues.get(item.groupId);
    if (!q) {
      q = [];
      this.queues.set(item.groupId, q);
    }
    q.push(item);
    if (!this.running.has(item.groupId)) this.scheduleNext(item.groupId);
  }

  /** Holds every worker before its next item (items already waiting out their delay still run). */
  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
    for (const groupId of [...this.queues.keys()]) if (!this.running.has(groupId)) this.scheduleNext(groupId);
  }

  private scheduleNext(groupId: string): void {
    if (this.paused) {
      this.running.delete(groupId);
      return;
    }
    const q = this.queues.get(groupId);
    const item = q?.shift();
    if (!q || !item) {
      this.running.delete(groupId);
      this.queues.delete(groupId);
      return;
    }
    this.running.add(groupId);
    const delay = Math.max(0, this.config().processingDelayMs);
    let timer: Timer;
    const run = () => {
      this.timers.delete(timer);
      try {
        this.process(item);
      } finally {
        this.pending -= 1;
        this.scheduleNext(groupId);
        this.checkIdle();
      }
    };
    timer = delay > 0 ? { kind: 'timeout', handle: setTimeout(run, delay) } : { kind: 'immediate', handle: setImmediate(run) };
    this.timers.add(timer);
  }

  /** Resolves once every group queue is drained (immediately when nothing is pending). */
  whenIdle(): Promise<void> {
    if (this.pending === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private checkIdle(): void {
    if (this.pending !== 0) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }

  /** A restart: queued-but-unprocessed episodes are lost (no persistence in Graphiti). Returns how many. */
  dropQueues(): number {
    for (const t of this.timers) {
      if (t.kind === 'timeout') clearTimeout(t.handle);
      else clearImmediate(t.handle);
    }
    this.timers.clear();
    const lost = this.pending;
    this.queues.clear();
    this.running.clear();
    this.pending = 0;
    this.checkIdle();
    return lost;
  }

  private fail(item: QueueItem, cause: FailureLog['cause'], error: string): void {
    const f: FailureLog = {
      at: Date.now(),
      groupId: item.groupId,
      name: item.name,
      episodeUuid: item.uuid,
      error,
      message: `Failed to process episode ${item.uuid ?? 'None'} for group ${item.groupId}: ${error}`,
      cause,
    };
    this.failures.push(f);
    this.hooks.onFailure?.(f);
  }

  private process(item: QueueItem): void {
    const cfg = this.config();
    if (item.drop) return this.fail(item, 'drop', 'Rate limit exceeded. Please try again later.');
    if (!GROUP_ID_RE.test(item.groupId)) return this.fail(item, 'invalid-group', invalidGroupIdMessage(item.groupId));
    if (cfg.db === 'falkordb') {
      const err = redisearchSyntaxError([item.groupId]);
      if (err) return this.fail(item, 'falkordb-hyphen', err);
    }
    const now = Date.now();
    if (item.uuid !== null) {
      const existing = this.episodes.get(item.uuid);
      if (!existing) return this.fail(item, 'unknown-uuid', `node ${item.uuid} not found`);
      // Stored content is re-extracted; the name and body passed in are ignored.
      this.extract(existing, item.referenceTime);
      const p: ProcessedLog = { at: now, uuid: existing.uuid, groupId: existing.group_id, name: existing.name, reprocessed: true };
      this.processed.push(p);
      this.hooks.onProcessed?.(p);
      return;
    }
    const episode: StoredEpisode = {
      uuid: randomUUID(),
      name: item.name,
      content: item.body,
      created_at: pyIsoNow(now),
      source: item.source,
      source_description: item.sourceDescription,
      group_id: item.groupId,
    };
    this.episodes.set(episode.uuid, episode);
    this.extract(episode, item.referenceTime);
    const p: ProcessedLog = { at: now, uuid: episode.uuid, groupId: episode.group_id, name: episode.name, reprocessed: false };
    this.processed.push(p);
    this.hooks.onProcessed?.(p);
  }

  // ------------------------------------------------------------ extraction

  /** Deterministic fake of Graphiti's LLM extraction; entities and facts are deduplicated per group. */
  private extract(ep: StoredEpisode, referenceTime: string | null): void {
    const cfg = this.config();
    const created = pyIsoNow();
    const names = deriveNodeNames(ep.name, ep.content).slice(0, Math.max(1, cfg.maxNodesPerEpisode));
    const nodes: StoredNode[] = names.map((name) => {
      const indexed = this.nodes.get(this.nodeIndex.get(indexKey(ep.group_id, name)) ?? '');
      const existing = indexed && indexed.group_id === ep.group_id && indexed.name.toLowerCase() === name.toLowerCase() ? indexed : undefined;
      const node =
        existing ??
        this.addNode({
          uuid: randomUUID(),
          name,
          labels: ['Entity'],
          created_at: created,
          summary: summarize(name, ep.content),
          group_id: ep.group_id,
          attributes: {},
        });
      // The real server folds each new mention into the entity's summary, and deleting the
      // episode (even with cascade) leaves the summary as it is: old knowledge lingers there.
      if (existing) existing.summary = foldSummary(existing.summary, summarize(name, ep.content));
      this.mention(node.uuid, ep.uuid);
      return node;
    });
    const source = nodes[0];
    if (!source) return;
    const validAt = referenceTime ?? ep.created_at;
    for (const sentence of deriveFactSentences(ep.content).slice(0, Math.max(0, cfg.maxFactsPerEpisode))) {
      const lower = sentence.toLowerCase();
      const indexed = this.facts.get(this.factIndex.get(indexKey(ep.group_id, sentence)) ?? '');
      const existing = indexed && indexed.group_id === ep.group_id && indexed.expired_at === null && indexed.fact.toLowerCase() === lower ? indexed : undefined;
      if (existing) {
        if (!existing.episodes.includes(ep.uuid)) existing.episodes.push(ep.uuid);
        continue;
      }
      const target = nodes.find((n) => n !== source && lower.includes(n.name.toLowerCase())) ?? source;
      const uuid = randomUUID();
      this.factIndex.set(indexKey(ep.group_id, sentence), uuid);
      this.facts.set(uuid, {
        uuid,
        group_id: ep.group_id,
        source_node_uuid: source.uuid,
        target_node_uuid: target.uuid,
        created_at: created,
        name: 'RELATES_TO',
        fact: sentence,
        episodes: [ep.uuid],
        expired_at: null,
        valid_at: validAt,
        invalid_at: null,
        attributes: {},
      });
    }
  }

  private mention(nodeUuid: string, episodeUuid: string): void {
    let set = this.mentions.get(nodeUuid);
    if (!set) {
      set = new Set();
      this.mentions.set(nodeUuid, set);
    }
    set.add(episodeUuid);
  }

  private addNode(node: StoredNode): StoredNode {
    this.nodes.set(node.uuid, node);
    this.nodeIndex.set(indexKey(node.group_id, node.name), node.uuid);
    return node;
  }

  // --------------------------------------------------------------- seeding

  seedEpisode(partial: Partial<StoredEpisode> & { name: string; content: string }, options: { extract?: boolean } = {}): StoredEpisode {
    const ep: StoredEpisode = {
      uuid: partial.uuid ?? randomUUID(),
      name: partial.name,
      content: partial.content,
      created_at: partial.created_at ?? pyIsoNow(),
      source: partial.source ?? 'text',
      source_description: partial.source_description ?? '',
      group_id: partial.group_id ?? 'main',
    };
    this.episodes.set(ep.uuid, ep);
    if (options.extract) this.extract(ep, null);
    return { ...ep };
  }

  seedFact(partial: Partial<StoredFact> & { fact: string }): StoredFact {
    const now = pyIsoNow();
    const groupId = partial.group_id ?? 'main';
    const nodeUuid = () => this.seedNode({ name: `Seed ${this.nodes.size + 1}`, group_id: groupId }).uuid;
    const fact: StoredFact = {
      uuid: partial.uuid ?? randomUUID(),
      group_id: groupId,
      source_node_uuid: partial.source_node_uuid ?? nodeUuid(),
      target_node_uuid: partial.target_node_uuid ?? nodeUuid(),
      created_at: partial.created_at ?? now,
      name: partial.name ?? 'RELATES_TO',
      fact: partial.fact,
      episodes: partial.episodes ? [...partial.episodes] : [],
      expired_at: partial.expired_at ?? null,
      valid_at: partial.valid_at === undefined ? now : partial.valid_at,
      invalid_at: partial.invalid_at ?? null,
      attributes: partial.attributes ?? {},
    };
    this.facts.set(fact.uuid, fact);
    if (fact.expired_at === null) this.factIndex.set(indexKey(fact.group_id, fact.fact), fact.uuid);
    return { ...fact, episodes: [...fact.episodes] };
  }

  seedNode(partial: Partial<StoredNode> & { name: string }): StoredNode {
    const node: StoredNode = {
      uuid: partial.uuid ?? randomUUID(),
      name: partial.name,
      labels: partial.labels ?? ['Entity'],
      created_at: partial.created_at === undefined ? pyIsoNow() : partial.created_at,
      summary: partial.summary === undefined ? null : partial.summary,
      group_id: partial.group_id ?? 'main',
      attributes: partial.attributes ?? {},
    };
    this.nodes.set(node.uuid, node);
    this.nodeIndex.set(indexKey(node.group_id, node.name), node.uuid);
    return { ...node };
  }

  // --------------------------------------------------------------- reading

  /** `ORDER BY uuid DESC LIMIT max` over the given groups (Graphiti v1.0.x `get_by_group_ids`). */
  getEpisodes(groupIds: string[], max: number): StoredEpisode[] {
    const groups = new Set(groupIds);
    return [...this.episodes.values()]
      .filter((e) => groups.has(e.group_id))
      .sort((a, b) => (a.uuid < b.uuid ? 1 : a.uuid > b.uuid ? -1 : 0))
      .slice(0, Math.max(0, max))
      .map((e) => ({ ...e }));
  }

  /** Term match over fact text; an empty group list means every group. */
  searchFacts(query: string, groupIds: string[], max: number): StoredFact[] {
    const terms = queryTerms(query);
    const groups = new Set(groupIds);
    const ranked = [...this.facts.values()]
      .filter((f) => groups.size === 0 || groups.has(f.group_id))
      .map((f) => ({ f, s: terms.length === 0 ? 1 : score(f.fact, terms) }))
      .filter((x) => x.s > 0)
      .sort((a, b) => b.s - a.s || (a.f.created_at < b.f.created_at ? 1 : a.f.created_at > b.f.created_at ? -1 : 0));
    return ranked.slice(0, Math.max(0, max)).map(({ f }) => ({ ...f, episodes: [...f.episodes], attributes: { ...f.attributes } }));
  }

  searchNodes(query: string, groupIds: string[], max: number, entityTypes: string[] | null): StoredNode[] {
    const terms = queryTerms(query);
    const groups = new Set(groupIds);
    const ranked = [...this.nodes.values()]
      .filter((n) => groups.size === 0 || groups.has(n.group_id))
      .filter((n) => !entityTypes || entityTypes.length === 0 || n.labels.some((l) => entityTypes.includes(l)))
      .map((n) => ({ n, s: terms.length === 0 ? 1 : score(`${n.name} ${n.summary ?? ''}`, terms) }))
      .filter((x) => x.s > 0)
      .sort((a, b) => b.s - a.s);
    return ranked.slice(0, Math.max(0, max)).map(({ n }) => ({ ...n, labels: [...n.labels], attributes: { ...n.attributes } }));
  }

  // -------------------------------------------------------------- deleting

  /** v1.0.x deletes only the Episodic node; main ('cascade') also removes facts it created first and nodes only it mentioned. */
  deleteEpisode(uuid: string, mode: 'node-only' | 'cascade'): boolean {
    if (!this.episodes.delete(uuid)) return false;
    if (mode === 'cascade') {
      for (const [key, f] of this.facts) if (f.episodes[0] === uuid) this.facts.delete(key);
      for (const [nodeUuid, eps] of this.mentions) {
        if (eps.has(uuid) && eps.size === 1) {
          this.nodes.delete(nodeUuid);
          this.mentions.delete(nodeUuid);
        } else eps.delete(uuid);
      }
    }
    return true;
  }

  clearGroups(groupIds: string[]): void {
    const groups = new Set(groupIds);
    for (const [k, e] of this.episodes) if (groups.has(e.group_id)) this.episodes.delete(k);
    for (const [k, f] of this.facts) if (groups.has(f.group_id)) this.facts.delete(k);
    for (const [k, n] of this.nodes) {
      if (groups.has(n.group_id)) {
        this.nodes.delete(k);
        this.mentions.delete(k);
      }
    }
    for (const index of [this.nodeIndex, this.factIndex]) {
      for (const key of index.keys()) if (groups.has(key.slice(0, key.indexOf('\u0000')))) index.delete(key);
    }
  }
}

function indexKey(groupId: string, text: string): string {
  return `${groupId}\u0000${text.toLowerCase()}`;
}

function foldSummary(summary: string | null, addition: string): string {
  if (summary === null || summary === '') return addition;
  return summary.split('\n').includes(addition) ? summary : `${summary}\n${addition}`.slice(0, 1000);
}

function summarize(name: string, content: string): string {
  const lower = name.toLowerCase();
  const sentence = deriveFactSentences(content).find((s) => s.toLowerCase().includes(lower));
  return (sentence ?? `${name} is mentioned in the episode.`).slice(0, 200);
}
