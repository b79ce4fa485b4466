/**
 * The next step for a server we could not use (or a state folder that cannot be written), worded once for `sync`, `status` and `health`:
 * what is wrong (the cause) and the command or setting that fixes it. Works from the error text
 * (what a sync summary keeps) and the settings (where the URL came from, whether the local server
 * of `server start` is stopped), so every command says the same thing.
 */
import { DEFAULT_MCP_URL, type Config } from '../lib/config/config.js';
import { ourProcess, readRuntime, type ServerRuntime } from '../lib/config/server-runtime.js';
import { displayUrl, hasCredentials } from '../lib/util/display-url.js';
import { commandFor, upgradeStep } from '../lib/util/install-route.js';

export interface NextStep {
  /** What is wrong, when the error alone does not say it. */
  cause: string;
  /** The command or setting that fixes it. */
  fix: string;
}

type Settings = Pick<Config, 'mcpUrl' | 'mcpUrlSource' | 'stateDir'> & Partial<Pick<Config, 'envFile'>>;

/** Where MADEINOZ_KNOWLEDGE_MCP_URL was set, for a message that tells the user which line to edit. */
function urlOrigin(config: Settings): string {
  return config.envFile === undefined ? 'MADEINOZ_KNOWLEDGE_MCP_URL' : `MADEINOZ_KNOWLEDGE_MCP_URL (in the environment or ${config.envFile})`;
}

function sameUrl(a: string, b: string): boolean {
  try {
    return new URL(a).href === new URL(b).href;
  } catch {
    return false;
  }
}

/** `url` with `path` for its path, as said (displayUrl); a user and password it carries are kept, and said to be. */
function withPath(url: string, path: string): string {
  let said: string;
  try {
    said = `${new URL(displayUrl(url)).origin}${path}`;
  } catch {
    said = `${displayUrl(url).replace(/\/+$/, '')}${path}`;
  }
  return hasCredentials(url) ? `${said} (keeping your user and password in it)` : said;
}

/** The URL's path is not an MCP endpoint Graphiti serves (`/mcp`, `/mcp/`, or the legacy `/sse`). */
export function lacksMcpPath(url: string): boolean {
  try {
    return !/^\/(?:mcp|sse)\/?$/.test(new URL(url).pathname);
  } catch {
    return false;
  }
}

/** Why the local server is not running, from its runtime record: stopped, a start that failed, or a server that ended on its own (a crash, a kill). */
function notRunning(runtime: ServerRuntime): string {
  if (runtime.state !== 'failed') return 'stopped';
  if (runtime.readyAt === undefined) return 'not running (its last start failed)';
  return `not running: it ended after it had started${runtime.error === undefined ? '' : ` (${runtime.error})`}`;
}

/**
 * The next step for the local server of `server start` when it cannot be used, from its runtime
 * record: still starting or stopping (its supervisor alive), stopped, failed, or gone without a
 * word (a record that says ready or starting, its supervisor dead).
 */
function localServerStep(runtime: ServerRuntime): NextStep {
  const alive = ourProcess(runtime, 'supervisor');
  if (runtime.state === 'starting' && alive) return { cause: 'the local Graphiti server is still starting', fix: `wait until "${commandFor('server status')}" says running, then run this again` };
  if (runtime.state === 'stopping' && alive) return { cause: 'the local Graphiti server is stopping', fix: `${commandFor('server start')} (it waits for the stop to finish)` };
  if (runtime.state === 'ready' || runtime.state === 'starting') return { cause: 'the local Graphiti server is not running (it did not stop cleanly)', fix: commandFor('server start') };
  return { cause: `the local Graphiti server is ${notRunning(runtime)}`, fix: commandFor('server start') };
}

/**
 * The state lock (state/lock.ts), not the server: another process held it for the whole wait
 * (LockTimeoutError, whose "Timed out" would otherwise read as a server that does not answer),
 * or took it over from this run (LockLostError, the ledger's "Lost the state lock").
 */
const LOCK_BUSY = /^Timed out after \d+ ms waiting for lock |^Lock .* is no longer ours|^Lost the state lock/;
const LOCK_STEP: NextStep = {
  cause: 'another graphiti-memory-sync process (a sync, a watch or a hook worker) holds the state; nothing was lost',
  fix: 'let it finish, then run this again (`status` says whether it still runs, is stopped or has ended, and what to do: the lock of a process that ended is taken over at once, of one stopped or hung about 45 s after its last heartbeat)',
};

/**
 * STATE_UNWRITABLE: a write the command needed failed for want of space or of the right to write
 * (Node's `<CODE>: <words>, <syscall> ['<path>']`). A write without a path is the journal's append
 * (by its open file): the state folder. The run stopped before its next step, as it does after any
 * failed write (invariant 2: a part is journaled in flight before it is sent), so nothing was lost.
 */
const UNWRITABLE = /^(ENOSPC|EDQUOT|EROFS|EACCES|EPERM): [^,]*, \w+(?: '([^']*)')?/;
const UNWRITABLE_WHY: Record<string, string> = {
  ENOSPC: 'the disk it is on is full',
  EDQUOT: 'your disk quota is used up',
  EROFS: 'it is on a read-only file system',
  EACCES: 'you lack the permission to write there',
  EPERM: 'you lack the permission to write there',
};

function unwritableStep(errorText: string, config: Settings): NextStep | undefined {
  const m = UNWRITABLE.exec(errorText);
  if (m === null) return undefined;
  const code = m[1] as string;
  const path = m[2];
  const inState = path === undefined || path === config.stateDir || path.startsWith(`${config.stateDir}/`);
  const where = inState ? `the state folder ${config.stateDir}` : path;
  const remedy = code === 'ENOSPC' || code === 'EDQUOT' ? 'free some space there (df -h shows how much is left)' : code === 'EROFS' ? 'mount it writable' : 'make it yours to write (ls -ld shows its owner and mode)';
  if (!inState) return { cause: `${where} cannot be written: ${UNWRITABLE_WHY[code]}`, fix: `${remedy}, then run this again` };
  return {
    cause: `${where} cannot be written: ${UNWRITABLE_WHY[code]}; nothing was lost (what this run did not record is sent or checked again by the next one)`,
    fix: `${remedy}, or move the folder to a disk you can write and set MADEINOZ_KNOWLEDGE_STATE_DIR to its new place, then run this again`,
  };
}

/**
 * Something answers at the URL, but not as a Graphiti MCP server: an MCP server without Graphiti's
 * tools (graphiti.ts), or a web server whose reply is no MCP message at all (streamable.ts).
 */
const NOT_GRAPHITI = /offers none of the tools|Unexpected content type|Invalid JSON in reply to|without a body in reply to initialize|instead of text\/event-stream/;

/** The server chose an MCP protocol version newer than this client knows (mcp/client.ts). */
const NEWER_PROTOCOL = /MCP protocol version "[^"]*", which this client does not support/;

/**
 * get_status said "error" (graphiti-mcp-server.md, item 9): the server runs, but its database does
 * not answer, or the server has not finished starting.
 */
const DATABASE_DOWN = /database connection failed/;
/** graphiti.ts localServerToken's words: a request to our local server's address held back, unproven. */
const NOT_PROVEN_OURS = /could not prove it is ours/;
const NOT_INITIALIZED = /Graphiti service not initialized/;

/** A server error, or a proxy in front whose server does not answer (502, 503, 504). */
const SERVER_FAILED = new Set(['500', '502', '503', '504']);

/** The next step for an error talking to the server at `config.mcpUrl`, or undefined when there is no better word than the error's own. */
export function nextStepFor(errorText: string, config: Settings): NextStep | undefined {
  if (LOCK_BUSY.test(errorText)) return LOCK_STEP;
  const unwritable = unwritableStep(errorText, config);
  if (unwritable !== undefined) return unwritable;
  if (DATABASE_DOWN.test(errorText)) {
    if (config.mcpUrlSource === 'local-server') return { cause: 'the local Graphiti server runs, but its FalkorDB does not answer', fix: `${commandFor('server restart')} (${commandFor('server logs')} shows why it stopped)` };
    return { cause: 'the Graphiti server runs, but its database (FalkorDB or Neo4j) does not answer', fix: "start that database, or correct the Graphiti server's database settings" };
  }
  if (NOT_INITIALIZED.test(errorText)) return { cause: 'the Graphiti server is still starting', fix: 'wait a few seconds, then run this again' };
  const status = /\bHTTP (\d{3}) from\b/.exec(errorText)?.[1];
  if (status === '404') {
    if (lacksMcpPath(config.mcpUrl)) {
      return { cause: `${displayUrl(config.mcpUrl)} has no /mcp path: the Graphiti MCP server answers at /mcp`, fix: `set ${urlOrigin(config)} to ${withPath(config.mcpUrl, '/mcp')}` };
    }
    return { cause: `nothing serves MCP at ${displayUrl(config.mcpUrl)} (a Graphiti MCP server answers at /mcp; an old SSE-only one at /sse)`, fix: `check the path in ${urlOrigin(config)}` };
  }
  if (status === '421') {
    // The error's own message explains the Host check; here only what to do.
    return { cause: 'the server is running but refuses this Host header (DNS-rebinding protection)', fix: 'connect through http://localhost:<port>/mcp or http://127.0.0.1:<port>/mcp (an SSH tunnel from another machine), see docs/troubleshooting.md "421"' };
  }
  if (status === '401' || status === '403') {
    const runtime = readRuntime(config.stateDir);
    // Our local server's front: our client sends its token only while the server is up and proven.
    if (runtime?.url !== undefined && sameUrl(runtime.url, config.mcpUrl)) {
      if (runtime.state === 'ready' && ourProcess(runtime, 'supervisor')) return { cause: 'the local Graphiti server was stopped or restarted during the run', fix: 'run the sync again (nothing was lost: what was not sent is still pending)' };
      return localServerStep(runtime);
    }
    return { cause: `${displayUrl(config.mcpUrl)} refuses us without valid authorization`, fix: `set MADEINOZ_KNOWLEDGE_AUTH_TOKEN to the token that server requires` };
  }
  if (status !== undefined && SERVER_FAILED.has(status)) {
    if (config.mcpUrlSource === 'local-server') return { cause: `the local Graphiti server failed the request (HTTP ${status})`, fix: `${commandFor('server logs')}; nothing was lost: the next sync tries again` };
    return { cause: `${displayUrl(config.mcpUrl)} failed the request (HTTP ${status}${status === '500' ? '' : ': a proxy whose Graphiti server does not answer, or one that is overloaded'})`, fix: "read the Graphiti server's log; nothing was lost: the next sync tries again" };
  }
  if (status !== undefined) return undefined;
  if (NEWER_PROTOCOL.test(errorText)) return { cause: 'the server speaks a newer MCP protocol than this graphiti-memory-sync knows', fix: upgradeStep() };
  if (NOT_GRAPHITI.test(errorText)) {
    return { cause: `something answers at ${displayUrl(config.mcpUrl)}, but not as a Graphiti MCP server`, fix: `set ${urlOrigin(config)} to your Graphiti MCP server's URL (it ends in /mcp)` };
  }
  if (!/ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ETIMEDOUT|Network error|fetch failed|Timed out/i.test(errorText)) return undefined;
  const runtime = readRuntime(config.stateDir);
  if (NOT_PROVEN_OURS.test(errorText)) {
    // graphiti.ts held the request back (ONLY_PROVEN_LOCAL): stopped or restarted, or another program on its port.
    if (runtime !== undefined && !(runtime.state === 'ready' && ourProcess(runtime, 'supervisor'))) return localServerStep(runtime);
    return { cause: "the local Graphiti server's address did not prove it is ours (it restarted, or another program listens there), so nothing was sent", fix: `run the command again; if it says so again, ${commandFor('server restart')} (nothing was lost: what was not sent is still pending)` };
  }
  // The placeholder URL from the example counts as no choice: a local server that was used before is the one to start.
  if (config.mcpUrlSource === 'default' || (config.mcpUrl === DEFAULT_MCP_URL && runtime !== undefined)) {
    if (runtime !== undefined) return localServerStep(runtime);
    return {
      cause: `no Graphiti server is configured, and nothing answers at the default ${displayUrl(config.mcpUrl)}`,
      fix: `run one without Docker: ${commandFor('server start')}; or start yours and set MADEINOZ_KNOWLEDGE_MCP_URL`,
    };
  }
  if (config.mcpUrlSource === 'local-server') {
    // Stopped (or ended) while the command ran: it was up when the command read its URL.
    if (runtime !== undefined && !(runtime.state === 'ready' && ourProcess(runtime, 'supervisor'))) return localServerStep(runtime);
    return { cause: 'the local Graphiti server does not answer', fix: `${commandFor('server status')}, then ${commandFor('server logs')}; ${commandFor('server restart')} starts it again` };
  }
  const path = lacksMcpPath(config.mcpUrl) ? ` (its path should be /mcp: ${withPath(config.mcpUrl, '/mcp')})` : '';
  return { cause: `nothing answers at ${displayUrl(config.mcpUrl)}`, fix: `start the Graphiti server there, or correct ${urlOrigin(config)}${path}` };
}

/** One line: "next step: …" (with the cause when it adds something), for the text reports. */
export function nextStepLine(errorText: string, config: Settings): string | undefined {
  const step = nextStepFor(errorText, config);
  return step === undefined ? undefined : `${step.cause}; next step: ${step.fix}`;
}
