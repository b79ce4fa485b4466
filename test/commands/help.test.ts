/** `--help` for every command and subcommand, `--version`, and "did you mean" (issue 30). */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { describe, expect, it } from 'vitest';
import { main, type CliIo } from '../../src/cli-main.js';
import { closest } from '../../src/commands/help.js';
import { cli } from '../../src/lib/util/install-route.js';
import { COMMANDS, parseArgsOptions, type CommandSpec } from '../../src/commands/spec.js';
import { parseServerArgs } from '../../src/lib/server/server-command.js';

const ROOT = join(import.meta.dirname, '..', '..');

async function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  // No settings are read for help: an empty environment proves it.
  const io: CliIo = { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), isTTY: false, env: {}, cwd: ROOT };
  const code = await main(args, io);
  return { code, stdout, stderr };
}

/** The `--name` flags a help text lists under "Options:". */
function listedOptions(help: string): string[] {
  const section = help.split('\nOptions:\n')[1] ?? '';
  return [...section.matchAll(/^\s+(?:-\w, )?--([a-z][a-z-]*)/gm)].map((m) => m[1] as string).filter((n) => n !== 'help');
}

/** A value parseArgs and our own checks accept for a string option. */
function sampleValue(name: string): string {
  return ({ scope: 'user', platform: 'linux', source: 'pai', cwd: ROOT } as Record<string, string>)[name] ?? '5';
}

const commands = COMMANDS.filter((c) => c.subcommands === undefined);
const server = COMMANDS.find((c) => c.name === 'server') as CommandSpec;

describe('--help', () => {
  for (const spec of commands) {
    it(`${spec.name} --help: exit 0, lists every option the command accepts, and each listed option parses`, async () => {
      const { code, stdout, stderr } = await run([spec.name, '--help']);
      expect(code).toBe(0);
      expect(stderr).toBe('');
      expect(stdout).toContain(`Usage: graphiti-memory-sync ${spec.name}`);
      const listed = listedOptions(stdout);
      expect(listed.sort()).toEqual(Object.keys(spec.options).sort());
      for (const name of listed) {
        const args = spec.options[name]?.type === 'string' ? [`--${name}`, sampleValue(name)] : [`--${name}`];
        expect(() => parseArgs({ args, options: parseArgsOptions(spec), strict: true, allowPositionals: false })).not.toThrow();
      }
      // -h and a --help after other options work too.
      expect((await run([spec.name, '-h'])).stdout).toBe(stdout);
      expect((await run([spec.name, '--bogus', '--help'])).code).toBe(0);
    });
  }

  for (const sub of server.subcommands ?? []) {
    it(`server ${sub.name} --help: exit 0, lists the options "server ${sub.name}" accepts, each parses`, async () => {
      const { code, stdout, stderr } = await run(['server', sub.name, '--help']);
      expect(stderr).toBe('');
      expect(code).toBe(0);
      expect(stdout).toContain(`Usage: graphiti-memory-sync server ${sub.name}`);
      const listed = listedOptions(stdout);
      expect(listed.sort()).toEqual(Object.keys(sub.options).sort());
      for (const name of listed) {
        const args = sub.options[name]?.type === 'string' ? [`--${name}`, sampleValue(name)] : [`--${name}`];
        expect(() => parseServerArgs([sub.name, ...args])).not.toThrow();
      }
    });
  }

  it('server --help lists every subcommand; the options of each are all the server parser accepts', async () => {
    const { code, stdout } = await run(['server', '--help']);
    expect(code).toBe(0);
    for (const sub of server.subcommands ?? []) expect(stdout).toMatch(new RegExp(`^  ${sub.name} `, 'm'));
    // An option of one subcommand is refused by the others: nothing listed is a lie.
    for (const sub of server.subcommands ?? []) {
      for (const other of server.subcommands ?? []) {
        for (const name of Object.keys(other.options)) {
          if (sub.options[name] !== undefined) continue;
          expect(() => parseServerArgs([sub.name, `--${name}`, sampleValue(name)])).toThrow();
        }
      }
    }
  });

  it('the global help names every command; no command, exit 2; help, exit 0', async () => {
    const { code, stdout } = await run(['--help']);
    expect(code).toBe(0);
    for (const c of COMMANDS) expect(stdout).toMatch(new RegExp(`^  ${c.name} `, 'm'));
    expect((await run([])).code).toBe(2);
  });
});

describe('--version', () => {
  it('prints the package version, exit 0', async () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    for (const flag of ['--version', '-V', 'version']) {
      const { code, stdout } = await run([flag]);
      expect(code).toBe(0);
      expect(stdout).toBe(`${pkg.version}\n`);
    }
  });
});

describe('did you mean', () => {
  it('an unknown option names the closest one and where the options are, in a few lines, exit 2', async () => {
    const { code, stdout, stderr } = await run(['sync', '--dryrun']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe(`Unknown option "--dryrun" for sync. Did you mean "--dry-run"?\nOptions of sync: --dry-run, --json, --force, --source, --max, --wait, --replace-prior, --release-held.\nRun "${cli()} sync --help" for its options.\n`);
    expect((await run(['install', '--scope=user', '--with-mpc'])).stderr).toContain('Did you mean "--with-mcp"?');
    expect((await run(['context', '--ref'])).stderr).toContain('Did you mean "--refresh"?');
    expect((await run(['server', 'status', '--jsno'])).stderr).toContain('Unknown option "--jsno" for server status. Did you mean "--json"?');
  });

  it('a value our own checks refuse says where the options are, exit 2', async () => {
    for (const [args, first] of [
      [['sync', '--max', 'ten'], '--max takes a whole number, got "ten"'],
      [['install', '--scope', 'global'], '--scope must be user, project or local, got "global"'],
      [['service'], 'service needs exactly one of --systemd or --launchd'],
    ] as const) {
      const { code, stderr } = await run([...args]);
      expect(code).toBe(2);
      expect(stderr).toBe(`${first}\nRun "${cli()} ${args[0]} --help" for its options.\n`);
    }
  });

  it('an unknown command or server subcommand names the closest one, exit 2', async () => {
    const cmd = await run(['snyc']);
    expect(cmd.code).toBe(2);
    expect(cmd.stderr).toMatch(/^Unknown command "snyc". Did you mean "sync"\?\nCommands: sync, status, .*--help/);
    const sub = await run(['server', 'strat']);
    expect(sub.code).toBe(2);
    expect(sub.stderr).toContain('Unknown server subcommand "strat". Did you mean "start"?');
  });

  it('suggests nothing for a word that is not close to any', () => {
    expect(closest('frobnicate', ['dry-run', 'json', 'force'])).toBeUndefined();
    expect(closest('dryrun', ['dry-run'])).toBe('dry-run');
    expect(closest('jsn', ['json', 'force'])).toBe('json');
  });
});

/**
 * Every command line a message names, in src/: `graphiti-memory-sync <command> [sub] [--options]`
 * (or `${PROGRAM} …`, or the running copy's prefix: `${cli()} …`, `commandFor('<command> …')`, `namedCommand(…)`), and a quoted `<command> --option …` without the program name. Each must be
 * a command the CLI has, with options its parser takes: a next step that does not run is a bug.
 */
const QUOTES = '"\'`';
const COMMAND_NAMES = COMMANDS.flatMap((c) => [c.name, ...(c.aliases ?? [])]);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}

/**
 * The problem with one named command line (its words after the program name), or undefined when it
 * parses or is prose (`graphiti-memory-sync wrote it`). A word close to a command is a typo of it.
 */
function namedCommandProblem(words: string[]): string | undefined {
  const clean = (w: string) => w.replace(/[.,;:)\]]+$/, '');
  const first = clean(words[0] ?? '');
  const spec0 = COMMANDS.find((c) => c.name === first || (c.aliases ?? []).includes(first));
  if (spec0 === undefined) return first.length >= 3 && closest(first, COMMAND_NAMES) !== undefined ? `"${first}" is not a command` : undefined;
  let spec = spec0;
  let i = 1;
  if (spec0.subcommands !== undefined) {
    if (clean(words[0] ?? '') !== words[0]) return undefined;
    const word = clean(words[1] ?? '');
    const sub = spec0.subcommands.find((s) => s.name === word);
    if (sub === undefined) return word.length >= 3 && closest(word, spec0.subcommands.map((s) => s.name)) !== undefined ? `"${first} ${word}" is not a subcommand` : undefined;
    spec = sub;
    i = 2;
  }
  for (; i < words.length; i++) {
    const word = words[i] as string;
    if (clean(words[i - 1] as string) !== words[i - 1] || !word.startsWith('--')) return undefined;
    const name = clean(word).slice(2).split('=')[0] as string;
    const option = spec.options[name];
    if (option === undefined && name !== 'help') return `--${name} is not an option of ${spec.name}`;
    if (option?.type === 'string' && !word.includes('=')) i++;
  }
  return undefined;
}

/** The words after each named command, up to a quote, a backslash (an escaped quote) or the line's end. */
function namedCommandLines(text: string): string[][] {
  const found: string[][] = [];
  const words = (s: string) => s.split(/\s+/).filter(Boolean);
  for (const m of text.matchAll(/(?:npx )?(?:graphiti-memory-sync|\$\{PROGRAM\}|\$\{cli\(\)\}) ([^\n"'`\\]*)/g)) {
    // Not the package's name in a path or an npm command (`npm install -D graphiti-memory-sync`).
    if (/[\w/.@-]/.test(text[(m.index ?? 0) - 1] ?? '')) continue;
    found.push(words(m[1] as string));
  }
  // A command line as the running copy runs it (util/install-route.ts): `commandFor('server start')`.
  for (const m of text.matchAll(/\b(?:commandFor|namedCommand)\((['"`])([^'"`\n]*)\1/g)) found.push(words(m[2] as string));
  const bare = new RegExp(`(?<=[${QUOTES}])((?:${COMMAND_NAMES.join('|')})(?: [a-z]+)? --[^\\n${QUOTES}\\\\]*)`, 'g');
  for (const m of text.matchAll(bare)) found.push(words(m[1] as string));
  return found;
}

describe('commands named in messages', () => {
  it('every command line src/ names is a command with options the parser takes', () => {
    const problems: string[] = [];
    for (const file of sourceFiles(join(ROOT, 'src'))) {
      for (const words of namedCommandLines(readFileSync(file, 'utf8'))) {
        const problem = namedCommandProblem(words);
        if (problem !== undefined) problems.push(`${file.slice(ROOT.length + 1)}: "${words.join(' ')}": ${problem}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('catches a command or option that does not exist (the check itself can fail)', () => {
    const bad = ['"graphiti-memory-sync sync --dryrun"', 'run `graphiti-memory-sync sever start`', '`link --exprot`', 'fix: graphiti-memory-sync server strat', 'run `pull --to` (`graphiti-memory-sync pul --all`)', 'set it, then "graphiti-memory-sync install --scop user"', "fix: `${commandFor('server strat')}`", "`${namedCommand('helth')}`", "run `${cli()} sync --forse`"];
    for (const text of bad) expect(namedCommandLines(text).map(namedCommandProblem).filter(Boolean), text).toHaveLength(1);
    const good = ['"graphiti-memory-sync sync --wait 60000" waits', 'run `pull --to DIR`', 'graphiti-memory-sync wrote it', 'fix: graphiti-memory-sync server start; or', '`${PROGRAM} context --refresh --omitted`', "fix: `${commandFor('server start')} (it waits)`", "${namedCommand('health', copy)}", "run \"${cli()} server start\" first"];
    for (const text of good) expect(namedCommandLines(text).map(namedCommandProblem).filter(Boolean), text).toEqual([]);
  });
});
