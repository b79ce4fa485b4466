/**
 * The settings read outside loadConfig (the local server's, the worker's switches), the runtime
 * record and the hooks' settings snapshot: each read through one checked reader in config/.
 */
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/lib/config/config.js';
import { parseRuntime, readRuntime, runtimePath, writeRuntime, type ServerRuntime } from '../../src/lib/config/server-runtime.js';
import { startFakeSupervisor } from '../support/fake-supervisor.js';
import { readServerSettings } from '../../src/lib/config/server-settings.js';
import { loadHookConfig, settingsFingerprint, snapshotDir } from '../../src/lib/config/snapshot.js';
import { workerSwitches, workerTimeoutMs } from '../../src/lib/config/switches.js';
import { useTempDir } from '../helpers/use-temp-dir.js';

let dir: string;
useTempDir('gms-owned-settings-', (d) => (dir = d));

const runtime = (pid: number): ServerRuntime => ({ state: 'ready', pid, generation: '0.31.1', serverVersion: '1.1.0', mcp: '2.2.0', falkordbBin: '1.4.1', url: 'http://127.0.0.1:43210/mcp', port: 43210, dbPort: 43211, dataDir: dir, logDir: dir, startedAt: new Date().toISOString() });

describe('the local server settings (config/server-settings.ts)', () => {
  it('come from our .env file under the environment, and a bad value names the variable and the file', () => {
    const file = join(dir, 'settings.env');
    writeFileSync(file, 'OPENAI_API_KEY=sk-file\nGMS_SERVER_PORT=8100\nGMS_SERVER_DATA_DIR=~/graph\n');
    const env = { HOME: dir, MADEINOZ_KNOWLEDGE_ENV_FILE: file };
    expect(readServerSettings(env)).toEqual({ OPENAI_API_KEY: 'sk-file', GMS_SERVER_PORT: '8100', GMS_SERVER_DATA_DIR: join(dir, 'graph') });
    expect(readServerSettings({ ...env, GMS_SERVER_PORT: '8200' }).GMS_SERVER_PORT).toBe('8200');
    writeFileSync(file, 'GMS_SERVER_DB_PORT=70000\n');
    const error = (() => {
      try {
        readServerSettings(env);
      } catch (e) {
        return e as ConfigError;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect(error?.variable).toBe('GMS_SERVER_DB_PORT');
    expect(error?.message).toBe(`GMS_SERVER_DB_PORT="70000" (set in ${file}) is not a port: use a whole number from 1 to 65535, or unset it for its private Unix socket`);
    // From the environment, no file is named.
    expect(() => readServerSettings({ HOME: dir, MADEINOZ_KNOWLEDGE_ENV_FILE: file, GMS_SERVER_DB_PORT: '8300', OPENAI_BASE_URL: 'localhost:11434' })).toThrow(/^OPENAI_BASE_URL="localhost:11434" is not an http\(s\) URL/);
  });
});

describe('the worker switches (config/switches.ts)', () => {
  it('are typed, and a time limit that is not a positive whole number is refused by name', () => {
    expect(workerSwitches({})).toEqual({ disabled: false, script: undefined });
    expect(workerSwitches({ GMS_WORKER_DISABLED: '1', GMS_WORKER_SCRIPT: ' /x/w.mjs ', GMS_WORKER_TIMEOUT_MS: 'soon' })).toEqual({ disabled: true, script: '/x/w.mjs' });
    expect(workerTimeoutMs({})).toBeUndefined();
    expect(workerTimeoutMs({ GMS_WORKER_TIMEOUT_MS: '2000' })).toBe(2000);
    expect(() => workerTimeoutMs({ GMS_WORKER_TIMEOUT_MS: 'soon' })).toThrow(/^GMS_WORKER_TIMEOUT_MS="soon" is not allowed/);
  });
});

describe('runtime.json (config/server-runtime.ts)', () => {
  it('is written 0600 through util/fs-atomic and read back only when every field checks out', () => {
    const stateDir = join(dir, 'state');
    writeRuntime(stateDir, runtime(4242));
    expect(statSync(runtimePath(stateDir)).mode & 0o777).toBe(0o600);
    expect(readdirSync(join(stateDir, 'server'))).toEqual(['runtime.json']);
    expect(readRuntime(stateDir)?.pid).toBe(4242);
    for (const bad of [{ pid: '4242' }, { pid: -1 }, { state: 'running' }, { url: 'file:///etc/passwd' }, { port: 1.5 }, { generation: undefined }]) {
      expect(parseRuntime({ ...runtime(4242), ...bad })).toBeUndefined();
    }
    writeFileSync(runtimePath(stateDir), '{"state":"ready","pid":1,"url":"http://evil.example/mcp"}');
    expect(readRuntime(stateDir)).toBeUndefined();
    // Fields a newer version adds are kept.
    expect(parseRuntime({ ...runtime(4242), mcpTokenFile: '/x' })).toMatchObject({ mcpTokenFile: '/x' });
  });

  it('a URL setting that hides a running local server is said, not silent', async () => {
    const stateDir = join(dir, 'state');
    const env = { HOME: dir, MADEINOZ_KNOWLEDGE_STATE_DIR: stateDir };
    const { child: supervisor, identity } = await startFakeSupervisor();
    try {
      writeRuntime(stateDir, { ...runtime(identity.pid), identities: { supervisor: identity } });
      const local = await loadConfig({ env, readEnvFile: false });
      expect([local.mcpUrl, local.mcpUrlSource, local.warnings]).toEqual(['http://127.0.0.1:43210/mcp', 'local-server', []]);
      const set = await loadConfig({ env: { ...env, MADEINOZ_KNOWLEDGE_MCP_URL: 'http://127.0.0.1:8000/mcp' }, readEnvFile: false });
      expect(set.mcpUrlSource).toBe('setting');
      expect(set.warnings).toEqual(['MADEINOZ_KNOWLEDGE_MCP_URL=http://127.0.0.1:8000/mcp is used, not the local server running at http://127.0.0.1:43210/mcp (server start); unset it to use the local server.']);
    } finally {
      supervisor.kill('SIGKILL');
    }
  });
});

describe("the hooks' settings snapshot (config/snapshot.ts)", () => {
  it('is not used when any field is missing or of the wrong type', async () => {
    const env = { HOME: dir, XDG_STATE_HOME: join(dir, 'xdg-state'), MADEINOZ_KNOWLEDGE_ENV_FILE: join(dir, 'empty.env') };
    writeFileSync(env.MADEINOZ_KNOWLEDGE_ENV_FILE, 'MADEINOZ_KNOWLEDGE_GROUP_ID=mine\n');
    const good = await loadHookConfig(env);
    expect(good.groupId).toBe('mine');
    const file = join(snapshotDir(env), `${settingsFingerprint(env)}.json`);
    const saved = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    for (const [field, value] of [['db', 'mysql'], ['sourceGroups', ['x']], ['contextOnResume', 'yes'], ['logLevel', 'loud']] as const) {
      // A tampered snapshot with the right group id: if it were used, the group id would be 'tampered'.
      mkdirSync(snapshotDir(env), { recursive: true });
      writeFileSync(file, JSON.stringify({ ...saved, groupId: 'tampered', [field]: value }));
      expect((await loadHookConfig(env)).groupId).toBe('mine');
    }
  });
});
