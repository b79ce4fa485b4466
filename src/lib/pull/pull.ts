/**
 * `pull` (issue 42): the person's notes from their other machines, written into this machine's
 * memory folders. One run:
 *
 * 1. takes the state lock (a sync never scans a folder pull is writing into), reads the key
 *    (state/note-key.ts; none: not linked, nothing done) and what was pulled before (state/pulled.ts);
 * 2. maps project identities to memory folders here (projects.ts);
 * 3. lists the groups auto memory goes to (the default one and each mapped project's), once,
 *    and keeps only verified notes (incoming.ts);
 * 4. decides per note (decide.ts) and does it: writes (restore.ts; the index line, memory-index.ts),
 *    puts a conflicting version beside the local one, removes an untouched copy of a note deleted
 *    elsewhere, or takes a note deleted here out of the graph;
 * 5. notes of projects not mapped here are held in the ledger (or written under `--to`).
 * `--all` (restore after loss) also brings back this machine's own notes whose files are gone, and
 * never takes a missing file for a deletion.
 */
import { existsSync, statSync } from 'node:fs';
import { readFile, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve } from 'node:path';
import type { Config, DbKind } from '../config/config.js';
import { processEnv } from '../config/process-env.js';
import { GraphitiClient, type Episode } from '../graphiti/graphiti.js';
import { editGapElsewhere, resolveSemantics, semanticsOptions } from '../graphiti/server-rules.js';
import { contentHashOf } from '../memory/hash.js';
import { redactSecrets, stripPrivateBlocks } from '../memory/redact.js';
import { LockLostError, withLock, type Lock } from '../state/lock.js';
import { readNoteKey } from '../state/note-key.js';
import { noteId, PULLED_FILE, readPulled, writePulled, type ConflictCopy, type IndexLine, PendingWrites, type PendingWrite, type PulledLedger, type PulledNote } from '../state/pulled.js';
import { loadState } from '../state/state.js';
import type { SyncState } from '../state/types.js';
import { lastMovement, paceOf, patienceMs } from '../sync/pace.js';
import { clockMarkNow, jumpSince, sinceAfterJump, type ClockMark } from '../sync/clock-jump.js';
import { groupReach, groupsInView } from '../sync/group-reach.js';
import { normalizeGroupId } from '../graphiti/escape.js';
import { groupFor } from '../sync/prepare.js';
import { listedAs, otherSpelling, spellingsOnce } from '../util/file-identity.js';
import { writeFileAtomic } from '../util/fs-atomic.js';
import { nullLogger, type Logger } from '../util/log.js';
import { ourOrigins } from '../util/origin.js';
import { decide, type CopyReason, type Decision, type LocalNote, type NoteFacts } from './decide.js';
import { collectNotes, firstOfText, versionsFor, type Incoming, type NoteVersion } from './incoming.js';
import { writersBack } from './writer-back.js';
import { indexNote, unindexNote } from './memory-index.js';
import { clonedFromHere, fileIdIn, knownRoots, localProjects, type CloneHint, type LocalProject } from './projects.js';
import { holdsRedaction, restoreNote } from './restore.js';
import { anotherServer, serverOfRecord } from '../state/server-of-record.js';
import { dropSetAside, pruneSetAside, setAside } from '../state/set-aside.js';

/** How often watch pulls, at most (after a pass): a pull lists the whole group. */
export const WATCH_PULL_EVERY_MS = 5 * 60_000;

/** Whether a pull is due: never pulled here, or the last one (pulled.json written) is older than `everyMs`. */
export function pullDue(stateDir: string, now: number, everyMs: number): boolean {
  try {
    const since = now - statSync(join(stateDir, PULLED_FILE)).mtimeMs;
    // A stamp more than a period in the future was written by a clock since set back (a VM resumed
    // ahead, then NTP): due now, or no pull would come until the clock caught up with it, hours or
    // days later. A stamp a little ahead (a file server's clock) waits as usual, not every pass.
    return since >= everyMs || since < -everyMs;
  } catch {
    return true;
  }
}

/** Episodes asked for in one listing; a listing that fills it is not complete (no absence judged). */
export const PULL_MAX_EPISODES = 50_000;

export interface PullOptions {
  logger?: Logger;
  /** Restore after loss: every note whose file is missing here, this machine's own included; no deletion judged. */
  all?: boolean;
  /** Write notes of projects not mapped here under this folder (`<dir>/<project id>/<path>`). */
  to?: string;
  /** Folders to map besides the projects Claude Code knows (the session's cwd). */
  projectDirs?: readonly string[];
  graphiti?: GraphitiClient;
  env?: Record<string, string | undefined>;
  now?: () => number;
  /**
   * The system's uptime and boot at the pull's start (sync/clock-jump.ts; default `clockMarkNow`). A
   * pull on an injected `now` has none unless given here (the system's uptime says nothing of a test's clock).
   */
  clockMark?: () => ClockMark;
  signal?: AbortSignal;
  lockTimeoutMs?: number;
}

export interface PulledFile {
  file: string;
  origin: string;
  version: number;
  redacted: boolean;
}

export interface PullReport {
  linked: boolean;
  written: PulledFile[];
  /** The other side of a conflict, written beside the local note. */
  copies: Array<{ file: string; copy: string; origin: string; why: CopyReason }>;
  /** Untouched copies of notes deleted on another machine, removed here. */
  removed: string[];
  /** Of `removed`, those whose group then listed nothing at all: their text kept aside (set-aside.ts SET_ASIDE_WHEN_GROUP_EMPTY). */
  setAside: Array<{ file: string; kept: string; group: string; origin: string; at: string }>;
  /** Notes renamed elsewhere by case (or Unicode form) alone, whose one file here now has the new spelling (ONE_FILE_TWO_SPELLINGS). */
  respelt: Array<{ from: string; to: string }>;
  /** Notes deleted elsewhere but changed here: kept. */
  keptDeletedElsewhere: string[];
  /** Pulled copies whose note has no version in the graph for less than its group's patience (an edit elsewhere in flight?): kept for now (decide.ts `absent`). */
  absent: string[];
  /** Notes missing here whose deletion was not passed on: their whole memory folder is missing or emptied (restore with --all). */
  notDeleted: string[];
  /** Episodes taken out of the graph for notes deleted here. */
  deletedInGraph: number;
  /** Notes of projects not mapped on this machine: held (or written under --to). */
  held: HeldReport[];
  /** Checkouts here whose remote changed since the last pull (state/checkout-ids.ts). */
  checkouts: Array<{ root: string; change: 'renamed' | 'replaced'; remote?: string }>;
  /** Tagged episodes that did not verify with this key: never written. */
  unverified: number;
  /** Notes from the person's other machines that verified with this key (none while some are refused: the keys may differ). */
  fromOthers: number;
  /** Conflicts still open (their copy files exist). */
  conflicts: ConflictCopy[];
  /** Groups listed; whether the listing was complete. */
  groups: string[];
  complete: boolean;
}

export interface HeldReport {
  project: string;
  path: string;
  written?: string;
  /**
   * The note's project id is what a checkout here says now (its new URL), while it goes by the id it
   * had before its host renamed it: the sender knows the repository only by the new URL. It joins
   * by declaring the old one (`previousUrl`, normalised: any scheme gives the same id).
   */
  renamedHere?: { root: string; previousUrl: string };
  /**
   * A checkout here was cloned from the URL the note's project goes by, and its remote is another
   * now: renamed on its host, or a fork pointed at after the clone (projects.ts `clonedFromHere`:
   * never joined by itself). The message names the command that joins it, if it is a rename.
   */
  clonedHere?: CloneHint;
}

export function emptyReport(linked: boolean): PullReport {
  return { linked, written: [], copies: [], removed: [], setAside: [], respelt: [], keptDeletedElsewhere: [], absent: [], notDeleted: [], deletedInGraph: 0, held: [], checkouts: [], unverified: 0, fromOthers: 0, conflicts: [], groups: [], complete: true };
}

async function readLocal(file: string): Promise<LocalNote | undefined> {
  let raw: Buffer;
  try {
    raw = await readFile(file);
  } catch {
    return undefined;
  }
  const text = raw.toString('utf8');
  return { hash: contentHashOf(raw), redacted: holdsRedaction(text), keptHere: stripPrivateBlocks(text).count > 0 || redactSecrets(text).total > 0 };
}

/** `stem.from-<origin>.md` beside the note (`stem.from-<origin>-<n>.md` for n > 1). */
export function copyPathFor(file: string, origin: string, n = 1): string {
  const name = basename(file);
  const stem = name.replace(/\.md$/i, '');
  return join(dirname(file), `${stem}.from-${origin}${n > 1 ? `-${n}` : ''}.md`);
}

/**
 * Where the other side of a conflict goes: the first of `copyPathFor`'s names that is free or holds
 * pull's untouched copy. A copy the person edited (merging in it) is theirs now: never written over.
 */
async function copyTarget(file: string, origin: string, ledger: PulledLedger): Promise<string> {
  for (let n = 1; ; n++) {
    const path = copyPathFor(file, origin, n);
    const there = await readLocal(path);
    if (there === undefined || ledger.copies.some((c) => c.copy === path && c.hash === there.hash)) return path;
  }
}

/** A note's file inside a memory folder; undefined if the path would leave it. */
function inside(memoryDir: string, path: string): string | undefined {
  const file = resolve(memoryDir, path);
  const rel = relative(resolve(memoryDir), file);
  return rel === '' || rel.startsWith('..') ? undefined : file;
}

function frontmatterOf(version: NoteVersion): { title: string; description: string | undefined } {
  const first = version.parts[0];
  const description = /^Description: (.+)$/m.exec((first?.body ?? '').split('\n\n')[0] ?? '')?.[1];
  const title = /^Title: (.+)$/m.exec((first?.body ?? '').split('\n\n')[0] ?? '')?.[1] ?? (first?.name ?? version.path).replace(/ \(part \d+\/\d+\)$/, '');
  return { title, description };
}

export async function runPull(config: Config, options: PullOptions = {}): Promise<PullReport> {
  const logger = (options.logger ?? nullLogger).child({ component: 'pull' });
  const key = readNoteKey(config.stateDir);
  if (key === undefined) return emptyReport(false);
  return withLock(config.stateDir, async (lock) => pullLocked(config, options, key, logger, lock), { timeoutMs: options.lockTimeoutMs ?? 120_000, label: 'pull', ...(options.signal === undefined ? {} : { signal: options.signal }) });
}

/**
 * Every write of the pull, to the folders, the state folder or the graph, is made only while `lock`
 * is ours, read at the moment of the write (state/lock.ts LOCK_PROVEN_AT_WRITE): the journal of each
 * file write (PendingWrites), a removal, a delete in the graph, the ledger, a `MEMORY.md` line (a
 * resolved listed copy's taken out, one a kill left out written), a held note written into `--to`,
 * and the server's rules answer the pull records (server-rules.ts IDLE_LOSS_EXPLAINED).
 */
async function pullLocked(config: Config, options: PullOptions, key: Uint8Array, logger: Logger, lock: Lock): Promise<PullReport> {
  const env = options.env ?? processEnv();
  const now = options.now ?? Date.now;
  const startedAt = now();
  const when = new Date(startedAt).toISOString();
  // A kept text's time is up, or the person moved it back (SET_ASIDE_WHEN_GROUP_EMPTY).
  pruneSetAside(config.stateDir, startedAt);
  const report = emptyReport(true);
  const ledger = await readPulled(config.stateDir);
  const clock = options.clockMark?.() ?? (options.now === undefined ? clockMarkNow() : undefined);
  if (clock !== undefined) missingSinceAfterJump(ledger, startedAt, clock, logger);
  await writeMissingIndexLines(ledger, lock);
  const projects = localProjects(config, env, options.projectDirs ?? [], ledger.checkouts);
  // What each checkout goes by, kept for the next run (and the sync's signer); a checkout whose
  // remote changed is named in the report.
  const renamedHere = new Map<string, { root: string; previousUrl: string }>();
  for (const folders of projects.values()) {
    for (const { root, checkout } of folders) {
      ledger.checkouts[root] = checkout.record;
      if (checkout.change !== undefined) report.checkouts.push({ root, change: checkout.change, ...(checkout.remote === undefined ? {} : { remote: checkout.remote }) });
      if (checkout.current !== checkout.id && checkout.record.remote !== undefined) renamedHere.set(checkout.current, { root, previousUrl: checkout.record.remote });
    }
  }
  const groups = [...new Set([config.groupId, ...[...projects.values()].flat().map((p) => groupFor(config, { source: 'auto-memory', kind: 'auto-memory', project: p.key }, undefined))])];
  report.groups = groups;
  const graphiti = options.graphiti ?? new GraphitiClient(config, { logger });
  let episodes;
  // Whether an edit elsewhere can leave the graph without the note for a while (decide.ts
  // `absenceSettled`): server-rules.ts EDIT_GAP_ELSEWHERE, as known without a probe (cautious: it can).
  let editWindow = true;
  // The groups this listing speaks for: on a server before 1.1 on FalkorDB only those it shows (group-reach.ts).
  let inView: ReadonlySet<string>;
  try {
    episodes = await graphiti.getEpisodes(groups, PULL_MAX_EPISODES, options.signal);
    inView = await groupsInView(graphiti, config.db, groups, episodes, options.signal);
    if (Object.keys(ledger.notes).length > 0) {
      // Under the state lock this pull holds: a sentinel found answering is recorded (server-rules.ts IDLE_LOSS_EXPLAINED).
      // Written only while the lock is ours, read then (LOCK_PROVEN_AT_WRITE); a lock lost ends the pull here.
      const noteAnswer = async (write: () => Promise<void>) => {
        lock.prove();
        await write();
      };
      const semantics = await resolveSemantics(graphiti, { ...semanticsOptions(config, logger, options.signal), probe: false, noteAnswer }).catch((error: unknown) => {
        if (error instanceof LockLostError) throw error;
        return undefined;
      });
      editWindow = editGapElsewhere(semantics);
    }
  } finally {
    if (options.graphiti === undefined) await graphiti.close().catch(() => undefined);
  }
  report.complete = episodes.length < PULL_MAX_EPISODES;
  const ours = ourOrigins(config);
  const notes = collectNotes(episodes, key, ours);
  // SERVER_OF_RECORD (server-of-record.ts): the first listing of another server judges no absence.
  const server = serverOfRecord(config);
  // Read before the ledger takes the new server: the warning names the one pull listed before.
  const before = ledger.server;
  const moved = anotherServer(before, server);
  if (report.complete) ledger.server = server;
  // A listing cut at PULL_MAX_EPISODES may leave out notes still there: only a complete one can show a group emptied (none is judged absent on a cut one anyway).
  const judged = moved ? new Set<string>() : report.complete ? withoutEmptiedGroups(inView, notes.all, ledger) : inView;
  const emptied = [...inView].filter((group) => !judged.has(group));
  markEmptied(ledger, new Set(emptied), notes.all, when, moved);
  // MOVED_NOTE_WRITER_BACK (writer-back.ts): a note the move left unjudged is judged once its writer has synced here.
  const writersSynced = moved ? [] : writersBack(ledger, notes.all, ours);
  if (writersSynced.length > 0) logger.info('notes missing since this machine moved to this server, whose writer has synced here since: their absence is judged again (MOVED_NOTE_WRITER_BACK)', { notes: writersSynced.length });
  if (moved) {
    const back = before === 'local-server' ? 'unset MADEINOZ_KNOWLEDGE_MCP_URL (the local server)' : `set MADEINOZ_KNOWLEDGE_MCP_URL back to ${before ?? ''}`;
    logger.warn(`another server than the one pull last listed (${before ?? ''}): the notes it does not list are not taken for deleted elsewhere (nothing removed here or in the graph); if it is the server you mean to use, sync --force sends them there, else ${back}`, { server, before });
  } else if (emptied.length > 0) logger.warn('groups where none of the notes pull knows (two or more, their files still here) is listed any more, taken for emptied (a server restarted without its data, a cleared graph, perhaps written to again since), not for deletions: nothing removed here; sync --force on the machine that wrote them sends them again, or delete them here if they were deleted on purpose', { groups: emptied });
  inView = judged;
  // Groups this complete listing shows with no episode at all: a note removed from one is set aside (SET_ASIDE_WHEN_GROUP_EMPTY).
  const silent = new Set(report.complete ? [...inView].filter((group) => !episodes.some((e) => e.group_id === group)) : []);
  report.unverified = notes.unverified;
  report.fromOthers = notes.incoming.size;
  // Before anything is judged by name: a note renamed elsewhere by case alone is the same file here.
  if (report.complete) await takeOtherSpellings(config.stateDir, lock, ledger, notes, projects, report, (group) => groups.includes(group) && inView.has(group));
  const knownById = new Map(Object.values(ledger.notes).map((n) => [noteId(n.project, n.path), n] as const));
  const ids = new Set([...notes.incoming.keys(), ...notes.own.keys(), ...knownById.keys()]);
  const lostFolders = emptiedFolders(ledger, projects);
  let cloneHints: Map<string, CloneHint> | undefined;
  const clonedHere = (project: string) => (cloneHints ??= clonedFromHere(knownRoots(config, env, options.projectDirs ?? []))).get(project);
  const toDelete: GraphDelete[] = [];
  // How long a note may be absent before it is taken for deleted elsewhere: no time where an edit
  // leaves no window (make-before-break), else the group's patience (sync/pace.ts), learned by
  // the sync in the state (read once, and only for a note found absent), counted from the group's
  // last movement in this listing, at most the configured maximum.
  let syncState: Promise<SyncState | undefined> | undefined;
  const absenceRules = new Map<string, Promise<AbsenceRule>>();
  const ruleOf = async (group: string): Promise<AbsenceRule> => {
    if (!editWindow) return { patienceMs: 0 };
    const state = await (syncState ??= loadState(config.stateDir, { readOnly: true }).then((l) => l.state, () => undefined));
    const pace = state === undefined ? {} : paceOf(state, group);
    return { patienceMs: patienceMs(pace, config.confirmMaxAgeMs), movedAt: lastMovement(pace, { episodes: episodes.filter((e) => e.group_id === group) }, startedAt), maxAbsenceMs: config.confirmMaxAgeMs };
  };
  const absenceRule = (group: string): Promise<AbsenceRule> => {
    let rule = absenceRules.get(group);
    if (rule === undefined) absenceRules.set(group, (rule = ruleOf(group)));
    return rule;
  };
  const spelt = spellingsOnce();
  // Each file is journaled before it is written (PendingWrite): a pull killed among them leaves
  // none that the next sync would take for this machine's own note.
  const journal = new PendingWrites(config.stateDir, lock);
  try {
    for (const id of ids) {
      const any = notes.incoming.get(id) ?? notes.own.get(id) ?? knownById.get(id);
      if (any === undefined) continue;
      const folders = projects.get(any.project);
      if (folders === undefined) {
        const incoming = notes.incoming.get(id);
        if (incoming !== undefined) await hold(ledger, report, incoming, when, options.to, renamedHere.get(incoming.project), clonedHere(incoming.project), lock);
        continue;
      }
      // Mapped here now: judged from the graph below, no longer held.
      delete ledger.held[id];
      // Each memory folder of the project here (two clones: two folders) is a file of its own, with
      // the versions it sent as its own and every other one (another clone's too) as incoming.
      for (const project of folders) await pullInto(project, id, any.path, { config, options, logger, ledger, report, notes, groups, lostFolders, toDelete, journal, lock, when, now: startedAt, absenceRule, inView, silent, ours, spelt });
    }
  } finally {
    await journal.close();
  }
  // A held note no longer in the graph (deleted on its machine) is no longer held (`status` counts them).
  if (report.complete) for (const id of Object.keys(ledger.held)) if (!notes.incoming.has(id)) delete ledger.held[id];
  // Conflicts the user resolved (the copy removed) are closed; a listed copy's line goes with it (LISTED_COPY).
  for (const c of ledger.copies) {
    if (existsSync(c.copy) || c.indexLine === undefined || c.listed !== true) continue;
    lock.prove(); // LOCK_PROVEN_AT_WRITE: the person's MEMORY.md, written over by nobody but the lock's holder
    await unindexNote(c.indexLine.memoryDir, c.indexLine.path);
  }
  ledger.copies = ledger.copies.filter((c) => existsSync(c.copy));
  report.conflicts = ledger.copies;
  if (toDelete.length > 0) {
    const client = options.graphiti ?? new GraphitiClient(config, { logger });
    try {
      const reach = await groupReach({ graphiti: client, db: config.db, signal: options.signal, logger });
      for (const ep of toDelete) {
        lock.prove();
        const r = await client.deleteEpisode(ep.uuid, ep.groupId, options.signal);
        if (r.deleted) report.deletedInGraph++;
        // "Not found" from a server that moved to another group since the listing (before 1.1 on
        // FalkorDB: group-reach.ts): the episode stays, so the note stays known, and the next pull
        // that sees the group deletes it again (else that pull would bring the note back here).
        else if (r.notFound && ep.entry !== undefined && !(await reach.inReach(ep.groupId, true))) {
          ledger.notes[ep.file] ??= ep.entry;
          logger.info('delete_episode answered "not found" after the server moved to another group; the next pull that sees the group deletes it', { uuid: ep.uuid, group: ep.groupId });
        }
      }
    } finally {
      if (options.graphiti === undefined) await client.close().catch(() => undefined);
    }
  }
  if (clock !== undefined) ledger.lastPull = { startedAt: when, clock };
  await writePulled(config.stateDir, ledger, lock);
  if (report.setAside.length > 0) logger.warn('notes removed while their group listed nothing at all (a deletion on another machine, or a graph wiped: one note alone cannot tell): their text is kept aside; move each back to its file and sync if the graph was wiped', { setAside: report.setAside.map((n) => ({ file: n.file, kept: n.kept, group: n.group })) });
  logger.info('pull', { written: report.written.length, copies: report.copies.length, removed: report.removed.length, held: report.held.length, unverified: report.unverified, deletedInGraph: report.deletedInGraph });
  return report;
}

/**
 * ABSENCE_AFTER_JUMP (sync/clock-jump.ts): the wall clock jumped forward since the last pull (more
 * than the system's uptime moved, in the same boot): each absence pull is timing keeps only the real
 * time it lasted, so a copy is not removed before the group's patience has really passed.
 */
function missingSinceAfterJump(ledger: PulledLedger, startedAt: number, clock: ClockMark, logger: Logger): void {
  const jumpMs = jumpSince(ledger.lastPull, startedAt, clock);
  if (jumpMs === 0) return;
  let absences = 0;
  for (const note of Object.values(ledger.notes)) {
    if (note.missingSince === undefined) continue;
    note.missingSince = sinceAfterJump(note.missingSince, jumpMs, startedAt);
    absences++;
  }
  logger.info('the clock jumped forward since the last pull: absences count the real time they lasted (ABSENCE_AFTER_JUMP)', { jumpMs, absences });
}

/** A part of a note deleted here, to delete from the graph: the file and its ledger entry, kept again if the server cannot delete it now. */
interface GraphDelete {
  uuid: string;
  groupId: string;
  file: string;
  entry: PulledNote | undefined;
}

/** What decides when an absence is a deletion (sync/pace.ts `absenceSettled`): 0 patience where no edit elsewhere leaves a gap (server-rules.ts EDIT_GAP_ELSEWHERE). */
type AbsenceRule = Pick<NoteFacts, 'patienceMs' | 'movedAt' | 'maxAbsenceMs'>;

interface PullRun {
  config: Config;
  options: PullOptions;
  /** The pull's logger (its component named). */
  logger: Logger;
  ledger: PulledLedger;
  report: PullReport;
  notes: Incoming;
  groups: string[];
  /** Memory folders lost or emptied (emptiedFolders). */
  lostFolders: ReadonlySet<string>;
  toDelete: GraphDelete[];
  journal: PendingWrites;
  /** The state lock, proven before a write the journal does not announce (a removal). */
  lock: Lock;
  when: string;
  /** The pull's clock (PullOptions.now), read once at its start. */
  now: number;
  /** How long a note of a group may be absent before it is a deletion (sync/pace.ts `absenceSettled`). */
  absenceRule: (group: string) => Promise<AbsenceRule>;
  /** The groups the listing speaks for (group-reach.ts `groupsInView`): a note of another is never absent. */
  inView: ReadonlySet<string>;
  /** Of those, the ones it shows with no episode at all (set-aside.ts SET_ASIDE_WHEN_GROUP_EMPTY). */
  silent: ReadonlySet<string>;
  ours: ReadonlySet<string>;
  /** Whether the folder lists a file under this very spelling (util/file-identity.ts `spellingsOnce`). */
  spelt: (path: string) => Promise<boolean>;
}

/** One note into one memory folder of its project: judged (decide.ts), journaled, done. */
async function pullInto(project: LocalProject, id: string, path: string, run: PullRun): Promise<void> {
  const { config, options, ledger, report, notes, groups, toDelete, journal, when } = run;
  const file = inside(project.memoryDir, path);
  if (file === undefined) return;
  const { incoming, own } = versionsFor(notes, id, fileIdIn(project, path));
  // What this machine knows of this very file: a copy of the note in another memory folder (the
  // checkout's old path, another clone) is another file, and its absence here is no deletion.
  const pulled = ledger.notes[file];
  const local = await readLocal(file);
  // Restore after loss: a missing file takes the newest version there is, this machine's own too.
  const candidate = options.all === true && local === undefined ? newest(incoming, own) : incoming;
  const restored = candidate === undefined ? undefined : restoreNote(candidate, when);
  const folderThere = existsSync(project.memoryDir) && statSync(project.memoryDir).isDirectory();
  // The file is that version: what pull would write, or the very text its sender sent (the same
  // note saved alike in two places, each sent as its own: one note, no conflict copy).
  const sameAsLocal = restored !== undefined && local !== undefined && (contentHashOf(Buffer.from(restored.text)) === local.hash || (incoming !== undefined && local.hash.startsWith(incoming.hash12)));
  const holdsLocal = (v: NoteVersion) => local !== undefined && (local.hash.startsWith(v.hash12) || (v === incoming && sameAsLocal));
  // A version of the note seen again: whatever absence was remembered is over.
  if (pulled?.missingSince !== undefined && (incoming !== undefined || own !== undefined)) delete pulled.missingSince;
  if (pulled?.emptiedSince !== undefined && (incoming !== undefined || own !== undefined)) {
    delete pulled.emptiedSince;
    delete pulled.emptiedByMove;
  }
  const absentHere = incoming === undefined && own === undefined && pulled !== undefined && local !== undefined;
  const facts: NoteFacts = {
    incoming,
    own,
    pulled,
    local,
    incomingRedacted: restored?.redacted ?? false,
    sameAsLocal,
    // EMPTIED_GROUP: a note lost with the rest of its group is not judged absent (`emptiedSince`).
    groupListed: report.complete && pulled !== undefined && pulled.emptiedSince === undefined && groups.includes(pulled.group) && run.inView.has(pulled.group),
    firstOfText: local === undefined ? undefined : firstOfText(notes, id, holdsLocal),
    now: run.now,
    ...(absentHere ? await run.absenceRule(pulled.group) : { patienceMs: 0 }),
    ...(local !== undefined && pulled === undefined && !(await run.spelt(file)) ? { localIsAnotherName: true } : {}),
  };
  // ONE_FILE_TWO_SPELLINGS, here: a pulled note renamed on this machine by case (or Unicode form)
  // alone still opens under its old name on a disk that folds names, though the folder lists it
  // under the new one, which the sync sends as a note of its own. For the rule of a note deleted
  // here the old name is gone, as it is on any other disk (else the graph kept the note under both
  // names); nothing is ever written over a name that opens another spelling's file.
  const otherSpelt = local !== undefined && pulled !== undefined && !(await run.spelt(file));
  const gone = otherSpelt ? decide({ ...facts, local: undefined, sameAsLocal: false, firstOfText: undefined, patienceMs: 0 }) : undefined;
  let decision: Decision =
    options.all === true && local === undefined && candidate !== undefined
      ? { kind: 'write', why: 'new' }
      : gone !== undefined && gone.kind !== 'write'
        ? gone
        : decide(facts);
  // A memory folder that is not there at all was lost or never made: never a deletion of each note in it.
  if (decision.kind === 'delete-in-graph' && (!folderThere || options.all === true || run.lostFolders.has(project.memoryDir))) {
    decision = { kind: 'none', why: 'memory folder missing or emptied' };
    report.notDeleted.push(file);
  }
  const input: ActInput = { config, logger: run.logger, ledger, report, project, path, file, local, candidate, restored, own, pulled, when, notes: notes.all.get(id) ?? [], toDelete, lock: run.lock, ours: run.ours, holdsLocal, liveFiles: () => liveFilesIn(project, notes), groupSilent: pulled !== undefined && run.silent.has(pulled.group) };
  const pending = pendingWrite(decision, input, decision.kind === 'copy' && candidate !== undefined ? await copyTarget(file, candidate.origin, ledger) : undefined);
  if (pending !== undefined) await journal.add(pending);
  // The journal's fsync is the slowest step between judging a file and writing over it: a file
  // changed meanwhile (an edit saved in that window) is left for the next pull to judge again.
  if (decision.kind === 'write' && (await readLocal(file))?.hash !== local?.hash) return;
  await act(decision, input, pending);
}

/** Writes a written note's `MEMORY.md` line and marks it written in the ledger entry (state/pulled.ts `indexLine`). */
async function writeIndexLine(note: PulledNote): Promise<void> {
  const line = note.indexLine;
  if (line === undefined) return;
  await indexNote(line.memoryDir, line.path, line.title, line.description);
  delete note.indexLine;
}

/**
 * LISTED_COPY: a `same-name-here` copy (pull/decide.ts SAME_NAME_HERE) gets its `MEMORY.md` line, as
 * a written note does. It is not a side of a conflict the person merges and removes (those stay
 * unlisted: the session would load two versions of one note), but another note of the other
 * machine's that this disk cannot hold under its own name: unlisted, no session here knew it
 * existed. The line goes when the copy does (the person removed it, once renamed elsewhere).
 */
async function writeCopyIndexLine(copy: ConflictCopy): Promise<void> {
  if (copy.indexLine === undefined || copy.listed === true) return;
  await indexNote(copy.indexLine.memoryDir, copy.indexLine.path, copy.indexLine.title, copy.indexLine.description);
  copy.listed = true;
}

/**
 * The lines a pull killed after writing a note (or a listed copy) and before its line left out (the
 * journal of that write, settled by readPulled, names them). A note no longer there needs none.
 */
async function writeMissingIndexLines(ledger: PulledLedger, lock: Lock): Promise<void> {
  for (const note of Object.values(ledger.notes)) {
    if (note.indexLine === undefined) continue;
    if (!existsSync(note.file)) delete note.indexLine;
    else {
      lock.prove();
      await writeIndexLine(note);
    }
  }
  for (const copy of ledger.copies) {
    if (!existsSync(copy.copy) || (copy.indexLine === undefined || copy.listed === true)) continue;
    lock.prove();
    await writeCopyIndexLine(copy);
  }
}

/**
 * Memory folders whose every pulled note (two or more) is gone from this machine at once: a folder
 * lost or emptied (a reset, a restore gone wrong), not the user deleting each note. Their deletions
 * are not passed on to the graph (and so to the other machines); `pull --all` brings the notes back.
 */
function emptiedFolders(ledger: PulledLedger, projects: ReadonlyMap<string, readonly LocalProject[]>): Set<string> {
  const counts = new Map<string, { pulled: number; missing: number }>();
  for (const n of Object.values(ledger.notes)) {
    // Only the copies in a memory folder of the project here (not those of an old path).
    const folder = projects.get(n.project)?.find((p) => inside(p.memoryDir, n.path) === n.file);
    if (n.hash === '' || folder === undefined) continue;
    const c = counts.get(folder.memoryDir) ?? { pulled: 0, missing: 0 };
    c.pulled++;
    if (!existsSync(n.file)) c.missing++;
    counts.set(folder.memoryDir, c);
  }
  return new Set([...counts].filter(([, c]) => c.pulled >= 2 && c.missing === c.pulled).map(([dir]) => dir));
}

/**
 * EMPTIED_GROUP, the graph's side of `emptiedFolders`: a group where none of the notes pull knows
 * (pulled here, or remembered as this machine's own: two or more, their files still here) is listed
 * any more, whatever else the group lists, was emptied behind our back (a server restarted without its
 * data, `clear_graph`: sync/force-look.ts EMPTIED_GRAPH), perhaps written to again since (a new note
 * synced before anyone ran `sync --force`), not deleted note by note on linked machines; nothing in it
 * is absent. Else the first pull on an emptied graph took every such note for deleted elsewhere and
 * removed its file (this machine's own notes too), on every linked machine, before the session start
 * could name `sync --force`, which then had nothing left to send; and the first version of this rule
 * (the group listing nothing at all) lost them all the same once one new note reached the group.
 * One note alone cannot be told from a deletion. The cost: two or more notes deleted elsewhere at
 * once that were every note pull knew in their group stay here, unjudged, and each pull says so
 * with both steps.
 */
function withoutEmptiedGroups(inView: ReadonlySet<string>, listed: ReadonlyMap<string, unknown>, ledger: PulledLedger): ReadonlySet<string> {
  const known = new Map<string, { here: number; listed: number }>();
  for (const n of Object.values(ledger.notes)) {
    if (n.hash === '' || !existsSync(n.file)) continue;
    const count = known.get(n.group) ?? { here: 0, listed: 0 };
    count.here++;
    if (listed.has(noteId(n.project, n.path))) count.listed++;
    known.set(n.group, count);
  }
  return new Set([...inView].filter((group) => !emptiedGroup(known.get(group))));
}

function emptiedGroup(count: { here: number; listed: number } | undefined): boolean {
  return count !== undefined && count.here >= 2 && count.listed === 0;
}

/** The notes lost with their emptied group, marked so that later pulls leave them unjudged too (`PulledNote.emptiedSince`). */
function markEmptied(ledger: PulledLedger, emptied: ReadonlySet<string>, listed: ReadonlyMap<string, unknown>, when: string, byMove: boolean): void {
  if (emptied.size === 0) return;
  for (const n of Object.values(ledger.notes)) {
    if (!emptied.has(n.group) || n.hash === '' || listed.has(noteId(n.project, n.path)) || n.emptiedSince !== undefined || !existsSync(n.file)) continue;
    n.emptiedSince = when;
    if (byMove) n.emptiedByMove = true;
  }
}

function newest(a: NoteVersion | undefined, b: NoteVersion | undefined): NoteVersion | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return b.version > a.version ? b : a;
}

async function hold(ledger: PulledLedger, report: PullReport, v: NoteVersion, when: string, to: string | undefined, renamedHere: HeldReport['renamedHere'], clonedHere: CloneHint | undefined, lock: Lock): Promise<void> {
  const restored = restoreNote(v, when);
  const held = ledger.held[v.id];
  if (held === undefined || held.version < v.version) ledger.held[v.id] = { project: v.project, path: v.path, version: v.version, origin: v.origin, redacted: restored.redacted, text: restored.text };
  if (to === undefined) {
    report.held.push({ project: v.project, path: v.path, ...(renamedHere === undefined ? {} : { renamedHere }), ...(clonedHere === undefined || renamedHere !== undefined ? {} : { clonedHere }) });
    return;
  }
  const file = inside(join(resolve(to), v.project), v.path);
  if (file === undefined) return;
  // LOCK_PROVEN_AT_WRITE: a pull that lost the lock writes no note, in a `--to` folder either.
  lock.prove();
  await writeFileAtomic(file, restored.text, { mode: 0o600, mkdirMode: 0o700 });
  report.held.push({ project: v.project, path: v.path, written: file });
}

interface ActInput {
  config: Config;
  logger: Logger;
  ledger: PulledLedger;
  report: PullReport;
  project: LocalProject;
  path: string;
  file: string;
  local: LocalNote | undefined;
  candidate: NoteVersion | undefined;
  restored: { text: string; redacted: boolean } | undefined;
  own: NoteVersion | undefined;
  pulled: PulledNote | undefined;
  when: string;
  notes: NoteVersion[];
  toDelete: GraphDelete[];
  lock: Lock;
  /** This machine's origins (util/origin.ts ourOrigins). */
  ours: ReadonlySet<string>;
  /** Whether a version holds the local file's text. */
  holdsLocal: (v: NoteVersion) => boolean;
  /** The files in this memory folder of the notes the graph holds (ONE_FILE_TWO_SPELLINGS), asked only before a removal. */
  liveFiles: () => ReadonlyMap<string, NoteVersion>;
  /** The note's group listed nothing at all (SET_ASIDE_WHEN_GROUP_EMPTY). */
  groupSilent: boolean;
}

/**
 * ONE_FILE_TWO_SPELLINGS: a note renamed on another machine by case alone (`Note.md` → `note.md`),
 * or by Unicode form, names one file twice on a disk that folds names (macOS, Windows:
 * util/file-identity.ts). Judged by name, the new name found "a local file" (the old copy: a
 * conflict copy beside it if the text changed too) and the old name, deleted elsewhere and
 * untouched, was removed: the one file both names open, and with it the note here, which the next
 * pull took for deleted here and deleted from the graph for every machine.
 *
 * So, before any note is judged: a pulled copy whose note has no version in its listed group, still
 * untouched, that is the file of a note the graph holds under another spelling (device and inode,
 * then the folder's listing: `otherSpelling`), is that note's copy now. Its entry takes the new
 * name (at version 0, so the new note's version is judged against it: adopted, or written over as
 * an untouched copy), the entry on disk the graph's spelling in place (the sync finds a pulled copy
 * by its path as listed), and its index line moves with it. A copy edited here is left to the rules
 * for a note deleted elsewhere (kept), and `act` never removes a name that is a live note's file
 * under another spelling.
 */
async function takeOtherSpellings(stateDir: string, lock: Lock, ledger: PulledLedger, notes: Incoming, projects: ReadonlyMap<string, readonly LocalProject[]>, report: PullReport, listed: (group: string) => boolean): Promise<void> {
  const journal = new PendingWrites(stateDir, lock);
  try {
    for (const entry of Object.values(ledger.notes)) await takeOtherSpelling(entry, ledger, notes, projects, report, listed, journal);
  } finally {
    await journal.close();
  }
}

async function takeOtherSpelling(entry: PulledNote, ledger: PulledLedger, notes: Incoming, projects: ReadonlyMap<string, readonly LocalProject[]>, report: PullReport, listed: (group: string) => boolean, journal: PendingWrites): Promise<void> {
  const id = noteId(entry.project, entry.path);
  if (entry.hash === '' || notes.incoming.has(id) || notes.own.has(id) || !listed(entry.group)) return;
  const folder = projects.get(entry.project)?.find((p) => inside(p.memoryDir, entry.path) === entry.file);
  if (folder === undefined) return;
  const live = liveFilesIn(folder, notes);
  const twin = await otherSpelling(entry.file, live.keys());
  const version = twin === undefined ? undefined : live.get(twin);
  // Known already as that text (an earlier pull adopted it while the old name waited out its
  // absence): the same copy. Known as another (two notes whose names differ only in case, one
  // file here; or a conflict): left to the rules by name.
  const known = twin === undefined ? undefined : ledger.notes[twin];
  if (twin === undefined || version === undefined || (known !== undefined && known.hash !== entry.hash)) return;
  if ((await readLocal(entry.file))?.hash !== entry.hash) return;
  const fm = frontmatterOf(version);
  const { missingSince: _missing, emptiedSince: _emptied, emptiedByMove: _byMove, indexLine: _line, ...kept } = entry;
  const moved: PulledNote = { ...(known ?? { ...kept, path: version.path, file: twin, version: 0 }), indexLine: { memoryDir: folder.memoryDir, path: version.path, title: fm.title, ...(fm.description === undefined ? {} : { description: fm.description }) } };
  // Journaled first, as a write is (PendingWrites): a pull killed after the rename leaves the copy
  // known under its new spelling, never taken by the next sync for this machine's own note.
  await journal.add({ target: twin, hash: entry.hash, note: moved });
  // A rename that fails leaves the copy under its old name, judged as before (never removed: `act`).
  if (!(await listedAs(twin)) && !(await rename(entry.file, twin).then(() => true, () => false))) return;
  delete ledger.notes[entry.file];
  ledger.notes[twin] = moved;
  // The line first out, then in (as a removal and a write order them: never a line to a name not there).
  await unindexNote(folder.memoryDir, entry.path);
  await writeIndexLine(moved);
  report.respelt.push({ from: entry.file, to: twin });
}

/** The file in the project's memory folder of each note of the project the graph holds, with its newest version. */
function liveFilesIn(project: LocalProject, notes: Incoming): Map<string, NoteVersion> {
  const out = new Map<string, NoteVersion>();
  for (const versions of notes.all.values()) {
    const v = versions.reduce<NoteVersion | undefined>((m, x) => newest(m, x), undefined);
    const file = v === undefined || v.project !== project.id ? undefined : inside(project.memoryDir, v.path);
    if (file !== undefined && v !== undefined) out.set(file, v);
  }
  return out;
}

/**
 * setAside, or null when the text could not be kept (the file then stays, judged again at the next
 * pull). Said in the log with the error, which names the step (an index that cannot be read:
 * INDEX_READ_OR_NOTHING, move it away): kept silently, the deletion stayed undone at every pull.
 */
function keepAside(stateDir: string, note: Parameters<typeof setAside>[1], logger: Pick<Logger, 'warn'>): ReturnType<typeof setAside> | null {
  try {
    return setAside(stateDir, note);
  } catch (error) {
    logger.warn(`a note whose group lists nothing at all was not removed, as its text could not be kept aside first (SET_ASIDE_WHEN_GROUP_EMPTY): ${error instanceof Error ? error.message : String(error)}; the next pull tries again`, { file: note.file });
    return null;
  }
}

/** A version of this machine's own that is not this file's (versionsFor: another clone's): its copy is a pulled one. */
function siblingOf(v: NoteVersion, a: Pick<ActInput, 'own' | 'ours'>): { sibling?: true } {
  return a.ours.has(v.origin) && v !== a.own ? { sibling: true } : {};
}

/** What a write or a conflict copy puts on disk and in the ledger (written to the ledger before the file). */
function pendingWrite(decision: Decision, a: ActInput, copyPath: string | undefined): PendingWrite | undefined {
  const { candidate: v, restored, file } = a;
  if (v === undefined || restored === undefined || (decision.kind !== 'write' && decision.kind !== 'copy')) return undefined;
  const hash = contentHashOf(Buffer.from(restored.text));
  const note = (h: string): PulledNote => ({ project: v.project, path: v.path, version: v.version, hash: h, file, origin: v.origin, redacted: restored.redacted, pulledAt: a.when, group: v.groupId, ...siblingOf(v, a) });
  if (decision.kind === 'write') {
    const fm = frontmatterOf(v);
    const indexLine: IndexLine = { memoryDir: a.project.memoryDir, path: a.path, title: fm.title, ...(fm.description === undefined ? {} : { description: fm.description }) };
    return { target: file, hash, note: { ...note(hash), indexLine } };
  }
  if (copyPath === undefined) return undefined;
  const copy = copyPath;
  const listed = decision.why === 'same-name-here' ? { indexLine: copyIndexLine(v, a.project.memoryDir, join(dirname(a.path), basename(copy))) } : {};
  // The newest version seen here: the edit that resolves the conflict (made once the copy is deleted) builds on it (state/pulled.ts parentVersion).
  return { target: copy, hash, note: note(''), copy: { project: v.project, path: v.path, file, copy, hash, origin: v.origin, version: v.version, reason: decision.why, at: a.when, ...listed } };
}

/** A listed copy's `MEMORY.md` line (LISTED_COPY): the note's title and description, the copy's path in the memory folder. */
function copyIndexLine(v: NoteVersion, memoryDir: string, path: string): IndexLine {
  const fm = frontmatterOf(v);
  return { memoryDir, path, title: fm.title, ...(fm.description === undefined ? {} : { description: fm.description }) };
}

async function act(decision: Decision, a: ActInput, pending: PendingWrite | undefined): Promise<void> {
  const { ledger, report, file, candidate: v, restored } = a;
  const entry = (version: NoteVersion, hash: string, redacted: boolean): PulledNote => ({ project: version.project, path: version.path, version: version.version, hash, file, origin: version.origin, redacted, pulledAt: a.when, group: version.groupId, ...siblingOf(version, a) });
  switch (decision.kind) {
    case 'write': {
      if (v === undefined || restored === undefined || pending === undefined) return;
      await writeFileAtomic(file, restored.text, { mode: 0o600, mkdirMode: 0o700 });
      ledger.notes[file] = pending.note;
      delete ledger.held[v.id];
      await writeIndexLine(pending.note);
      report.written.push({ file, origin: v.origin, version: v.version, redacted: restored.redacted });
      return;
    }
    case 'adopt':
      if (v !== undefined && a.local !== undefined) ledger.notes[file] = entry(v, a.local.hash, a.local.redacted);
      return;
    case 'copy': {
      if (v === undefined || restored === undefined || pending?.copy === undefined) return;
      const copy = pending.copy;
      await writeFileAtomic(copy.copy, restored.text, { mode: 0o600, mkdirMode: 0o700 });
      // A copy written again over its untouched self keeps its line (the index lists it once).
      ledger.copies = [...ledger.copies.filter((c) => c.copy !== copy.copy), copy];
      ledger.notes[file] = pending.note;
      await writeCopyIndexLine(copy);
      report.copies.push({ file, copy: copy.copy, origin: v.origin, why: decision.why });
      return;
    }
    case 'remove-local':
      // Never the file of a note the graph holds, under another spelling (ONE_FILE_TWO_SPELLINGS):
      // removing this name would remove that note's one file. Left as pull's copy, judged again next time.
      if ((await otherSpelling(file, a.liveFiles().keys())) !== undefined) return;
      a.lock.prove();
      // The line first: a kill between the two leaves the untouched copy without its line (the next
      // pull removes it again), never a line listing a note that is gone.
      // Its group lists nothing at all: a wipe cannot be told from a deletion, so its text is kept first (never removed when it cannot be).
      const aside = a.groupSilent && a.pulled !== undefined ? keepAside(a.config.stateDir, { file, group: a.pulled.group, origin: a.pulled.origin, at: a.when }, a.logger) : undefined;
      if (aside === null) return;
      await unindexNote(a.project.memoryDir, a.path);
      // A file that cannot be removed (no permission) stays pull's copy, tried again next time:
      // forgotten, it would be taken for this machine's own note and sent by the next sync.
      const gone = await unlink(file).then(() => true, (error: NodeJS.ErrnoException) => error.code === 'ENOENT');
      if (!gone) {
        if (aside !== undefined) dropSetAside(a.config.stateDir, aside.kept);
        return;
      }
      delete ledger.notes[file];
      report.removed.push(file);
      if (aside !== undefined) report.setAside.push({ file, kept: aside.kept, group: aside.group, origin: aside.origin, at: aside.at });
      return;
    case 'forget':
      delete ledger.notes[file];
      return;
    case 'absent':
      // Kept as pull's copy, its line too; the absence counts from the first pull that saw it.
      if (a.pulled !== undefined && ledger.notes[file] === a.pulled) a.pulled.missingSince = new Date(decision.since).toISOString();
      report.absent.push(file);
      return;
    case 'kept-deleted-elsewhere':
      delete ledger.notes[file];
      report.keptDeletedElsewhere.push(file);
      return;
    case 'delete-in-graph': {
      const upTo = a.pulled?.version ?? 0;
      for (const version of a.notes) if (version.version <= upTo) for (const p of version.parts) a.toDelete.push({ uuid: p.uuid, groupId: p.groupId, file, entry: a.pulled });
      delete ledger.notes[file];
      return;
    }
    case 'remember-own':
      if (a.own !== undefined && a.local !== undefined) ledger.notes[file] = entry(a.own, a.local.hash, a.local.redacted);
      return;
    case 'give-way': {
      // The file is the newest of the other copies of its text (an edit made here builds on it:
      // state/pulled.ts parentVersion); the sync retracts this file's own copy (`gaveWay`).
      const others = a.notes.filter((v) => v !== a.own && a.holdsLocal(v));
      const as = others.reduce<NoteVersion | undefined>((m, v) => (m === undefined || v.version > m.version ? v : m), undefined);
      if (as !== undefined && a.local !== undefined) ledger.notes[file] = { ...entry(as, a.local.hash, a.local.redacted), gaveWay: true };
      return;
    }
    case 'none':
      return;
  }
}
