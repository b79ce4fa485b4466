/**
 * "Nothing unhashed is installed or run": the real Claude Code CLI (and its platform's native
 * package) is installed from a lockfile committed in this repository (scripts/test/locked-install.mjs,
 * scripts/test/claude-code.mjs), against a REGISTRY STAND-IN on 127.0.0.1 (no other network): a
 * child process serving packuments and tarballs as the npm registry does, whose tarballs can be
 * swapped for other bytes, as a compromised or re-published registry entry would be.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startChild, type Child } from '../helpers/child-process.js';
import { useTempDir } from '../helpers/use-temp-dir.js';
// @ts-expect-error: a plain .mjs script without types
import { LOCK_STAMP, installLocked, installedFromLock, missingPlatformPackages, thisPlatform } from '../../scripts/test/locked-install.mjs';
// @ts-expect-error: a plain .mjs script without types
import { claudeCodeLockDir, ensureClaudeCode } from '../../scripts/test/claude-code.mjs';
// @ts-expect-error: a plain .mjs script without types
import { NODE_22_VERSION, ensureLockedNode, nodeLockDir } from '../../scripts/test/locked-node.mjs';
// @ts-expect-error: a plain .mjs script without types
import { OLD_NODE_VERSIONS } from '../../scripts/test/old-node.mjs';

let dir = '';
useTempDir('gms-locked-install-', (d) => (dir = d));

const children: Child[] = [];
afterEach(async () => {
  for (const c of children.splice(0)) {
    c.proc.kill('SIGTERM');
    await c.exited;
  }
});

/** The stand-in: GET /<name> is the packument, GET /<name>/-/<file> the tarball; both from <root>/registry.json, read at each request. */
const REGISTRY = `
import { createServer } from 'node:http';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
const root = process.argv[2];
const server = createServer((req, res) => {
  const served = JSON.parse(readFileSync(join(root, 'registry.json'), 'utf8'));
  const path = decodeURIComponent(req.url.slice(1));
  const [name, file] = path.split('/-/');
  const entry = served[name];
  if (!entry) return res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
  const bytes = readFileSync(join(root, entry.file));
  if (file !== undefined) return res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(bytes);
  const integrity = 'sha512-' + createHash('sha512').update(bytes).digest('base64');
  const tarball = 'http://127.0.0.1:' + server.address().port + '/' + name + '/-/' + entry.file;
  const manifest = { ...entry.manifest, dist: { tarball, integrity } };
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ name, 'dist-tags': { latest: manifest.version }, versions: { [manifest.version]: manifest } }));
});
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
`;

interface Pkg {
  manifest: { name: string; version: string; [k: string]: unknown };
  files: Record<string, string>;
}

/** `npm pack` of a package made of `files` (no network): its tarball name and sha512. */
function pack(p: Pkg, variant: string): { file: string; integrity: string } {
  const src = join(dir, 'src', `${p.manifest.name.replace('/', '+')}-${variant}`);
  mkdirSync(src, { recursive: true });
  writeFileSync(join(src, 'package.json'), JSON.stringify(p.manifest));
  for (const [name, text] of Object.entries(p.files)) {
    mkdirSync(dirname(join(src, name)), { recursive: true });
    writeFileSync(join(src, name), text, { mode: 0o755 });
  }
  const out = join(dir, 'registry', variant);
  mkdirSync(out, { recursive: true });
  const r = spawnSync('npm', ['pack', '--silent', '--pack-destination', out], { cwd: src, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`npm pack failed: ${r.stderr}`);
  const file = join(variant, r.stdout.trim().split('\n').pop()!);
  return { file, integrity: `sha512-${createHash('sha512').update(readFileSync(join(dir, 'registry', file))).digest('base64')}` };
}

/** Starts the stand-in serving `served` (name → package and tarball) and returns npm's environment for it. */
async function registry(served: Record<string, { pkg: Pkg; file: string }>): Promise<NodeJS.ProcessEnv> {
  const root = join(dir, 'registry');
  mkdirSync(root, { recursive: true });
  const table = Object.fromEntries(Object.entries(served).map(([name, s]) => [name, { manifest: s.pkg.manifest, file: s.file }]));
  writeFileSync(join(root, 'registry.json'), JSON.stringify(table));
  const child = await startChild(dir, 'registry', REGISTRY, [root]);
  children.push(child);
  const port = await child.nextLine();
  writeFileSync(join(dir, 'empty.npmrc'), '');
  return {
    ...process.env,
    npm_config_registry: `http://127.0.0.1:${port}/`,
    npm_config_cache: join(dir, 'npm-cache'),
    npm_config_userconfig: join(dir, 'empty.npmrc'),
    npm_config_audit: 'false',
    npm_config_fund: 'false',
  };
}

const here = thisPlatform() as { os: string; cpu: string };
const elsewhere = here.os === 'darwin' ? 'win32' : 'darwin';
const tool: Pkg = {
  manifest: {
    name: 'gms-probe-tool',
    version: '1.0.0',
    optionalDependencies: { 'gms-probe-tool-here': '1.0.0', 'gms-probe-tool-elsewhere': '1.0.0' },
  },
  files: { 'tool.txt': 'the tool\n' },
};
const native: Pkg = { manifest: { name: 'gms-probe-tool-here', version: '1.0.0', os: [here.os], cpu: [here.cpu] }, files: { 'native.txt': 'the native binary\n' } };
const other: Pkg = { manifest: { name: 'gms-probe-tool-elsewhere', version: '1.0.0', os: [elsewhere], cpu: [here.cpu] }, files: { 'native.txt': 'another platform\n' } };

/** The lock folder as claude-code.mjs --lock writes it (no `resolved`: the configured registry is asked). */
function writeLock(name: string, integrity: Record<string, string>): string {
  const lockDir = join(dir, name);
  mkdirSync(lockDir, { recursive: true });
  writeFileSync(join(lockDir, 'package.json'), JSON.stringify({ private: true, dependencies: { 'gms-probe-tool': '1.0.0' } }));
  const entry = (p: Pkg, optional: boolean) => ({
    version: p.manifest.version,
    integrity: integrity[p.manifest.name],
    ...(optional ? { optional: true, os: p.manifest.os, cpu: p.manifest.cpu } : { optionalDependencies: p.manifest.optionalDependencies }),
  });
  const lock = {
    name,
    lockfileVersion: 3,
    requires: true,
    packages: {
      '': { dependencies: { 'gms-probe-tool': '1.0.0' } },
      'node_modules/gms-probe-tool': entry(tool, false),
      'node_modules/gms-probe-tool-here': entry(native, true),
      'node_modules/gms-probe-tool-elsewhere': entry(other, true),
    },
  };
  writeFileSync(join(lockDir, 'package-lock.json'), `${JSON.stringify(lock, null, 2)}\n`);
  return lockDir;
}

/** The genuine tarballs, the lock of their hashes, and a tampered tarball of each package the lock pins here. */
function fixture() {
  const genuine = { tool: pack(tool, 'genuine'), native: pack(native, 'genuine'), other: pack(other, 'genuine') };
  const tampered = {
    tool: pack({ ...tool, files: { 'tool.txt': 'not the tool\n' } }, 'tampered'),
    native: pack({ ...native, files: { 'native.txt': 'not the native binary\n' } }, 'tampered'),
  };
  const lockDir = writeLock('lock', { 'gms-probe-tool': genuine.tool.integrity, 'gms-probe-tool-here': genuine.native.integrity, 'gms-probe-tool-elsewhere': genuine.other.integrity });
  const serve = (t: { file: string }, n: { file: string }) => ({
    'gms-probe-tool': { pkg: tool, file: t.file },
    'gms-probe-tool-here': { pkg: native, file: n.file },
    'gms-probe-tool-elsewhere': { pkg: other, file: genuine.other.file },
  });
  return { genuine, tampered, lockDir, serve };
}

describe('a test-only tool installed from a lock committed in the repository (127.0.0.1 registry stand-in)', () => {
  it("what the registry serves matches the lock: the tool and this platform's package are installed, the folder stamped as from that lock", async () => {
    const f = fixture();
    const env = await registry(f.serve(f.genuine.tool, f.genuine.native));
    const target = join(dir, 'installed');
    installLocked({ lockDir: f.lockDir, dir: target, env });
    expect(readFileSync(join(target, 'node_modules', 'gms-probe-tool', 'tool.txt'), 'utf8')).toBe('the tool\n');
    expect(readFileSync(join(target, 'node_modules', 'gms-probe-tool-here', 'native.txt'), 'utf8')).toBe('the native binary\n');
    expect(existsSync(join(target, 'node_modules', 'gms-probe-tool-elsewhere'))).toBe(false);
    expect(installedFromLock(target, f.lockDir)).toBe(true);
  });

  it('the registry serves other bytes for the tool: refused, naming the package, the lock and the next step; nothing installed, no stamp', async () => {
    const f = fixture();
    const env = await registry(f.serve(f.tampered.tool, f.genuine.native));
    const target = join(dir, 'installed');
    expect(() => installLocked({ lockDir: f.lockDir, dir: target, env })).toThrow(/gms-probe-tool@1\.0\.0 does not match the sha512 committed in .*package-lock\.json: nothing was installed\. Do not edit the hash/);
    expect(existsSync(join(target, 'node_modules', 'gms-probe-tool'))).toBe(false);
    expect(existsSync(join(target, LOCK_STAMP))).toBe(false);
    expect(installedFromLock(target, f.lockDir)).toBe(false);
  });

  it("the registry serves other bytes for this platform's native package (npm skips a bad optional package quietly): refused, naming it; the install removed", async () => {
    const f = fixture();
    const env = await registry(f.serve(f.genuine.tool, f.tampered.native));
    const target = join(dir, 'installed');
    expect(() => installLocked({ lockDir: f.lockDir, dir: target, env })).toThrow(/npm skipped gms-probe-tool-here@1\.0\.0, which .*package-lock\.json pins for this platform/);
    expect(existsSync(join(target, 'node_modules'))).toBe(false);
    expect(installedFromLock(target, f.lockDir)).toBe(false);
  });

  it('a folder installed from another lock (an older pin, or a bare npm install without a stamp) is not trusted', async () => {
    const f = fixture();
    const env = await registry(f.serve(f.genuine.tool, f.genuine.native));
    const target = join(dir, 'installed');
    installLocked({ lockDir: f.lockDir, dir: target, env });
    const newer = writeLock('newer-lock', { 'gms-probe-tool': f.tampered.tool.integrity, 'gms-probe-tool-here': f.genuine.native.integrity, 'gms-probe-tool-elsewhere': f.genuine.other.integrity });
    expect(installedFromLock(target, newer)).toBe(false);
    expect(installedFromLock(join(dir, 'never-installed'), f.lockDir)).toBe(false);
  });
});

describe('ensureClaudeCode (scripts/test/claude-code.mjs) against a registry stand-in serving another @anthropic-ai/claude-code', () => {
  it('2.1.330 with other bytes than the committed lock: refused before its install script runs, with the next step', async () => {
    const marker = join(dir, 'install-script-ran');
    const impostor: Pkg = {
      manifest: { name: '@anthropic-ai/claude-code', version: '2.1.330', bin: { claude: 'bin/claude.exe' } },
      files: { 'install.cjs': `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'ran');\n` },
    };
    const served = pack(impostor, 'impostor');
    const env = await registry({ '@anthropic-ai/claude-code': { pkg: impostor, file: served.file } });
    const target = join(dir, 'claude-code-2.1.330');
    // npm reads its configuration from the environment (as on main, where ensureClaudeCode ran it with process.env).
    const saved = { ...process.env };
    Object.assign(process.env, env, { GMS_CLAUDE_CODE_DIR: target });
    let error: unknown;
    try {
      ensureClaudeCode(process.env, '2.1.330');
    } catch (e) {
      error = e;
    } finally {
      for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
      Object.assign(process.env, saved);
    }
    expect(existsSync(marker), "the impostor's install script ran").toBe(false);
    expect(String(error)).toMatch(/@anthropic-ai\/claude-code@2\.1\.330 does not match the sha512 committed in .*claude-code-locks\/2\.1\.330\/package-lock\.json/);
    expect(existsSync(join(target, 'node_modules', '@anthropic-ai', 'claude-code'))).toBe(false);
    expect(existsSync(join(claudeCodeLockDir('2.1.330'), 'package-lock.json'))).toBe(true);
  });
});

/** Runs `fn` with npm's configuration (the stand-in) in process.env, as a test script's own npm calls read it, then restores it. */
function withEnv<T>(env: NodeJS.ProcessEnv, fn: () => T): { value?: T; error?: unknown } {
  const saved = { ...process.env };
  Object.assign(process.env, env);
  try {
    return { value: fn() };
  } catch (error) {
    return { error };
  } finally {
    for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
    Object.assign(process.env, saved);
  }
}

describe('ensureLockedNode (scripts/test/locked-node.mjs): the Node.js binaries the test scripts run, from committed locks', () => {
  /** A `node-<os>-<cpu>` package of the pinned version whose `bin/node` is a script that leaves a mark when run. */
  function impostorNode(marker: string): Pkg {
    return {
      manifest: { name: `node-${here.os}-${here.cpu}`, version: NODE_22_VERSION, os: [here.os], cpu: [here.cpu], bin: { node: 'bin/node' } },
      files: { 'bin/node': `#!/bin/sh\necho ran > ${JSON.stringify(marker)}\necho ${NODE_22_VERSION}\n` },
    };
  }

  it('the node-<os>-<cpu> packages\' ways: `"os": "darwin"` as a plain string is another platform (not missing here), and an installed `"version": "v18.20.8"` is 18.20.8', () => {
    const pkgDir = join(dir, 'node_modules', `node-${here.os}-${here.cpu}`);
    mkdirSync(pkgDir, { recursive: true });
    writeFileSync(join(pkgDir, 'package.json'), JSON.stringify({ name: `node-${here.os}-${here.cpu}`, version: 'v18.20.8' }));
    const locked = [
      { path: `node_modules/node-${here.os}-${here.cpu}`, name: `node-${here.os}-${here.cpu}`, version: '18.20.8', optional: true, os: here.os, cpu: here.cpu },
      { path: `node_modules/node-${elsewhere}-${here.cpu}`, name: `node-${elsewhere}-${here.cpu}`, version: '18.20.8', optional: true, os: elsewhere, cpu: here.cpu },
    ];
    expect(missingPlatformPackages(locked, dir)).toEqual([]);
    expect(missingPlatformPackages(locked, join(dir, 'elsewhere')).map((p: { name: string }) => p.name)).toEqual([`node-${here.os}-${here.cpu}`]);
  });

  it('every Node the test scripts run (22 and the old ones) has a committed lock pinning a sha512 for this platform, and no `node` package (its install script fetches unhashed)', () => {
    for (const version of [NODE_22_VERSION, ...OLD_NODE_VERSIONS]) {
      const lock = JSON.parse(readFileSync(join(nodeLockDir(version), 'package-lock.json'), 'utf8')) as { packages: Record<string, { version?: string; integrity?: string }> };
      const entries = Object.entries(lock.packages).filter(([path]) => path !== '');
      expect(entries.map(([path]) => path), version).toContain(`node_modules/node-${here.os}-${here.cpu}`);
      for (const [path, entry] of entries) {
        expect(path, version).toMatch(/^node_modules\/node-[a-z0-9]+-[a-z0-9]+$/);
        expect(entry.version, path).toBe(version);
        expect(entry.integrity, path).toMatch(/^sha512-/);
      }
    }
  });

  it('the registry serves other bytes for the Node 22 binary: refused, naming it, the lock and the next step; nothing from it runs or stays', async () => {
    const marker = join(dir, 'impostor-node-ran');
    const impostor = impostorNode(marker);
    const served = pack(impostor, 'impostor');
    const env = await registry({ [impostor.manifest.name]: { pkg: impostor, file: served.file } });
    const target = join(dir, `node-${NODE_22_VERSION}`);
    const { error } = withEnv({ ...env, GMS_NODE_DIR: target }, () => ensureLockedNode(NODE_22_VERSION));
    expect(existsSync(marker), 'the impostor binary ran').toBe(false);
    expect(String(error)).toMatch(new RegExp(`npm skipped node-${here.os}-${here.cpu}@${NODE_22_VERSION.replace(/\./g, '\\.')}, which .*node-locks/${NODE_22_VERSION.replace(/\./g, '\\.')}/package-lock\\.json pins for this platform`));
    expect(String(error)).toMatch(/Do not edit the hash .*node scripts\/test\/locked-node\.mjs --lock 22\.23\.3/);
    expect(existsSync(join(target, 'node_modules'))).toBe(false);
    expect(existsSync(join(target, LOCK_STAMP))).toBe(false);
  });

  it('a cache folder left by an unhashed install (no stamp) is not run, even once to ask its version: installed again from the lock, and refused here', async () => {
    const marker = join(dir, 'stale-node-ran');
    const target = join(dir, `node-${NODE_22_VERSION}`);
    const stale = join(target, 'node_modules', `node-${here.os}-${here.cpu}`, 'bin', 'node');
    mkdirSync(dirname(stale), { recursive: true });
    writeFileSync(stale, `#!/bin/sh\necho ran > ${JSON.stringify(marker)}\necho ${NODE_22_VERSION}\n`);
    chmodSync(stale, 0o755);
    const impostor = impostorNode(marker);
    const served = pack(impostor, 'impostor');
    const env = await registry({ [impostor.manifest.name]: { pkg: impostor, file: served.file } });
    const { error } = withEnv({ ...env, GMS_NODE_DIR: target }, () => ensureLockedNode(NODE_22_VERSION));
    expect(String(error)).toMatch(/pins for this platform/);
    expect(existsSync(marker), 'the unstamped binary ran').toBe(false);
    expect(existsSync(stale)).toBe(false);
  });
});
