/**
 * What `npm pack` puts in the package (issue 41), read from `npm pack --dry-run --json` (no
 * scripts: the checkout is built already; nothing is written):
 * - everything that runs is in it: every module of src/ as built, the hook bundles and the bin
 *   launcher, the hashed Python requirements of every pinned Graphiti generation (the `server`
 *   command reads them from the package), the settings example and compose files the README names;
 * - nothing else is: every packed path matches one allowed form, and against a planted tree
 *   (a config/.env with a secret, tests, benches, sources, the plugin, scripts) the `files`
 *   list keeps out all but the allowed files;
 * - the README's figures for the tarball (size, file count) are current within a tolerance.
 * The package made from a fresh clone and installed is test/package/package-routes.slow.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { GENERATIONS } from '../../src/lib/server/pins.js';
import { makeTempDir } from '../support/temp-dir.js';

const ROOT = join(import.meta.dirname, '..', '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

interface PackReport {
  size: number;
  unpackedSize: number;
  entryCount: number;
  files: Array<{ path: string }>;
}

function dryRunPack(dir: string): PackReport {
  const r = spawnSync(npm, ['pack', '--dry-run', '--json', '--ignore-scripts', '--offline', '--no-update-notifier'], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
  if (r.status !== 0) throw new Error(`npm pack --dry-run failed in ${dir}:\n${r.stderr}`);
  return (JSON.parse(r.stdout) as PackReport[])[0] as PackReport;
}

/** Every form a packed path may take. Anything else (a test, a bench, a source, a secret) fails. */
const ALLOWED = [
  /^package\.json$/,
  /^README\.md$/,
  /^LICENSE$/,
  /^dist\/.+\.js$/,
  /^dist\/hooks\/package\.json$/, // marks the hook bundles as CommonJS
  /^python\/requirements-\d+\.\d+\.\d+\.txt$/,
  /^config\/\.env\.example$/,
  /^config\/docker-compose\.(neo4j|falkordb)\.yml$/,
];

function sourceModules(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.d.ts'))
    .map((e) => relative(join(ROOT, 'src'), join(e.parentPath, e.name)).replace(/\\/g, '/'));
}

let packed: PackReport;
let paths: string[];
beforeAll(() => {
  // The suite runs on the built checkout (`npm test` builds first); build once when it is missing.
  if (!existsSync(join(ROOT, 'dist', 'hooks', 'hook.js'))) {
    const built = spawnSync(npm, ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'inherit' });
    if (built.status !== 0) throw new Error('npm run build failed');
  }
  packed = dryRunPack(ROOT);
  paths = packed.files.map((f) => f.path);
}, 180_000);

describe('npm pack', () => {
  it('ships every module as built, the hook bundles and both bins', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string> };
    expect(Object.keys(pkg.bin).sort()).toEqual(['graphiti-memory-sync', 'graphiti-memory-sync-hook']);
    for (const target of Object.values(pkg.bin)) expect(paths).toContain(target);
    // hook-io.ts is inlined into the hook bundles and node-gate.ts into the gates in front of them
    // (scripts/build/bundle-hooks.mjs), nothing else is.
    const expected = sourceModules(join(ROOT, 'src'))
      .filter((m) => m !== 'hooks/hook-io.ts' && m !== 'hooks/node-gate.ts')
      .map((m) => `dist/${m.replace(/\.ts$/, '.js')}`);
    expect(expected.length).toBeGreaterThan(100);
    expect(expected.filter((p) => !paths.includes(p))).toEqual([]);
    for (const p of ['package.json', 'README.md', 'LICENSE', 'dist/hooks/hook-config.js', 'dist/hooks/package.json', 'dist/hooks/session-start-main.js', 'dist/hooks/stop-main.js']) expect(paths).toContain(p);
  });

  it('ships the hashed Python requirements of every pinned Graphiti generation, and the files the README names', () => {
    expect(GENERATIONS.length).toBeGreaterThanOrEqual(4);
    for (const g of GENERATIONS) expect(paths).toContain(`python/requirements-${g.id}.txt`);
    for (const p of ['config/.env.example', 'config/docker-compose.neo4j.yml', 'config/docker-compose.falkordb.yml']) expect(paths).toContain(p);
  });

  it('ships nothing else: no tests, benches, sources, scripts, plugin bundles or local settings', () => {
    expect(paths.filter((p) => !ALLOWED.some((re) => re.test(p)))).toEqual([]);
  });

  it("the files list keeps out what is planted beside what ships: config/.env, tests, benches, sources, the plugin", async () => {
    const { dir } = await makeTempDir('gms-pack-');
    cpSync(join(ROOT, 'package.json'), join(dir, 'package.json'));
    const plant = (p: string, text = 'x\n') => {
      mkdirSync(dirname(join(dir, p)), { recursive: true });
      writeFileSync(join(dir, p), text);
    };
    const ships = ['README.md', 'dist/cli.js', 'dist/hooks/hook.js', 'dist/hooks/package.json', 'python/requirements-0.31.2.txt', 'config/.env.example', 'config/docker-compose.neo4j.yml', 'config/docker-compose.falkordb.yml'];
    const stays = ['config/.env', 'test/a.test.ts', 'bench/run.ts', 'src/cli.ts', 'scripts/build/prepare.mjs', 'plugin/hooks/stop.cjs', '.claude-plugin/marketplace.json', 'hooks/run.mjs', 'docs/a.md', 'examples/memory/a.md', 'python/notes.md', 'vitest.config.ts', 'tsconfig.json', 'package-lock.json', '.ci/run', 'coverage/index.html', '.gms-build.lock'];
    for (const p of [...ships, ...stays]) plant(p, p === 'config/.env' ? 'OPENAI_API_KEY=sk-proj-planted-secret-value\n' : 'x\n');
    const got = dryRunPack(dir).files.map((f) => f.path).sort();
    expect(got).toEqual([...ships, 'package.json'].sort());
  });

  it("the README's size and file count of the tarball are current (within 15 % and 10 %)", () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const m = /tarball of about ([\d.]+) kB \(([\d.]+) MB unpacked, (\d+) files\)/.exec(readme);
    expect(m, 'README.md should say "tarball of about <N> kB (<M> MB unpacked, <K> files)"').not.toBeNull();
    const [kb, mb, files] = [Number(m?.[1]), Number(m?.[2]), Number(m?.[3])];
    const now = `${Math.round(packed.size / 1000)} kB (${(packed.unpackedSize / 1e6).toFixed(1)} MB unpacked, ${packed.entryCount} files)`;
    expect(Math.abs(kb * 1000 - packed.size) / packed.size, `the tarball is now ${now}`).toBeLessThan(0.15);
    expect(Math.abs(mb * 1e6 - packed.unpackedSize) / packed.unpackedSize, `the tarball is now ${now}`).toBeLessThan(0.15);
    expect(Math.abs(files - packed.entryCount) / packed.entryCount, `the tarball is now ${now}`).toBeLessThan(0.1);
  });
});
