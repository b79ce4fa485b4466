/**
 * The REAL Claude Code CLI whose hooks find a node older than we need first on their PATH: the
 * apt node of Ubuntu 24.04 (18.x) or 22.04 (12.x), an nvm default left at 20.18. Before the
 * version gate, Node 18 ran the hooks as if supported and said nothing, and Node 12 failed them
 * with a SyntaxError: a hook error in every session. Now every session ends with exit 0 and no
 * hook error; SessionStart's output is the one `systemMessage` naming the node found, its version,
 * what is needed and the next step; Stop stays quiet; the hook itself never runs. The old nodes
 * are real binaries from the npm registry (scripts/test/old-node.mjs, pinned, installed once from
 * committed hashed lockfiles, as this suite installs the CLI itself). Our CLI is started by this Node's absolute path.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { nodeTooOldOutput } from '../../src/lib/install/node-guard.js';
// @ts-expect-error plain ESM script without types
import { ensureOldNode } from '../../scripts/test/old-node.mjs';
import { useClaudeWorld } from './use-claude-world.js';
import { hookErrors, hookResponses, hookRuns, hookStarts, pathWithoutNode, ROOT, type ClaudeBox, type ClaudeRun } from './harness.js';

const MEMORY = '---\nname: queue decision\ndescription: which queue the jobs use\ntype: project\n---\n# Queue\n\nWe decided to use the shared queue for background jobs.\n';
const STREAM = ['--output-format', 'stream-json', '--verbose'];

let box: ClaudeBox;
useClaudeWorld(MEMORY, (w) => {
  ({ box } = w);
});

interface OldNode {
  version: string;
  path: string;
}
const old: Record<string, OldNode> = {};
beforeAll(() => {
  for (const version of ['12.22.12', '18.20.8']) old[version] = ensureOldNode(version) as OldNode;
}, 180_000);

/**
 * A directory marketplace holding the plugin as this source builds it (test/install/plugin.test.ts
 * holds the committed bundles to the same build), so this test speaks of the source.
 */
function marketplaceFromSource(into: string): string {
  cpSync(join(ROOT, '.claude-plugin'), join(into, '.claude-plugin'), { recursive: true });
  cpSync(join(ROOT, 'plugin'), join(into, 'plugin'), { recursive: true });
  const build = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build', 'bundle-hooks.mjs'), '--plugin', join(into, 'plugin')], { cwd: ROOT, encoding: 'utf8' });
  expect(build.status, build.stderr).toBe(0);
  return into;
}

/** A `-p` stream-json session on an old node: exit 0, no hook error, SessionStart's output is the message, Stop's nothing. */
function expectTold(run: ClaudeRun, node: OldNode): void {
  expect({ code: run.code, stderr: run.stderr, errors: hookErrors(run.debug) }).toEqual({ code: 0, stderr: '', errors: [] });
  expect(hookRuns(run.debug).map((r) => [r.event, r.status])).toEqual([
    ['SessionStart', 0],
    ['Stop', 0],
  ]);
  expect(run.debug).not.toMatch(/SyntaxError/);
  // Claude Code read our output as its JSON (not as context text for the model).
  expect(run.debug).toContain('Successfully parsed and validated hook JSON output');
  expect(hookResponses(run.stdout)).toEqual([{ event: 'SessionStart', exitCode: 0, outcome: 'success', output: `${nodeTooOldOutput(node.version, realpathSync(node.path))}\n` }]);
  const result = run.stdout.split('\n').find((l) => l.includes('"type":"result"'));
  expect(JSON.parse(result ?? '{}')).toMatchObject({ is_error: false, result: 'OK' });
}

describe('real Claude Code CLI: a node older than we need first on the PATH it gives its hooks', () => {
  it('install --scope user, on Node 18.20.8 and 12.22.12: no hook error, exit 0, the message as SessionStart output, Stop quiet, the hook never ran', async () => {
    expect(box.gms(['install', '--scope', 'user']).code).toBe(0);
    for (const node of [old['18.20.8'], old['12.22.12']] as OldNode[]) {
      expectTold(await box.claude(['-p', 'hello', ...STREAM], { env: { PATH: pathWithoutNode(`${box.root}/${node.version}`, node.path) } }), node);
    }
    expect(hookStarts(box)).toBe(0);
  }, 120_000);

  it('the plugin (directory marketplace), on Node 18.20.8: no hook error, exit 0, the message as SessionStart output', async () => {
    expect(box.claudeSync(['plugin', 'marketplace', 'add', marketplaceFromSource(join(box.root, 'gms-market'))]).code).toBe(0);
    expect(box.claudeSync(['plugin', 'install', 'graphiti-memory-sync@graphiti-memory-sync']).code).toBe(0);
    const node = old['18.20.8'] as OldNode;
    const run = await box.claude(['-p', 'hello', ...STREAM], { env: { PATH: pathWithoutNode(box.root, node.path) } });
    expectTold(run, node);
    expect(hookRuns(run.debug)[0]?.command).toContain('/hooks/session-start.cjs');
    expect(hookStarts(box)).toBe(0);
  }, 180_000);
});
