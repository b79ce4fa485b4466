import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { buildConfig, ConfigError, loadConfig, SETTINGS } from '../../src/lib/config/config.js';
import { renderEnvExample } from '../../scripts/codegen/gen-env-example.js';
import { makeTempDirSync } from '../support/temp-dir.js';

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

  it('origins: this machine’s by default, or one named; shared sources as source=origin pairs', () => {
    expect(buildConfig(base).origin).toMatch(/^m-[0-9a-f]{10}$/);
    expect(buildConfig({ ...base, MADEINOZ_KNOWLEDGE_ORIGIN: 'alice-laptop' }).origin).toBe('alice-laptop');
    expect(fails({ MADEINOZ_KNOWLEDGE_ORIGIN: 'Alice Laptop' }).message).toMatch(/MADEINOZ_KNOWLEDGE_ORIGIN.*lower-case letters, digits and hyphens/);
    expect({ ...buildConfig({ ...base, MADEINOZ_KNOWLEDGE_SHARED_SOURCES: 'team=team-notes, pai=me' }).sharedSources }).toEqual({ team: 'team-notes', pai: 'me' });
    expect(fails({ MADEINOZ_KNOWLEDGE_SHARED_SOURCES: 'team' }).message).toMatch(/source=origin/);
    expect(fails({ MADEINOZ_KNOWLEDGE_SHARED_SOURCES: 'team=Team Notes' }).message).toMatch(/lower-case/);
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

  it('reads the madeinoz settings in $PAI_DIR/.env, below our own file and the environment', async () => {
    const { dir, cleanup } = makeTempDirSync('gms-config-pai-');
    onTestFinished(cleanup);
    const pai = join(dir, 'pai');
    mkdirSync(pai);
    writeFileSync(join(pai, '.env'), 'MADEINOZ_KNOWLEDGE_DATABASE_TYPE=falkordb\nMADEINOZ_KNOWLEDGE_GROUP_ID=pai_group\nMADEINOZ_KNOWLEDGE_MCP_URL=http://pai.example:8000/mcp\nOPENAI_API_KEY=sk-not-ours\n');
    const ours = join(dir, 'ours.env');
    writeFileSync(ours, 'MADEINOZ_KNOWLEDGE_GROUP_ID=our_group\n');
    const env = { HOME: join(dir, 'home'), PAI_DIR: pai, MADEINOZ_KNOWLEDGE_ENV_FILE: ours };
    const c = await loadConfig({ env });
    expect(c.paiEnvFile).toBe(join(pai, '.env'));
    expect(c.db).toBe('falkordb'); // the madeinoz name, MADEINOZ_KNOWLEDGE_DB being unset
    expect(c.groupId).toBe('our_group'); // our file wins over theirs
    expect(c.mcpUrl).toBe('http://pai.example:8000/mcp');
    const fromEnv = await loadConfig({ env: { ...env, MADEINOZ_KNOWLEDGE_MCP_URL: 'http://env.example/mcp', MADEINOZ_KNOWLEDGE_DB: 'neo4j' } });
    expect(fromEnv.mcpUrl).toBe('http://env.example/mcp');
    expect(fromEnv.db).toBe('neo4j'); // MADEINOZ_KNOWLEDGE_DB wins over the alias
  });

  it('falls back to $CLAUDE_CONFIG_DIR/.env (else ~/.claude/.env) when $PAI_DIR has none', async () => {
    const { dir, cleanup } = makeTempDirSync('gms-config-claude-');
    onTestFinished(cleanup);
    const claude = join(dir, 'claude');
    mkdirSync(claude);
    writeFileSync(join(claude, '.env'), 'MADEINOZ_KNOWLEDGE_GROUP_ID=claude_group\n');
    const c = await loadConfig({ env: { HOME: join(dir, 'home'), PAI_DIR: join(dir, 'no-pai'), CLAUDE_CONFIG_DIR: claude, XDG_CONFIG_HOME: join(dir, 'xdg') } });
    expect(c.paiEnvFile).toBe(join(claude, '.env'));
    expect(c.groupId).toBe('claude_group');
    const home = join(dir, 'home2');
    mkdirSync(join(home, '.claude'), { recursive: true });
    writeFileSync(join(home, '.claude', '.env'), 'MADEINOZ_KNOWLEDGE_DATABASE_TYPE=FalkorDB\n');
    expect((await loadConfig({ env: { HOME: home, XDG_CONFIG_HOME: join(dir, 'xdg') } })).db).toBe('falkordb');
  });

  it('accepts MADEINOZ_KNOWLEDGE_DATABASE_TYPE as the database setting and checks its value', () => {
    expect(buildConfig({ ...base, MADEINOZ_KNOWLEDGE_DATABASE_TYPE: 'falkordb' }).db).toBe('falkordb');
    expect(buildConfig({ ...base, MADEINOZ_KNOWLEDGE_DATABASE_TYPE: 'falkordb', MADEINOZ_KNOWLEDGE_DB: 'neo4j' }).db).toBe('neo4j');
    expect(fails({ MADEINOZ_KNOWLEDGE_DATABASE_TYPE: 'memgraph' }).variable).toBe('MADEINOZ_KNOWLEDGE_DATABASE_TYPE');
  });

  it('config/.env.example documents every setting and is current', () => {
    const example = readFileSync(new URL('../../config/.env.example', import.meta.url), 'utf8');
    expect(example).toBe(renderEnvExample());
    for (const s of SETTINGS) expect(example).toContain(`# ${s.name}=`);
  });
});
