/** `link` and `pull` on the command line (issue 42): the next step when not linked, the key as one line, conflicts in `status`. */
import { statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli-main.js';
import { noteKeyPath } from '../../src/lib/state/note-key.js';
import type { Sandbox } from '../support/sandbox.js';
import type { GraphitiTestServer } from '../support/graphiti-server.js';
import { useServerAndSandbox } from '../helpers/use-server-and-sandbox.js';
import { machine, topic } from '../pull/homes.js';
import { cli } from '../../src/lib/util/install-route.js';

/** The running copy's command (this checkout's: node and the path of its dist/cli.js), as a regular expression. */
const CLI = cli().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

let box: Sandbox;
let server: GraphitiTestServer;
useServerAndSandbox((s, b) => {
  server = s;
  box = b;
});

async function run(args: string[], on: Sandbox = box): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(args, { stdout: (t) => void (out += t), stderr: (t) => void (err += t), isTTY: false, env: on.env, cwd: on.root });
  return { code, out, err };
}

describe('link and pull commands', () => {
  it('pull on a machine not linked exits 2 and names both ways to link; link makes the key (0600) and says how to link another machine; --export prints it as one line', async () => {
    const before = await run(['pull']);
    expect(before.code).toBe(2);
    expect(before.out).toMatch(new RegExp(String.raw`not linked.*\`${CLI} link\`.*\`${CLI} link --import\``));
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
  it('link after notes were sent says that the next sync re-sends them once, signed, and why; the sync says it is signing them; then neither says it again', async () => {
    const m = machine(server, 'laptop');
    try {
      m.write('one.md', topic('One', 'Sent before linking.'));
      m.write('two.md', topic('Two', 'Also sent before linking.'));
      await m.sync();
      const linked = await run(['link'], m.box);
      expect(linked.out).toContain('Signing: the next sync re-sends 2 note(s) sent before this machine was linked, once, signed (one extraction each on the server): your other machines pull, and `pull --all` restores, only notes signed with your key.');
      const synced = await run(['sync', '--wait', '5000'], m.box);
      expect(synced.out).toContain('signing 2 note(s) sent before this machine was linked');
      await m.sync();
      expect((await run(['link'], m.box)).out).not.toContain('Signing');
      expect((await run(['sync'], m.box)).out).not.toContain('signing');
    } finally {
      m.box.cleanup();
    }
  });
});
