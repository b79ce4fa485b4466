/**
 * The REAL Claude Code CLI with our hook entries in place but what they name gone, as users meet
 * it in their first month: a teammate opens a clone whose committed `.claude/settings.json` holds
 * our `--scope project` hooks before running `npm install`; the copy a user- or local-scope entry
 * names was moved or deleted; the global package was removed with `npm rm -g` (its bin gone from
 * PATH) without `uninstall`. Every session must still end with exit 0 and no hook error, neither in
 * Claude Code's debug log (where -p shows one) nor in the stream a client reads
 * (`hook_response` with `outcome: "error"`); `status` names the entry and the next step; once the
 * package is back the same entries run the hooks again. Fake Anthropic API, our Graphiti-shaped
 * test server.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readLogLines } from '../support/json-lines.js';
import type { GraphitiTestServer } from '../support/graphiti-server.js';
import type { FakeAnthropic } from './fake-anthropic.js';
import { useClaudeWorld } from './use-claude-world.js';
import { CLEAN_SESSION, hookOutcome, hookResponses, hookRuns, makeClaudeBox, type ClaudeBox, type ClaudeRun, vendorInto, waitForEvent } from './harness.js';

const MEMORY = '---\nname: queue decision\ndescription: which queue the jobs use\ntype: project\n---\n# Queue\n\nWe decided to use the shared queue for background jobs.\n';

let api: FakeAnthropic;
let graphiti: GraphitiTestServer;
let box: ClaudeBox;

useClaudeWorld(MEMORY, (w) => {
  ({ api, graphiti, box } = w);
});

const STREAM = ['--output-format', 'stream-json', '--verbose'];

/** How many times our SessionStart hook itself ran in this sandbox (its log line). */
function hookStarts(b: ClaudeBox): number {
  const log = join(b.stateDir, 'logs', 'graphiti-memory-sync.log');
  return readLogLines(log).filter((l) => l.msg === 'session start').length;
}

/** A session the missing target did not hurt: exit 0, both hooks finished with status 0, no error logged or streamed, the answer given. */
function expectUnhurt(run: ClaudeRun): void {
  expect(hookOutcome(run)).toEqual(CLEAN_SESSION);
  expect(run.debug).not.toMatch(/Cannot find module|command not found/);
  const responses = hookResponses(run.stdout);
  expect(responses.length).toBeGreaterThan(0);
  for (const r of responses) expect(r).toEqual({ event: r.event, exitCode: 0, outcome: 'success', output: '' });
  const result = run.stdout.split('\n').find((l) => l.includes('"type":"result"'));
  expect(JSON.parse(result ?? '{}')).toMatchObject({ is_error: false, result: 'OK' });
}

describe('real Claude Code CLI: our hook entries name something that is gone', () => {
  it("--scope project in a teammate's clone before npm install: no hook error, exit 0; status says to run npm install; after it the hooks run", async () => {
    const cli = vendorInto(box.project);
    const install = box.gms(['install', '--scope', 'project'], { cli });
    expect(install.code).toBe(0);
    // The teammate's clone: the committed files, no node_modules yet.
    const clone = join(box.root, 'teammate', 'proj');
    cpSync(box.project, clone, { recursive: true, verbatimSymlinks: true, filter: (src) => !src.endsWith('node_modules') });
    expect(existsSync(join(clone, 'node_modules'))).toBe(false);

    const before = await box.claude(['-p', 'hello', ...STREAM], { cwd: clone });
    expectUnhurt(before);
    expect(hookStarts(box)).toBe(0);

    const status = box.gms(['status'], { cwd: clone });
    expect(status.stdout).toContain(`Hooks (project scope, ${join(clone, '.claude', 'settings.json')}) cannot run: ${join(clone, 'node_modules', 'graphiti-memory-sync', 'dist', 'hooks', 'session-start.js')} does not exist: run "npm install" in ${clone}`);

    // Their `npm install`: the same entries now run the hooks.
    vendorInto(clone);
    const after = await box.claude(['-p', 'hello', ...STREAM], { cwd: clone });
    expectUnhurt(after);
    expect(hookStarts(box)).toBe(1);
    expect(hookRuns(after.debug)[0]?.command).toContain('$CLAUDE_PROJECT_DIR/node_modules/graphiti-memory-sync/dist/hooks/session-start.js');
  }, 120_000);

  it('--scope user from a copy since deleted, and --scope local through the bin of a global install since removed: no hook error, exit 0', async () => {
    // A copy of the package outside the project (a checkout the user later deleted).
    const elsewhere = join(box.root, 'tools');
    const copy = vendorInto(elsewhere);
    expect(box.gms(['install', '--scope', 'user'], { cli: copy }).code).toBe(0);
    rmSync(elsewhere, { recursive: true });
    expectUnhurt(await box.claude(['-p', 'hello', ...STREAM]));
    expect(box.gms(['status']).stdout).toMatch(/Hooks \(user scope, .*settings\.json\) cannot run: .*tools\/node_modules\/graphiti-memory-sync\/dist\/hooks\/session-start\.js does not exist \(that copy moved or was removed\)/);
    expect(box.gms(['uninstall', '--scope', 'user']).code).toBe(0);

    // A global install: its bin on PATH, which install records by name.
    const prefix = join(box.root, 'prefix');
    const pkg = join(prefix, 'lib', 'node_modules');
    mkdirSync(pkg, { recursive: true });
    const globalCli = vendorInto(join(prefix, 'lib'));
    mkdirSync(join(prefix, 'bin'));
    symlinkSync(join(pkg, 'graphiti-memory-sync', 'dist', 'hooks', 'hook.js'), join(prefix, 'bin', 'graphiti-memory-sync-hook'));
    const withBin = makeClaudeBox(api.url, graphiti.url, { PATH: [join(prefix, 'bin'), process.env.PATH ?? ''].join(delimiter) });
    try {
      expect(withBin.gms(['install', '--scope', 'local'], { cli: globalCli }).code).toBe(0);
      expect(readFileSync(join(withBin.project, '.claude', 'settings.local.json'), 'utf8')).toContain('exec graphiti-memory-sync-hook session-start');
      expectUnhurt(await withBin.claude(['-p', 'hello', ...STREAM]));
      expect(hookStarts(withBin)).toBe(1);
      // npm rm -g: the package and its bin gone, the entries left behind.
      rmSync(prefix, { recursive: true });
      expectUnhurt(await withBin.claude(['-p', 'hello', ...STREAM]));
      expect(hookStarts(withBin)).toBe(1);
      expect(withBin.gms(['status']).stdout).toMatch(/Hooks \(local scope, .*settings\.local\.json\) cannot run: graphiti-memory-sync-hook is not on your PATH/);
    } finally {
      await withBin.cleanup();
    }
  }, 120_000);

  it('a global install under nvm, after nvm switched to another Node with no install of its own: the hooks run from the install they were made from (LAUNCHER_OR_ITS_FILE), and what the session writes reaches the graph', async () => {
    // npm install -g under Node 20: the package in that version's lib/node_modules, its bin beside node.
    const v20 = join(box.root, 'nvm', 'versions', 'node', 'v20.19.0');
    const globalCli = vendorInto(join(v20, 'lib'));
    mkdirSync(join(v20, 'bin'));
    symlinkSync(join(v20, 'lib', 'node_modules', 'graphiti-memory-sync', 'dist', 'hooks', 'hook.js'), join(v20, 'bin', 'graphiti-memory-sync-hook'));
    const underNode20 = makeClaudeBox(api.url, graphiti.url, { PATH: [join(v20, 'bin'), process.env.PATH ?? ''].join(delimiter) });
    try {
      expect(underNode20.gms(['install', '--scope', 'user'], { cli: globalCli }).code).toBe(0);
      expect(readFileSync(join(underNode20.claudeDir, 'settings.json'), 'utf8')).toContain('exec graphiti-memory-sync-hook session-start');
      // "nvm use 22" before Claude Code starts: a node on its PATH, no graphiti-memory-sync-hook.
      const afterSwitch = { PATH: process.env.PATH ?? '' };
      const run = await underNode20.claude(['-p', `WRITE ${join(underNode20.memoryDir, 'queue.md')}`, '--allowedTools', 'Write'], { env: afterSwitch });
      expect(hookOutcome(run)).toEqual(CLEAN_SESSION);
      expect(hookStarts(underNode20)).toBe(1);
      await waitForEvent(graphiti.events, ['processed', 'call'], () => graphiti.episodes().some((e) => e.content.includes('shared queue for background jobs')), 'the written memory as an episode', 60_000);
    } finally {
      await underNode20.cleanup();
    }
  }, 120_000);
});
