/** Origins follow the memory they own: kept beside the Claude config folder (issue 24 item 4). */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { earlierDerivedOrigin, machineKey, ORIGIN_FILE, ORIGIN_NAME, OriginFileError, originIdentity, originOf, originPlace, ourOrigins, recordMachineChoice, type MachineFacts } from '../../src/lib/util/origin.js';
import { srcUrl } from '../support/paths.js';
import { useTempDir } from '../helpers/use-temp-dir.js';

let dir0 = '';
useTempDir('gms-origin-', (d) => (dir0 = d));
const tmp = () => dir0;
const machine: MachineFacts = { machineId: 'baked-into-the-image', hostname: 'ci-runner-1', user: 'runner' };

function claudeDir(name: string): string {
  const dir = join(tmp(), name, '.claude');
  mkdirSync(dir, { recursive: true });
  return dir;
}

describe('origins', () => {
  it('an origin name is m- and 10 hex characters, derived ones stable per machine and user', () => {
    expect(originOf('machine-a', 'me')).toBe(originOf('machine-a', 'me'));
    expect(originOf('machine-a', 'me')).not.toBe(originOf('machine-b', 'me'));
    expect(originOf('machine-a', 'me')).not.toBe(originOf('machine-a', 'you'));
    expect(originOf('machine-a', 'me')).toMatch(/^m-[0-9a-f]{10}$/);
  });

  it('two homes of one user on one machine (the same machine id) get two origins', () => {
    const a = originIdentity(claudeDir('home-a'), machine);
    const b = originIdentity(claudeDir('home-b'), machine);
    expect(a.origin).toMatch(ORIGIN_NAME);
    expect(a.origin).toMatch(/^m-[0-9a-f]{10}$/);
    expect(a.origin).not.toBe(b.origin);
    // Both remember what earlier versions named them, to take those episodes over.
    expect(a.previous).toContain(earlierDerivedOrigin(machine));
    expect(ourOrigins({ origin: a.origin, previousOrigins: a.previous }).has(earlierDerivedOrigin(machine))).toBe(true);
  });

  it('kept beside the memory, private: the same after a container rebuild (new host name, no machine id) and in another process', () => {
    const dir = claudeDir('home');
    const first = originIdentity(dir, machine);
    expect(first.file).toBe(join(dir, ORIGIN_FILE));
    expect(statSync(first.file as string).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'graphiti-memory-sync')).mode & 0o777).toBe(0o700);
    const rebuilt = originIdentity(dir, { machineId: undefined, hostname: 'f3a9c2d1e0b4', user: 'root' });
    expect(rebuilt).toEqual(first);
    const child = spawnSync(process.execPath, ['--import', 'tsx', '-e', `import(${JSON.stringify(srcUrl('src/lib/util/origin.ts'))}).then((m) => process.stdout.write(m.originIdentity(${JSON.stringify(dir)}).origin))`], { encoding: 'utf8' });
    expect(child.stdout).toBe(first.origin);
  });

  it('without a Claude config folder: derived per machine, user and folder, never from the host name alone, and nothing created', () => {
    const missing = join(tmp(), 'nobody', '.claude');
    const noId = (host: string): MachineFacts => ({ machineId: undefined, hostname: host, user: 'me' });
    const a = originIdentity(missing, noId('host-1'));
    expect(a.file).toBeUndefined();
    expect(a.origin).not.toBe(originIdentity(join(tmp(), 'other', '.claude'), noId('host-1')).origin);
    expect(a.origin).not.toBe(earlierDerivedOrigin(noId('host-1')));
    expect(() => statSync(missing)).toThrow();
  });

  it('a damaged origin file is a clear error naming the fix, never silently replaced', () => {
    const dir = claudeDir('damaged');
    const file = join(dir, ORIGIN_FILE);
    mkdirSync(join(dir, 'graphiti-memory-sync'));
    writeFileSync(file, '{"origin": "Not Valid"}');
    expect(() => originIdentity(dir, machine)).toThrow(OriginFileError);
    expect(() => originIdentity(dir, machine)).toThrow(/delete it to start a new origin.*MADEINOZ_KNOWLEDGE_ORIGIN/);
    expect(readFileSync(file, 'utf8')).toBe('{"origin": "Not Valid"}');
  });

  it.runIf(process.getuid?.() !== 0)('a read-only Claude config folder: the derived origin, no error', () => {
    const dir = claudeDir('readonly');
    chmodSync(dir, 0o500);
    try {
      const id = originIdentity(dir, machine);
      expect(id.file).toBeUndefined();
      expect(id.origin).toBe(originIdentity(dir, machine).origin);
    } finally {
      chmodSync(dir, 0o700);
    }
  });

  describe('where the origin file was made (sync/copy-hold.ts)', () => {
    const other: MachineFacts = { machineId: 'another-laptop', hostname: 'laptop-2', user: 'runner' };
    const keyOf = (m: MachineFacts) => machineKey(m.machineId);

    it('here on the machine that made it, elsewhere on another one; no machine id here (a container) is unknown, never elsewhere', () => {
      const dir = claudeDir('place');
      originIdentity(dir, machine);
      expect(originPlace(dir, machine, keyOf(machine))).toBe('here');
      expect(originPlace(dir, other, keyOf(other))).toBe('elsewhere');
      const container: MachineFacts = { machineId: undefined, hostname: 'f3a9c2d1e0b4', user: 'root' };
      expect(originPlace(dir, container, keyOf(container))).toBe('unknown');
      // Only a hash of the machine id is kept.
      expect(readFileSync(join(dir, ORIGIN_FILE), 'utf8')).not.toContain(machine.machineId);
    });

    it('a file from before `madeOn` is placed by the id this machine and user would have derived', () => {
      const dir = claudeDir('legacy');
      mkdirSync(join(dir, 'graphiti-memory-sync'));
      writeFileSync(join(dir, ORIGIN_FILE), JSON.stringify({ origin: 'm-0123456789', previous: [earlierDerivedOrigin(machine)], createdAt: '2026-11-01T00:00:00.000Z' }));
      expect(originPlace(dir, machine, keyOf(machine))).toBe('here');
      expect(originPlace(dir, other, keyOf(other))).toBe('elsewhere');
    });

    it('keep: the same origin, here from now on; split: an origin of this machine\'s own with nothing earlier; the maker and other machines are unaffected', () => {
      const dir = claudeDir('choices');
      const made = originIdentity(dir, machine);
      const third: MachineFacts = { machineId: 'third', hostname: 'h3', user: 'runner' };
      recordMachineChoice(dir, keyOf(other) as string, 'keep');
      expect(originPlace(dir, other, keyOf(other))).toBe('here');
      expect(originIdentity(dir, other)).toEqual(made);
      recordMachineChoice(dir, keyOf(third) as string, 'split');
      const split = originIdentity(dir, third);
      expect(split.origin).toMatch(/^m-[0-9a-f]{10}$/);
      expect(split.origin).not.toBe(made.origin);
      expect(split.previous).toEqual([]);
      expect(originPlace(dir, third, keyOf(third))).toBe('here');
      expect(originIdentity(dir, machine)).toEqual(made);
      expect(originIdentity(dir, other)).toEqual(made);
      expect(statSync(join(dir, ORIGIN_FILE)).mode & 0o777).toBe(0o600);
    });
  });
});
