/**
 * environment.ts DEAD_BUILDS removes a build's work folder only when its builder has provably ended.
 * Where the builder's command line cannot be read (hidden from us: /proc mounted with hidepid, a
 * process of another namespace), the builder is still building and its folder must stay: removing it
 * would break a live concurrent build. Simulated by making /proc/<pid>/cmdline unreadable.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';

vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const readFileSync = ((path: unknown, ...rest: unknown[]) => {
    if (typeof path === 'string' && /^\/proc\/\d+\/cmdline$/.test(path)) throw Object.assign(new Error('EACCES: hidden'), { code: 'EACCES' });
    return (fs.readFileSync as (...a: unknown[]) => unknown)(path, ...rest);
  }) as typeof fs.readFileSync;
  return { ...fs, default: { ...fs, readFileSync }, readFileSync };
});

const { removeDeadBuilds } = await import('../../src/lib/server/environment.js');
const { processStartTime } = await import('../../src/lib/util/process-identity.js');

const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});

describe.runIf(process.platform === 'linux')('DEAD_BUILDS with a builder whose command line cannot be read', () => {
  it('keeps a live builder\'s folder, and still removes one whose pid now belongs to a process started at another time', () => {
    const root = mkdtempSync(join(tmpdir(), 'gms-dead-builds-'));
    roots.push(root);
    const start = processStartTime(process.pid);
    expect(start).toBeDefined();
    const live = join(root, `graphiti-0.31.2-abc.building-${process.pid}`);
    mkdirSync(live);
    writeFileSync(join(live, 'builder.json'), JSON.stringify({ pid: process.pid, start }));
    // The same pid recorded with another start time: a dead build's pid reused since.
    const reused = join(root, `graphiti-0.31.1-def.building-${process.pid}`);
    mkdirSync(reused);
    writeFileSync(join(reused, 'builder.json'), JSON.stringify({ pid: process.pid, start: `${start}0` }));
    expect(removeDeadBuilds(root)).toEqual([`graphiti-0.31.1-def.building-${process.pid}`]);
    expect(existsSync(live)).toBe(true);
    expect(existsSync(reused)).toBe(false);
  });
});
