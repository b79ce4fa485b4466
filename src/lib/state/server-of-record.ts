/**
 * SERVER_OF_RECORD: what the sync state and pull's ledger know was learnt from one server.
 *
 * Pull: what pull knows of the graph (which notes were listed, which were this
 * machine's) was learnt from one server. A listing of another server (the URL set to another one
 * by mistake, a project `.env` naming a test server, a move to a new server) shows none of what
 * the other held, except what was sent to it since; taken at its word, every note absent from it
 * was "deleted elsewhere": untouched copies removed here, and, back on the first server, the notes
 * written meanwhile removed too and the copies deleted here taken out of the graph, on every
 * linked machine. EMPTIED_GROUP (pull.ts) does not see it: an edit sent to the other server before
 * the pull keeps the group from looking emptied. So the first listing of a server other than the
 * one pull last listed judges no absence: the notes missing from it are marked as lost with an
 * emptied group (`emptiedSince`: kept, unjudged, until listed again; `sync --force` sends them
 * there), as a wiped graph is.
 *
 * Sync: the state calls a note confirmed because one server showed it. On another server (and
 * back on the first) edits made meanwhile were stored only on the other: the first kept the old
 * version for good, in every session, and a note written meanwhile never reached it. So the first
 * run on a server other than the one the state last reached is a rebuild there (what the state
 * knows is of another graph: sync.ts `rebuilding`, as after a lost state: versions of our files it
 * does not know are found and retired as older ones, with the same guards for a copied home), and
 * it looks, as `sync --force` does (sync/force-look.ts FORCE_LOOK), whether the graph holds what
 * the state calls confirmed, and sends again what it does not.
 *
 * The local server (`server start`) is one server whatever port it
 * answers on: its graph lives in this machine's data folder.
 */
/** Where the MCP URL came from (config.ts `Config['mcpUrlSource']`): the local server is one server whatever its port. */
export interface ServerSetting {
  mcpUrl: string;
  mcpUrlSource: string;
}

/** The server a listing came from, as pull and the sync record it (`PulledLedger.server`, `SyncState.server`). */
export function serverOfRecord(config: ServerSetting): string {
  if (config.mcpUrlSource === 'local-server') return 'local-server';
  try {
    const url = new URL(config.mcpUrl);
    return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    return config.mcpUrl;
  }
}

/**
 * LOOK_OWED_TO_SOURCES_LEFT_OUT: the first run on another server looks, as `sync --force` does, at
 * the run's sources only (sync/force-look.ts FORCE_LOOK). A `sync --source NAME` run there still
 * records the server (what it sent, and the first server's uuids it forgot, are of this server
 * now: left unrecorded, the return to the first server was no move, and the parts sent again here
 * were taken for the first server's), and the configured sources it left out are owed that look:
 * the next run that scans one of them looks at its notes as the first run did. Recorded without
 * this (8fc2c7a), no later run looked: the other sources' notes, confirmed on the server before,
 * never reached this one.
 */
export function lookOwed(owed: readonly string[] | undefined, runSources: readonly { name: string }[]): boolean {
  return owed !== undefined && runSources.some((s) => owed.includes(s.name));
}

/** What is owed once a run reached the server: after a move, the sources the run left out; else what was owed, less the run's sources. */
export function lookOwedAfter(moved: boolean, owed: readonly string[] | undefined, runSources: readonly { name: string }[], unscanned: ReadonlySet<string>): string[] | undefined {
  const left = moved ? [...unscanned] : (owed ?? []).filter((name) => !runSources.some((s) => s.name === name));
  return left.length === 0 ? undefined : left;
}

/** Whether this listing is of another server than the one pull last listed (none recorded: not known to be). */
export function anotherServer(recorded: string | undefined, now: string): boolean {
  return recorded !== undefined && recorded !== now;
}
