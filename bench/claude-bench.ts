/**
 * `claude -p hello` wall time under the REAL Claude Code CLI (pinned, scripts/test/claude-code.mjs)
 * against the loopback FAKE Anthropic API, without our hooks and with them (install's settings
 * hooks; the plugin), runs interleaved so load changes hit every variant alike. The figure that
 * matters is the difference of the medians: what our hooks add to a headless run (goal ≤ ~0.25 s).
 * BENCH_CLAUDE_RUNS (default 5) sets the runs per variant.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeAnthropic } from '../test/claude/fake-anthropic.js';
import { claudeBinary, makeClaudeBox, ROOT, type ClaudeBox } from '../test/claude/harness.js';
import { ensureBuilt, median, serverProcess, type Row } from './util.js';

/** A directory marketplace holding one plugin whose only content is `hooks` (the yardstick). */
function trivialMarketplace(root: string, hooks: object): string {
  const market = join(root, 'bare-market');
  mkdirSync(join(market, '.claude-plugin'), { recursive: true });
  mkdirSync(join(market, 'plugin', '.claude-plugin'), { recursive: true });
  mkdirSync(join(market, 'plugin', 'hooks'), { recursive: true });
  writeFileSync(join(market, '.claude-plugin', 'marketplace.json'), JSON.stringify({ name: 'bare-hooks', owner: { name: 'bench' }, plugins: [{ name: 'bare-hooks', source: './plugin', description: 'two bare hooks' }] }));
  writeFileSync(join(market, 'plugin', '.claude-plugin', 'plugin.json'), JSON.stringify({ name: 'bare-hooks', version: '0.0.0', description: 'two bare hooks' }));
  writeFileSync(join(market, 'plugin', 'hooks', 'hooks.json'), JSON.stringify(hooks));
  return market;
}

export async function benchClaude(): Promise<Row[]> {
  ensureBuilt();
  const runs = Number(process.env.BENCH_CLAUDE_RUNS ?? 5);
  const api = await startFakeAnthropic();
  // In its own process: the worker's requests must not delay the fake Anthropic API's replies.
  const graphiti = await serverProcess({ processingDelayMs: 0 });
  const boxes: Record<'none' | 'trivial' | 'settings' | 'noWorker' | 'trivialPlugin' | 'plugin', ClaudeBox> = {
    none: makeClaudeBox(api.url, graphiti.url),
    // The yardstick: what any SessionStart + Stop pair costs under Claude Code (two bare nodes).
    trivial: makeClaudeBox(api.url, graphiti.url),
    settings: makeClaudeBox(api.url, graphiti.url),
    // Our hooks with the background worker off: its share of the difference (it competes for the CPU).
    noWorker: makeClaudeBox(api.url, graphiti.url, { GMS_WORKER_DISABLED: '1' }),
    // The plugin's yardstick: a plugin whose two hooks are bare nodes (Claude Code's plugin machinery).
    trivialPlugin: makeClaudeBox(api.url, graphiti.url),
    plugin: makeClaudeBox(api.url, graphiti.url),
  };
  try {
    if (boxes.settings.gms(['install', '--scope', 'user']).code !== 0 || boxes.noWorker.gms(['install', '--scope', 'user']).code !== 0) throw new Error('install failed');
    const bare = (event: string) => [{ ...(event === 'SessionStart' ? { matcher: 'startup|clear|compact' } : {}), hooks: [{ type: 'command', command: 'node -e ""', timeout: 10 }] }];
    const hooksFile = { hooks: { SessionStart: bare('SessionStart'), Stop: bare('Stop') } };
    writeFileSync(join(boxes.trivial.claudeDir, 'settings.json'), JSON.stringify(hooksFile));
    const installPlugin = (box: ClaudeBox, marketplace: string, name: string) => {
      const run = (args: string[]) => spawnSync(claudeBinary(), args, { cwd: box.project, env: box.env, stdio: 'ignore' }).status;
      if (run(['plugin', 'marketplace', 'add', marketplace]) !== 0 || run(['plugin', 'install', `${name}@${name}`]) !== 0) throw new Error(`plugin install failed (${name})`);
    };
    installPlugin(boxes.plugin, ROOT, 'graphiti-memory-sync');
    installPlugin(boxes.trivialPlugin, trivialMarketplace(boxes.trivialPlugin.root, hooksFile), 'bare-hooks');
    const samples: Record<keyof typeof boxes, number[]> = { none: [], trivial: [], settings: [], noWorker: [], trivialPlugin: [], plugin: [] };
    // One warm-up round (first runs write Claude Code's own files and our context cache).
    for (let i = 0; i <= runs; i++) {
      for (const key of Object.keys(boxes) as Array<keyof typeof boxes>) {
        const r = await boxes[key].claude(['-p', 'hello']);
        if (r.code !== 0) throw new Error(`claude -p failed (${key}): ${r.stderr}`);
        if (i > 0) samples[key].push(r.ms);
      }
    }
    const none = median(samples.none);
    const trivial = median(samples.trivial);
    const settings = median(samples.settings);
    const noWorker = median(samples.noWorker);
    const trivialPlugin = median(samples.trivialPlugin);
    const plugin = median(samples.plugin);
    const delta = (v: number) => `${v - none >= 0 ? '+' : ''}${Math.round(v - none)} ms vs no hooks (median of ${runs})`;
    return [
      { name: 'claude -p hello, no hooks', value: none, unit: 'ms' },
      { name: 'claude -p hello, two bare `node -e ""` hooks (SessionStart + Stop)', value: trivial, unit: 'ms', baseline: none, baselineName: 'no hooks', note: `${delta(trivial)}: what Claude Code charges for any two hooks` },
      { name: 'claude -p hello, our hooks with the worker off', value: noWorker, unit: 'ms', baseline: none, baselineName: 'no hooks', note: delta(noWorker) },
      { name: 'claude -p hello, install --scope user (SessionStart + Stop)', value: settings, unit: 'ms', baseline: none, baselineName: 'no hooks', note: `${delta(settings)}; ${Math.round(settings - trivial)} ms over two bare hooks` },
      { name: 'claude -p hello, a plugin with two bare `node -e ""` hooks', value: trivialPlugin, unit: 'ms', baseline: none, baselineName: 'no hooks', note: `${delta(trivialPlugin)}: what Claude Code charges for any such plugin` },
      { name: 'claude -p hello, plugin (directory marketplace)', value: plugin, unit: 'ms', baseline: none, baselineName: 'no hooks', note: `${delta(plugin)}; ${Math.round(plugin - trivialPlugin)} ms over the bare-hooks plugin` },
    ];
  } finally {
    for (const b of Object.values(boxes)) await b.cleanup();
    graphiti.child.kill('SIGTERM');
    await api.close();
  }
}
