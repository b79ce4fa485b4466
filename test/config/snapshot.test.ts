import { mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/lib/config/config.js';
import { loadHookConfig, settingsFingerprint, snapshotDir } from '../../src/lib/config/snapshot.js';

let root: string;
let env: Record<string, string>;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'gms-snapshot-'));
  writeFileSync(join(root, 'settings.env'), 'MADEINOZ_KNOWLEDGE_CONTEXT_BUDGET=4000\nMADEINOZ_KNOWLEDGE_AUTH_TOKEN=secret-token-123\n');
  env = { HOME: root, XDG_STATE_HOME: join(root, 'state'), MADEINOZ_KNOWLEDGE_ENV_FILE: join(root, 'settings.env') };
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('config snapshot (the hooks read settings without zod)', () => {
  it('gives the same hook settings as a full load, and keeps no secret on disk', async () => {
    const full = await loadConfig({ env });
    const first = await loadHookConfig(env);
    const second = await loadHookConfig(env);
    expect(first).toEqual(second);
    expect(first).toMatchObject({ stateDir: full.stateDir, contextBudget: 4000, groupId: full.groupId, claudeConfigDir: full.claudeConfigDir, logLevel: full.logLevel });
    const files = readdirSync(snapshotDir(env));
    expect(files).toHaveLength(1);
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(join(snapshotDir(env), files[0] as string), 'utf8')).not.toContain('secret-token-123');
  });

  it('a changed variable or .env file is a new fingerprint; unrelated variables are not', () => {
    const base = settingsFingerprint(env);
    expect(settingsFingerprint({ ...env, CLAUDE_PROJECT_DIR: '/x', TERM: 'dumb' })).toBe(base);
    expect(settingsFingerprint({ ...env, MADEINOZ_KNOWLEDGE_GROUP_ID: 'other' })).not.toBe(base);
    writeFileSync(join(root, 'settings.env'), 'MADEINOZ_KNOWLEDGE_CONTEXT_BUDGET=5000\n');
    utimesSync(join(root, 'settings.env'), new Date(), new Date(Date.now() + 5000));
    expect(settingsFingerprint(env)).not.toBe(base);
  });

  it('a broken setting throws every time and is never snapshotted', async () => {
    const bad = { ...env, MADEINOZ_KNOWLEDGE_CONTEXT_BUDGET: 'lots' };
    await expect(loadHookConfig(bad)).rejects.toMatchObject({ name: 'ConfigError', variable: 'MADEINOZ_KNOWLEDGE_CONTEXT_BUDGET' });
    await expect(loadHookConfig(bad)).rejects.toMatchObject({ name: 'ConfigError' });
    expect(() => readdirSync(snapshotDir(env))).toThrow();
  });
});
