/**
 * UNINSTALL_NAMES_WHAT_STAYS: what `uninstall` leaves running, said after its report.
 *
 * `uninstall` removes the hook entries of one scope. Claude Code may run the tool from another
 * scope's settings or from the plugin as well (the same user's `install --scope local` in one
 * project, a plugin tried first), and the local Graphiti server (`server start`) runs on its own:
 * the report said only what it removed ("removed", exit 0), so the tool looked gone while every
 * session still synced and loaded the graph, or a Python server and FalkorDB kept running with
 * nothing left to stop them once the package was removed (`server stop` is a command of the
 * package). Each copy that still runs is named with the command that removes it; the server is
 * named when no copy is left to use it.
 */
import type { ToolCopy } from '../lib/install/copies.js';
import type { InstallScope } from '../lib/install/types.js';
import { commandFor } from '../lib/util/install-route.js';
import { copyName, removeStep } from './copies.js';

export interface AfterUninstall {
  /** The copies Claude Code runs, found after the change (a dry run's still holds the scope being removed: left out here). */
  copies: ToolCopy[];
  scope: InstallScope;
  /** The MCP URL of the local server that is up, if one is. */
  liveServerUrl?: string;
}

/** The lines that follow the uninstall report: one per copy still running, then the server (none when nothing stays). */
export function whatStays(after: AfterUninstall): string[] {
  const left = after.copies.filter((c) => c.registration === 'plugin' || c.scope !== after.scope);
  const lines = left.map((c) => `Claude Code still runs graphiti-memory-sync from ${copyName(c)}${c.root === undefined ? '' : ` (${c.root})`}: every session still syncs and loads your memory through it; to remove it too, run "${removeStep(c)}"`);
  if (left.length === 0 && after.liveServerUrl !== undefined) {
    lines.push(`the local Graphiti server (server start) is still running at ${after.liveServerUrl}: if nothing else uses it, stop it with "${commandFor('server stop')}" before you remove the package (the command that stops it goes with the package)`);
  }
  return lines;
}
