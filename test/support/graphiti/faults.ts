/**
 * What the test server does wrong on purpose: injected faults (HTTP 503/429, resets, lost sessions,
 * hangs, dropped episodes, queue errors, lost replies, a proxy's 502/504), random from a seed or one-shot, and the real
 * servers' quirks (startup errors, the initialize race, old servers' gating, the Host check).
 * The random sequence is a pure function of (seed, order of eligible requests).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isJSONRPCNotification, isJSONRPCRequest, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { mulberry32 } from '../prng.js';
import type { HttpLog, ToolCallLog } from './api.js';
import type { ServerCore } from './core.js';
import { sendPlain, sendSessionNotFound } from './framing.js';
import type { FaultKind, GraphitiServerOptions, Resolved } from './options.js';
import type { Session } from './sessions.js';

/** Faults applied once the request was processed: what the client gets instead of the reply. */
export const AFTER_PROCESSING = ['lostReply', 'forwarded502', 'forwarded504'] as const satisfies readonly FaultKind[];
export type AfterProcessing = (typeof AFTER_PROCESSING)[number];
/** One-shot faults that wait for the next add_memory call (whatever other calls come first). */
const FOR_ADD_MEMORY: readonly FaultKind[] = ['drop', 'queueError', 'unforwarded502', ...AFTER_PROCESSING];

/** A proxy's answer in place of the processed request's reply (nginx's words), or undefined: the connection is cut. */
export function afterProcessingAnswer(kind: AfterProcessing): { status: number; text: string } | undefined {
  if (kind === 'forwarded502') return { status: 502, text: '<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>' };
  if (kind === 'forwarded504') return { status: 504, text: '<html><head><title>504 Gateway Time-out</title></head><body><center><h1>504 Gateway Time-out</h1></center><hr><center>nginx</center></body></html>' };
  return undefined;
}

/** The random faults and the one-shot ones still to come, and the quirks' counters. */
export class FaultPlan {
  private faultRng: () => number;
  private dropRng: () => number;
  private oneShot: Array<{ kind: FaultKind; count: number }> = [];
  /** `dropNames` entries already used (each drops one episode). */
  private readonly droppedNames = new Set<string>();
  private startupRemaining: number;
  /** Sessions still to be hit by a numeric initRace. */
  private initRaceRemaining: number;

  /**
   * Eligible requests the random schedule has met since the faults were last set (its position): a
   * run's work, not its speed, says how far it got, so a test can keep faults on until the schedule
   * has met enough requests (soak-scenarios.ts `faultRequests`).
   */
  private met = 0;

  constructor(
    opts: Resolved,
    /** Told the schedule's new position after each eligible request. */
    private readonly onMet: (met: number) => void = () => undefined,
  ) {
    [this.faultRng, this.dropRng] = seeded(opts);
    this.startupRemaining = opts.startupErrors;
    this.initRaceRemaining = typeof opts.initRace === 'number' ? opts.initRace : 0;
  }

  /** setOptions: new `faults` re-seed; new startupErrors / numeric initRace re-arm. */
  optionsChanged(opts: Resolved, patch: Partial<GraphitiServerOptions>): void {
    if (patch.faults) {
      [this.faultRng, this.dropRng] = seeded(opts);
      this.met = 0;
    }
    if (patch.startupErrors !== undefined) this.startupRemaining = patch.startupErrors;
    if (typeof patch.initRace === 'number') this.initRaceRemaining = patch.initRace;
  }

  /** A restart re-arms the startup errors. */
  restarted(opts: Resolved): void {
    this.startupRemaining = opts.startupErrors;
  }

  /** The schedule's position: eligible requests met since the faults were last set. */
  get scheduleMet(): number {
    return this.met;
  }

  failNext(kind: FaultKind, count = 1): void {
    if (count > 0) this.oneShot.push({ kind, count });
  }

  /** An HTTP-level fault for this POST, if any. `hasSession: false` (an initialize): a session cannot be lost before it exists, as on a real server. */
  pick(opts: Resolved, rpcMethod: string | undefined, hasSession = true): FaultKind | undefined {
    const f = opts.faults;
    const methods = f.methods ?? ['tools/call'];
    if (rpcMethod === undefined || !(methods.includes('*') || methods.includes(rpcMethod))) return undefined;
    this.met += 1;
    this.onMet(this.met);
    const shot = this.oneShot.find(
      (s) => !FOR_ADD_MEMORY.includes(s.kind) && (hasSession || s.kind !== 'sessionLoss') && s.count > 0,
    );
    if (shot) {
      this.consume(shot);
      return shot.kind;
    }
    const rates: Array<[FaultKind, number]> = [
      ['http503', f.rate503 ?? 0],
      ['http429', f.rate429 ?? 0],
      ['reset', f.rateReset ?? 0],
      ['sessionLoss', f.rateSessionLoss ?? 0],
      ['hang', f.rateHang ?? 0],
    ];
    if (rates.every(([, r]) => r <= 0)) return undefined;
    const r = this.faultRng();
    let acc = 0;
    for (const [kind, rate] of rates) {
      acc += rate;
      if (r < acc) return kind === 'sessionLoss' && !hasSession ? undefined : kind;
    }
    return undefined;
  }

  /** A one-shot 'unforwarded502' for this add_memory call: answered before it is processed. */
  takeBeforeAddMemory(message: JSONRPCMessage): 'unforwarded502' | undefined {
    return isAddMemory(message) && this.takeOneShot('unforwarded502') ? 'unforwarded502' : undefined;
  }

  /** A one-shot fault that lets the request be processed first ('lostReply', 'forwarded502/504') applies to the next add_memory call (like 'drop' and 'queueError'). */
  takeAfterProcessing(message: JSONRPCMessage): AfterProcessing | undefined {
    if (!isAddMemory(message)) return undefined;
    return AFTER_PROCESSING.find((kind) => this.takeOneShot(kind));
  }

  /** A one-shot 'queueError': this add_memory answers `{"error":"Error queuing episode: …"}`. */
  takeQueueError(): boolean {
    return this.takeOneShot('queueError');
  }

  /** Whether this queued episode is silently dropped by the worker (one-shot first, then `dropNames`, then `dropRate`). */
  decideDrop(opts: Resolved, name: string): boolean {
    if (this.takeOneShot('drop')) return true;
    const named = opts.faults.dropNames?.find((n) => name.includes(n) && !this.droppedNames.has(n));
    if (named !== undefined) {
      this.droppedNames.add(named);
      return true;
    }
    const rate = opts.faults.dropRate ?? 0;
    return rate > 0 && this.dropRng() < rate;
  }

  /** Whether the next tool call answers "not initialized" (the first `startupErrors` calls after a start). */
  takeStartupError(): boolean {
    if (this.startupRemaining <= 0) return false;
    this.startupRemaining -= 1;
    return true;
  }

  /** Whether a new session gets the initRace -32602 on its first request. */
  armInitRace(opts: Resolved): boolean {
    if (opts.initRace === true) return true;
    if (typeof opts.initRace === 'number' && this.initRaceRemaining > 0) {
      this.initRaceRemaining -= 1;
      return true;
    }
    return false;
  }

  private takeOneShot(kind: FaultKind): boolean {
    const shot = this.oneShot.find((s) => s.kind === kind && s.count > 0);
    if (!shot) return false;
    this.consume(shot);
    return true;
  }

  private consume(shot: { count: number }): void {
    shot.count -= 1;
    this.oneShot = this.oneShot.filter((s) => s.count > 0);
  }
}

function isAddMemory(message: JSONRPCMessage): boolean {
  const m = message as { method?: string; params?: { name?: string } };
  return m.method === 'tools/call' && ['add_memory', 'add_episode'].includes(m.params?.name ?? '');
}

function seeded(opts: Resolved): [() => number, () => number] {
  const seed = opts.faults.seed ?? 1;
  return [mulberry32(seed), mulberry32(seed ^ 0x5bd1e995)];
}

/** Answers a POST with the picked HTTP-level fault (logged in `http`, and in `calls` for a tools/call). */
export function applyFault(core: ServerCore, kind: FaultKind, req: IncomingMessage, res: ServerResponse, entry: HttpLog, session: Session | undefined, message: JSONRPCMessage): void {
  entry.fault = kind;
  logRejectedCall(core, message, session?.id, kind);
  switch (kind) {
    case 'http503':
      return sendPlain(res, 503, 'Service Unavailable');
    case 'http502':
    case 'unforwarded502':
      return sendPlain(res, 502, '<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>', { 'content-type': 'text/html' });
    case 'http429':
      return sendPlain(res, 429, 'Too Many Requests', { 'retry-after': String(core.opts.faults.retryAfterSeconds ?? 1) });
    case 'reset':
      req.socket.destroy();
      return;
    case 'sessionLoss':
      if (session) core.sessions.lose(session);
      if (session?.kind === 'sse') return sendPlain(res, 404, 'Could not find session');
      return sendSessionNotFound(res, core.legacySessionErrors());
    case 'hang':
      core.hung.add(res);
      res.on('close', () => core.hung.delete(res));
      return;
    case 'drop':
    case 'queueError':
    case 'lostReply':
    case 'forwarded502':
    case 'forwarded504':
      // Applied while handling the request (decideDrop, callTool, the streamable POST), never here.
      return;
  }
}

/** A tools/call that never reached its tool still shows in `calls`, with the outcome the client got. */
function logRejectedCall(core: ServerCore, message: JSONRPCMessage, sessionId: string | undefined, outcome: ToolCallLog['outcome'], result?: string): void {
  if (!isJSONRPCRequest(message) || message.method !== 'tools/call') return;
  const params = (message.params ?? {}) as { name?: unknown; arguments?: unknown };
  core.logCall({
    at: Date.now(),
    tool: typeof params.name === 'string' ? params.name : '',
    args: (params.arguments ?? {}) as Record<string, unknown>,
    sessionId,
    rpcId: message.id,
    outcome,
    ...(result !== undefined ? { result } : {}),
  });
}

/** DNS-rebinding protection (mcp ≥ 1.23, `restrictHost`): is the Host header allowed? */
export function hostAllowed(opts: Resolved, req: IncomingMessage): boolean {
  if (!opts.restrictHost) return true;
  const host = req.headers.host;
  if (!host) return false;
  return opts.allowedHosts.some((p) => {
    if (p.endsWith(':*')) {
      const base = p.slice(0, -1);
      return host.startsWith(base) && /^\d+$/.test(host.slice(base.length));
    }
    return host === p;
  });
}

/**
 * old-server gating and initRace, in front of the SDK Server: a request
 * (other than initialize/ping) before `notifications/initialized` (oldServer),
 * or the first one after it (initRace), gets -32602 `Invalid request parameters`.
 */
export function gateMessages(
  core: ServerCore,
  session: Session,
  transport: { onmessage?: ((m: JSONRPCMessage, extra?: never) => void) | undefined; send(m: JSONRPCMessage): Promise<void> },
): void {
  const inner = transport.onmessage;
  transport.onmessage = ((message: JSONRPCMessage, extra?: never) => {
    if (isJSONRPCNotification(message) && message.method === 'notifications/initialized') session.initialized = true;
    if (isJSONRPCRequest(message) && message.method !== 'initialize' && message.method !== 'ping') {
      let reject = core.opts.oldServer && !session.initialized;
      if (!reject && session.initialized && session.raceArmed) {
        session.raceArmed = false;
        reject = true;
      }
      if (reject) {
        logRejectedCall(core, message, session.id, 'error', 'Invalid request parameters');
        void transport.send({ jsonrpc: '2.0', id: message.id, error: { code: -32602, message: 'Invalid request parameters', data: '' } }).catch(() => undefined);
        return;
      }
    }
    inner?.(message, extra);
  }) as typeof transport.onmessage;
}
