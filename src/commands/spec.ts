/**
 * Every command, subcommand and option the CLI accepts, in one table: node:util parseArgs takes
 * its options from here and `--help` prints them from here, so a help text cannot miss an option
 * (test/commands/help.test.ts checks each one). Pure data: no imports beyond types.
 */

export interface OptionSpec {
  type: 'boolean' | 'string';
  /** The value's placeholder in help, for string options (`N`, `MS`, `DIR`). */
  value?: string;
  short?: string;
  help: string;
}

export interface CommandSpec {
  name: string;
  /** One line for the command list. */
  summary: string;
  /** More lines for `<command> --help` (what it prints, exit codes, the next step). */
  details?: string[];
  options: Record<string, OptionSpec>;
  aliases?: string[];
  /** Subcommands (`server start`, …), each with its own options. */
  subcommands?: CommandSpec[];
}

const json: OptionSpec = { type: 'boolean', help: 'print one JSON object instead of text' };
const dryRun = (what: string): OptionSpec => ({ type: 'boolean', help: `show ${what}, change nothing` });
const scope: OptionSpec = { type: 'string', value: 'user|project|local', help: 'which settings file: ~/.claude/settings.json (default), .claude/settings.json, .claude/settings.local.json' };

export const COMMANDS: CommandSpec[] = [
  {
    name: 'sync',
    summary: 'Send new and changed memory files to Graphiti, delete removed ones',
    details: ['Exit 0 when nothing failed and nothing is left unsent; 1 otherwise (the summary says what is pending and why).', '--dry-run exits 0 unless a file failed: work it plans is not a failure.'],
    options: {
      'dry-run': dryRun('what would be sent and deleted'),
      json,
      force: { type: 'boolean', help: 're-read every file, retry failed files, move episodes to the group the settings now give, send again what the graph lost (a server restarted without its data)' },
      source: { type: 'string', value: 'NAME', help: 'only this source (pai, auto-memory, or an extra source)' },
      max: { type: 'string', value: 'N', help: 'send at most N files this run (the rest stay pending)' },
      wait: { type: 'string', value: 'MS', help: 'wait up to MS for queued episodes to be confirmed' },
      'replace-prior': { type: 'boolean', help: "send ours for notes the madeinoz hook sent, even unchanged ones, and delete its episodes once ours are in" },
      'release-held': { type: 'boolean', help: "delete the retired episodes kept in the graph (status: Kept in the graph), although this server then deletes the facts they created that other episodes still state" },
    },
  },
  {
    name: 'status',
    summary: 'Counts by status, oldest unconfirmed file, failures, server health',
    details: ['Reads the state; never changes it. Exit 0 when the server is healthy and nothing failed.'],
    options: { json },
  },
  {
    name: 'pull',
    summary: "Bring your notes from your other machines into this machine's memory folders",
    details: [
      'Writes only notes signed with your key (see `link`); a note changed here is never overwritten: the other version goes beside it (`<name>.from-<machine>.md`) and `status` lists it.',
      'Exit 0 when nothing conflicts; 1 when a conflict is open or the server could not be read; 2 when this machine is not linked (run `link`).',
    ],
    options: {
      all: { type: 'boolean', help: 'restore every note the graph holds whose file is missing here (after a lost ~/.claude); deletions are not judged' },
      to: { type: 'string', value: 'DIR', help: 'write notes of projects not opened on this machine under DIR/<project id>/' },
      cwd: { type: 'string', value: 'DIR', help: 'also map this project folder (default: the projects Claude Code knows)' },
      init: { type: 'boolean', help: 'make a key first if this machine has none (as `link` does)' },
      json,
    },
  },
  {
    name: 'link',
    summary: 'Make or show the key that links your machines, or import it on a new machine',
    details: [
      'Without options: makes the key if this machine has none, and says how to link another machine.',
      'On the new machine: `link --import`, then paste the line `link --export` printed (read from stdin, never from the command line).',
      'The next sync then re-sends, once and signed, the notes this machine sent before it had the key (one extraction each on the server; it says how many): your other machines pull only signed notes.',
    ],
    options: {
      export: { type: 'boolean', help: 'print the key (keep it secret: whoever holds it can write notes as you)' },
      import: { type: 'boolean', help: 'read a key from stdin and use it on this machine' },
      replace: { type: 'boolean', help: 'with --import: replace a different key this machine already has' },
      new: { type: 'boolean', help: 'make a brand-new key in place of this one (after it was exposed); import it on your other machines' },
    },
  },
  {
    name: 'origin',
    summary: 'Say what this machine is when its origin or state came from another machine (a synced or copied ~/.claude)',
    details: [
      'Without options: this machine\'s origin, where its origin file and state folder were made, and how many deletions are held until you decide (docs/troubleshooting.md "Two machines with one origin").',
      '--keep: the same memory (a synced Claude config folder, or the old machine is no longer used); what was held is deleted by the next sync.',
      '--split: another memory (the old machine stays in use with its own notes): this machine gets an origin of its own, the copied state is put aside, and the next sync sends this machine\'s notes under it; nothing of the other machine is touched.',
      'Exit 0; 1 while a question is open (without options); 2 when there is nothing this machine can decide.',
    ],
    options: {
      keep: { type: 'boolean', help: 'this machine and the one the origin or state came from are one memory' },
      split: { type: 'boolean', help: 'this machine is another memory: an origin of its own' },
      json,
    },
  },
  {
    name: 'health',
    aliases: ['doctor'],
    summary: 'Check the Graphiti server and name the cause and fix of each failure',
    details: ['get_status (10 s deadline), the database it names against MADEINOZ_KNOWLEDGE_DB, a one-word search per configured group.'],
    options: {
      json,
      deep: { type: 'boolean', help: 'also send one test episode, wait for it to be stored, delete it' },
      timeout: { type: 'string', value: 'MS', help: 'how long --deep waits (default 90000)' },
    },
  },
  {
    name: 'context',
    summary: 'Print what the SessionStart hook would inject for a project',
    details: ['From the cache the hooks keep; an empty cache says so on stderr (run with --refresh, or open a session there first).', 'Outside a git repository or Claude Code project: one line on stderr, exit 3 (name the project with --cwd DIR).'],
    options: {
      cwd: { type: 'string', value: 'DIR', help: 'the project folder (default: the current folder)' },
      refresh: { type: 'boolean', help: 'build the block from the graph now (and update the cache)' },
      omitted: { type: 'boolean', help: 'also list on stderr what the block left out and why' },
    },
  },
  {
    name: 'install',
    summary: 'Add the hooks to Claude Code settings',
    details: ['A symlinked settings file is written through its link; a file that must not be written (Nix store, read-only) is left alone and the entries to add are printed (exit 1).'],
    options: { scope, 'dry-run': dryRun('the change to the settings file'), 'with-mcp': { type: 'boolean', help: 'also register the Graphiti MCP server with Claude Code' } },
  },
  {
    name: 'uninstall',
    summary: 'Remove our hooks from Claude Code settings (the file comes back as it was)',
    options: { scope, 'dry-run': dryRun('the change to the settings file'), 'with-mcp': { type: 'boolean', help: 'also remove the Graphiti MCP server entry install wrote' } },
  },
  {
    name: 'watch',
    summary: 'Keep the memory folders in sync while you work (Ctrl-C stops)',
    details: ['Names the folders it watches on start.'],
    options: { poll: { type: 'boolean', help: 'poll instead of file events (network drives)' }, json: { type: 'boolean', help: 'one JSON line per event' } },
  },
  {
    name: 'service',
    summary: 'Print a service definition that runs watch at login',
    details: ['Exactly one of --systemd or --launchd.'],
    options: { systemd: { type: 'boolean', help: 'a systemd user unit' }, launchd: { type: 'boolean', help: 'a launchd agent' } },
  },
  {
    name: 'server',
    summary: 'Run a local Graphiti server without Docker',
    details: [
      'LLM: OPENAI_API_KEY, or OPENAI_BASE_URL (any OpenAI-compatible endpoint: Ollama, LM Studio, a proxy)',
      'with GMS_SERVER_MODEL (and GMS_SERVER_EMBEDDER_MODEL). Ports: GMS_SERVER_PORT, GMS_SERVER_DB_PORT (else free ones).',
    ],
    options: {},
    subcommands: [
      { name: 'start', summary: 'Install once (pinned, into ~/.cache) and start Graphiti + FalkorDB on 127.0.0.1', options: {} },
      { name: 'stop', summary: 'Stop both cleanly (the graph stays under ~/.local/share/graphiti-memory-sync)', options: {} },
      { name: 'restart', summary: 'Stop cleanly, then start again (new password and token, same port when free, the graph kept); starts it when not running', options: {} },
      { name: 'status', summary: "Versions, ports, data size and whether the server answers get_status", options: { json } },
      { name: 'logs', summary: "The last lines of the server's logs", options: { lines: { type: 'string', value: 'N', help: 'how many lines of each log (default 50)' } } },
      { name: 'upgrade', summary: 'Move to the newest pinned Graphiti release, keeping the data', options: {} },
      { name: 'run', summary: 'Run in the foreground (what the user service runs)', options: {} },
      { name: 'service', summary: 'Print a systemd user unit / launchd agent that runs the server at login', options: { platform: { type: 'string', value: 'linux|darwin', help: 'which kind (default: this machine)' } } },
      { name: 'headers', summary: "Claude Code's headersHelper: the token as a header, for the running server's proven front only", options: {} },
    ],
  },
];

/** The command a name (or alias) stands for. */
export function findCommand(name: string, among: readonly CommandSpec[] = COMMANDS): CommandSpec | undefined {
  return among.find((c) => c.name === name || (c.aliases ?? []).includes(name));
}

/** The options in the shape node:util parseArgs takes (plus --help / -h, which every command has). */
export function parseArgsOptions(spec: CommandSpec): Record<string, { type: 'boolean' | 'string'; short?: string }> {
  const out: Record<string, { type: 'boolean' | 'string'; short?: string }> = {};
  for (const [name, o] of Object.entries(spec.options)) out[name] = { type: o.type, ...(o.short === undefined ? {} : { short: o.short }) };
  out.help = { type: 'boolean', short: 'h' };
  return out;
}
