/**
 * The probe that observes what a server's `delete_episode` removes (graphiti/semantics.ts decides
 * when it runs and caches its answer). It answers only on evidence that admits one reading, and
 * says "cannot tell" (undefined) otherwise, because a wrong answer is the unsafe one: a server
 * that takes restated facts, read as one that does not, loses them on the next edit.
 *
 * In a scratch group of its own, episode A states a fact, episode B states it again (Graphiti
 * merges it: the fact names A, then B), A is deleted, and the fact is read again by its uuid:
 * - gone → `facts-first-created`; still naming A → `episode-only`; naming only B →
 *   `facts-unsupported` (which came with summary rebuilding, graphiti-core 0.31.2);
 * - and only when: A and B are each listed exactly once (a second copy of A, sent by something else, makes two A's),
 *   every fact the two stated names exactly A then B (A created it; a fact of B's own, not merged,
 *   would outlive A on any server), the fact could be read by its uuid before the delete, the
 *   delete succeeded (not "not found", not an error), and afterwards the group lists B only.
 *
 * Nothing is left behind: the scratch group is recorded before the first send (`onScratch`), and
 * cleared after, with a signal of its own (a run being stopped must not stop the clean-up). What
 * this run cannot clean (killed, a server gone, an episode still queued) the next run cleans
 * (`cleanScratch`). `clear_graph` is used only where it takes `group_ids`.
 */
import { randomBytes } from 'node:crypto';
import { backoffDelay, sleep, type Backoff } from '../util/backoff.js';
import type { Logger } from '../util/log.js';
import type { Fact, GraphitiClient } from './graphiti.js';
import type { ServerSemantics } from './semantics.js';

/** The scratch group of one probe, as recorded before its first send. */
export interface ScratchGroup {
  url: string;
  group: string;
  /** The names of the probe's episodes. */
  names: string[];
  at: string;
}

export interface ProbeOptions {
  url: string;
  signal?: AbortSignal | undefined;
  now: () => number;
  /** How long the probe may wait for the server to process its two episodes. */
  probeTimeoutMs?: number;
  logger: Logger;
  /** Records the scratch group durably before anything is sent to it. */
  onScratch: (scratch: ScratchGroup) => Promise<void>;
  /** The scratch group is clean: its record can go. */
  onScratchClean: (group: string) => Promise<void>;
  /**
   * A scratch group an earlier probe left clean, to use again (SCRATCH_REUSE); without it, a new
   * one. Its episodes' names are new either way, so nothing an earlier probe sent looks like this one's.
   */
  group?: string | undefined;
}

/** Why the probe could not tell (for the log and `status`), or the rule it saw. */
export type ProbeOutcome = { semantics: ServerSemantics } | { cannotTell: string };

/** The probe looks again after 100 ms, then twice as long each time, at most every 2 s. */
const PROBE_BACKOFF: Backoff = { initialMs: 100, maxMs: 2000, low: 1, high: 1 };
/** The scratch fact both probe episodes state (the same words, so Graphiti merges them). */
const PROBE_SENTENCE = 'Probekiwi depends on Probetui.';
const PROBE_QUERY = 'Probekiwi Probetui';
/** What one clean-up may take, whatever the run's own signal says. */
const CLEANUP_MS = 30_000;
/** A scratch group listed empty this long after its sends holds nothing still queued: its record can go. */
export const SCRATCH_SETTLE_MS = 60 * 60_000;

/** A new scratch group's name (what `cleanScratch` and the rules file accept as one). */
export function scratchGroupName(): string {
  return `gms_probe_${randomBytes(5).toString('hex')}`;
}

export async function probeSemantics(graphiti: GraphitiClient, options: ProbeOptions): Promise<ProbeOutcome> {
  const id = randomBytes(5).toString('hex');
  const group = options.group ?? scratchGroupName();
  const nameA = `Semantics probe A ${id}`;
  const nameB = `Semantics probe B ${id}`;
  const deadline = options.now() + (options.probeTimeoutMs ?? 120_000);
  const seen = new Set<string>();
  const sent = new Set<string>();
  await options.onScratch({ url: options.url, group, names: [nameA, nameB], at: new Date(options.now()).toISOString() });
  const send = (name: string) => {
    sent.add(name);
    return graphiti.addMemory({ name, episodeBody: PROBE_SENTENCE, groupId: group, source: 'text', sourceDescription: 'graphiti-memory-sync semantics probe (scratch group, cleared after)' }, options.signal);
  };
  const until = async <T>(check: () => Promise<T | undefined>): Promise<T | undefined> => {
    for (let attempt = 1; ; attempt++) {
      const value = await check();
      if (value !== undefined) return value;
      const delay = backoffDelay(PROBE_BACKOFF, attempt);
      if (options.now() + delay > deadline || options.signal?.aborted === true) return undefined;
      await sleep(delay, options.signal);
    }
  };
  const listed = async () => {
    const episodes = await graphiti.getEpisodes([group], 20, options.signal);
    for (const e of episodes) seen.add(e.name);
    return episodes;
  };
  /** The one episode named `name`, once listed; a second copy makes the evidence ambiguous. */
  const single = (name: string) => async (): Promise<{ uuid: string } | { twice: true } | undefined> => {
    const copies = (await listed()).filter((e) => e.name === name);
    if (copies.length > 1) return { twice: true };
    return copies[0] === undefined ? undefined : { uuid: copies[0].uuid };
  };
  const probeFacts = async () => (await graphiti.searchFacts(PROBE_QUERY, [group], 20, options.signal)).filter((f) => /probekiwi|probetui/i.test(f.fact));
  try {
    await send(nameA);
    const a = await until(single(nameA));
    if (a === undefined) return { cannotTell: 'episode A was not processed in time' };
    if ('twice' in a) return { cannotTell: 'episode A is listed twice (a second copy of it)' };
    await send(nameB);
    const b = await until(single(nameB));
    if (b === undefined) return { cannotTell: 'episode B was not processed in time' };
    if ('twice' in b) return { cannotTell: 'episode B is listed twice (a second copy of it)' };
    // Every fact the two stated must be the merged one: created by A, restated by B, nothing else.
    const merged = await until(async () => {
      const found = await probeFacts();
      return found.length > 0 && found.every((f) => sameList(f.episodes, [a.uuid, b.uuid])) ? found : undefined;
    });
    if (merged === undefined) {
      const found = await probeFacts().catch(() => []);
      return { cannotTell: found.length === 0 ? 'no fact was extracted in time' : 'the fact was not merged into one that episode A created and episode B restates' };
    }
    if ((await listed()).length !== 2) return { cannotTell: 'the scratch group holds more than the two probe episodes' };
    // The fact can be read by its uuid: its absence after the delete then means it was deleted.
    for (const fact of merged) {
      const before = await graphiti.getEntityEdge(fact.uuid, group, options.signal);
      if (before === undefined || !sameList(before.episodes, [a.uuid, b.uuid])) return { cannotTell: 'the fact cannot be read by its uuid' };
    }
    const deleted = await graphiti.deleteEpisode(a.uuid, group, options.signal);
    if (!deleted.deleted) return { cannotTell: 'deleting episode A answered "not found"' };
    const left = await listed();
    if (left.length !== 1 || left[0]?.uuid !== b.uuid) return { cannotTell: 'after the delete the group does not hold episode B alone' };
    const after = await Promise.all(merged.map((f) => graphiti.getEntityEdge(f.uuid, group, options.signal)));
    return verdict(after, a.uuid, b.uuid);
  } catch (error) {
    return { cannotTell: `a call failed: ${(error as Error).message}` };
  } finally {
    // Its own signal: Ctrl-C or a worker's time limit stop the run, not the clean-up (and a kill leaves the record for the next run).
    await cleanScratch(graphiti, { url: options.url, group, names: [nameA, nameB], at: '' }, { ...options, everySeen: [...sent].every((n) => seen.has(n)) });
  }
}

/** The rule the facts read again after the delete show, if they all show the same one. */
function verdict(after: ReadonlyArray<Fact | undefined>, a: string, b: string): ProbeOutcome {
  const rules = new Set(
    after.map((fact) => {
      if (fact === undefined) return 'facts-first-created';
      if (sameList(fact.episodes, [a, b])) return 'episode-only';
      if (sameList(fact.episodes, [b])) return 'facts-unsupported';
      return 'unclear';
    }),
  );
  const [rule] = [...rules];
  if (rules.size !== 1 || rule === undefined || rule === 'unclear') return { cannotTell: 'the facts read again after the delete do not show one rule' };
  return { semantics: { deleteRemoves: rule, rebuildsSummaries: rule === 'facts-unsupported' } };
}

function sameList(actual: readonly string[] | undefined, expected: readonly string[]): boolean {
  return actual !== undefined && actual.length === expected.length && actual.every((x, i) => x === expected[i]);
}

/**
 * Removes what a scratch group holds: `clear_graph` where it takes `group_ids`, else each episode
 * and each fact by uuid. The record goes once the group lists empty and nothing sent to it can
 * still be queued: every probe episode was seen (`everySeen`), or the sends are SCRATCH_SETTLE_MS
 * old. Never throws; never uses the run's signal.
 */
export async function cleanScratch(graphiti: GraphitiClient, scratch: ScratchGroup, options: Pick<ProbeOptions, 'logger' | 'now' | 'onScratchClean'> & { everySeen?: boolean }): Promise<void> {
  const signal = AbortSignal.timeout(CLEANUP_MS);
  const { group } = scratch;
  try {
    if (!(await graphiti.clearGroup(group, signal))) {
      for (const e of await graphiti.getEpisodes([group], 50, signal)) await graphiti.deleteEpisode(e.uuid, group, signal);
      for (const f of await graphiti.searchFacts(PROBE_QUERY, [group], 50, signal)) await graphiti.deleteEntityEdge(f.uuid, group, signal);
    }
    const empty = (await graphiti.getEpisodes([group], 5, signal)).length === 0;
    const settled = options.everySeen === true || (scratch.at !== '' && options.now() - Date.parse(scratch.at) > SCRATCH_SETTLE_MS);
    if (empty && settled) await options.onScratchClean(group);
  } catch (error) {
    options.logger.warn('could not clean the semantics probe group; the next run tries again', { group, error: (error as Error).message });
  }
}
