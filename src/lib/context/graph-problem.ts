/**
 * Why the knowledge block may be stale or empty, told to Claude once instead of never.
 *
 * The background worker records what it found wrong with the graph (the server could not be
 * reached; every context search failed inside it) and clears it once a context refresh works.
 * The SessionStart hook adds one line about a recorded problem to the context of the first session
 * after it appeared, then marks it told: a server that stays down is not announced at every start.
 * The line is labelled as ours (context/our-note.ts OUR_NOTE).
 * On the hook's path: node:fs, node:path, util/fs-atomic.ts and util/install-route.ts (the command
 * the note names is this copy's: `npx graphiti-memory-sync health` for a project's dev dependency,
 * `node <checkout>/dist/cli.js health` for a checkout; the plugin ships none, so its note names
 * the worker's log first).
 */
import { readFileSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomicSync } from '../util/fs-atomic.js';
import { namedCommand, runningCopy, type RunningCopy } from '../util/install-route.js';
import { logFilePath } from '../util/log.js';
import { ourNote } from './our-note.js';

/**
 * `not-graphiti`: an MCP server answers at the address, but its tools are not Graphiti's (graphiti.ts GRAPHITI_SURFACE).
 * `emptied`: the graph lists no episode in groups that held notes of this machine (sync/force-look.ts EMPTIED_GRAPH).
 * `lost`: a sync's listing of a group no longer shows notes of this machine it had confirmed there (sync/force-look.ts LOST_SEEN_IN_PASSING).
 */
export type GraphProblemKind = 'unreachable' | 'searches-failing' | 'not-graphiti' | 'emptied' | 'lost';
const KINDS: ReadonlySet<string> = new Set<GraphProblemKind>(['unreachable', 'searches-failing', 'not-graphiti', 'emptied', 'lost']);

/** A group the graph lists nothing in, and how many of this machine's notes it held (sync/force-look.ts EMPTIED_GRAPH). */
export interface EmptiedGroup {
  group: string;
  notes: number;
  /**
   * In a record: which loss this group's is (LOSS_PER_GROUP); records of builds before that rule name
   * none, and their groups are the record's kind. Not given by those who report a loss.
   */
  kind?: LossKind;
  /**
   * `lost` only: which parts, each its note's record id and the episode it rested on
   * (LOST_OWNS_ITS_NOTES, context/lost-notes.ts); absent in records of builds before that rule.
   */
  parts?: LostPart[];
}

/** A part a listing no longer showed: its note's record id in the state and the episode uuid it rested on. */
export interface LostPart {
  id: string;
  uuid: string;
}

/** Problems only a step ends, told until then: the graph lost notes of this machine. */
export type LossKind = Extract<GraphProblemKind, 'emptied' | 'lost'>;
const LOSSES: ReadonlySet<GraphProblemKind> = new Set<GraphProblemKind>(['emptied', 'lost']);

/**
 * LOSS_OUTLIVES_OUTAGE: the record holds one problem, and a loss (`emptied`, `lost`) is never
 * overwritten by an outage (`unreachable`, `not-graphiti`, `searches-failing`), and replaces one.
 * An outage ends by itself, proven by the next context refresh that works, and says so again at the
 * next refresh that fails once the loss is over; a loss ends only by its step (`sync --force`) or
 * with its notes (LOST_OWNS_ITS_NOTES): overwritten by a server briefly unreachable, the person was
 * never told what the graph had lost, and the notes stayed missing while `status` called them
 * confirmed. Between losses, `emptied` (the group lists nothing) outranks `lost`: the record's kind is
 * the worse of its groups' (LOSS_PER_GROUP).
 *
 * LOSS_PER_GROUP: a loss record holds a loss per group (`EmptiedGroup.kind`), so one group's loss
 * never hides another's. It held one problem: a group found emptied replaced a `lost` record of
 * another group, and a loss seen while an emptied group was on record was dropped, so that group's
 * loss went untold until a later listing of it saw it again (none did once the emptied warning ended
 * with its own group shown again). Within one group `emptied` outranks `lost` (it says more); each
 * group's loss ends as its kind's does (EMPTIED_WARNING_OWNS_ITS_GROUPS, LOST_OWNS_ITS_NOTES), and
 * the record with its last group. The record's `since` is its first loss's, and a group or a kind
 * not on record before is news (told again).
 */
export function isLoss(kind: GraphProblemKind): kind is LossKind {
  return LOSSES.has(kind);
}

export interface GraphProblem {
  kind: GraphProblemKind;
  /** `emptied`: the groups it names (EMPTIED_WARNING_OWNS_ITS_GROUPS); absent in records of builds before that rule. */
  groups?: EmptiedGroup[];
  /** The error as the worker saw it (first line, no secrets: URLs are not in these messages). */
  detail: string;
  /** When this problem was first seen (ISO). */
  since: string;
  /** Whether a session has been told. */
  told: boolean;
}

/** The record's file in the state folder (exported for tests that put something in its way). */
export const GRAPH_PROBLEM_FILE = 'graph-problem.json';
const FILE = GRAPH_PROBLEM_FILE;

export function readGraphProblem(stateDir: string): GraphProblem | undefined {
  try {
    const value = JSON.parse(readFileSync(join(stateDir, FILE), 'utf8')) as Partial<GraphProblem>;
    if (value.kind !== undefined && KINDS.has(value.kind) && typeof value.since === 'string') {
      const groups = isLoss(value.kind) ? emptiedGroupsOf(value.groups, value.kind) : undefined;
      return { kind: value.kind, detail: typeof value.detail === 'string' ? value.detail : '', since: value.since, told: value.told === true, ...(groups === undefined ? {} : { groups }) };
    }
  } catch {
    // none, or unreadable: nothing to tell
  }
  return undefined;
}

/** The record's groups, each with its kind (LOSS_PER_GROUP: a group of a record from before the rule is the record's kind). */
function emptiedGroupsOf(value: unknown, recordKind: LossKind): EmptiedGroup[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const groups = value.filter((g): g is EmptiedGroup => typeof g === 'object' && g !== null && typeof (g as EmptiedGroup).group === 'string' && typeof (g as EmptiedGroup).notes === 'number');
  if (groups.length !== value.length) return undefined;
  return groups.map(({ group, notes, parts, kind }) => {
    const known = lostPartsOf(parts);
    return { group, notes, kind: kind === 'emptied' || kind === 'lost' ? kind : recordKind, ...(known === undefined ? {} : { parts: known }) };
  });
}

/** A loss record of these groups (LOSS_PER_GROUP), or none when no group is left; `since` and `told` as the caller judged them. */
function writeLoss(stateDir: string, groups: readonly EmptiedGroup[], since: string, told: boolean): void {
  if (groups.length === 0) return clearGraphProblem(stateDir);
  const kind: LossKind = groups.some((g) => g.kind === 'emptied') ? 'emptied' : 'lost';
  write(stateDir, { kind, detail: lossDetail(groups), groups: [...groups], since, told });
}

/** The loss on record, if any (an outage is none). */
function lossOnRecord(stateDir: string): GraphProblem | undefined {
  const previous = readGraphProblem(stateDir);
  return previous !== undefined && isLoss(previous.kind) ? previous : undefined;
}

function lostPartsOf(value: unknown): LostPart[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const parts = value.filter((p): p is LostPart => typeof p === 'object' && p !== null && typeof (p as LostPart).id === 'string' && typeof (p as LostPart).uuid === 'string');
  return parts.length === value.length ? parts.map(({ id, uuid }) => ({ id, uuid })) : undefined;
}

function write(stateDir: string, problem: GraphProblem): void {
  writeFileAtomicSync(join(stateDir, FILE), `${JSON.stringify(problem)}\n`);
}

/** The worker saw this problem now; the same kind again keeps its first time and whether it was told. (`emptied` is recordEmptiedGraph's, `lost` recordLostSeen's.) */
export function recordGraphProblem(stateDir: string, kind: Exclude<GraphProblemKind, 'emptied' | 'lost'>, detail: string, now: Date = new Date()): void {
  const previous = readGraphProblem(stateDir);
  if (previous !== undefined && isLoss(previous.kind)) return; // LOSS_OUTLIVES_OUTAGE
  const same = previous?.kind === kind;
  write(stateDir, { kind, detail: detail.split('\n')[0]?.slice(0, 300) ?? '', since: same ? previous.since : now.toISOString(), told: same ? previous.told : false });
}

/**
 * EMPTIED_WARNING_OWNS_ITS_GROUPS: an `emptied` warning belongs to the groups it names, and only a
 * refresh that shows those groups' knowledge clears it, group by group: its block shows lines of the
 * group, or, showing nothing, EMPTIED_GRAPH's own look (the one that named the group) finds it listing
 * an episode again. One worker pass refreshes every project asked for, each searching its own groups
 * (`{project}` groups): before this rule the first refresh that found any knowledge cleared the
 * warning another project's refresh had just recorded, so what the next session was told depended on
 * the order of the projects (found by review). A block showing other groups' knowledge says nothing
 * of these. (`sync --force` on the command line ends it too: clearEmptiedGraph.)
 */
export function recordEmptiedGraph(stateDir: string, emptied: readonly EmptiedGroup[], now: Date = new Date()): void {
  if (emptied.length === 0) return;
  const previous = lossOnRecord(stateDir);
  const kept = previous?.groups ?? [];
  // A group found emptied is that now, whatever it was on record as; the other groups keep their loss (LOSS_PER_GROUP).
  const groups = [...kept.filter((k) => !emptied.some((e) => e.group === k.group)), ...emptied.map(({ group, notes }) => ({ group, notes, kind: 'emptied' as const }))];
  // A group not named as emptied before is news: the next session is told again.
  const news = emptied.some((e) => !kept.some((k) => k.group === e.group && k.kind === 'emptied'));
  writeLoss(stateDir, groups, previous?.since ?? now.toISOString(), previous !== undefined && !news ? previous.told : false);
}

/**
 * A sync's listing no longer showed notes this machine had confirmed (sync/force-look.ts
 * LOST_SEEN_IN_PASSING). Told as EMPTIED_GRAPH is, but a refresh that shows the group's knowledge
 * does not end it (the group still holds other notes: that is how the loss went unseen); `sync
 * --force` does (clearEmptiedGraph), and so do its notes gone or sent again (LOST_OWNS_ITS_NOTES,
 * `settleLostParts`). An emptied graph on record, which says more, is left as it is; an outage is
 * replaced (LOSS_OUTLIVES_OUTAGE; qa-review-16a found it as LOST_OVER_OUTAGE: the refresh after the
 * sync ends the outage when it works, so a kept outage swallowed the loss and no session heard of it). A group named again keeps every part named (a record of a build
 * before LOST_OWNS_ITS_NOTES names none: the larger count). A group on record as emptied stays so, and
 * other groups' losses are kept beside the new ones (LOSS_PER_GROUP).
 */
export function recordLostSeen(stateDir: string, lost: readonly EmptiedGroup[], now: Date = new Date()): void {
  const before = lossOnRecord(stateDir);
  // GROUPLESS_EMPTIED_KEPT: an emptied record of a build before EMPTIED_WARNING_OWNS_ITS_GROUPS names no
  // groups, so no group's loss can stand beside it: it is left as it is (as before LOSS_PER_GROUP), and a
  // later listing sees this loss again once a refresh has ended it. Merged as groups, it was dropped
  // untold, replaced by this loss alone.
  if (before?.kind === 'emptied' && before.groups === undefined) return;
  const kept = before?.groups ?? [];
  // An emptied group seen again by a listing that shows nothing of ours there: emptied says more.
  const seen = lost.filter((e) => !kept.some((k) => k.group === e.group && k.kind === 'emptied'));
  if (seen.length === 0) return;
  const merged = seen.map((e) => mergeLostGroup(kept.find((k) => k.group === e.group), e));
  const groups = [...kept.filter((k) => !seen.some((e) => e.group === k.group)), ...merged.map((m) => ({ ...m.group, kind: 'lost' as const }))];
  const news = merged.some((m) => m.news);
  writeLoss(stateDir, groups, before?.since ?? now.toISOString(), before !== undefined && !news ? before.told : false);
}

/** One group named again: every part named by either (LOST_OWNS_ITS_NOTES); `news` when it names a part, or more notes, not named before. */
function mergeLostGroup(kept: EmptiedGroup | undefined, seen: EmptiedGroup): { group: EmptiedGroup; news: boolean } {
  if (kept === undefined) return { group: { group: seen.group, notes: seen.notes, ...(seen.parts === undefined ? {} : { parts: seen.parts }) }, news: true };
  if (kept.parts === undefined || seen.parts === undefined) return { group: { group: seen.group, notes: Math.max(seen.notes, kept.notes), ...(seen.parts === undefined ? {} : { parts: seen.parts }) }, news: kept.notes < seen.notes };
  // A part is its episode (LOST_PART_IS_ITS_EPISODE): the same episode under a note's new id (a rename) is no news.
  const known = new Set(kept.parts.map((p) => p.uuid));
  const added = seen.parts.filter((p) => !known.has(p.uuid));
  const parts = [...kept.parts, ...added];
  return { group: { group: seen.group, notes: new Set(parts.map((p) => p.id)).size, parts }, news: added.length > 0 };
}

/**
 * LOST_OWNS_ITS_NOTES: a `lost` warning names the parts it is about (each note's record id and the
 * episode the listing no longer showed), and each part stays in it only while `partNow` finds it
 * (context/lost-notes.ts: the state still has a note resting on that episode). LOST_PART_IS_ITS_EPISODE:
 * a part is known by its episode, the note's id going with it: a note renamed here keeps its episodes
 * under the new file's id (sync/plan.ts), still missing from the graph; taken by the old id for gone, the
 * warning ended while the note was still lost (and the next listing named it again as a second note). A note removed
 * since (by the person, or by `pull` for a deletion made on a linked machine) or sent again (an
 * edit, `sync --force` of its source) leaves the warning; the warning ends with its last part. It
 * held counts only, and kept telling every session of notes long gone. Fewer notes are no news:
 * whether it was told stays. A group of a record from before this rule (no parts) is left as it is.
 */
export function settleLostParts(stateDir: string, partNow: (group: string, part: LostPart) => LostPart | undefined): void {
  const problem = lossOnRecord(stateDir);
  if (problem?.groups === undefined) return;
  let changed = false;
  const groups: EmptiedGroup[] = [];
  for (const g of problem.groups) {
    if (g.kind !== 'lost' || g.parts === undefined) {
      groups.push(g);
      continue;
    }
    const byUuid = new Map<string, LostPart>();
    for (const p of g.parts) {
      const now = partNow(g.group, p);
      if (now !== undefined && !byUuid.has(now.uuid)) byUuid.set(now.uuid, now);
    }
    const parts = [...byUuid.values()];
    if (parts.length === g.parts.length && parts.every((p, i) => p.id === g.parts?.[i]?.id)) {
      groups.push(g);
      continue;
    }
    changed = true;
    if (parts.length > 0) groups.push({ group: g.group, notes: new Set(parts.map((p) => p.id)).size, kind: 'lost', parts });
  }
  if (!changed) return;
  writeLoss(stateDir, groups, problem.since, problem.told);
}

/** Whether a `lost` record names parts that a look at the state can settle (LOST_OWNS_ITS_NOTES): the state is read only then. */
export function lostNamesParts(stateDir: string): boolean {
  return (lossOnRecord(stateDir)?.groups ?? []).some((g) => g.kind === 'lost' && g.parts !== undefined);
}

/**
 * `1 note in group main, 2 notes in group x`: what the warning names (the session's note and `status`).
 * DETAIL_NAMES_FEW: the first DETAIL_GROUPS groups are named, the rest counted ("and 230 notes in 115
 * more groups"). Naming every group, a machine that syncs many (a group per project, a team's) wrote a
 * warning longer than the context's budget; the context is cut at whole lines and the warning comes
 * first, so the session got nothing at all. The record keeps every group: only the words are short.
 */
const DETAIL_GROUPS = 5;
const notesText = (n: number) => `${n} note${n === 1 ? '' : 's'}`;
const groupsText = (n: number) => `${n} group${n === 1 ? '' : 's'}`;

/** `groups` in words, naming at most `names` of them (DETAIL_NAMES_FEW). */
function emptiedDetail(groups: readonly EmptiedGroup[], names: number = DETAIL_GROUPS): string {
  const named = groups.slice(0, names).map((e) => `${notesText(e.notes)} in group ${e.group}`);
  const rest = groups.slice(names);
  if (rest.length === 0) return named.join(', ');
  const notes = rest.reduce((sum, e) => sum + e.notes, 0);
  if (named.length === 0) return `${notesText(notes)} in ${groupsText(rest.length)}`;
  return `${named.join(', ')}, and ${notesText(notes)} in ${rest.length} more ${rest.length === 1 ? 'group' : 'groups'}`;
}

/**
 * Each kind's groups in words, DETAIL_GROUPS named in all, the emptied ones first (LOSS_PER_GROUP with
 * DETAIL_NAMES_FEW): a record of both kinds still fits the budget.
 */
function lossDetails(groups: readonly EmptiedGroup[]): { emptied?: string; lost?: string } {
  const emptied = groups.filter((g) => g.kind === 'emptied');
  const lost = groups.filter((g) => g.kind !== 'emptied');
  const left = Math.max(0, DETAIL_GROUPS - emptied.length);
  return { ...(emptied.length > 0 ? { emptied: emptiedDetail(emptied) } : {}), ...(lost.length > 0 ? { lost: emptiedDetail(lost, left) } : {}) };
}

/** The record's `detail`: one kind's as before; both (LOSS_PER_GROUP), the emptied groups', then the others'. */
function lossDetail(groups: readonly EmptiedGroup[]): string {
  const { emptied, lost } = lossDetails(groups);
  if (emptied === undefined || lost === undefined) return emptied ?? lost ?? '';
  return `${emptied}; and missing among other notes, ${lost}`;
}

/**
 * A context refresh worked and showed knowledge of `shown` (its block's groups, or the groups its look
 * found listing again; none: it found nothing to say of any group). Any
 * other kind is over (the server answers and searches work); an `emptied` warning loses the groups
 * shown and ends with the last (EMPTIED_WARNING_OWNS_ITS_GROUPS). A record from a build before that
 * rule names no groups: any refresh that shows knowledge ends it, as that build did.
 */
export function refreshShowed(stateDir: string, shown: readonly string[]): void {
  const problem = readGraphProblem(stateDir);
  if (problem === undefined || problem.kind === 'lost') return; // LOST_SEEN_IN_PASSING: the group shows other notes
  if (problem.kind !== 'emptied' || (problem.groups === undefined && shown.length > 0)) return clearGraphProblem(stateDir);
  if (problem.groups === undefined) return;
  // A lost group showing knowledge is no news (LOST_SEEN_IN_PASSING): only an emptied group's part ends (LOSS_PER_GROUP).
  const left = problem.groups.filter((g) => g.kind !== 'emptied' || !shown.includes(g.group));
  if (left.length === problem.groups.length) return;
  writeLoss(stateDir, left, problem.since, problem.told);
}

/**
 * OUTAGE_WANTS_REFRESH: a recorded problem that only a context refresh that works can end (the server
 * unreachable, another program at its address, its searches failing) makes the worker refresh even a
 * fresh cache. A Stop's pass refreshes nothing when nothing changed and the cache is younger than 30
 * minutes: a laptop back home from a network where the server could not be reached reached it again,
 * but kept the outage, and the next session at home was told the graph "could not be reached since …".
 * The refresh is what proves the outage over (or records it again). An emptied graph is not one of
 * these: `sync --force` ends it, and refreshing at every turn until then would only cost searches.
 */
export function refreshEndsProblem(stateDir: string): boolean {
  const problem = readGraphProblem(stateDir);
  return problem !== undefined && !isLoss(problem.kind);
}

/** Nothing to tell any more. */
export function clearGraphProblem(stateDir: string): void {
  try {
    unlinkSync(join(stateDir, FILE));
  } catch {
    // already clear
  }
}

/**
 * `sync --force` reached the server and sent again what the graph lost (sync/force-look.ts
 * FORCE_LOOK): an `emptied` record would now tell the next session and `status` a step already
 * taken. Other kinds stay: only a refresh that works clears those.
 */
export function clearEmptiedGraph(stateDir: string): void {
  const kind = readGraphProblem(stateDir)?.kind;
  if (kind !== undefined && isLoss(kind)) clearGraphProblem(stateDir);
}

/**
 * What an emptied graph means and the step (EMPTIED_GRAPH), the one wording for the session's
 * note and `status`; `forceCommand` is `sync --force` as this copy runs it.
 */
export function emptiedGraphText(problem: Pick<GraphProblem, 'detail' | 'since'>, forceCommand: string): string {
  return `since ${sinceText(problem)} UTC the knowledge graph (Graphiti) holds none of the memory notes this machine sent to it (${problem.detail}): the server was probably started again without its data (a removed volume, a database that does not persist, clear_graph), so no knowledge of them can be shown. ${forceCommand} sends them again, once each.`;
}

/** What a loss a sync's listing saw means and the step (LOST_SEEN_IN_PASSING), for the session's note and `status`. */
export function lostGraphText(problem: Pick<GraphProblem, 'detail' | 'since'>, forceCommand: string): string {
  return `since ${sinceText(problem)} UTC the knowledge graph (Graphiti) no longer holds memory notes this machine sent to it and it had confirmed (${problem.detail}): the server was probably started again without its data (a removed volume, a database that does not persist, clear_graph) while newer notes were sent, so no knowledge of those can be shown. ${forceCommand} sends them again, once each.`;
}

/** A record of both kinds (LOSS_PER_GROUP): what each group lost, one step for both. */
function bothLossesText(problem: Pick<GraphProblem, 'since'>, details: { emptied: string; lost: string }, forceCommand: string): string {
  return `since ${sinceText(problem)} UTC the knowledge graph (Graphiti) holds none of the memory notes this machine sent to some groups (${details.emptied}) and no longer holds others it had confirmed (${details.lost}): the server was probably started again without its data (a removed volume, a database that does not persist, clear_graph), so no knowledge of them can be shown. ${forceCommand} sends them again, once each.`;
}

/** The warning for an `emptied` or `lost` record (`status`, the session's note); undefined for the other kinds. */
export function graphLossText(problem: Pick<GraphProblem, 'kind' | 'detail' | 'since' | 'groups'>, forceCommand: string): string | undefined {
  const { emptied, lost } = lossDetails(problem.groups ?? []);
  if (problem.kind === 'emptied' && emptied !== undefined && lost !== undefined) return bothLossesText(problem, { emptied, lost }, forceCommand);
  if (problem.kind === 'emptied') return emptiedGraphText(problem, forceCommand);
  if (problem.kind === 'lost') return lostGraphText(problem, forceCommand);
  return undefined;
}

function sinceText(problem: Pick<GraphProblem, 'since'>): string {
  return problem.since.slice(0, 16).replace('T', ' ');
}

/** The line for the first session after a problem appeared, marking it told; undefined otherwise. */
export function takeGraphProblemNote(stateDir: string, copyRunning?: RunningCopy): string | undefined {
  const problem = readGraphProblem(stateDir);
  if (problem === undefined || problem.told) return undefined;
  try {
    write(stateDir, { ...problem, told: true });
  } catch {
    return undefined; // told only if we can remember it was
  }
  const since = sinceText(problem);
  // Only now, with a note to make: how this copy was installed costs a stat or two.
  const copy = copyRunning ?? runningCopy();
  const health = copy.cli === undefined ? `The worker's log ${logFilePath(stateDir)} has the errors; ${namedCommand('health', copy)}` : namedCommand('health', copy);
  if (problem.kind === 'unreachable') return ourNote(`the knowledge graph (Graphiti) could not be reached since ${since} UTC, so the knowledge below may be out of date and new memory files wait to be synced. ${health} names the cause.`);
  // The step itself, not `health`: the server is fine, its data is gone (sync/force-look.ts FORCE_LOOK).
  const loss = graphLossText(problem, namedCommand('sync --force', copy));
  if (loss !== undefined) return ourNote(loss);
  if (problem.kind === 'not-graphiti') return ourNote(`since ${since} UTC another program, not Graphiti, answers at the knowledge graph's address, so the knowledge below may be out of date and new memory files wait to be synced. ${health} names it and the fix.`);
  return ourNote(`the knowledge graph (Graphiti) answers, but its searches fail (${problem.detail}), so no knowledge could be read from it since ${since} UTC. ${health} names the cause and the fix.`);
}
