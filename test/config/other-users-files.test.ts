/**
 * What the settings read from files another local user could have written. OWN_STATE_DIR
 * (config/env-file.ts): the state folder is trusted only when it is the user's own and no one
 * else can write to it. Here another local user has made it first (or it was opened
 * up) and planted a local server's runtime record naming their listener, with a process of theirs
 * whose command line says `server run` as its supervisor: with no URL set, `sync` would send the
 * notes there (a record without a token file goes as it always went). The second user is played
 * by the folder's owner (`gms-other`, when the tests run as root) and its mode (0777, always).
 * OWN_SETTINGS_FILE (config/dotenv-file.ts): likewise a settings file (here in a shared
 * XDG_CONFIG_HOME) naming their server as the one the notes go to.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeSupervisor, type FakeSupervisor } from '../support/fake-supervisor.js';
import { startGraphitiServer, type GraphitiTestServer } from '../support/graphiti-server.js';
import { isolatedEnv } from '../support/isolated-env.js';
import { otherUser } from '../support/other-user.js';
import { runCli } from '../support/real-graphiti.js';
import { makeTempDirSync } from '../support/temp-dir.js';

let cleanup: (() => void) | undefined;
let theirs: GraphitiTestServer | undefined;
let decoy: FakeSupervisor | undefined;

afterEach(async () => {
  decoy?.child.kill('SIGKILL');
  await theirs?.close();
  cleanup?.();
});

describe.skipIf(process.platform === 'win32')('OWN_STATE_DIR: a state folder others can write to is not trusted', () => {
  it('a runtime record planted there gets no request from sync (no URL set): the run names MADEINOZ_KNOWLEDGE_STATE_DIR instead', async () => {
    const temp = makeTempDirSync('gms-own-state-');
    cleanup = temp.cleanup;
    const root = temp.dir;
    // Their Graphiti server (a stand-in that accepts notes) and their "supervisor": any process of
    // theirs whose command line says `server run`.
    theirs = await startGraphitiServer();
    const port = theirs.port;
    decoy = await startFakeSupervisor();
    const state = join(root, 'state');
    mkdirSync(join(state, 'server'), { recursive: true });
    const runtime = { state: 'ready', pid: decoy.identity.pid, generation: '0.31.2', serverVersion: '0.31.2', mcp: 'http', falkordbBin: '1.4.1', url: `http://127.0.0.1:${port}/mcp`, port, dataDir: join(state, 'data'), logDir: join(state, 'logs'), startedAt: new Date().toISOString(), readyAt: new Date().toISOString(), identities: { supervisor: decoy.identity } };
    writeFileSync(join(state, 'server', 'runtime.json'), JSON.stringify(runtime));
    chmodSync(state, 0o777);
    const user = otherUser();
    if (!('skip' in user)) spawnSync('chown', ['-R', `${user.uid}:${user.gid}`, state]);

    const { MADEINOZ_KNOWLEDGE_MCP_URL: _unset, ...env } = isolatedEnv(root, 'unused', { MADEINOZ_KNOWLEDGE_STATE_DIR: state });
    const notes = join(env.PAI_DIR as string, 'MEMORY', 'LEARNING', '2026-12');
    mkdirSync(notes, { recursive: true });
    writeFileSync(join(notes, 'private.md'), '---\ntitle: Private\n---\nThe salary bands for next year are in the finance share.\n');
    const run = await runCli(env, ['sync', '--json']);
    expect(theirs.http.map((h) => `${h.method} ${h.path}`)).toEqual([]);
    expect(theirs.calls.filter((c) => c.tool === 'add_memory').map((c) => c.tool)).toEqual([]);
    expect(run.code).not.toBe(0);
    expect(`${run.stdout}${run.stderr}`).toMatch(/can be written by others|belongs to another user/);
    expect(`${run.stdout}${run.stderr}`).toContain('MADEINOZ_KNOWLEDGE_STATE_DIR');
  });
});

describe.skipIf(process.platform === 'win32')('OWN_STATE_DIR with SAFE_ANCESTORS: a state folder of ours under a folder another user owns is not trusted', () => {
  const user = otherUser();
  it.skipIf('skip' in user)(`sync refuses it, naming the folder above and the setting; before, it ran there${'skip' in user ? ` (skipped: ${user.skip})` : ''}`, async () => {
    const other = user as { uid: number; gid: number };
    const temp = makeTempDirSync('gms-own-state-above-');
    cleanup = temp.cleanup;
    const root = temp.dir;
    // Their folder (0755: only they may write to it), and our 0700 state folder in it: they can rename
    // ours away and put theirs in its place at any moment, between our check and our reads.
    const shared = join(root, 'shared');
    mkdirSync(shared, { mode: 0o755 });
    const state = join(shared, 'state');
    mkdirSync(state, { mode: 0o700 });
    spawnSync('chown', [`${other.uid}:${other.gid}`, shared]);
    theirs = await startGraphitiServer();
    const { MADEINOZ_KNOWLEDGE_MCP_URL: _unset, ...base } = isolatedEnv(root, 'unused', { MADEINOZ_KNOWLEDGE_STATE_DIR: state });
    const env = { ...base, MADEINOZ_KNOWLEDGE_MCP_URL: theirs.url };
    const run = await runCli(env, ['sync', '--json']);
    expect(run.code).not.toBe(0);
    expect(`${run.stdout}${run.stderr}`).toContain(`${shared} belongs to another user (uid ${other.uid}): another user could put their own folder in the place of ${state}`);
    expect(`${run.stdout}${run.stderr}`).toContain('MADEINOZ_KNOWLEDGE_STATE_DIR');
    expect(theirs.http).toEqual([]);
  });
});

describe.skipIf(process.platform === 'win32')('OWN_SETTINGS_FILE: a settings file others can write to is not read', () => {
  it('a .env naming their server, writable by all (or theirs), gets it no request from sync: the run names the file and the fix', async () => {
    const temp = makeTempDirSync('gms-own-settings-');
    cleanup = temp.cleanup;
    const root = temp.dir;
    theirs = await startGraphitiServer();
    const config = join(root, 'shared-config', 'graphiti-memory-sync');
    mkdirSync(config, { recursive: true });
    const file = join(config, '.env');
    writeFileSync(file, `MADEINOZ_KNOWLEDGE_MCP_URL=${theirs.url}\n`);
    chmodSync(file, 0o666);
    const user = otherUser();
    if (!('skip' in user)) spawnSync('chown', [`${user.uid}:${user.gid}`, file]);
    const { MADEINOZ_KNOWLEDGE_MCP_URL: _unset, MADEINOZ_KNOWLEDGE_ENV_FILE: _none, ...env } = isolatedEnv(root, 'unused', { XDG_CONFIG_HOME: join(root, 'shared-config') });
    const notes = join(env.PAI_DIR as string, 'MEMORY', 'LEARNING', '2026-12');
    mkdirSync(notes, { recursive: true });
    writeFileSync(join(notes, 'private.md'), '---\ntitle: Private\n---\nThe salary bands for next year are in the finance share.\n');
    const run = await runCli(env, ['sync', '--json']);
    expect(theirs.http.map((h) => `${h.method} ${h.path}`)).toEqual([]);
    expect(run.code).not.toBe(0);
    expect(`${run.stdout}${run.stderr}`).toMatch(/Settings file .*\.env (can be written by every user|belongs to another user)/);
  });
});

describe.skipIf(process.platform === 'win32')("OWN_SETTINGS_FILE with USER_PRIVATE_GROUP: group write is the user's only with a group of their own", () => {
  const user = otherUser();
  it.skipIf('skip' in user)(`a .env of ours that another user's group may write is not read; the same mode with our private group is${'skip' in user ? ` (skipped: ${user.skip})` : ''}`, async () => {
    const other = user as { uid: number; gid: number };
    const temp = makeTempDirSync('gms-own-settings-group-');
    cleanup = temp.cleanup;
    const root = temp.dir;
    theirs = await startGraphitiServer();
    const config = join(root, 'config', 'graphiti-memory-sync');
    mkdirSync(config, { recursive: true });
    const file = join(config, '.env');
    writeFileSync(file, `MADEINOZ_KNOWLEDGE_MCP_URL=${theirs.url}\n`);
    chmodSync(file, 0o660);
    // Ours, but the second user's group may write it: they could point our notes at their server.
    spawnSync('chown', [`${process.getuid?.()}:${other.gid}`, file]);
    const { MADEINOZ_KNOWLEDGE_MCP_URL: _unset, MADEINOZ_KNOWLEDGE_ENV_FILE: _none, ...env } = isolatedEnv(root, 'unused', { XDG_CONFIG_HOME: join(root, 'config') });
    const notes = join(env.PAI_DIR as string, 'MEMORY', 'LEARNING', '2026-12');
    mkdirSync(notes, { recursive: true });
    writeFileSync(join(notes, 'private.md'), '---\ntitle: Private\n---\nThe salary bands for next year are in the finance share.\n');
    const refused = await runCli(env, ['sync', '--json']);
    expect(theirs.http.map((h) => `${h.method} ${h.path}`)).toEqual([]);
    expect(refused.code).not.toBe(0);
    expect(`${refused.stdout}${refused.stderr}`).toMatch(/Settings file .*\.env can be written by the members of group \d+, which is not yours alone/);

    // The control: the same mode with the user's own private group (umask 002's files) is read.
    spawnSync('chown', [`${process.getuid?.()}:${process.getgid?.()}`, file]);
    const read = await runCli(env, ['sync', '--json']);
    expect(`${read.stdout}${read.stderr}`).not.toMatch(/Settings file/);
    expect(theirs.calls.filter((c) => c.tool === 'add_memory').length).toBe(1);
  });
});
