/**
 * What a change of the settings while `watch` runs means, and whether the watch takes it up.
 *
 * The rule: the next pass runs as a fresh `sync` with the new settings would. Nothing watch-only
 * is decided here, so the engine's rules hold as they are:
 * - a folder added is watched and synced;
 * - a folder removed is no longer watched or sent, and its notes stay in the graph: the engine
 *   never takes the files of a source it does not cover for deleted (sync/plan.ts);
 * - a new server URL or group: new and edited notes go there; nothing is deleted in the old group
 *   for the change (notes already sent stay there until edited, or `sync --force` moves them);
 * - exclusions: the watch's filter and the scan take up the new list;
 * - a source name given to another folder (unnamed folders renumbered when one is taken out) is
 *   the engine's to judge, as in any sync (sync/source-roots.ts): held while the folder it named is
 *   still there, taken up as a move once it is gone.
 * Not taken up while the watch runs (the new settings are refused as a whole, said with the next
 * step, and the watch goes on with those it had):
 * - another state folder: the watch's state, lock and log live in the one it started with;
 * - no memory folder at all (as at its start, NoSourcesError): nothing would be watched;
 * The log level and the debounce take effect at the next start (said).
 *
 * Pure: the watcher (watch.ts) reads the settings again and applies what this returns.
 */
import type { Config } from '../config/config.js';
import type { MemorySource } from '../memory/types.js';
import { cli } from '../util/install-route.js';
import { displayUrl } from '../util/display-url.js';

export interface SettingsChange {
  /** Why the new settings are not taken up at all (the watch goes on with those it had). */
  refused?: string;
  /** The folders watched (and the filter) change: the watching starts over. */
  sourcesChanged: boolean;
  /** Source roots added and removed (`name=root`). */
  added: string[];
  removed: string[];
  /** The settings that changed, by their Config field names (for the JSON output and tests). */
  changed: Array<keyof Config>;
  /** What the change means, one sentence each, for people. */
  notes: string[];
}

/** Fields that change nothing a pass does, or are said separately. */
const NOT_COMPARED = new Set<keyof Config>(['warnings', 'envFile', 'paiEnvFile', 'unsyncedMemoryFolders', 'knownProjectDirs', 'priorHookStates']);
/** Fields whose change is said in its own words (the folders, the server, the groups). */
const SAID_ABOVE: ReadonlySet<string> = new Set<keyof Config>(['mcpUrl', 'mcpUrlSource', 'groupId', 'sourceGroups', 'exclude', 'extraSources', 'autoMemoryFolders', 'syncPai', 'syncAutoMemory', 'paiDir', 'claudeConfigDir']);
/** Fields the watch reads only at its start. */
const AT_RESTART: ReadonlySet<string> = new Set<keyof Config>(['logLevel', 'watchDebounceMs']);

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

const label = (s: Pick<MemorySource, 'name' | 'root'>) => `${s.name}=${s.root}`;

/** Compares the settings the watch runs on with those just read; `sources` are each one's resolved sources. */
export function settingsChange(
  before: Config,
  after: Config,
  sources: { before: MemorySource[]; after: MemorySource[] },
): SettingsChange {
  const change: SettingsChange = { sourcesChanged: false, added: [], removed: [], changed: [], notes: [] };
  if (before.stateDir !== after.stateDir) {
    change.refused = `the settings now name another state folder (MADEINOZ_KNOWLEDGE_STATE_DIR: ${after.stateDir}); the watch keeps ${before.stateDir} and the settings it had. Restart \`${cli()} watch\` to move to the new folder`;
    return change;
  }
  if (sources.after.length === 0) {
    change.refused = 'the settings now enable no memory folder (MADEINOZ_KNOWLEDGE_SYNC_PAI, MADEINOZ_KNOWLEDGE_SYNC_AUTO_MEMORY, MADEINOZ_KNOWLEDGE_SYNC_PATHS): there would be nothing to watch. The watch goes on with the settings it had; stop it if you mean to sync nothing';
    return change;
  }
  for (const key of Object.keys({ ...before, ...after }) as Array<keyof Config>) {
    if (!NOT_COMPARED.has(key) && !same(before[key], after[key])) change.changed.push(key);
  }
  const beforeLabels = new Set(sources.before.map(label));
  const afterLabels = new Set(sources.after.map(label));
  change.added = [...afterLabels].filter((l) => !beforeLabels.has(l));
  change.removed = [...beforeLabels].filter((l) => !afterLabels.has(l));
  change.sourcesChanged = change.added.length > 0 || change.removed.length > 0 || !same(before.exclude, after.exclude) || !same(sources.before, sources.after);
  // A name given to another folder: the engine judges it (sync/source-roots.ts), the pass says what it did.
  const moved = sources.after.filter((s) => sources.before.some((b) => b.name === s.name && b.root !== s.root));
  for (const s of moved) change.notes.push(`${s.name} is now ${s.root} (was ${(sources.before.find((b) => b.name === s.name) as MemorySource).root})`);
  const movedName = (l: string) => moved.some((s) => l.startsWith(`${s.name}=`));
  const added = change.added.filter((l) => !movedName(l));
  const removed = change.removed.filter((l) => !movedName(l));
  if (added.length > 0) change.notes.push(`now watching ${added.join(', ')}`);
  if (removed.length > 0) change.notes.push(`no longer watching ${removed.join(', ')}: its notes are not sent any more and stay in the graph (taking a folder out of the settings deletes nothing)`);
  if (!same(before.exclude, after.exclude)) change.notes.push(`exclusions now ${after.exclude.length === 0 ? 'none' : after.exclude.join(', ')}`);
  if (before.mcpUrl !== after.mcpUrl) change.notes.push(`server now ${displayUrl(after.mcpUrl)} (was ${displayUrl(before.mcpUrl)}): the next pass syncs there; nothing is deleted on the old one`);
  if (before.groupId !== after.groupId || !same(before.sourceGroups, after.sourceGroups)) {
    const group = before.groupId !== after.groupId ? `group now ${after.groupId} (was ${before.groupId})` : 'the per-source groups changed';
    change.notes.push(`${group}: new and edited notes go there; notes already sent stay where they are until edited (nothing is deleted for this change), and \`${cli()} sync --force\` moves them`);
  }
  const atRestart = change.changed.filter((key) => AT_RESTART.has(key));
  if (atRestart.length > 0) change.notes.push(`${atRestart.join(', ')} ${atRestart.length === 1 ? 'takes' : 'take'} effect when the watch restarts`);
  const other = change.changed.filter((key) => !AT_RESTART.has(key) && !SAID_ABOVE.has(key));
  if (other.length > 0) change.notes.push(`taken up from the next pass: ${other.join(', ')}`);
  return change;
}
