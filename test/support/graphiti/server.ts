/**
 * The test server's handle (`GraphitiTestServer`): what tests read (store contents, logs), what
 * they change (options, one-shot faults, processing), and its life (start, stop, restart, close).
 * Requests go to router.ts; the shared state is core.ts.
 */
import { createServer, type Server as HttpServer } from 'node:http';
import type { Socket } from 'node:net';
import type { GraphitiTestServer } from './api.js';
import { handleControl } from './control.js';
import { ServerCore } from './core.js';
import { sendPlain } from './framing.js';
import type { FaultKind, GraphitiServerOptions, Resolved } from './options.js';
import { Router } from './router.js';
import { UvicornKeepAlive } from '../uvicorn-keep-alive.js';
import type { FailureLog, ProcessedLog, StoredEpisode, StoredFact, StoredNode } from './records.js';

export class GraphitiServerImpl implements GraphitiTestServer {
  private readonly core: ServerCore;
  private readonly router: Router;
  private readonly sockets = new Set<Socket>();
  private httpServer: HttpServer | undefined;
  private closed = false;
  /** Kept-alive connections as uvicorn keeps them (options.ts `keepAlive`); one per start. */
  private keepAlive: UvicornKeepAlive | undefined;
  /** Resets by the servers of earlier starts. */
  private earlierResets = 0;

  constructor(options: GraphitiServerOptions, port: number) {
    this.core = new ServerCore(options, port);
    this.router = new Router(this.core, (req, res, url) => handleControl(this, req, res, url));
  }

  get calls(): GraphitiTestServer['calls'] {
    return this.core.calls;
  }
  get http(): GraphitiTestServer['http'] {
    return this.core.http;
  }
  get events(): GraphitiTestServer['events'] {
    return this.core.events;
  }
  get port(): number {
    return this.core.port;
  }
  get url(): string {
    return `http://127.0.0.1:${this.core.port}${this.core.opts.reverseRedirect ? '/mcp/' : '/mcp'}`;
  }
  get sseUrl(): string {
    return `http://127.0.0.1:${this.core.port}/sse`;
  }
  get options(): Readonly<Resolved> {
    return this.core.opts;
  }
  get failures(): FailureLog[] {
    return this.core.store.failures;
  }
  get processed(): ProcessedLog[] {
    return this.core.store.processed;
  }
  get pendingEpisodes(): number {
    return this.core.store.queue.pendingCount;
  }
  get keepAliveResets(): number {
    return this.earlierResets + (this.keepAlive?.resets ?? 0);
  }

  setOptions(patch: Partial<GraphitiServerOptions>): void {
    this.core.setOptions(patch);
  }

  episodes(groupId?: string): StoredEpisode[] {
    return [...this.core.store.episodes.values()].filter((e) => groupId === undefined || e.group_id === groupId).map((e) => ({ ...e }));
  }
  facts(groupId?: string): StoredFact[] {
    return [...this.core.store.facts.values()].filter((f) => groupId === undefined || f.group_id === groupId).map((f) => ({ ...f, episodes: [...f.episodes] }));
  }
  nodes(groupId?: string): StoredNode[] {
    return [...this.core.store.nodes.values()].filter((n) => groupId === undefined || n.group_id === groupId).map((n) => ({ ...n, labels: [...n.labels] }));
  }
  seedEpisode(partial: Partial<StoredEpisode> & { name: string; content: string }, options?: { extract?: boolean }): StoredEpisode {
    return this.core.store.seedEpisode({ group_id: this.core.opts.groupId, ...partial }, options);
  }
  seedFact(partial: Partial<StoredFact> & { fact: string }): StoredFact {
    return this.core.store.seedFact({ group_id: this.core.opts.groupId, ...partial });
  }
  seedNode(partial: Partial<StoredNode> & { name: string }): StoredNode {
    return this.core.store.seedNode({ group_id: this.core.opts.groupId, ...partial });
  }

  sessionIds(): string[] {
    return this.core.sessions.ids();
  }

  get faultScheduleMet(): number {
    return this.core.faults.scheduleMet;
  }

  whenFaultScheduleMet(requests: number): Promise<void> {
    if (this.core.faults.scheduleMet >= requests) return Promise.resolve();
    return new Promise((resolve) => {
      const listener = (met: number) => {
        if (met < requests) return;
        this.core.events.off('fault-schedule', listener);
        resolve();
      };
      this.core.events.on('fault-schedule', listener);
    });
  }

  failNext(kind: FaultKind, count = 1): void {
    this.core.faults.failNext(kind, count);
  }
  reorderInFlight(every: number, count: number): void {
    this.core.reorder.arm(every, count);
  }


  dropSseStreams(): number {
    return this.core.sessions.dropSseStreams();
  }

  expireIdleSessions(): number {
    return this.core.sessions.expireStreamable();
  }

  clearLogs(): void {
    this.core.calls.length = 0;
    this.core.http.length = 0;
    this.core.store.failures.length = 0;
    this.core.store.processed.length = 0;
  }

  moveToGroup(group: string | undefined): void {
    this.core.store.lastWrittenGroup = group;
  }

  whenIdle(): Promise<void> {
    return this.core.store.queue.whenIdle();
  }

  pauseProcessing(): void {
    this.core.store.queue.pause();
  }

  resumeProcessing(): void {
    this.core.store.queue.resume();
  }

  async restart(options: { data?: 'kept' | 'lost' } = {}): Promise<void> {
    this.core.forgetState();
    if (options.data === 'lost') this.core.store.clearGroups(this.core.store.groupIds());
    this.core.faults.restarted(this.core.opts);
  }

  async stop(options: { keepState?: boolean } = {}): Promise<void> {
    if (!options.keepState) this.core.forgetState();
    this.core.destroyHung();
    const srv = this.httpServer;
    this.httpServer = undefined;
    if (!srv) return;
    await new Promise<void>((resolve) => {
      srv.close(() => resolve());
      for (const s of this.sockets) s.destroy();
      this.sockets.clear();
    });
  }

  async start(): Promise<void> {
    if (this.closed) throw new Error('server closed');
    if (this.httpServer) return;
    const srv = createServer((req, res) => {
      if (!keepAlive.admit(req, res)) return;
      void this.router.handle(req, res).catch(() => {
        if (!res.headersSent) sendPlain(res, 500, 'Internal Server Error');
        else res.destroy();
      });
    });
    this.earlierResets += this.keepAlive?.resets ?? 0;
    const keepAlive = new UvicornKeepAlive(srv, () => this.core.opts.keepAlive);
    this.keepAlive = keepAlive;
    srv.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      srv.once('error', reject);
      srv.listen(this.core.port, '127.0.0.1', () => {
        srv.off('error', reject);
        resolve();
      });
    });
    const addr = srv.address();
    if (addr && typeof addr === 'object') this.core.port = addr.port;
    this.httpServer = srv;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.stop();
    this.closed = true;
    this.core.store.queue.dropQueues();
    this.core.clearTimers();
    this.core.events.removeAllListeners();
  }
}
