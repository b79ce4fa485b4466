/**
 * Installs a test-only tool from a lockfile committed in this repository, so that nothing unhashed is
 * installed or run (the project brief's rule for what the tool and its tests install).
 *
 * A lock folder holds package.json + package-lock.json; the lockfile pins every package npm may fetch
 * (the tool AND its platform packages, e.g. Claude Code's native binary) to a sha512. `npm ci` refuses
 * any tarball whose hash differs (EINTEGRITY) and any tree that differs from the lockfile; scripts are
 * never run by npm here (--ignore-scripts): the caller runs the one it needs, from the verified tree.
 *
 * A folder installed this way carries a stamp: the sha256 of the lockfile it was installed from. A
 * folder without it (installed by older code with a bare `npm install`) or with another stamp (the
 * committed lock changed) is not trusted: it is installed again from the committed lock.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The stamp a verified install leaves in its folder. */
export const LOCK_STAMP = '.gms-installed-from-lock';

const npmBin = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** sha256 of the committed lockfile: what a verified folder's stamp must say. */
export function lockDigest(lockDir) {
  return createHash('sha256').update(readFileSync(join(lockDir, 'package-lock.json'))).digest('hex');
}

/** True when `dir` was installed by installLocked from this very lockfile. */
export function installedFromLock(dir, lockDir) {
  try {
    return readFileSync(join(dir, LOCK_STAMP), 'utf8').trim() === lockDigest(lockDir);
  } catch {
    return false;
  }
}

/** The committed lockfile's packages: `node_modules/<name>` → its entry (version, integrity, os, cpu, libc, optional). */
export function lockedPackages(lockDir) {
  const lock = JSON.parse(readFileSync(join(lockDir, 'package-lock.json'), 'utf8'));
  return Object.entries(lock.packages ?? {})
    .filter(([path]) => path.startsWith('node_modules/'))
    .map(([path, entry]) => ({ path, name: path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length), ...entry }));
}

/**
 * The package whose tarball failed its hash: npm's EINTEGRITY report says "wanted <sha512> but got …"
 * without naming the package, so the wanted hash is looked up in the lockfile.
 */
export function integrityFailure(stderr, packages) {
  if (!/EINTEGRITY|Integrity checksum failed/i.test(stderr)) return undefined;
  const wanted = /wanted (sha\d+-[A-Za-z0-9+/=]+)/.exec(stderr)?.[1];
  const pkg = packages.find((p) => p.integrity !== undefined && p.integrity === wanted);
  return pkg ? `${pkg.name}@${pkg.version}` : 'a package of the lock';
}

/** This machine as npm's os/cpu/libc fields name it (libc as Claude Code's install.cjs detects it). */
export function thisPlatform() {
  const glibc = process.platform === 'linux' ? process.report?.getReport?.().header?.glibcVersionRuntime : undefined;
  return { os: process.platform, cpu: process.arch, libc: process.platform !== 'linux' ? undefined : glibc === undefined ? 'musl' : 'glibc' };
}

/**
 * npm's rule for an os/cpu/libc list: allowed when it names this value, or only excludes others (`!x`).
 * A package may give one as a plain string (the node-<os>-<cpu> binary packages do: `"os": "linux"`).
 */
function listAllows(field, value) {
  const list = typeof field === 'string' ? [field] : field;
  if (!Array.isArray(list) || list.length === 0) return true;
  if (list.includes(`!${value}`)) return false;
  const positive = list.filter((v) => !v.startsWith('!'));
  return positive.length === 0 || positive.includes(value);
}

/**
 * The optional packages the lock pins for this platform that are not installed. npm does not fail on
 * an optional package whose tarball does not match its hash: it skips it (measured, npm 11), so the
 * platform's native binary would be silently missing; this makes that an error.
 */
export function missingPlatformPackages(packages, dir, platform = thisPlatform()) {
  return packages.filter(
    (p) =>
      p.optional === true &&
      listAllows(p.os, platform.os) &&
      listAllows(p.cpu, platform.cpu) &&
      (platform.libc === undefined || listAllows(p.libc, platform.libc)) &&
      !installedVersionIs(join(dir, p.path), p.version),
  );
}

/** The installed package's version is the locked one (the older node-<os>-<cpu> packages write it `v18.20.8`, as npm reads it too). */
function installedVersionIs(folder, version) {
  try {
    return String(JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')).version).replace(/^v/, '') === version;
  } catch {
    return false;
  }
}

/** What to do when a hash fails; `lockStep` is the command that writes that lock again. */
function nextStep(lockStep) {
  return `Do not edit the hash to make it pass: if the registry really re-published it, check the package, then regenerate the lock (${lockStep}) and commit it for review.`;
}

/**
 * `npm ci` from the committed lock folder into `dir` (its node_modules replaced), then the stamp.
 * Throws with the next step when a hash does not match or npm fails otherwise. `npmArgs` go to npm
 * (a test points --registry/--cache at a 127.0.0.1 stand-in). `lockStep`: the command that writes
 * this lock, named in the error when a hash fails.
 */
export function installLocked({ lockDir, dir, npmArgs = [], env = process.env, lockStep = 'node scripts/test/claude-code.mjs --lock <version>' }) {
  const lockFile = join(lockDir, 'package-lock.json');
  mkdirSync(dir, { recursive: true });
  // The stamp goes first: a run killed mid-install leaves a folder that is not trusted next time.
  rmSync(join(dir, LOCK_STAMP), { force: true });
  copyFileSync(join(lockDir, 'package.json'), join(dir, 'package.json'));
  copyFileSync(lockFile, join(dir, 'package-lock.json'));
  const r = spawnSync(npmBin, ['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error', ...npmArgs], {
    cwd: dir,
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const packages = lockedPackages(lockDir);
  if (r.status !== 0) {
    const stderr = `${r.stderr ?? ''}${r.error ? String(r.error) : ''}`;
    const bad = integrityFailure(stderr, packages);
    if (bad) throw new Error(`${bad} does not match the sha512 committed in ${lockFile}: nothing was installed. ${nextStep(lockStep)}\n${stderr.trim()}`);
    throw new Error(`npm ci from ${lockFile} failed in ${dir} (status ${r.status}): ${stderr.trim() || 'no output'}. Check the network to the npm registry and run it again.`);
  }
  const missing = missingPlatformPackages(packages, dir);
  if (missing.length > 0) {
    const names = missing.map((p) => `${p.name}@${p.version}`).join(', ');
    rmSync(join(dir, 'node_modules'), { recursive: true, force: true });
    throw new Error(
      `npm skipped ${names}, which ${lockFile} pins for this platform: its download failed or did not match the committed sha512 ` +
        `(npm skips an optional package quietly). The install in ${dir} was removed. Run it again; if it fails the same way, ${nextStep(lockStep)}`,
    );
  }
  writeFileSync(join(dir, LOCK_STAMP), `${lockDigest(lockDir)}\n`);
}
