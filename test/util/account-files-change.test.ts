/**
 * USER_PRIVATE_GROUP (util/safe-ancestors.ts) in a process that outlives a change of the account
 * files: a watch runs for days and judges the state folder's ancestors and the settings files at
 * every pass (its settings reload). When the admin adds another user to the user's own group, that
 * user can write to every folder the group may write; a judgement kept from the files as first read
 * went on calling the group the user's alone, for as long as the watch ran.
 * The account files are redirected to files of the test's (the machine's own are not to be changed).
 */
import * as fs from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { useTempDir } from '../helpers/use-temp-dir.js';

let dir = '';
useTempDir('gms-account-files-', (d) => {
  dir = d;
});

const ACCOUNT_FILES = new Set(['/etc/passwd', '/etc/group']);
/** An account file's path as the test keeps it, any other path as given. */
const redirected = (path: fs.PathOrFileDescriptor | fs.PathLike): typeof path => (typeof path === 'string' && ACCOUNT_FILES.has(path) ? join(dir, path.slice('/etc/'.length)) : path);

vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs')>();
  return {
    ...real,
    readFileSync: (path: fs.PathOrFileDescriptor, ...rest: unknown[]) => (real.readFileSync as (...a: unknown[]) => unknown)(redirected(path), ...rest),
    statSync: (path: fs.PathLike, ...rest: unknown[]) => (real.statSync as (...a: unknown[]) => unknown)(redirected(path), ...rest),
  };
});

const { writableByOthers } = await import('../../src/lib/util/safe-ancestors.js');

describe('USER_PRIVATE_GROUP when the account files change under a running process', () => {
  it.skipIf(process.platform === 'win32')('a group that gains another member is no longer the user\'s alone, without a restart', () => {
    const uid = process.getuid?.() as number;
    fs.writeFileSync(join(dir, 'passwd'), `me:x:${uid}:4242::/home/me:/bin/sh\nbob:x:${uid + 1}:100::/home/bob:/bin/sh\n`);
    fs.writeFileSync(join(dir, 'group'), 'users:x:100:\nme:x:4242:\n');
    const folder = { mode: 0o40775, gid: 4242 };
    expect(writableByOthers(folder)).toBe(false);
    // The admin adds bob to the user's group (usermod -aG me bob).
    fs.writeFileSync(join(dir, 'group'), 'users:x:100:\nme:x:4242:bob\n');
    expect(writableByOthers(folder)).toBe(true);
  });
});
