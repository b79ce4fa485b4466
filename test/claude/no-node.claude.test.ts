/**
 * The REAL Claude Code CLI started with a PATH that has no `node`: Claude Code installed as its
 * native binary on a machine without Node, or started by a desktop launcher or an IDE whose PATH
 * lost nvm's node. Our hook commands used to fail there with the shell's "node: not found"
 * (exit 127): a hook error in every session, and memory that silently stopped syncing. Now every
 * session ends with exit 0 and no hook error, in `claude -p` (debug log, stream-json) and in the
 * interactive UI; the SessionStart hook's output is the one `systemMessage` that says what is
 * wrong and the next step, and the interactive UI shows it; Stop stays quiet. Once node is on
 * the PATH again (here through `env.PATH` in settings.json, the step the message names) the same
 * entries run the hooks. Our CLI itself is started by the absolute path of this Node.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NODE_MISSING_MESSAGE } from '../../src/lib/install/node-guard.js';
import type { GraphitiTestServer } from '../support/graphiti-server.js';
import type { FakeAnthropic } from './fake-anthropic.js';
import { useClaudeWorld } from './use-claude-world.js';
import { hookErrors, hookResponses, hookRuns, hookStarts, makeClaudeBox, pathWithoutNode, ROOT, type ClaudeBox, type ClaudeRun } from './harness.js';

const MEMORY = '---\nname: queue decision\ndescription: which queue the jobs use\ntype: project\n---\n# Queue\n\nWe decided to use the shared queue for background jobs.\n';
const STREAM = ['--output-format', 'stream-json', '--verbose'];
const TOLD = `${JSON.stringify({ systemMessage: NODE_MISSING_MESSAGE })}\n`;

let api: FakeAnthropic;
let graphiti: GraphitiTestServer;
let box: ClaudeBox;

useClaudeWorld(MEMORY, (w) => {
  ({ api, graphiti, box } = w);
});

/** A `-p` stream-json session without node: exit 0, no hook error, SessionStart's output is the message, Stop's nothing. */
function expectTold(run: ClaudeRun): void {
  expect({ code: run.code, stderr: run.stderr, errors: hookErrors(run.debug) }).toEqual({ code: 0, stderr: '', errors: [] });
  expect(hookRuns(run.debug).map((r) => [r.event, r.status])).toEqual([
    ['SessionStart', 0],
    ['Stop', 0],
  ]);
  expect(run.debug).not.toMatch(/node: not found|command not found/);
  // Claude Code read our output as its JSON (not as context text for the model).
  expect(run.debug).toContain('Successfully parsed and validated hook JSON output');
  expect(hookResponses(run.stdout)).toEqual([{ event: 'SessionStart', exitCode: 0, outcome: 'success', output: TOLD }]);
  const result = run.stdout.split('\n').find((l) => l.includes('"type":"result"'));
  expect(JSON.parse(result ?? '{}')).toMatchObject({ is_error: false, result: 'OK' });
}

/** settings.json's env block naming the PATH Claude Code gives everything it runs: the step the message names. */
function nameNodeInSettings(b: ClaudeBox, path: string): void {
  const file = join(b.claudeDir, 'settings.json');
  const settings = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  writeFileSync(file, JSON.stringify({ ...settings, env: { PATH: `${dirname(process.execPath)}${delimiter}${path}` } }, null, 2));
}

describe('real Claude Code CLI: no node on the PATH it gives its hooks', () => {
  it('install --scope user: no hook error, exit 0, the message as SessionStart output, Stop quiet; with node named in settings.json env.PATH the hooks run', async () => {
    expect(box.gms(['install', '--scope', 'user']).code).toBe(0);
    const noNode = pathWithoutNode(box.root);
    expectTold(await box.claude(['-p', 'hello', ...STREAM], { env: { PATH: noNode } }));
    expect(hookStarts(box)).toBe(0);

    nameNodeInSettings(box, noNode);
    const after = await box.claude(['-p', 'hello', ...STREAM], { env: { PATH: noNode } });
    expect({ code: after.code, errors: hookErrors(after.debug) }).toEqual({ code: 0, errors: [] });
    expect(hookStarts(box)).toBe(1);
    expect(after.stdout).not.toContain('graphiti-memory-sync is off');
  }, 120_000);

  it('the plugin (directory marketplace): no hook error, exit 0, the message as SessionStart output', async () => {
    expect(box.claudeSync(['plugin', 'marketplace', 'add', ROOT]).code).toBe(0);
    expect(box.claudeSync(['plugin', 'install', 'graphiti-memory-sync@graphiti-memory-sync']).code).toBe(0);
    const run = await box.claude(['-p', 'hello', ...STREAM], { env: { PATH: pathWithoutNode(box.root) } });
    expectTold(run);
    expect(hookRuns(run.debug)[0]?.command).toContain('/hooks/session-start.cjs');
    expect(hookStarts(box)).toBe(0);
  }, 180_000);

  // util-linux `script` gives the pseudo-terminal (Linux; macOS's script takes other arguments).
  it.runIf(process.platform === 'linux')('the interactive UI shows the message at the session start, with no hook error', async () => {
    const scratch = makeClaudeBox(api.url, graphiti.url);
    const noNode = makeClaudeBox(api.url, graphiti.url, { PATH: pathWithoutNode(scratch.root) });
    try {
      expect(noNode.gms(['install', '--scope', 'user']).code).toBe(0);
      const session = noNode.claudeInteractive([]);
      let shown = '';
      try {
        await session.shows(/❯/, 'the prompt', 60_000);
        await session.shows(/graphiti-memory-sync is off/, 'the message', 30_000);
        shown = session.screen();
      } finally {
        const run = await session.close();
        expect(hookErrors(run.debug)).toEqual([]);
        expect(hookRuns(run.debug).find((r) => r.event === 'SessionStart')?.status).toBe(0);
        expect(run.debug).not.toMatch(/node: not found/);
      }
      // The next step, as the user reads it (the TUI wraps lines: compare without the breaks).
      expect(shown.replace(/\s+/g, ' ')).toContain('Install Node.js >= 20.19');
      expect(hookStarts(noNode)).toBe(0);
    } finally {
      await noNode.cleanup();
      await scratch.cleanup();
    }
  }, 150_000);
});
