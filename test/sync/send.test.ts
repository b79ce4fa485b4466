import { describe, expect, it } from 'vitest';
import type { GraphitiClient } from '../../src/lib/graphiti/graphiti.js';
import { McpNetworkError, McpToolError } from '../../src/lib/mcp/errors.js';
import type { EpisodeDraft } from '../../src/lib/memory/episode.js';
import type { EpisodeRef, FileRecord } from '../../src/lib/state/state.js';
import { sendable, sendParts, type SendInput } from '../../src/lib/sync/send.js';
import { placementOf, provenBefore, sentPosition } from '../../src/lib/sync/send-order.js';
import type { Outgoing } from '../../src/lib/sync/types.js';
import { nullLogger } from '../../src/lib/util/log.js';
import { cli } from '../../src/lib/util/install-route.js';

const T0 = Date.parse('2026-01-01T00:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString();

function outgoing(id: string, parts = 1, attempts = 0): Outgoing {
  const episodes: EpisodeRef[] = [];
  const drafts = new Map<string, EpisodeDraft>();
  for (let part = 1; part <= parts; part++) {
    const marker = `[gms:${id}:0123456789ab:${part}/${parts}]`;
    episodes.push({ marker, name: `${id} ${part}`, groupId: 'g', part, parts, resends: 0 });
    drafts.set(marker, { name: `${id} ${part}`, body: 'body', source: 'text', sourceDescription: marker, groupId: 'g', referenceTime: new Date(T0).toISOString(), marker, part, parts, redactions: 0, redactionsByKind: {} });
  }
  const record = { id, source: 'pai', kind: 'pai', relPath: `${id}.md`, fileId: id, mtimeMs: 0, size: 0, status: 'pending', episodes, superseded: [], attempts, firstSeenAt: '', updatedAt: '' } as unknown as FileRecord;
  return { record, drafts };
}

/** What the fake ledger was given: `durable` (journal, awaited) or `soon` (journalSoon), each part's sentAt/queuedAt at that moment; `flushed`: flush() calls. */
interface Journaled {
  entries: Array<{ how: 'durable' | 'soon'; parts: Array<{ marker: string; sentAt?: string | undefined; queuedAt?: string | undefined }> }>;
  flushed: number;
}

function journaledNow(): Journaled {
  return { entries: [], flushed: 0 };
}

/** Was `marker` journaled durably as in flight (sent, not yet answered) before now? */
function durablyInFlight(journaled: Journaled, marker: string): boolean {
  return journaled.entries.some((e) => e.how === 'durable' && e.parts.some((p) => p.marker === marker && p.sentAt !== undefined && p.queuedAt === undefined));
}

function input(jobs: Outgoing[], addMemory: (sourceDescription: string) => Promise<void>, journaled: Journaled): SendInput {
  const note = (how: 'durable' | 'soon', records: FileRecord[]) =>
    journaled.entries.push({ how, parts: records.flatMap((r) => r.episodes.map((e) => ({ marker: e.marker, sentAt: e.sentAt, queuedAt: e.queuedAt }))) });
  return {
    jobs,
    graphiti: { addMemory: (args: { sourceDescription: string }) => addMemory(args.sourceDescription) } as unknown as GraphitiClient,
    ledger: {
      journal: async (records: FileRecord[]) => void note('durable', records),
      journalSoon: (records: FileRecord[]) => void note('soon', records),
      flush: async () => void journaled.flushed++,
    },
    concurrency: 1,
    now: () => T0,
    logger: nullLogger,
    serverReachable: true,
  };
}

describe('the send phase (sync/send.ts)', () => {
  it('each part gets its send order as its request is handed over, not as its send starts: one held back (a retry\'s back-off) stands behind those that went out meanwhile', async () => {
    const journaled = journaledNow();
    const jobs = [outgoing('a'), outgoing('b'), outgoing('c')];
    const handed: string[] = [];
    let others!: () => void;
    const othersOut = new Promise<void>((resolve) => (others = resolve));
    const graphiti = {
      addMemory: async ({ sourceDescription }: { sourceDescription: string }, _signal: AbortSignal | undefined, onDispatch: () => void) => {
        // The first part's first attempt fails and goes out again after the part another lane sends meanwhile.
        if (sourceDescription.includes(':a:')) await othersOut;
        onDispatch();
        handed.push(sourceDescription);
        others();
        return { queued: true, message: 'queued' };
      },
    } as unknown as GraphitiClient;
    // One millisecond for the whole send: the send times cannot tell the order.
    // Two lanes: the first sends a, then b; the second c, which goes out while a is held back.
    await sendParts({ ...input(jobs, async () => undefined, journaled), graphiti, concurrency: 2 });
    const [a, b, c] = jobs.map((j) => j.record.episodes[0] as EpisodeRef) as [EpisodeRef, EpisodeRef, EpisodeRef];
    expect(handed.map((d) => d.slice(5, 7))).toEqual(['c:', 'a:', 'b:']);
    expect([a.sentAt, b.sentAt, c.sentAt]).toEqual([iso(T0), iso(T0), iso(T0)]);
    expect(c.sendOrder).toBeLessThan(a.sendOrder as number);
    expect(a.sendOrder).toBeLessThan(b.sendOrder as number);
    // Where each stands in the queue's order: in T0's millisecond, c before a before b.
    expect([c, a, b].map(sentPosition)).toEqual([c, a, b].map(sentPosition).sort((x, y) => x - y));
    expect(new Set([a, b, c].map(sentPosition)).size).toBe(3);
    expect(Math.floor(sentPosition(c))).toBe(T0);
  });


  it('each reply gets its place among the hand-offs (PROVEN_ORDER): one answered before the next went out is proven ahead of it, within one millisecond too; two out at once are not', async () => {
    const journaled = journaledNow();
    // One lane: a, then b, each handed over after the reply before it, all in T0's millisecond.
    const inTurn = [outgoing('a'), outgoing('b')];
    const graphiti = {
      addMemory: async (_args: unknown, _signal: AbortSignal | undefined, onDispatch: () => void) => {
        onDispatch();
        return { queued: true, message: 'queued' };
      },
    } as unknown as GraphitiClient;
    await sendParts({ ...input(inTurn, async () => undefined, journaled), graphiti, concurrency: 1 });
    const [a, b] = inTurn.map((j) => j.record.episodes[0] as EpisodeRef) as [EpisodeRef, EpisodeRef];
    expect([a.queuedAt, b.queuedAt]).toEqual([iso(T0), iso(T0)]);
    expect(provenBefore(placementOf(a), placementOf(b))).toBe(true);
    expect(provenBefore(placementOf(b), placementOf(a))).toBe(false);
    // Two lanes whose requests are out together (each handed over before either reply): unordered either way.
    let both!: () => void;
    const bothOut = new Promise<void>((resolve) => (both = resolve));
    const handed: string[] = [];
    const together = [outgoing('c'), outgoing('d'), outgoing('e'), outgoing('f')];
    const held = {
      addMemory: async ({ sourceDescription }: { sourceDescription: string }, _signal: AbortSignal | undefined, onDispatch: () => void) => {
        onDispatch();
        if (handed.push(sourceDescription) === 2) both();
        await bothOut;
        return { queued: true, message: 'queued' };
      },
    } as unknown as GraphitiClient;
    await sendParts({ ...input(together, async () => undefined, journaled), graphiti: held, concurrency: 2 });
    const byMarker = new Map(together.map((j) => [j.record.episodes[0]?.marker, j.record.episodes[0] as EpisodeRef]));
    const [x, y] = handed.slice(0, 2).map((m) => placementOf(byMarker.get(m) as EpisodeRef)) as [ReturnType<typeof placementOf>, ReturnType<typeof placementOf>];
    expect(provenBefore(x, y) || provenBefore(y, x)).toBe(false);
  });

  it('journals each part in flight, on disk, before its add_memory, and its reply with a group commit flushed before it returns', async () => {
    const journaled = journaledNow();
    const inFlightAtSend: boolean[] = [];
    const jobs = [outgoing('a', 2), outgoing('b'), outgoing('c', 3)];
    const result = await sendParts({
      ...input(jobs, async (marker) => void inFlightAtSend.push(durablyInFlight(journaled, marker)), journaled),
      concurrency: 2,
    });
    expect(result).toEqual({ queued: 6, rejected: [], redactionsByKind: {} });
    expect(inFlightAtSend).toEqual([true, true, true, true, true, true]);
    // Every reply was journaled (not awaited one by one) and flushed before the phase returned.
    for (const job of jobs) {
      for (const ref of job.record.episodes) {
        expect(journaled.entries.some((e) => e.how === 'soon' && e.parts.some((p) => p.marker === ref.marker && p.queuedAt !== undefined))).toBe(true);
      }
      expect(job.record.status).toBe('queued');
    }
    expect(journaled.flushed).toBe(1);
  });

  it("sends a file's parts in order from one lane, while other lanes send other files", async () => {
    const journaled = journaledNow();
    const order: string[] = [];
    const jobs = [outgoing('a', 3), outgoing('b', 2), outgoing('c')];
    await sendParts({ ...input(jobs, async (marker) => void order.push(marker), journaled), concurrency: 2 });
    for (const id of ['a', 'b']) {
      const parts = order.filter((m) => m.includes(`:${id}:`));
      expect(parts).toEqual([...parts].sort());
    }
    expect(order).toHaveLength(6);
  });

  it('a lane that stops releases the part it journaled in flight ahead: unsent again, and so journaled', async () => {
    // Every reply lost: the first counts against its part only (ONE_LOST_REPLY), the second stops
    // the lane while the third is reserved ahead.
    const journaled = journaledNow();
    const first = outgoing('a');
    const second = outgoing('b');
    const third = outgoing('c');
    const result = await sendParts(input([first, second, third], async () => {
      throw new McpNetworkError('socket hang up', 'ECONNRESET'); // may have arrived: stays in flight
    }, journaled));
    expect(result.serverDown).toBeInstanceOf(McpNetworkError);
    expect(first.record.episodes[0]?.queuedAt).toBeDefined(); // may have been queued: reconcile decides
    expect(second.record.episodes[0]?.queuedAt).toBeDefined();
    const reserved = third.record.episodes[0] as EpisodeRef;
    expect(durablyInFlight(journaled, reserved.marker)).toBe(true); // it was reserved while the second was out
    expect(reserved.sentAt).toBeUndefined();
    expect(third.record.status).toBe('pending');
    const last = journaled.entries.filter((e) => e.parts.some((p) => p.marker === reserved.marker)).at(-1);
    expect(last?.parts.find((p) => p.marker === reserved.marker)?.sentAt).toBeUndefined();
  });

  it('one lost reply counts against its part only: in flight, and the next parts go out (ONE_LOST_REPLY)', async () => {
    const journaled = journaledNow();
    const files = ['a', 'b', 'c'].map((id) => outgoing(id));
    let calls = 0;
    const result = await sendParts(input(files, async () => {
      if (++calls === 1) throw new McpNetworkError('socket hang up', 'ECONNRESET');
    }, journaled));
    expect(result.serverDown).toBeUndefined();
    expect(calls).toBe(3);
    expect(result.queued).toBe(2);
    expect(files.map((f) => f.record.episodes[0]?.queuedAt !== undefined)).toEqual([true, true, true]);
  });

  it('returns a file rejected for the last time as a problem, and a server gone down as the error that stopped sending', async () => {
    const journaled = journaledNow();
    const rejected = outgoing('r', 1, 2);
    const down = outgoing('d');
    const never = outgoing('n');
    const sent: string[] = [];
    const result = await sendParts(
      input([rejected, down, never], async (marker) => {
        sent.push(marker);
        if (marker.includes(':r:')) throw new McpToolError('add_memory', 'bad episode');
        throw new McpNetworkError('connect ECONNREFUSED', 'ECONNREFUSED');
      }, journaled),
    );
    expect(result.rejected).toEqual([{ id: 'r', reason: 'rejected', message: `Tool add_memory failed: bad episode; once that is fixed, "${cli()} sync --force" sends it again` }]);
    expect(rejected.record.lastError).toBe(result.rejected[0]?.message);
    expect(result.serverDown).toBeInstanceOf(McpNetworkError);
    expect(sent).toHaveLength(2); // nothing more is sent once the server is down
    expect(rejected.record.status).toBe('failed');
    expect(down.record.episodes[0]?.sentAt).toBeUndefined(); // refused: it never arrived, so it is not in flight
    expect(never.record.episodes[0]?.sentAt).toBeUndefined();
  });

  it('sends nothing when the server was already found down, and picks only pending files with unsent parts that may go', async () => {
    const job = outgoing('a');
    const result = await sendParts({ ...input([job], async () => expect.fail('sent while down'), journaledNow()), serverReachable: false });
    expect(result).toEqual({ queued: 0, rejected: [], redactionsByKind: {} });
    const held = outgoing('h');
    const failed = outgoing('f');
    failed.record.status = 'failed';
    const map = new Map([job, held, failed].map((o) => [o.record.id, o]));
    expect(sendable(map, (r) => r.id !== 'h', undefined).map((o) => o.record.id)).toEqual(['a']);
    expect(sendable(map, () => true, 1).map((o) => o.record.id)).toEqual(['a']);
  });
});
