/**
 * Help texts, `--version` and "did you mean" for the CLI, all from the command table (spec.ts).
 * Argument parsing itself stays node:util parseArgs; this module only words what it found.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { COMMANDS, type CommandSpec, type OptionSpec } from './spec.js';
import { cli } from '../lib/util/install-route.js';
import { closest } from '../lib/util/closest.js';

export const PROGRAM = 'graphiti-memory-sync';

function optionLine(name: string, o: OptionSpec): [string, string] {
  const flag = `${o.short === undefined ? '' : `-${o.short}, `}--${name}${o.type === 'string' ? ` ${o.value ?? 'VALUE'}` : ''}`;
  return [flag, o.help];
}

function columns(rows: Array<[string, string]>, indent: string): string[] {
  const width = Math.max(0, ...rows.map(([a]) => a.length));
  return rows.map(([a, b]) => `${indent}${a.padEnd(width)}  ${b}`.trimEnd());
}

/** `graphiti-memory-sync --help`: the commands, one line each. */
export function globalHelp(): string {
  return [
    `Usage: ${PROGRAM} <command> [options]`,
    '',
    'Commands:',
    ...columns(
      COMMANDS.map((c) => [c.name, `${c.summary}${(c.aliases ?? []).length > 0 ? ` (alias: ${(c.aliases ?? []).join(', ')})` : ''}`]),
      '  ',
    ),
    '',
    `Run "${cli()} <command> --help" for a command's options; "${cli()} --version" for the version.`,
    'Exit codes: 0 ok, 1 failed or unsent work remains (or the server is unhealthy),',
    '2 usage or configuration error, 3 context: no project at this folder.',
    'Settings: environment variables or ~/.config/graphiti-memory-sync/.env (see config/.env.example, docs/configuration.md).',
  ].join('\n');
}

/** `<command> --help` (or `server <sub> --help` with `parent`). */
export function commandHelp(spec: CommandSpec, parent?: CommandSpec): string {
  const path = parent === undefined ? spec.name : `${parent.name} ${spec.name}`;
  const hasOptions = Object.keys(spec.options).length > 0;
  const lines = [`Usage: ${PROGRAM} ${path}${spec.subcommands !== undefined ? ` <${spec.subcommands.map((s) => s.name).join('|')}>` : ''}${hasOptions ? ' [options]' : ''}`, '', spec.summary];
  if ((spec.aliases ?? []).length > 0) lines.push(`Alias: ${(spec.aliases ?? []).join(', ')}`);
  for (const d of spec.details ?? []) lines.push(d);
  if (spec.subcommands !== undefined) {
    lines.push('', 'Subcommands:', ...columns(spec.subcommands.map((s) => [s.name, s.summary]), '  '));
    lines.push('', `Run "${cli()} ${spec.name} <subcommand> --help" for its options.`);
  }
  lines.push('', 'Options:', ...columns([...Object.entries(spec.options).map(([n, o]) => optionLine(n, o)), ['-h, --help', 'show this help']], '  '));
  return lines.join('\n');
}

/** This package's version, from its package.json (this module is `<package>/{src,dist}/commands/help.*`). */
export function version(): string {
  const root = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version?: string };
  return pkg.version ?? 'unknown';
}

// The closest name to a typo has one owner, util/closest.ts (settings names use it too).
export { closest };

/** "Unknown command" with a suggestion and where to look, in a few lines (not the whole help). */
export function unknownCommand(given: string, among: readonly CommandSpec[] = COMMANDS, parent?: CommandSpec): string {
  const names = among.flatMap((c) => [c.name, ...(c.aliases ?? [])]);
  const guess = closest(given, names);
  const what = parent === undefined ? 'command' : `${parent.name} subcommand`;
  const help = parent === undefined ? `${cli()} --help` : `${cli()} ${parent.name} --help`;
  return [`Unknown ${what} "${given}".${guess === undefined ? '' : ` Did you mean "${guess}"?`}`, `${parent === undefined ? 'Commands' : 'Subcommands'}: ${among.map((c) => c.name).join(', ')}. Run "${help}" for more.`].join('\n');
}

/**
 * The message for an argument parseArgs refused: for an unknown option the closest known one, then
 * where the command's options are listed. `message` is parseArgs' own text.
 */
export function usageProblem(spec: CommandSpec, message: string, parent?: CommandSpec): string {
  const path = parent === undefined ? spec.name : `${parent.name} ${spec.name}`;
  const unknown = /Unknown option '(-{1,2})([^'=]+)/.exec(message);
  const where = `Run "${cli()} ${path} --help" for its options.`;
  if (unknown !== null) {
    const known = Object.keys(spec.options);
    const guess = closest(unknown[2] as string, [...known, 'help']);
    const list = known.length === 0 ? `${path} takes no options.` : `Options of ${path}: ${known.map((k) => `--${k}`).join(', ')}.`;
    return [`Unknown option "${unknown[1]}${unknown[2]}" for ${path}.${guess === undefined ? '' : ` Did you mean "--${guess}"?`}`, list, where].join('\n');
  }
  // parseArgs ends some messages with advice about '--' that does not apply to our commands.
  return [`${message.replace(/\. To specify a positional argument.*$/s, '.')}`, where].join('\n');
}

/** True for the arguments that ask for help. */
export function wantsHelp(args: readonly string[]): boolean {
  return args.includes('--help') || args.includes('-h');
}

const SERVER = COMMANDS.find((c) => c.name === 'server') as CommandSpec;

/**
 * `server`, `server --help` and `server <sub> --help`: the help text and exit code, or undefined
 * when the arguments ask for no help (the server command then runs).
 */
export function serverHelp(argv: readonly string[]): { text: string; code: number } | undefined {
  const [sub] = argv;
  if (sub === undefined) return { text: commandHelp(SERVER), code: 2 };
  if (sub === '--help' || sub === '-h' || sub === 'help') return { text: commandHelp(SERVER), code: 0 };
  const spec = SERVER.subcommands?.find((s) => s.name === sub);
  if (spec !== undefined && wantsHelp(argv.slice(1))) return { text: commandHelp(spec, SERVER), code: 0 };
  return undefined;
}

/** A refused `server …` line in a few lines: the unknown subcommand or option, the closest one, where help is. */
export function serverUsageProblem(argv: readonly string[], message: string): string {
  const [sub] = argv;
  const spec = SERVER.subcommands?.find((s) => s.name === sub);
  if (spec === undefined) return sub === undefined ? commandHelp(SERVER) : unknownCommand(sub, SERVER.subcommands, SERVER);
  return usageProblem(spec, message, SERVER);
}
