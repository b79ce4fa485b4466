/**
 * The end-of-run checks of the soak and crash-loop runs, and their figures.
 *
 * What "exactly once" means here, checked against what the SERVER holds:
 * - every live file has exactly one visible episode per part, with its current content:
 *   each part's body equals what the file produces now (parse + buildEpisodes over the
 *   current bytes), and, independently of the episode builder, the version's unique check
 *   line is on the server while no earlier version's line is;
 * - a deleted, private or empty file has no episode; no marker appears twice; no episode
 *   belongs to nothing we expect (a stale version or a leftover);
 * - the state file is valid (no `recovered`), every record is confirmed (or skipped for
 *   private/empty files), nothing is left in orphans/superseded, no lock is left behind;
 * - no planted secret appears in any tool call the server received, in any file under the
 *   state dir (state, journals, log, context cache) or in anything the children printed.
 *
 * Over 300 lines: one checklist, each check next to the figure it feeds.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { normalizeGroupId, projectGroupId } from '../../src/lib/graphiti/escape.js';
import { contentHashOf, fileIdOf } from '../../src/lib/memory/hash.js';
import { LOCK_FILE } from '../../src/lib/state/lock.js';
import { buildEpisodes, parseMarker, type EpisodeDraft } from '../../src/lib/memory/episode.js';
import { parseMemoryFile } from '../../src/lib/memory/parse.js';
import { logFilePath } from '../../src/lib/util/log.js';
import { loadState, type FileRecord, type SyncState } from '../../src/lib/state/state.js';
import { parseJsonLines } from './json-lines.js';
import { workerFiles } from '../../src/lib/worker/spawn.js';
import type { GraphitiTestServer } from './graphiti-server.js';
import type { SoakCorpus, SoakFile } from './soak-corpus.js';

export interface VerifyOptions {
  server: GraphitiTestServer;
  corpus: SoakCorpus;
  stateDir: string;
  maxEpisodeChars: number;
  /** Whether auto-memory files go to per-project groups (MADEINOZ_KNOWLEDGE_SOURCE_GROUPS=auto-memory={project}). */
  projectGroups: boolean;
  /** Extra texts that must hold no secret (children's output). */
  outputs?: string[];
}

export interface Figures {
  filesLive: number;
  filesDeleted: number;
  filesSkipped: number;
  expectedParts: number;
  /** add_memory calls the server received, whatever their outcome. */
  addMemoryCalls: number;
  /** add_memory calls the server accepted ("queued"), dropped ones included. */
  addMemoryAccepted: number;
  /** Accepted add_memory calls for a marker that had been accepted before (re-sends after drops, kills, lost state). */
  resends: number;
  /** Episodes the server silently dropped (dropRate / failNext). */
  dropped: number;
  /** Injected HTTP faults that hit a request, by kind. */
  faults: Record<string, number>;
  /** POSTs to the MCP endpoint, all methods. */
  posts: number;
  deleteCalls: number;
  getEpisodesCalls: number;
  /** POSTs other than initialize that carried no session id (FastMCP refuses them for good: 400 "Missing session ID"; must be 0). */
  sessionlessPosts: number;
  /** Markers visible more than once at the end (must be 0). */
  duplicates: number;
  /** Expected parts not visible with their current content at the end (must be 0). */
  lost: number;
  /** Visible episodes that belong to no expected part (old versions, deleted files; must be 0). */
  stale: number;
  secretLeaks: number;
}

export interface VerifyResult {
  ok: boolean;
  problems: string[];
  figures: Figures;
}

const MAX_PROBLEMS = 40;

function groupOf(file: SoakFile, projectGroups: boolean): string {
  if (file.source === 'auto-memory' && projectGroups && file.project !== undefined) return projectGroupId('neo4j', file.project);
  return normalizeGroupId('neo4j', 'main');
}

/** What the file must produce now, with the file id the engine uses for it (kept across renames). */
export function expectedDrafts(corpus: SoakCorpus, file: SoakFile, fileId: string, maxEpisodeChars: number, projectGroups: boolean, origin: string | undefined): EpisodeDraft[] {
  const path = corpus.abs(file);
  const raw = readFileSync(path);
  const parsed = parseMemoryFile(raw, file.relPath);
  if (!parsed.ok || parsed.data.optOut !== undefined) return [];
  return buildEpisodes({
    doc: parsed.data,
    source: file.source,
    kind: file.source,
    relPath: file.relPath,
    mtimeMs: statSync(path).mtimeMs,
    ...(file.project === undefined ? {} : { project: file.project }),
    groupId: groupOf(file, projectGroups),
    maxChars: maxEpisodeChars,
    fileId,
    contentHash: contentHashOf(raw),
    // The soak's processes run with the default origin: the one kept in the sandbox's Claude config folder.
    ...(origin === undefined ? {} : { origin }),
  });
}

function walk(dir: string): string[] {
  const out: string[] = [];
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of entries) {
    const path = join(dir, name);
    try {
      if (statSync(path).isDirectory()) out.push(...walk(path));
      else out.push(path);
    } catch {
      // vanished
    }
  }
  return out;
}

export function sessionlessPosts(server: GraphitiTestServer): GraphitiTestServer['http'] {
  return server.http.filter((h) => h.method === 'POST' && h.path === '/mcp' && h.rpcMethod !== undefined && h.rpcMethod !== 'initialize' && h.headers['mcp-session-id'] === undefined);
}

export function collectFigures(server: GraphitiTestServer): Omit<Figures, 'filesLive' | 'filesDeleted' | 'filesSkipped' | 'expectedParts' | 'duplicates' | 'lost' | 'stale' | 'secretLeaks'> {
  const adds = server.calls.filter((c) => c.tool === 'add_memory');
  const accepted = adds.filter((c) => c.outcome === 'ok' || c.outcome === 'drop');
  const seen = new Set<string>();
  let resends = 0;
  for (const call of accepted) {
    const marker = parseMarker(String(call.args.source_description ?? ''))?.raw ?? '';
    if (seen.has(marker)) resends++;
    seen.add(marker);
  }
  const faults: Record<string, number> = {};
  for (const h of server.http) if (h.fault !== undefined) faults[h.fault] = (faults[h.fault] ?? 0) + 1;
  return {
    addMemoryCalls: adds.length,
    addMemoryAccepted: accepted.length,
    resends,
    dropped: server.failures.filter((f) => f.cause === 'drop').length,
    faults,
    posts: server.http.filter((h) => h.method === 'POST').length,
    deleteCalls: server.calls.filter((c) => c.tool === 'delete_episode' && c.outcome === 'ok').length,
    getEpisodesCalls: server.calls.filter((c) => c.tool === 'get_episodes').length,
    sessionlessPosts: sessionlessPosts(server).length,
  };
}

export async function verifySoak(options: VerifyOptions): Promise<VerifyResult> {
  const { server, corpus, stateDir } = options;
  const problems: string[] = [];
  const problem = (text: string) => {
    if (problems.length < MAX_PROBLEMS) problems.push(text);
    else if (problems.length === MAX_PROBLEMS) problems.push('… (more problems not listed)');
  };

  // ------------------------------------------------------------ state
  const loaded = await loadState(stateDir, { readOnly: true });
  if (loaded.recovered !== undefined) problem(`state: loadState recovered a damaged file (${loaded.recovered.reason})`);
  if (loaded.fresh) problem('state: no state file');
  const state = loaded.state;
  if (state.orphans.length > 0) problem(`state: ${state.orphans.length} orphan episode(s) never deleted`);
  if (existsSync(join(stateDir, LOCK_FILE))) problem(`state: ${LOCK_FILE} left behind`);
  if (existsSync(workerFiles(stateDir).pidFile)) problem('state: worker lock left behind');
  for (const name of readdirSync(stateDir)) if (name.startsWith('state.json.corrupt')) problem(`state: ${name} exists (a state file was found damaged during the run)`);

  // ------------------------------------------------------------ server side
  const episodes = server.episodes();
  const byMarker = new Map<string, typeof episodes>();
  let unmarked = 0;
  for (const e of episodes) {
    const marker = parseMarker(e.source_description);
    if (marker === undefined) {
      unmarked++;
      continue;
    }
    const list = byMarker.get(marker.raw) ?? [];
    list.push(e);
    byMarker.set(marker.raw, list);
  }
  if (unmarked > 0) problem(`server: ${unmarked} episode(s) without a marker`);
  let duplicates = 0;
  for (const [marker, list] of byMarker) {
    if (list.length > 1) {
      duplicates += list.length - 1;
      problem(`server: marker ${marker} is visible ${list.length} times`);
    }
  }
  const allContent = episodes.map((e) => e.content).join('\n');

  // ------------------------------------------------------------ live files
  const expectedMarkers = new Set<string>();
  // Every process of the soak runs with the default origin: one, the same for every file.
  let expectedOrigin: string | undefined;
  const liveIds = new Set<string>();
  let lost = 0;
  let expectedParts = 0;
  let skippedFiles = 0;
  for (const file of corpus.live()) {
    const id = `${file.source}:${file.relPath}`;
    liveIds.add(id);
    const record: FileRecord | undefined = state.files[id];
    if (record === undefined) {
      problem(`file ${file.n} (${id}): no state record`);
      lost++;
      continue;
    }
    if (record.superseded.length > 0) problem(`file ${file.n}: ${record.superseded.length} superseded episode(s) never deleted`);
    const allowedIds = [file.relPath, ...file.formerRelPaths].map((p) => fileIdOf(file.source, p));
    if (!allowedIds.includes(record.fileId)) problem(`file ${file.n}: state fileId ${record.fileId} belongs to none of its paths`);
    const origin = parseMarker(record.episodes[0]?.marker)?.origin;
    if (record.episodes.length > 0) {
      expectedOrigin ??= origin;
      if (origin !== expectedOrigin) problem(`file ${file.n}: origin ${origin} differs from the other files' ${expectedOrigin}`);
    }
    const drafts = expectedDrafts(corpus, file, record.fileId, options.maxEpisodeChars, options.projectGroups, origin);
    if (file.kind !== 'normal') {
      skippedFiles++;
      if (drafts.length > 0) problem(`file ${file.n}: ${file.kind} file produced episodes (harness bug)`);
      if (record.status !== 'skipped') problem(`file ${file.n}: ${file.kind} file has status ${record.status}, expected skipped`);
      if (record.episodes.length > 0) problem(`file ${file.n}: ${file.kind} file still has ${record.episodes.length} episode ref(s)`);
    } else {
      if (drafts.length === 0) problem(`file ${file.n}: produced no episode (harness bug)`);
      if (record.status !== 'confirmed') problem(`file ${file.n} (${id}): status ${record.status}, expected confirmed; why: ${whyNotConfirmed(record, state, stateDir, [...file.formerRelPaths.map((p) => `${file.source}:${p}`), id])}`);
      const hash = contentHashOf(readFileSync(corpus.abs(file)));
      if (record.hash !== hash) problem(`file ${file.n}: state hash is not the current content's`);
      const refMarkers = record.episodes.map((r) => r.marker).join(' ');
      if (refMarkers !== drafts.map((d) => d.marker).join(' ')) problem(`file ${file.n}: state parts ${refMarkers} != expected ${drafts.map((d) => d.marker).join(' ')}`);
    }
    expectedParts += drafts.length;
    for (const draft of drafts) {
      expectedMarkers.add(draft.marker);
      const found = byMarker.get(draft.marker) ?? [];
      const ref = record.episodes.find((r) => r.marker === draft.marker);
      if (found.length === 0) {
        lost++;
        problem(`file ${file.n}: part ${draft.part}/${draft.parts} ${draft.marker} is not on the server`);
        continue;
      }
      const episode = found[0]!;
      if (episode.content !== draft.body) {
        lost++;
        problem(`file ${file.n}: part ${draft.part}/${draft.parts} content on the server differs from the file's current content`);
      }
      if (episode.name !== draft.name) problem(`file ${file.n}: part ${draft.part} name "${episode.name}" != "${draft.name}"`);
      if (episode.group_id !== draft.groupId) problem(`file ${file.n}: part ${draft.part} in group ${episode.group_id}, expected ${draft.groupId}`);
      if (ref !== undefined && ref.uuid !== episode.uuid) problem(`file ${file.n}: part ${draft.part} state uuid ${ref.uuid} != server ${episode.uuid}`);
    }
    // Independent of the episode builder: the current version's check lines are on the server, no earlier version's are.
    const mine = episodes.filter((e) => allowedIds.includes(parseMarker(e.source_description)?.fileId ?? '')).map((e) => e.content).join('\n');
    if (file.kind === 'normal') {
      if (!mine.includes(`Soak-check: ${file.token}`) || !mine.includes(`Soak-check-end: ${file.token}`)) problem(`file ${file.n}: current version ${file.token} not found on the server`);
    }
    for (const old of file.tokens) {
      if (file.kind === 'normal' && old === file.token) continue;
      if (allContent.includes(old)) problem(`file ${file.n}: ${old === file.token ? `${file.kind} version` : 'an earlier version'} (${old}) is on the server`);
    }
  }

  // ------------------------------------------------------------ deleted files
  for (const file of corpus.deleted()) {
    for (const p of [file.relPath, ...file.formerRelPaths]) {
      const id = `${file.source}:${p}`;
      if (!liveIds.has(id) && state.files[id] !== undefined) problem(`deleted file ${file.n}: state still has ${id}`);
    }
    for (const token of file.tokens) if (allContent.includes(token)) problem(`deleted file ${file.n}: ${token} is still on the server`);
  }
  for (const id of Object.keys(state.files)) if (!liveIds.has(id)) problem(`state: record ${id} belongs to no live file`);

  let stale = 0;
  for (const [marker, list] of byMarker) {
    if (!expectedMarkers.has(marker)) {
      stale += list.length;
      problem(`server: ${marker} ("${list[0]?.name}") belongs to no current file version`);
    }
  }

  for (const h of sessionlessPosts(server).slice(0, 5)) problem(`client: ${h.rpcMethod} POSTed without a session id at ${new Date(h.at).toISOString()} (answered ${h.status})`);

  // ------------------------------------------------------------ secrets
  let secretLeaks = 0;
  const secrets = [...corpus.allSecrets];
  const scan = (where: string, text: string) => {
    for (const s of secrets) {
      if (text.includes(s)) {
        secretLeaks++;
        problem(`secret leak: a planted secret (${s.slice(0, 6)}…) appears in ${where}`);
      }
    }
  };
  for (const call of server.calls) scan(`a ${call.tool} call the server received`, JSON.stringify(call.args));
  for (const e of episodes) scan(`server episode ${e.uuid}`, `${e.name}\n${e.content}\n${e.source_description}`);
  for (const path of walk(stateDir)) scan(path.slice(stateDir.length + 1), readFileSync(path, 'latin1') + readFileSync(path, 'utf8'));
  for (const [i, text] of (options.outputs ?? []).entries()) scan(`child output #${i}`, text);

  const figures: Figures = {
    filesLive: corpus.live().length,
    filesDeleted: corpus.deleted().length,
    filesSkipped: skippedFiles,
    expectedParts,
    ...collectFigures(server),
    duplicates,
    lost,
    stale,
    secretLeaks,
  };
  return { ok: problems.length === 0, problems, figures };
}

/**
 * What a record's state says about why it is not confirmed: error, attempts, each part's send,
 * queue and re-send history, its group's next look. For the final passes' log and the failure message.
 */
export function recordFacts(record: FileRecord, state: SyncState, now = Date.now()): string {
  const ago = (iso: string | undefined) => (iso === undefined ? undefined : `${((now - Date.parse(iso)) / 1000).toFixed(1)} s ago`);
  const parts = record.episodes.map((ref) => {
    const facts = [
      ref.sentAt === undefined ? 'never sent (no sentAt)' : `sent ${ago(ref.sentAt)}`,
      ref.queuedAt === undefined ? undefined : `queued ${ago(ref.queuedAt)}`,
      ref.uuid === undefined ? 'not seen' : `seen as ${ref.uuid}`,
      `resends ${ref.resends}`,
    ].filter((f) => f !== undefined);
    return `part ${ref.part}/${ref.parts} ${ref.marker} in ${ref.groupId}: ${facts.join(', ')}`;
  });
  const groups = [...new Set(record.episodes.map((ref) => ref.groupId))].map((group) => {
    const pace = state.groups?.[group];
    const next = pace?.nextListingAt === undefined ? 'none set' : `${((pace.nextListingAt - now) / 1000).toFixed(1)} s from now`;
    return `group ${group}: next look ${next}, backoff ${pace?.backoffMs ?? 0} ms`;
  });
  return [
    `${record.id} ${record.status}, fileId ${record.fileId}, hash ${record.hash?.slice(0, 12)}, attempts ${record.attempts}${record.lastError === undefined ? '' : `, last error: ${record.lastError}`}${record.failedVersion === undefined ? '' : `, failed version ${record.failedVersion.hash.slice(0, 12)}`}`,
    ...parts,
    ...groups,
  ].join('; ');
}

/**
 * Why a live file's record is not confirmed, for the failure message: its state (recordFacts) and
 * the last lines the processes logged about it under any of its names. A soak failure is rare and
 * timing-bound: the message must carry what is needed to find its cause without running it again.
 */
export function whyNotConfirmed(record: FileRecord, state: SyncState, stateDir: string, ids: string[]): string {
  let lines: string[] = [];
  try {
    const wanted = new Set([...ids, record.id]);
    lines = parseJsonLines<Record<string, unknown>>(readFileSync(logFilePath(stateDir), 'utf8'), 'lenient')
      .filter((l) => wanted.has(String(l.id)) || wanted.has(String(l.from)) || wanted.has(String(l.to)))
      .slice(-8)
      .map((l) => {
        const { t, level, msg, ...rest } = l;
        return `${String(t)} ${String(level)} ${String(msg)} ${JSON.stringify(rest).slice(0, 240)}`;
      });
  } catch {
    // no log
  }
  return `${recordFacts(record, state)}; last log lines about it: ${lines.length === 0 ? 'none' : `\n    ${lines.join('\n    ')}`}`;
}

/** UNDER_FIRE: more than this many injected faults must have hit for a soak to say anything about faults. */
export const MIN_FAULTS_HIT = 5;

/**
 * UNDER_FIRE, the soak's premise (one owner for the short soak and `npm run soak`): the seeded fault
 * schedule met the eligible requests asked for (soak-scenarios.ts `faultRequests`: counted by
 * requests, not by time, so a loaded machine is not under less fire), and more than MIN_FAULTS_HIT
 * faults hit. What is not so, in words; none: the run really was under fire.
 */
export function notUnderFire(figures: Pick<Figures, 'faults'> & { faultScheduleMet: number }, faultRequests: number): string[] {
  const problems: string[] = [];
  if (figures.faultScheduleMet < faultRequests) problems.push(`the fault schedule met ${figures.faultScheduleMet} eligible requests, not ${faultRequests}: too little work reached the server while faults were on (a longer chaos phase, or fewer fault requests asked for)`);
  const hit = Object.values(figures.faults).reduce((a, b) => a + b, 0);
  if (hit <= MIN_FAULTS_HIT) problems.push(`only ${hit} injected faults hit (more than ${MIN_FAULTS_HIT} needed)`);
  return problems;
}

export function formatFigures(figures: Figures & { wallMs?: number }): string {
  const faults = Object.entries(figures.faults)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  const totalFaults = Object.values(figures.faults).reduce((a, b) => a + b, 0);
  const rows: Array<[string, string]> = [
    ['files (live / deleted / skipped)', `${figures.filesLive} / ${figures.filesDeleted} / ${figures.filesSkipped}`],
    ['expected parts (episodes)', String(figures.expectedParts)],
    ['add_memory calls received', `${figures.addMemoryCalls} (accepted ${figures.addMemoryAccepted})`],
    ['injected faults that hit (retried)', `${totalFaults}${faults === '' ? '' : ` (${faults})`}`],
    ['silently dropped by the server', String(figures.dropped)],
    ['re-sends (marker accepted before)', String(figures.resends)],
    ['delete_episode calls', String(figures.deleteCalls)],
    ['get_episodes calls', String(figures.getEpisodesCalls)],
    ['POSTs to /mcp', String(figures.posts)],
    ['POSTs without a session id', String(figures.sessionlessPosts)],
    ['duplicates at the end', String(figures.duplicates)],
    ['lost at the end', String(figures.lost)],
    ['stale episodes at the end', String(figures.stale)],
    ['secret leaks', String(figures.secretLeaks)],
  ];
  for (const [k, v] of Object.entries(figures as unknown as Record<string, unknown>)) {
    if (k in { wallMs: 1 } || rows.some(([label]) => label === k) || typeof v !== 'number' || k in emptyFigures()) continue;
    rows.push([k, String(v)]);
  }
  if (figures.wallMs !== undefined) rows.push(['wall time', `${(figures.wallMs / 1000).toFixed(1)} s`]);
  const width = Math.max(...rows.map(([k]) => k.length));
  return rows.map(([k, v]) => `  ${k.padEnd(width)}  ${v}`).join('\n');
}

function emptyFigures(): Record<keyof Figures, true> {
  return {
    filesLive: true,
    filesDeleted: true,
    filesSkipped: true,
    expectedParts: true,
    addMemoryCalls: true,
    addMemoryAccepted: true,
    resends: true,
    dropped: true,
    faults: true,
    posts: true,
    deleteCalls: true,
    getEpisodesCalls: true,
    sessionlessPosts: true,
    duplicates: true,
    lost: true,
    stale: true,
    secretLeaks: true,
  };
}
