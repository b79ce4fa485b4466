/** Human and machine readable reports for the CLI: sync summaries, status, health. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { readNoteKey } from '../lib/state/note-key.js';
import { readPulled } from '../lib/state/pulled.js';
import { countUnsigned } from '../lib/sync/note-signing.js';
import { mcpUrlOrigin, type Config } from '../lib/config/config.js';
import { checkHealth, type HealthReport } from '../lib/graphiti/health.js';
import { rulesInUse } from '../lib/graphiti/server-rules.js';
import { deletesInLastWrittenGroupOnly, lastWrittenGroupOnlyWarning } from '../lib/graphiti/semantics.js';
import { GENERATIONS } from '../lib/server/pins.js';
import { groupList, groupsWritten } from './health.js';
import { liveServerGeneration } from '../lib/config/server-runtime.js';
import type { Logger } from '../lib/util/log.js';
import { countByStatus, everyPart, loadState, retiredParts, type FileStatus } from '../lib/state/state.js';
import { EMPTIED_PULLED_VERSION, HELD_STATE_VERSION, pulledFormatFor, STATE_VERSION, stateFormatFor } from '../lib/state/format.js';
import type { ResentWhy, SyncSummary } from '../lib/sync/types.js';
import { nextStepFor, nextStepLine } from './next-step.js';
import { stateWriteProblem } from '../lib/state/write-probe.js';
import { teamMemoryOf } from '../lib/memory/sources.js';
import type { FileRecord } from '../lib/state/state.js';
import { HOOK_BIN } from '../lib/install/hook-launcher.js';
import { binHooksWithoutLauncherFile, hookProblems, hooksWithoutNodeCheck, type HookProblem } from '../lib/install/hook-check.js';
import type { InstallScope } from '../lib/install/types.js';
import { toolCopies } from '../lib/install/copies.js';
import { formatCopies, judgeCopies, type CopyReport } from './copies.js';
import { processEnv } from '../lib/config/process-env.js';
import { clonedFromHere, knownRoots, type CloneHint } from '../lib/pull/projects.js';
import { clonedHereStep, HELD_STEP } from './pull-report.js';
import { cli } from '../lib/util/install-route.js';
import { graphLossText, readGraphProblem } from '../lib/context/graph-problem.js';
import { readSetAside, setAsideText } from '../lib/state/set-aside.js';
import { originQuestion, originStanding, type OriginStanding } from '../lib/sync/origin-choice.js';
import { heldAsCopy } from '../lib/sync/copy-hold.js';
import { holderLines, lockHolders, type LockHolder } from './lock-holders.js';

/** Held notes whose project a checkout here was cloned from (its remote another since), counted per checkout. */
function heldClonedHere(config: Config, heldProjects: readonly string[]): Array<CloneHint & { notes: number }> {
  if (heldProjects.length === 0) return [];
  const hints = clonedFromHere(knownRoots(config, processEnv()));
  const out = new Map<string, CloneHint & { notes: number }>();
  for (const project of heldProjects) {
    const hint = hints.get(project);
    if (hint === undefined) continue;
    const entry = out.get(project) ?? { ...hint, notes: 0 };
    entry.notes++;
    out.set(project, entry);
  }
  return [...out.values()];
}

/** The team-memory files among the records, per store (memory/sources.ts names them). */
function teamMemoryByStore(records: FileRecord[]): NonNullable<StatusReport['teamMemory']> {
  const stores = new Map<string, { store: string; files: number; confirmed: number }>();
  for (const record of records) {
    const team = teamMemoryOf(record, record.relPath);
    if (team === undefined) continue;
    const entry = stores.get(team.store) ?? { store: team.store, files: 0, confirmed: 0 };
    entry.files++;
    if (record.status === 'confirmed') entry.confirmed++;
    stores.set(team.store, entry);
  }
  return [...stores.values()].sort((a, b) => a.store.localeCompare(b.store));
}

export interface StatusReport {
  stateDir: string;
  stateProblem?: string;
  /** The state folder cannot be written now (state/write-probe.ts): why, and the next step. */
  stateUnwritable?: { cause: string; fix: string };
  counts: Record<FileStatus, number>;
  total: number;
  oldestPending?: { id: string; since: string } | undefined;
  failures: Array<{ id: string; reason: string }>;
  skipped: Array<{ id: string; reason: string }>;
  orphansToDelete: number;
  /**
   * Retired episodes kept in the graph on purpose (sync/retire.ts): this server's delete_episode
   * would also delete facts another episode still states. Absent when there are none.
   */
  held?: { episodes: number; facts: number; why: string; list: Array<{ id: string; uuid: string | undefined; since: string | undefined; facts: number }> } | undefined;
  /** The delete rules the last sync used with this server, and why (graphiti/server-rules.ts); absent before any sync reached it. */
  rules?: { deleteRemoves: string; source: string; generation?: string | undefined; why: string; at: string } | undefined;
  /** Our local server runs a release whose rules no sync has used yet (after `server upgrade` or a restart onto another generation): what it runs, and whose rules were learnt before. */
  rulesNotLearnt?: { release: string; learntOf?: string };
  /** The server deletes and lists only in the group it last wrote to, and this sync writes to several (graphiti/semantics.ts). */
  lastWrittenGroupOnly?: { groups: string[]; problem: string; fix: string };
  /** Retired episodes whose delete waits for the server to be on their group again (sync/group-reach.ts), with the next step. */
  awaitingGroup?: { episodes: number; groups: string[]; since: string; fix: string };
  /** This machine's origin or state came from another machine and nobody said what it is (sync/copy-hold.ts): deletions held, with the question. */
  originQuestion?: { held: number; question: string };
  /** The worker's last refresh found the graph holding none of this machine's notes (sync/force-look.ts EMPTIED_GRAPH): what it means and the step. */
  emptiedGraph?: string;
  /** Notes pull removed while their group listed nothing at all, their text kept aside (state/set-aside.ts SET_ASIDE_WHEN_GROUP_EMPTY), each in its wording. */
  setAside?: string[];
  /** Claude Code team memory, apart from the person's own files: per store, its files and how many are confirmed. */
  teamMemory?: Array<{ store: string; files: number; confirmed: number }>;
  /** Memory folders Claude Code writes to that are not synced (a checked-in autoMemoryDirectory), each with its fix. */
  unsyncedMemory?: Array<{ project: string; dir: string; settingsFile: string }>;
  /** Auto-memory folders left out, auto memory being off for that project (config/claude-memory.ts MEMORY_OFF_LEFT_OUT); those that are there (LEFT_OUT_WHERE_NOTES_ARE). */
  memoryOff?: Array<{ project: string; dir: string; settingsFile: string }>;
  lastRun?: { startedAt: string; finishedAt?: string | undefined; redactions?: Record<string, number> | undefined } | undefined;
  /** Who holds the state lock and the worker's lease now, each with its standing and next step (lock-holders.ts WHO_HOLDS_IT). Absent when neither is held. */
  holders?: LockHolder[];
  server: HealthReport;
  /** Where the server's URL came from (config.ts `mcpUrlOrigin`). */
  serverUrlFrom: string;
  /** When the server cannot be used: the cause and the command or setting that fixes it. */
  nextStep?: string;
  /** Our hook entries that cannot run from here (a copy of the package that is gone), each with its fix. */
  hookProblems?: HookProblem[];
  /** Settings files whose entries of ours predate the node check (install/node-guard.ts): `install` rewrites them. */
  hooksWithoutNodeCheck?: Array<{ scope: InstallScope; file: string }>;
  /** Bin entries written before they ran the install's launcher file when the bin is off PATH (hook-entries.ts LAUNCHER_OR_ITS_FILE). */
  binHooksWithoutLauncherFile?: Array<{ scope: InstallScope; file: string }>;
  /**
   * Every copy of the tool Claude Code runs here (the plugin, install's settings hooks), with its
   * version, state format and folder, and for one older than the state or than another copy, why and
   * the step that updates it (commands/copies.ts). Absent when Claude Code runs none.
   */
  copies?: CopyReport[];
  /** Notes changed on two machines (issue 42): the local one in place, the other version beside it. Absent when none. */
  conflicts?: Array<{ file: string; copy: string; origin: string; reason: string }>;
  /** Whether this machine is linked to the person's others (a note key), and how many pulled notes wait for a project not opened here. */
  /** `cloned`: held notes whose project a checkout here was cloned from (pull/projects.ts `clonedFromHere`), per checkout. */
  pull?: { linked: boolean; held: number; keyProblem?: string; unsigned?: number; cloned?: Array<CloneHint & { notes: number }> };
}

/** What linking costs once (note-signing.ts): `link` and `status` say it the same way. */
export function unsignedLine(n: number): string {
  return `the next sync re-sends ${n} note(s) sent before this machine was linked, once, signed (one extraction each on the server): your other machines pull, and \`pull --all\` restores, only notes signed with your key`;
}

/** What each delete rule means for the user, in `status`. */
const RULE_NAMES: Record<string, string> = {
  'episode-only': 'delete_episode removes the episode only (an edit sends the new version first, then the tool removes the facts left behind)',
  'facts-first-created': 'delete_episode also removes the facts an episode created first (an edit deletes the old version first; deletes that would take another episode\'s fact are held)',
  'facts-unsupported': 'delete_episode removes only facts nothing else supports (an edit sends the new version first)',
};

/** Why a held episode stays, with the next step (docs/semantics.md). */
export const HELD_WHY =
  `deleting them would make this Graphiti server (graphiti-core 0.29–0.31.1 delete every fact an episode created first) delete facts another episode still states (only episodes that still exist count); they are checked again after an hour, then twice as long each time (at most weekly), and go once no existing episode states those facts, or once the server is known to delete only unsupported facts (Graphiti 0.31.2: \`${cli()} server upgrade\`, see docs/semantics.md). \`${cli()} sync --release-held\` lets them go now, with those facts`;

export async function collectStatus(config: Config, logger: Logger): Promise<StatusReport> {
  const { state, recovered } = await loadState(config.stateDir, { readOnly: true });
  const counts = countByStatus(Object.values(state.files));
  let oldestPending: StatusReport['oldestPending'];
  const failures: StatusReport['failures'] = [];
  const skipped: StatusReport['skipped'] = [];
  for (const record of Object.values(state.files)) {
    if (record.status === 'pending' || record.status === 'queued') {
      const since = record.queuedAt ?? record.updatedAt;
      if (oldestPending === undefined || since < oldestPending.since) oldestPending = { id: record.id, since };
    }
    if (record.status === 'failed') failures.push({ id: record.id, reason: record.lastError ?? 'unknown' });
    else if (record.failedVersion !== undefined) failures.push({ id: record.id, reason: `its new version was not stored (${record.failedVersion.error}); the previous version was sent again, so the note stays in the graph. Change the file, or run "${cli()} sync --force", to try the new text again` });
    if (record.status === 'skipped') skipped.push({ id: record.id, reason: record.skipReason ?? 'unknown' });
  }
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  const held = [...Object.values(state.files).flatMap((r) => r.superseded.map((ref) => ({ id: `${r.id} (older version)`, ref }))), ...state.orphans.map((ref) => ({ id: `(deleted file) ${ref.name}`, ref }))].filter(({ ref }) => ref.heldAt !== undefined);
  const server = await checkHealth(config, logger);
  const ledger = await readPulled(config.stateDir);
  const conflicts = ledger.copies.filter((c) => existsSync(c.copy)).map((c) => ({ file: c.file, copy: c.copy, origin: c.origin, reason: c.reason }));
  let linked = false;
  let keyProblem: string | undefined;
  try {
    linked = readNoteKey(config.stateDir) !== undefined;
  } catch (error) {
    keyProblem = (error as Error).message;
  }
  const rules = await rulesInUse(config.stateDir, config.mcpUrl, liveServerGeneration(config.stateDir, config.mcpUrl)).catch(() => undefined);
  // The generation the server's tools named at the last sync, or our local server's release (a pinned setting says nothing of the server).
  const generation = rules === undefined ? undefined : 'inUse' in rules ? (['generation', 'local-server'].includes(rules.inUse.source) ? rules.inUse.generation : undefined) : rules.notLearnt.release;
  const groups = groupsWritten(config, state);
  // Whether that generation's delete_episode takes a group (pins.ts: one graph per group for every tool).
  const takesGroup = GENERATIONS.find((g) => g.id === generation)?.graphPerGroup;
  const lastWrittenGroupOnly = takesGroup !== undefined && deletesInLastWrittenGroupOnly({ deleteEpisodeTakesGroup: takesGroup, db: config.db, groups: groups.length }) ? { groups, ...lastWrittenGroupOnlyWarning(cli()) } : undefined;
  const awaiting = retiredParts(state).filter((ref) => ref.awaitsGroupSince !== undefined);
  const awaitingGroup =
    awaiting.length === 0
      ? undefined
      : { episodes: awaiting.length, groups: [...new Set(awaiting.map((ref) => ref.groupId))].sort(), since: awaiting.map((ref) => ref.awaitsGroupSince as string).sort()[0] as string, fix: lastWrittenGroupOnlyWarning(cli()).fix };
  const unsigned = linked ? await countUnsigned(config, state) : 0;
  const standing = await originStanding(config, state);
  const question = originQuestion(standing);
  const cloned = heldClonedHere(config, Object.values(ledger.held).map((h) => h.project));
  const holders = await lockHolders(config.stateDir);
  return {
    ...(rules === undefined ? {} : 'inUse' in rules ? { rules: rules.inUse } : { rulesNotLearnt: rules.notLearnt }),
    ...(lastWrittenGroupOnly === undefined ? {} : { lastWrittenGroupOnly }),
    ...(awaitingGroup === undefined ? {} : { awaitingGroup }),
    ...(question === undefined ? {} : { originQuestion: { held: standing.held, question } }),
    ...emptiedGraph(config),
    ...setAsideNotes(config),
    pull: { linked, held: Object.keys(ledger.held).length, ...(keyProblem === undefined ? {} : { keyProblem }), ...(unsigned > 0 ? { unsigned } : {}), ...(cloned.length === 0 ? {} : { cloned }) },
    ...(conflicts.length === 0 ? {} : { conflicts }),
    stateDir: config.stateDir,
    ...stateUnwritable(config),
    ...(recovered === undefined ? {} : { stateProblem: `state file is damaged (${recovered.reason}); the next sync keeps it aside and rebuilds from the graph` }),
    counts,
    total,
    oldestPending,
    failures,
    skipped,
    orphansToDelete: state.orphans.filter((ref) => ref.heldAt === undefined && !heldAsCopy(ref)).length,
    ...(held.length === 0
      ? {}
      : { held: { episodes: held.length, facts: held.reduce((n, { ref }) => n + (ref.heldFacts ?? 0), 0), why: HELD_WHY, list: held.map(({ id, ref }) => ({ id, uuid: ref.uuid, since: ref.heldSince ?? ref.heldAt, facts: ref.heldFacts ?? 0 })) } }),
    teamMemory: teamMemoryByStore(Object.values(state.files)),
    ...(config.unsyncedMemoryFolders.length === 0 ? {} : { unsyncedMemory: config.unsyncedMemoryFolders }),
    ...memoryOff(config),
    lastRun: state.lastRun === undefined ? undefined : { startedAt: state.lastRun.startedAt, finishedAt: state.lastRun.finishedAt, redactions: state.lastRun.redactions },
    ...(holders.length === 0 ? {} : { holders }),
    server,
    serverUrlFrom: mcpUrlOrigin(config.mcpUrlSource),
    ...(server.ok ? {} : withNextStep(server.message, config)),
    ...hooksThatCannotRun(config),
    ...copiesClaudeCodeRuns(config, stateFormatFor(everyPart(state)) === HELD_STATE_VERSION, pulledFormatFor(Object.values(ledger.notes)) === EMPTIED_PULLED_VERSION),
  };
}

/**
 * The projects' folders the scan leaves out, auto memory being off there (MEMORY_OFF_LEFT_OUT), one per `projects` folder it
 * applies to. LEFT_OUT_WHERE_NOTES_ARE: only a folder that is there: off for every project but on in one, every other known
 * project is left out, most of them with no memory folder at all; each was said to be left out, a line per project
 * Claude Code ever opened, burying the one that holds notes.
 */
function memoryOff(config: Config): Pick<StatusReport, 'memoryOff'> {
  const off = config.autoMemoryFolders
    .flatMap((f) => (f.leftOut ?? []).map((l) => ({ project: l.project, dir: join(f.root, l.key, 'memory'), settingsFile: l.settingsFile })))
    .filter((o) => existsSync(o.dir));
  return off.length === 0 ? {} : { memoryOff: off };
}

/** A graph the worker found emptied, said until `sync --force` or a refresh that works clears it (context/graph-problem.ts). */
function emptiedGraph(config: Config): { emptiedGraph?: string } {
  const problem = readGraphProblem(config.stateDir);
  const text = problem === undefined ? undefined : graphLossText(problem, `"${cli()} sync --force"`);
  return text === undefined ? {} : { emptiedGraph: text };
}

/** What pull set aside and keeps (state/set-aside.ts SET_ASIDE_WHEN_GROUP_EMPTY), said until the text's time is up or it was moved back. */
function setAsideNotes(config: Config): { setAside?: string[] } {
  const notes = readSetAside(config.stateDir).filter((n) => existsSync(n.kept));
  return notes.length === 0 ? {} : { setAside: notes.map((n) => setAsideText(n)) };
}

/** Whether the state folder takes a write now (a full disk, a read-only mount), with the next step (next-step.ts STATE_UNWRITABLE). */
function stateUnwritable(config: Config): { stateUnwritable?: { cause: string; fix: string } } {
  const problem = stateWriteProblem(config.stateDir);
  if (problem === undefined) return {};
  // A failure next-step.ts does not know still gets a step of its own rather than none.
  const step = nextStepFor(problem, config) ?? { cause: `the state folder ${config.stateDir} cannot be written (${problem})`, fix: 'make it writable again, then run this again' };
  return { stateUnwritable: step };
}

/** The copies of the tool in this user's settings files (config.claudeConfigDir), this folder's and the plugin's, judged. */
function copiesClaudeCodeRuns(config: Config, held: boolean, emptiedLedger: boolean): { copies?: CopyReport[] } {
  const copies = toolCopies({ env: { ...processEnv(), CLAUDE_CONFIG_DIR: config.claudeConfigDir }, cwd: process.cwd() });
  return copies.length === 0 ? {} : { copies: judgeCopies(copies, STATE_VERSION, held, emptiedLedger) };
}

/** The hook entries in this user's settings files (config.claudeConfigDir) and this folder's that point at nothing. */
function hooksThatCannotRun(config: Config): Pick<StatusReport, 'hookProblems' | 'hooksWithoutNodeCheck' | 'binHooksWithoutLauncherFile'> {
  const options = { env: { ...processEnv(), CLAUDE_CONFIG_DIR: config.claudeConfigDir }, cwd: process.cwd() };
  const problems = hookProblems(options);
  const older = hooksWithoutNodeCheck(options);
  const binOnly = binHooksWithoutLauncherFile(options);
  return { ...(problems.length === 0 ? {} : { hookProblems: problems }), ...(older.length === 0 ? {} : { hooksWithoutNodeCheck: older }), ...(binOnly.length === 0 ? {} : { binHooksWithoutLauncherFile: binOnly }) };
}

function withNextStep(message: string, config: Config): { nextStep?: string } {
  const step = nextStepLine(message, config);
  return step === undefined ? {} : { nextStep: step };
}

/**
 * What "queued" means and what turns it into "confirmed", and when. While the server does not
 * answer nothing is being extracted for sure: a server that stopped lost its queue (Graphiti keeps
 * it in memory), and the sync re-sends what it lost (sync/reconcile.ts).
 */
export function queuedHint(queued: number, serverAnswers = true): string {
  if (!serverAnswers) return `${queued} queued: sent, but not in the graph yet, and the server does not answer: a server that stopped lost what it had not processed, and the first sync once it answers sends that again`;
  return `${queued} queued: Graphiti accepted them and extracts facts in the background; each is confirmed once the server lists it, which the next sync checks (the hooks run one after every session; "${cli()} sync --wait 60000" waits for it now)`;
}

export function formatStatus(s: StatusReport): string {
  const lines = [
    ...(s.stateProblem === undefined ? [] : [`Warning: ${s.stateProblem}`]),
    ...(s.stateUnwritable === undefined ? [] : [`Warning: ${s.stateUnwritable.cause}; until then every sync, the hooks' and watch's too, stops at its first write. Next step: ${s.stateUnwritable.fix}`]),
    `Memory files: ${s.total} (confirmed ${s.counts.confirmed}, queued ${s.counts.queued}, pending ${s.counts.pending}, failed ${s.counts.failed}, skipped ${s.counts.skipped})`,
  ];
  if (s.teamMemory !== undefined && s.teamMemory.length > 0) {
    const files = s.teamMemory.reduce((n, t) => n + t.files, 0);
    lines.push(`Team memory (one episode per file for the whole team): ${files} of them, in ${s.teamMemory.map((t) => `${t.store} ${t.files} (${t.confirmed} confirmed)`).join(', ')}; the other ${s.total - files} are your own`);
  }
  if (s.oldestPending !== undefined) lines.push(`Oldest unconfirmed: ${s.oldestPending.id} (since ${s.oldestPending.since})`);
  if (s.orphansToDelete > 0) lines.push(`Episodes of deleted files still to delete: ${s.orphansToDelete}`);
  for (const o of s.memoryOff ?? []) {
    lines.push(`Left out: ${o.dir}, the auto memory of ${o.project}: auto memory is off for that project (${o.settingsFile}), so Claude Code neither reads nor writes it; its notes already in the graph stay. To sync it again, turn auto memory on there.`);
  }
  for (const u of s.unsyncedMemory ?? []) {
    lines.push(`Not synced: ${u.dir}, where Claude Code keeps the memory of ${u.project} (autoMemoryDirectory in ${u.settingsFile}, a checked-in file: a repository does not choose which of your folders go to the graph). To sync it, set the same autoMemoryDirectory in ${join(u.project, '.claude', 'settings.local.json')}.`);
  }
  if (s.rulesNotLearnt !== undefined) lines.push(`Server rules: not yet learnt for this release (the local server runs graphiti-core ${s.rulesNotLearnt.release}${s.rulesNotLearnt.learntOf === undefined ? '' : `; those known were learnt of ${s.rulesNotLearnt.learntOf}`}); the next sync that has work for the server learns them`);
  if (s.rules !== undefined) lines.push(`Server rules: ${RULE_NAMES[s.rules.deleteRemoves] ?? s.rules.deleteRemoves}${s.rules.generation === undefined ? '' : ` (graphiti-core ${s.rules.generation})`}, because ${s.rules.why} (docs/semantics.md; MADEINOZ_KNOWLEDGE_SERVER_RULES pins them)`);
  if (s.lastWrittenGroupOnly !== undefined) lines.push(`Warning: ${s.lastWrittenGroupOnly.problem} (groups ${groupList(s.lastWrittenGroupOnly.groups)}). Next step: ${s.lastWrittenGroupOnly.fix}.`);
  if (s.awaitingGroup !== undefined) {
    const a = s.awaitingGroup;
    lines.push(`Deletions waiting: ${a.episodes} old episode(s) in ${a.groups.length === 1 ? 'group' : 'groups'} ${a.groups.join(', ')} (since ${a.since}): this Graphiti server deletes only in the group it last wrote to, so they stay in the graph, and are found by search, until it next writes there; the next sync after that deletes them. Next step: ${a.fix}.`);
  }
  if (s.originQuestion !== undefined) lines.push(`Two machines with one origin: ${s.originQuestion.question}`);
  if (s.emptiedGraph !== undefined) lines.push(`Warning: ${s.emptiedGraph}`);
  for (const n of s.setAside ?? []) lines.push(`Warning: ${n}.`);
  if (s.held !== undefined) {
    lines.push(`Kept in the graph: ${s.held.episodes} retired episode(s), because ${s.held.why} (${s.held.facts} such fact(s)); their other facts were removed.`);
    for (const h of s.held.list.slice(0, 20)) lines.push(`  ${h.id}: episode ${h.uuid ?? '?'}, held since ${h.since ?? '?'}, ${h.facts} fact(s) another episode states`);
    if (s.held.list.length > 20) lines.push(`  … and ${s.held.list.length - 20} more (status --json lists all)`);
  }
  if (s.lastRun !== undefined) lines.push(`Last run: ${s.lastRun.startedAt}${s.lastRun.finishedAt === undefined ? ' (did not finish)' : ''}${byKind(s.lastRun.redactions, '; redacted ')}`);
  lines.push(...holderLines(s.holders ?? []));
  lines.push(`Server: ${s.server.ok ? 'ok' : 'unreachable or unhealthy'} — ${s.server.message} (${s.server.url}, ${s.serverUrlFrom})`);
  for (const h of s.hookProblems ?? []) lines.push(`Hooks (${h.scope} scope, ${h.file}) cannot run: ${h.message}`);
  for (const h of s.hooksWithoutNodeCheck ?? []) {
    lines.push(`Hooks (${h.scope} scope, ${h.file}) were written by an earlier version, without the check for node: a Claude Code whose PATH has no node shows a hook error in every session instead of saying so. Run "${cli()} install --scope ${h.scope}" to rewrite them.`);
  }
  for (const h of s.binHooksWithoutLauncherFile ?? []) {
    lines.push(`Hooks (${h.scope} scope, ${h.file}) were written by an earlier version: they name ${HOOK_BIN} alone, so once the PATH Claude Code gives its hooks leads to a Node without it (nvm switched versions) every session skips them quietly, nothing synced or loaded. Run "${cli()} install --scope ${h.scope}" to rewrite them (they then run this install's launcher when ${HOOK_BIN} is not on that PATH).`);
  }
  if (!s.server.ok && s.nextStep !== undefined) lines.push(`  ${s.nextStep}`);
  lines.push(...formatCopies(s.copies ?? []));
  if (s.counts.queued > 0) lines.push(queuedHint(s.counts.queued, s.server.ok));
  if (s.counts.pending > 0) lines.push(`${s.counts.pending} pending: not sent yet; "${cli()} sync" sends them${s.server.ok ? '' : ' once the server answers'}`);
  if (s.failures.length > 0) {
    lines.push('Failed:');
    for (const f of s.failures.slice(0, 50)) lines.push(`  ${f.id}: ${f.reason}`);
    if (s.failures.length > 50) lines.push(`  … and ${s.failures.length - 50} more (status --json lists all)`);
  }
  if (s.skipped.length > 0) {
    lines.push('Skipped:');
    for (const f of s.skipped.slice(0, 20)) lines.push(`  ${f.id}: ${f.reason}`);
    if (s.skipped.length > 20) lines.push(`  … and ${s.skipped.length - 20} more`);
  }
  if (s.pull?.keyProblem !== undefined) lines.push(`Note key: ${s.pull.keyProblem}`);
  else if (s.pull?.linked === true) {
    lines.push(`Linked: notes from your other machines come in with pull (the hooks and watch run it)${s.pull.held > 0 ? `; ${s.pull.held} held for projects not opened here` : ''}`);
    const cloned = s.pull.cloned ?? [];
    for (const hint of cloned) lines.push(`  ${hint.notes} held: ${clonedHereStep(hint)}`);
    if (s.pull.held > cloned.reduce((n, h) => n + h.notes, 0)) lines.push(`  Next: ${HELD_STEP}`);
  }
  if (s.pull?.unsigned !== undefined) lines.push(`Signing: ${unsignedLine(s.pull.unsigned)}`);
  if (s.conflicts !== undefined && s.conflicts.length > 0) {
    lines.push('Conflicts (a note changed on two machines; merge the copy into the note, then delete the copy):');
    for (const c of s.conflicts) lines.push(`  ${c.file} ← ${c.copy} (from ${c.origin}${c.reason === 'redacted' ? ', redacted' : c.reason === 'same-name-here' ? ': another note, whose name differs only in case, which this disk takes for the same name; rename one of them there' : ''})`);
  }
  lines.push(`State: ${s.stateDir}`);
  return `${lines.join('\n')}\n`;
}

/** `github-token 2, password 1` after `lead`, or '' when there is nothing to list. */
function byKind(counts: Record<string, number> | undefined, lead: string): string {
  const entries = Object.entries(counts ?? {}).sort(([a, x], [b, y]) => y - x || a.localeCompare(b));
  return entries.length === 0 ? '' : `${lead}${entries.map(([kind, n]) => `${kind} ${n}`).join(', ')}`;
}

/**
 * The text summary of a sync. The first half says what the scan found (`new`, `changed`,
 * `removed`: files, not sends, so nothing reads as "added" that was never sent; every file it
 * does not skip or fail in exactly one of new, changed, renamed, unchanged and resumed, the files
 * an earlier run left unsent), the second where
 * every file stands after the run (`queued`: sent, not yet listed by the server; `pending`: not
 * sent yet). `config` adds the next step when the server could not be used.
 */
/**
 * RESENT_WORDS: what a sync sent again, said as what happened (sync/types.ts RESENT_WHY): a graph
 * that lost notes is not a server that dropped them, and the person's next step differs.
 */
const RESENT_WORDS: Record<ResentWhy, (n: number) => string> = {
  dropped: (n) => `re-sent ${n} episode(s) the server had dropped`,
  lost: (n) => `sent again ${n} note(s) the graph no longer held (a server started again without its data?)`,
  goneElsewhere: (n) => `sent again ${n} note(s) as this machine's own: another machine with this origin deleted the episode(s) they rested on`,
};

/** One line per reason anything was sent again, in RESENT_WHY's order. */
export function resentLines(resentFor: Record<ResentWhy, number>): string[] {
  return (Object.keys(RESENT_WORDS) as ResentWhy[]).filter((why) => resentFor[why] > 0).map((why) => RESENT_WORDS[why](resentFor[why]));
}

export function formatSyncSummary(s: SyncSummary, config?: Parameters<typeof nextStepLine>[1]): string {
  const lines: string[] = [];
  if (s.dryRun) {
    lines.push('Dry run: nothing was sent or written.');
    for (const a of s.plannedActions ?? []) lines.push(`  ${a.action.padEnd(6)} ${a.id}`);
  }
  lines.push(
    `new ${s.added}, changed ${s.updated}, removed ${s.deleted}, renamed ${s.renamed}, unchanged ${s.unchanged}${s.resumed > 0 ? `, resumed ${s.resumed} (left unsent by an earlier run)` : ''}` +
      ` | confirmed ${s.confirmed}, queued ${s.queued}, pending ${s.pending}, skipped ${s.skipped}, failed ${s.failed}`,
  );
  if (s.signed > 0) lines.push(`signing ${s.signed} note(s) sent before this machine was linked: re-sent once with their tag, so your other machines can pull them`);
  if (s.adopted > 0) lines.push(`adopted ${s.adopted} file(s) already in the graph (not sent again)`);
  lines.push(...resentLines(s.resentFor));
  if (s.duplicatesRemoved > 0) lines.push(`removed ${s.duplicatesRemoved} duplicate or stale episode(s)`);
  if (s.factsRemoved > 0) lines.push(`removed ${s.factsRemoved} fact(s) that rested only on deleted episodes`);
  if (s.held > 0) lines.push(`kept ${s.held} retired episode(s) whose deletion would delete facts another episode still states (see \`status\`)`);
  if (s.awaitingGroup > 0) lines.push(`${s.awaitingGroup} old episode(s) still to delete: this Graphiti server deletes only in the group it last wrote to; the first sync after it next writes there deletes them (see \`status\`)`);
  if (s.listing.episodes > 10_000) lines.push(`confirming listed ${s.listing.episodes} episode(s) in ${s.listing.requests} request(s)`);
  if (s.redactions > 0) lines.push(`redacted ${s.redactions} secret(s) before sending${byKind(s.redactionsByKind, ': ')}`);
  if (!s.serverReachable) {
    lines.push(`nothing more was sent: server unreachable: ${s.serverError ?? 'unknown error'}`);
    if (s.pending > 0) lines.push(`  the ${s.pending} pending file(s) are kept and sent by the next sync (or the hooks after your next session)`);
    if (s.queued > 0) lines.push(`  ${queuedHint(s.queued, false)}`);
    const step = config === undefined ? undefined : nextStepLine(s.serverError ?? '', config);
    if (step !== undefined) lines.push(`  ${step}`);
  } else if (!s.dryRun) {
    if (s.queued > 0) lines.push(queuedHint(s.queued));
    if (s.pending > 0 && s.failed === 0) lines.push(`${s.pending} pending: not sent this run (--max, or a send that failed); the next sync sends them`);
  }
  for (const p of s.problems.slice(0, 50)) lines.push(`  ${p.id}: ${p.message}`);
  if (s.problems.length > 50) lines.push(`  … and ${s.problems.length - 50} more`);
  return `${lines.join('\n')}\n`;
}

/** `origin` without options: where this machine stands, and the question if one is open. */
export function originStandingText(standing: OriginStanding): string {
  const where = (place: string) => (place === 'here' ? 'made on this machine' : place === 'elsewhere' ? 'made on another machine' : place === 'setting' ? 'set by MADEINOZ_KNOWLEDGE_ORIGIN' : place === 'derived' ? 'derived (no origin file)' : place === 'none' ? 'not yet stamped' : 'unknown (no machine id here)');
  const lines = [`Origin: ${standing.origin} (${where(standing.originFile)})`, `State folder: ${where(standing.stateFolder)}`, `Held as another machine's: ${standing.held} episode(s)`];
  // COPY_WATCH (sync/copy-hold.ts): what the other machine may still delete, and what this one does then.
  if (standing.watched > 0) lines.push(`Resting on the other machine's episodes: ${standing.watched} episode(s) of notes unchanged here; if that machine deletes one (its edit or deletion of the note), a sync here sends this machine's text again`);
  // DELETED_ON_PURPOSE (sync/copy-hold.ts): what the copy cannot tell, said with the step.
  if (standing.leftDeleted > 0) lines.push(`Left deleted: ${standing.leftDeleted} note(s) here whose episodes were deleted elsewhere, read as on purpose (their group cleared, or the note deleted on a linked machine); a group the other machine emptied by deleting its last notes there reads the same. If that is what happened and this machine keeps notes of its own, \`origin --split\` sends this machine's text of them again under its own origin`);
  const question = originQuestion(standing);
  lines.push(question !== undefined ? `Next step: ${question}` : standing.fromElsewhere ? 'Nothing is held: nothing to decide yet (a synced Claude config folder stays so). If this machine and the other are in use with their own notes, `origin --split` now gives it an origin of its own.' : 'Nothing to decide.');
  return `${lines.join('\n')}\n`;
}
