/**
 * The shell step every hook command of ours takes before it runs Node: is there a `node` on the
 * PATH Claude Code gives its hooks? And the one owner of the Node.js version we need
 * (NODE_REQUIRED) and of what the user is told when the node found is missing or too old.
 *
 * Claude Code installed as its native binary needs no Node at all, and a Claude Code started from
 * a desktop launcher or an IDE often has a PATH without nvm's (or Homebrew's) node. There the bare
 * `node <hook> …` is the shell's "node: not found", exit 127: a hook error in every session, and
 * memory that silently stops syncing. `status` and `health` cannot say so: they need Node too.
 *
 * So the command asks the shell first (`command -v`, a builtin: no process, nothing measurable
 * when node is there) and, without node, ends with exit 0 all the same. SessionStart says once
 * per session what is wrong and the next step, as the hook's documented JSON output:
 * `systemMessage`, the warning Claude Code shows the user (the interactive UI prints it; a
 * stream-json client gets it as the hook's output). Stop ends quietly: a warning after every turn
 * would repeat what the session start already said.
 *
 * The message is written with `echo '…'` inside single quotes, so it holds no `'`, no `"` inside
 * the JSON string and no backslash (dash's `echo` reads escapes); it names the troubleshooting
 * section that explains it (docs/troubleshooting.md, NODE_MISSING_SECTION).
 */

export type HookEvent = 'SessionStart' | 'Stop';

/**
 * The oldest Node.js we run on, as `<major>.<minor>`: package.json's `engines.node` is `>=` this
 * (test/install/node-version-gate.test.ts holds them together). chokidar 5 needs 20.19, and
 * `process.getBuiltinModule` (util/process-identity.ts) 20.16.
 */
export const NODE_REQUIRED = '20.19';

/*
 * This module is the one the version gates (src/hooks/node-gate.ts, src/cli.ts) load on whatever
 * Node.js there is, before anything else: keep it free of imports and of syntax or APIs newer than
 * Node 12 (no `??`, `?.`, `??=`, class fields); tsc copies it as written for the CLI's gate.
 */

/** Whether a `process.versions.node` ("18.20.8") is older than NODE_REQUIRED. */
export function nodeTooOld(version: string): boolean {
  const found = version.split('.').map(Number);
  const needed = NODE_REQUIRED.split('.').map(Number);
  for (let i = 0; i < needed.length; i++) {
    const f = found[i] || 0;
    const n = needed[i] || 0;
    if (f !== n) return f < n;
  }
  return false;
}

/** The heading in docs/troubleshooting.md for a node that is there but too old (for the hooks, or in the shell that runs the command line). */
export const NODE_TOO_OLD_SECTION = 'Node.js too old';

/** The next step for a node that is too old: where the hooks run, and where the command line does. */
const NEWER_NODE = `Install Node.js >= ${NODE_REQUIRED} (nodejs.org, or nvm install 22)`;

/** The heading in docs/troubleshooting.md the message sends the user to. */
export const NODE_MISSING_SECTION = 'Node.js not found on the hooks PATH';

/** What a session without node on the hooks' PATH shows, once, at its start. */
export const NODE_MISSING_MESSAGE =
  'graphiti-memory-sync is off: no node on the PATH Claude Code gives its hooks, so your memory is neither synced nor loaded. ' +
  `Install Node.js >= ${NODE_REQUIRED}, or add the folder holding node to that PATH (e.g. env.PATH in ~/.claude/settings.json), then start a new session. ` +
  `See graphiti-memory-sync troubleshooting: ${NODE_MISSING_SECTION}.`;

/**
 * What a session whose hooks find a node older than NODE_REQUIRED shows, once, at its start
 * (hooks/node-gate.ts): which node, which version, what is needed and the next step.
 */
export function nodeTooOldMessage(version: string, execPath: string): string {
  return (
    `graphiti-memory-sync is off: the node on the PATH Claude Code gives its hooks (${execPath}) is Node.js ${version}, and it needs Node.js >= ${NODE_REQUIRED}, so your memory is neither synced nor loaded. ` +
    `${NEWER_NODE} and put the folder holding it first on that PATH (e.g. env.PATH in ~/.claude/settings.json), then start a new session. ` +
    `See graphiti-memory-sync troubleshooting: ${NODE_TOO_OLD_SECTION}.`
  );
}

/** The SessionStart hook's whole stdout on a node too old: the JSON Claude Code reads. */
export function nodeTooOldOutput(version: string, execPath: string): string {
  return JSON.stringify({ systemMessage: nodeTooOldMessage(version, execPath) });
}

/** What the command line says on a node too old (cli.ts), instead of whatever would break first. */
export function nodeTooOldCliMessage(version: string, execPath: string): string {
  return (
    `graphiti-memory-sync needs Node.js >= ${NODE_REQUIRED}, and this is Node.js ${version} (${execPath}); nothing was run. ` +
    `${NEWER_NODE}, then run the command again with it (node --version shows which one your shell finds). ` +
    `See graphiti-memory-sync troubleshooting: ${NODE_TOO_OLD_SECTION}.`
  );
}

/** The hook's whole stdout without node: the JSON Claude Code reads on SessionStart. */
export function nodeMissingOutput(): string {
  return JSON.stringify({ systemMessage: NODE_MISSING_MESSAGE });
}

/**
 * `command -v node >/dev/null 2>&1 || <end>`: the step before `exec node …` (or before the
 * launcher, whose shebang needs node). `<end>` is `exit 0` for Stop, and for SessionStart the
 * message, then `exit 0`.
 */
export function nodeGuard(event: HookEvent): string {
  const end = event === 'SessionStart' ? `{ echo '${nodeMissingOutput()}'; exit 0; }` : 'exit 0';
  return `${NODE_CHECK} || ${end}`;
}

const NODE_CHECK = 'command -v node >/dev/null 2>&1';

/** Whether a hook command takes the node check (entries written before it have none: `status` says to rewrite them). */
export function checksForNode(command: string): boolean {
  return command.includes(`${NODE_CHECK} || `);
}

/** The ways `nodeGuard` ends a command, as a regex source (for reading commands back: hook-entries.ts `hookLaunch`). */
export const NODE_GUARD_END = String.raw`(?:exit 0|\{ echo '[^']*'; exit 0; \})`;
