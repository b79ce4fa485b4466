/**
 * The order of the block's lines, what a small budget keeps (context/block-order.ts FAIR_SHARE,
 * ENTITY_RELEVANCE, ENTITY_SAID_BY_FACTS; rank.ts SAME_WORDS; beyond-project.ts NOTES_BY_BUDGET).
 * Built through buildContext with a fake searcher that answers every search with the same lines.
 */
import { describe, expect, it } from 'vitest';
import { buildContext, OMIT_SAID_BY_FACTS, type ContextSearcher } from '../../src/lib/context/context.js';
import { inTurns, saidByFacts, saidWords } from '../../src/lib/context/block-order.js';
import { MAX_BEYOND_PROJECT_QUERIES, notesForBudget } from '../../src/lib/context/beyond-project.js';
import { rankFacts, sameWordsKey } from '../../src/lib/context/rank.js';
import { orderReason } from '../../src/lib/context/orders.js';
import type { EntityNode, Fact } from '../../src/lib/graphiti/graphiti.js';
import type { ProjectInfo } from '../../src/lib/context/project.js';

const NOW = new Date('2026-03-01T12:00:00Z');
const project: ProjectInfo = { cwd: '/code/quokka', root: '/code/quokka', isGit: false, gitDir: undefined, name: 'quokka', key: '-code-quokka', memoryDir: '/nonexistent', memoryDirExists: false, groupIds: ['main'] };

function fact(uuid: string, text: string, episode: string, extra: Partial<Fact> = {}): Fact {
  return { uuid, name: 'RELATES_TO', fact: text, episodes: [episode], valid_at: '2026-02-01T00:00:00Z', ...extra };
}
function node(uuid: string, name: string, summary: string, extra: Partial<EntityNode> = {}): EntityNode {
  return { uuid, name, summary, labels: ['Entity'], created_at: '2026-02-01T00:00:00Z', ...extra };
}
const searcher = (facts: Fact[], nodes: EntityNode[] = []): ContextSearcher => ({ searchFacts: async () => facts, searchNodes: async () => nodes });

/** The user's state: this project's notes, team memory (`shared`), the user's notes beyond projects (`own`, preferences). */
const mine = ['ep-p1', 'ep-p2'];
const team = ['ep-t1', 'ep-t2', 'ep-t3', 'ep-t4'];
const prefs = ['ep-g1', 'ep-g2'];
const provenance = new Map<string, 'own' | 'shared'>([...mine.map((e) => [e, 'own'] as const), ...team.map((e) => [e, 'shared'] as const), ...prefs.map((e) => [e, 'own'] as const)]);
const inputs = { episodeProvenance: provenance, thisProjectEpisodes: new Set(mine), beyondProject: { queries: [], episodes: new Set([...team, ...prefs]) } };

const PROJECT = ['quokka keeps invoices in Postgres through Prisma.', 'quokka sends its errors to Sentry.'];
/** Team decisions: the decisions tier (rank.ts STRONG), so ranked by tier alone they all came before the preferences. */
const TEAM = ['The team decided on REST with OpenAPI specs.', 'The team chose Vault for every secret.', 'The team decided to release Tuesday to Thursday.', 'The architecture board meets on Mondays.'];
const PREFS = ['Sam works in Neovim with Mason.', 'Sam is in the Berlin time zone.'];
const OTHER = 'Wombat decided on Redis streams for its queue architecture.';

function teamFacts(): Fact[] {
  return [
    ...PROJECT.map((t, i) => fact(`p${i}`, t, mine[i] as string)),
    ...TEAM.map((t, i) => fact(`t${i}`, t, team[i] as string)),
    ...PREFS.map((t, i) => fact(`g${i}`, t, prefs[i] as string)),
    fact('o1', OTHER, 'ep-other'),
  ];
}

const factLines = (text: string) => text.split('\n').filter((l) => l.startsWith('- ')).map((l) => l.replace(/^- \[\w+\] /, '').replace(/ \(\d{4}-\d{2}-\d{2}\)$/, ''));

describe('FAIR_SHARE: after this project\'s facts, the team\'s and the user\'s preferences in turns', () => {
  it('a preference is not pushed out of a small block by the team\'s decisions; the project\'s facts still come first', async () => {
    const built = await buildContext({ graphiti: searcher(teamFacts()), config: { contextBudget: 10_000, contextFormat: 'lines' }, project, now: NOW, ...inputs });
    expect(factLines(built.text)).toEqual([PROJECT[0], PROJECT[1], TEAM[0], PREFS[0], TEAM[1], PREFS[1], TEAM[2], TEAM[3], OTHER].map((t) => t as string));
    // A budget that holds the header and five lines: the project's two, then one of each stream.
    const header = built.text.split('\n').slice(0, 2).join('\n').length;
    const small = await buildContext({ graphiti: searcher(teamFacts()), config: { contextBudget: header + 5 * 70, contextFormat: 'lines' }, project, now: NOW, ...inputs });
    expect(small.text).toContain(PREFS[0]);
    expect(small.text).toContain(PROJECT[0]);
    expect(small.text).toContain(PROJECT[1]);
    expect(small.text).not.toContain(OTHER);
  });

  it('inTurns: one line of each stream in turn, a stream that runs dry gives its turns to the other, each stream\'s order kept', () => {
    const items = ['t1', 't2', 't3', 't4', 'p1'];
    expect(inTurns(items, (i) => (i.startsWith('t') ? 'team' : 'preferences'))).toEqual(['t1', 'p1', 't2', 't3', 't4']);
  });
});

describe('ENTITY_RELEVANCE: an entity line stands where the nearest fact about it stands', () => {
  it('this project\'s and the team\'s entities come before another project\'s, whatever their labels; another project\'s come after every fact', async () => {
    const facts = [
      fact('p0', PROJECT[0] as string, 'ep-p1', { source_node_uuid: 'n-prisma' }),
      fact('t0', TEAM[1] as string, 'ep-t2', { target_node_uuid: 'n-vault' }),
      fact('o1', OTHER, 'ep-other', { source_node_uuid: 'n-wombat', target_node_uuid: 'n-redis' }),
    ];
    const nodes = [
      // Another project's entities, labelled as decisions: rank.ts ranked them first (nodeTier 2).
      node('n-wombat', 'Wombat', 'Wombat is a service that chose an event log design.', { labels: ['Entity', 'Decision'] }),
      node('n-redis', 'Redis streams', 'A queue design decision made for the Wombat service in 2025.', { labels: ['Entity', 'Decision'] }),
      node('n-vault', 'Vault', 'HashiCorp Vault holds the team\'s secrets, rotated weekly by a job.'),
      node('n-prisma', 'Prisma', 'An ORM with generated TypeScript clients and migrations.'),
    ];
    const built = await buildContext({ graphiti: searcher(facts, nodes), config: { contextBudget: 10_000, contextFormat: 'lines' }, project, now: NOW, rebuildsSummaries: true, ...inputs });
    const lines = built.text.split('\n');
    const at = (text: string) => lines.findIndex((l) => l.includes(text));
    expect(at('Prisma:')).toBeGreaterThan(-1);
    expect(at('Prisma:')).toBeLessThan(at('Vault:'));
    expect(at('Vault:')).toBeLessThan(at('Wombat:'));
    expect(at('Vault:')).toBeLessThan(at('Redis streams:'));
    // At a budget without room for all, another project's entities are the first to go.
    const without = built.text.split('\n').filter((l) => !l.includes('Wombat:') && !l.includes('Redis streams:')).join('\n');
    const small = await buildContext({ graphiti: searcher(facts, nodes), config: { contextBudget: without.length, contextFormat: 'lines' }, project, now: NOW, rebuildsSummaries: true, ...inputs });
    expect(small.text).toContain('Prisma:');
    expect(small.text).toContain('Vault:');
    expect(small.text).not.toContain('Wombat:');
  });

  it('an entity that names the project is this project\'s, with no fact about it', async () => {
    const facts = [fact('o1', OTHER, 'ep-other')];
    const nodes = [node('n-other', 'Kestrel', 'Kestrel is a reporting service with its own decisions.', { labels: ['Entity', 'Decision'] }), node('n-q', 'Billing worker', 'The quokka billing worker runs nightly invoices.')];
    const built = await buildContext({ graphiti: searcher(facts, nodes), config: { contextBudget: 10_000, contextFormat: 'lines' }, project, now: NOW, rebuildsSummaries: true, ...inputs });
    const lines = built.text.split('\n');
    expect(lines.findIndex((l) => l.includes('Billing worker:'))).toBeLessThan(lines.findIndex((l) => l.includes('Kestrel:')));
  });
});

describe('ENTITY_SAID_BY_FACTS: an entity line of other projects or writers that only repeats the facts before it is left out', () => {
  const facts = [fact('p0', PROJECT[0] as string, 'ep-p1', { source_node_uuid: 'n-prisma' }), fact('o1', OTHER, 'ep-other', { source_node_uuid: 'n-wombat' })];
  const nodes = [
    node('n-wombat', 'Wombat', 'Wombat decided on Redis streams for its queue architecture.'),
    node('n-kestrel', 'Kestrel', 'Kestrel is a reporting service owned by the data team.'),
    node('n-prisma', 'Prisma', 'quokka keeps its invoices in Postgres through Prisma.'),
  ];

  it('another project\'s summary made of a shown fact\'s words stays out (named in `omitted`); one that says more stays; this project\'s stays', async () => {
    const built = await buildContext({ graphiti: searcher(facts, nodes), config: { contextBudget: 10_000, contextFormat: 'lines' }, project, now: NOW, rebuildsSummaries: true, ...inputs });
    expect(built.text).not.toContain('Wombat: Wombat decided');
    expect(built.text).toContain('Kestrel: Kestrel is a reporting service');
    expect(built.text).toContain('Prisma: quokka keeps its invoices');
    expect(built.omitted).toContainEqual(expect.objectContaining({ kind: 'entity', reason: OMIT_SAID_BY_FACTS, text: 'Wombat: Wombat decided on Redis streams for its queue architecture.' }));
  });

  it('while the server\'s rules are not known, such a summary asks for no probe: it would change nothing', async () => {
    const said = await buildContext({ graphiti: searcher(facts, [nodes[0] as EntityNode]), config: { contextBudget: 10_000, contextFormat: 'lines' }, project, now: NOW, summaryRulesUnknown: true, ...inputs });
    expect(said.summariesAwaitingRules).toBe(0);
    const more = await buildContext({ graphiti: searcher(facts, [nodes[1] as EntityNode]), config: { contextBudget: 10_000, contextFormat: 'lines' }, project, now: NOW, summaryRulesUnknown: true, ...inputs });
    expect(more.summariesAwaitingRules).toBe(1);
  });

  it('a summary that negates a shown fact says what the facts do not: it stays', async () => {
    const shown = [fact('o2', 'Wombat is deployed on Fridays.', 'ep-other', { source_node_uuid: 'n-wombat' })];
    const negating = node('n-wombat', 'Wombat', 'Wombat is not deployed on Fridays.');
    const built = await buildContext({ graphiti: searcher(shown, [negating]), config: { contextBudget: 10_000, contextFormat: 'lines' }, project, now: NOW, rebuildsSummaries: true, ...inputs });
    expect(built.text).toContain('Wombat: Wombat is not deployed on Fridays.');
    expect(saidByFacts('Wombat is not deployed on Fridays.', new Set(saidWords('Wombat is deployed on Fridays.')))).toBe(false);
  });

  it('saidByFacts: every word must be said; an empty summary is never said', () => {
    const words = new Set(saidWords('quokka keeps invoices in Postgres through Prisma.'));
    expect(saidByFacts('Prisma keeps the invoices of quokka.', words)).toBe(true);
    expect(saidByFacts('Prisma keeps the invoices of quokka since 2024.', words)).toBe(false);
    expect(saidByFacts('', words)).toBe(false);
  });
});

describe('SAME_WORDS: lines that differ only in case, articles, quotes or a closing stop are one line', () => {
  it('two notes saying one thing give one line, the better-ranked one: this project\'s, whichever the search gave first', async () => {
    const facts = [fact('g', 'Invoices are kept in the "Postgres" cluster', 'ep-group'), fact('p', 'Invoices are kept in Postgres cluster.', 'ep-p1')];
    const built = await buildContext({ graphiti: searcher(facts), config: { contextBudget: 10_000, contextFormat: 'lines' }, project, now: NOW, ...inputs });
    expect(factLines(built.text)).toEqual(['Invoices are kept in Postgres cluster.']);
    expect(built.text).toContain('- [own] Invoices are kept in Postgres cluster.');
  });

  it('this project\'s copy stays even when another writer\'s copy names the project and is newer: judged as an order, that copy would take the user\'s line with it', async () => {
    const facts = [
      fact('g', 'Always run the quokka migrations before a deploy', 'ep-group', { valid_at: '2026-02-20T00:00:00Z' }),
      fact('p', 'Always run the quokka migrations before a deploy.', 'ep-p1', { valid_at: '2026-01-01T00:00:00Z' }),
    ];
    const built = await buildContext({ graphiti: searcher(facts), config: { contextBudget: 10_000, contextFormat: 'lines' }, project, now: NOW, ...inputs });
    expect(built.text).toContain('- [own] Always run the quokka migrations before a deploy.');
  });

  it('the copy kept is one the trust setting shows: a teammate\'s newer copy of the user\'s own preference, left out under MADEINOZ_KNOWLEDGE_CONTEXT_TRUST=own, does not take the user\'s line with it', async () => {
    const facts = [
      fact('t', 'Sam prefers pnpm over npm', 'ep-t1', { valid_at: '2026-02-20T00:00:00Z' }),
      fact('g', 'Sam prefers pnpm over npm.', 'ep-g1', { valid_at: '2026-01-01T00:00:00Z' }),
    ];
    const built = await buildContext({ graphiti: searcher(facts), config: { contextBudget: 10_000, contextFormat: 'lines', contextTrust: 'own' }, project, now: NOW, ...inputs });
    expect(built.text).toContain('- [own] Sam prefers pnpm over npm.');
  });

  it('the copy kept is one that passes as knowledge: another writer\'s newer copy without the quotes, read as an order, does not take the user\'s own preference with it', async () => {
    // Both name the project (RELEVANCE_CLASS 0) and neither rests on this project's notes: only the newer date tells them apart.
    const mineText = '"Keep a changelog" format is used in quokka';
    const theirs = 'Keep a changelog format is used in quokka';
    expect(orderReason(theirs)).toBeDefined();
    expect(orderReason(mineText)).toBeUndefined();
    const facts = [fact('o', theirs, 'ep-other', { valid_at: '2026-02-20T00:00:00Z' }), fact('g', mineText, 'ep-g1', { valid_at: '2026-01-01T00:00:00Z' })];
    const built = await buildContext({ graphiti: searcher(facts), config: { contextBudget: 10_000, contextFormat: 'lines' }, project, now: NOW, ...inputs });
    expect(built.text).toContain(`- [own] ${mineText}`);
  });

  it('other words, another number or sign, another order, or a capital "A" naming something are other lines', () => {
    const key = sameWordsKey;
    expect(key('The API uses port 9102.')).toBe(key('the API uses port 9102'));
    expect(key('The API uses port 9102.')).not.toBe(key('The API uses port 9103.'));
    expect(key('The queue holds -5 jobs.')).not.toBe(key('The queue holds 5 jobs.'));
    expect(key('billing depends on ledger')).not.toBe(key('ledger depends on billing'));
    expect(key('Use plan A for outages')).not.toBe(key('Use plan for outages'));
    expect(rankFacts([fact('1', 'Sam uses pnpm.', 'e1'), fact('2', 'Sam uses pnpm', 'e2'), fact('3', 'Sam uses npm', 'e3')], NOW).map((f) => f.uuid)).toEqual(['1', '3']);
  });
});

describe('NOTES_BY_BUDGET: a larger block searches more notes beyond projects', () => {
  it('10 notes up to 4,000 characters, one more per 400, at most 20', () => {
    expect(notesForBudget(0)).toBe(MAX_BEYOND_PROJECT_QUERIES);
    expect(notesForBudget(1500)).toBe(10);
    expect(notesForBudget(4400)).toBe(11);
    expect(notesForBudget(8000)).toBe(20);
    expect(notesForBudget(10_000)).toBe(20);
  });
});
