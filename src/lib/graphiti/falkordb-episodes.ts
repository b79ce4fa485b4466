/**
 * Our episodes read straight from the local server's FalkorDB (issue 27): one small query by
 * marker instead of a `get_episodes` listing that grows with the group. Only for the server that
 * `graphiti-memory-sync server` runs (config/server-runtime.ts `localFalkorDb`): there the tool
 * holds the database's address and secret. Every other server is confirmed through MCP.
 *
 * Graph names: every graphiti-core generation we pin (0.28.2, 0.29.3, 0.31.1, 0.31.2) keeps a
 * group in the FalkorDB graph named after the group id (`FalkorDriver.clone(database=group_id)`,
 * one graph per group since core 0.23); only the driver's default group id `_` lives in
 * `default_db`. Group ids reach FalkorDB escaped (escape.ts: no hyphens, never `_` alone).
 *
 * The reply carries what reconcile needs and no bodies: our episodes by marker (every copy), and
 * every episode of the group that started since `since` (uuid, start, marker), so the group's
 * movement and processing times are as a complete listing of that window shows them.
 *
 * The redis client (`@redis/client`) is loaded on first use only: a run against any other server,
 * and the hooks, never load it.
 */
import { isLocalFrontUrl, liveFalkorDb, liveServerUrl } from '../config/server-runtime.js';
import type { Episode } from './graphiti.js';

/** What the direct query can find, as a marker must look (formatMarker in memory/episode.ts). */
const MARKER = /^\[gms:[0-9A-Za-z:/_-]{1,200}\]$/;
const ISO = /^\d{4}-\d\d-\d\dT[\d:.]+(Z|[+-]\d\d:\d\d)$/;
/** An episode uuid as Graphiti makes them (uuid4), or as a test or another build may: no quote, no backslash. */
const UUID = /^[0-9A-Za-z-]{1,100}$/;

/** Where the local server's FalkorDB listens, and its password (server lane, issue 28). */
export type LocalFalkorDb = ({ host: string; port: number } | { socket: string }) & { password?: string };

/**
 * The FalkorDB behind `mcpUrl` when that URL is the live local server's (`server start`, its
 * runtime.json read through config/server-runtime.ts); undefined for any other server.
 */
export function localFalkorDbFor(stateDir: string, mcpUrl: string): LocalFalkorDb | undefined {
  const url = liveServerUrl(stateDir);
  // LOCAL_FRONT_URL (config/server-runtime.ts): a URL that may reach another listener (localhost
  // resolving to ::1) is not listed from our FalkorDB, whatever that listener holds.
  if (url === undefined || !isLocalFrontUrl(mcpUrl, { url })) return undefined;
  return liveFalkorDb(stateDir);
}

export class FalkorDbEpisodes {
  private constructor(private readonly client: { sendCommand(args: string[]): Promise<unknown>; close(): Promise<void> | void }) {}

  /** Connects (with its password); throws when FalkorDB does not answer. */
  static async connect(endpoint: LocalFalkorDb, timeoutMs = 5_000): Promise<FalkorDbEpisodes> {
    const password = endpoint.password;
    const { createClient } = await import('@redis/client');
    const client = createClient({
      socket: 'socket' in endpoint ? { path: endpoint.socket, connectTimeout: timeoutMs, reconnectStrategy: false } : { host: endpoint.host, port: endpoint.port, connectTimeout: timeoutMs, reconnectStrategy: false },
      ...(password === undefined || password === '' ? {} : { password }),
    });
    client.on('error', () => undefined); // reported through the failing command instead
    await client.connect();
    return new FalkorDbEpisodes({ sendCommand: (args) => client.sendCommand(args), close: () => client.close() });
  }

  /** The graph that holds `groupId` (already escaped for FalkorDB, as the server got it). */
  static graphOf(groupId: string): string {
    return groupId === '_' ? 'default_db' : groupId;
  }

  /**
   * Episodes of group `groupId` (as the server got it: escaped) whose source description ends with
   * one of `markers` (with `everyMarked`: that holds any marker of this tool, whoever's, as a
   * rebuild after lost state must see), every episode whose uuid is one of `uuids`, and every
   * episode of the group that started at or after `since` (ISO): uuid, name, start, description;
   * no content.
   *
   * ADOPTED_FOUND_BY_UUID: `uuids` are the episodes our parts already rest on. A part adopted from
   * an episode we did not send (sync/adopt-prior.ts: the madeinoz hook's, no marker of ours) is
   * found only by its uuid, as a get_episodes listing shows it (sync/reconcile.ts LISTED_BY_UUID).
   * Looked for by marker alone, `sync --force` on the local server found it missing, took it for
   * lost (sync/force-look.ts FORCE_LOOK) and sent the note again beside the episode still there.
   */
  async find(groupId: string, markers: readonly string[], since: string, options: { everyMarked?: boolean; uuids?: readonly string[] } = {}): Promise<Episode[]> {
    if (!/^[A-Za-z0-9_-]{1,200}$/.test(groupId)) throw new TypeError(`not a group id: ${groupId.slice(0, 80)}`);
    for (const m of markers) if (!MARKER.test(m)) throw new TypeError(`not a marker: ${m.slice(0, 80)}`);
    if (!ISO.test(since)) throw new TypeError(`not an ISO time: ${since}`);
    const uuids = options.uuids ?? [];
    for (const u of uuids) if (!UUID.test(u)) throw new TypeError(`not an episode uuid: ${u.slice(0, 80)}`);
    // Parameters as Cypher literals: every value is checked above to hold no quote or backslash.
    const params = `CYPHER gid=${JSON.stringify(groupId)} markers=${JSON.stringify(markers)} since=${JSON.stringify(since)} uuids=${JSON.stringify(uuids)}`;
    // A marker holds no `[` after its first character (MARKER), so a description ends with one of
    // them exactly when the text from its last `[gms:` on is in the list. That is one list lookup
    // per episode; `any(m IN $markers WHERE … ENDS WITH m)` was one string test per episode and
    // marker, ~110 ms for 200 notes in a group of 10,000 against ~2 ms (the CONTAINS skips the
    // split for descriptions that hold no marker at all).
    const ours = options.everyMarked === true ? `e.source_description CONTAINS '[gms:'` : `(e.source_description CONTAINS '[gms:' AND ('[gms:' + last(split(e.source_description, '[gms:'))) IN $markers)`;
    const query = `${params} MATCH (e:Episodic) WHERE e.group_id = $gid AND (e.created_at >= $since OR ${ours} OR e.uuid IN $uuids) RETURN e.uuid, e.name, e.created_at, e.source_description`;
    let reply: unknown;
    try {
      reply = await this.client.sendCommand(['GRAPH.RO_QUERY', FalkorDbEpisodes.graphOf(groupId), query]);
    } catch (error) {
      // A group nothing was ever written to has no graph yet: it holds no episode.
      if (error instanceof Error && /empty key/i.test(error.message)) return [];
      throw error;
    }
    return rowsOf(reply).map((row) => ({
      uuid: text(row[0]),
      name: text(row[1]),
      content: '',
      created_at: row[2] === null || row[2] === undefined ? null : text(row[2]),
      source: 'text',
      source_description: text(row[3]),
      group_id: groupId,
    }));
  }

  async close(): Promise<void> {
    try {
      await this.client.close();
    } catch {
      // already closed or never fully open: nothing to release
    }
  }
}

/** GRAPH.QUERY's reply: [header, rows, statistics]; a graph that does not exist yet has no rows. */
function rowsOf(reply: unknown): unknown[][] {
  if (!Array.isArray(reply) || reply.length < 3) return [];
  const rows = reply[1];
  return Array.isArray(rows) ? rows.filter((r): r is unknown[] => Array.isArray(r)) : [];
}

function text(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v instanceof Uint8Array) return Buffer.from(v).toString('utf8');
  return v === null || v === undefined ? '' : String(v);
}
