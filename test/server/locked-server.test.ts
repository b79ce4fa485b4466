/**
 * The local server's locks that need no Python: permissions from creation (folders 0700, files
 * 0600, wider ones left from before tightened on start), secrets new at every start and written
 * without following a planted link, and the socket's folder. The locks around the real
 * redis-server and the front are in test/real-graphiti/locked-server.test.ts (the real-server
 * suite builds the Python environment first, so they run on a fresh machine too).
 */
import { chmodSync, chownSync, existsSync, lstatSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { falkordbSecretPath, mcpTokenPath, readSecretFile, runtimePath, serverStateDir, writeRuntime } from '../../src/lib/config/server-runtime.js';
import { environmentDir, ensureEnvironment } from '../../src/lib/server/environment.js';
import { newSecretFile, privateDir, PRIVATE_UMASK } from '../../src/lib/server/private-files.js';
import { newestGeneration } from '../../src/lib/server/user-settings.js';
import { otherUser } from '../support/other-user.js';
import { modeOf as mode, openLockedSandbox, tooOpen, type LockedSandbox } from '../support/locked-sandbox.js';
import { lockDownFolders, socketFolder } from '../../src/lib/server/supervisor.js';


let root: string;
let settings: { stateDir: string; dataDir: string; logDir: string };
let sandbox: LockedSandbox;

beforeAll(() => {
  sandbox = openLockedSandbox();
  ({ root, settings } = sandbox);
});

afterAll(() => {
  sandbox.close();
});

describe('permissions from creation', () => {
  it('a first start creates every folder 0700 and every file 0600; folders and files left wider from before are tightened', () => {
    // Left from an earlier version: the state folder 0755 with a 0644 runtime file and log.
    mkdirSync(join(settings.stateDir, 'server', 'logs'), { recursive: true, mode: 0o755 });
    chmodSync(settings.stateDir, 0o755);
    writeFileSync(join(settings.stateDir, 'server', 'runtime.json'), '{}', { mode: 0o644 });
    writeFileSync(join(settings.logDir, 'graphiti-old.log'), 'old log', { mode: 0o644 });
    mkdirSync(join(root, 'share'), { mode: 0o755 });
    lockDownFolders(settings);
    newSecretFile(falkordbSecretPath(settings.stateDir));
    newSecretFile(mcpTokenPath(settings.stateDir));
    writeRuntime(settings.stateDir, { state: 'stopped', pid: process.pid, generation: 'x', serverVersion: 'x', mcp: 'x', falkordbBin: 'x', dataDir: settings.dataDir, logDir: settings.logDir, startedAt: '' });
    expect(mode(settings.stateDir)).toBe(0o700);
    expect(mode(settings.dataDir)).toBe(0o700);
    expect(mode(join(root, 'share', 'graphiti-memory-sync'))).toBe(0o700);
    // Not ours: the user's own ~/.local/share stays as it was.
    expect(mode(join(root, 'share'))).toBe(0o755);
    expect(tooOpen(settings.stateDir)).toEqual([]);
    expect(mode(runtimePath(settings.stateDir))).toBe(0o600);
    expect(readFileSync(falkordbSecretPath(settings.stateDir), 'utf8')).toMatch(/^[0-9a-f]{64}\n$/);
    // A new secret at every start: the one before opens nothing after it.
    const before = readSecretFile(falkordbSecretPath(settings.stateDir));
    const after = newSecretFile(falkordbSecretPath(settings.stateDir));
    expect(after).not.toBe(before);
    expect(readSecretFile(falkordbSecretPath(settings.stateDir))).toBe(after);
  });
});

describe('secrets are written with no link followed, and read only from a private file of ours', () => {
  it('a symbolic link planted where a secret goes is replaced, its target untouched; a link or a wider file is not read as a secret', () => {
    const dir = privateDir(join(root, 'links'));
    const target = join(root, 'planted-target');
    writeFileSync(target, 'nothing yet\n', { mode: 0o644 });
    const secretFile = join(dir, 'mcp.token');
    symlinkSync(target, secretFile);
    // Read through the link? No: a link is not our secret.
    expect(readSecretFile(secretFile)).toBeUndefined();
    const secret = newSecretFile(secretFile);
    expect(readFileSync(target, 'utf8')).toBe('nothing yet\n');
    expect(lstatSync(secretFile).isSymbolicLink()).toBe(false);
    expect(mode(secretFile)).toBe(0o600);
    expect(readSecretFile(secretFile)).toBe(secret);
    chmodSync(secretFile, 0o644);
    expect(readSecretFile(secretFile)).toBeUndefined();
  });

  it('a folder of ours that is a symbolic link is refused, not followed and tightened', () => {
    const elsewhere = join(root, 'elsewhere');
    mkdirSync(elsewhere, { mode: 0o755 });
    chmodSync(elsewhere, 0o755);
    const linked = join(root, 'linked-state');
    symlinkSync(elsewhere, linked);
    expect(() => privateDir(linked)).toThrow(/is a symbolic link/);
    expect(mode(elsewhere)).toBe(0o755);
  });
});

describe("the folder of Graphiti's Unix socket", () => {
  it('is server/run in the state folder (0700); a state folder too deep for a socket path gets a fresh 0700 folder in the temporary folder', () => {
    const near = socketFolder(settings.stateDir);
    expect(near).toEqual({ dir: join(serverStateDir(settings.stateDir), 'run'), temporary: false });
    expect(mode(near.dir)).toBe(0o700);
    const deep = join(root, 'd'.repeat(60), 'e'.repeat(60));
    const far = socketFolder(deep);
    try {
      expect(far.temporary).toBe(true);
      expect(far.dir.startsWith(tmpdir())).toBe(true);
      expect(mode(far.dir)).toBe(0o700);
      expect(Buffer.byteLength(join(far.dir, 'graphiti.sock'))).toBeLessThanOrEqual(100);
      expect(existsSync(deep)).toBe(false);
    } finally {
      rmSync(far.dir, { recursive: true, force: true });
    }
  });
});


describe('nothing runs from a cache folder someone else could have written', () => {
  // A Python that does not exist: were a folder trusted, the error would be about Python instead.
  const envWith = (cache: string) => ({ ...process.env, GMS_GRAPHITI_CACHE: cache, GMS_PYTHON: join(root, 'no-such-python') });

  it('a cache folder others can write, or an environment folder that is a symbolic link, is refused before anything in it runs', async () => {
    const cache = join(root, 'cache-open');
    mkdirSync(cache);
    chmodSync(cache, 0o777);
    await expect(ensureEnvironment(newestGeneration(), { env: envWith(cache) })).rejects.toThrow(/can be written by others \(mode 777\)/);
    chmodSync(cache, 0o700);
    const elsewhere = privateDir(join(root, 'someone-elses-env'));
    symlinkSync(elsewhere, environmentDir(newestGeneration(), envWith(cache)));
    await expect(ensureEnvironment(newestGeneration(), { env: envWith(cache) })).rejects.toThrow(/is a symbolic link/);
    // Control: a folder of our own, 0700, gets as far as looking for Python.
    const own = privateDir(join(root, 'cache-own'));
    await expect(ensureEnvironment(newestGeneration(), { env: envWith(own) })).rejects.toThrow(/No Python found/);
  });

  const user = otherUser();
  it.skipIf('skip' in user)(`a cache folder owned by another local user is refused, whatever its mode${'skip' in user ? ` (skipped: ${user.skip})` : ''}`, async () => {
    const other = user as { uid: number; gid: number };
    const cache = privateDir(join(root, 'cache-foreign'));
    const dir = environmentDir(newestGeneration(), envWith(cache));
    mkdirSync(dir, { mode: 0o755 });
    writeFileSync(join(dir, 'ready.json'), '{}');
    chownSync(dir, other.uid, other.gid);
    await expect(ensureEnvironment(newestGeneration(), { env: envWith(cache) })).rejects.toThrow(/belongs to another user/);
  });
});
