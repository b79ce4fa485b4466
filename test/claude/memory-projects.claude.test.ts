/**
 * Which projects' auto-memory switches the REAL Claude Code CLI (each pinned generation) applies to
 * which memory folder, measured against the loopback FAKE Anthropic API (fake-anthropic.ts), and
 * whether our resolver (config/claude-memory.ts) leaves out the same folders:
 * - a project only ever run with `claude -p` is not recorded in `.claude.json`; its session's
 *   transcript (`projects/<key>/<session>.jsonl`) records its `cwd` (PROJECTS_FROM_TRANSCRIPTS);
 * - a linked git worktree: its memory is the MAIN repository's folder, its switch its own local
 *   settings (MEMORY_KEY_OF_A_PROJECT);
 * - `CLAUDE_CODE_PROJECT_DIR_NAME` names the project folder (with CLAUDE_CONFIG_DIR set, and only
 *   a plain name: PROJECT_DIR_NAME_OVERRIDE);
 * - `--settings`: what a hook can see of the command line. `npm run test:claude`.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { autoMemoryFolders } from '../../src/lib/config/claude-memory.js';
import { buildConfig } from '../../src/lib/config/config.js';
import { claudeProjectKey, detectProject } from '../../src/lib/context/project.js';
import { memoryFolderNamed, type FakeAnthropic } from './fake-anthropic.js';
import type { ClaudeBox } from './harness.js';
import { useClaudeWorld } from './use-claude-world.js';
// @ts-expect-error plain ESM script without types
import { CLAUDE_CODE_VERSION } from '../../scripts/test/claude-code.mjs';

const NOTE = '---\nname: queue-decision\ndescription: which queue the jobs use\nmetadata:\n  type: project\n---\nWe decided to use the shared queue for background jobs.\n';

let api: FakeAnthropic;
let box: ClaudeBox;

useClaudeWorld(NOTE, (w) => {
  ({ api, box } = w);
});

/**
 * The memory folder the CLI names in one `-p` session run in `cwd` (none when auto memory is off): in
 * any request of the session (in a worktree the CLI sends one more, without its memory section).
 */
async function namedFolder(cwd: string, env: Record<string, string> = {}, args: string[] = []): Promise<string | undefined> {
  const before = api.requests.length;
  const run = await box.claude(['-p', 'hello', ...args], { cwd, env });
  expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
  const named = new Set(api.requests.slice(before).map((r) => memoryFolderNamed(r)?.replace(/\/$/, '')).filter((f) => f !== undefined));
  expect(named.size).toBeLessThanOrEqual(1);
  return [...named][0];
}

function localSettings(project: string, value: Record<string, unknown>): void {
  mkdirSync(join(project, '.claude'), { recursive: true });
  writeFileSync(join(project, '.claude', 'settings.local.json'), JSON.stringify(value));
}

/** The `cwd` values recorded in the transcripts of one `projects/<key>` folder. */
function transcriptCwds(key: string): string[] {
  const dir = join(box.claudeDir, 'projects', key);
  if (!existsSync(dir)) return [];
  const cwds = new Set<string>();
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.jsonl'))) {
    for (const m of readFileSync(join(dir, f), 'utf8').matchAll(/"cwd":"([^"]+)"/g)) cwds.add(m[1] as string);
  }
  return [...cwds];
}

const projectsFolder = () => autoMemoryFolders(box.env, box.claudeDir, box.env.HOME as string, box.managedDir).find((f) => f.name === 'auto-memory') ?? { leftOut: undefined };
const projectsOf = () => {
  const file = join(box.claudeDir, '.claude.json');
  return existsSync(file) ? Object.keys((JSON.parse(readFileSync(file, 'utf8')) as { projects?: object }).projects ?? {}) : [];
};

describe(`real Claude Code ${CLAUDE_CODE_VERSION}: whose switch turns which memory folder off`, () => {
  it('a project only ever run with -p: not in .claude.json, its transcript records its cwd; off in its local settings, the CLI names no folder and we leave its folder out (PROJECTS_FROM_TRANSCRIPTS)', async () => {
    const key = claudeProjectKey(box.project);
    expect(await namedFolder(box.project)).toBe(box.memoryDir);
    expect(projectsOf()).not.toContain(box.project);
    expect(transcriptCwds(key)).toEqual([box.project]);
    localSettings(box.project, { autoMemoryEnabled: false });
    expect(await namedFolder(box.project)).toBeUndefined();
    expect(projectsFolder().leftOut?.map((l) => l.key)).toEqual([key]);
  }, 120_000);

  it('a linked git worktree and a subfolder: memory in the main repository\'s folder, transcripts under their own keys; the main root\'s local settings first, then their own (LOCAL_SETTINGS_OF_A_SESSION); our hook names the folder the CLI names, and the sync leaves the folder out only when every one is off (MEMORY_KEY_OF_A_PROJECT)', async () => {
    const git = (...args: string[]) => expect(spawnSync('git', ['-C', box.project, '-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { encoding: 'utf8' }).status).toBe(0);
    git('commit', '-q', '--allow-empty', '-m', 'first');
    const worktree = join(box.root, 'wt');
    git('worktree', 'add', '-q', worktree);
    const sub = join(box.project, 'sub');
    mkdirSync(sub, { recursive: true });
    expect(await namedFolder(worktree)).toBe(box.memoryDir);
    expect(transcriptCwds(claudeProjectKey(worktree))).toEqual([worktree]);
    expect(transcriptCwds(claudeProjectKey(box.project))).toEqual([]);
    const config = buildConfig(box.env);
    const oursIn = (cwd: string) => {
      const p = detectProject(cwd, config, box.env);
      return p.memoryVia === 'disabled' ? 'none' : p.memoryDir;
    };
    const on = (v: boolean | undefined) => (v === undefined ? {} : { autoMemoryEnabled: v });
    // main, worktree, subfolder local settings -> the folder named in the worktree, the main checkout, the subfolder.
    const cases: Array<[boolean | undefined, boolean | undefined, boolean | undefined, string]> = [
      [false, undefined, undefined, 'none none none'],
      [undefined, false, undefined, 'none M M'],
      [true, false, undefined, 'M M M'],
      [false, true, undefined, 'none none none'],
      [undefined, undefined, false, 'M M none'],
      [false, undefined, true, 'none none none'],
    ];
    const cli: string[] = [];
    const ours: string[] = [];
    const expected: string[] = [];
    for (const [main, wt, inSub, measured] of cases) {
      localSettings(box.project, on(main));
      localSettings(worktree, on(wt));
      localSettings(sub, on(inSub));
      const name = `main ${main} worktree ${wt} subfolder ${inSub}`;
      const short = (f: string | undefined) => (f === undefined || f === 'none' ? 'none' : f === box.memoryDir ? 'M' : f);
      cli.push(`${name}: ${[await namedFolder(worktree), await namedFolder(box.project), await namedFolder(sub)].map(short).join(' ')}`);
      ours.push(`${name}: ${[oursIn(worktree), oursIn(box.project), oursIn(sub)].map(short).join(' ')}`);
      expected.push(`${name}: ${measured}`);
    }
    expect(cli).toEqual(expected);
    expect(ours).toEqual(cli);
    // All three sessions' folders are recorded (their transcripts); off in the worktree alone, the folder stays: the others write there.
    localSettings(box.project, {});
    localSettings(worktree, { autoMemoryEnabled: false });
    localSettings(sub, {});
    expect(projectsFolder().leftOut?.map((l) => l.key) ?? []).toEqual([]);
    // Off in the main checkout: off for all three, the main repository's folder left out.
    localSettings(box.project, { autoMemoryEnabled: false });
    expect(projectsFolder().leftOut).toEqual([{ project: box.project, key: claudeProjectKey(box.project), settingsFile: join(box.project, '.claude', 'settings.local.json') }]);
  }, 300_000);

  it('CLAUDE_CODE_PROJECT_DIR_NAME names the project folder (a plain name only); off in that project, we leave that folder out (PROJECT_DIR_NAME_OVERRIDE)', async () => {
    const env = { CLAUDE_CODE_PROJECT_DIR_NAME: 'my-project_1' };
    expect(await namedFolder(box.project, env)).toBe(join(box.claudeDir, 'projects', 'my-project_1', 'memory'));
    expect(await namedFolder(box.project, { CLAUDE_CODE_PROJECT_DIR_NAME: 'not plain.name' })).toBe(box.memoryDir);
    localSettings(box.project, { autoMemoryEnabled: false });
    expect(await namedFolder(box.project, env)).toBeUndefined();
    const folders = autoMemoryFolders({ ...box.env, ...env }, box.claudeDir, box.env.HOME as string, box.managedDir).find((f) => f.name === 'auto-memory');
    expect(folders?.leftOut?.map((l) => l.key)).toEqual(['my-project_1']);
  }, 120_000);

  it('--settings: nothing in the SessionStart hook\'s input or environment names the folder it moves, but its parent process\'s command line does (Linux /proc; not followed: see claude-memory.ts)', async () => {
    const probe = join(box.root, 'hook-saw');
    writeFileSync(join(box.claudeDir, 'settings.json'), JSON.stringify({ hooks: { SessionStart: [{ hooks: [{ type: 'command', command: `{ cat; echo; env; echo; tr '\\0' ' ' < /proc/$PPID/cmdline; } > '${probe}'` }] }] } }));
    const flagFile = join(box.root, 'flag-settings.json');
    writeFileSync(flagFile, JSON.stringify({ autoMemoryDirectory: join(box.root, 'from-the-flag') }));
    expect(await namedFolder(box.project, {}, ['--settings', flagFile])).toBe(join(box.root, 'from-the-flag'));
    const lines = readFileSync(probe, 'utf8').split('\n');
    const parentCommandLine = lines.at(-1) as string;
    const inputAndEnvironment = lines.slice(0, -1).join('\n');
    expect(inputAndEnvironment).toContain('"hook_event_name":"SessionStart"');
    expect(inputAndEnvironment).not.toContain('from-the-flag');
    expect(inputAndEnvironment).not.toContain('flag-settings');
    expect(parentCommandLine).toContain(` -p hello --settings ${flagFile} `);
  }, 120_000);
});
