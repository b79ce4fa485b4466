/**
 * Issue 4: SessionStart hook wall time with a warm context cache, nothing to sync and the
 * Graphiti server down, beside bare `node -e ""` measured in the same run — for the built hook
 * (`node dist/hooks/session-start.js`, what Claude Code runs) and for the tsx entry.
 * The hook really spawns its detached worker here (as in a session); the worker finds the
 * server down, which the hook must not wait for.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildConfig } from '../src/lib/config/config.js';
import { writeContextCache } from '../src/lib/context/cache.js';
import { detectProject } from '../src/lib/context/project.js';
import { isolatedEnv } from '../test/support/isolated-env.js';
import { ensureBuilt, ROOT, timeProcess, type Row } from './util.js';

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return typeof address === 'object' && address !== null ? address.port : 9;
}

export async function benchHook(): Promise<Row[]> {
  ensureBuilt();
  const runs = Number(process.env.BENCH_RUNS ?? 15);
  const home = mkdtempSync(join(tmpdir(), 'gms-bench-hook-'));
  try {
    const project = join(home, 'code', 'webapp');
    mkdirSync(join(project, '.git'), { recursive: true });
    const env = isolatedEnv(home, `http://127.0.0.1:${await closedPort()}/mcp`, {
      PAI_DIR: join(home, '.claude'),
      CLAUDE_CONFIG_DIR: join(home, '.claude'),
      MADEINOZ_KNOWLEDGE_RETRIES: '0',
    });
    const config = buildConfig(env);
    const info = detectProject(project, config, env);
    const facts = Array.from({ length: 60 }, (_, i) => `- Decided: component ${i} uses the shared queue (2026-01-${String((i % 28) + 1).padStart(2, '0')})`);
    await writeContextCache(config.stateDir, {
      version: 1,
      builtAt: new Date().toISOString(),
      project: info.name,
      key: info.key,
      root: info.root,
      groupIds: info.groupIds,
      text: `Knowledge graph facts for webapp (from Graphiti, group main):\n${facts.join('\n')}`,
      format: 'lines',
      facts: facts.length,
      nodes: 0,
    });
    const input = join(home, 'input.json');
    writeFileSync(input, JSON.stringify({ session_id: 'bench', hook_event_name: 'SessionStart', source: 'startup', cwd: project, transcript_path: join(home, 't.jsonl') }));
    const { openSync } = await import('node:fs');
    const withInput = () => ({ env, stdio: [openSync(input, 'r'), 'ignore', 'ignore'] as ['pipe' | number, 'ignore', 'ignore'] });

    const bare = timeProcess(process.execPath, ['-e', ''], runs, { env });
    const built = timeProcess(process.execPath, [join(ROOT, 'dist/hooks/session-start.js')], runs, withInput());
    const viaTsx = timeProcess(join(ROOT, 'node_modules/.bin/tsx'), [join(ROOT, 'src/hooks/session-start.ts')], runs, withInput());
    const stop = timeProcess(process.execPath, [join(ROOT, 'dist/hooks/stop.js')], runs, withInput());
    const plugin = timeProcess(process.execPath, [join(ROOT, 'plugin/hooks/session-start.mjs')], runs, withInput());
    const bareAgain = timeProcess(process.execPath, ['-e', ''], runs, { env });
    return [
      { name: 'bare node -e ""', value: bare, unit: 'ms' },
      { name: 'SessionStart, built (node dist/hooks/session-start.js)', value: built, unit: 'ms', baseline: bare, baselineName: 'bare node', note: 'cache warm, settings snapshotted, server down; goal: within 1.5x' },
      { name: 'SessionStart, tsx entry (tsx src/hooks/session-start.ts)', value: viaTsx, unit: 'ms', baseline: bare, baselineName: 'bare node', note: 'same conditions' },
      { name: 'Stop, built (node dist/hooks/stop.js)', value: stop, unit: 'ms', baseline: bare, baselineName: 'bare node', note: 'goal: within 1.5x' },
      { name: 'SessionStart, plugin bundle (plugin/hooks/session-start.mjs)', value: plugin, unit: 'ms', baseline: bare, baselineName: 'bare node', note: 'goal: within 1.5x' },
      { name: 'bare node -e "" again (drift check)', value: bareAgain, unit: 'ms', baseline: bare, baselineName: 'bare node' },
    ];
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
