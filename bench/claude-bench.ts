/**
 * `claude -p hello` wall time under the REAL Claude Code CLI (pinned, scripts/claude-code.mjs)
 * against the loopback FAKE Anthropic API, without our hooks and with them (install's settings
 * hooks; the plugin), runs interleaved so load changes hit every variant alike. The figure that
 * matters is the difference of the medians: what our hooks add to a headless run (goal ≤ ~0.25 s).
 * BENCH_CLAUDE_RUNS (default 5) sets the runs per variant.
 */
import { spawnSync } from 'node:child_process';
import { startFakeAnthropic } from '../test/claude/fake-anthropic.js';
import { claudeBinary, makeClaudeBox, ROOT, type ClaudeBox } from '../test/claude/harness.js';
import { startGraphitiServer } from '../test/support/graphiti-server.js';
import { ensureBuilt, median, type Row } from './util.js';

export async function benchClaude(): Promise<Row[]> {
  ensureBuilt();
  const runs = Number(process.env.BENCH_CLAUDE_RUNS ?? 5);
  const api = await startFakeAnthropic();
  const graphiti = await startGraphitiServer({ processingDelayMs: 0 });
  const boxes: Record<'none' | 'settings' | 'plugin', ClaudeBox> = {
    none: makeClaudeBox(api.url, graphiti.url),
    settings: makeClaudeBox(api.url, graphiti.url),
    plugin: makeClaudeBox(api.url, graphiti.url),
  };
  try {
    if (boxes.settings.gms(['install', '--scope', 'user']).code !== 0) throw new Error('install failed');
    const run = (args: string[]) => spawnSync(claudeBinary(), args, { cwd: boxes.plugin.project, env: boxes.plugin.env, stdio: 'ignore' }).status;
    if (run(['plugin', 'marketplace', 'add', ROOT]) !== 0 || run(['plugin', 'install', 'graphiti-memory-sync@graphiti-memory-sync']) !== 0) throw new Error('plugin install failed');
    const samples: Record<keyof typeof boxes, number[]> = { none: [], settings: [], plugin: [] };
    // One warm-up round (first runs write Claude Code's own files and our context cache).
    for (let i = 0; i <= runs; i++) {
      for (const key of Object.keys(boxes) as Array<keyof typeof boxes>) {
        const r = await boxes[key].claude(['-p', 'hello']);
        if (r.code !== 0) throw new Error(`claude -p failed (${key}): ${r.stderr}`);
        if (i > 0) samples[key].push(r.ms);
      }
    }
    const none = median(samples.none);
    const settings = median(samples.settings);
    const plugin = median(samples.plugin);
    const delta = (v: number) => `${v - none >= 0 ? '+' : ''}${Math.round(v - none)} ms vs no hooks (median of ${runs})`;
    return [
      { name: 'claude -p hello, no hooks', value: none, unit: 'ms' },
      { name: 'claude -p hello, install --scope user (SessionStart + Stop)', value: settings, unit: 'ms', baseline: none, baselineName: 'no hooks', note: delta(settings) },
      { name: 'claude -p hello, plugin (directory marketplace)', value: plugin, unit: 'ms', baseline: none, baselineName: 'no hooks', note: delta(plugin) },
    ];
  } finally {
    for (const b of Object.values(boxes)) await b.cleanup();
    await graphiti.close();
    await api.close();
  }
}
