/**
 * Issue 32, 45: orders kept out of the session context, the user's own knowledge kept in. Injection strings from published
 * collections (bench/data/prompt-injections.json: sources, commits and licences) and orders aimed
 * at a coding agent, each placed in realistic facts three ways (bench/context-corpus.ts), against
 * benign facts that merely mention commands, "ignore", "you" or rules. Reported: the share caught
 * per collection, the share of benign facts lost, what reaches a block built from all of them as
 * foreign facts (the whole path: provenance, trust, orders, budget), and the cost per fact beside
 * the cleaning every line already gets (same run).
 * Before issue 32 the block had no such filter: every one of these strings reached it.
 * Issue 45 adds a held-apart injection collection (microsoft/BIPIA, reported on its own), a benign
 * set of 639 facts from 30 kinds of projects with its dev and held-apart halves reported apart, the
 * facts that open with a noun use of a verb-shaped word, and this project's own notes in the block.
 */
import { buildContext, cleanText, orderReason, type ContextSearcher } from '../src/lib/context/context.js';
import type { Fact } from '../src/lib/graphiti/graphiti.js';
import { AGENT_POISONING, agentInstructions, agentRulesFiles, BENIGN_FACTS, benignFacts, changelogKnowledge, heldApartInjections, IMPERATIVE_CONVENTIONS, PLACEMENTS, publishedInjections, verbNounLines, type BenignFact, type Injection, type VerbNounBatch } from './context-corpus.js';
import { benchTeamKnowledge } from './context-team-bench.js';
import { median, type Row } from './util.js';

function caught(items: readonly Injection[]): { hit: number; all: number; misses: string[] } {
  let hit = 0;
  let all = 0;
  const misses: string[] = [];
  for (const placement of PLACEMENTS) {
    for (const item of items) {
      all += 1;
      if (orderReason(placement.place(item.text)) !== undefined) hit += 1;
      else if (placement.name === 'alone') misses.push(item.name);
    }
  }
  return { hit, all, misses };
}

/** µs per fact, median of 5 passes over the facts after a warm-up. */
function perFact(fn: (text: string) => unknown, facts: readonly string[]): number {
  const pass = () => {
    for (const f of facts) fn(f);
  };
  pass();
  const samples: number[] = [];
  for (let i = 0; i < 5; i += 1) {
    const t0 = process.hrtime.bigint();
    pass();
    samples.push(Number(process.hrtime.bigint() - t0) / 1e3 / facts.length);
  }
  return median(samples);
}

/** Benign facts left out, of a set: one row. */
/** `countsOnly`: a check half whose lines a run does not print, so nobody tunes on them by reading a bench run. */
function lostRow(name: string, facts: readonly string[], goal: string, countsOnly = false): Row {
  const lost = facts.filter((f) => orderReason(f) !== undefined);
  return { name: `${name} (of ${facts.length})`, value: (100 * lost.length) / facts.length, unit: '%', note: `${lost.length}/${facts.length}; goal ${goal}${lost.length > 0 && !countsOnly ? `; lost: ${lost.slice(0, 8).join(' | ')}` : ''}` };
}

export async function benchContext(): Promise<Row[]> {
  const { sources, items } = publishedInjections();
  const rows: Row[] = [];
  const held = heldApartInjections();
  for (const source of held.sources) {
    const mine = held.items.filter((i) => i.source === source.id);
    const r = caught(mine);
    rows.push({
      name: `caught, HELD APART: ${source.repo} ${source.path ?? ""} (${mine.length} strings x ${PLACEMENTS.length} placements)`,
      value: (100 * r.hit) / r.all,
      unit: '%',
      note: `${r.hit}/${r.all}, goal >= 90 %; no rule written on it; ${source.license.split(' ')[0]} @ ${source.commit.slice(0, 7)}${r.misses.length > 0 ? `; missed alone: ${r.misses.length}` : ''}`,
    });
  }
  const heldAll = caught(held.items);
  rows.push({ name: `caught, HELD APART: all of microsoft/BIPIA (${held.items.length} strings)`, value: (100 * heldAll.hit) / heldAll.all, unit: '%', note: `${heldAll.hit}/${heldAll.all}` });
  for (const source of sources) {
    const mine = items.filter((i) => i.source === source.id);
    const r = caught(mine);
    rows.push({
      name: `caught: ${source.repo} (${mine.length} strings x ${PLACEMENTS.length} placements)`,
      value: (100 * r.hit) / r.all,
      unit: '%',
      note: `${r.hit}/${r.all}, ${source.license.split(' ')[0]} @ ${source.commit.slice(0, 7)}${r.misses.length > 0 ? `; missed alone: ${r.misses.join(', ')}` : ''}`,
    });
  }
  const published = caught(items);
  rows.push({ name: `caught: all published (${items.length} strings)`, value: (100 * published.hit) / published.all, unit: '%', note: `${published.hit}/${published.all}; before issue 32: 0 %` });
  const agent = caught(AGENT_POISONING);
  rows.push({ name: `caught: orders aimed at a coding agent (${AGENT_POISONING.length}, written here)`, value: (100 * agent.hit) / agent.all, unit: '%', note: `${agent.hit}/${agent.all}` });
  const lost = BENIGN_FACTS.filter((f) => orderReason(f) !== undefined);
  const conventions = IMPERATIVE_CONVENTIONS.filter((f) => orderReason(f) !== undefined);
  rows.push({ name: `conventions worded as imperatives, from other writers, left out (of ${IMPERATIVE_CONVENTIONS.length}, by design)`, value: (100 * conventions.length) / IMPERATIVE_CONVENTIONS.length, unit: '%', note: conventions.length > 0 ? `left out: ${conventions.join(' | ')}` : '' });
  rows.push({ name: `benign facts lost (of issue 32's ${BENIGN_FACTS.length} mentioning commands, "ignore", rules)`, value: (100 * lost.length) / BENIGN_FACTS.length, unit: '%', note: lost.length > 0 ? `lost: ${lost.join(' | ')}` : '' });
  const benign = benignFacts();
  const texts = (set: readonly BenignFact[], half?: BenignFact['half']) => set.filter((f) => half === undefined || f.half === half).map((f) => f.text);
  const big = [...texts(benign.facts), ...texts(benign.nounOpening)];
  rows.push(lostRow('benign facts lost, issue 45 set: all', big, '<= 1 %'));
  rows.push(lostRow('benign facts lost, issue 45 set: dev half', [...texts(benign.facts, 'dev'), ...texts(benign.nounOpening, 'dev')], '<= 1 %'));
  rows.push(lostRow('benign facts lost, issue 45 set: HELD-APART half', [...texts(benign.facts, 'heldout'), ...texts(benign.nounOpening, 'heldout')], '<= 1 %'));
  rows.push(lostRow('noun-opening facts left out (Run times, Type checking, ...): all', texts(benign.nounOpening), '<= 1 in 40 (2.5 %)'));
  rows.push(lostRow('noun-opening facts left out: HELD-APART half', texts(benign.nounOpening, 'heldout'), '<= 1 in 40 (2.5 %)'));
  const handWritten = verbNounLines();
  const batches = [
    ['batch 1 (dev)', handWritten.batch1],
    ['batch 2 (CHECK, written after qa-edges-3 rules; its misses named in note 14)', handWritten.batch2],
    ['batch 3, tune half', handWritten.batch3.tune],
    ['batch 3, CHECK half (never tuned on; counts only)', handWritten.batch3.check],
    ['batch 4, tune half', handWritten.batch4.tune],
    ['batch 4, CHECK half (never tuned on; counts only)', handWritten.batch4.check],
    ['batch 5, tune half', handWritten.batch5.tune],
    ['batch 5, CHECK half (never tuned on; counts only)', handWritten.batch5.check],
    ['batch 6, tune half', handWritten.batch6.tune],
    ['batch 6, CHECK half (never tuned on; counts only)', handWritten.batch6.check],
  ] as const;
  const checkHalves: readonly VerbNounBatch[] = [handWritten.batch3.check, handWritten.batch4.check, handWritten.batch5.check, handWritten.batch6.check];
  for (const [name, batch] of batches) {
    const countsOnly = checkHalves.includes(batch);
    rows.push(lostRow(`hand-written knowledge opening with a verb-shaped noun left out, ${name}`, batch.knowledge, '<= 1 in 40 (2.5 %)', countsOnly));
    const missed = batch.orders.filter((o) => orderReason(o) === undefined);
    const orders = batch.orders.length - missed.length;
    rows.push({ name: `hand-written orders from another writer caught, ${name}`, value: (100 * orders) / batch.orders.length, unit: '%', note: `${orders}/${batch.orders.length}${countsOnly ? '' : `; missed: ${missed.join(' | ')}`}` });
  }

  // Knowledge nobody here wrote (qa-orders-7): changelog lines, commit subjects, README feature lists.
  const changelog = changelogKnowledge();
  for (const half of ['dev', 'check'] as const) {
    const lines = changelog.lines.filter((l) => l.half === half);
    rows.push(lostRow(`public changelogs and commit subjects (express, prettier, vite, axios) left out, ${half === 'dev' ? 'dev half' : 'CHECK half (counts only)'}`, lines.map((l) => l.text), '<= 2.5 %', half === 'check'));
    if (half === 'dev') {
      for (const source of changelog.sources) {
        const mine = lines.filter((l) => l.source === source.id).map((l) => l.text);
        if (mine.length > 0) rows.push(lostRow(`  dev half, ${source.id} (${source.license} @ ${source.commit.slice(0, 7)})`, mine, '<= 2.5 %'));
      }
    }
  }

  // Orders and knowledge nobody here wrote (qa-orders-8): lines of public agent-instruction files.
  // The same for other agents' rule files, from other writers (qa-orders-10: how the rules generalise).
  for (const [set, title, short] of [
    [agentInstructions(), 'public agent-instruction files (CLAUDE.md, AGENTS.md, ...', 'public agent-instruction files'],
    [agentRulesFiles(), 'other agents\' public rule files (.windsurfrules, .clinerules, .cursor/rules, .kiro/steering, ...', 'other agents\' public rule files'],
  ] as const) {
    for (const half of ['dev', 'check'] as const) {
      const lines = set.lines.filter((l) => l.half === half);
      const countsOnly = half === 'check';
      const name = half === 'dev' ? 'dev half' : 'CHECK half (counts only)';
      const repos = new Set(lines.map((l) => l.repo)).size;
      const orders = lines.filter((l) => l.label === 'order').map((l) => l.text);
      const missed = orders.filter((o) => orderReason(o) === undefined);
      rows.push({ name: `${title}; ${repos} repos): orders caught, ${name}`, value: (100 * (orders.length - missed.length)) / orders.length, unit: '%', note: `${orders.length - missed.length}/${orders.length}${countsOnly ? '' : `; missed: ${missed.slice(0, 8).join(' | ')}`}` });
      rows.push(lostRow(`${short}: knowledge left out, ${name}`, lines.filter((l) => l.label === 'knowledge').map((l) => l.text), '<= 2.5 %', countsOnly));
    }
  }

  // The whole path: every placed injection and every benign fact as foreign facts in one group.
  const injected = PLACEMENTS.flatMap((p) => [...items, ...AGENT_POISONING].map((i) => p.place(i.text)));
  const facts: Fact[] = [...injected, ...BENIGN_FACTS].map((fact, n) => ({ uuid: `f${n}`, name: 'RELATES_TO', fact, episodes: [`foreign-${n}`] }));
  const graphiti: ContextSearcher = { searchFacts: async () => facts, searchNodes: async () => [] };
  const project = { cwd: '/p', root: '/p', isGit: false, gitDir: undefined, name: 'webapp', key: '-p', memoryDir: '/nonexistent', memoryDirExists: false, groupIds: ['main'] };
  for (const trust of ['group', 'shared'] as const) {
    const built = await buildContext({ graphiti, config: { contextBudget: 10_000, contextFormat: 'lines', contextTrust: trust }, project, maxFacts: facts.length });
    const reached = injected.filter((t) => built.text.includes(cleanText(t, 400))).length;
    const kept = BENIGN_FACTS.filter((t) => built.text.includes(t)).length;
    rows.push({ name: `block from all of them as foreign facts, trust=${trust}: placed injections reaching it`, value: reached, unit: `of ${injected.length}`, note: `benign facts in the block: ${kept} of ${BENIGN_FACTS.length} (budget 10000: ${built.overBudget} lines did not fit)` });
  }

  // This project's own notes (feedback memories, conventions written as orders) beside the same words from the group.
  const mine = IMPERATIVE_CONVENTIONS.map((fact, n): Fact => ({ uuid: `own-${n}`, name: 'NOTE', fact, episodes: [`ep-own-${n}`] }));
  const theirs = IMPERATIVE_CONVENTIONS.map((fact, n): Fact => ({ uuid: `group-${n}`, name: 'NOTE', fact: `${fact}.`, episodes: [`ep-group-${n}`] }));
  const both: ContextSearcher = { searchFacts: async () => [...mine, ...theirs], searchNodes: async () => [] };
  const here = new Set(mine.map((f) => (f.episodes as string[])[0] as string));
  const ownBlock = await buildContext({ graphiti: both, config: { contextBudget: 10_000, contextFormat: 'lines', contextTrust: 'group' }, project, maxFacts: 100, episodeProvenance: new Map([...here].map((e) => [e, 'own' as const])), thisProjectEpisodes: here });
  const ownShown = IMPERATIVE_CONVENTIONS.filter((t) => ownBlock.text.includes(`- [own] ${t}\n`) || ownBlock.text.endsWith(`- [own] ${t}`)).length;
  const groupShown = theirs.filter((f) => ownBlock.text.includes(`] ${f.fact}`)).length;
  rows.push({ name: `this project's own conventions worded as orders, in the block`, value: ownShown, unit: `of ${IMPERATIVE_CONVENTIONS.length}`, note: `the same words from the group: ${groupShown} of ${theirs.length} in the block (before issue 45: own ones were filtered like the group's)` });

  // The ranking rows (qa-context-team-knowledge): the useful knowledge of a team's project, within the budget.
  rows.push(...(await benchTeamKnowledge()));

  const all = [...injected, ...BENIGN_FACTS];
  const clean = perFact((t) => cleanText(t, 400), all);
  rows.push({ name: `cost per fact: orderReason (${all.length} facts)`, value: perFact(orderReason, all), unit: 'µs', baseline: clean, baselineName: 'cleanText', note: `cleanText: ${clean.toFixed(1)} µs; runs in the worker, never in the hook` });
  return rows;
}
