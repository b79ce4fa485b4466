/** Origins: the default one is derived from the machine and the user, never stored. */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { machineOrigin, ORIGIN_NAME, originOf } from '../../src/lib/util/origin.js';
import { srcUrl } from '../support/paths.js';

describe('origins', () => {
  it('one per machine and user, a valid name, the same in every process', () => {
    expect(originOf('machine-a', 'me')).toBe(originOf('machine-a', 'me'));
    expect(originOf('machine-a', 'me')).not.toBe(originOf('machine-b', 'me'));
    expect(originOf('machine-a', 'me')).not.toBe(originOf('machine-a', 'you'));
    expect(machineOrigin()).toMatch(ORIGIN_NAME);
    expect(machineOrigin()).toMatch(/^m-[0-9a-f]{10}$/);
    // Another process (a reinstall, a lost state folder) derives the same one.
    const child = spawnSync(process.execPath, ['--import', 'tsx', '-e', `import(${JSON.stringify(srcUrl('src/lib/util/origin.ts'))}).then((m) => process.stdout.write(m.machineOrigin()))`], { encoding: 'utf8' });
    expect(child.stdout).toBe(machineOrigin());
  });
});
