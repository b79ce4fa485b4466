/**
 * Memory written on one machine, in a session on another (issue 42), with the REAL Claude Code CLI
 * against a loopback FAKE Anthropic API and the loopback Graphiti test server: machine A (a sandbox
 * home with the repository at its own path) writes and syncs a note; machine B (the CLI's home, the
 * same repository elsewhere, linked with `link --import`) starts a session: its SessionStart hook's
 * worker pulls the note into B's memory folder, and the next session's request to the model carries
 * it (the CLI itself loads the pulled MEMORY.md index). `npm run test:claude`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensureNoteKey, formatNoteKey } from '../../src/lib/state/note-key.js';
import type { GraphitiTestServer } from '../support/graphiti-server.js';
import { waitForCondition } from '../helpers/wait-for-condition.js';
import { machine, topic, type Machine } from '../pull/homes.js';
import type { FakeAnthropic } from './fake-anthropic.js';
import { hookRuns, requestText, type ClaudeBox } from './harness.js';
import { useClaudeWorld } from './use-claude-world.js';
// @ts-expect-error plain ESM script without types
import { CLAUDE_CODE_VERSION } from '../../scripts/test/claude-code.mjs';

const REMOTE = 'git@github.com:me/app.git';
let api: FakeAnthropic;
let graphiti: GraphitiTestServer;
let box: ClaudeBox;
let a: Machine;

useClaudeWorld('unused', (w) => {
  ({ api, graphiti, box } = w);
  a = machine(graphiti, 'laptop', REMOTE);
  execFileSync('git', ['-C', box.project, 'remote', 'add', 'origin', 'https://github.com/me/app']);
  expect(box.gms(['install', '--scope', 'user']).code).toBe(0);
});

describe(`real Claude Code ${CLAUDE_CODE_VERSION}: a session on machine B starts with a memory written on machine A (fake Anthropic API)`, () => {
  it('linked with link --export/--import; B\'s session-start worker pulls the note; the next session\'s request carries it', async () => {
    try {
      const { key } = ensureNoteKey(a.config().stateDir);
      const linked = box.gms(['link', '--import'], { input: `${formatNoteKey(key)}\n` });
      expect(linked).toMatchObject({ code: 0, stderr: '' });
      a.write('ci-runner.md', topic('CI runner', 'The CI runner for Aurora is the ARM64 pool named basalt-7; x86 jobs go to ember-3.', 'Aurora CI runs on the basalt-7 ARM64 pool'));
      await a.sync();

      const first = await box.claude(['-p', 'hello']);
      expect(first.code).toBe(0);
      expect(hookRuns(first.debug).find((r) => r.event === 'SessionStart')?.status).toBe(0);
      expect(requestText(api.requests[0] as Record<string, unknown>)).not.toContain('basalt-7');
      const pulled = join(box.memoryDir, 'ci-runner.md');
      await waitForCondition(box.root, () => existsSync(pulled) && existsSync(join(box.memoryDir, 'MEMORY.md')), 60_000, 'the worker to pull the note');
      expect(readFileSync(pulled, 'utf8')).toContain('ARM64 pool named basalt-7');

      const seen = api.requests.length;
      const second = await box.claude(['-p', 'hello']);
      expect(second.code).toBe(0);
      const text = requestText(api.requests[seen] as Record<string, unknown>);
      // The CLI loaded the pulled index line itself: title, file and description, as it writes them.
      expect(text).toContain('[CI runner](ci-runner.md)');
      expect(text).toContain('Aurora CI runs on the basalt-7 ARM64 pool');
    } finally {
      a.box.cleanup();
    }
  }, 180_000);
});
