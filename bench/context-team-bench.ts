/**
 * The ranking rows (qa-context-team-knowledge): what share of the knowledge useful for a team's
 * project reaches its session block, within the budget, through the fake server's search (the
 * same term search the fake Graphiti answers with, test/support/graphiti/store.ts). Useful: the
 * project's own facts, the team's (team memory) and the user's preferences (global notes); the rest
 * of the shared group is other projects' facts. Scenarios from bench/team-knowledge-corpus.ts,
 * dev and check halves apart; the check half is reported as counts only.
 */
import { beyondProjectEpisodes, beyondProjectNotes, notesForBudget, noteQuery, type OurEpisodeNote } from '../src/lib/context/beyond-project.js';
import { buildContext, type ContextSearcher } from '../src/lib/context/context.js';
import type { ProjectInfo } from '../src/lib/context/project.js';
import { GraphitiStore } from '../test/support/graphiti/store.js';
import { BUSY_TEAM, SMALL_TEAM, teamScenarios, type Half, type Kind, type Scenario, type Shape } from './team-knowledge-corpus.js';
import type { Row } from './util.js';

const GROUP = 'team';

function storeOf(scenario: Scenario): GraphitiStore {
  const clock = { now: () => Date.parse('2026-12-01T12:00:00Z') };
  const store = new GraphitiStore(() => ({ db: 'falkordb', processingDelayMs: 0, maxFactsPerEpisode: 10, maxNodesPerEpisode: 10, clock, episodeUuid: () => 'x' }) as never);
  for (const f of scenario.facts) store.seedFact({ uuid: f.uuid, fact: f.fact, group_id: GROUP, episodes: [f.episode], created_at: f.at, valid_at: f.at });
  return store;
}

export interface TeamBlockCount {
  reached: Record<Kind, number>;
  all: Record<Kind, number>;
  lines: number;
  /** The block itself (what a reader of the bench can look at). */
  text: string;
}

/** What one scenario's block holds, by kind of fact. */
export async function teamBlock(scenario: Scenario, budget: number, format: 'lines' | 'toon' | 'auto' = 'lines'): Promise<TeamBlockCount> {
  const store = storeOf(scenario);
  const graphiti: ContextSearcher = {
    searchFacts: async (query, groups, max) => store.searchFacts(query, groups, max ?? 20),
    searchNodes: async (query, groups, max) => store.searchNodes(query, groups, max ?? 8, null),
  };
  const project: ProjectInfo = { cwd: `/code/${scenario.project}`, root: `/code/${scenario.project}`, isGit: false, gitDir: undefined, name: scenario.project, key: `-code-${scenario.project}`, memoryDir: '/nonexistent', memoryDirExists: false, groupIds: [GROUP] };
  const provenance = new Map<string, 'own' | 'shared'>();
  for (const f of scenario.facts) if (f.whose !== 'group') provenance.set(f.episode, f.whose === 'shared' ? 'shared' : 'own');
  const here = new Set(scenario.facts.filter((f) => f.whose === 'this-project').map((f) => f.episode));
  // Our state's episodes as state/our-episodes.ts reads them: team memory (a `t-` origin), global notes (no project), project notes.
  const ours: OurEpisodeNote[] = scenario.facts.filter((f) => f.whose !== 'group').map((f) => ({ uuid: f.episode, source: f.whose === 'global' ? 'pai' : 'auto-memory', origin: f.whose === 'shared' ? 't-0123456789' : 'm-1', ...(f.whose === 'global' ? {} : { project: f.whose === 'other-project' ? '-code-other' : project.key }), name: f.title, groupId: GROUP, at: f.at }));
  // A note's text is its facts, one after another (the fake extracts a fact per sentence).
  const textOf = (title: string) => scenario.facts.filter((f) => f.title === title).map((f) => f.fact).join(' ');
  const beyondProject = { queries: beyondProjectNotes(ours, {}, [GROUP], notesForBudget(budget)).map((n) => noteQuery(n.title, textOf(n.title))), episodes: beyondProjectEpisodes(ours, {}) };
  const built = await buildContext({
    beyondProject, graphiti, config: { contextBudget: budget, contextFormat: format, contextTrust: 'group' }, project, now: new Date('2026-12-01T12:00:00Z'), episodeProvenance: provenance, thisProjectEpisodes: here });
  const zero = (): Record<Kind, number> => ({ project: 0, team: 0, preference: 0, 'other-project': 0 });
  const reached = zero();
  const all = zero();
  const shown = new Set(built.text.split('\n').map((l) => l.replace(/^- \[\w+\] /, '').replace(/ \(\d{4}-\d{2}-\d{2}\)$/, '')));
  for (const f of scenario.facts) {
    all[f.kind] += 1;
    if (shown.has(f.fact)) reached[f.kind] += 1;
  }
  return { reached, all, lines: built.facts, text: built.text };
}

async function halfRows(which: Half, budget: number, shape: Shape = SMALL_TEAM, label0 = 'team projects'): Promise<Row[]> {
  const count = 12;
  const sum: Omit<TeamBlockCount, 'text'> = { reached: { project: 0, team: 0, preference: 0, 'other-project': 0 }, all: { project: 0, team: 0, preference: 0, 'other-project': 0 }, lines: 0 };
  for (const scenario of teamScenarios(which, count, 146, shape)) {
    const one = await teamBlock(scenario, budget);
    for (const k of Object.keys(sum.all) as Kind[]) {
      sum.reached[k] += one.reached[k];
      sum.all[k] += one.all[k];
    }
    sum.lines += one.lines;
  }
  const useful = sum.reached.project + sum.reached.team + sum.reached.preference;
  const usefulAll = sum.all.project + sum.all.team + sum.all.preference;
  const label = which === 'dev' ? 'dev half' : 'CHECK half (counts only)';
  const pct = (a: number, b: number) => (100 * a) / Math.max(1, b);
  return [
    { name: `${label0} (${count} scenarios, budget ${budget}), ${label}: useful facts in the block`, value: pct(useful, usefulAll), unit: '%', note: `${useful}/${usefulAll}: project ${sum.reached.project}/${sum.all.project}, team memory ${sum.reached.team}/${sum.all.team}, the user's preferences ${sum.reached.preference}/${sum.all.preference}` },
    { name: `${label0} (budget ${budget}), ${label}: other projects' facts in the block`, value: pct(sum.reached['other-project'], sum.lines), unit: '% of lines', note: `${sum.reached['other-project']} of ${sum.lines} fact lines (of ${sum.all['other-project']} in the group)` },
  ];
}

export async function benchTeamKnowledge(): Promise<Row[]> {
  const rows: Row[] = [];
  for (const budget of [8000, 1500]) for (const which of ['dev', 'check'] as const) rows.push(...(await halfRows(which, budget)));
  // The constants (beyond-project.ts: notes searched, facts each; block-order.ts FAIR_SHARE) were
  // chosen on the small team's dev half; this second shape checks them where notes outnumber the
  // searches (NOTES_BY_BUDGET's cap of 20 was chosen looking at this shape's 8000 row: not a check of it).
  for (const budget of [8000, 1500]) rows.push(...(await halfRows('dev', budget, BUSY_TEAM, `busy team (${BUSY_TEAM.teamNotes} team notes, ${BUSY_TEAM.preferenceNotes} preferences, ${BUSY_TEAM.otherProjects} other projects)`)));
  return rows;
}
