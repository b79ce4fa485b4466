/**
 * Issue 44: the local server's front under a flood. Another local program opens 1,000 idle
 * connections to the front's port (and opens a new one for each the front drops), while the
 * owner runs `sync --wait` of 20 new notes (sent through the front, then confirmed once processed) against the real server (`server start`, stand-in LLM).
 * Reported: the sync's wall time with the flood against the same sync without it (baseline, same
 * run), and how many of the flood's connections the front kept open at the end.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readRuntime } from '../src/lib/config/server-runtime.js';
import { cacheRoot } from '../src/lib/server/environment.js';
import { newestGeneration } from '../src/lib/server/user-settings.js';
import { isolatedEnv } from '../test/support/isolated-env.js';
import { startStandInLlm } from '../test/support/standin-llm/server.js';
import { ROOT, type Row } from './util.js';

/** Holds `count` idle connections to 127.0.0.1:port, replacing each one closed; prints how many are open each second. */
const FLOOD = `
const net = require('node:net');
const [port, count] = [Number(process.argv[1]), Number(process.argv[2])];
let open = 0;
function one() {
  const s = net.connect(port, '127.0.0.1');
  let up = false;
  s.on('connect', () => { up = true; open++; });
  s.on('error', () => undefined);
  s.on('close', () => { if (up) open--; setTimeout(one, 10); });
}
for (let i = 0; i < count; i++) one();
setInterval(() => process.stdout.write('open ' + open + '\\n'), 1000);
`;

/** The CLI as a child, awaited (not spawnSync: the stand-in LLM answering the server lives in this process). */
function cli(env: Record<string, string>, args: string[]): Promise<{ ms: number; code: number | null; stdout: string; stderr: string }> {
  const t0 = process.hrtime.bigint();
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src', 'cli.ts'), ...args], { env, cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ ms: Number(process.hrtime.bigint() - t0) / 1e6, code, stdout, stderr })));
}

/** Notes per sync: each one an add_memory call through the front, then confirmed once the server has processed it. */
const NOTES = 20;

/** Sockets the process holds open (Linux: /proc/<pid>/fd); NaN elsewhere. */
function socketsOf(pid: number): number {
  try {
    return readdirSync(`/proc/${pid}/fd`).filter((fd) => {
      try {
        return readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith('socket:');
      } catch {
        return false;
      }
    }).length;
  } catch {
    return Number.NaN;
  }
}

function notes(env: Record<string, string>, tag: string): void {
  const dir = join(env.PAI_DIR as string, 'MEMORY', 'LEARNING', `flood-${tag}`);
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < NOTES; i++) writeFileSync(join(dir, `note-${i}.md`), `---\ntitle: ${tag} note ${i}\n---\nThe ${tag} note number ${i} says the build runs on ${i % 7} cores.\n`);
}

export async function benchFrontFlood(): Promise<Row[]> {
  const root = mkdtempSync(join(tmpdir(), 'gms-bench-flood-'));
  const llm = await startStandInLlm();
  const { MADEINOZ_KNOWLEDGE_MCP_URL: _unset, ...base } = isolatedEnv(root, 'unused');
  const env: Record<string, string> = { ...base, XDG_DATA_HOME: join(root, 'data'), GMS_GRAPHITI_CACHE: cacheRoot(process.env), OPENAI_API_KEY: 'stand-in', OPENAI_BASE_URL: llm.url, GMS_SERVER_MODEL: 'stand-in', GMS_SERVER_EMBEDDER_MODEL: 'stand-in-embedder', GMS_SERVER_GENERATION: newestGeneration().id };
  try {
    const start = await cli(env, ['server', 'start']);
    if (start.code !== 0) throw new Error(`server start: ${start.stderr}`);
    const runtime = readRuntime(env.MADEINOZ_KNOWLEDGE_STATE_DIR as string);
    const port = runtime?.port as number;
    const supervisor = runtime?.pid as number;
    const quietSockets = socketsOf(supervisor);
    notes(env, 'quiet');
    const quiet = await cli(env, ['sync', '--json', '--wait', '120000']);
    if (quiet.code !== 0) throw new Error(`sync without flood: ${quiet.stdout} ${quiet.stderr}`);
    const flood = spawn(process.execPath, ['-e', FLOOD, String(port), '1000'], { stdio: ['ignore', 'pipe', 'ignore'] });
    let last = '';
    flood.stdout.on('data', (d: Buffer) => (last = d.toString().trim().split('\n').pop() ?? last));
    try {
      // Let the flood reach its 1,000 (the front drops the oldest beyond its limit; they come back).
      await new Promise((r) => setTimeout(r, 3000));
      notes(env, 'flooded');
      const flooded = await cli(env, ['sync', '--json', '--wait', '120000']);
      const result = JSON.parse(flooded.stdout || '{}') as { added?: number; confirmed?: number; failed?: number };
      const flooderSide = Number(/open (\d+)/.exec(last)?.[1] ?? NaN);
      return [
        { name: `sync of ${NOTES} new notes, no flood (baseline)`, value: quiet.ms, unit: 'ms' },
        { name: `sync of ${NOTES} new notes, 1,000 idle connections held (exit ${flooded.code}, added ${result.added}, confirmed ${result.confirmed}, failed ${result.failed})`, value: flooded.ms, unit: 'ms', baseline: quiet.ms, baselineName: 'no flood' },
        { name: `sockets the supervisor holds under the flood (${quietSockets} without it; the front keeps at most 256 without the token)`, value: socketsOf(supervisor), unit: 'sockets' },
        { name: "flood connections established from the flooder's side (the rest of the 1,000 wait in the kernel's accept queue or are re-opened)", value: flooderSide, unit: 'conns' },
      ];
    } finally {
      flood.kill('SIGKILL');
    }
  } finally {
    await cli(env, ['server', 'stop']);
    await llm.close();
    rmSync(root, { recursive: true, force: true });
  }
}
