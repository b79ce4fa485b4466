/**
 * `uninstall` removes one scope's hook entries; Claude Code may still run the tool from another
 * scope's settings or from the plugin. The report said only what it removed ("removed", exit 0),
 * so the user took the tool for gone while every session still synced and loaded the graph; and
 * the local Graphiti server kept running with nothing left to stop it once the package was removed
 * (commands/uninstall-report.ts UNINSTALL_NAMES_WHAT_STAYS). Run through the command line as a user types it.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli-main.js';
import { writeRuntime } from '../../src/lib/config/server-runtime.js';
import { startFakeSupervisor } from '../support/fake-supervisor.js';
import { makeSandbox, type Sandbox } from '../support/sandbox.js';

let box: Sandbox;
beforeEach(() => {
  box = makeSandbox('http://127.0.0.1:9/mcp');
  mkdirSync(join(box.root, 'project', '.git'), { recursive: true });
});
afterEach(() => box.cleanup());

async function cli(args: string[]): Promise<{ code: number; out: string }> {
  let out = '';
  const env = { ...box.env, HOME: join(box.root, 'home'), CLAUDE_CONFIG_DIR: join(box.root, 'claude') };
  const code = await main(args, { stdout: (t) => void (out += t), stderr: (t) => void (out += t), isTTY: false, env, cwd: join(box.root, 'project') });
  return { code, out };
}

const STILL = /Claude Code still runs graphiti-memory-sync/;

describe('uninstall says what of the tool Claude Code still runs', () => {
  it('entries of another scope: named with the command that removes them; none once that ran too', async () => {
    expect((await cli(['install', '--scope', 'user'])).code).toBe(0);
    expect((await cli(['install', '--scope', 'local'])).code).toBe(0);

    const user = await cli(['uninstall']);
    expect(user.code).toBe(0);
    expect(user.out).toMatch(/settings\.json: removed/);
    const local = join(box.root, 'project', '.claude', 'settings.local.json');
    expect(user.out).toContain(`Claude Code still runs graphiti-memory-sync from the settings hooks in ${local} (local scope)`);
    expect(user.out).toMatch(/to remove it too, run "[^"]* uninstall --scope local"/);

    const dry = await cli(['uninstall', '--scope', 'local', '--dry-run']);
    expect(dry.out).not.toMatch(STILL);
    const last = await cli(['uninstall', '--scope', 'local']);
    expect(last.code).toBe(0);
    expect(last.out).not.toMatch(STILL);
  });

  it('the plugin enabled beside the settings hooks: named with "claude plugin uninstall"', async () => {
    const marketplace = join(box.root, 'marketplace');
    mkdirSync(join(marketplace, '.claude-plugin'), { recursive: true });
    writeFileSync(join(marketplace, '.claude-plugin', 'marketplace.json'), JSON.stringify({ name: 'gms', plugins: [{ name: 'graphiti-memory-sync', source: './plugin' }] }));
    const claudeDir = join(box.root, 'claude');
    mkdirSync(join(claudeDir, 'plugins'), { recursive: true });
    writeFileSync(join(claudeDir, 'plugins', 'known_marketplaces.json'), JSON.stringify({ gms: { source: { source: 'directory', path: marketplace }, installLocation: marketplace } }));
    writeFileSync(join(claudeDir, 'settings.json'), JSON.stringify({ enabledPlugins: { 'graphiti-memory-sync@gms': true } }));
    expect((await cli(['install', '--scope', 'user'])).code).toBe(0);

    const out = (await cli(['uninstall'])).out;
    expect(out).toMatch(/settings\.json: restored to its state before install/);
    expect(out).toContain('Claude Code still runs graphiti-memory-sync from the plugin graphiti-memory-sync@gms');
    expect(out).toContain('to remove it too, run "claude plugin uninstall graphiti-memory-sync@gms"');
  });

  it('the local server still running once no copy is left: named with "server stop"; not while a copy still uses it', async () => {
    const supervisor = await startFakeSupervisor();
    try {
      const state = box.env.MADEINOZ_KNOWLEDGE_STATE_DIR as string;
      writeRuntime(state, { state: 'ready', pid: supervisor.identity.pid, identities: { supervisor: supervisor.identity }, url: 'http://127.0.0.1:45123/mcp', generation: '0.31.2', serverVersion: '1.1.2', mcp: 'x', falkordbBin: 'x', dataDir: '/d', logDir: '/l', startedAt: '2026-01-01T00:00:00Z' });
      expect((await cli(['install', '--scope', 'user'])).code).toBe(0);
      expect((await cli(['install', '--scope', 'local'])).code).toBe(0);
      expect((await cli(['uninstall'])).out).not.toMatch(/Graphiti server/);
      const last = await cli(['uninstall', '--scope', 'local']);
      expect(last.out).toMatch(/the local Graphiti server \(server start\) is still running at http:\/\/127\.0\.0\.1:45123\/mcp: if nothing else uses it, stop it with "[^"]* server stop" before you remove the package/);
    } finally {
      const gone = new Promise((r) => supervisor.child.once('exit', r));
      supervisor.child.kill('SIGKILL');
      await gone;
    }
    expect((await cli(['uninstall'])).out).not.toMatch(/Graphiti server/);
  });
});
