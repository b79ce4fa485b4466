/**
 * Which rules (graphiti/semantics.ts's rows) a server gets, and how the engine learns them.
 *
 * The server does not say which generation it runs (`serverInfo.version` is the python mcp
 * version, empty on mcp 2.x), so: a setting pins the rules; the tool surface tells 0.28.2 and
 * 0.29.3 apart from the rest; our local server's recorded release names its generation; anything
 * else (0.31.1 and 0.31.2 look the same, and a build we have not seen) is PROBED in a scratch
 * group (semantics-probe.ts), a bounded number of times, and the answer is cached per server in
 * the state folder (`server-semantics.json`), trusted while the server process that gave it
 * answers (server-instance.ts). Until an answer is known, the cautious rules apply.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { Config, ServerRulesSetting } from '../config/config.js';
import { liveServerGeneration } from '../config/server-runtime.js';
import { readJsonFile, writeFileAtomic } from '../util/fs-atomic.js';
import type { Logger } from '../util/log.js';
import type { GraphitiClient, ServerProfile } from './graphiti.js';
import { cleanScratch, probeSemantics, scratchGroupName, type ProbeOutcome, type ScratchGroup } from './semantics-probe.js';
import { CAUTIOUS_SEMANTICS, editOrder, GENERATION_SEMANTICS, type DeleteRemoves, type ServerSemantics } from './semantics.js';
import { openSentinel, SESSION_IDLE_CLOSE_MS, sentinelAlive, type Sentinel } from './server-instance.js';

/**
 * Where the rules in use come from: `setting` (MADEINOZ_KNOWLEDGE_SERVER_RULES pins them),
 * `generation` (the tool surface names it), `local-server` (our local server's recorded release),
 * `probe` (observed on this very server process), `assumed` (unknown: the cautious rules).
 */
export type SemanticsSource = 'setting' | 'generation' | 'local-server' | 'probe' | 'assumed';

export interface ResolvedSemantics extends ServerSemantics {
  source: SemanticsSource;
  /** The generation, when one is named (the setting, the tool surface, the local server). */
  generation?: string;
  /** Why these rules, in a sentence `status` can show. */
  why?: string;
  /**
   * LAST_PROBED_ONLY_WITHHOLDS: while the rules are `assumed`, what the last probe of this build
   * at this address found, no longer trusted (the session it rested on is gone: the server may
   * have been swapped since). Never a reason to act (the sync deletes by the cautious rules); only
   * to leave something out that a fresh answer could let in: an answer that the server does not
   * rebuild entity summaries keeps the context from asking for a probe to show them
   * (context/context.ts). A wrong guess there costs summaries until the next run that deletes or
   * replaces probes, never retired words in the session.
   */
  lastProbed?: ServerSemantics;
  /**
   * While `assumed`, read without a probe (`probe: false`): a run that needs the answer may probe
   * now (the setting and the budgets allow it). The context asks for the rules only then.
   */
  probeable?: true;
}

/**
 * The generation the tool surface names, if it names one: 0.28.2 has no `get_episode_entities`;
 * 0.29.3 has it but takes no `group_id` in `delete_episode`. 0.31.x (and later builds) look alike.
 */
export function generationFromSurface(profile: ServerProfile): string | undefined {
  // Older servers (and pre-v1 ones) delete the episode node only, as 0.28.2 does.
  if (!profile.tools.includes('get_episode_entities')) return '0.28.2';
  if (!profile.deleteEpisodeTakesGroup) return '0.29.3';
  return undefined;
}

/** What a server build looks like from outside: where it is, its name and version, every tool's schema. */
export function serverKey(url: string, profile: ServerProfile): string {
  const surface = JSON.stringify([url, profile.name, profile.version, [...profile.tools].sort(), profile.schemas ?? '', profile.deleteEpisodeTakesGroup]);
  return createHash('sha256').update(surface).digest('hex').slice(0, 24);
}

/** One server address in the rules file. */
interface ServerEntry {
  /** `serverKey` when the entry was last checked: another build behind the address resets the entry. */
  fingerprint: string;
  /**
   * The probed rule, trusted while `sentinel` answers (graphiti/server-instance.ts).
   * `sentinelAnswered`: when a later run (a sync) last found the sentinel answering, to the minute
   * (SENTINEL_NOTED_EVERY_MS); absent until one did (IDLE_LOSS_EXPLAINED).
   */
  answer?: { semantics: ServerSemantics; at: string; sentinel?: Sentinel; sentinelAnswered?: string };
  /**
   * Probes run for this build: at most MAX_PROBES within PROBE_WINDOW_MS. `after: 'idle'`: run
   * after a sentinel lost to an idle break (IDLE_LOSS_EXPLAINED), not counted by ANSWERED_PER_DAY.
   */
  probes: Array<{ at: string; outcome: string; after?: 'idle' }>;
  /** The scratch group of the last probe that left it clean: the next probe uses it again (SCRATCH_REUSE). */
  cleanScratchGroup?: string;
  /** What the last sync used and why (`status` shows it). */
  inUse?: { deleteRemoves: DeleteRemoves; source: SemanticsSource; generation?: string; why: string; at: string; localRelease?: string };
}

interface RulesFile {
  version: 2;
  /** By MCP URL. */
  servers: Record<string, ServerEntry>;
  /** Probe groups not known to be clean yet (graphiti/semantics-probe.ts). */
  scratch: ScratchGroup[];
}

export const SEMANTICS_FILE = 'server-semantics.json';
/**
 * PROBE_BUDGET: probes that could not tell, per server build within PROBE_WINDOW_MS; beyond, the
 * cautious rules until the build changes or the window moves on. It keeps a server where the probe
 * never answers (no fact extracted in time, an LLM that fails) from costing two episodes on every
 * run. A probe that answered spends none of it (ANSWERED_PER_DAY bounds those): the servers of
 * 0.31.x (python mcp 2.x) close the sentinel after 30 idle minutes, so a probe answers again after
 * most breaks between sessions, and counting those left the cautious rules in place for the rest
 * of the month after the third break, on a server whose rules were known each time they were asked.
 */
export const MAX_PROBES = 3;
export const PROBE_WINDOW_MS = 30 * 24 * 60 * 60_000;
/** After a probe that could not tell, the next waits this long, so a failing server is not probed on every run. */
const PROBE_GAP_MS = 60 * 60_000;
/**
 * ANSWERED_PER_DAY: probes that answered, per build within a day; beyond, the cautious rules until
 * the oldest is a day old. A sentinel lost to an idle break of a server that keeps sessions
 * costs a probe that is not counted here (IDLE_LOSS_EXPLAINED); a server
 * whose sentinel never survives a run (it restarts on every run, replicas behind one address that
 * do not share sessions) would otherwise be probed on every run. Not an hour's gap after each: a
 * server swapped minutes after a probe (0.31.2 → 0.31.1) is probed again at once.
 */
export const ANSWERED_PER_DAY = 8;
const DAY_MS = 24 * 60 * 60_000;
/**
 * IDLE_LOSS_EXPLAINED: a sentinel lost after a break is not what ANSWERED_PER_DAY guards against,
 * when two things show it: a later run found it answering (this server keeps a session from one
 * run to the next: not a server restarted on every run, nor replicas that do not share sessions),
 * and the loss came at least SESSION_IDLE_CLOSE_MS after the last such answer (python mcp 2.x
 * closes a session idle that long). Any run that reads the rules asks the sentinel before it
 * trusts them, and its answer is the same proof whoever asked: a sync, a pull, the worker's context
 * refresh (a session start with nothing to send reaches the server only there). Each is recorded
 * (noteSentinelAnswered): a ping also holds the session off its idle close, so a loss half an
 * hour after a sync's answer but minutes after a context's is a restart, not a break. The probe
 * it costs then spends none of the day's answered probes:
 * more than 8 breaks a day left entity summaries out of every session start for the rest of the
 * day. Still bounded: each such probe needs a new sentinel to answer in a later run and then half
 * an hour without a request from us, so at most one per half hour, in practice one per break.
 * It decides only whether a probe may run, never what is trusted: a restart during the break
 * (another build behind the address) is probed as itself. A loss sooner after the last answer
 * (a restart, an upgrade) counts as before, and so does one after a session in which no run
 * found the sentinel answering (the server down, or the answer unrecorded: the context refresh
 * skips the write while another run holds the state lock): no sign that its sessions last.
 */
const idleLossExplained = (answer: ServerEntry['answer'], now: number): boolean =>
  answer?.sentinelAnswered !== undefined && now - Date.parse(answer.sentinelAnswered) >= SESSION_IDLE_CLOSE_MS;
/** How stale `sentinelAnswered` may get before a run that finds the sentinel answering writes it again (one write a minute, not one a run). */
const SENTINEL_NOTED_EVERY_MS = 60_000;

/** The probes of an entry within the window that count against PROBE_BUDGET. */
const couldNotTell = (probes: ServerEntry['probes']) => probes.filter((p) => p.outcome !== 'answered');

async function readRules(stateDir: string): Promise<RulesFile> {
  try {
    const raw = (await readJsonFile(join(stateDir, SEMANTICS_FILE))) as Partial<RulesFile> | undefined;
    if (raw?.version === 2 && typeof raw.servers === 'object' && raw.servers !== null) return { version: 2, servers: { ...raw.servers }, scratch: Array.isArray(raw.scratch) ? raw.scratch.filter(isScratch) : [] };
  } catch {
    // A lost or damaged file costs one probe (and forgets scratch groups: at worst one stays on the server).
  }
  // Version 1 (keyed by build, no server identity) is not read: its answers may belong to a server since swapped.
  return { version: 2, servers: {}, scratch: [] };
}

/** Read, change, write, by the state lock's holder only (a sync, a pull; the context refresh for its one write, noteSentinelAnswered); `status` only reads. */
async function updateRules(stateDir: string, change: (file: RulesFile) => void): Promise<void> {
  const file = await readRules(stateDir);
  change(file);
  await writeFileAtomic(join(stateDir, SEMANTICS_FILE), `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600, mkdirMode: 0o700 });
}

function isScratch(value: unknown): value is ScratchGroup {
  const v = value as Record<string, unknown> | null;
  return typeof v === 'object' && v !== null && typeof v.url === 'string' && typeof v.group === 'string' && /^gms_probe_[0-9a-f]+$/.test(v.group) && typeof v.at === 'string' && Array.isArray(v.names);
}

function isSemantics(value: unknown): value is ServerSemantics {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return ['episode-only', 'facts-first-created', 'facts-unsupported'].includes(v.deleteRemoves as string) && typeof v.rebuildsSummaries === 'boolean';
}

export interface ResolveOptions {
  stateDir: string;
  url: string;
  logger: Logger;
  signal?: AbortSignal | undefined;
  now?: () => number;
  /** How long the probe may wait for the server to process its two episodes. */
  probeTimeoutMs?: number;
  /**
   * False: never probe (the context builder, which must not cost LLM calls, and `pull`): rules not
   * known otherwise read as the cautious ones, `source: 'assumed'`; nothing written but through
   * `noteAnswer`. Default true (a sync, which holds the state lock).
   */
  probe?: boolean;
  /**
   * How a run that may not probe records a sentinel it found answering (IDLE_LOSS_EXPLAINED): the
   * rules file has one writer at a time, the state lock's holder, so `pull`, which holds it, passes
   * `(write) => write()`, and the context refresh, which does not, runs the write under the lock
   * only when no other run holds it (state/lock.ts `withLockIfFree`), else skips it. Without it,
   * such a run writes nothing.
   */
  noteAnswer?: (write: () => Promise<void>) => Promise<unknown>;
  /** MADEINOZ_KNOWLEDGE_SERVER_RULES. Default 'auto'. */
  setting?: ServerRulesSetting;
  /** Our local server's release when `url` is its endpoint (config/server-runtime.ts `liveServerGeneration`). */
  localGeneration?: string | undefined;
  /** How to reach the server for the sentinel (server-instance.ts); without it a probed answer holds for this run only. */
  endpoint?: Pick<Config, 'mcpUrl' | 'headers' | 'authToken' | 'transport' | 'timeoutMs'>;
}

/** The semantics of the server `graphiti` talks to: known, or probed now (see readSemantics). */
export async function resolveSemantics(graphiti: GraphitiClient, options: ResolveOptions): Promise<ResolvedSemantics> {
  const read = await readSemantics(graphiti, options);
  return 'probe' in read ? read.probe() : read;
}

/** A server whose rule is not known: the probe that finds it out (bounded, cached). */
export interface ProbeNeeded {
  probe(): Promise<ResolvedSemantics>;
  /** See ResolvedSemantics.lastProbed. */
  lastProbed?: ServerSemantics;
  /** The run goes by `rules` (the cautious ones) without probing now: recorded as the rules in use, for `status`. */
  assume(rules: ResolvedSemantics): Promise<ResolvedSemantics>;
}

/**
 * EDIT_GAP_ELSEWHERE: whether another machine's edit of a note may leave the graph without it for a
 * while (pull/decide.ts holds an absent note's copy for the group's patience, sync/pace.ts
 * ABSENCE_SETTLED). The gap is made by the editing machine's order, not the server's: a sync that
 * does not know the server's rules yet edits break-before-make (the cautious rules: a run with its
 * own notes still in the queue puts the probe off, an older build, a pinned setting), so a
 * make-before-break server known here (probed, pinned, our local server's release) says nothing of
 * how the edit was made. Only where the server's own tools tell its generation (every sync reads
 * them before it sends anything) and that generation edits make-before-break (0.28.2) is there no
 * gap. Unknown rules: a gap.
 */
export function editGapElsewhere(rules: ResolvedSemantics | undefined): boolean {
  return rules === undefined || rules.source !== 'generation' || editOrder(rules) === 'break-before-make';
}

const known = (generation: string, source: SemanticsSource, why: string): ResolvedSemantics => ({ ...(GENERATION_SEMANTICS[generation] as ServerSemantics), source, generation, why });
/**
 * The rules for a run that may not probe now (sync.ts: episodes of ours are in the server's
 * queue): the cautious ones, saying why.
 */
export const cautiousWhileQueued = (): ResolvedSemantics => cautious('the server\'s rules are not known yet, and the probe waits until nothing of ours is in its queue (on FalkorDB, graphiti-core before 0.30.2 could write an episode into another group\'s graph while both were processed: graphiti #1331, #1676)');
/**
 * The rules for a run that does not probe because it need not (sync.ts PROBE_WHEN_NEEDED: nothing
 * to delete or replace and no reader asked, or the session-start path): the cautious ones, saying why.
 */
export const cautiousUntilNeeded = (): ResolvedSemantics => cautious('the server\'s rules are not known now, and are probed only by a run that deletes or replaces a note, or for the session context\'s entity summaries (a probe costs two small extractions)');
const cautious = (why: string): ResolvedSemantics => ({ ...CAUTIOUS_SEMANTICS, source: 'assumed', why: `${why}; until they are known the cautious rules apply (0.29.3's: an edit deletes the old version before sending the new one, and a delete that would take another episode's fact is held)` });
const withLastProbed = (rules: ResolvedSemantics, lastProbed: ServerSemantics | undefined): ResolvedSemantics => (lastProbed === undefined ? rules : { ...rules, lastProbed });

/**
 * The semantics as far as they are known without a probe, checked on every run: the setting; the
 * tool surface; our local server's release; else a probed answer, trusted only while the server
 * is the same build (`serverKey`) AND the same process (its sentinel session still answers): a
 * server swapped behind the address (0.31.2 → 0.31.1 looks the same from outside) makes the
 * answer unknown, and the cautious rules apply until it is probed again. Else the probe to run,
 * if the budget allows (MAX_PROBES per build in PROBE_WINDOW_MS). The sync decides whether and when
 * to run it (sync.ts PROBE_WHEN_NEEDED: a run that deletes or replaces, or one a reader asked for).
 */
export async function readSemantics(graphiti: GraphitiClient, options: ResolveOptions): Promise<ResolvedSemantics | ProbeNeeded> {
  const now = options.now ?? Date.now;
  const setting = options.setting ?? 'auto';
  const read = await decide(graphiti, options, setting, now);
  if (options.probe === false) return 'probe' in read ? { ...withLastProbed(cautious('the server\'s rules are not known now (not probed, or the session a probed answer rested on is gone)'), read.lastProbed), probeable: true } : read;
  await cleanLeftScratch(graphiti, options, now);
  if ('probe' in read) return read;
  await recordInUse(options.stateDir, options.url, read, now, options.localGeneration).catch(() => undefined);
  return read;
}

async function decide(graphiti: GraphitiClient, options: ResolveOptions, setting: ServerRulesSetting, now: () => number): Promise<ResolvedSemantics | ProbeNeeded> {
  if (GENERATION_SEMANTICS[setting] !== undefined) return known(setting, 'setting', `pinned by MADEINOZ_KNOWLEDGE_SERVER_RULES=${setting}`);
  const profile = await graphiti.serverProfile(options.signal);
  const generation = generationFromSurface(profile);
  if (generation !== undefined) return known(generation, 'generation', `the server's tools are those of graphiti-core ${generation}`);
  if (options.localGeneration !== undefined && GENERATION_SEMANTICS[options.localGeneration] !== undefined) {
    return known(options.localGeneration, 'local-server', `the local server runs graphiti-core ${options.localGeneration} (its runtime.json)`);
  }
  const fingerprint = serverKey(options.url, profile);
  const rules = await readRules(options.stateDir);
  const entry = rules.servers[options.url];
  const sameBuild = entry?.fingerprint === fingerprint;
  const answer = sameBuild ? entry?.answer : undefined;
  const lastProbed = answer !== undefined && isSemantics(answer.semantics) ? { deleteRemoves: answer.semantics.deleteRemoves, rebuildsSummaries: answer.semantics.rebuildsSummaries } : undefined;
  /** Not known: the cautious rules, with what the last probe found (LAST_PROBED_ONLY_WITHHOLDS). */
  const unknown = (why: string) => withLastProbed(cautious(why), lastProbed);
  // An entry that learnt nothing (only the rules a run used, recordInUse, which knows no build) compares with no build.
  const learnt = entry !== undefined && (entry.answer !== undefined || (Array.isArray(entry.probes) && entry.probes.length > 0));
  let changed = learnt && !sameBuild ? 'the server behind this address is another build than when its rules were learnt' : undefined;
  let afterIdle = false;
  if (answer !== undefined && isSemantics(answer.semantics)) {
    if (answer.sentinel !== undefined && options.endpoint !== undefined && (await sentinelAlive(options.endpoint, answer.sentinel, options.signal))) {
      await noteSentinelAnswered(options, fingerprint, answer, now());
      return { ...answer.semantics, source: 'probe', why: `probed on this server at ${answer.at} (it has not restarted since)` };
    }
    afterIdle = idleLossExplained(answer, now());
    changed = afterIdle
      ? 'the server closed the session its rules were probed on after a break of over 30 minutes (or restarted meanwhile), and may be another build'
      : 'the server has restarted (or closed an idle session) since its rules were probed, and may be another build';
  }
  if (setting === 'no-probe') return unknown(`${changed ?? 'the server\'s tools do not tell its rules'}, and MADEINOZ_KNOWLEDGE_SERVER_RULES=no-probe`);
  const recent = (sameBuild ? (entry?.probes ?? []) : []).filter((p) => now() - Date.parse(p.at) < PROBE_WINDOW_MS);
  if (couldNotTell(recent).length >= MAX_PROBES) return unknown(`${changed ?? 'the server\'s tools do not tell its rules'}, and ${MAX_PROBES} probes of the last 30 days could not tell them (pin them with MADEINOZ_KNOWLEDGE_SERVER_RULES)`);
  const today = answeredWithin(recent, now(), DAY_MS);
  if (today.length >= ANSWERED_PER_DAY && !afterIdle) return unknown(`${changed ?? 'the server may have changed'}, and it was probed ${today.length} times in the last 24 hours (its sessions do not last; pin its rules with MADEINOZ_KNOWLEDGE_SERVER_RULES); the next probe may run a day after ${today[0]?.at}`);
  const last = recent.at(-1);
  if (last !== undefined && last.outcome !== 'answered' && now() - Date.parse(last.at) < PROBE_GAP_MS) return unknown(`the last probe could not tell (${last.outcome}); the next may run an hour after it`);
  return {
    ...(lastProbed === undefined ? {} : { lastProbed }),
    probe: () => probeAndCache(graphiti, fingerprint, options, now, changed, afterIdle),
    assume: async (rules) => {
      await recordInUse(options.stateDir, options.url, rules, now, options.localGeneration).catch(() => undefined);
      return rules;
    },
  };
}

/** Probes once and caches the outcome; opens the sentinel that later runs check the answer against. */
async function probeAndCache(graphiti: GraphitiClient, fingerprint: string, options: ResolveOptions, now: () => number, changed: string | undefined, afterIdle: boolean): Promise<ResolvedSemantics> {
  const { stateDir, url } = options;
  if (changed !== undefined) options.logger.info('the Graphiti server may have changed; probing its rules again', { why: changed });
  const group = scratchToReuse(await readRules(stateDir), url) ?? scratchGroupName();
  // PROBE_ON_ONE_PROCESS: the sentinel is opened before the probe's first call (see onOneProcess).
  const sentinel = options.endpoint === undefined ? undefined : await openSentinel(options.endpoint, options.signal);
  const probed = await probeSemantics(graphiti, {
    url,
    group,
    signal: options.signal,
    now,
    logger: options.logger,
    ...(options.probeTimeoutMs === undefined ? {} : { probeTimeoutMs: options.probeTimeoutMs }),
    onScratch: (scratch) => updateRules(stateDir, (file) => void file.scratch.push(scratch)),
    onScratchClean: (group) => updateRules(stateDir, (file) => void (file.scratch = file.scratch.filter((s) => s.group !== group))),
  });
  const outcome = await onOneProcess(probed, options.endpoint, sentinel, options.signal);
  const answered = 'semantics' in outcome;
  const at = new Date(now()).toISOString();
  const resolved: ResolvedSemantics = answered
    ? { ...outcome.semantics, source: 'probe', why: `probed on this server at ${at}` }
    : cautious(`${changed ?? 'the server\'s tools do not tell its rules'}, and the probe could not tell (${outcome.cannotTell})`);
  await updateRules(stateDir, (file) => {
    const entry: ServerEntry = file.servers[url]?.fingerprint === fingerprint ? (file.servers[url] as ServerEntry) : { fingerprint, probes: [] };
    const probe = { at, outcome: answered ? 'answered' : outcome.cannotTell, ...(answered && afterIdle ? { after: 'idle' as const } : {}) };
    entry.probes = keptProbes([...entry.probes.filter((p) => now() - Date.parse(p.at) < PROBE_WINDOW_MS), probe], now());
    if (answered) entry.answer = { semantics: outcome.semantics, at, ...(sentinel === undefined ? {} : { sentinel }) };
    else delete entry.answer;
    entry.inUse = inUseOf(resolved, at, options.localGeneration);
    // SCRATCH_REUSE: the group this probe used, once clean (its record gone), is the next probe's.
    if (file.scratch.some((s) => s.group === group)) delete entry.cleanScratchGroup;
    else entry.cleanScratchGroup = group;
    file.servers[url] = entry;
  }).catch((error: unknown) => options.logger.warn('could not record the server rules; the next run may probe again', { error: (error as Error).message }));
  if (answered) options.logger.info('probed what this Graphiti server deletes', { ...outcome.semantics });
  else options.logger.warn('could not tell what this Graphiti server deletes; using the cautious rules', { why: outcome.cannotTell });
  return resolved;
}

/**
 * PROBE_ON_ONE_PROCESS: a probe's answer is the rule of the process its sentinel stays open on only
 * if one process answered the whole probe. A server swapped behind the address mid-probe (0.31.2
 * detached probe A, then 0.31.1 took the port with the same data and read the fact again: it names
 * B alone, 0.31.2's answer) gave an answer of one build, and a sentinel opened after the probe was
 * the other's: later runs trusted 0.31.2's make-before-break on 0.31.1, whose delete of an edit's
 * old version took the facts the new one restates. So the sentinel is opened before the probe's
 * first call and must still answer after its last (the clean-up included): else the probe could
 * not tell, and counts so (PROBE_BUDGET, PROBE_GAP_MS: replicas that do not share sessions would
 * otherwise be probed on every run). Without a sentinel (legacy SSE, or none could be opened) the
 * answer holds for this run only, as before (sync.ts `rulesNow` catches a restart within the run).
 */
async function onOneProcess(outcome: ProbeOutcome, endpoint: ResolveOptions['endpoint'], sentinel: Sentinel | undefined, signal: AbortSignal | undefined): Promise<ProbeOutcome> {
  if (!('semantics' in outcome) || endpoint === undefined || sentinel === undefined) return outcome;
  if (await sentinelAlive(endpoint, sentinel, signal)) return outcome;
  return { cannotTell: 'the server restarted during the probe (perhaps as another build behind the same address)' };
}

/** The probes that answered within `ms` before `at`, oldest first, but those after an idle break (IDLE_LOSS_EXPLAINED). */
function answeredWithin(probes: ServerEntry['probes'], at: number, ms: number): ServerEntry['probes'] {
  return probes.filter((p) => p.outcome === 'answered' && p.after !== 'idle' && at - Date.parse(p.at) < ms);
}

/**
 * Records that a later run found the sentinel answering (IDLE_LOSS_EXPLAINED), at most once a
 * SENTINEL_NOTED_EVERY_MS, and only onto the same answer (a probe since has its own sentinel).
 * Whatever run it was: a sync (under the state lock it holds), or one that may not probe through
 * its `noteAnswer` (a pull; the context refresh when the lock is free).
 */
async function noteSentinelAnswered(options: ResolveOptions, fingerprint: string, answer: NonNullable<ServerEntry['answer']>, at: number): Promise<void> {
  const underLock = options.probe === false ? options.noteAnswer : (write: () => Promise<void>) => write();
  if (underLock === undefined) return;
  if (answer.sentinelAnswered !== undefined && at - Date.parse(answer.sentinelAnswered) < SENTINEL_NOTED_EVERY_MS) return;
  const write = () =>
    updateRules(options.stateDir, (file) => {
      const entry = file.servers[options.url];
      if (entry?.fingerprint !== fingerprint || entry.answer?.sentinel?.session !== answer.sentinel?.session || entry.answer === undefined) return;
      // Never back: another run may have recorded a later answer between this one's ping and its write.
      if (entry.answer.sentinelAnswered !== undefined && Date.parse(entry.answer.sentinelAnswered) >= at) return;
      entry.answer.sentinelAnswered = new Date(at).toISOString();
    });
  await underLock(write).catch(() => undefined);
}

/** What the bounds read (PROBE_BUDGET, PROBE_GAP_MS, ANSWERED_PER_DAY), in order: the last MAX_PROBES that could not tell, the answered ones of the last day, the last probe; not every answered probe of the month. */
function keptProbes(probes: ServerEntry['probes'], at: number): ServerEntry['probes'] {
  const kept = new Set([...couldNotTell(probes).slice(-MAX_PROBES), ...answeredWithin(probes, at, DAY_MS).slice(-ANSWERED_PER_DAY)]);
  return probes.filter((p, i) => kept.has(p) || i === probes.length - 1);
}

/**
 * SCRATCH_REUSE: a probe uses the scratch group the last probe of this server left clean, not a
 * new one. On FalkorDB each group is a graph of its own and `clear_graph` empties it without
 * removing it (no MCP tool removes a graph): a new group per probe left one empty graph behind each
 * time, and on 0.31.x a probe answers after most breaks between sessions (ANSWERED_PER_DAY), so
 * they would pile up by the hundred. A group whose record is still open (a probe killed, a send
 * still queued) is not reused: a fresh one, and the open one is cleaned as before.
 */
function scratchToReuse(file: RulesFile, url: string): string | undefined {
  const group = file.servers[url]?.cleanScratchGroup;
  if (group === undefined || !/^gms_probe_[0-9a-f]+$/.test(group) || file.scratch.some((s) => s.group === group)) return undefined;
  return group;
}

/** `localRelease`: our local server's release when `url` was its endpoint, what `rulesInUse` checks the record against. */
function inUseOf(resolved: ResolvedSemantics, at: string, localRelease: string | undefined): NonNullable<ServerEntry['inUse']> {
  return { deleteRemoves: resolved.deleteRemoves, source: resolved.source, ...(resolved.generation === undefined ? {} : { generation: resolved.generation }), why: resolved.why ?? '', at, ...(localRelease === undefined ? {} : { localRelease }) };
}

async function recordInUse(stateDir: string, url: string, resolved: ResolvedSemantics, now: () => number, localRelease: string | undefined): Promise<void> {
  const rules = await readRules(stateDir);
  const was = rules.servers[url]?.inUse;
  if (was !== undefined && was.deleteRemoves === resolved.deleteRemoves && was.source === resolved.source && was.why === (resolved.why ?? '') && was.localRelease === localRelease) return;
  await updateRules(stateDir, (file) => {
    const entry = file.servers[url] ?? { fingerprint: '', probes: [] };
    entry.inUse = inUseOf(resolved, new Date(now()).toISOString(), localRelease);
    file.servers[url] = entry;
  });
}

/** Scratch groups an earlier run could not clean (killed, server gone, still queued): cleaned now, with a signal of their own. */
async function cleanLeftScratch(graphiti: GraphitiClient, options: ResolveOptions, now: () => number): Promise<void> {
  const left = (await readRules(options.stateDir)).scratch.filter((s) => s.url === options.url);
  for (const scratch of left) {
    await cleanScratch(graphiti, scratch, { logger: options.logger, now, onScratchClean: (group) => updateRules(options.stateDir, (file) => void (file.scratch = file.scratch.filter((s) => s.group !== group))) });
  }
}

/** Forgets what was learnt of the server at `url` (`server upgrade`: another release answers there next). */
export async function forgetServerRules(stateDir: string, url: string): Promise<void> {
  const rules = await readRules(stateDir);
  if (rules.servers[url] === undefined) return;
  await updateRules(stateDir, (file) => void delete file.servers[url]);
}

/** What `status` can say of the rules for a server: what the last sync used, or that they are not learnt for the release that runs now. */
export type RulesInUse = { inUse: NonNullable<ServerEntry['inUse']> } | { notLearnt: { release: string; learntOf?: string } };

/**
 * What the last sync used for the server at `url`, and why (`status`); undefined before any sync
 * reached it. `localRelease` is the release our local server runs when `url` is its endpoint
 * (config/server-runtime.ts `liveServerGeneration`): rules learnt of another release (before a
 * `server upgrade`, a restart onto another generation, the user service started with another
 * GMS_SERVER_GENERATION, or a sync that recorded them while the server was being replaced) are
 * not this server's, and are not shown as its own. Rules the setting pins hold for any release.
 */
export async function rulesInUse(stateDir: string, url: string, localRelease?: string): Promise<RulesInUse | undefined> {
  const inUse = (await readRules(stateDir)).servers[url]?.inUse;
  if (localRelease === undefined || inUse?.source === 'setting') return inUse === undefined ? undefined : { inUse };
  // Recorded before the release was: the generation named (a record of an earlier version of this tool).
  const learntOf = inUse?.localRelease ?? inUse?.generation;
  if (inUse !== undefined && learntOf === localRelease) return { inUse };
  return { notLearnt: { release: localRelease, ...(learntOf === undefined ? {} : { learntOf }) } };
}

/** The resolve options every caller derives from the config alike (sync, context). */
export function semanticsOptions(config: Config, logger: Logger, signal: AbortSignal | undefined): ResolveOptions {
  return {
    stateDir: config.stateDir,
    url: config.mcpUrl,
    logger,
    signal,
    setting: config.serverRules,
    localGeneration: liveServerGeneration(config.stateDir, config.mcpUrl),
    endpoint: config,
  };
}
