/**
 * The state every part of the test server shares: the effective options, the graph store, the
 * sessions, the fault plan, the logs tests assert on, and the requests held open by a 'hang'.
 * One object, so the router, the legacy SSE channel, the tool handlers and the faults read the
 * same options at the moment they act (setOptions takes effect on the next request).
 */
import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import type { HttpLog, ToolCallLog } from './api.js';
import { FaultPlan } from './faults.js';
import { InFlightReorder } from './in-flight-order.js';
import type { Latency } from './framing.js';
import { patchOptions, resolveOptions, type GraphitiServerOptions, type Resolved } from './options.js';
import { SessionTable } from './sessions.js';
import { GraphitiStore } from './store.js';
import type { ToolConfig } from './tool-catalog.js';

const VERSIONS_NEW = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'];
const VERSIONS_OLD = ['2024-11-05', '2025-03-26'];

export class ServerCore {
  readonly calls: ToolCallLog[] = [];
  readonly http: HttpLog[] = [];
  readonly events = new EventEmitter();
  readonly sessions = new SessionTable();
  readonly store: GraphitiStore;
  readonly faults: FaultPlan;
  /** add_memory calls in flight together, taken in another order (in-flight-order.ts). */
  readonly reorder = new InFlightReorder();
  /** Requests held open by a 'hang' fault (destroyed by restart/stop). */
  readonly hung = new Set<ServerResponse>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private current: Resolved;

  constructor(
    options: GraphitiServerOptions,
    /** The listening port (0 until listening). */
    public port: number,
  ) {
    this.events.setMaxListeners(0);
    this.current = resolveOptions(options);
    this.faults = new FaultPlan(this.current, (met) => this.events.emit('fault-schedule', met));
    this.store = new GraphitiStore(
      () => ({
        db: this.opts.db,
        processingDelayMs: this.opts.processingDelayMs,
        maxFactsPerEpisode: this.opts.maxFactsPerEpisode,
        maxNodesPerEpisode: this.opts.maxNodesPerEpisode,
        extractor: this.opts.extractor,
        clock: this.opts.clock,
        episodeUuid: this.opts.episodeUuid,
      }),
      {
        onProcessed: (p) => this.events.emit('processed', p),
        onFailure: (f) => this.events.emit('failure', f),
      },
    );
  }

  get opts(): Resolved {
    return this.current;
  }

  setOptions(patch: Partial<GraphitiServerOptions>): void {
    this.current = patchOptions(this.current, patch);
    this.faults.optionsChanged(this.current, patch);
  }

  supportedVersions(): string[] {
    return this.opts.oldServer ? VERSIONS_OLD : VERSIONS_NEW;
  }

  legacySessionErrors(): boolean {
    return this.opts.legacySessionErrors || this.opts.oldServer;
  }

  toolConfig(): ToolConfig {
    return {
      legacyToolNames: this.opts.legacyToolNames,
      structuredContent: this.opts.structuredContent && !this.opts.oldServer,
      mainParams: this.opts.mainParams,
      graphPerGroup: this.opts.graphPerGroup,
      clearGraphTakesNoGroups: this.opts.clearGraphTakesNoGroups,
    };
  }

  /** `faults.latencyMs` before handling every POST to an MCP endpoint, read when its body has been read. */
  readonly latency: Latency = { ms: () => this.opts.faults.latencyMs ?? 0, delay: (ms) => this.delay(ms) };

  /** A timer that close() clears, so a closed server leaves nothing pending. */
  delay(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(() => {
        this.timers.delete(t);
        resolve();
      }, ms);
      this.timers.add(t);
    });
  }

  clearTimers(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  /** Keeps a log within `logLimit` (drops the oldest 10% beyond it). */
  trim(log: unknown[]): void {
    const limit = Math.max(1, this.opts.logLimit);
    if (log.length > limit) log.splice(0, log.length - limit + Math.ceil(limit / 10));
  }

  logCall(entry: ToolCallLog): ToolCallLog {
    this.calls.push(entry);
    this.trim(this.calls);
    if (entry.outcome !== 'pending') this.events.emit('call', entry);
    return entry;
  }

  /** Sessions, streams, hung requests and queued episodes are gone; stored data stays. */
  forgetState(): void {
    this.sessions.forgetAll();
    this.destroyHung();
    this.store.queue.dropQueues();
    this.store.lastWrittenGroup = undefined;
  }

  destroyHung(): void {
    for (const res of this.hung) res.destroy();
    this.hung.clear();
  }
}
