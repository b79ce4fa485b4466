/**
 * Settings files as their owners keep them (issue 31): symlinked into a dotfiles repository
 * (stow, chezmoi, ln -s), managed read-only (home-manager, another user's file), and edited by
 * Claude Code while we edit them.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli-main.js';
import { formatInstallResult, installRefused, mcpLocation, runInstall, runUninstall, settingsPath, type InstallOptions, type InstallScope } from '../../src/lib/install/install.js';
import { addedPart, toNix } from '../../src/lib/install/manual-entries.js';
import { resolveSettingsTarget, whyNotWritable } from '../../src/lib/install/settings-target.js';
import { useTempDir } from '../helpers/use-temp-dir.js';

let dir: string;
useTempDir('gms-links-', (d) => (dir = d));
let home: string;
let cwd: string;
let pkg: string;
let dotfiles: string;

beforeEach(() => {
  home = join(dir, 'home');
  cwd = join(dir, 'project');
  pkg = join(cwd, 'node_modules', 'graphiti-memory-sync');
  dotfiles = join(dir, 'dotfiles', 'claude');
  mkdirSync(join(home, '.claude'), { recursive: true });
  mkdirSync(join(pkg, 'dist', 'hooks'), { recursive: true });
  writeFileSync(join(pkg, 'dist', 'hooks', 'session-start.js'), '');
  mkdirSync(dotfiles, { recursive: true });
});

const opts = (extra: Partial<InstallOptions> = {}): InstallOptions => ({ scope: 'user', cwd, home, env: { HOME: home }, packageRoot: pkg, now: new Date('2026-03-01T10:00:00Z'), ...extra });

const ORIGINAL = `{
  "model": "opus",
  "permissions": { "allow": ["Bash(npm test)"] },
  "hooks": { "PreToolUse": [{ "matcher": "Bash", "hooks": [{ "type": "command", "command": "guard.sh" }] }] }
}
`;

/** Puts `text` in the dotfiles repository and links `file` to it (relative or absolute link). */
function linkInto(file: string, name: string, text: string | undefined, how: 'relative' | 'absolute'): string {
  const target = join(dotfiles, name);
  if (text !== undefined) writeFileSync(target, text);
  mkdirSync(join(file, '..'), { recursive: true });
  symlinkSync(how === 'relative' ? relative(join(file, '..'), target) : target, file);
  return target;
}

function scopeFile(scope: InstallScope): string {
  return settingsPath(opts({ scope }));
}

describe('a symlinked settings file: written through the link, the link kept', () => {
  for (const scope of ['user', 'project', 'local'] as const) {
    for (const how of ['relative', 'absolute'] as const) {
      it(`${scope} scope, ${how} link: install, a second install, uninstall; the link stays and the target ends byte for byte as it was`, async () => {
        const file = scopeFile(scope);
        const target = linkInto(file, `settings-${scope}.json`, ORIGINAL, how);
        const link = readlinkSync(file);

        const first = await runInstall(opts({ scope }));
        expect(lstatSync(file).isSymbolicLink()).toBe(true);
        expect(readlinkSync(file)).toBe(link);
        expect(first.files[0]).toMatchObject({ file, target, written: true });
        expect(readFileSync(target, 'utf8')).toContain('session-start.js');
        expect(formatInstallResult(first)).toContain(`${file} -> ${target}: updated`);
        // The temp file and the rename happened in the target's folder, not beside the link.
        expect(readdirSync(dotfiles).filter((n) => n.endsWith('.tmp'))).toEqual([]);

        const installed = readFileSync(target, 'utf8');
        const second = await runInstall(opts({ scope }));
        expect(second.files[0]).toMatchObject({ changed: false, written: false });
        expect(readFileSync(target, 'utf8')).toBe(installed);

        const back = await runUninstall(opts({ scope }));
        expect(back.files[0]).toMatchObject({ restored: true, written: true, target });
        expect(lstatSync(file).isSymbolicLink()).toBe(true);
        expect(readlinkSync(file)).toBe(link);
        expect(readFileSync(target, 'utf8')).toBe(ORIGINAL);
        expect(formatInstallResult(back)).toContain(`${file} -> ${target}: restored to its state before install`);
      });
    }
  }

  it('a link whose target does not exist yet: the target is created, and uninstall removes it again, leaving the link as it was', async () => {
    const file = scopeFile('user');
    const target = linkInto(file, 'settings.json', undefined, 'relative');
    await runInstall(opts());
    expect(lstatSync(file).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(target, 'utf8'))).toHaveProperty('hooks.Stop');
    const dry = await runUninstall(opts({ dryRun: true }));
    expect(formatInstallResult(dry)).toContain('would be removed (it did not exist before install)');
    expect(formatInstallResult(dry)).not.toContain('+ {}');
    await runUninstall(opts());
    expect(existsSync(target)).toBe(false);
    expect(lstatSync(file).isSymbolicLink()).toBe(true);
  });

  it('a chain of links (stow links a folder, the file inside is a link too) is followed to the end', () => {
    const real = join(dir, 'store', 'settings.json');
    mkdirSync(join(real, '..'), { recursive: true });
    writeFileSync(real, '{}\n');
    const middle = join(dotfiles, 'settings.json');
    symlinkSync(relative(dotfiles, real), middle);
    const file = join(home, '.claude', 'settings.json');
    symlinkSync(middle, file);
    expect(resolveSettingsTarget(file)).toEqual({ file, target: real, linked: true });
  });

  it('--with-mcp: the MCP file behind a link is written through it too', async () => {
    const mcpFile = mcpLocation(opts()).file;
    const text = '{"numStartups": 3}\n';
    const target = linkInto(mcpFile, 'claude.json', text, 'absolute');
    await runInstall(opts({ withMcp: true, mcpUrl: 'http://127.0.0.1:9/mcp' }));
    expect(lstatSync(mcpFile).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(target, 'utf8'))).toMatchObject({ numStartups: 3, mcpServers: { graphiti: { url: 'http://127.0.0.1:9/mcp' } } });
    await runUninstall(opts({ withMcp: true }));
    expect(lstatSync(mcpFile).isSymbolicLink()).toBe(true);
    expect(readFileSync(target, 'utf8')).toBe(text);
  });
});

describe('a target we must not write is refused: exit 1, the file and why, the entries to add; nothing written', () => {
  async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
    let out = '';
    let err = '';
    writeFileSync(join(dir, 'none.env'), '');
    const env = { HOME: home, MADEINOZ_KNOWLEDGE_STATE_DIR: join(dir, 'state'), MADEINOZ_KNOWLEDGE_ENV_FILE: join(dir, 'none.env'), MADEINOZ_KNOWLEDGE_MCP_URL: 'http://127.0.0.1:9/mcp' };
    const code = await main(args, { stdout: (t) => (out += t), stderr: (t) => (err += t), isTTY: false, env, cwd });
    return { code, out, err };
  }

  for (const dryRun of [false, true]) {
    it(`a read-only target (home-manager style)${dryRun ? ', --dry-run shows the same' : ''}`, async () => {
      const file = scopeFile('user');
      const target = linkInto(file, 'settings.json', ORIGINAL, 'relative');
      chmodSync(target, 0o444);
      const { code, out, err } = await cli(['install', ...(dryRun ? ['--dry-run'] : [])]);
      expect(err).toBe('');
      expect(code).toBe(1);
      expect(out).toContain(`${file} -> ${target}: not written: it is read-only (mode 0444)`);
      expect(out).toContain('Add these entries to your own configuration');
      // The exact entries, as JSON and as a home-manager attribute set.
      expect(out).toMatch(/"SessionStart": \[\s+\{\s+"matcher": "startup\|clear\|compact"/);
      expect(out).toContain('session-start.js');
      expect(out).toContain('programs.claude-code.settings = {');
      expect(out).toMatch(/SessionStart = \[\n\s+\{\n\s+matcher = "startup\|clear\|compact";/);
      // Other keys of the file are not repeated: only our part.
      expect(out).not.toContain('guard.sh');
      expect(readFileSync(target, 'utf8')).toBe(ORIGINAL);
      expect(lstatSync(file).isSymbolicLink()).toBe(true);
      expect(existsSync(join(dir, 'state', 'install'))).toBe(false);
      expect(existsSync(join(dir, 'state', 'backups'))).toBe(false);
    });
  }

  it('a file that belongs to another user is not replaced', async () => {
    const file = scopeFile('user');
    writeFileSync(file, ORIGINAL);
    chownSync(file, 4242, 4242);
    const result = await runInstall(opts());
    expect(installRefused(result)).toBe(true);
    expect(result.files[0]?.refused?.reason).toBe('it belongs to another user (uid 4242)');
    expect(readFileSync(file, 'utf8')).toBe(ORIGINAL);
    expect(lstatSync(file).uid).toBe(4242);
  });

  it('a Nix store target: named as such, with the home-manager attribute set', () => {
    expect(whyNotWritable('/nix/store/abc123-home-manager-files/.claude/settings.json')).toMatch(/Nix store/);
    expect(whyNotWritable(join(dir, 'store', 'x.json'), { nixStore: [join(dir, 'store')] })).toMatch(/Nix store/);
  });

  it('--with-mcp with a read-only MCP file: neither file is written, the MCP entry is printed', async () => {
    const settings = scopeFile('user');
    writeFileSync(settings, ORIGINAL);
    const mcpFile = mcpLocation(opts()).file;
    writeFileSync(mcpFile, '{}\n');
    chmodSync(mcpFile, 0o400);
    const result = await runInstall(opts({ withMcp: true, mcpUrl: 'http://127.0.0.1:9/mcp' }));
    expect(readFileSync(settings, 'utf8')).toBe(ORIGINAL);
    expect(readFileSync(mcpFile, 'utf8')).toBe('{}\n');
    const text = formatInstallResult(result);
    expect(text).toContain(`${settings}: not written (another file was refused)`);
    expect(text).toContain(`${mcpFile}: not written: it is read-only (mode 0400)`);
    expect(text).toContain('"graphiti": {');
    expect(text).toContain('programs.claude-code.mcpServers = {');
  });

  it('uninstall from a file that became read-only names the entries to remove', async () => {
    const file = scopeFile('user');
    writeFileSync(file, ORIGINAL);
    await runInstall(opts());
    const installed = readFileSync(file, 'utf8');
    chmodSync(file, 0o444);
    const result = await runUninstall(opts());
    expect(formatInstallResult(result)).toContain('Remove these entries from your own configuration');
    expect(readFileSync(file, 'utf8')).toBe(installed);
  });
});

describe('no lost update: a change made between our read and our write survives', () => {
  for (const scope of ['user', 'project', 'local'] as const) {
    it(`${scope} scope: install merges a permission Claude Code granted meanwhile`, async () => {
      const file = scopeFile(scope);
      mkdirSync(join(file, '..'), { recursive: true });
      writeFileSync(file, ORIGINAL);
      let injected = 0;
      const result = await runInstall(
        opts({
          scope,
          beforeWrite: (f) => {
            if (f !== file || injected++ > 0) return;
            const value = JSON.parse(readFileSync(f, 'utf8')) as { permissions: { allow: string[] } };
            value.permissions.allow.push('Bash(git status)');
            writeFileSync(f, `${JSON.stringify(value, null, 2)}\n`);
          },
        }),
      );
      expect(injected).toBe(2);
      expect(result.files[0]?.written).toBe(true);
      const after = JSON.parse(readFileSync(file, 'utf8')) as { permissions: { allow: string[] }; hooks: Record<string, unknown> };
      expect(after.permissions.allow).toEqual(['Bash(npm test)', 'Bash(git status)']);
      expect(Object.keys(after.hooks)).toEqual(['PreToolUse', 'SessionStart', 'Stop']);
    });
  }

  it('uninstall: the change survives too (only our entries go, nothing is restored over it)', async () => {
    const file = scopeFile('user');
    writeFileSync(file, ORIGINAL);
    await runInstall(opts());
    let injected = false;
    const result = await runUninstall(
      opts({
        beforeWrite: (f) => {
          if (injected) return;
          injected = true;
          const value = JSON.parse(readFileSync(f, 'utf8')) as Record<string, unknown>;
          writeFileSync(f, `${JSON.stringify({ ...value, theme: 'dark' }, null, 2)}\n`);
        },
      }),
    );
    expect(result.files[0]?.restored).toBeUndefined();
    const after = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    expect(after.theme).toBe('dark');
    expect(after.hooks).toEqual(JSON.parse(ORIGINAL).hooks);
  });

  it('the MCP entry in ~/.claude.json (which Claude Code rewrites all the time) keeps a change made meanwhile', async () => {
    const mcpFile = mcpLocation(opts()).file;
    writeFileSync(mcpFile, '{"numStartups": 1}\n');
    let injected = false;
    await runInstall(
      opts({
        withMcp: true,
        mcpUrl: 'http://127.0.0.1:9/mcp',
        beforeWrite: (f) => {
          if (f !== mcpFile || injected) return;
          injected = true;
          writeFileSync(f, '{"numStartups": 2, "tipsHistory": {}}\n');
        },
      }),
    );
    expect(JSON.parse(readFileSync(mcpFile, 'utf8'))).toEqual({ numStartups: 2, tipsHistory: {}, mcpServers: { graphiti: { type: 'http', url: 'http://127.0.0.1:9/mcp' } } });
  });

  it('a file that keeps changing stops the command with a message; what the other program wrote stays', async () => {
    const file = scopeFile('user');
    writeFileSync(file, ORIGINAL);
    let n = 0;
    const error = await runInstall(opts({ beforeWrite: (f) => writeFileSync(f, `{"n": ${++n}}\n`) })).catch((e: unknown) => e as Error);
    expect((error as Error).message).toMatch(/kept changing while install was writing it.*nothing was written.*install" again/);
    expect(readFileSync(file, 'utf8')).toBe(`{"n": ${n}}\n`);
  });
});

describe('manual entries', () => {
  it('addedPart keeps only what is new; toNix quotes what Nix needs quoted', () => {
    expect(addedPart({ a: 1, h: { X: [1] } }, { a: 1, h: { X: [1, 2], Y: [3] } })).toEqual({ h: { X: [2], Y: [3] } });
    expect(toNix({ 'a-b': 'x"${y}', list: [-1, true, null], 'with space': {} })).toBe('{\n  a-b = "x\\"\\${y}";\n  list = [\n    (-1)\n    true\n    null\n  ];\n  "with space" = { };\n}');
  });
});

describe('a settings file on a read-only file system (a real read-only mount; needs mount privileges)', () => {
  const mounted: string[] = [];
  afterEach(() => {
    for (const m of mounted.splice(0)) spawnSync('umount', [m]);
  });

  /** A read-only tmpfs at `dir`, or false when this machine does not let us mount one. */
  function readOnlyMount(at: string): boolean {
    mkdirSync(at, { recursive: true });
    const r = spawnSync('mount', ['-t', 'tmpfs', '-o', 'ro,size=1m', 'tmpfs', at]);
    if (r.status !== 0) return false;
    mounted.push(at);
    return true;
  }

  it('a link into it: exit 1 with "read-only file system", the entries printed, nothing written', async (ctx) => {
    const ro = join(dir, 'ro');
    if (!readOnlyMount(ro)) ctx.skip();
    const file = scopeFile('user');
    symlinkSync(join(ro, 'settings.json'), file);
    const result = await runInstall(opts());
    expect(installRefused(result)).toBe(true);
    expect(result.files[0]?.refused?.reason).toBe(`its folder ${ro} is on a read-only file system`);
    expect(formatInstallResult(result)).toContain('programs.claude-code.settings = {');
    expect(lstatSync(file).isSymbolicLink()).toBe(true);
    expect(readdirSync(ro)).toEqual([]);
  });
});
