/**
 * A team's project on the real Graphiti 0.31.2 (FalkorDB, the stand-in LLM and embedder): what the
 * session-start hook gives Claude (context/beyond-project.ts BEYOND_PROJECT_QUERIES and
 * RELEVANCE_CLASS). The team's memory and the user's global notes carry neither the project's name
 * nor "architecture decisions conventions"; teammates' notes about other projects do. The real
 * server's search is hybrid (fulltext and the stand-in's bag-of-words embedding): before, the
 * team's and the user's facts never reached the block.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../src/lib/config/config.js';
import { processAlive } from '../../src/lib/config/server-runtime.js';
import { MAX_CONTEXT_CHARS, readContextCache } from '../../src/lib/context/cache.js';
import { OMIT_SAID_BY_FACTS } from '../../src/lib/context/context.js';
import { detectProject } from '../../src/lib/context/project.js';
import { GraphitiClient } from '../../src/lib/graphiti/graphiti.js';
import { runHook } from '../helpers/hook-runner.js';
import { eventually, runCli, startRealGraphiti, type RealGraphiti } from '../support/real-graphiti.js';
import { learning, makeSandbox, type Sandbox } from '../support/sandbox.js';
import { workerSessionStart } from '../support/worker-session.js';
import { readLock, workerFiles } from '../../src/lib/worker/spawn.js';

const GROUP = 'gms_team';
const WAIT = ['--wait', '90000'];
const PROJECT_FACT = 'Quokka keeps invoices in Postgres through Prisma.';
const TEAM_FACT = 'Reviews need approvals from Dana and Marco before a merge.';
const GLOBAL_FACT = 'Sam works in Neovim with Mason for language servers.';
/** Teammates' sentences none of the project's searches find (no word of theirs is asked for). */
const PRISMA_MORE = 'Prisma generates clients for Heron.';
const MARMOT_MORE = 'Marmot caches sessions for Osprey.';
const OTHER_PROJECTS = ['Wombat', 'Kestrel', 'Narwhal', 'Ocelot', 'Pelican', 'Marmot'].map((name) => `${name} architecture decisions follow Redis conventions from Lyra.`);

function memoryNote(name: string, body: string): string {
  return `---\nname: ${name}\ndescription: ${name}\ntype: reference\n---\n${body}\n`;
}

describe('a team\'s project on real Graphiti 0.31.2: the team\'s and the user\'s knowledge reaches the session start', () => {
  let real: RealGraphiti;
  let box: Sandbox;
  let config: Config;
  let cwd: string;
  beforeAll(async () => {
    real = await startRealGraphiti({ generation: '0.31.2', transport: 'http', groupId: GROUP });
    box = makeSandbox(real.url, { MADEINOZ_KNOWLEDGE_DB: 'falkordb', MADEINOZ_KNOWLEDGE_GROUP_ID: GROUP, MADEINOZ_KNOWLEDGE_TIMEOUT: '30000', MADEINOZ_KNOWLEDGE_RETRY_DEADLINE: '30000' });
    config = box.config();
    cwd = box.path('code', 'quokka');
    mkdirSync(join(cwd, '.git'), { recursive: true });
  }, 600_000);
  /** The worker the session-start hook starts, to its end: its server and sandbox must outlive it (a CI run found one still running at teardown). */
  const hookWorkerDone = () =>
    eventually("the session-start hook's worker is done", () => {
      const holder = readLock(workerFiles(config.stateDir).pidFile);
      return holder === undefined || !processAlive(holder.pid);
    }, 90_000);
  afterAll(async () => {
    if (config !== undefined) await hookWorkerDone();
    await real?.stop();
    box?.cleanup();
  }, 60_000);

  it('the session-start hook gives the project\'s own fact, the team memory\'s and the user\'s global note\'s; other projects\' decisions come after them', async () => {
    const key = detectProject(cwd, config, box.env).key;
    box.auto(key, 'storage.md', memoryNote('Quokka storage', PROJECT_FACT));
    box.auto(key, 'team/acme/review.md', memoryNote('Code review', TEAM_FACT));
    box.auto(key, 'team/acme/MEMORY.md', '- [Code review](review.md)\n');
    box.pai('LEARNING/2026-11/editor.md', learning('Editor setup', GLOBAL_FACT));
    const synced = JSON.parse((await runCli(box.env, ['sync', '--json', ...WAIT])).stdout) as { queued: number; failed: number; confirmed: number };
    expect(synced).toMatchObject({ queued: 0, failed: 0, confirmed: 3 });
    // Teammates writing about their other projects into the group (another MCP client: no marker of ours).
    const other = new GraphitiClient(config);
    try {
      for (const [i, text] of OTHER_PROJECTS.entries()) await other.addMemory({ name: `Teammate note ${i}`, episodeBody: text, groupId: GROUP, sourceDescription: 'teammate' });
    } finally {
      await other.close();
    }
    const graphFacts = async () => (await real.query('MATCH ()-[e:RELATES_TO]->() RETURN e.fact')).map((row) => String(row[0]));
    await eventually('every note\'s facts are extracted', async () => {
      const facts = await graphFacts();
      return [PROJECT_FACT, TEAM_FACT, GLOBAL_FACT, ...OTHER_PROJECTS].every((f) => facts.includes(f));
    }, 120_000);

    // The worker's pass for a session start (its sync, then the context refresh), then the hook itself.
    await workerSessionStart(config, cwd);
    const hook = await runHook('session-start', box.env, { input: JSON.stringify({ session_id: 'team-1', cwd, hook_event_name: 'SessionStart', source: 'startup' }), cwd });
    await hookWorkerDone();
    expect(hook.code, hook.stderr).toBe(0);
    const block = String((JSON.parse(hook.stdout) as { hookSpecificOutput?: { additionalContext?: string } }).hookSpecificOutput?.additionalContext ?? '');
    expect(block.length).toBeLessThanOrEqual(MAX_CONTEXT_CHARS);
    // A line with its provenance tag, as terse lines or as TOON's table row (`auto` picks the shorter).
    const shows = (from: string, fact: string) => block.includes(`- [${from}] ${fact}`) || block.includes(`\n  ${from},${fact},`);
    expect(shows('own', PROJECT_FACT), block).toBe(true);
    expect(shows('shared', TEAM_FACT), block).toBe(true);
    expect(shows('own', GLOBAL_FACT), block).toBe(true);
    const lines = block.split('\n');
    const at = (text: string) => lines.findIndex((l) => l.includes(text));
    const firstOther = Math.min(...OTHER_PROJECTS.map(at).filter((i) => i >= 0));
    expect(at(PROJECT_FACT)).toBeLessThan(at(TEAM_FACT));
    expect(Math.max(at(TEAM_FACT), at(GLOBAL_FACT))).toBeLessThan(firstOther);
    console.info(`session-start block on a team's project (real 0.31.2):\n${block}`);
  }, 600_000);

  it('with entity summaries shown, this project\'s entities come before other projects\', and another project\'s whose summary only repeats the facts stays out (block-order.ts ENTITY_RELEVANCE, ENTITY_SAID_BY_FACTS)', async () => {
    // Builds on the first case's graph. Teammates' notes whose facts none of the project's searches
    // find: Prisma's summary (an entity of this project's fact) and Marmot's (another project's) then say
    // more than the block's facts. The stand-in LLM's summaries are the sentences of the entity's facts,
    // so every other entity's summary repeats facts the block shows.
    const other = new GraphitiClient(config);
    try {
      await other.addMemory({ name: 'Teammate note clients', episodeBody: PRISMA_MORE, groupId: GROUP, sourceDescription: 'teammate' });
      await other.addMemory({ name: 'Teammate note caches', episodeBody: MARMOT_MORE, groupId: GROUP, sourceDescription: 'teammate' });
    } finally {
      await other.close();
    }
    const summaries = async () => new Map((await real.query('MATCH (n:Entity) RETURN n.name, n.summary')).map((row) => [String(row[0]), String(row[1])]));
    await eventually('the new sentences are in the entities\' summaries', async () => {
      const s = await summaries();
      return (s.get('Prisma') ?? '').includes(PRISMA_MORE) && (s.get('Marmot') ?? '').includes(MARMOT_MORE);
    }, 120_000);
    // The summaries' rules pinned, as a user who knows the server's release does: summaries are shown.
    const pinned = box.config({ MADEINOZ_KNOWLEDGE_SERVER_RULES: '0.31.2' });
    await workerSessionStart(pinned, cwd);
    const hook = await runHook('session-start', { ...box.env, MADEINOZ_KNOWLEDGE_SERVER_RULES: '0.31.2' }, { input: JSON.stringify({ session_id: 'team-2', cwd, hook_event_name: 'SessionStart', source: 'startup' }), cwd });
    await hookWorkerDone();
    expect(hook.code, hook.stderr).toBe(0);
    const block = String((JSON.parse(hook.stdout) as { hookSpecificOutput?: { additionalContext?: string } }).hookSpecificOutput?.additionalContext ?? '');
    console.info(`session-start block with entity summaries (real 0.31.2):\n${block}`);
    expect(block.length).toBeLessThanOrEqual(MAX_CONTEXT_CHARS);
    // Entity lines, as terse lines (`- [group] Name: …`) or TOON rows (`  group,Name,…`), in the block's order.
    const section = block.split(/\nRelated entities:\n|\nentities\[\d+\]\{from,name,summary\}:\n/)[1] ?? '';
    const names = section.split('\n').map((l) => /^(?:- \[\w+\] |  \w+,)"?([^:,"]+)/.exec(l)?.[1]).filter((n): n is string => n !== undefined);
    // This project's and the team's entities lead the list, though other projects' summaries hold
    // the words of decisions (rank.ts nodeTier ranked them first: on 7a49815 the list was eight other
    // projects' entities, Marmot first). Marmot's, which says more, comes after them when found.
    const near = ['Prisma', 'Quokka', 'Postgres', 'Reviews', 'Dana', 'Marco', 'Sam', 'Neovim', 'Mason', 'Editor', 'Description', 'Code'];
    const far = ['Marmot', 'Lyra', 'Redis', 'Wombat', 'Kestrel', 'Narwhal', 'Ocelot', 'Pelican'];
    expect(names, block).toContain('Prisma');
    expect(near, block).toContain(names[0]);
    const lastNear = Math.max(...names.map((n, i) => (near.includes(n) ? i : -1)));
    for (const name of names.filter((n) => far.includes(n))) expect(lastNear, block).toBeLessThan(names.indexOf(name));
    // Wombat's summary is another project's fact the block shows: it stays out, named.
    expect(names).not.toContain('Wombat');
    const omitted = readContextCache(pinned.stateDir, detectProject(cwd, pinned, box.env).key)?.omitted ?? [];
    expect(omitted.filter((o) => o.reason === OMIT_SAID_BY_FACTS).map((o) => o.text.split(':')[0])).toContain('Wombat');
    // The facts keep their order: the project's, then the team's and the user's, then other projects'.
    const lines = block.split('\n');
    const at = (text: string) => lines.findIndex((l) => l.includes(text));
    expect(at(PROJECT_FACT)).toBeLessThan(at(TEAM_FACT));
    expect(Math.max(at(TEAM_FACT), at(GLOBAL_FACT))).toBeLessThan(Math.min(...OTHER_PROJECTS.map(at).filter((i) => i >= 0)));
  }, 600_000);
});
