/**
 * The README's quick start, run as written (issue 30): its commands are read from README.md at
 * test time (the fenced bash blocks of "## Quick start"), run with bash in the checkout, in a fresh
 * home, once per route (without Docker, with Docker). A step fails the test when it exits non-zero
 * or its output lacks what the README's `# prints: …` comment promises.
 *
 * Three kinds of step cannot run here and are stood in for, each named below: installing and
 * building (the suite runs on the built checkout), `docker compose … up` and `server start` (no
 * Docker, and no Python install in the fast suite): both start the bundled Graphiti-shaped test
 * server instead, the way the real one would be found (the settings file's URL is overridden with
 * the test server's port for Docker; a runtime.json as `server start` writes it without Docker).
 * `export` lines set the environment of the later steps, as in a shell.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { writeRuntime } from '../src/lib/config/server-runtime.js';
import { startFakeSupervisor } from './support/fake-supervisor.js';
import { startGraphitiServer, type GraphitiTestServer } from './support/graphiti-server.js';
import { makeTempDir } from './support/temp-dir.js';

const ROOT = join(import.meta.dirname, '..');

export interface Step {
  /** The command line as the README writes it. */
  command: string;
  /** What its output must contain (`# prints: …`), if anything. */
  prints: string | undefined;
  /** The first command of its block, which names the block's route. */
  block: number;
}

/** The quick start's steps: every command line of every ```bash block under "## Quick start". */
export function quickStartSteps(readme: string): Step[] {
  const start = readme.indexOf('\n## Quick start');
  if (start === -1) throw new Error('README.md has no "## Quick start" section');
  const end = readme.indexOf('\n## ', start + 5);
  const section = readme.slice(start, end === -1 ? undefined : end);
  const steps: Step[] = [];
  let block = 0;
  for (const m of section.matchAll(/```bash\n([\s\S]*?)```/g)) {
    block++;
    for (const raw of (m[1] as string).split('\n')) {
      const line = raw.trim();
      if (line === '' || line.startsWith('#')) continue;
      const comment = /\s+#\s+prints:\s+(.+)$/.exec(line);
      const command = (comment === null ? line.replace(/\s+#\s.*$/, '') : line.slice(0, comment.index)).trim();
      steps.push({ command, prints: comment?.[1]?.trim(), block });
    }
  }
  return steps;
}

const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const steps = quickStartSteps(readme);
const blockOf = (pattern: RegExp) => steps.find((s) => pattern.test(s.command))?.block;
const NO_DOCKER_BLOCK = blockOf(/ server start\b/);
const DOCKER_BLOCK = blockOf(/^docker compose\b/);

let servers: GraphitiTestServer[] = [];
let children: ChildProcess[] = [];
afterEach(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  children = [];
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

beforeAll(() => {
  // The suite runs on the built checkout (`npm test` builds first); build once when it is missing.
  if (!existsSync(join(ROOT, 'dist', 'cli.js'))) {
    const built = spawnSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'inherit' });
    if (built.status !== 0) throw new Error('npm run build failed');
  }
}, 180_000);

/** A fresh home holding Claude Code memory (the examples), nothing else of anyone's. */
async function freshHome(): Promise<{ home: string; env: Record<string, string> }> {
  const { dir } = await makeTempDir('gms-readme-');
  const home = join(dir, 'home');
  mkdirSync(join(home, '.claude'), { recursive: true });
  cpSync(join(ROOT, 'examples', 'memory', 'pai', 'MEMORY'), join(home, '.claude', 'MEMORY'), { recursive: true });
  cpSync(join(ROOT, 'examples', 'memory', 'claude', 'projects'), join(home, '.claude', 'projects'), { recursive: true });
  return { home, env: { HOME: home, PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8' } };
}

/** `server start` without Python: the test server, found through runtime.json as the real one is. */
async function standInLocalServer(env: Record<string, string>): Promise<void> {
  const server = await startGraphitiServer({ processingDelayMs: 0, db: 'falkordb' });
  servers.push(server);
  // runtime.json names the supervisor `server run`; a process of that name stands for it.
  const supervisor = await startFakeSupervisor();
  children.push(supervisor.child);
  const stateDir = join(env.HOME as string, '.local', 'state', 'graphiti-memory-sync');
  writeRuntime(stateDir, { state: 'ready', pid: supervisor.identity.pid, identities: { supervisor: supervisor.identity }, url: server.url, generation: '0.31.2', serverVersion: '1.1.2', mcp: '2', falkordbBin: 'x', dataDir: join(env.HOME as string, 'data'), logDir: join(env.HOME as string, 'logs'), startedAt: new Date().toISOString() });
}

/** `docker compose … up -d` without Docker: the test server, at the URL the settings file names but on a free port. */
async function standInDocker(env: Record<string, string>): Promise<void> {
  const server = await startGraphitiServer({ processingDelayMs: 0, db: 'neo4j' });
  servers.push(server);
  env.MADEINOZ_KNOWLEDGE_MCP_URL = server.url;
}

function runBash(command: string, env: Record<string, string>): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', command], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

async function runRoute(skipBlock: number | undefined): Promise<Array<{ command: string; code: number | null; output: string }>> {
  const { env } = await freshHome();
  const ran: Array<{ command: string; code: number | null; output: string }> = [];
  for (const step of steps) {
    if (step.block === skipBlock) continue;
    if (/^npm (install|run build|link|ci)\b/.test(step.command)) continue; // the checkout is installed and built
    const exported = /^export ([A-Z_][A-Z0-9_]*)=(.*)$/.exec(step.command);
    if (exported !== null) {
      env[exported[1] as string] = exported[2] as string;
      continue;
    }
    if (/ server start\b/.test(step.command)) {
      await standInLocalServer(env);
      continue;
    }
    if (/^docker compose\b/.test(step.command)) {
      await standInDocker(env);
      continue;
    }
    // Not spawnSync: the test server runs in this process and must answer meanwhile.
    const r = await runBash(step.command, env);
    const output = `${r.stdout}${r.stderr}`;
    ran.push({ command: step.command, code: r.status, output });
    expect(r.status, `"${step.command}" exited ${r.status}:\n${output}`).toBe(0);
    if (step.prints !== undefined) expect(output, `"${step.command}" should print "${step.prints}"`).toContain(step.prints);
  }
  return ran;
}

describe('README quick start, as written', () => {
  it('names both routes and promises an output for each check', () => {
    expect(NO_DOCKER_BLOCK).toBeDefined();
    expect(DOCKER_BLOCK).toBeDefined();
    expect(steps.filter((s) => s.prints !== undefined).length).toBeGreaterThanOrEqual(5);
    // The command it names runs from a checkout: no bare `graphiti-memory-sync` before `npm link`.
    for (const s of steps) expect(s.command).not.toMatch(/^(npx )?graphiti-memory-sync\b/);
  });

  it('without Docker: every step exits 0 and prints what the README says', async () => {
    const ran = await runRoute(DOCKER_BLOCK);
    expect(ran.map((r) => r.command)).toEqual(expect.arrayContaining([expect.stringMatching(/ health$/), expect.stringMatching(/ install$/)]));
  }, 240_000);

  it('with Docker: every step exits 0 and prints what the README says', async () => {
    const ran = await runRoute(NO_DOCKER_BLOCK);
    expect(ran.some((r) => r.command.startsWith('printf'))).toBe(true);
  }, 240_000);
});
