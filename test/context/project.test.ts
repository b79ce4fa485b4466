import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { buildConfig, type Config } from '../../src/lib/config/config.js';
import { projectGroupId } from '../../src/lib/graphiti/escape.js';
import { claudePathHash, claudeProjectKey, detectProject, findGitRoot, recentCommitSubjects, recentMemoryTitles, resolveProjectKey } from '../../src/lib/context/project.js';
import { useTempDir } from '../helpers/use-temp-dir.js';

let dir: string;
useTempDir('gms-project-', (d) => (dir = d));
let config: Config;

beforeEach(() => {
  config = buildConfig({ HOME: dir, CLAUDE_CONFIG_DIR: join(dir, 'claude'), PAI_DIR: join(dir, 'pai'), MADEINOZ_KNOWLEDGE_STATE_DIR: join(dir, 'state') });
});

describe('claudeProjectKey', () => {
  it('replaces every non-alphanumeric character with "-" (no collapsing)', () => {
    expect(claudeProjectKey('/home/me/my_project.v2')).toBe('-home-me-my-project-v2');
    expect(claudeProjectKey('C:\\Users\\alice\\some project')).toBe('C--Users-alice-some-project');
    expect(claudeProjectKey('/home/me/文档')).toBe('-home-me---');
  });

  it('over 200 characters: first 200 + "-" + base36 of the 32-bit string hash of the original path', () => {
    const long = `/${'a'.repeat(250)}`;
    const key = claudeProjectKey(long);
    expect(key).toBe(`${`-${'a'.repeat(250)}`.slice(0, 200)}-${claudePathHash(long)}`);
    expect(claudePathHash('abc')).toBe((96354).toString(36)); // "abc".hashCode() in Java
  });

  it('long keys prefer an existing folder with the same 200-character prefix; the override env var wins', () => {
    const projects = join(dir, 'claude', 'projects');
    const long = `/${'b'.repeat(250)}`;
    const prefix = claudeProjectKey(long).slice(0, 200);
    mkdirSync(join(projects, `${prefix}-zz9`), { recursive: true });
    expect(resolveProjectKey(long, projects, {})).toBe(`${prefix}-zz9`);
    mkdirSync(join(projects, claudeProjectKey(long)), { recursive: true });
    expect(resolveProjectKey(long, projects, {})).toBe(claudeProjectKey(long));
    // PROJECT_DIR_NAME_OVERRIDE: as the CLI bundle takes it, only with CLAUDE_CONFIG_DIR set and only a plain name.
    const configDir = { CLAUDE_CONFIG_DIR: join(dir, 'claude') };
    expect(resolveProjectKey('/x/y', projects, { ...configDir, CLAUDE_CODE_PROJECT_DIR_NAME: 'custom' })).toBe('custom');
    expect(resolveProjectKey('/x/y', projects, { CLAUDE_CODE_PROJECT_DIR_NAME: 'custom' })).toBe('-x-y');
    for (const ignored of ['../evil', 'not plain.name', ' custom', 'nul', 'x'.repeat(65)]) expect(resolveProjectKey('/x/y', projects, { ...configDir, CLAUDE_CODE_PROJECT_DIR_NAME: ignored })).toBe('-x-y');
  });
});

describe('detectProject', () => {
  it('walks up to the git root; subfolders share the project; memory dir under CLAUDE_CONFIG_DIR', () => {
    const repo = join(dir, 'code', 'web.app');
    mkdirSync(join(repo, '.git'), { recursive: true });
    mkdirSync(join(repo, 'src', 'deep'), { recursive: true });
    const p = detectProject(join(repo, 'src', 'deep'), config, {});
    expect(p.root).toBe(repo);
    expect(p.isGit).toBe(true);
    expect(p.name).toBe('web.app');
    expect(p.key).toBe(claudeProjectKey(repo));
    expect(p.memoryDir).toBe(join(dir, 'claude', 'projects', p.key, 'memory'));
    expect(p.memoryDirExists).toBe(false);
    mkdirSync(p.memoryDir, { recursive: true });
    expect(detectProject(repo, config, {}).memoryDirExists).toBe(true);
  });

  it('outside git the cwd is the project', () => {
    const plain = join(dir, 'plain');
    mkdirSync(plain);
    const p = detectProject(plain, config, {});
    expect(p.isGit).toBe(false);
    expect(p.root).toBe(plain);
    expect(p.gitDir).toBeUndefined();
  });

  it('a linked worktree belongs to the main repository; a submodule is its own project', () => {
    const main = join(dir, 'main-repo');
    mkdirSync(join(main, '.git', 'worktrees', 'feat'), { recursive: true });
    writeFileSync(join(main, '.git', 'worktrees', 'feat', 'commondir'), '../..\n');
    const wt = join(dir, 'wt-feat');
    mkdirSync(wt);
    writeFileSync(join(wt, '.git'), `gitdir: ${join(main, '.git', 'worktrees', 'feat')}\n`);
    const g = findGitRoot(wt);
    expect(g).toEqual({ worktreeRoot: wt, gitDir: join(main, '.git', 'worktrees', 'feat'), mainRoot: main });
    expect(detectProject(wt, config, {}).root).toBe(main);

    const sub = join(main, 'vendor', 'lib');
    mkdirSync(join(main, '.git', 'modules', 'lib'), { recursive: true });
    mkdirSync(sub, { recursive: true });
    writeFileSync(join(sub, '.git'), 'gitdir: ../../.git/modules/lib\n');
    expect(detectProject(sub, config, {}).root).toBe(sub);
  });

  it('group ids: main group, plus the per-project group (from the project key) when auto-memory={project}', () => {
    const repo = join(dir, 'r');
    mkdirSync(repo);
    expect(detectProject(repo, config, {}).groupIds).toEqual(['main']);
    const perProject = { ...config, sourceGroups: { 'auto-memory': '{project}' } };
    const p = detectProject(repo, perProject, {});
    expect(p.groupIds).toEqual(['main', projectGroupId('neo4j', p.key)]);
    const falkor = detectProject(repo, { ...perProject, db: 'falkordb' as const }, {});
    expect(falkor.groupIds[1]).toBe(projectGroupId('falkordb', p.key));
  });
});

describe('recentCommitSubjects', () => {
  it('reads commit subjects from logs/HEAD, newest first, skipping checkouts and duplicates', () => {
    const repo = join(dir, 'r');
    mkdirSync(join(repo, '.git', 'logs'), { recursive: true });
    const line = (msg: string, t: number) => `${'0'.repeat(40)} ${'1'.repeat(40)} A U Thor <a@x> ${t} +0100\t${msg}`;
    writeFileSync(
      join(repo, '.git', 'logs', 'HEAD'),
      [
        line('commit (initial): First', 1),
        line('commit: Add parser', 2),
        line('checkout: moving from main to x', 3),
        line('commit (amend): Add parser', 4),
        line('merge feature: Fast-forward', 5),
        line('commit: Fix: colon in subject', 6),
        '',
      ].join('\n'),
    );
    expect(recentCommitSubjects(repo, 10)).toEqual(['Fix: colon in subject', 'Add parser', 'First']);
    expect(recentCommitSubjects(repo, 1)).toEqual(['Fix: colon in subject']);
  });

  it('missing reflog or no git: []', () => {
    const repo = join(dir, 'r2');
    mkdirSync(join(repo, '.git'), { recursive: true });
    expect(recentCommitSubjects(repo, 5)).toEqual([]);
    expect(recentCommitSubjects(join(dir, 'nowhere'), 5)).toEqual([]);
  });
});

describe('recentMemoryTitles', () => {
  it('newest topic files first; frontmatter name, else first heading, else file name; MEMORY.md skipped', () => {
    const mem = join(dir, 'mem');
    mkdirSync(mem);
    const write = (name: string, body: string, t: number) => {
      writeFileSync(join(mem, name), body);
      utimesSync(join(mem, name), t, t);
    };
    write('MEMORY.md', '- [x](x.md)', 9_000_000);
    write('a_old.md', '# Old heading\n', 1_000_000);
    write('b_named.md', '---\nname: "Named memory"\ndescription: d\n---\n# Heading\n', 3_000_000);
    write('c_plain_file.md', 'just text', 2_000_000);
    write('notes.txt', 'ignored', 5_000_000);
    expect(recentMemoryTitles(mem, 10)).toEqual(['Named memory', 'c plain file', 'Old heading']);
    expect(recentMemoryTitles(mem, 1)).toEqual(['Named memory']);
    expect(recentMemoryTitles(join(dir, 'missing'), 3)).toEqual([]);
  });
});
