/**
 * test/support/graphiti-server-main.ts as a child process: one JSON line on
 * stdout, options from argv, the /__control API, clean exit on SIGTERM/SIGINT.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO_ROOT as ROOT } from '../support/paths.js';
import { unusedPort } from '../helpers/ports.js';
import { RawSession } from '../helpers/raw-mcp.js';

const MAIN = fileURLToPath(new URL('../support/graphiti-server-main.ts', import.meta.url));

interface Spawned {
  child: ChildProcess;
  info: { url: string; port: number; sseUrl: string };
  stdout: () => string;
  stderr: () => string;
}

const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

async function spawnMain(args: string[]): Promise<Spawned> {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  let err = '';
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const firstLine = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const nl = out.indexOf('\n');
      if (nl >= 0) resolve(out.slice(0, nl));
    });
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${err}`)));
  });
  return { child, info: JSON.parse(firstLine) as Spawned['info'], stdout: () => out, stderr: () => err };
}

async function control(base: string, method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${base}/__control${path}`, {
    method,
    ...(body !== undefined ? { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } } : {}),
  });
  expect(res.status).toBe(200);
  return res.json();
}

describe('graphiti-server-main', () => {
  it('prints exactly one JSON line, serves MCP and the control API, exits 0 on SIGTERM', async () => {
    const { child, info, stdout } = await spawnMain(['--control', '--options', JSON.stringify({ processingDelayMs: 0, groupId: 'proc' })]);
    expect(info.url).toBe(`http://127.0.0.1:${info.port}/mcp`);
    expect(info.sseUrl).toBe(`http://127.0.0.1:${info.port}/sse`);
    const base = `http://127.0.0.1:${info.port}`;

    const s = await RawSession.open(info.url);
    await control(base, 'POST', '/pause');
    expect(await s.payload('add_memory', { name: 'From child', episode_body: 'Child process body.' })).toEqual({
      message: "Episode 'From child' queued for processing in group 'proc'",
    });
    expect(await control(base, 'GET', '/episodes')).toEqual([]);
    await control(base, 'POST', '/resume');
    expect(await control(base, 'GET', '/idle')).toEqual({ idle: true });
    const episodes = (await control(base, 'GET', '/episodes?group=proc')) as Array<{ name: string }>;
    expect(episodes.map((e) => e.name)).toEqual(['From child']);
    const calls = (await control(base, 'GET', '/calls')) as Array<{ tool: string; outcome: string }>;
    expect(calls).toEqual([expect.objectContaining({ tool: 'add_memory', outcome: 'ok' })]);

    await control(base, 'POST', '/options', { statusError: 'db down' });
    expect((await s.payload('get_status')).status).toBe('error');
    await control(base, 'POST', '/fail-next', { kind: 'http503' });
    expect((await s.rpc('tools/call', { name: 'get_status', arguments: {} })).res.status).toBe(503);
    await control(base, 'POST', '/restart');
    expect((await s.rpc('tools/list')).res.status).toBe(404);
    const http = (await control(base, 'GET', '/http')) as Array<{ path: string }>;
    expect(http.every((h) => !h.path.startsWith('/__control'))).toBe(true);

    child.kill('SIGTERM');
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(0);
    expect(stdout().trim().split('\n')).toHaveLength(1);
  });

  it('--port N is honoured; SIGINT exits 0; no control API without --control', async () => {
    const port = await unusedPort();
    const { child, info } = await spawnMain(['--port', String(port)]);
    expect(info.port).toBe(port);
    expect((await fetch(`http://127.0.0.1:${port}/__control/calls`)).status).toBe(404);
    child.kill('SIGINT');
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(0);
  });

  it('--exit-on-stdin-end: exits when the parent closes stdin', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', MAIN, '--exit-on-stdin-end'], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    children.push(child);
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    child.stdin.end();
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(0);
  });

  it('bad arguments → exit 2 with a message on stderr', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', MAIN, '--options', '{nope'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(2);
    expect(err).toContain('--options is not valid JSON');
  });
});
