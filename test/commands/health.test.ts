/**
 * `health` (alias `doctor`) as a real check, over loopback against the fake Graphiti server:
 * a search probe per configured group, the database get_status names, and with --deep a test
 * episode sent, confirmed and deleted. Each failure names its likely cause and fix, exit 1.
 */
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli-main.js';
import type { GraphitiTestServer } from '../support/graphiti-server.js';
import { learning, type Sandbox } from '../support/sandbox.js';
import { useServerAndSandbox } from '../helpers/use-server-and-sandbox.js';

let server: GraphitiTestServer;
let box: Sandbox;

useServerAndSandbox((s, b) => {
  server = s;
  box = b;
});

const STOPWORDS = "'FalkorDriver' object has no attribute 'STOPWORDS'";

async function cli(args: string[], env: Record<string, string> = {}): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(args, { stdout: (t) => void (out += t), stderr: (t) => void (err += t), isTTY: false, env: { ...box.env, ...env }, cwd: box.root });
  return { code, out, err };
}

describe('health', () => {
  it('passes on a working server: get_status, the database, one search per configured group', async () => {
    const r = await cli(['health', '--json'], { MADEINOZ_KNOWLEDGE_SOURCE_GROUPS: 'pai=learning,auto-memory={project}' });
    expect(r.code).toBe(0);
    const report = JSON.parse(r.out);
    expect(report.ok).toBe(true);
    expect(report.checks.map((c: { name: string }) => c.name)).toEqual(['server', 'database', 'search in group main', 'search in group learning']);
    const searched = server.calls.filter((c) => c.tool === 'search_memory_facts').map((c) => c.args.group_ids);
    expect(searched).toEqual([['main'], ['learning']]);
    expect(server.calls.some((c) => c.tool === 'add_memory')).toBe(false); // without --deep nothing is written
  });

  it('says where the URL it checked came from', async () => {
    const r = await cli(['health']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^ {2}url: http:\/\/127\.0\.0\.1:\d+\/mcp \(from MADEINOZ_KNOWLEDGE_MCP_URL\)$/m);
    const status = await cli(['status']);
    expect(status.out).toMatch(/^Server: ok — .*\(http:\/\/127\.0\.0\.1:\d+\/mcp, from MADEINOZ_KNOWLEDGE_MCP_URL\)$/m);
  });

  it('get_status "error" (its database does not answer): health and status name the cause and the next step', async () => {
    server.setOptions({ statusError: true });
    const step = "the Graphiti server runs, but its database (FalkorDB or Neo4j) does not answer; next step: start that database, or correct the Graphiti server's database settings";
    const r = await cli(['health']);
    expect(r.code).toBe(1);
    expect(r.out).toContain('FAIL server: get_status: error: Graphiti MCP server is running but database connection failed');
    expect(r.out).toContain('likely cause: the Graphiti server runs, but its database (FalkorDB or Neo4j) does not answer');
    expect(r.out).toContain("fix: start that database, or correct the Graphiti server's database settings");
    const status = await cli(['status']);
    expect(status.code).toBe(1);
    expect(status.out).toContain(`  ${step}`);
  });

  it('names the STOPWORDS search failure of the madeinoz FalkorDB patch, its cause and fix, exit 1', async () => {
    server.setOptions({ db: 'falkordb', faults: { searchError: STOPWORDS } });
    const r = await cli(['health'], { MADEINOZ_KNOWLEDGE_DB: 'falkordb' });
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^unhealthy: search in group main: fails: Error searching facts: 'FalkorDriver' object has no attribute 'STOPWORDS'/);
    expect(r.out).toContain('FAIL search in group main');
    expect(r.out).toMatch(/likely cause: the madeinoz Knowledge server's FalkorDB fulltext patch .* every episode is dropped/);
    expect(r.out).toMatch(/fix: run the madeinoz server on Neo4j .* zepai\/knowledge-graph-mcp/);
  });

  it('with --deep, names a server that drops every episode (and deletes nothing of anyone else), exit 1', async () => {
    server.setOptions({ faults: { dropRate: 1 } });
    expect((await cli(['health'])).code).toBe(0); // searches work: only --deep can see it
    const r = await cli(['doctor', '--deep', '--timeout', '300']);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/FAIL test episode: the server said "queued" but did not store the test episode within 300 ms/);
    expect(r.out).toMatch(/likely cause: Graphiti processes episodes in the background and drops failures silently/);
    expect(r.out).toMatch(/fix: look for "Failed to process episode"/);
    expect(server.failures).toHaveLength(1);
    expect(server.calls.some((c) => c.tool === 'delete_episode')).toBe(false);
  });

  it('with --deep on a server whose searches fail, blames the dropped test episode on the same cause', async () => {
    server.setOptions({ faults: { searchError: STOPWORDS } });
    const r = await cli(['health', '--deep', '--timeout', '200']);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/FAIL test episode: .*did not store/);
    expect(r.out.match(/likely cause: the madeinoz Knowledge server's FalkorDB fulltext patch/g)).toHaveLength(2);
  });

  it('with --deep on a working server, sends one test episode, sees it stored and deletes it', async () => {
    server.seedEpisode({ name: 'Someone else', content: 'Not ours.' });
    const r = await cli(['health', '--deep', '--timeout', '10000']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/ok {3}test episode: sent to main, stored after \d+ ms, deleted/);
    expect(server.calls.filter((c) => c.tool === 'add_memory')).toHaveLength(1);
    expect(server.episodes().map((e) => e.name)).toEqual(['Someone else']);
  });

  it('names the setting to change when the server runs another database than configured, exit 1', async () => {
    server.setOptions({ db: 'falkordb' });
    const r = await cli(['health']);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/FAIL database: the server runs falkordb, but this tool is set for neo4j/);
    expect(r.out).toMatch(/fix: set MADEINOZ_KNOWLEDGE_DB=falkordb/);
    expect((await cli(['health'], { MADEINOZ_KNOWLEDGE_DATABASE_TYPE: 'falkordb' })).code).toBe(0);
  });
});

describe('a server that deletes and lists only in the group it last wrote to (before 1.1, FalkorDB, several groups)', () => {
  const SEVERAL = { MADEINOZ_KNOWLEDGE_DB: 'falkordb', MADEINOZ_KNOWLEDGE_SOURCE_GROUPS: 'auto-memory={project}' };
  const warning = /deletes and lists episodes only in the group it last wrote to, and this sync writes to several groups: so deleting or editing a note in a group waits until the server next writes to that group \(its old episode, and its knowledge, stay in the graph until then\), and a note sent there waits likewise to be confirmed/;
  const nextStep = /upgrade the Graphiti MCP server to 1\.1\.2 \(graphiti-core 0\.31\.2, what `.+ server start` runs\), or send every note to one group/;

  it('health warns with the next step, and still passes; status says it once a sync has seen the server', async () => {
    server.setOptions({ db: 'falkordb' });
    const r = await cli(['health'], SEVERAL);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toMatch(/^ok: /);
    expect(r.out).toMatch(/^ {2}WARN deletes in several groups: groups main, one per project, on a server whose delete_episode takes no group$/m);
    expect(r.out).toMatch(warning);
    expect(r.out).toMatch(nextStep);
    const json = JSON.parse((await cli(['health', '--json'], SEVERAL)).out);
    expect(json.ok).toBe(true);
    expect(json.checks.find((c: { name: string }) => c.name === 'deletes in several groups')).toMatchObject({ ok: true, warn: true });

    box.pai('LEARNING/SYSTEM/okapi.md', learning('Okapi', 'Okapi queues jobs in Beanstalkd.'));
    expect((await cli(['sync'], SEVERAL)).code).toBe(0);
    const status = await cli(['status'], SEVERAL);
    expect(status.out).toMatch(/^Warning: this Graphiti server \(before 1\.1: its delete_episode takes no group\) on FalkorDB deletes and lists episodes only in the group it last wrote to.* \(groups main, one per project\)\. Next step: upgrade the Graphiti MCP server to 1\.1\.2/m);
    expect(JSON.parse((await cli(['status', '--json'], SEVERAL)).out).lastWrittenGroupOnly.groups).toEqual(['main', '{project}']);
  });

  it('not said with one group, or on Neo4j', async () => {
    server.setOptions({ db: 'falkordb' });
    box.pai('LEARNING/SYSTEM/okapi.md', learning('Okapi', 'Okapi queues jobs in Beanstalkd.'));
    const one = { MADEINOZ_KNOWLEDGE_DB: 'falkordb' };
    expect((await cli(['sync'], one)).code).toBe(0);
    for (const args of [['health'], ['status']]) expect((await cli(args, one)).out).not.toMatch(/last wrote to|WARN/);

    server.setOptions({ db: 'neo4j' });
    const neo4j = { MADEINOZ_KNOWLEDGE_SOURCE_GROUPS: 'auto-memory={project}' };
    expect((await cli(['sync'], neo4j)).code).toBe(0);
    for (const args of [['health'], ['status']]) expect((await cli(args, neo4j)).out).not.toMatch(/last wrote to|WARN/);
  });

  it('not said on a server whose delete_episode takes a group (1.1+)', async () => {
    server.setOptions({ db: 'falkordb', mainParams: true, graphPerGroup: true });
    box.pai('LEARNING/SYSTEM/quokka.md', learning('Quokka', 'Quokka caches pages in Varnish.'));
    expect((await cli(['sync'], SEVERAL)).code).toBe(0);
    for (const args of [['health'], ['status']]) expect((await cli(args, SEVERAL)).out).not.toMatch(/last wrote to|WARN/);
  });
});
