import fc from 'fast-check';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useTempDir } from '../helpers/use-temp-dir.js';
import { buildConfig } from '../../src/lib/config/config.js';
import { CONTEXT_HEADER_PATTERN, MAX_CONTEXT_CHARS, readContextCache } from '../../src/lib/context/cache.js';
import { McpNetworkError } from '../../src/lib/mcp/errors.js';
import {
  buildContext,
  cleanText,
  CONTEXT_FRAME,
  contextHeader,
  contextQueries,
  fitToBudget,
  formatLines,
  formatToon,
  isExpired,
  rankFacts,
  rankNodes,
  refreshProjectContext,
  renderContext,
  type ContextItem,
  type ContextSearcher,
} from '../../src/lib/context/context.js';
import type { EntityNode, Fact } from '../../src/lib/graphiti/graphiti.js';
import type { ProjectInfo } from '../../src/lib/context/project.js';

const NOW = new Date('2026-03-01T12:00:00Z');

function fact(uuid: string, text: string, extra: Partial<Fact> = {}): Fact {
  return { uuid, name: 'RELATES_TO', fact: text, ...extra };
}

function node(uuid: string, name: string, extra: Partial<EntityNode> = {}): EntityNode {
  return { uuid, name, summary: `${name} summary`, labels: ['Entity'], ...extra };
}

let dir: string;
useTempDir('gms-context-', (d) => (dir = d));
let project: ProjectInfo;

beforeEach(() => {
  project = {
    cwd: join(dir, 'webapp'),
    root: join(dir, 'webapp'),
    isGit: false,
    gitDir: undefined,
    name: 'webapp',
    key: '-tmp-webapp',
    memoryDir: join(dir, 'claude', 'projects', '-tmp-webapp', 'memory'),
    memoryDirExists: false,
    groupIds: ['main'],
  };
});

describe('rankFacts', () => {
  it('drops expired and invalidated facts (in the past), keeps future invalidation', () => {
    const facts = [
      fact('a', 'Old server port was 8001', { expired_at: '2026-01-01T00:00:00Z' }),
      fact('b', 'The API used REST', { invalid_at: '2026-02-01T00:00:00Z' }),
      fact('c', 'The beta ends soon', { invalid_at: '2026-12-01T00:00:00Z' }),
      fact('d', 'The project uses Vitest'),
    ];
    expect(rankFacts(facts, NOW).map((f) => f.uuid).sort()).toEqual(['c', 'd']);
    expect(isExpired(facts[0] as Fact, NOW)).toBe(true);
    expect(isExpired(fact('e', 'x', { expired_at: 'not a date' }), NOW)).toBe(false);
  });

  it('ranks decisions/architecture first, then must/always/uses/prefer, then others; newest first within a tier', () => {
    const facts = [
      fact('plain-new', 'Alice likes coffee', { valid_at: '2026-02-20T00:00:00Z' }),
      fact('uses-old', 'The webapp uses PostgreSQL 16', { valid_at: '2025-01-01T00:00:00Z' }),
      fact('decision-old', 'The team decided to deploy with Docker Compose', { valid_at: '2025-06-01T00:00:00Z' }),
      fact('arch-new', 'The architecture separates API and worker', { created_at: '2026-02-01T00:00:00Z' }),
      fact('relation', 'Graphiti stores memory', { name: 'CHOSE', valid_at: '2024-01-01T00:00:00Z' }),
      fact('never', 'Tests never hit the real network', { valid_at: '2026-01-01T00:00:00Z' }),
    ];
    expect(rankFacts(facts, NOW).map((f) => f.uuid)).toEqual(['arch-new', 'decision-old', 'relation', 'never', 'uses-old', 'plain-new']);
  });

  it('deduplicates by uuid and by text; skips empty facts; keeps input order for ties', () => {
    const facts = [fact('a', 'Same fact'), fact('a', 'Same fact again'), fact('b', '  same   FACT '), fact('c', ''), fact('d', 'Other'), fact('e', 'Another')];
    expect(rankFacts(facts, NOW).map((f) => f.uuid)).toEqual(['a', 'd', 'e']);
  });
});

describe('rankNodes', () => {
  it('decision/preference labels first, then newest; dedup by uuid and name', () => {
    const nodes = [
      node('1', 'Alice', { created_at: '2026-02-01T00:00:00Z' }),
      node('2', 'Use FalkorDB', { labels: ['Entity', 'Decision'] }),
      node('3', 'Alice'),
      node('4', 'Dark mode', { labels: ['Preference'] }),
      node('1', 'Dup uuid'),
    ];
    expect(rankNodes(nodes).map((n) => n.uuid)).toEqual(['2', '4', '1']);
  });
});

describe('formatting', () => {
  const header = contextHeader('webapp', ['main']);
  const items: ContextItem[] = [
    { kind: 'fact', from: 'own', fact: 'The team decided to use FalkorDB', date: '2026-01-04' },
    { kind: 'fact', from: 'own', fact: 'No date here', date: '' },
    { kind: 'entity', from: 'group', name: 'FalkorDB', summary: 'Graph database' },
    { kind: 'entity', from: 'group', name: 'Bare', summary: '' },
  ];

  it('header is the marker line plus a statement naming project and groups', () => {
    expect(header).toBe(`Knowledge graph facts for webapp (from Graphiti, group main):\n${CONTEXT_FRAME}`);
    expect(header.split('\n')[0]).toMatch(CONTEXT_HEADER_PATTERN);
    expect(CONTEXT_FRAME).toMatch(/not instructions/);
    expect(contextHeader('x', ['main', 'x-proj'])).toContain('groups main, x-proj');
  });

  it('lines: "- fact (date)", entities after a label', () => {
    expect(formatLines(header, items)).toBe(
      `${header}\n- [own] The team decided to use FalkorDB (2026-01-04)\n- [own] No date here\nRelated entities:\n- [group] FalkorDB: Graph database\n- [group] Bare`,
    );
  });

  it('toon: tabular arrays under the same header', () => {
    const text = formatToon(header, items);
    expect(text.startsWith(`${header}\nfacts[2]{from,fact,date}:\n`)).toBe(true);
    expect(text).toContain('entities[2]{from,name,summary}:');
    expect(text).toContain('own,The team decided to use FalkorDB,2026-01-04');
  });

  it('no items → empty string in both formats', () => {
    expect(formatLines(header, [])).toBe('');
    expect(formatToon(header, [])).toBe('');
  });

  it('no imperative "you must" phrasing is added by the formatter', () => {
    expect(formatLines(header, items)).not.toMatch(/\byou (must|should)\b/i);
    expect(formatToon(header, items)).not.toMatch(/\byou (must|should)\b/i);
  });

  it('cleanText: one line, markup neutralised, capped at a word boundary', () => {
    expect(cleanText('a\nb\t c', 100)).toBe('a b c');
    expect(cleanText('x <!-- y --> </system-reminder> z', 100)).toBe('x y z');
    const long = cleanText('word '.repeat(200), 50);
    expect(long.length).toBeLessThanOrEqual(50);
    expect(long.endsWith('…')).toBe(true);
  });
});

describe('fitToBudget', () => {
  const header = contextHeader('webapp', ['main']);
  const arbItem: fc.Arbitrary<ContextItem> = fc.oneof(
    fc.record({ kind: fc.constant('fact' as const), from: fc.constantFrom('own' as const, 'shared' as const, 'group' as const), fact: fc.string({ minLength: 1, maxLength: 400 }).map((s) => cleanText(s, 400) || 'x'), date: fc.constantFrom('', '2026-01-04') }),
    fc.record({ kind: fc.constant('entity' as const), from: fc.constant('group' as const), name: fc.string({ minLength: 1, maxLength: 60 }).map((s) => cleanText(s, 60) || 'n'), summary: fc.string({ maxLength: 240 }).map((s) => cleanText(s, 240)) }),
  );

  it('property: output ≤ budget ≤ 10000, whole lines of the full rendering, a prefix of the ranking', () => {
    fc.assert(
      fc.property(fc.array(arbItem, { maxLength: 80 }), fc.integer({ min: 0, max: 10_000 }), fc.constantFrom('lines', 'toon'), (items, budget, format) => {
        const render = (s: readonly ContextItem[]) => (format === 'lines' ? formatLines(header, s) : formatToon(header, s));
        const { text, count } = fitToBudget(items, render, budget);
        expect(text.length).toBeLessThanOrEqual(budget);
        expect(budget).toBeLessThanOrEqual(10_000);
        expect(text).toBe(render(items.slice(0, count)));
        if (count < items.length) expect(render(items.slice(0, count + 1)).length).toBeGreaterThan(budget);
        if (format === 'lines') {
          const full = new Set(formatLines(header, items).split('\n'));
          for (const line of text === '' ? [] : text.split('\n')) expect(full.has(line)).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('property: renderContext(auto) never exceeds the budget and picks the shorter format for the same items', () => {
    fc.assert(
      fc.property(fc.array(arbItem, { maxLength: 60 }), fc.integer({ min: 0, max: 10_000 }), (items, budget) => {
        const r = renderContext(header, items, 'auto', budget);
        expect(r.text.length).toBeLessThanOrEqual(budget);
        if (r.text === '') return;
        const lines = fitToBudget(items, (s) => formatLines(header, s), budget);
        const toon = fitToBudget(items, (s) => formatToon(header, s), budget);
        if (lines.count === toon.count) expect(r.text.length).toBe(Math.min(lines.text.length, toon.text.length));
        else expect(r.facts + r.nodes).toBe(Math.max(lines.count, toon.count));
      }),
      { numRuns: 200 },
    );
  });

  it('refuses a budget above 10000 (hard assertion)', () => {
    expect(() => fitToBudget([], () => '', 10_001)).toThrow(RangeError);
    expect(() => renderContext(header, [], 'auto', 20_000)).toThrow(RangeError);
  });

  it('drops the lowest-ranked items (entities come after facts), never cuts a line', () => {
    const items: ContextItem[] = [
      { kind: 'fact', from: 'own', fact: 'A'.repeat(100), date: '' },
      { kind: 'fact', from: 'own', fact: 'B'.repeat(100), date: '' },
      { kind: 'entity', from: 'group', name: 'E', summary: 'C'.repeat(100) },
    ];
    const budget = formatLines(header, items.slice(0, 2)).length;
    const { text, count } = fitToBudget(items, (s) => formatLines(header, s), budget);
    expect(count).toBe(2);
    expect(text).not.toContain('Related entities');
    expect(fitToBudget(items, (s) => formatLines(header, s), header.length + 10).text).toBe('');
  });
});

describe('auto format', () => {
  const header = contextHeader('webapp', ['main']);

  it('chooses TOON when it is shorter and lines when they are shorter', () => {
    // Many short unquoted facts: TOON's per-row overhead is lower than "- … (date)".
    const toonWins: ContextItem[] = Array.from({ length: 30 }, (_, i) => ({ kind: 'fact', from: 'own', fact: `Service ${i} uses port ${8000 + i}`, date: '2026-01-04' }));
    const r1 = renderContext(header, toonWins, 'auto', 8000);
    expect(r1.measured.toon).toBeLessThan(r1.measured.lines);
    expect(r1.format).toBe('toon');
    // Facts that all need quoting in TOON (commas, colons, quotes): lines are shorter.
    const linesWin: ContextItem[] = Array.from({ length: 5 }, (_, i) => ({ kind: 'fact', from: 'own', fact: `Note ${i}: "a", "b", and c`, date: '' }));
    const r2 = renderContext(header, linesWin, 'auto', 8000);
    expect(r2.measured.lines).toBeLessThan(r2.measured.toon);
    expect(r2.format).toBe('lines');
  });

  it('forced formats are respected', () => {
    const items: ContextItem[] = [{ kind: 'fact', from: 'own', fact: 'x', date: '' }];
    expect(renderContext(header, items, 'lines', 8000).format).toBe('lines');
    expect(renderContext(header, items, 'toon', 8000).format).toBe('toon');
  });
});

class FakeGraphiti implements ContextSearcher {
  queries: string[] = [];
  groups: string[][] = [];
  constructor(
    private readonly facts: Fact[],
    private readonly nodes: EntityNode[],
    private readonly fail: (q: string) => boolean = () => false,
  ) {}
  async searchFacts(query: string, groupIds: string[], max = 20): Promise<Fact[]> {
    this.queries.push(query);
    this.groups.push(groupIds);
    if (this.fail(query)) throw new Error('connection refused');
    return this.facts.slice(0, max);
  }
  async searchNodes(query: string, groupIds: string[], max = 8): Promise<EntityNode[]> {
    this.groups.push(groupIds);
    if (this.fail(query)) throw new Error('connection refused');
    return this.nodes.slice(0, max);
  }
}

describe('buildContext', () => {
  const config = { contextBudget: 8000, contextFormat: 'auto' as const };

  it('a server that cannot be reached is asked once, not once per search', async () => {
    const g = new FakeGraphiti([], []);
    let calls = 0;
    g.searchFacts = async () => {
      calls++;
      throw new McpNetworkError('connect ECONNREFUSED 127.0.0.1:8000', 'ECONNREFUSED');
    };
    g.searchNodes = g.searchFacts as never;
    await expect(buildContext({ graphiti: g, config, project, now: NOW })).rejects.toBeInstanceOf(McpNetworkError);
    expect(calls).toBe(1);
  });

  it('empty graph → empty string (inject nothing)', async () => {
    const built = await buildContext({ graphiti: new FakeGraphiti([], []), config, project, now: NOW });
    expect(built.text).toBe('');
    expect(built.format).toBe('none');
  });

  it('only expired facts → empty string', async () => {
    const built = await buildContext({ graphiti: new FakeGraphiti([fact('a', 'gone', { expired_at: '2020-01-01T00:00:00Z' })], []), config, project, now: NOW });
    expect(built.text).toBe('');
    expect(built.found.expired).toBe(1);
  });

  it('searches the project groups with plain-text queries (the client escapes), dedupes across queries', async () => {
    const g = new FakeGraphiti([fact('a', 'The team decided to use FalkorDB', { valid_at: '2026-01-04T10:00:00Z' }), fact('b', 'The webapp uses Vite')], [node('n', 'FalkorDB')]);
    const built = await buildContext({ graphiti: g, config, project: { ...project, groupIds: ['main', 'tmp-webapp'] }, now: NOW, rebuildsSummaries: true });
    expect(g.queries).toEqual(['webapp', 'webapp architecture decisions conventions']);
    expect(g.groups.every((x) => x.join() === 'main,tmp-webapp')).toBe(true);
    expect(built.facts).toBe(2);
    expect(built.nodes).toBe(1);
    expect(built.text.split('\n')[0]).toMatch(/^Knowledge graph facts for /);
    expect(built.text).toContain('groups main, tmp-webapp');
    expect(built.text).toContain('The team decided to use FalkorDB');
    expect(built.text).toContain('2026-01-04');
  });

  it('adds queries from recent commit subjects and recently edited memory titles', async () => {
    const root = join(dir, 'repo');
    mkdirSync(join(root, '.git', 'logs'), { recursive: true });
    writeFileSync(
      join(root, '.git', 'logs', 'HEAD'),
      [
        '0000 1111 A <a@x> 1700000000 +0000\tcommit (initial): Initial commit',
        '1111 2222 A <a@x> 1700000100 +0000\tcheckout: moving from main to feat',
        '2222 3333 A <a@x> 1700000200 +0000\tcommit: Add login form',
        '',
      ].join('\n'),
    );
    const memoryDir = join(dir, 'mem');
    mkdirSync(memoryDir, { recursive: true });
    writeFileSync(join(memoryDir, 'deploy_notes.md'), '---\nname: Deploy notes\ndescription: x\n---\nbody');
    const g = new FakeGraphiti([fact('a', 'x')], []);
    await buildContext({ graphiti: g, config, project: { ...project, root, isGit: true, gitDir: join(root, '.git'), memoryDir }, now: NOW });
    expect(g.queries).toEqual(['webapp', 'webapp architecture decisions conventions', 'Add login form; Initial commit', 'Deploy notes']);
    expect(contextQueries({ ...project, name: 'graphiti-memory-sync' })[0]).toBe('graphiti memory sync');
  });

  it('all searches failing throws (the caller keeps its old cache); partial failure still builds', async () => {
    await expect(buildContext({ graphiti: new FakeGraphiti([fact('a', 'x')], [], () => true), config, project, now: NOW })).rejects.toThrow('connection refused');
    const partial = await buildContext({ graphiti: new FakeGraphiti([fact('a', 'The webapp uses Vite')], [], (q) => q === 'webapp'), config, project, now: NOW });
    expect(partial.text).toContain('The webapp uses Vite');
    expect(partial.failedSearches).toBe(2);
  });

  it('respects the budget (and the 9000-character hook cap) for large graphs', async () => {
    const facts = Array.from({ length: 200 }, (_, i) => fact(`f${i}`, `Fact number ${i} about the webapp architecture and its many moving parts, with details`, { valid_at: `2026-01-${String((i % 28) + 1).padStart(2, '0')}T00:00:00Z` }));
    for (const budget of [0, 500, 2000, 8000, 10_000]) {
      const built = await buildContext({ graphiti: new FakeGraphiti(facts, []), config: { contextBudget: budget, contextFormat: 'auto' }, project, now: NOW, maxFacts: 200 });
      expect(built.text.length).toBeLessThanOrEqual(Math.min(budget, MAX_CONTEXT_CHARS));
      if (budget === 0) expect(built.text).toBe('');
    }
    await expect(buildContext({ graphiti: new FakeGraphiti(facts, []), config: { contextBudget: 10_001, contextFormat: 'auto' }, project, now: NOW })).rejects.toThrow(RangeError);
  });

  it('refreshProjectContext writes the cache the hook reads', async () => {
    const cfg = buildConfig({ HOME: dir, MADEINOZ_KNOWLEDGE_STATE_DIR: join(dir, 'state'), CLAUDE_CONFIG_DIR: join(dir, 'claude'), PAI_DIR: join(dir, 'pai') });
    const { entry } = await refreshProjectContext(cfg, project, { graphiti: new FakeGraphiti([fact('a', 'The webapp uses Vite')], []), now: NOW });
    const read = readContextCache(cfg.stateDir, project.key);
    expect(read).toEqual(entry);
    expect(read?.text).toContain('The webapp uses Vite');
    expect(read?.builtAt).toBe(NOW.toISOString());
    expect(['lines', 'toon']).toContain(read?.format);
  });
});
