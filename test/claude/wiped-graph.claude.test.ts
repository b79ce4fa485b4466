/**
 * EMPTIED_GRAPH (sync/force-look.ts) with the REAL Claude Code CLI against a loopback FAKE
 * Anthropic API (stand-in: the real API cannot be reached here) and the loopback Graphiti test
 * server, restarted without its data (`restart({ data: 'lost' })`, what the real server does then:
 * test/real-graphiti/wiped-server.test.ts). What the model's request shows: the session after the
 * worker's empty refresh carries one line naming `sync --force`, labelled as graphiti-memory-sync's
 * note, within Claude Code's 10,000-character cap; once `sync --force` put the note back, the next
 * refresh clears it and the knowledge comes back instead. `npm run test:claude`.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readContextCache } from '../../src/lib/context/cache.js';
import { readGraphProblem } from '../../src/lib/context/graph-problem.js';
import { claudeProjectKey } from '../../src/lib/context/project.js';
import { waitForCondition } from '../helpers/wait-for-condition.js';
import type { GraphitiTestServer } from '../support/graphiti-server.js';
import type { FakeAnthropic } from './fake-anthropic.js';
import { useClaudeWorld } from './use-claude-world.js';
import { hookErrors, injectedContexts, ROOT, type ClaudeBox } from './harness.js';

const MEMORY = '---\nname: queue decision\ndescription: which queue the jobs use\ntype: project\n---\n# Queue\n\nWe decided to use the shared queue for background jobs.\n';
const OWN_LINE = '[own] We decided to use the shared queue';

let api: FakeAnthropic;
let graphiti: GraphitiTestServer;
let box: ClaudeBox;

useClaudeWorld(MEMORY, (w) => {
  ({ api, graphiti, box } = w);
});

/** The one SessionStart context of the last request the model got. */
function lastContext(): string {
  const contexts = injectedContexts(api.requests[api.requests.length - 1] as Record<string, unknown>);
  expect(contexts).toHaveLength(1);
  return contexts[0] as string;
}

/** `node dist/cli.js <args>` without blocking this process: the test Graphiti server answers from it (box.gms is spawnSync). */
function gmsAsync(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(process.execPath, [join(ROOT, 'dist', 'cli.js'), ...args], { cwd: box.project, env: box.env, encoding: 'utf8' }, (error, stdout, stderr) => {
      done({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout, stderr });
    });
  });
}

const cacheText = () => readContextCache(box.stateDir, claudeProjectKey(box.project))?.text ?? '';

describe('real Claude Code CLI, fake Anthropic API (stand-in LLM): a graph that came back empty is told once, then gone', () => {
  it("the session after the worker's empty refresh shows one labelled line naming sync --force within the cap; after sync --force and a refresh that works, the knowledge instead", async () => {
    expect(box.gms(['install', '--scope', 'user']).code).toBe(0);
    const note = join(box.memoryDir, 'queue.md');
    expect((await box.claude(['-p', `WRITE ${note}`, '--allowedTools', 'Write'])).code).toBe(0);
    // Confirmed and in the context as our own (the next session's worker confirms it: context.claude.test.ts).
    await waitForCondition(box.stateDir, () => cacheText().includes('We decided to use the shared queue'), 30_000, 'context cache with our note');
    expect((await box.claude(['-p', 'hello'])).code).toBe(0);
    await waitForCondition(box.stateDir, () => cacheText().includes(OWN_LINE), 30_000, 'context cache with our note tagged own');

    // The server comes back without its data behind the same address.
    await graphiti.restart({ data: 'lost' });
    expect(graphiti.episodes('main')).toEqual([]);
    const noticing = await box.claude(['-p', 'hello']);
    expect(noticing.code).toBe(0);
    expect(lastContext()).not.toContain('sync --force');
    await waitForCondition(box.stateDir, () => readGraphProblem(box.stateDir)?.kind === 'emptied', 30_000, "the worker's empty refresh to record the emptied graph");

    const told = await box.claude(['-p', 'hello again']);
    expect(told.code).toBe(0);
    expect(told.stderr).toBe('');
    expect(hookErrors(told.debug)).toEqual([]);
    const block = lastContext();
    // Claude Code's own cap on a hook's output (claude-code-hooks.md), not our constant.
    expect(block.length).toBeLessThanOrEqual(10_000);
    const lines = block.split('\n').filter((l) => l.includes('sync --force'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Note for the user from graphiti-memory-sync: since .* UTC the knowledge graph \(Graphiti\) holds none of the memory notes this machine sent to it \(1 note in group main\)/);
    expect(lines[0]).toContain('`node ');
    expect(lines[0]).toContain('sync --force` sends them again, once each.');
    // Nothing was lost here: the note stays on disk for --force to send.
    expect(existsSync(note)).toBe(true);

    // The told session's worker may still be running on a loaded machine: `sync --force` would then
    // wait for it and say so on stderr (right for a user, but not what this step checks).
    await box.workersDone();
    const forced = await gmsAsync(['sync', '--force']);
    expect(forced, forced.stdout).toMatchObject({ code: 0, stderr: '' });
    expect(graphiti.episodes('main').map((e) => e.name)).toEqual(['Queue']); // the note's heading names its episode
    // The next session's worker refreshes against a graph that answers with the note again.
    expect((await box.claude(['-p', 'hello'])).code).toBe(0);
    await waitForCondition(box.stateDir, () => readGraphProblem(box.stateDir) === undefined && cacheText().includes(OWN_LINE), 30_000, 'a refresh that works to clear the problem');

    const after = await box.claude(['-p', 'hello once more']);
    expect(after.code).toBe(0);
    const back = lastContext();
    expect(back).not.toContain('sync --force');
    expect(back).not.toContain('graphiti-memory-sync:');
    expect(back).toMatch(/^- \[own\] We decided to use the shared queue for background jobs/m);
  }, 180_000);
});
