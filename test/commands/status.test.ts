/**
 * The CLI's reporting commands over loopback: `status`, `health`, and the progress bar.
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

async function cli(args: string[], isTTY = false): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(args, { stdout: (t) => void (out += t), stderr: (t) => void (err += t), isTTY, env: box.env, cwd: box.root });
  return { code, out, err };
}

describe('status, health and progress', () => {
  it('health: exit 0 with what the server said, exit 1 when it is down', async () => {
    const ok = await cli(['health']);
    expect(ok.code).toBe(0);
    expect(ok.out).toMatch(/^ok: Graphiti MCP server is running and connected to neo4j database/);
    expect(ok.out).toMatch(/protocol 2025-11-25/);
    const json = await cli(['health', '--json']);
    expect(JSON.parse(json.out)).toMatchObject({ ok: true, serverName: 'Graphiti Agent Memory', transport: 'streamable-http' });
    expect(ok.out).toMatch(/server: Graphiti Agent Memory 1\.26\.0\n/);
    // python mcp 2.x (server 1.1.0) reports an empty serverInfo.version.
    server.setOptions({ serverVersion: '' });
    expect((await cli(['health'])).out).toMatch(/server: Graphiti Agent Memory \(no version reported\)\n/);
    await server.stop();
    const down = await cli(['health']);
    expect(down.code).toBe(1);
    expect(down.out).toMatch(/^unhealthy: Network error talking to http:\/\/127\.0\.0\.1/);
  });

  it('status: counts by status, the oldest unconfirmed file, failures with reasons, server health', async () => {
    box.pai('LEARNING/SYSTEM/good.md', learning('Good', 'Fine.'));
    box.pai('LEARNING/SYSTEM/bad.md', '---\ntitle: [unclosed\n---\nbody\n');
    box.pai('LEARNING/SYSTEM/private.md', '---\nprivate: true\n---\nsecret\n');
    await cli(['sync', '--wait', '5000']);
    box.pai('LEARNING/SYSTEM/later.md', learning('Later', 'Written while the server was down.'));
    await server.stop();
    expect((await cli(['sync'])).code).toBe(1);
    const down = await cli(['status', '--json']);
    expect(down.code).toBe(1);
    const report = JSON.parse(down.out);
    expect(report.counts).toEqual({ pending: 1, queued: 0, confirmed: 1, failed: 1, skipped: 1 });
    expect(report.oldestPending.id).toBe('pai:LEARNING/SYSTEM/later.md');
    expect(report.failures[0]).toMatchObject({ id: 'pai:LEARNING/SYSTEM/bad.md', reason: expect.stringMatching(/^yaml/) });
    expect(report.server.ok).toBe(false);
    const text = await cli(['status']);
    expect(text.out).toMatch(/Memory files: 4 \(confirmed 1, queued 0, pending 1, failed 1, skipped 1\)/);
    expect(text.out).toMatch(/Oldest unconfirmed: pai:LEARNING\/SYSTEM\/later\.md/);
    expect(text.out).toMatch(/bad\.md: yaml/);
    expect(text.out).toMatch(/private\.md: opt-out/);
  });

  it('shows a progress bar on a terminal (stderr) and nothing when not a terminal', async () => {
    for (let i = 0; i < 3; i++) box.pai(`LEARNING/SYSTEM/f${i}.md`, learning(`F${i}`, 'x'));
    const tty = await cli(['sync'], true);
    expect(tty.err).toMatch(/\[#+\.*\] \d\/3/);
    box.pai('LEARNING/SYSTEM/f9.md', learning('F9', 'x'));
    const quiet = await cli(['sync']);
    expect(quiet.err).toBe('');
  });
});
