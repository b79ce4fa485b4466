/**
 * The real CLI as a child process: `npx tsx src/cli.ts watch --json` against the test server,
 * stopped with SIGTERM. Synchronised on the JSON lines it prints (ready, pass, stopped).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadState } from '../../src/lib/state/state.js';
import { startGraphitiServer, type GraphitiTestServer } from '../support/graphiti-server.js';
import { JsonLineStream } from '../support/json-lines.js';
import { REPO_ROOT as ROOT } from '../support/paths.js';
import { learning, makeSandbox, type Sandbox } from '../support/sandbox.js';

/** tsx's own CLI script (what `npx tsx` resolves to), run by this node: no npm wrapper in between to swallow the signal. */
const TSX_CLI = join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');

let server: GraphitiTestServer;
let sb: Sandbox;
let child: ChildProcess | undefined;

beforeEach(async () => {
  server = await startGraphitiServer({ processingDelayMs: 0 });
  sb = makeSandbox(server.url);
});

afterEach(async () => {
  if (child !== undefined && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  child = undefined;
  await server.close();
  sb.cleanup();
});

interface Line {
  event: string;
  [k: string]: unknown;
}

/** Collects JSON lines from the child's stdout; `waitFor` resolves on the first matching line (bounded). */
function lineReader(proc: ChildProcess) {
  const reader = new JsonLineStream<Line>();
  let stderr = '';
  proc.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  proc.stdout?.on('data', (d: Buffer) => reader.push(d.toString()));
  return {
    lines: reader.lines,
    stderr: () => stderr,
    waitFor: (match: (l: Line) => boolean, timeoutMs = 20_000): Promise<Line> =>
      reader.waitFor(match, timeoutMs, () => `no matching line within ${timeoutMs} ms; got ${JSON.stringify(reader.lines)}; stderr: ${stderr}`),
  };
}

describe('graphiti-memory-sync watch (child process)', () => {
  it('a folder added to its .env while it runs: a settings line, then the folder synced (the CLI reads its settings again)', async () => {
    const envFile = sb.path('settings.env');
    writeFileSync(envFile, '');
    const notes = sb.path('data', 'N');
    mkdirSync(notes, { recursive: true });
    writeFileSync(join(notes, 'n.md'), '---\nname: n\n---\nnote n in a folder added while watching\n');
    child = spawn(process.execPath, [TSX_CLI, 'src/cli.ts', 'watch', '--json'], {
      cwd: ROOT,
      env: { ...sb.env, MADEINOZ_KNOWLEDGE_ENV_FILE: envFile, MADEINOZ_KNOWLEDGE_WATCH_DEBOUNCE: '100' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child?.once('exit', (code) => resolve(code)));
    const out = lineReader(child);
    await out.waitFor((l) => l.event === 'pass' && l.reason === 'initial');
    writeFileSync(envFile, `MADEINOZ_KNOWLEDGE_SYNC_PATHS=notes=${notes}\n`);
    const settings = await out.waitFor((l) => l.event === 'settings');
    expect(settings.added).toEqual([`notes=${notes}`]);
    await out.waitFor((l) => l.event === 'pass' && l.added === 1);
    await server.whenIdle();
    expect(server.episodes().map((e) => e.content.includes('note n in a folder added while watching'))).toEqual([true]);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('prints ready, syncs a new file, stops on SIGTERM with exit 0 and a valid state file', async () => {
    const envFile = sb.path('empty.env');
    writeFileSync(envFile, '');
    sb.pai('LEARNING/SYSTEM/first.md', learning('First', 'there before the watch'));
    child = spawn(process.execPath, [TSX_CLI, 'src/cli.ts', 'watch', '--json'], {
      cwd: ROOT,
      env: { ...sb.env, MADEINOZ_KNOWLEDGE_ENV_FILE: envFile, MADEINOZ_KNOWLEDGE_WATCH_DEBOUNCE: '100', MADEINOZ_KNOWLEDGE_LOG_LEVEL: 'debug' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child?.once('exit', (code, signal) => resolve({ code, signal })));
    const out = lineReader(child);

    const ready = await out.waitFor((l) => l.event === 'ready');
    expect(ready.folders).toBe(2);
    await out.waitFor((l) => l.event === 'pass' && l.reason === 'initial');
    sb.pai('LEARNING/SYSTEM/second.md', learning('Second', 'written while watching'));
    const pass = await out.waitFor((l) => l.event === 'pass' && l.added === 1 && l.reason !== 'initial');
    expect(pass).toMatchObject({ serverReachable: true, failed: 0 });

    const t0 = Date.now();
    child.kill('SIGTERM');
    const { code } = await exited;
    expect(code).toBe(0);
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(out.lines.at(-1)?.event).toBe('stopped');

    const loaded = await loadState(sb.config().stateDir);
    expect(loaded.recovered).toBeUndefined();
    expect(loaded.fresh).toBe(false);
    expect(Object.keys(loaded.state.files).sort()).toEqual(['pai:LEARNING/SYSTEM/first.md', 'pai:LEARNING/SYSTEM/second.md']);
    await server.whenIdle();
    expect(server.calls.filter((c) => c.tool === 'add_memory')).toHaveLength(2);
  }, 60_000);
});
