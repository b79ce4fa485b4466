/**
 * Several real processes against one state directory and one server: the lock must make
 * concurrent runs safe, and a SIGKILL at any moment must leave a state the next run can finish.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { loadState } from '../../src/lib/state/state.js';
import { runSync } from '../../src/lib/sync/sync.js';
import type { GraphitiTestServer } from '../support/graphiti-server.js';
import { learning, type Sandbox } from '../support/sandbox.js';
import { useServerAndSandbox } from '../helpers/use-server-and-sandbox.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
// `node --import tsx` runs the CLI in this very process, so a SIGKILL really kills the sync
// (node_modules/.bin/tsx would start a second node and a SIGKILL would orphan it).
const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

let server: GraphitiTestServer;
let box: Sandbox;

useServerAndSandbox((s, b) => {
  server = s;
  box = b;
});

function cli(args: string[], env: Record<string, string>): { child: ChildProcess; done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> } {
  const child = spawn(process.execPath, ['--import', tsxLoader, `${root}src/cli.ts`, ...args], { env, cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) => {
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return { child, done };
}

function episodesPerName(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const e of server.episodes('main')) counts.set(e.name, (counts.get(e.name) ?? 0) + 1);
  return counts;
}

describe('concurrent and interrupted runs', () => {
  it('two concurrent sync processes produce one episode per file', async () => {
    for (let i = 0; i < 20; i++) box.pai(`LEARNING/SYSTEM/f${i}.md`, learning(`File ${i}`, `Body ${i}.`));
    server.setOptions({ faults: { latencyMs: 5 } });
    const a = cli(['sync', '--json'], box.env);
    const b = cli(['sync', '--json'], box.env);
    const [ra, rb] = await Promise.all([a.done, b.done]);
    expect(ra.code, ra.stderr).not.toBe(2);
    expect(rb.code, rb.stderr).not.toBe(2);
    await server.whenIdle();
    await runSync(box.config());
    await server.whenIdle();
    const counts = episodesPerName();
    expect(counts.size).toBe(20);
    for (const n of counts.values()) expect(n).toBe(1);
    expect(server.calls.filter((c) => c.tool === 'add_memory')).toHaveLength(20);
  });

  it('a SIGKILL mid-run leaves a valid state and no duplicate after the next run', async () => {
    for (let i = 0; i < 40; i++) box.pai(`LEARNING/SYSTEM/f${i}.md`, learning(`File ${i}`, `Body ${i}.`));
    server.setOptions({ faults: { latencyMs: 15 } });
    const run = cli(['sync'], { ...box.env, MADEINOZ_KNOWLEDGE_CONCURRENCY: '2' });
    await vi.waitFor(() => expect(server.calls.filter((c) => c.tool === 'add_memory').length).toBeGreaterThanOrEqual(8), { timeout: 20_000, interval: 5 });
    run.child.kill('SIGKILL');
    const result = await run.done;
    expect(result.signal).toBe('SIGKILL');
    const sentBeforeKill = server.calls.filter((c) => c.tool === 'add_memory').length;
    expect(sentBeforeKill).toBeLessThan(40); // it really died mid-run

    const loaded = await loadState(box.env.MADEINOZ_KNOWLEDGE_STATE_DIR as string);
    expect(loaded.recovered).toBeUndefined();

    server.setOptions({ faults: {} });
    await server.whenIdle();
    // Anything in flight at the kill is settled by age once the server is idle.
    await runSync(box.config({ MADEINOZ_KNOWLEDGE_CONFIRM_MAX_AGE: '2000' }), { waitMs: 10_000 });
    await server.whenIdle();
    await runSync(box.config());
    const counts = episodesPerName();
    expect(counts.size).toBe(40);
    for (const [name, n] of counts) expect(n, name).toBe(1);
  });
});
