/**
 * Issue 44: the local server's front under a flood. Another local program opens 1,000 idle
 * connections to the front's port (and opens a new one for each the front drops), while the
 * owner runs `sync` of 20 new notes against the real server (`server start`, stand-in LLM).
 * Reported: the sync's wall time with the flood against the same sync without it (baseline, same
 * run), and how many of the flood's connections the front kept open at the end.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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

function cli(env: Record<string, string>, args: string[]): { ms: number; code: number | null; stdout: string; stderr: string } {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'src', 'cli.ts'), ...args], { env, cwd: ROOT, encoding: 'utf8', timeout: 600_000 });
  return { ms: Number(process.hrtime.bigint() - t0) / 1e6, code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function notes(env: Record<string, string>, tag: string): void {
  const dir = join(env.PAI_DIR as string, 'MEMORY', 'LEARNING', `flood-${tag}`);
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < 20; i++) writeFileSync(join(dir, `note-${i}.md`), `---\ntitle: ${tag} note ${i}\n---\nThe ${tag} note number ${i} says the build runs on ${i % 7} cores.\n`);
}

export async function benchFrontFlood(): Promise<Row[]> {
  const root = mkdtempSync(join(tmpdir(), 'gms-bench-flood-'));
  const llm = await startStandInLlm();
  const { MADEINOZ_KNOWLEDGE_MCP_URL: _unset, ...base } = isolatedEnv(root, 'unused');
  const env: Record<string, string> = { ...base, XDG_DATA_HOME: join(root, 'data'), GMS_GRAPHITI_CACHE: cacheRoot(process.env), OPENAI_API_KEY: 'stand-in', OPENAI_BASE_URL: llm.url, GMS_SERVER_MODEL: 'stand-in', GMS_SERVER_EMBEDDER_MODEL: 'stand-in-embedder', GMS_SERVER_GENERATION: newestGeneration().id };
  try {
    const start = cli(env, ['server', 'start']);
    if (start.code !== 0) throw new Error(`server start: ${start.stderr}`);
    const port = readRuntime(env.MADEINOZ_KNOWLEDGE_STATE_DIR as string)?.port as number;
    notes(env, 'quiet');
    const quiet = cli(env, ['sync', '--json', '--wait', '120000']);
    if (quiet.code !== 0) throw new Error(`sync without flood: ${quiet.stdout} ${quiet.stderr}`);
    const flood = spawn(process.execPath, ['-e', FLOOD, String(port), '1000'], { stdio: ['ignore', 'pipe', 'ignore'] });
    let last = '';
    flood.stdout.on('data', (d: Buffer) => (last = d.toString().trim().split('\n').pop() ?? last));
    try {
      // Let the flood reach its 1,000 (the front drops the oldest beyond its limit; they come back).
      await new Promise((r) => setTimeout(r, 3000));
      notes(env, 'flooded');
      const flooded = cli(env, ['sync', '--json', '--wait', '120000']);
      const result = JSON.parse(flooded.stdout || '{}') as { added?: number; confirmed?: number; failed?: number };
      const keptOpen = Number(/open (\d+)/.exec(last)?.[1] ?? NaN);
      return [
        { name: 'sync of 20 new notes, no flood (baseline)', value: quiet.ms, unit: 'ms' },
        { name: `sync of 20 new notes, 1,000 idle connections held (exit ${flooded.code}, added ${result.added}, confirmed ${result.confirmed}, failed ${result.failed})`, value: flooded.ms, unit: 'ms', baseline: quiet.ms, baselineName: 'no flood' },
        { name: 'flood connections open at the end (the front keeps at most 256 without the token)', value: keptOpen, unit: 'conns' },
      ];
    } finally {
      flood.kill('SIGKILL');
    }
  } finally {
    cli(env, ['server', 'stop']);
    await llm.close();
    rmSync(root, { recursive: true, force: true });
  }
}
