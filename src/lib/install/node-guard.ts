/**
 * The shell step every hook command of ours takes before it runs Node: is there a `node` on the
 * PATH Claude Code gives its hooks?
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

/** The heading in docs/troubleshooting.md the message sends the user to. */
export const NODE_MISSING_SECTION = 'Node.js not found on the hooks PATH';

/** What a session without node on the hooks' PATH shows, once, at its start. */
export const NODE_MISSING_MESSAGE =
  'graphiti-memory-sync is off: no node on the PATH Claude Code gives its hooks, so your memory is neither synced nor loaded. ' +
  'Install Node.js >= 20.19, or add the folder holding node to that PATH (e.g. env.PATH in ~/.claude/settings.json), then start a new session. ' +
  `See graphiti-memory-sync troubleshooting: ${NODE_MISSING_SECTION}.`;

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
