/**
 * In-memory "graph" behind the Graphiti-shaped test server: episodes, nodes and facts (from the
 * deterministic fake extraction, extraction.ts), the worker that processes queued episodes
 * (ingest-queue.ts), the silent-failure log, and the reads and deletes the tools need.
 *
 * Mirrors Graphiti MCP 1.0.2 (see /work/shared/reference/graphiti-mcp-server.md,
 * sections 2, 4 and 5): `add_memory` only enqueues; an episode becomes visible
 * once its group's worker has processed it; every background failure is only
 * "logged" (kept in `failures`) and never reported to the client.
 */
import { randomUUID } from 'node:crypto';
import { deriveFactSentences, deriveNodeNames, queryTerms, score, summarize } from './extraction.js';
import { IngestQueue } from './ingest-queue.js';
import {
  GROUP_ID_RE,
  invalidGroupIdMessage,
  pyIsoNow,
  redisearchSyntaxError,
  type FailureLog,
  type ProcessedLog,
  type QueueItem,
  type StoreConfig,
  type StoredEpisode,
  type StoredFact,
  type StoredNode,
} from './records.js';
import type { DeleteMode } from './options.js';

export class GraphitiStore {
  readonly episodes = new Map<string, StoredEpisode>();
  readonly facts = new Map<string, StoredFact>();
  /** What a search for a fact also matches, when an extractor says (options.ts `Extracted`). */
  private readonly factAbout = new Map<string, string>();
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

  /**
   * The group of the episode last taken up by the worker (options.ts `lastWrittenGroup`): where a
   * server 1.0.x on FalkorDB lists and deletes. Undefined after a restart (its default graph).
   */
  lastWrittenGroup: string | undefined;

  /** The ingestion worker: add_memory enqueues here; an episode becomes visible once processed. */
  readonly queue: IngestQueue;

  constructor(
    private readonly config: () => StoreConfig,
    private readonly hooks: { onProcessed?: (p: ProcessedLog) => void; onFailure?: (f: FailureLog) => void } = {},
  ) {
    this.queue = new IngestQueue(
      () => this.config().processingDelayMs,
      () => this.config().clock,
      (item) => this.process(item),
    );
  }

  /** The server's time (options.ts `clock`): when an episode was processed, a record created. */
  private now(): number {
    return this.config().clock.now();
  }

  private fail(item: QueueItem, cause: FailureLog['cause'], error: string): void {
    const f: FailureLog = {
      at: this.now(),
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
    if (!GROUP_ID_RE.test(item.groupId)) return this.fail(item, 'invalid-group', invalidGroupIdMessage(item.groupId));
    if (cfg.db === 'falkordb') {
      const err = redisearchSyntaxError([item.groupId]);
      if (err) return this.fail(item, 'falkordb-hyphen', err);
    }
    // graphiti-core's add_episode moves its driver to the group before its LLM can fail (a drop).
    this.lastWrittenGroup = item.groupId;
    if (item.drop) return this.fail(item, 'drop', 'Rate limit exceeded. Please try again later.');
    const now = this.now();
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
      uuid: this.config().episodeUuid(),
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
    const created = pyIsoNow(this.now());
    const custom = cfg.extractor?.({ name: ep.name, content: ep.content, sourceDescription: ep.source_description });
    const summaryOf = (name: string) => custom?.entities.find((e) => e.name === name)?.summary ?? summarize(name, ep.content);
    const names = (custom === undefined ? deriveNodeNames(ep.name, ep.content) : custom.entities.map((e) => e.name)).slice(0, Math.max(1, cfg.maxNodesPerEpisode));
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
          summary: summaryOf(name),
          group_id: ep.group_id,
          attributes: {},
        });
      // The real server folds each new mention into the entity's summary, and deleting the
      // episode (even with cascade) leaves the summary as it is: old knowledge lingers there.
      if (existing) existing.summary = foldSummary(existing.summary, summaryOf(name));
      this.mention(node.uuid, ep.uuid);
      return node;
    });
    const source = nodes[0];
    if (!source) return;
    const validAt = referenceTime ?? ep.created_at;
    const derived: Array<{ fact: string; source?: string | undefined; target?: string | undefined; relation: string; about?: string | undefined }> = custom?.facts ?? deriveFactSentences(ep.content).map((fact) => ({ fact, relation: 'RELATES_TO' }));
    const byName = (name: string | undefined) => (name === undefined ? undefined : nodes.find((n) => n.name === name));
    for (const { fact: sentence, about, ...edge } of derived.slice(0, Math.max(0, cfg.maxFactsPerEpisode))) {
      const lower = sentence.toLowerCase();
      const indexed = this.facts.get(this.factIndex.get(indexKey(ep.group_id, sentence)) ?? '');
      const existing = indexed && indexed.group_id === ep.group_id && indexed.expired_at === null && indexed.fact.toLowerCase() === lower ? indexed : undefined;
      if (existing) {
        if (!existing.episodes.includes(ep.uuid)) existing.episodes.push(ep.uuid);
        continue;
      }
      const from = byName(edge.source) ?? source;
      const target = byName(edge.target) ?? nodes.find((n) => n !== source && lower.includes(n.name.toLowerCase())) ?? source;
      const uuid = randomUUID();
      this.factIndex.set(indexKey(ep.group_id, sentence), uuid);
      if (about !== undefined) this.factAbout.set(uuid, about);
      this.facts.set(uuid, {
        uuid,
        group_id: ep.group_id,
        source_node_uuid: from.uuid,
        target_node_uuid: target.uuid,
        created_at: created,
        name: edge.relation,
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
      created_at: partial.created_at ?? pyIsoNow(this.now()),
      source: partial.source ?? 'text',
      source_description: partial.source_description ?? '',
      group_id: partial.group_id ?? 'main',
    };
    this.episodes.set(ep.uuid, ep);
    if (options.extract) this.extract(ep, null);
    return { ...ep };
  }

  seedFact(partial: Partial<StoredFact> & { fact: string }): StoredFact {
    const now = pyIsoNow(this.now());
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
      created_at: partial.created_at === undefined ? pyIsoNow(this.now()) : partial.created_at,
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
      .map((f) => ({ f, s: terms.length === 0 ? 1 : score(`${f.fact} ${this.factAbout.get(f.uuid) ?? ''}`, terms) }))
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

  // ------------------------------------------------- main's extra tools

  /**
   * add_triplet: the two entities (an existing one of the same name in the group is reused, as
   * graphiti-core resolves them) and the fact between them, resting on no episode.
   */
  addTriplet(t: { groupId: string; source: string; edgeName: string; fact: string; target: string; sourceUuid: string | null; targetUuid: string | null }): { nodes: StoredNode[]; fact: StoredFact } {
    const created = pyIsoNow(this.now());
    const entity = (name: string, uuid: string | null): StoredNode => {
      const known = this.nodes.get(uuid ?? this.nodeIndex.get(indexKey(t.groupId, name)) ?? '');
      if (known !== undefined && known.group_id === t.groupId) return known;
      return this.addNode({ uuid: uuid ?? randomUUID(), name, labels: [], created_at: created, summary: '', group_id: t.groupId, attributes: {} });
    };
    const source = entity(t.source, t.sourceUuid);
    const target = entity(t.target, t.targetUuid);
    const fact: StoredFact = {
      uuid: randomUUID(),
      group_id: t.groupId,
      source_node_uuid: source.uuid,
      target_node_uuid: target.uuid,
      created_at: created,
      name: t.edgeName,
      fact: t.fact,
      episodes: [],
      expired_at: null,
      valid_at: null,
      invalid_at: null,
      attributes: {},
    };
    this.facts.set(fact.uuid, fact);
    this.factIndex.set(indexKey(t.groupId, t.fact), fact.uuid);
    return { nodes: [{ ...source }, { ...target }], fact: { ...fact, episodes: [] } };
  }

  /** get_episode_entities: the entities the episodes mention and the facts resting on them. */
  episodeEntities(episodeUuids: string[], groupId: string | null): { nodes: StoredNode[]; facts: StoredFact[] } {
    // Read from the episode nodes, as graphiti-core does: a deleted episode has none, even where facts still name its uuid.
    const wanted = new Set(episodeUuids.filter((uuid) => this.episodes.has(uuid)));
    const inGroup = (g: string) => groupId === null || g === groupId;
    const nodes = [...this.mentions].filter(([uuid, eps]) => [...eps].some((e) => wanted.has(e)) && inGroup(this.nodes.get(uuid)?.group_id ?? '')).map(([uuid]) => this.nodes.get(uuid));
    const facts = [...this.facts.values()].filter((f) => inGroup(f.group_id) && f.episodes.some((e) => wanted.has(e)));
    return { nodes: nodes.filter((n): n is StoredNode => n !== undefined).map((n) => ({ ...n })), facts: facts.map((f) => ({ ...f, episodes: [...f.episodes] })) };
  }

  /** build_communities: the entities of each group, clustered by the facts between them (clusters of two or more). */
  entityClusters(groupIds: string[]): StoredNode[][] {
    const groups = new Set(groupIds);
    const parent = new Map<string, string>();
    const root = (u: string): string => {
      let r = u;
      while (parent.get(r) !== r) r = parent.get(r)!;
      return r;
    };
    for (const n of this.nodes.values()) if (groups.has(n.group_id)) parent.set(n.uuid, n.uuid);
    for (const f of this.facts.values()) {
      if (!groups.has(f.group_id) || !parent.has(f.source_node_uuid) || !parent.has(f.target_node_uuid)) continue;
      parent.set(root(f.source_node_uuid), root(f.target_node_uuid));
    }
    const clusters = new Map<string, StoredNode[]>();
    for (const uuid of parent.keys()) {
      const r = root(uuid);
      clusters.set(r, [...(clusters.get(r) ?? []), this.nodes.get(uuid)!]);
    }
    return [...clusters.values()].filter((members) => members.length > 1).map((members) => members.map((n) => ({ ...n })));
  }

  /** The group an episode, fact or node lives in (undefined: no such uuid). */
  groupOf(uuid: string): string | undefined {
    return (this.episodes.get(uuid) ?? this.facts.get(uuid) ?? this.nodes.get(uuid))?.group_id;
  }

  // -------------------------------------------------------------- deleting

  /**
   * delete_episode per generation (graphiti/semantics.ts, docs/semantics.md):
   * - 'node-only' (graphiti-core 0.28.2, the 1.0.2 image): only the Episodic node; every fact stays;
   * - 'cascade' (0.29.3, 0.31.1): also every fact whose FIRST episode it is, even when other
   *   episodes still support it, and the entities only it mentioned;
   * - 'detach' (0.31.2): it is taken out of every fact's episodes and only facts left with none
   *   go; entities only it mentioned go; every other entity it mentioned gets its summary rebuilt
   *   from the episodes still mentioning it.
   */
  deleteEpisode(uuid: string, mode: DeleteMode): boolean {
    if (!this.episodes.delete(uuid)) return false;
    if (mode === 'node-only') return true;
    for (const [key, f] of this.facts) {
      if (mode === 'cascade' && f.episodes[0] === uuid) this.facts.delete(key);
      if (mode === 'detach' && f.episodes.includes(uuid)) {
        f.episodes = f.episodes.filter((e) => e !== uuid);
        if (f.episodes.length === 0) this.facts.delete(key);
      }
    }
    for (const [nodeUuid, eps] of this.mentions) {
      if (!eps.has(uuid)) continue;
      if (eps.size === 1) {
        this.nodes.delete(nodeUuid);
        this.mentions.delete(nodeUuid);
        continue;
      }
      eps.delete(uuid);
      const node = this.nodes.get(nodeUuid);
      if (mode === 'detach' && node !== undefined) {
        const words = [...eps].map((e) => this.episodes.get(e)).filter((e): e is StoredEpisode => e !== undefined).map((e) => summarize(node.name, e.content));
        node.summary = words.reduce<string | null>((summary, line) => foldSummary(summary, line), null);
      }
    }
    return true;
  }

  /** Every group that holds anything (episodes, facts or nodes). */
  groupIds(): string[] {
    return [...new Set([...this.episodes.values(), ...this.facts.values(), ...this.nodes.values()].map((x) => x.group_id))];
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
