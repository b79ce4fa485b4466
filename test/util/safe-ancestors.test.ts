/**
 * USER_PRIVATE_GROUP (util/safe-ancestors.ts): a folder writable by its group is no one else's only
 * when the account files show that group as the user's alone; login's umask 002 with user private
 * groups makes the home's folders so, and refusing them would refuse most homes on such systems.
 */
import { describe, expect, it } from 'vitest';
import { privateGroup } from '../../src/lib/util/safe-ancestors.js';

const passwd = ['root:x:0:0:root:/root:/bin/bash', 'ann:x:1000:1000::/home/ann:/bin/bash', 'bob:x:1001:100::/home/bob:/bin/bash', 'cy:x:1002:100::/home/cy:/bin/bash', 'svc:x:999:995::/:/usr/sbin/nologin', ''].join('\n');
const group = ['root:x:0:', 'users:x:100:', 'ann:x:1000:', 'dev:x:1500:ann,bob', 'svc:x:995:', 'solo:x:1600:ann', ''].join('\n');

describe('USER_PRIVATE_GROUP', () => {
  it("the user's own group (no member but them, no one else's primary group) is private, whatever its number", () => {
    expect(privateGroup(1000, 1000, { passwd, group })).toBe(true);
    expect(privateGroup(995, 999, { passwd, group })).toBe(true);
    expect(privateGroup(1600, 1000, { passwd, group })).toBe(true);
  });

  it('a group with another member, or another user\'s primary group, or one the files do not show, is not', () => {
    expect(privateGroup(1500, 1000, { passwd, group })).toBe(false);
    expect(privateGroup(100, 1001, { passwd, group })).toBe(false);
    expect(privateGroup(1000, 1001, { passwd, group })).toBe(false);
    expect(privateGroup(4242, 1000, { passwd, group })).toBe(false);
    expect(privateGroup(1000, 1000, { passwd: '', group: '' })).toBe(false);
  });

  // A gid may be given to two groups (groupadd -o, or an admin reusing a number): the kernel knows
  // only the number, so a member of either one writes what the group may write. Judged on the
  // first row alone, a second row's members went unseen.
  it('a gid that another row of the group file shares with members is not private', () => {
    const shared = `${group}team:x:1000:bob\n`;
    expect(privateGroup(1000, 1000, { passwd, group: shared })).toBe(false);
    // The same gid in another row with no member but the user still is.
    expect(privateGroup(1000, 1000, { passwd, group: `${group}ann2:x:1000:ann\n` })).toBe(true);
  });
});
