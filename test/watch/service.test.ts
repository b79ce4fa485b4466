/**
 * `watch` as a service: the generated systemd user unit and launchd agent, checked as text, by
 * `systemd-analyze verify` where it exists and by Python's plistlib; and `npm run watch`
 * (one process, `exec node dist/cli.js watch`) leaving nothing behind after SIGTERM.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { launchdAgent, LAUNCHD_LABEL, systemdUserUnit, type ServiceSpec } from '../../src/lib/install/service-units.js';
import { isProcessAlive } from '../../src/lib/util/process-alive.js';
import { startGraphitiServer, type GraphitiTestServer } from '../support/graphiti-server.js';
import { makeSandbox, type Sandbox } from '../support/sandbox.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SPEC: ServiceSpec = { node: process.execPath, cli: join(ROOT, 'dist', 'cli.js'), envFile: '/home/me/.config/graphiti-memory-sync/.env', path: '/usr/bin:/bin', logFile: '/home/me/state/logs/watch-service.log' };

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'gms-service-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const hasSystemdAnalyze = spawnSync('systemd-analyze', ['--version'], { stdio: 'ignore' }).status === 0;
const hasPython = spawnSync('python3', ['-c', 'import plistlib'], { stdio: 'ignore' }).status === 0;

describe('systemd user unit', () => {
  it('runs node on dist/cli.js watch directly, with the settings file, SIGTERM and restart on failure', () => {
    const unit = systemdUserUnit(SPEC);
    expect(unit).toContain(`ExecStart="${process.execPath}" "${SPEC.cli}" "watch"\n`);
    expect(unit).toContain('Environment="MADEINOZ_KNOWLEDGE_ENV_FILE=/home/me/.config/graphiti-memory-sync/.env"\n');
    expect(unit).toMatch(/^KillSignal=SIGTERM$/m);
    expect(unit).toMatch(/^Restart=on-failure$/m);
    expect(unit).toMatch(/^WantedBy=default\.target$/m);
  });

  it('quotes spaces, quotes and % in paths the way systemd reads them', () => {
    const unit = systemdUserUnit({ ...SPEC, cli: '/opt/my "tools"/100%/cli.js' });
    expect(unit).toContain('"/opt/my \\"tools\\"/100%%/cli.js"');
  });

  it.runIf(hasSystemdAnalyze)('systemd-analyze verify accepts it without a warning', () => {
    const file = join(dir, 'graphiti-memory-sync.service');
    writeFileSync(file, systemdUserUnit({ ...SPEC, envFile: undefined }));
    const r = spawnSync('systemd-analyze', ['verify', file], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    // …and it does catch a broken one.
    writeFileSync(file, systemdUserUnit({ ...SPEC, node: '/nonexistent/node' }));
    expect(spawnSync('systemd-analyze', ['verify', file], { encoding: 'utf8' }).status).not.toBe(0);
  });
});

describe('launchd agent', () => {
  it.runIf(hasPython)('is a valid property list: label, program arguments, environment, restart only after a crash', () => {
    const file = join(dir, `${LAUNCHD_LABEL}.plist`);
    writeFileSync(file, launchdAgent({ ...SPEC, cli: '/Users/me/a & b/<dist>/cli.js' }));
    const r = spawnSync('python3', ['-c', 'import json, plistlib, sys; print(json.dumps(plistlib.load(open(sys.argv[1], "rb"))))', file], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual({
      Label: LAUNCHD_LABEL,
      ProgramArguments: [process.execPath, '/Users/me/a & b/<dist>/cli.js', 'watch'],
      EnvironmentVariables: { PATH: '/usr/bin:/bin', MADEINOZ_KNOWLEDGE_ENV_FILE: '/home/me/.config/graphiti-memory-sync/.env' },
      RunAtLoad: true,
      KeepAlive: { SuccessfulExit: false },
      ThrottleInterval: 10,
      ExitTimeOut: 20,
      StandardOutPath: '/home/me/state/logs/watch-service.log',
      StandardErrorPath: '/home/me/state/logs/watch-service.log',
    });
  });
});

describe('npm run watch under a supervisor', () => {
  let server: GraphitiTestServer;
  let sb: Sandbox;
  beforeEach(async () => {
    server = await startGraphitiServer({ processingDelayMs: 0 });
    sb = makeSandbox(server.url);
  });
  afterEach(async () => {
    await server.close();
    sb.cleanup();
  });

  it.runIf(process.platform === 'linux' && existsSync(join(ROOT, 'dist', 'cli.js')))('SIGTERM to npm stops the watcher too: no process is left behind', async () => {
    const script = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.watch;
    expect(script).toBe('exec node dist/cli.js watch');
    const npm = spawn('npm', ['run', '--silent', 'watch', '--', '--json'], { cwd: ROOT, env: sb.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    npm.stdout.on('data', (d: Buffer) => (out += d.toString()));
    await vi.waitFor(() => expect(out).toContain('"event":"ready"'), { timeout: 30_000, interval: 50 });
    // Every process under npm (with `exec`, the watcher is npm's direct child).
    const children = (pid: number): number[] => {
      try {
        const kids = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
        return kids.flatMap((k) => [k, ...children(k)]);
      } catch {
        return [];
      }
    };
    const tree = children(npm.pid as number);
    expect(tree.length).toBeGreaterThan(0);
    const exited = new Promise<void>((done) => npm.once('exit', () => done()));
    npm.kill('SIGTERM');
    await exited;
    await vi.waitFor(() => expect(tree.filter(isProcessAlive)).toEqual([]), { timeout: 15_000, interval: 50 });
  }, 60_000);
});
