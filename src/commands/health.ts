/**
 * `health` (alias `doctor`): is the Graphiti server usable, not merely up?
 *
 * `get_status` only runs `MATCH (n) RETURN count(n)`: a server whose every search fails
 * (the madeinoz FalkorDB patch, see madeinoz-system.md) or whose worker drops every
 * episode answers "ok" all the same. So besides get_status this runs:
 * - a database check: the provider get_status names against MADEINOZ_KNOWLEDGE_DB (the
 *   escaping of group ids and search text depends on it);
 * - a one-word search probe per configured group;
 * - with `deep`, one test episode sent, confirmed through get_episodes before a deadline,
 *   and deleted.
 * Each failing check names the likely cause and the fix (diagnoseServerError).
 */
import { randomUUID } from 'node:crypto';
import { mcpUrlOrigin, type Config, type DbKind } from '../lib/config/config.js';
import { normalizeGroupId } from '../lib/graphiti/escape.js';
import type { Episode, Fact, ServerProfile, ServerStatus } from '../lib/graphiti/graphiti.js';
import { deletesInLastWrittenGroupOnly, lastWrittenGroupOnlyWarning } from '../lib/graphiti/semantics.js';
import { loadState, type SyncState } from '../lib/state/state.js';
import type { Logger } from '../lib/util/log.js';
import type { HealthReport } from '../lib/graphiti/health.js';
import { nextStepFor } from './next-step.js';
import { cli } from '../lib/util/install-route.js';
import { displayUrl } from '../lib/util/display-url.js';

export interface DoctorCheck {
  name: string;
  ok: boolean;
  /** Passes, but the user should know (shown as WARN with its cause and fix; the report stays ok). */
  warn?: boolean;
  detail: string;
  cause?: string | undefined;
  fix?: string | undefined;
}

export interface DoctorReport extends HealthReport {
  checks: DoctorCheck[];
}

/** The GraphitiClient calls the checks need (tests may pass a fake). */
export interface DoctorClient {
  getStatus(signal?: AbortSignal): Promise<ServerStatus>;
  searchFacts(query: string, groupIds: string[], maxFacts?: number, signal?: AbortSignal): Promise<Fact[]>;
  addMemory(input: { name: string; episodeBody: string; groupId: string; sourceDescription: string }, signal?: AbortSignal): Promise<unknown>;
  getEpisodes(groupIds: string[], maxEpisodes: number, signal?: AbortSignal): Promise<Episode[]>;
  deleteEpisode(uuid: string, groupId: string, signal?: AbortSignal): Promise<unknown>;
  /** The tool surface (a fake without it skips the check that needs it). */
  serverProfile?(signal?: AbortSignal): Promise<ServerProfile>;
}

export interface DoctorOptions {
  logger: Logger;
  /** Also send, confirm and delete one test episode. */
  deep?: boolean;
  /** How long the deep probe waits for the test episode to appear (default 90 s: a real LLM takes a while). */
  deepTimeoutMs?: number;
  /** Pause between get_episodes polls (default 1 s). */
  pollIntervalMs?: number;
}

export const DEFAULT_DEEP_TIMEOUT_MS = 90_000;
/** The one word the search probe sends: any word will do, the point is whether the search runs. */
export const PROBE_WORD = 'memory';
const PROBE_LISTING = 1000;

export interface Diagnosis {
  cause: string;
  fix: string;
}

/** Likely cause and fix for an error text the Graphiti server returned. */
export function diagnoseServerError(text: string, db: DbKind): Diagnosis {
  if (/STOPWORDS/.test(text)) {
    return {
      cause:
        "the madeinoz Knowledge server's FalkorDB fulltext patch reads FalkorDriver.STOPWORDS, which graphiti-core's FalkorDriver does not have: every fulltext search fails, including the one add_memory runs internally, so every episode is dropped after \"queued\"",
      fix: `run the madeinoz server on Neo4j (MADEINOZ_KNOWLEDGE_DATABASE_TYPE=neo4j there and here), or use the upstream image zepai/knowledge-graph-mcp, until that patch is fixed; then \`${cli()} sync --force\` re-sends what was dropped`,
    };
  }
  if (/must contain only alphanumeric/i.test(text)) {
    return { cause: 'graphiti-core refuses the group id', fix: 'use a group id of letters, digits and underscores (MADEINOZ_KNOWLEDGE_GROUP_ID, MADEINOZ_KNOWLEDGE_SOURCE_GROUPS)' };
  }
  if (/RediSearch|Syntax error/i.test(text)) {
    return {
      cause: 'the server runs FalkorDB and a group id holds a character its fulltext filter breaks on (a hyphen)',
      fix: db === 'falkordb' ? 'use a group id of letters, digits and underscores' : 'set MADEINOZ_KNOWLEDGE_DB=falkordb so group ids are written the FalkorDB way',
    };
  }
  if (/not initialized/i.test(text)) return { cause: 'the server is still starting', fix: 'wait a few seconds and run health again' };
  return { cause: 'the search failed inside the Graphiti server', fix: "read the Graphiti server's log for the traceback" };
}

/** The database a get_status message names ("… connected to falkordb database"), if it names one. */
export function reportedDatabase(message: string): DbKind | undefined {
  const m = /connected to (.+?) database/i.exec(message);
  if (m?.[1] === undefined) return undefined;
  if (/falkor/i.test(m[1])) return 'falkordb';
  if (/neo4j/i.test(m[1])) return 'neo4j';
  return undefined;
}

/** Groups episodes are sent to: the main group and the fixed per-source groups (`{project}` groups are per project). */
export function configuredGroups(config: Pick<Config, 'db' | 'groupId' | 'sourceGroups'>): string[] {
  const groups = [config.groupId, ...Object.values(config.sourceGroups).filter((g) => g !== '{project}')];
  const out: string[] = [];
  for (const g of groups) {
    try {
      const id = normalizeGroupId(config.db, g);
      if (!out.includes(id)) out.push(id);
    } catch {
      // An invalid group id is reported by sync for the files it concerns.
    }
  }
  return out;
}

/**
 * The groups this sync writes to: the configured ones, those the state's episodes are in (a
 * `{project}` group's, a note's own group_id), and `{project}` when one is configured (one group
 * per project: more to come).
 */
export function groupsWritten(config: Pick<Config, 'db' | 'groupId' | 'sourceGroups'>, state?: Pick<SyncState, 'files' | 'orphans'>): string[] {
  const groups = new Set(configuredGroups(config));
  for (const record of Object.values(state?.files ?? {})) for (const ref of [...record.episodes, ...record.superseded]) groups.add(ref.groupId);
  for (const ref of state?.orphans ?? []) groups.add(ref.groupId);
  if (Object.values(config.sourceGroups).includes('{project}')) groups.add('{project}');
  return [...groups];
}

/** groupsWritten for people: `{project}` read as "one per project". */
export function groupList(groups: readonly string[]): string {
  return groups.map((g) => (g === '{project}' ? 'one per project' : g)).join(', ');
}

/** The server deletes and lists only in the group it last wrote to, and this sync writes to several (graphiti/semantics.ts). */
async function lastWrittenGroupCheck(client: DoctorClient, config: Config): Promise<DoctorCheck | undefined> {
  if (config.db !== 'falkordb' || client.serverProfile === undefined) return undefined;
  const state = await loadState(config.stateDir, { readOnly: true }).then((loaded) => loaded.state, () => undefined);
  const groups = groupsWritten(config, state);
  if (groups.length < 2) return undefined;
  const profile = await client.serverProfile().catch(() => undefined);
  if (profile === undefined || !deletesInLastWrittenGroupOnly({ deleteEpisodeTakesGroup: profile.deleteEpisodeTakesGroup, db: config.db, groups: groups.length })) return undefined;
  const { problem, fix } = lastWrittenGroupOnlyWarning(cli());
  return { name: 'deletes in several groups', ok: true, warn: true, detail: `groups ${groupList(groups)}, on a server whose delete_episode takes no group`, cause: problem, fix };
}

function errorText(error: unknown): string {
  if (error instanceof Error) return (error as Error & { detail?: string }).detail ?? error.message;
  return String(error);
}

function databaseCheck(config: Config, status: ServerStatus): DoctorCheck {
  const reported = reportedDatabase(status.message);
  if (reported === undefined) return { name: 'database', ok: true, detail: `setting ${config.db}; the server does not name its database` };
  if (reported === config.db) return { name: 'database', ok: true, detail: `${reported} (the server agrees with MADEINOZ_KNOWLEDGE_DB)` };
  return {
    name: 'database',
    ok: false,
    detail: `the server runs ${reported}, but this tool is set for ${config.db}`,
    cause: `group ids and search text are escaped for ${config.db}, which ${reported} misreads`,
    fix: `set MADEINOZ_KNOWLEDGE_DB=${reported} (it wins over MADEINOZ_KNOWLEDGE_DATABASE_TYPE)${config.envFile === undefined ? '' : ` in ${config.envFile}`}`,
  };
}

async function searchCheck(client: DoctorClient, config: Config, group: string, logger: Logger): Promise<DoctorCheck> {
  const name = `search in group ${group}`;
  try {
    const facts = await client.searchFacts(PROBE_WORD, [group], 1);
    return { name, ok: true, detail: `answered (${facts.length} fact${facts.length === 1 ? '' : 's'} for "${PROBE_WORD}")` };
  } catch (error) {
    const text = errorText(error);
    logger.warn('health: search probe failed', { group, error: text });
    return { name, ok: false, detail: `fails: ${text.slice(0, 300)}`, ...diagnoseServerError(text, config.db) };
  }
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function deepCheck(client: DoctorClient, config: Config, options: DoctorOptions, searchFailure: DoctorCheck | undefined): Promise<DoctorCheck> {
  const group = normalizeGroupId(config.db, config.groupId);
  const name = `graphiti-memory-sync health probe ${randomUUID().slice(0, 8)}`;
  const started = Date.now();
  const deadline = started + (options.deepTimeoutMs ?? DEFAULT_DEEP_TIMEOUT_MS);
  try {
    await client.addMemory({ name, episodeBody: 'Health check episode; it is deleted right after it is stored.', groupId: group, sourceDescription: 'graphiti-memory-sync health --deep' });
  } catch (error) {
    const text = errorText(error);
    return { name: 'test episode', ok: false, detail: `add_memory failed: ${text.slice(0, 300)}`, ...diagnoseServerError(text, config.db) };
  }
  for (;;) {
    const found = (await client.getEpisodes([group], PROBE_LISTING)).find((e) => e.name === name);
    if (found !== undefined) {
      const storedMs = Date.now() - started;
      await client.deleteEpisode(found.uuid, group);
      return { name: 'test episode', ok: true, detail: `sent to ${group}, stored after ${storedMs} ms, deleted` };
    }
    if (Date.now() >= deadline) break;
    await delay(Math.min(options.pollIntervalMs ?? 1000, Math.max(0, deadline - Date.now())));
  }
  const waitedMs = options.deepTimeoutMs ?? DEFAULT_DEEP_TIMEOUT_MS;
  const waited = waitedMs >= 1000 ? `${Math.round(waitedMs / 1000)} s` : `${waitedMs} ms`;
  const diagnosis: Diagnosis =
    searchFailure?.cause !== undefined && searchFailure.fix !== undefined
      ? { cause: searchFailure.cause, fix: searchFailure.fix }
      : {
          cause: 'Graphiti processes episodes in the background and drops failures silently: usually its LLM or embedder (API key, rate limit, model name), or a long queue',
          fix: `look for "Failed to process episode" in the Graphiti server's log; if its queue is only slow, run health --deep --timeout with more than ${waitedMs} ms`,
        };
  return {
    name: 'test episode',
    ok: false,
    detail: `the server said "queued" but did not store the test episode within ${waited} (if it appears later, it is named "${name}")`,
    ...diagnosis,
  };
}

/** Runs every check; `ok` is true only when all pass. Never throws for a server problem. */
export async function runDoctor(config: Config, options: DoctorOptions, client?: DoctorClient): Promise<DoctorReport> {
  const started = Date.now();
  const quick: Config = { ...config, retries: 0, timeoutMs: Math.min(config.timeoutMs, 10_000), retryDeadlineMs: Math.min(config.retryDeadlineMs, 10_000) };
  let owned: import('../lib/graphiti/graphiti.js').GraphitiClient | undefined;
  if (client === undefined) {
    const { GraphitiClient } = await import('../lib/graphiti/graphiti.js');
    owned = new GraphitiClient(quick, { logger: options.logger.child({ component: 'graphiti' }) });
  }
  const graphiti = (client ?? owned) as DoctorClient;
  const base = { url: displayUrl(config.mcpUrl) };
  const checks: DoctorCheck[] = [];
  try {
    let status: ServerStatus;
    try {
      status = await graphiti.getStatus();
    } catch (error) {
      const text = errorText(error);
      const step = nextStepFor(text, config);
      if (/\bHTTP 421 from\b/.test(text)) {
        // The error explains the Host check itself: said once, and the server IS running.
        checks.push({ name: 'server', ok: false, detail: `refused: ${text}`, fix: step?.fix });
      } else {
        checks.push({
          name: 'server',
          ok: false,
          detail: `${/\bHTTP \d{3} from\b/.test(text) ? 'answered' : 'unreachable'}: ${text}`,
          cause: step?.cause ?? 'the Graphiti MCP server is not running or not at this URL',
          fix: step?.fix ?? `start it, or set MADEINOZ_KNOWLEDGE_MCP_URL (now ${displayUrl(config.mcpUrl)})`,
        });
      }
      return { ...base, ok: false, message: text, elapsedMs: Date.now() - started, checks };
    }
    const step = status.status === 'ok' ? undefined : nextStepFor(status.message, config);
    checks.push({ name: 'server', ok: status.status === 'ok', detail: `get_status: ${status.status}: ${status.message}`, ...(step === undefined ? {} : { cause: step.cause, fix: step.fix }) });
    if (status.status === 'ok') {
      checks.push(databaseCheck(config, status));
      for (const group of configuredGroups(config)) checks.push(await searchCheck(graphiti, config, group, options.logger));
      const lastWritten = await lastWrittenGroupCheck(graphiti, config);
      if (lastWritten !== undefined) checks.push(lastWritten);
      if (options.deep === true) checks.push(await deepCheck(graphiti, config, options, checks.find((c) => c.name.startsWith('search') && !c.ok)));
    }
    const failed = checks.find((c) => !c.ok);
    return {
      ...base,
      ok: failed === undefined,
      message: failed === undefined ? status.message : `${failed.name}: ${failed.detail}`,
      transport: owned?.client.transportKind,
      protocolVersion: owned?.client.protocolVersion,
      serverName: owned?.client.serverInfo?.name,
      serverVersion: owned?.client.serverInfo?.version,
      elapsedMs: Date.now() - started,
      checks,
    };
  } finally {
    await owned?.close().catch(() => undefined);
  }
}

/** The human report: one line per check, cause and fix under a failing one. */
export function formatDoctor(report: DoctorReport, config: Pick<Config, 'mcpUrl' | 'mcpUrlSource' | 'db' | 'groupId'>): string {
  const lines = [`${report.ok ? 'ok' : 'unhealthy'}: ${report.message}`, `  url: ${displayUrl(config.mcpUrl)} (${mcpUrlOrigin(config.mcpUrlSource)})`];
  if (report.transport !== undefined) lines.push(`  transport: ${report.transport}, protocol ${report.protocolVersion ?? '?'}`);
  if (report.serverName !== undefined) lines.push(`  server: ${report.serverName} ${report.serverVersion || '(no version reported)'}`); // python mcp 2.x (Graphiti server 1.1.0) reports an empty version
  lines.push(`  database setting: ${config.db}, group: ${config.groupId}`);
  for (const c of report.checks) {
    // The first line already holds a failing check's message: said once (a 421's explanation is long).
    const detail = !c.ok && report.message !== '' && c.detail.includes(report.message) ? c.detail.replace(report.message, '(the error above)') : c.detail;
    lines.push(`  ${!c.ok ? 'FAIL' : c.warn === true ? 'WARN' : 'ok  '} ${c.name}: ${detail}`);
    if ((!c.ok || c.warn === true) && c.cause !== undefined) lines.push(`       ${c.ok ? '' : 'likely cause: '}${c.cause}`);
    if ((!c.ok || c.warn === true) && c.fix !== undefined) lines.push(`       fix: ${c.fix}`);
  }
  return `${lines.join('\n')}\n`;
}
