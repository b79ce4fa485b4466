/** `link` and `pull` on the command line (issue 42): the next step when not linked, the key as one line, conflicts in `status`. */
import { statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import { noteKeyPath } from '../../src/lib/state/note-key.js';
import type { Sandbox } from '../support/sandbox.js';
import { useServerAndSandbox } from '../helpers/use-server-and-sandbox.js';

let box: Sandbox;
useServerAndSandbox((_s, b) => {
  box = b;
});

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(args, { stdout: (t) => void (out += t), stderr: (t) => void (err += t), isTTY: false, env: box.env, cwd: box.root });
  return { code, out, err };
}

describe('link and pull commands', () => {
  it('pull on a machine not linked exits 2 and names both ways to link; link makes the key (0600) and says how to link another machine; --export prints it as one line', async () => {
    const before = await run(['pull']);
    expect(before.code).toBe(2);
    expect(before.out).toMatch(/not linked.*`graphiti-memory-sync link`.*`graphiti-memory-sync link --import`/);
    const made = await run(['link']);
    expect(made.code).toBe(0);
    expect(made.out).toMatch(/^Made a note key .*never sent to the server/);
    expect(made.out).toContain('link --export');
    expect(statSync(noteKeyPath(box.config().stateDir)).mode & 0o777).toBe(0o600);
    const again = await run(['link']);
    expect(again.out).toMatch(/^This machine has a note key/);
    const exported = await run(['link', '--export']);
    expect(exported.out).toMatch(/^gms-key-1:[A-Za-z0-9_-]{43}\n$/);
    const renewed = await run(['link', '--new']);
    expect(renewed.out).toMatch(/^Made a new note key/);
    expect((await run(['link', '--export'])).out).not.toBe(exported.out);
    expect(statSync(noteKeyPath(box.config().stateDir)).mode & 0o777).toBe(0o600);
    const pulled = await run(['pull']);
    expect(pulled.code).toBe(0);
    expect(pulled.out).toMatch(/0 pulled, 0 new conflict\(s\), 0 open, 0 removed, 0 held\./);
  });
  it('pull --init makes the key first; --json prints the report', async () => {
    const r = await run(['pull', '--init', '--json']);
    expect(r.code).toBe(0);
    expect(r.err).toContain('made a note key');
    expect(JSON.parse(r.out)).toMatchObject({ linked: true, written: [], conflicts: [] });
  });
});
