/** Shared helpers for watch-mode integration tests: await the watcher's own events, never sleep. */
import type { SyncSummary } from '../../src/lib/sync/sync.js';
import { emptyCounts } from '../../src/lib/sync/types.js';
import { createWatcher, type PassEvent, type Watcher, type WatcherOptions, type WatchEvent } from '../../src/lib/watch/watch.js';
import type { GraphitiTestServer } from '../support/graphiti-server.js';

/**
 * Watcher timings for tests: short debounce, write-stable wait and back-offs, so a pass follows a
 * change within a few hundred milliseconds (the defaults are for people typing).
 */
export const FAST_WATCH: Partial<WatcherOptions> = {
  debounceMs: 150,
  writeStableMs: 30,
  serverBackoff: { initialMs: 100, maxMs: 400 },
  confirmBackoff: { initialMs: 50, maxMs: 300 },
  lockBackoff: { initialMs: 100, maxMs: 300 },
  lockTimeoutMs: 200,
};

type EventOf<N extends WatchEvent['event']> = Extract<WatchEvent, { event: N }>;

/**
 * Resolves with the first event `name` matching `match` emitted AFTER this call. Call it before
 * triggering the action. Rejects after `timeoutMs` with the events seen meanwhile.
 */
export function nextEvent<N extends WatchEvent['event']>(
  watcher: Watcher,
  name: N,
  match: (e: EventOf<N>) => boolean = () => true,
  timeoutMs = 15_000,
): Promise<EventOf<N>> {
  return new Promise((resolve, reject) => {
    const seen: string[] = [];
    const onEvent = (e: WatchEvent) => {
      if (e.event !== 'phase') seen.push(e.event === 'pass' ? `pass(${e.reason}: +${e.added} ~${e.updated} -${e.deleted} r${e.renamed} q${e.queued} p${e.pending} ok=${e.serverReachable})` : e.event);
      if (e.event === name && match(e as EventOf<N>)) {
        clearTimeout(timer);
        watcher.off('event', onEvent);
        resolve(e as EventOf<N>);
      }
    };
    const timer = setTimeout(() => {
      watcher.off('event', onEvent);
      reject(new Error(`no '${name}' event within ${timeoutMs} ms; saw: ${seen.join(', ') || 'nothing'}`));
    }, timeoutMs);
    watcher.on('event', onEvent);
  });
}

/** Resolves once the watcher has nothing left to do: idle phase, no timer (all confirmed). */
export function whenQuiet(watcher: Watcher, timeoutMs = 15_000): Promise<void> {
  if (watcher.phase === 'idle' && watcher.pendingTimer === undefined && watcher.settling === 0) return Promise.resolve();
  return nextEvent(watcher, 'phase', (e) => e.phase === 'idle', timeoutMs).then(() => undefined);
}

/**
 * Starts a watcher whose passes do nothing (`fakeSummary`), kept in `watchers` for the test's clean-up,
 * and resolves once its initial pass is over and it is quiet.
 */
export async function startQuietWatcher(config: WatcherOptions['config'], watchers: Watcher[], options: Partial<WatcherOptions> = {}): Promise<Watcher> {
  const watcher = createWatcher({ config, ...FAST_WATCH, runPass: async () => fakeSummary(), ...options });
  watchers.push(watcher);
  const initial = nextEvent(watcher, 'pass', (e) => e.reason === 'initial');
  await watcher.start();
  await initial;
  await whenQuiet(watcher);
  return watcher;
}

/** Records every event (pass summaries stripped) for later assertions. */
export function record(watcher: Watcher): WatchEvent[] {
  const events: WatchEvent[] = [];
  watcher.on('event', (e) => events.push(e));
  return events;
}

export function passesOf(events: WatchEvent[]): PassEvent[] {
  return events.filter((e): e is PassEvent => e.event === 'pass');
}

export function toolCalls(server: GraphitiTestServer, tool: string): Array<{ args: Record<string, unknown> }> {
  return server.calls.filter((c) => c.tool === tool);
}

/** An engine summary with every count zero, for fake passes. */
export function fakeSummary(patch: Partial<SyncSummary> = {}): SyncSummary {
  return {
    ...emptyCounts(),
    skipped: 0,
    failed: 0,
    pending: 0,
    queued: 0,
    confirmed: 0,
    awaitingGroup: 0,
    redactions: 0,
    problems: [],
    serverReachable: true,
    dryRun: false,
    ...patch,
  };
}
