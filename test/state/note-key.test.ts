/** The note key file (issue 42): made once, 0600, never read through a symlink or when others can read it; imported and exported as one line. */
import { chmodSync, mkdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensureNoteKey, formatNoteKey, importNoteKey, noteKeyPath, NoteKeyError, parseNoteKey, readNoteKey } from '../../src/lib/state/note-key.js';
import { useTempDir } from '../helpers/use-temp-dir.js';
import { cli } from '../../src/lib/util/install-route.js';

/** The running copy's command (this checkout's: node and the path of its dist/cli.js), as a regular expression. */
const CLI = cli().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

let dir = '';
useTempDir('gms-key-', (d) => (dir = d));

describe('note key', () => {
  it('is made once, mode 0600, in a 0700 folder, and read back the same', () => {
    const state = join(dir, 'state');
    expect(readNoteKey(state)).toBeUndefined();
    const made = ensureNoteKey(state);
    expect(made.created).toBe(true);
    expect(statSync(noteKeyPath(state)).mode & 0o777).toBe(0o600);
    expect(statSync(state).mode & 0o777).toBe(0o700);
    const again = ensureNoteKey(state);
    expect(again.created).toBe(false);
    expect(Buffer.from(again.key).equals(Buffer.from(made.key))).toBe(true);
  });
  it('export on one machine, import on another: the same key; a different key is replaced only when asked', async () => {
    const a = join(dir, 'a');
    const b = join(dir, 'b');
    const { key } = ensureNoteKey(a);
    const line = formatNoteKey(key);
    expect(line).toMatch(/^gms-key-1:[A-Za-z0-9_-]{43}$/);
    ensureNoteKey(b); // b made its own first
    await expect(importNoteKey(b, `${line}\n`)).rejects.toThrow(/different note key.*--replace/);
    expect(await importNoteKey(b, line, { replace: true })).toEqual({ replaced: true, same: false });
    expect(Buffer.from(readNoteKey(b) ?? []).equals(Buffer.from(key))).toBe(true);
    expect(await importNoteKey(b, line)).toEqual({ replaced: false, same: true });
    expect(statSync(noteKeyPath(b)).mode & 0o777).toBe(0o600);
    expect(() => parseNoteKey('gms-key-1:short')).toThrow(NoteKeyError);
  });
  it('a symlink at the key, or a key others can read, is refused with the fix, never used', async () => {
    const state = join(dir, 's');
    mkdirSync(state, { mode: 0o700 });
    const elsewhere = join(dir, 'elsewhere');
    const { key } = ensureNoteKey(join(dir, 'src'));
    writeFileSync(elsewhere, formatNoteKey(key), { mode: 0o600 });
    symlinkSync(elsewhere, noteKeyPath(state));
    expect(() => readNoteKey(state)).toThrow(/symbolic link/);
    expect(() => ensureNoteKey(state)).toThrow(NoteKeyError);
    // Importing replaces the link itself, never writes through it.
    await importNoteKey(state, formatNoteKey(key), { replace: true });
    expect(readNoteKey(state)).toBeDefined();
    chmodSync(noteKeyPath(state), 0o644);
    expect(() => readNoteKey(state)).toThrow(/chmod 600/);
  });
  it('a damaged key file: the step it names (link --import --replace) works', async () => {
    const { key } = ensureNoteKey(join(dir, 'src'));
    const state = join(dir, 'damaged');
    mkdirSync(state, { mode: 0o700 });
    writeFileSync(noteKeyPath(state), 'half a key\n', { mode: 0o600 });
    let message = '';
    try {
      readNoteKey(state);
    } catch (error) {
      message = (error as Error).message;
    }
    // The step: the `link` flags the message names, run as the CLI runs them.
    const flags = new RegExp(String.raw`\`${CLI} link ((?:--[a-z]+ ?)+)\``).exec(message)?.[1]?.trim().split(' ') ?? [];
    expect(flags).toContain('--import');
    expect(await importNoteKey(state, formatNoteKey(key), { replace: flags.includes('--replace') })).toMatchObject({ same: false });
    expect(Buffer.from(readNoteKey(state) ?? []).equals(Buffer.from(key))).toBe(true);
  });
});
