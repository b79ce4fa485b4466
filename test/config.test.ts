import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { buildConfig, ConfigError, loadConfig, SETTINGS } from '../src/lib/config/config.js';
import { renderEnvExample } from '../scripts/gen-env-example.js';
import { makeTempDirSync } from './support/temp-dir.js';

const base = { HOME: '/home/tester' };

function fails(env: Record<string, string>): ConfigError {
  try {
    buildConfig({ ...base, ...env });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

describe('config', () => {
  it('has the documented defaults', () => {
    const c = buildConfig(base);
    expect(c.mcpUrl).toBe('http://localhost:8000/mcp');
    expect(c.db).toBe('neo4j');
    expect(c.groupId).toBe('main');
    expect(c.paiDir).toBe('/home/tester/.claude');
    expect(c.claudeConfigDir).toBe('/home/tester/.claude');
    expect(c.stateDir).toBe('/home/tester/.local/state/graphiti-memory-sync');
    expect(c.contextBudget).toBe(8000);
    expect(c.deleteRemoved).toBe(true);
    expect(c.warnings).toEqual([]);
  });

  it('accepts falkordb and the legacy falkorodb spelling with a warning', () => {
    expect(buildConfig({ ...base, MADEINOZ_KNOWLEDGE_DB: 'falkordb' }).db).toBe('falkordb');
    const legacy = buildConfig({ ...base, MADEINOZ_KNOWLEDGE_DB: 'falkorodb' });
    expect(legacy.db).toBe('falkordb');
    expect(legacy.warnings.join()).toMatch(/falkorodb.*falkordb/);
  });

  it('names the variable, the value and what is allowed', () => {
    const e = fails({ MADEINOZ_KNOWLEDGE_DB: 'mysql' });
    expect(e.variable).toBe('MADEINOZ_KNOWLEDGE_DB');
    expect(e.message).toContain('mysql');
    expect(e.message).toMatch(/neo4j, falkordb/);
    const t = fails({ MADEINOZ_KNOWLEDGE_TIMEOUT: 'soon' });
    expect(t.message).toMatch(/MADEINOZ_KNOWLEDGE_TIMEOUT="soon".*whole number/);
    expect(fails({ MADEINOZ_KNOWLEDGE_MCP_URL: 'ftp://x' }).message).toMatch(/http:\/\/ or https:\/\//);
    expect(fails({ MADEINOZ_KNOWLEDGE_SYNC_PAI: 'maybe' }).message).toMatch(/true or false/);
    expect(fails({ MADEINOZ_KNOWLEDGE_CONTEXT_BUDGET: '20000' }).message).toMatch(/0 to 10000/);
    expect(fails({ MADEINOZ_KNOWLEDGE_STATE_DIR: 'relative/dir' }).message).toMatch(/absolute path/);
  });

  it('parses headers without ever echoing their values', () => {
    const c = buildConfig({ ...base, MADEINOZ_KNOWLEDGE_HEADERS: '{"X-Api-Key":"s3cr3t"}', MADEINOZ_KNOWLEDGE_AUTH_TOKEN: 'tok' });
    expect(c.headers).toEqual({ 'X-Api-Key': 's3cr3t' });
    expect(c.authToken).toBe('tok');
    const e = fails({ MADEINOZ_KNOWLEDGE_HEADERS: '{"X-Api-Key": s3cr3t' });
    expect(e.message).not.toContain('s3cr3t');
    expect(fails({ MADEINOZ_KNOWLEDGE_HEADERS: '{"bad header":"v"}' }).message).toMatch(/not a valid HTTP header name/);
  });

  it('parses extra sources and per-source groups', () => {
    const c = buildConfig({ ...base, MADEINOZ_KNOWLEDGE_SYNC_PATHS: '/notes:work=~/work/notes', MADEINOZ_KNOWLEDGE_SOURCE_GROUPS: 'auto-memory={project},pai=learning' });
    expect(c.extraSources).toEqual([
      { name: 'extra1', path: '/notes' },
      { name: 'work', path: '/home/tester/work/notes' },
    ]);
    expect(c.sourceGroups).toEqual({ 'auto-memory': '{project}', pai: 'learning' });
    expect(fails({ MADEINOZ_KNOWLEDGE_SOURCE_GROUPS: 'nogroup' }).message).toMatch(/source=group/);
  });

  it('reads a .env file but lets an explicit environment variable win', async () => {
    const { dir, cleanup } = makeTempDirSync('gms-config-');
    onTestFinished(cleanup);
    const file = join(dir, 'settings.env');
    writeFileSync(file, 'export MADEINOZ_KNOWLEDGE_GROUP_ID="from_file"\nMADEINOZ_KNOWLEDGE_DB=falkordb # comment\nUNRELATED_SECRET=x\n');
    const fromFile = await loadConfig({ env: { ...base, MADEINOZ_KNOWLEDGE_ENV_FILE: file } });
    expect(fromFile.groupId).toBe('from_file');
    expect(fromFile.db).toBe('falkordb');
    expect(fromFile.envFile).toBe(file);
    const overridden = await loadConfig({ env: { ...base, MADEINOZ_KNOWLEDGE_ENV_FILE: file, MADEINOZ_KNOWLEDGE_GROUP_ID: 'from_env' } });
    expect(overridden.groupId).toBe('from_env');
    await expect(loadConfig({ env: { ...base, MADEINOZ_KNOWLEDGE_ENV_FILE: join(dir, 'missing.env') } })).rejects.toThrow(/does not exist/);
  });

  it('config/.env.example documents every setting and is current', () => {
    const example = readFileSync(new URL('../config/.env.example', import.meta.url), 'utf8');
    expect(example).toBe(renderEnvExample());
    for (const s of SETTINGS) expect(example).toContain(`# ${s.name}=`);
  });
});
