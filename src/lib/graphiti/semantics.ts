/**
 * What a Graphiti server does to the knowledge (facts, entity summaries) when an episode is
 * deleted, per generation, and how the sync engine finds out which one it is talking to.
 *
 * Graphiti merges a restated fact into the existing one and appends the new episode to its
 * `episodes` (the exact-text fast path, or the LLM's duplicate resolution), so `fact.episodes[0]`
 * is the episode that created it. What `delete_episode` then removes differs by generation
 * (checked against each released graphiti-core, see docs/semantics.md):
 *
 * | graphiti-core | server | deleteRemoves | rebuildsSummaries |
 * |---|---|---|---|
 * | 0.28.2 | 1.0.2 image | `episode-only`: the episode node; every fact stays | no |
 * | 0.29.3, 0.31.1 | 1.0.x HEAD, 1.1.0 | `facts-first-created`: every fact whose FIRST episode is the deleted one, even when others still support it | no |
 * | 0.31.2 | 1.1.2 | `facts-unsupported`: the episode is detached; only facts left with no episode go | yes |
 *
 * The server does not say which it runs (`serverInfo.version` is the python mcp version, empty
 * on mcp 2.x), so: the tool surface tells 0.28.2 and 0.29.3 apart from the rest; anything else
 * (0.31.1 and 0.31.2 look the same, and a build we have not seen) is PROBED once in a scratch
 * group, and the answer is cached per server in the state folder (`server-semantics.json`).
 * The engine derives its order of operations from the answer (`editOrder`, `deleteGuard`).
 */
import { createHash, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { backoffDelay, sleep, type Backoff } from '../util/backoff.js';
import { readJsonFile, writeFileAtomic } from '../util/fs-atomic.js';
import type { Logger } from '../util/log.js';
import type { Fact, GraphitiClient, ServerProfile } from './graphiti.js';

/** What `delete_episode` removes besides the episode node. */
export type DeleteRemoves = 'episode-only' | 'facts-first-created' | 'facts-unsupported';

export interface ServerSemantics {
  deleteRemoves: DeleteRemoves;
  /** Entity summaries are rebuilt from the remaining episodes after a delete (else they keep retired words). */
  rebuildsSummaries: boolean;
}

/** The semantics of each generation the tool pins and tests against (src/lib/server/pins.ts). */
export const GENERATION_SEMANTICS: Readonly<Record<string, ServerSemantics>> = {
  '0.28.2': { deleteRemoves: 'episode-only', rebuildsSummaries: false },
  '0.29.3': { deleteRemoves: 'facts-first-created', rebuildsSummaries: false },
  '0.31.1': { deleteRemoves: 'facts-first-created', rebuildsSummaries: false },
  '0.31.2': { deleteRemoves: 'facts-unsupported', rebuildsSummaries: true },
};

/**
 * What the engine assumes while a server's semantics are unknown (a probe that could not finish):
 * the generation where a careless delete loses the most. Its rules are safe on every other
 * generation too (at worst an old episode is kept longer than needed).
 */
export const CAUTIOUS_SEMANTICS: ServerSemantics = GENERATION_SEMANTICS['0.29.3'] as ServerSemantics;

/**
 * The order of an edit. `break-before-make`: the old version is deleted before the new one is
 * sent, because deleting it afterwards would take every fact the new version restates (they were
 * merged into facts the old one created). `make-before-break`: the new version is confirmed first,
 * so the graph always holds the note.
 */
export function editOrder(semantics: ServerSemantics): 'make-before-break' | 'break-before-make' {
  return semantics.deleteRemoves === 'facts-first-created' ? 'break-before-make' : 'make-before-break';
}

/** Deleting an episode can take facts other episodes still support: every delete is checked first. */
export function deleteGuard(semantics: ServerSemantics): boolean {
  return semantics.deleteRemoves === 'facts-first-created';
}

/** Facts a deleted episode leaves behind must be removed by us (the server keeps them). */
export function needsFactCleanup(semantics: ServerSemantics): boolean {
  return semantics.deleteRemoves !== 'facts-unsupported';
}

/**
 * The facts that deleting `episode` would take although an episode outside `retired` still
 * states them: on `facts-first-created` servers, the ones it created (first in `episodes`) that
 * name another live episode.
 */
export function factsLostByDeleting(semantics: ServerSemantics, episode: string, facts: readonly Fact[], retired: ReadonlySet<string>): Fact[] {
  if (!deleteGuard(semantics)) return [];
  return facts.filter((f) => (f.episodes ?? [])[0] === episode && (f.episodes ?? []).some((e) => e !== episode && !retired.has(e)));
}

// ------------------------------------------------------------ identifying a server

export type SemanticsSource = 'generation' | 'probe' | 'assumed';

export interface ResolvedSemantics extends ServerSemantics {
  /** `generation`: known from the tool surface; `probe`: observed; `assumed`: unknown, cautious rules. */
  source: SemanticsSource;
  /** The generation, when the tool surface names one. */
  generation?: string;
}

/**
 * The generation the tool surface names, if it names one: 0.28.2 has no `get_episode_entities`;
 * 0.29.3 has it but takes no `group_id` in `delete_episode`. 0.31.x (and later builds) look alike.
 */
export function generationFromSurface(profile: ServerProfile): string | undefined {
  // Older servers (and pre-v1 ones) delete the episode node only, as 0.28.2 does.
  if (!profile.tools.includes('get_episode_entities')) return '0.28.2';
  if (!profile.deleteEpisodeTakesGroup) return '0.29.3';
  return undefined;
}

/** One key per server build: where it is and what it offers (a new build changes the surface or the version). */
export function serverKey(url: string, profile: ServerProfile): string {
  const surface = JSON.stringify([url, profile.name, profile.version, [...profile.tools].sort(), profile.deleteEpisodeTakesGroup]);
  return createHash('sha256').update(surface).digest('hex').slice(0, 24);
}

interface CacheEntry {
  semantics: ServerSemantics;
  source: 'probe';
  at: string;
}

interface CacheFile {
  version: 1;
  servers: Record<string, CacheEntry | { failedAt: string }>;
}

export const SEMANTICS_FILE = 'server-semantics.json';
/** A probe that did not finish is tried again after this long (the cautious rules apply meanwhile). */
const PROBE_RETRY_MS = 60 * 60_000;

async function readCache(stateDir: string): Promise<CacheFile> {
  try {
    const raw = (await readJsonFile(join(stateDir, SEMANTICS_FILE))) as Partial<CacheFile> | undefined;
    if (raw?.version === 1 && typeof raw.servers === 'object' && raw.servers !== null) return { version: 1, servers: { ...raw.servers } };
  } catch {
    // A lost or damaged cache costs one probe.
  }
  return { version: 1, servers: {} };
}

function isSemantics(value: unknown): value is ServerSemantics {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return ['episode-only', 'facts-first-created', 'facts-unsupported'].includes(v.deleteRemoves as string) && typeof v.rebuildsSummaries === 'boolean';
}

export interface ResolveOptions {
  stateDir: string;
  url: string;
  logger: Logger;
  signal?: AbortSignal | undefined;
  now?: () => number;
  /** How long the probe may wait for the server to process its two episodes. */
  probeTimeoutMs?: number;
  /**
   * False: never probe (the context builder, which must not cost LLM calls): a build whose rule is
   * neither known nor cached yet reads as the cautious rules, `source: 'assumed'`. Default true.
   */
  probe?: boolean;
}

/** The semantics of the server `graphiti` talks to: from its surface, the cache, or a probe (cached). */
export async function resolveSemantics(graphiti: GraphitiClient, options: ResolveOptions): Promise<ResolvedSemantics> {
  const read = await readSemantics(graphiti, options);
  return 'probe' in read ? read.probe() : read;
}

/** A server whose rule is neither named by its tools nor cached: the probe that finds it out (and caches it). */
export interface ProbeNeeded {
  probe(): Promise<ResolvedSemantics>;
}

/**
 * The semantics as far as they are known without a probe: from the surface or the cache (or the
 * cautious rules, when probing is off or failed recently); else the probe still to run. Split from
 * `resolveSemantics` because the probe waits for the server to process two episodes, an LLM's
 * time (seconds to a minute): the sync runs it beside its sends, as nothing but a delete needs it.
 */
export async function readSemantics(graphiti: GraphitiClient, options: ResolveOptions): Promise<ResolvedSemantics | ProbeNeeded> {
  const now = options.now ?? Date.now;
  const profile = await graphiti.serverProfile(options.signal);
  const generation = generationFromSurface(profile);
  if (generation !== undefined) return { ...(GENERATION_SEMANTICS[generation] as ServerSemantics), source: 'generation', generation };
  const key = serverKey(options.url, profile);
  const cache = await readCache(options.stateDir);
  const cached = cache.servers[key];
  if (cached !== undefined && 'semantics' in cached && isSemantics(cached.semantics)) return { ...cached.semantics, source: 'probe' };
  if (options.probe === false || (cached !== undefined && 'failedAt' in cached && now() - Date.parse(cached.failedAt) < PROBE_RETRY_MS)) return { ...CAUTIOUS_SEMANTICS, source: 'assumed' };
  return { probe: () => probeAndCache(graphiti, key, { ...options, now }) };
}

/** Probes once and caches the answer (or the failure, retried after PROBE_RETRY_MS) in the state folder. */
async function probeAndCache(graphiti: GraphitiClient, key: string, options: ResolveOptions & { now: () => number }): Promise<ResolvedSemantics> {
  let observed: ServerSemantics | undefined;
  try {
    observed = await probeSemantics(graphiti, options);
  } catch (error) {
    options.logger.warn('could not probe what this Graphiti server deletes; assuming the cautious rules', { error: (error as Error).message });
  }
  // Read again: another run may have cached another server meanwhile.
  const cache = await readCache(options.stateDir);
  cache.servers[key] = observed === undefined ? { failedAt: new Date(options.now()).toISOString() } : { semantics: observed, source: 'probe', at: new Date(options.now()).toISOString() };
  await writeFileAtomic(join(options.stateDir, SEMANTICS_FILE), `${JSON.stringify(cache, null, 2)}\n`, { mkdirMode: 0o700 }).catch((error: unknown) =>
    options.logger.warn('could not cache the server semantics; the next run probes again', { error: (error as Error).message }),
  );
  if (observed === undefined) return { ...CAUTIOUS_SEMANTICS, source: 'assumed' };
  options.logger.info('probed what this Graphiti server deletes', { ...observed });
  return { ...observed, source: 'probe' };
}

/** The probe looks again after 100 ms, then twice as long each time, at most every 2 s. */
const PROBE_BACKOFF: Backoff = { initialMs: 100, maxMs: 2000, low: 1, high: 1 };

/** The scratch fact both probe episodes state (the same words, so Graphiti merges them). */
const PROBE_SENTENCE = 'Probekiwi depends on Probetui.';

/**
 * Observes the delete rule in a scratch group: episode A states a fact, episode B states it again
 * (merged: the fact names A then B), A is deleted. The fact gone → `facts-first-created`; still
 * naming A → `episode-only`; naming only B → `facts-unsupported` (which came with summary
 * rebuilding, graphiti-core 0.31.2). The scratch group is cleared afterwards. Undefined when the
 * server did not show a merged fact in time (an LLM that did not merge: nothing can be told).
 */
export async function probeSemantics(graphiti: GraphitiClient, options: { signal?: AbortSignal | undefined; now: () => number; probeTimeoutMs?: number; logger: Logger }): Promise<ServerSemantics | undefined> {
  const group = `gms_probe_${randomBytes(5).toString('hex')}`;
  const deadline = options.now() + (options.probeTimeoutMs ?? 120_000);
  const send = (name: string) =>
    graphiti.addMemory({ name, episodeBody: PROBE_SENTENCE, groupId: group, source: 'text', sourceDescription: 'graphiti-memory-sync semantics probe (scratch group, cleared after)' }, options.signal);
  const until = async <T>(what: string, check: () => Promise<T | undefined>): Promise<T | undefined> => {
    for (let attempt = 1; ; attempt++) {
      const value = await check();
      if (value !== undefined) return value;
      const delay = backoffDelay(PROBE_BACKOFF, attempt);
      if (options.now() + delay > deadline || options.signal?.aborted === true) {
        options.logger.warn('semantics probe timed out', { waitingFor: what });
        return undefined;
      }
      await sleep(delay, options.signal);
    }
  };
  const episode = (name: string) => async () => (await graphiti.getEpisodes([group], 10, options.signal)).find((e) => e.name === name)?.uuid;
  const fact = async () => (await graphiti.searchFacts('Probekiwi Probetui', [group], 10, options.signal)).find((f) => /probekiwi/i.test(f.fact));
  try {
    await send('Semantics probe A');
    const a = await until('episode A', episode('Semantics probe A'));
    if (a === undefined) return undefined;
    await send('Semantics probe B');
    const b = await until('episode B', episode('Semantics probe B'));
    if (b === undefined) return undefined;
    const merged = await until('the merged fact', async () => {
      const f = await fact();
      return f !== undefined && (f.episodes ?? []).includes(a) && (f.episodes ?? []).includes(b) ? f : undefined;
    });
    if (merged === undefined) return undefined;
    await graphiti.deleteEpisode(a, group, options.signal);
    const after = await fact();
    if (after === undefined) return { deleteRemoves: 'facts-first-created', rebuildsSummaries: false };
    if ((after.episodes ?? []).includes(a)) return { deleteRemoves: 'episode-only', rebuildsSummaries: false };
    return { deleteRemoves: 'facts-unsupported', rebuildsSummaries: true };
  } finally {
    await graphiti.clearGroup(group, options.signal).catch((error: unknown) => options.logger.warn('could not clear the semantics probe group', { group, error: (error as Error).message }));
  }
}
