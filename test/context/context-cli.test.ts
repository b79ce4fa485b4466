/**
 * `context [--cwd DIR] [--refresh]` prints exactly what the SessionStart hook injects.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import type { GraphitiTestServer } from '../support/graphiti-server.js';
import { useServerAndSandbox, type Sandbox } from '../support/sandbox.js';
import { runHook } from '../hooks/helpers.js';

let server: GraphitiTestServer;
let box: Sandbox;

useServerAndSandbox((s, b) => {
  server = s;
  box = b;
});

async function cli(args: string[]): Promise<{ code: number; out: string }> {
  let out = '';
  const code = await main(args, { stdout: (t) => void (out += t), stderr: () => undefined, isTTY: false, env: box.env, cwd: box.root });
  return { code, out };
}

describe('context command', () => {
  it('--refresh builds the block from the graph, and plain `context` prints what the hook injects', async () => {
    const project = box.path('code', 'webapp');
    mkdirSync(join(project, '.git'), { recursive: true });
    server.seedFact({ fact: 'webapp decided to use Fastify 5 for the API', name: 'DECIDED' });
    server.seedFact({ fact: 'An expired fact about webapp', expired_at: '2020-01-01T00:00:00Z' });
    server.seedNode({ name: 'webapp', summary: 'The web application' });

    expect((await cli(['context', '--cwd', project])).out).toBe('');
    const refreshed = await cli(['context', '--cwd', project, '--refresh']);
    expect(refreshed.code).toBe(0);
    expect(refreshed.out).toContain('Knowledge graph facts for ');
    expect(refreshed.out).not.toContain('<!--');
    expect(refreshed.out).toContain('Fastify 5');
    expect(refreshed.out).not.toContain('expired fact');

    const cached = await cli(['context', '--cwd', project]);
    expect(cached.out).toBe(refreshed.out);

    const hook = await runHook('session-start', { ...box.env, GMS_WORKER_DISABLED: '1' }, {
      input: JSON.stringify({ session_id: 's', hook_event_name: 'SessionStart', source: 'startup', cwd: project }),
    });
    expect(hook.code).toBe(0);
    const injected = (JSON.parse(hook.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
    expect(`${injected}\n`).toBe(cached.out);
  });
});
