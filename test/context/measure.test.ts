/**
 * Measures the two context formats on the same facts (the README quotes these figures).
 * Run: npx vitest run test/context/measure.test.ts  (prints a table; asserts `auto` picks the shorter).
 */
import { describe, expect, it } from 'vitest';
import { contextHeader, formatLines, formatToon, rankFacts, rankNodes, renderContext, toEntityLine, toFactLine, type ContextItem } from '../../src/lib/context/context.js';
import type { EntityNode, Fact } from '../../src/lib/graphiti/graphiti.js';

const NOW = new Date('2026-03-05T00:00:00Z');

/** Facts as Graphiti extracts them from the example corpus (examples/memory), one sentence each. */
const WEBAPP_FACTS: Array<[string, string]> = [
  ['The API runs on Fastify 5', '2026-03-02'],
  ['The webapp stores data in Postgres 16', '2026-03-02'],
  ['Background jobs use pg-boss', '2026-03-02'],
  ['The team decided to store all timestamps as UTC timestamptz', '2026-03-02'],
  ['Integration tests talk to a real server on 127.0.0.1, not to mocks', '2026-02-28'],
  ['A mocked database hid a broken migration last quarter', '2026-02-28'],
  ['Timing goals belong in benchmarks, not in pass/fail tests', '2026-02-28'],
  ['The user is a backend engineer', '2026-02-27'],
  ['The user prefers terse answers with code first', '2026-02-27'],
  ["Graphiti's add_memory replies queued for processing before anything is stored", '2026-02-11'],
  ['Queued episodes are confirmed through get_episodes by matching a unique marker', '2026-02-11'],
  ['The SessionStart hook waited on three health probes before the session started', '2026-01-04'],
  ['Session start serves context from a local cache', '2026-01-04'],
  ['Sync runs in a detached background worker', '2026-01-04'],
  ['Every new session took 4 to 9 seconds to open while the server was down', '2026-01-04'],
  ['The state file is written to a temp file, fsynced, then renamed over the old one', '2026-03-01'],
  ['A torn state file looked like a first run and re-sent every memory', '2026-03-01'],
  ['On FalkorDB, Graphiti stores group_id as a RediSearch TEXT field', '2026-02-20'],
  ['Hyphens in a group id break the FalkorDB fulltext query', '2026-02-20'],
  ['Episodes with a bad group id are dropped after add_memory said queued', '2026-02-20'],
  ['Group ids on FalkorDB match ^[A-Za-z0-9_]+$', '2026-02-20'],
  ['Neo4j accepts group ids matching ^[A-Za-z0-9_-]+$', '2026-02-20'],
];

const WEBAPP_NODES: Array<[string, string, string[]]> = [
  ['Fastify', 'Web framework the API runs on (version 5)', ['Entity']],
  ['Postgres', 'Database of the webapp (version 16); timestamps stored as UTC timestamptz', ['Entity']],
  ['pg-boss', 'Job queue for background jobs', ['Entity']],
  ['FalkorDB', 'Graph database behind Graphiti; group ids must avoid hyphens', ['Entity']],
  ['Use UTC timestamps', 'Decision to store all timestamps as UTC timestamptz', ['Entity', 'Decision']],
  ['Terse answers', 'The user prefers terse answers with code first', ['Entity', 'Preference']],
];

function dataset(facts: Array<[string, string]>, nodes: Array<[string, string, string[]]>): ContextItem[] {
  const f: Fact[] = facts.map(([text, date], i) => ({ uuid: `f${i}`, name: 'RELATES_TO', fact: text, valid_at: `${date}T00:00:00Z` }));
  const n: EntityNode[] = nodes.map(([name, summary, labels], i) => ({ uuid: `n${i}`, name, summary, labels }));
  return [...rankFacts(f, NOW).map((x) => ({ kind: 'fact' as const, ...toFactLine(x, 'own') })), ...rankNodes(n).map((x) => ({ kind: 'entity' as const, ...toEntityLine(x, 'group') }))];
}

describe('lines vs TOON on the same facts', () => {
  const header = contextHeader('webapp', ['main']);
  const cases: Array<{ name: string; items: ContextItem[] }> = [
    { name: 'example corpus (22 facts, 6 entities)', items: dataset(WEBAPP_FACTS, WEBAPP_NODES) },
    { name: 'example corpus, facts only', items: dataset(WEBAPP_FACTS, []) },
    { name: '60 short facts', items: dataset(Array.from({ length: 60 }, (_, i) => [`Service ${i} listens on port ${8000 + i}`, '2026-01-04']), []) },
    { name: '8 facts with commas/colons/quotes', items: dataset(Array.from({ length: 8 }, (_, i) => [`Note ${i}: "a", "b", and c`, '2026-01-04']), []) },
  ];

  it('prints the figures and auto picks the shorter', () => {
    const rows: string[] = ['| data | lines (chars) | TOON (chars) | TOON vs lines | auto picks |', '|---|---:|---:|---:|---|'];
    for (const c of cases) {
      const lines = formatLines(header, c.items).length;
      const toon = formatToon(header, c.items).length;
      const auto = renderContext(header, c.items, 'auto', 10_000);
      expect(auto.measured).toEqual({ lines, toon });
      expect(auto.format).toBe(toon < lines ? 'toon' : 'lines');
      rows.push(`| ${c.name} | ${lines} | ${toon} | ${(((toon - lines) / lines) * 100).toFixed(1)}% | ${auto.format} |`);
    }
    // Visible with `npx vitest run test/context/measure.test.ts`; the README quotes it.
    process.stdout.write(`\n${rows.join('\n')}\n\n`);
  });
});
