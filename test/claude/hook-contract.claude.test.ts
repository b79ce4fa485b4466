/**
 * The hook contract our hooks are written against (src/hooks/hook-io.ts), measured on the REAL Claude
 * Code CLI of each pinned generation (scripts/test/claude-code.mjs), against a loopback FAKE Anthropic
 * API: a probe hook records what Claude Code gives a SessionStart and a Stop hook, and prints an
 * additionalContext of a chosen length. A generation that changes the cap or the payload fails here,
 * by name, before users see a cut block or a hook that reads a field that moved.
 * `npm run test:claude` (not in `vitest run`).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_OUTPUT_CHARS, parseHookInput } from '../../src/hooks/hook-io.js';
import { startFakeAnthropic, type FakeAnthropic } from './fake-anthropic.js';
import { hookErrors, injectedContexts, makeClaudeBox, type ClaudeBox } from './harness.js';
// @ts-expect-error plain ESM script without types
import { CLAUDE_CODE_VERSION } from '../../scripts/test/claude-code.mjs';

/** Records its stdin and Claude Code's variables; at SessionStart prints PROBE_CHARS characters of additionalContext. */
const PROBE = `
import { appendFileSync, readFileSync } from 'node:fs';
const event = process.argv[2];
appendFileSync(process.env.PROBE_RECORD, JSON.stringify({ event, stdin: readFileSync(0, 'utf8'), projectDir: process.env.CLAUDE_PROJECT_DIR }) + '\\n');
const n = Number(process.env.PROBE_CHARS || 0);
if (event === 'SessionStart' && n > 0) {
  process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'BEGIN' + 'x'.repeat(n - 8) + 'END' } }));
}
`;

let api: FakeAnthropic;
let box: ClaudeBox;
let runs = 0;

beforeAll(async () => {
  api = await startFakeAnthropic();
  // No Graphiti here: only the probe hook runs.
  box = makeClaudeBox(api.url, 'http://127.0.0.1:9/mcp');
  const probe = join(box.root, 'probe.mjs');
  writeFileSync(probe, PROBE);
  const hook = (event: string) => [{ hooks: [{ type: 'command', command: `node ${probe} ${event}`, timeout: 10 }] }];
  writeFileSync(join(box.claudeDir, 'settings.json'), JSON.stringify({ hooks: { SessionStart: hook('SessionStart'), Stop: hook('Stop') } }));
});

afterAll(async () => {
  await box?.cleanup();
  await api?.close();
});

/** One `claude -p hello` with the probe printing `chars` characters; what the model got and what the hooks got. */
async function session(chars: number) {
  const record = join(box.root, `record-${++runs}.jsonl`);
  const run = await box.claude(['-p', 'hello'], { env: { PROBE_CHARS: String(chars), PROBE_RECORD: record } });
  const records = existsSync(record)
    ? readFileSync(record, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { event: string; stdin: string; projectDir: string })
    : [];
  return { run, contexts: injectedContexts(api.requests[api.requests.length - 1] as Record<string, unknown>), records };
}

describe(`real Claude Code ${CLAUDE_CODE_VERSION}: the hook contract of src/hooks/hook-io.ts (fake Anthropic API)`, () => {
  it(`additionalContext of MAX_OUTPUT_CHARS (${MAX_OUTPUT_CHARS}) characters reaches the model whole; one more and Claude Code puts a preview in its place`, async () => {
    const whole = await session(MAX_OUTPUT_CHARS);
    expect(whole.run.code).toBe(0);
    expect(hookErrors(whole.run.debug)).toEqual([]);
    expect(whole.contexts).toHaveLength(1);
    expect(whole.contexts[0]).toContain(`BEGIN${'x'.repeat(MAX_OUTPUT_CHARS - 8)}END`);

    const over = await session(MAX_OUTPUT_CHARS + 1);
    expect(over.run.code).toBe(0);
    expect(over.contexts).toHaveLength(1);
    expect(over.contexts[0]).toMatch(/^<persisted-output>\nOutput too large/);
    expect(over.contexts[0]).not.toContain('xEND');
  });

  it('SessionStart and Stop get every field we read, with the type we read it as, and CLAUDE_PROJECT_DIR', async () => {
    const { run, records } = await session(0);
    expect(run.code).toBe(0);
    expect(records.map((r) => r.event)).toEqual(['SessionStart', 'Stop']);
    const [start, stop] = records.map((r) => ({ ...parseHookInput(r.stdin, '/nowhere'), projectDir: r.projectDir }));
    expect(start).toMatchObject({ problem: undefined, cwd: box.project, source: 'startup', projectDir: box.project });
    expect(start?.input).toMatchObject({ hook_event_name: 'SessionStart', session_id: expect.any(String), transcript_path: expect.any(String) });
    expect(stop).toMatchObject({ problem: undefined, cwd: box.project, projectDir: box.project });
    expect(stop?.input).toMatchObject({ hook_event_name: 'Stop', session_id: start?.input.session_id, stop_hook_active: false, last_assistant_message: expect.any(String) });
  });
});
