/**
 * The order of the block's lines after ranking (qa-context-budget): the budget keeps a prefix of it
 * (render.ts fitToBudget), so this order decides what a small budget holds. Three rules, each owned
 * here; rank.ts still ranks within each stream (tier, newest) and beyond-project.ts still says how
 * near a fact is (RELEVANCE_CLASS).
 *
 * - FAIR_SHARE: after this project's facts (what the session works on: never pushed out by what is
 *   beyond it, RELEVANCE_CLASS), the team's facts and the user's preferences are two streams taken
 *   in turns, one line each, a stream that runs dry giving its turns to the other. Ranked by tier
 *   alone, the team's decisions filled a 1,500-character block before any preference
 *   (bench/context-team-bench.ts, dev half: preferences 19 of 36): a user's preferences hold in
 *   every project and are what no project's notes say, and one line of them costs what a team's does.
 * - ENTITY_RELEVANCE: an entity line stands where the nearest fact that names it stands (its node is
 *   one end of the fact, or its name is in the fact's words; or it names the project itself), and
 *   stands after the facts of its class: this project's and the team's entities after their facts
 *   and before the rest of the group's facts; any other entity last. Before, entities were ranked
 *   by their labels and age only, and on the real Graphiti 0.31.2 other projects' entities came
 *   first (test/real-graphiti/team-knowledge.test.ts).
 * - ENTITY_SAID_BY_FACTS: an entity line of the rest of the group (ENTITY_RELEVANCE's class 2: other
 *   projects, other writers) whose summary says no word the facts before it do not is left out: it
 *   would spend up to 240 characters to repeat them (on the real 0.31.2 with the stand-in LLM the
 *   block listed eight other projects' entities, each a copy of a fact it showed). This project's
 *   and the team's entities stay: their line names what the session's facts are about and gathers
 *   them under that name, and a real LLM's summary of them seldom holds only the facts' words.
 */
import type { EntityNode, Fact } from '../graphiti/graphiti.js';
import { escapeRegExp, namesProject } from './beyond-project.js';

/** The block's streams: this project's facts, the team's, the user's preferences, and the rest (other projects, other writers). */
export type Stream = 'project' | 'team' | 'preferences' | 'rest';

/**
 * FAIR_SHARE's weights: lines of a stream per turn, for the streams taken in turns. Chosen on the
 * small team's dev half at 1,500 characters: 1 : 1 gave team 48 and preferences 36 of 36 (of 144
 * and 36; before, 64 and 19); 2 : 1 gave 59 and 25. Checked on the busy team (dev): 43 and 36 of 72
 * (before, 64 and 12). The project's own facts stayed 96 of 96 in both shapes.
 */
export const FAIR_SHARE: Readonly<Partial<Record<Stream, number>>> = { team: 1, preferences: 1 };

/** The stream of a fact: RELEVANCE_CLASS 0 is this project's; 1 is the user's own notes beyond projects (`own`: preferences) or the team's. */
export function streamOf(relevance: 0 | 1 | 2, from: string): Stream {
  if (relevance === 0) return 'project';
  if (relevance === 2) return 'rest';
  return from === 'own' ? 'preferences' : 'team';
}

/**
 * Streams taken in turns: the k-th item of a stream of weight w takes its turn at k / w; turns in
 * order, a tie to the stream named first in the weights, each stream's own order kept.
 */
export function inTurns<T>(items: readonly T[], stream: (item: T) => Stream, weights: Readonly<Partial<Record<Stream, number>>> = FAIR_SHARE): T[] {
  const names = Object.keys(weights) as Stream[];
  const seen = new Map<Stream, number>();
  const turns = items.map((item, index) => {
    const s = stream(item);
    const k = seen.get(s) ?? 0;
    seen.set(s, k + 1);
    return { item, turn: k / (weights[s] ?? 1), order: names.indexOf(s), index };
  });
  turns.sort((a, b) => a.turn - b.turn || a.order - b.order || a.index - b.index);
  return turns.map((t) => t.item);
}

/** Whether a fact is about an entity: the entity is one of its ends, or its name stands in the fact's words. */
function factNames(fact: Pick<Fact, 'fact' | 'source_node_uuid' | 'target_node_uuid'>, node: Pick<EntityNode, 'uuid' | 'name'>): boolean {
  if (fact.source_node_uuid === node.uuid || fact.target_node_uuid === node.uuid) return true;
  const name = node.name.trim();
  return name.length >= 2 && new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(name)}(?![\\p{L}\\p{N}])`, 'iu').test(fact.fact);
}

/** ENTITY_RELEVANCE: the entity's class, the nearest of the facts about it (0 when it names the project), 2 when none is. */
export function entityClass(node: Pick<EntityNode, 'uuid' | 'name' | 'summary'>, facts: ReadonlyArray<{ fact: Pick<Fact, 'fact' | 'source_node_uuid' | 'target_node_uuid'>; relevance: 0 | 1 | 2 }>, projectName: string): 0 | 1 | 2 {
  if (namesProject(`${node.name}: ${node.summary ?? ''}`, projectName)) return 0;
  let best: 0 | 1 | 2 = 2;
  for (const f of facts) if (f.relevance < best && factNames(f.fact, node)) best = f.relevance;
  return best;
}

/** One line of the block to order: a fact (with its stream) or an entity (with its class). */
export type Ordered<F, E> = { kind: 'fact'; item: F; stream: Stream } | { kind: 'entity'; item: E; relevance: 0 | 1 | 2 };

/**
 * The block's order: this project's facts, then the team's and the preferences in turns
 * (FAIR_SHARE), then this project's and the team's entities (ENTITY_RELEVANCE, their class first,
 * their rank kept), then the rest's facts, then the rest's entities.
 */
export function blockOrder<F, E>(lines: ReadonlyArray<Ordered<F, E>>): Array<Ordered<F, E>> {
  const facts = lines.filter((l): l is Extract<Ordered<F, E>, { kind: 'fact' }> => l.kind === 'fact');
  const of = (...streams: Stream[]) => facts.filter((l) => streams.includes(l.stream));
  const entities = lines.filter((l): l is Extract<Ordered<F, E>, { kind: 'entity' }> => l.kind === 'entity');
  const byClass = (c: 0 | 1 | 2) => entities.filter((e) => e.relevance === c);
  return [...of('project'), ...inTurns(of('team', 'preferences'), (l) => l.stream), ...byClass(0), ...byClass(1), ...of('rest'), ...byClass(2)];
}

const STOP_WORDS = new Set(['the', 'and', 'for', 'with', 'from', 'that', 'this', 'its', 'are', 'was', 'were', 'has', 'have', 'had', 'but', 'into', 'onto', 'also', 'their', 'they', 'which', 'who', 'whom', 'been', 'being', 'is', 'of', 'to', 'in', 'on', 'at', 'by', 'as', 'an', 'a', 'or', 'it', 'be']);

/**
 * The words a text says, for ENTITY_SAID_BY_FACTS: lower-cased letters and digits, without the commonest function words.
 * Not without "not": a summary that negates a shown fact ("Wombat is not deployed on Fridays") says what no fact does.
 */
export function saidWords(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => !STOP_WORDS.has(w));
}

/** Whether every word of the summary is a word of the facts before it (an empty summary never is). */
export function saidByFacts(summary: string, factWords: ReadonlySet<string>): boolean {
  const words = saidWords(summary);
  return words.length > 0 && words.every((w) => factWords.has(w));
}

/** ENTITY_SAID_BY_FACTS: an entity line of the rest whose summary the facts before it already say. */
export function saidOnlyByFacts(relevance: 0 | 1 | 2, summary: string, factWords: ReadonlySet<string>): boolean {
  return relevance === 2 && saidByFacts(summary, factWords);
}
