/**
 * Every failure a newcomer meets names the next step (issue 30): the local server stopped, a URL
 * without /mcp, a 421, a setting in the wrong file, counts that say what happened, queued work,
 * an endpoint without a model name. Over loopback against the Graphiti test server.
 */
import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { WRITE_PROBE_FILE } from '../../src/lib/state/write-probe.js';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli-main.js';
import { readRuntime, writeRuntime } from '../../src/lib/config/server-runtime.js';
import { startFakeSupervisor } from '../support/fake-supervisor.js';
import { nextStepFor } from '../../src/commands/next-step.js';
import { cli as cliPrefix, commandFor, upgradeStep } from '../../src/lib/util/install-route.js';
import { LockLostError, LockTimeoutError } from '../../src/lib/state/lock.js';
import { startGraphitiServer } from '../support/graphiti-server.js';
import { unusedPort } from '../helpers/ports.js';
import { learning, makeSandbox, type Sandbox } from '../support/sandbox.js';
import { useServerAndSandbox } from '../helpers/use-server-and-sandbox.js';
import type { GraphitiTestServer } from '../support/graphiti-server.js';

let server: GraphitiTestServer;
let box: Sandbox;
useServerAndSandbox((s, b) => {
  server = s;
  box = b;
});

async function cli(args: string[], env: Record<string, string> = {}, sandbox: Sandbox = box): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(args, { stdout: (t) => void (out += t), stderr: (t) => void (err += t), isTTY: false, env: { ...sandbox.env, ...env }, cwd: sandbox.root });
  return { code, out, err };
}

const REFUSED = 'Network error talking to http://localhost:8000/mcp: connect ECONNREFUSED 127.0.0.1:8000';

describe('the local server is not running: the next step is "server start"', () => {
  const config = () => ({ mcpUrl: 'http://localhost:8000/mcp', mcpUrlSource: 'default' as const, stateDir: box.path('state') });

  it('never started: run one without Docker, or set the URL', () => {
    expect(nextStepFor(REFUSED, config())).toEqual({
      cause: 'no Graphiti server is configured, and nothing answers at the default http://localhost:8000/mcp',
      fix: `run one without Docker: ${commandFor('server start')}; or start yours and set MADEINOZ_KNOWLEDGE_MCP_URL`,
    });
  });

  it('stopped (runtime.json says so): server start', () => {
    writeRuntime(box.path('state'), { state: 'stopped', pid: 1, generation: '0.31.2', serverVersion: '1.1.2', mcp: 'x', falkordbBin: 'x', dataDir: '/d', logDir: '/l', startedAt: '2026-01-01T00:00:00Z' });
    expect(nextStepFor(REFUSED, config())).toEqual({ cause: 'the local Graphiti server is stopped', fix: commandFor('server start') });
  });

  it('sync and status say it too (a URL that was set: start that server, or correct the setting)', async () => {
    const port = await unusedPort();
    const down = makeSandbox(`http://127.0.0.1:${port}/mcp`, { MADEINOZ_KNOWLEDGE_RETRIES: '0' });
    try {
      down.pai('LEARNING/SYSTEM/a.md', learning('Alpha', 'A.'));
      down.pai('LEARNING/SYSTEM/b.md', learning('Beta', 'B.'));
      const sync = await cli(['sync'], {}, down);
      expect(sync.code).toBe(1);
      // Nothing reads as "added": the files are new, and pending (not sent).
      expect(sync.out).not.toMatch(/\badded\b/);
      expect(sync.out).toMatch(/^new 2, changed 0, removed 0, renamed 0, unchanged 0 \| confirmed 0, queued 0, pending 2, skipped 0, failed 0$/m);
      expect(sync.out).toContain('nothing more was sent: server unreachable');
      expect(sync.out).toContain('the 2 pending file(s) are kept and sent by the next sync');
      expect(sync.out).toContain(`nothing answers at http://127.0.0.1:${port}/mcp; next step: start the Graphiti server there, or correct MADEINOZ_KNOWLEDGE_MCP_URL (in the environment or ${down.env.MADEINOZ_KNOWLEDGE_ENV_FILE})`);
      const status = await cli(['status'], {}, down);
      expect(status.out).toContain('next step: start the Graphiti server there');
      expect(status.out).toContain(`2 pending: not sent yet; "${cliPrefix()} sync" sends them once the server answers`);
    } finally {
      down.cleanup();
    }
  });
});

describe('sync --dry-run: planned work is its answer, not a failure', () => {
  it('exit 0 with work pending, the plan listed', async () => {
    box.pai('LEARNING/SYSTEM/a.md', learning('Alpha', 'A.'));
    const r = await cli(['sync', '--dry-run']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/add\s+pai:LEARNING\/SYSTEM\/a\.md/);
  });
});

describe('queued: what confirms it, and when', () => {
  it('sync and status explain queued work and how to wait for it', async () => {
    const slow = await startGraphitiServer({ processingDelayMs: 60_000 });
    try {
      const env = { MADEINOZ_KNOWLEDGE_MCP_URL: slow.url };
      box.pai('LEARNING/SYSTEM/a.md', learning('Alpha', 'A.'));
      const sync = await cli(['sync'], env);
      expect(sync.out).toMatch(/queued 1/);
      expect(sync.out).toContain('1 queued: Graphiti accepted them and extracts facts in the background; each is confirmed once the server lists it, which the next sync checks');
      expect(sync.out).toContain(`"${cliPrefix()} sync --wait 60000" waits for it now`);
      const status = await cli(['status'], env);
      expect(status.out).toContain('1 queued: Graphiti accepted them');
    } finally {
      await slow.close();
    }
  });
});

describe('queued in a local server that has stopped since', () => {
  const runtime = (state: 'stopped' | 'failed' | 'starting', extra: Record<string, string> = {}) =>
    writeRuntime(box.path('state'), { state, pid: 1, generation: '0.31.2', serverVersion: '1.1.2', mcp: 'x', falkordbBin: 'x', dataDir: '/d', logDir: '/l', startedAt: '2026-01-01T00:00:00Z', ...extra });

  it('status and sync do not say Graphiti is extracting them; they say a stopped server lost what it had not processed, which the sync after server start sends again', async () => {
    server.pauseProcessing();
    box.pai('LEARNING/SYSTEM/a.md', learning('Alpha', 'A.'));
    expect((await cli(['sync'])).out).toMatch(/queued 1/);
    await server.stop();
    runtime('stopped');
    // The local server is the one in use: no URL set (the sandbox's would win).
    const env = { MADEINOZ_KNOWLEDGE_MCP_URL: '', MADEINOZ_KNOWLEDGE_RETRIES: '0' };
    for (const args of [['status'], ['sync']]) {
      const r = await cli(args, env);
      expect(r.code).toBe(1);
      expect(r.out).toContain(`the local Graphiti server is stopped; next step: ${commandFor('server start')}`);
      expect(r.out).not.toContain('extracts facts in the background');
      expect(r.out).not.toContain('0 pending');
      expect(r.out).toContain('1 queued: sent, but not in the graph yet, and the server does not answer: a server that stopped lost what it had not processed, and the first sync once it answers sends that again');
    }
  });

  it('HTTP 401: from the local server, it stopped (server start) or restarted (sync again); from another server, the token to set', () => {
    const local = 'http://127.0.0.1:40001/mcp';
    const refused = (url: string) => `HTTP 401 from ${url}: {"error":"Unauthorized"}`;
    runtime('stopped', { url: local });
    expect(nextStepFor(refused(local), { mcpUrl: local, mcpUrlSource: 'setting', stateDir: box.path('state') })).toEqual({ cause: 'the local Graphiti server is stopped', fix: commandFor('server start') });
    const other = 'https://graphiti.example.org/mcp';
    expect(nextStepFor(refused(other), { mcpUrl: other, mcpUrlSource: 'setting', stateDir: box.path('state') })).toEqual({ cause: `${other} refuses us without valid authorization`, fix: 'set MADEINOZ_KNOWLEDGE_AUTH_TOKEN to the token that server requires' });
  });

  it('stopped while a sync ran against it (its URL came from runtime.json): server start, not "does not answer"', () => {
    runtime('stopped', { url: 'http://127.0.0.1:40001/mcp' });
    const config = { mcpUrl: 'http://127.0.0.1:40001/mcp', mcpUrlSource: 'local-server' as const, stateDir: box.path('state') };
    expect(nextStepFor('Network error talking to http://127.0.0.1:40001/mcp: connect ECONNREFUSED 127.0.0.1:40001', config)).toEqual({ cause: 'the local Graphiti server is stopped', fix: commandFor('server start') });
  });

  it('still starting (its supervisor alive): wait for it, not "stopped; server start"', async () => {
    const supervisor = await startFakeSupervisor();
    try {
      runtime('starting', {});
      writeRuntime(box.path('state'), { ...(readRuntime(box.path('state')) as NonNullable<ReturnType<typeof readRuntime>>), pid: supervisor.identity.pid, identities: { supervisor: supervisor.identity } });
      const config = { mcpUrl: 'http://localhost:8000/mcp', mcpUrlSource: 'default' as const, stateDir: box.path('state') };
      expect(nextStepFor(REFUSED, config)).toEqual({ cause: 'the local Graphiti server is still starting', fix: `wait until "${commandFor('server status')}" says running, then run this again` });
    } finally {
      const gone = new Promise((r) => supervisor.child.once('exit', r));
      supervisor.child.kill('SIGKILL');
      await gone;
    }
    // A record that says starting, its supervisor gone: it never finished.
    expect(nextStepFor(REFUSED, { mcpUrl: 'http://localhost:8000/mcp', mcpUrlSource: 'default', stateDir: box.path('state') })?.fix).toBe(commandFor('server start'));
  });

  it('a server that ended on its own after it had started is not a start that failed', () => {
    runtime('failed', { readyAt: '2026-01-01T00:00:05Z', error: 'graphiti exited (code -1); see /l/graphiti.log' });
    const config = { mcpUrl: 'http://localhost:8000/mcp', mcpUrlSource: 'default' as const, stateDir: box.path('state') };
    expect(nextStepFor(REFUSED, config)).toEqual({ cause: 'the local Graphiti server is not running: it ended after it had started (graphiti exited (code -1); see /l/graphiti.log)', fix: commandFor('server start') });
    runtime('failed', { error: 'port 8000 is taken' });
    expect(nextStepFor(REFUSED, config)).toEqual({ cause: 'the local Graphiti server is not running (its last start failed)', fix: commandFor('server start') });
  });
});

describe('a busy state lock is not a server that does not answer', () => {
  it('a lock wait that timed out, or a lock lost mid-run: let the other process finish, run this again (not "start the Graphiti server")', () => {
    const config = { mcpUrl: 'http://127.0.0.1:40001/mcp', mcpUrlSource: 'setting' as const, stateDir: box.path('state') };
    const holder = { tool: 'graphiti-memory-sync' as const, pid: 4242, hostname: 'here', label: 'hook worker', startedAt: '2026-01-01T00:00:00Z', token: 't' };
    for (const error of [new LockTimeoutError(box.path('state/state.lock'), holder, 600_000, 200), new LockLostError(box.path('state/state.lock'), holder)]) {
      const step = nextStepFor(error.message, config);
      expect(step?.fix).toMatch(/^let it finish, then run this again/);
      expect(`${step?.cause} ${step?.fix}`).not.toMatch(/Graphiti server|MCP_URL/);
    }
    expect(nextStepFor('Lost the state lock to another process; stopping without writing.', config)?.fix).toMatch(/run this again/);
    // A timeout talking to the server is still the server's.
    expect(nextStepFor('Timed out after 30000 ms waiting for tools/call add_memory', config)?.cause).toBe('nothing answers at http://127.0.0.1:40001/mcp');
  });
});

describe('a state folder that cannot be written (STATE_UNWRITABLE) is not a server problem, and loses nothing', () => {
  const config = () => ({ mcpUrl: 'http://127.0.0.1:40001/mcp', mcpUrlSource: 'setting' as const, stateDir: box.path('state') });

  it('a full disk under the journal (a write with no path: its open file) or the snapshot: the state folder, free space or move it, nothing lost', () => {
    for (const text of ['ENOSPC: no space left on device, write', `ENOSPC: no space left on device, open '${box.path('state', 'state.json.tmp')}'`]) {
      const step = nextStepFor(text, config());
      expect(step?.cause).toBe(`the state folder ${box.path('state')} cannot be written: the disk it is on is full; nothing was lost (what this run did not record is sent or checked again by the next one)`);
      expect(step?.fix).toBe('free some space there (df -h shows how much is left), or move the folder to a disk you can write and set MADEINOZ_KNOWLEDGE_STATE_DIR to its new place, then run this again');
    }
  });

  it('read-only or not ours: says which; a path outside the state folder is named itself', () => {
    expect(nextStepFor(`EROFS: read-only file system, open '${box.path('state', 'sync.lock.ab.tmp')}'`, config())?.cause).toMatch(/^the state folder .* cannot be written: it is on a read-only file system; nothing was lost/);
    expect(nextStepFor(`EACCES: permission denied, mkdir '${box.path('state', 'logs')}'`, config())?.fix).toMatch(/^make it yours to write \(ls -ld/);
    expect(nextStepFor("EDQUOT: disk quota exceeded, write", config())?.cause).toMatch(/your disk quota is used up/);
    expect(nextStepFor("EACCES: permission denied, open '/home/me/.claude/settings.json'", config())).toEqual({ cause: '/home/me/.claude/settings.json cannot be written: you lack the permission to write there', fix: 'make it yours to write (ls -ld shows its owner and mode), then run this again' });
    // Other errors keep their own words.
    expect(nextStepFor('ENOENT: no such file or directory, open \'/x\'', config())).toBeUndefined();
  });
});

describe('status asks the state folder for a write (state/write-probe.ts STATE_WRITE_PROBE)', () => {
  it('a full disk (the kernel\'s own ENOSPC, from /dev/full): status warns and names the step; a writable folder gets no warning, and the probe leaves nothing', async () => {
    const state = box.path('state');
    mkdirSync(state, { recursive: true, mode: 0o700 });
    const fine = await cli(['status']);
    expect(fine.out).not.toContain('cannot be written');
    expect(readdirSync(state)).not.toContain(WRITE_PROBE_FILE);
    // Where the probe writes, a device that answers every write with ENOSPC: a full disk without mounting one.
    symlinkSync('/dev/full', join(state, WRITE_PROBE_FILE));
    const full = await cli(['status']);
    expect(full.out).toContain(`Warning: the state folder ${state} cannot be written: the disk it is on is full; nothing was lost`);
    expect(full.out).toContain("until then every sync, the hooks' and watch's too, stops at its first write. Next step: free some space there (df -h shows how much is left)");
    // The probe removed its file (here the link) as always.
    expect(readdirSync(state)).not.toContain(WRITE_PROBE_FILE);
    symlinkSync('/dev/full', join(state, WRITE_PROBE_FILE));
    const json = JSON.parse((await cli(['status', '--json'])).out) as { stateUnwritable?: { cause: string } };
    expect(json.stateUnwritable?.cause).toMatch(/the disk it is on is full/);
  });
});

describe('server URL mistakes', () => {
  it('a URL without /mcp gets the /mcp path named, not a bare 404', async () => {
    const origin = new URL(server.url).origin;
    const r = await cli(['health'], { MADEINOZ_KNOWLEDGE_MCP_URL: origin });
    expect(r.code).toBe(1);
    expect(r.out).toContain(`likely cause: ${origin}/ has no /mcp path: the Graphiti MCP server answers at /mcp`);
    expect(r.out).toContain(`fix: set MADEINOZ_KNOWLEDGE_MCP_URL (in the environment or ${box.env.MADEINOZ_KNOWLEDGE_ENV_FILE}) to ${origin}/mcp`);
  });

  it('a URL where a web server answers, not Graphiti: status and sync name the setting to correct', async () => {
    const web = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>my dashboard</html>');
    });
    await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(web.address() as AddressInfo).port}/mcp`;
    try {
      const step = `something answers at ${url}, but not as a Graphiti MCP server; next step: set MADEINOZ_KNOWLEDGE_MCP_URL (in the environment or ${box.env.MADEINOZ_KNOWLEDGE_ENV_FILE}) to your Graphiti MCP server's URL (it ends in /mcp)`;
      expect((await cli(['status'], { MADEINOZ_KNOWLEDGE_MCP_URL: url, MADEINOZ_KNOWLEDGE_RETRIES: '0' })).out).toContain(step);
      box.pai('LEARNING/SYSTEM/a.md', learning('Alpha', 'A.'));
      const sync = await cli(['sync'], { MADEINOZ_KNOWLEDGE_MCP_URL: url, MADEINOZ_KNOWLEDGE_RETRIES: '0' });
      expect(sync.code).toBe(1);
      expect(`${sync.out}${sync.err}`).toContain(step);
    } finally {
      await new Promise((resolve) => web.close(resolve));
    }
  });

  it('an MCP server without Graphiti\'s tools, and a server or proxy that fails the request (5xx)', () => {
    const config = { mcpUrl: 'https://graphiti.example.org/mcp', mcpUrlSource: 'setting' as const, stateDir: box.path('state') };
    expect(nextStepFor('The server offers none of the tools add_memory; is this a Graphiti MCP server?', config)?.fix).toBe("set MADEINOZ_KNOWLEDGE_MCP_URL to your Graphiti MCP server's URL (it ends in /mcp)");
    expect(nextStepFor('HTTP 502 from https://graphiti.example.org/mcp: Bad Gateway', config)).toEqual({
      cause: 'https://graphiti.example.org/mcp failed the request (HTTP 502: a proxy whose Graphiti server does not answer, or one that is overloaded)',
      fix: "read the Graphiti server's log; nothing was lost: the next sync tries again",
    });
    const local = { ...config, mcpUrl: 'http://127.0.0.1:40001/mcp', mcpUrlSource: 'local-server' as const };
    expect(nextStepFor('HTTP 500 from http://127.0.0.1:40001/mcp', local)?.fix).toMatch(new RegExp(`^${escapeRegExp(commandFor('server logs'))};`));
    expect(nextStepFor('Legacy SSE endpoint https://graphiti.example.org/sse answered with "text/html" instead of text/event-stream', config)?.cause).toBe('something answers at https://graphiti.example.org/mcp, but not as a Graphiti MCP server');
    expect(nextStepFor('The server chose MCP protocol version "2030-01-01", which this client does not support (supported: 2025-06-18)', config)?.fix).toBe(upgradeStep());
    // This checkout runs the tests: its step is a pull and a build.
    expect(upgradeStep()).toMatch(/^upgrade graphiti-memory-sync: update the checkout: "cd .* && git pull && npm install"/);
    // get_status "error": the database, or a server still starting.
    expect(nextStepFor('Graphiti MCP server is running but database connection failed: Connection refused', local)?.fix).toMatch(new RegExp(`^${escapeRegExp(commandFor('server restart'))} `));
    expect(nextStepFor('Graphiti service not initialized', config)).toEqual({ cause: 'the Graphiti server is still starting', fix: 'wait a few seconds, then run this again' });
  });

  it('a 421 is explained once, with no "likely cause" contradicting it', async () => {
    const strict = await startGraphitiServer({ processingDelayMs: 0, restrictHost: true, allowedHosts: ['localhost:*'] });
    try {
      const r = await cli(['health'], { MADEINOZ_KNOWLEDGE_MCP_URL: strict.url });
      expect(r.code).toBe(1);
      expect(r.out.match(/DNS-rebinding/g)).toHaveLength(1);
      expect(r.out).not.toContain('likely cause');
      expect(r.out).not.toContain('not running');
      expect(r.out).toMatch(/^unhealthy: HTTP 421 from /);
      expect(r.out).toContain('FAIL server: refused: (the error above)');
      expect(r.out).toContain('fix: connect through http://localhost:<port>/mcp or http://127.0.0.1:<port>/mcp');
    } finally {
      await strict.close();
    }
  });
});

describe('a configuration error names the variable and where it is set', () => {
  it('in the settings file: that file', async () => {
    writeFileSync(box.env.MADEINOZ_KNOWLEDGE_ENV_FILE as string, 'MADEINOZ_KNOWLEDGE_DB=mysql\n');
    const r = await cli(['status']);
    expect(r.code).toBe(2);
    expect(r.err).toBe(`Configuration error: MADEINOZ_KNOWLEDGE_DB="mysql" is not allowed: use one of neo4j, falkordb\n  MADEINOZ_KNOWLEDGE_DB is set in ${box.env.MADEINOZ_KNOWLEDGE_ENV_FILE}: edit that line\n`);
  });

  it('a settings file that cannot be read: how to fix it, or which setting picks another', async () => {
    const r = await cli(['status'], { MADEINOZ_KNOWLEDGE_ENV_FILE: box.root });
    expect(r.code).toBe(2);
    expect(r.err).toMatch(new RegExp(`^Configuration error: Cannot read settings file ${box.root}: .*; make it a file you can read \\(chmod 600 ${box.root}\\), or set MADEINOZ_KNOWLEDGE_ENV_FILE to another one\\n`));
  });

  it('in the environment: says so', async () => {
    const r = await cli(['status'], { MADEINOZ_KNOWLEDGE_CONCURRENCY: 'many' });
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^Configuration error: MADEINOZ_KNOWLEDGE_CONCURRENCY="many".*\n {2}MADEINOZ_KNOWLEDGE_CONCURRENCY is set in the environment: change or unset it/);
  });
});

describe('server start with an OpenAI-compatible endpoint and no model name', () => {
  it('is refused before anything is installed, naming the variables to set', async () => {
    const { MADEINOZ_KNOWLEDGE_MCP_URL: _unset, ...env } = box.env;
    let err = '';
    const code = await main(['server', 'start'], { stdout: () => undefined, stderr: (t) => void (err += t), isTTY: false, env: { ...env, OPENAI_BASE_URL: 'http://localhost:11434/v1', GMS_GRAPHITI_CACHE: box.path('cache') }, cwd: box.root });
    expect(code).toBe(2);
    expect(err).toContain('OPENAI_BASE_URL="http://localhost:11434/v1" needs the endpoint\'s model names: set GMS_SERVER_MODEL');
    expect(err).toContain('GMS_SERVER_EMBEDDER_MODEL');
    expect(existsSync(box.path('cache'))).toBe(false);
  });
});

describe('uninstall --dry-run of a file install created', () => {
  it('shows the file being removed, not "+ {}"', async () => {
    const home = box.root;
    const env = { HOME: home, CLAUDE_CONFIG_DIR: join(home, 'claude') };
    expect((await cli(['install'], env)).code).toBe(0);
    const dry = await cli(['uninstall', '--dry-run'], env);
    expect(dry.code).toBe(0);
    expect(dry.out).toContain(`${join(home, 'claude', 'settings.json')}: would be removed (it did not exist before install)`);
    expect(dry.out).not.toContain('+ {}');
  });
});

describe('server logs explains what looks alarming', () => {
  it("FalkorDB's memory-overcommit warning: whether it matters and how to silence it", async () => {
    const dataDir = box.path('data');
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(join(dataDir, 'falkordb.log'), '123:M 25 Nov 2026 10:00:00.000 # WARNING Memory overcommit must be enabled! Without it, a background save or replication may fail under low memory condition. To fix this issue add \'vm.overcommit_memory = 1\' to /etc/sysctl.conf and then reboot or run the command \'sysctl vm.overcommit_memory=1\' for this to take effect.\n123:M 25 Nov 2026 10:00:00.001 * WARNING overcommit_memory is set to 0! Background save may fail under low memory condition.\n');
    writeRuntime(box.path('state'), { state: 'stopped', pid: 1, generation: '0.31.2', serverVersion: '1.1.2', mcp: 'x', falkordbBin: 'x', dataDir, logDir: box.path('logs'), startedAt: '2026-01-01T00:00:00Z' });
    const r = await cli(['server', 'logs']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('note: FalkorDB\'s "Memory overcommit must be enabled" warning is Redis\'s own: it matters only when a background save of a large graph meets memory pressure');
    expect(r.out).toContain('sudo sysctl vm.overcommit_memory=1');
    expect(r.out.match(/^note:/gm)).toHaveLength(1);
  });
});

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
