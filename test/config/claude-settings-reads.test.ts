/**
 * SETTINGS_READ_ONCE (config/claude-memory.ts): a config build reads each of Claude Code's settings
 * files at most once, however many known projects ask the same managed, user and global files; and
 * nothing of it outlives the build: a file changed after one build is read again by the next.
 * The reads are counted through a `node:fs` whose readFileSync records its paths.
 */
import * as fs from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { isolatedEnv } from '../support/isolated-env.js';
import { useTempDir } from '../helpers/use-temp-dir.js';

const reads: string[] = [];
vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs')>();
  return {
    ...real,
    readFileSync: (path: fs.PathOrFileDescriptor, ...rest: unknown[]) => {
      if (typeof path === 'string') reads.push(path);
      return (real.readFileSync as (...a: unknown[]) => unknown)(path, ...rest);
    },
  };
});

const { buildConfig } = await import('../../src/lib/config/config.js');

let root = '';
useTempDir('gms-claude-reads-', (d) => (root = d));

describe('SETTINGS_READ_ONCE', () => {
  it('twenty known projects: each settings file read once per build (on main: 64 reads of 42 files, the user settings 21 times, .claude.json 3), and a changed file read again by the next build', () => {
    const claude = join(root, 'claude');
    fs.mkdirSync(claude, { recursive: true });
    const projects = Array.from({ length: 20 }, (_, i) => join(root, 'work', `p${i}`));
    for (const p of projects) fs.mkdirSync(join(p, '.claude'), { recursive: true });
    fs.writeFileSync(join(claude, '.claude.json'), JSON.stringify({ projects: Object.fromEntries(projects.map((p) => [p, {}])) }));
    fs.writeFileSync(join(claude, 'settings.json'), JSON.stringify({}));
    const env = isolatedEnv(root, 'http://127.0.0.1:9/mcp', { CLAUDE_CONFIG_DIR: claude, HOME: root });
    // Claude Code's settings files (not our own origin file kept beside them).
    const claudeFiles = () => reads.filter((f) => /(?:^|\/)(?:settings\.json|settings\.local\.json|\.claude\.json)$/.test(f));
    const timesRead = () => {
      const counts = new Map<string, number>();
      for (const f of claudeFiles()) counts.set(f, (counts.get(f) ?? 0) + 1);
      return Math.max(...counts.values());
    };
    reads.length = 0;
    const first = buildConfig(env);
    expect(first.autoMemoryFolders[0]?.leftOut).toBeUndefined();
    expect(timesRead()).toBe(1);
    // One project turned off after that build: the next build reads its file again and leaves its folder out.
    fs.writeFileSync(join(projects[3] as string, '.claude', 'settings.local.json'), JSON.stringify({ autoMemoryEnabled: false }));
    reads.length = 0;
    const second = buildConfig(env);
    expect(second.autoMemoryFolders[0]?.leftOut?.map((l) => l.project)).toEqual([projects[3]]);
    expect(timesRead()).toBe(1);
  });
});
