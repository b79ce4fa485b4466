/**
 * The REAL Claude Code CLI reading our hooks through a symlinked settings file (issue 31): the
 * user keeps `settings.json` in a dotfiles repository (stow, chezmoi, ln -s); `install` writes
 * through the link, Claude Code follows it and runs both hooks, and `uninstall` gives the dotfiles
 * copy back byte for byte with the link still in place. Fake Anthropic API (the one thing that
 * cannot run here), our Graphiti-shaped test server.
 */
import { lstatSync, mkdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readContextCache } from '../../src/lib/context/cache.js';
import { claudeProjectKey } from '../../src/lib/context/project.js';
import { waitForCondition } from '../helpers/wait-for-condition.js';
import type { FakeAnthropic } from './fake-anthropic.js';
import { useClaudeWorld } from './use-claude-world.js';
import { hookErrors, hookRuns, injectedContexts, type ClaudeBox } from './harness.js';

const MEMORY = '---\nname: release train\ndescription: when releases ship\ntype: project\n---\n# Releases\n\nThe release train leaves every second Tuesday.\n';
const FACT = 'release train leaves every second Tuesday';
const DOTFILES_SETTINGS = '{\n  "cleanupPeriodDays": 30\n}\n';

let api: FakeAnthropic;
let box: ClaudeBox;

useClaudeWorld(MEMORY, (w) => {
  ({ api, box } = w);
});

describe('real Claude Code CLI: settings.json is a symlink into a dotfiles repository (fake Anthropic API)', () => {
  it('install writes through the link; Claude Code runs both hooks from it; uninstall restores the dotfiles copy, link kept', async () => {
    const dotfiles = join(box.root, 'dotfiles', 'claude');
    mkdirSync(dotfiles, { recursive: true });
    const target = join(dotfiles, 'settings.json');
    writeFileSync(target, DOTFILES_SETTINGS);
    const link = join(box.claudeDir, 'settings.json');
    symlinkSync(relative(box.claudeDir, target), link);

    const install = box.gms(['install']);
    expect(install.stderr).toBe('');
    expect(install.code).toBe(0);
    expect(install.stdout).toContain(`${link} -> ${target}: updated`);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(target, 'utf8')).toContain('session-start.js');

    // The first session's worker builds the context cache; the second one's request carries it.
    // Session 1 writes a memory file; Stop syncs it and the worker rebuilds the context cache.
    const first = await box.claude(['-p', `WRITE ${join(box.memoryDir, 'release.md')}`, '--allowedTools', 'Write']);
    expect(first.code).toBe(0);
    expect(first.stderr).toBe('');
    expect(hookRuns(first.debug).map((r) => [r.event, r.status])).toEqual([
      ['SessionStart', 0],
      ['Stop', 0],
    ]);
    expect(hookErrors(first.debug)).toEqual([]);
    await waitForCondition(box.stateDir, () => (readContextCache(box.stateDir, claudeProjectKey(box.project))?.text ?? '').includes(FACT), 30_000, 'the context cache');
    const second = await box.claude(['-p', 'hello again']);
    expect(second.code).toBe(0);
    expect(injectedContexts(api.requests[api.requests.length - 1] ?? {}).join('\n')).toContain(FACT);

    const uninstall = box.gms(['uninstall']);
    expect(uninstall.code).toBe(0);
    expect(uninstall.stdout).toContain(`${link} -> ${target}: restored to its state before install`);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe(relative(box.claudeDir, target));
    expect(readFileSync(target, 'utf8')).toBe(DOTFILES_SETTINGS);

    const after = await box.claude(['-p', 'hello']);
    expect(after.code).toBe(0);
    expect(hookRuns(after.debug)).toEqual([]);
  });
});
