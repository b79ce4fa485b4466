/**
 * The built hooks behind the exact command line `install --scope project` records, run as Claude
 * Code runs it: through `sh -c`, with `$CLAUDE_PROJECT_DIR` set and the event on stdin. With the
 * package installed in the project, the command gives what the hook file gives run directly (the
 * session's context, exit 0, nothing on stderr); in a teammate's clone opened before `npm install`
 * (no node_modules) it exits 0 and prints nothing, where the bare `node <file>` failed with Node's
 * "Cannot find module" (exit 1): a hook error in every session. The installed case needs the build
 * (`npm test` runs it in its "hooks from dist" pass, GMS_HOOK_RUNNER=dist).
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeContextCache } from '../../src/lib/context/cache.js';
import { claudeProjectKey } from '../../src/lib/context/project.js';
import { runInstall } from '../../src/lib/install/install.js';
import { makeHookSandbox, parseHookStdout, type HookSandbox } from '../helpers/hook-runner.js';
import { REPO_ROOT as REPO } from '../support/paths.js';

const BUILT = process.env.GMS_HOOK_RUNNER === 'dist';
const CACHED = 'Knowledge graph facts for proj (from Graphiti, group main):\n- The billing queue retries failed invoices every 6 hours (2026-01-04)';

let sb: HookSandbox;
let project: string;
let pkg: string;

beforeEach(() => {
  sb = makeHookSandbox({ GMS_WORKER_DISABLED: '1', MADEINOZ_KNOWLEDGE_MCP_URL: 'http://127.0.0.1:9/mcp' });
  project = join(sb.root, 'team app');
  mkdirSync(join(project, '.git'), { recursive: true });
  // The project's dev dependency, as `npm install -D graphiti-memory-sync` leaves it (the built hooks, when there are).
  pkg = join(project, 'node_modules', 'graphiti-memory-sync');
  mkdirSync(join(pkg, 'dist', 'hooks'), { recursive: true });
  if (BUILT) {
    cpSync(join(process.env.GMS_HOOK_DIST ?? join(REPO, 'dist'), 'hooks'), join(pkg, 'dist', 'hooks'), { recursive: true });
    symlinkSync(join(REPO, 'node_modules'), join(pkg, 'node_modules'));
  }
});
afterEach(() => sb.cleanup());

/** The commands `install --scope project` recorded in the project's .claude/settings.json. */
async function recorded(): Promise<{ SessionStart: string; Stop: string }> {
  await runInstall({ scope: 'project', cwd: project, home: join(sb.root, 'home'), env: sb.env, packageRoot: pkg, stateDir: sb.stateDir });
  const hooks = (JSON.parse(readFileSync(join(project, '.claude', 'settings.json'), 'utf8')) as { hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>> }).hooks;
  return { SessionStart: hooks.SessionStart?.[0]?.hooks[0]?.command as string, Stop: hooks.Stop?.[0]?.hooks[0]?.command as string };
}

const event = (name: 'SessionStart' | 'Stop', session: string, cwd: string) =>
  JSON.stringify({ session_id: session, transcript_path: '/dev/null', cwd, hook_event_name: name, ...(name === 'SessionStart' ? { source: 'startup' } : { stop_hook_active: false }) });

/** A command line as Claude Code runs it on Linux and macOS. */
function sh(command: string, cwd: string, input: string) {
  const r = spawnSync('/bin/sh', ['-c', command], { cwd, env: { ...sb.env, CLAUDE_PROJECT_DIR: cwd }, input, encoding: 'utf8', timeout: 15_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe.runIf(process.platform !== 'win32')('the recorded project-scope command, run as Claude Code runs it', () => {
  it.runIf(BUILT)('package installed: the same as running the hook file, the context on stdout, exit 0', async () => {
    await writeContextCache(sb.stateDir, { version: 1, builtAt: new Date().toISOString(), project: 'proj', key: claudeProjectKey(project), root: project, groupIds: ['main'], text: CACHED, format: 'lines', facts: 1, nodes: 0 });
    const { SessionStart, Stop } = await recorded();
    const ran = sh(SessionStart, project, event('SessionStart', 's-1', project));
    expect(ran).toMatchObject({ code: 0, stderr: '' });
    expect(parseHookStdout(ran.stdout)?.additionalContext).toBe(CACHED);
    const file = join(pkg, 'dist', 'hooks', 'session-start.js');
    const direct = spawnSync(process.execPath, [file, '--graphiti-memory-sync'], { cwd: project, env: { ...sb.env, CLAUDE_PROJECT_DIR: project }, input: event('SessionStart', 's-2', project), encoding: 'utf8' });
    expect({ code: direct.status, stdout: direct.stdout, stderr: direct.stderr }).toEqual(ran);
    expect(sh(Stop, project, event('Stop', 's-1', project))).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(sb.logs().filter((l) => l.msg === 'session start')).toHaveLength(2);
  });

  it("a teammate's clone before npm install (no node_modules): exit 0, nothing printed, for both hooks", async () => {
    const { SessionStart, Stop } = await recorded();
    const clone = join(sb.root, 'teammate', 'team app');
    cpSync(project, clone, { recursive: true, filter: (src) => !src.includes('node_modules') });
    const bare = SessionStart.replace(/^.*; exec /, '');
    // What the command earlier versions recorded did there.
    expect(sh(bare, clone, event('SessionStart', 's-1', clone))).toMatchObject({ code: 1, stderr: expect.stringContaining('Cannot find module') });
    expect(sh(SessionStart, clone, event('SessionStart', 's-1', clone))).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(sh(Stop, clone, event('Stop', 's-1', clone))).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(sb.logs()).toEqual([]);
  });
});
