import { describe, expect, it } from 'vitest';
import type { GraphitiClient } from '../../src/lib/graphiti/graphiti.js';
import { McpNetworkError, McpToolError } from '../../src/lib/mcp/errors.js';
import type { EpisodeDraft } from '../../src/lib/memory/episode.js';
import type { EpisodeRef, FileRecord } from '../../src/lib/state/state.js';
import { sendable, sendParts, type SendInput } from '../../src/lib/sync/send.js';
import type { Outgoing } from '../../src/lib/sync/types.js';
import { nullLogger } from '../../src/lib/util/log.js';

const T0 = Date.parse('2026-01-01T00:00:00Z');

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

function input(jobs: Outgoing[], addMemory: (sourceDescription: string) => Promise<void>, journaled: Array<Array<string | undefined>>): SendInput {
  return {
    jobs,
    graphiti: { addMemory: (args: { sourceDescription: string }) => addMemory(args.sourceDescription) } as unknown as GraphitiClient,
    ledger: { journal: async (records: FileRecord[]) => void journaled.push(records.flatMap((r) => r.episodes.map((e) => e.sentAt))) },
    concurrency: 1,
    now: () => T0,
    logger: nullLogger,
    serverReachable: true,
  };
}

describe('the send phase (sync/send.ts)', () => {
  it('journals each part in flight before its add_memory and again after; returns how many were queued', async () => {
    const journaled: Array<Array<string | undefined>> = [];
    const seenAtSend: number[] = [];
    const job = outgoing('a', 2);
    const result = await sendParts(input([job], async () => void seenAtSend.push(journaled.length), journaled));
    expect(result).toEqual({ queued: 2, rejected: [] });
    // Part 1 is journaled in flight (1 entry) before it goes; part 2 after part 1's reply and its own in-flight entry (3).
    expect(seenAtSend).toEqual([1, 3]);
    expect(journaled[0]).toEqual([new Date(T0).toISOString(), undefined]);
    expect(job.record.episodes.every((e) => e.queuedAt !== undefined)).toBe(true);
  });

  it('returns a file rejected for the last time as a problem, and a server gone down as the error that stopped sending', async () => {
    const journaled: Array<Array<string | undefined>> = [];
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
    expect(result.rejected).toEqual([{ id: 'r', reason: 'rejected', message: 'Tool add_memory failed: bad episode' }]);
    expect(result.serverDown).toBeInstanceOf(McpNetworkError);
    expect(sent).toHaveLength(2); // nothing more is sent once the server is down
    expect(rejected.record.status).toBe('failed');
    expect(down.record.episodes[0]?.sentAt).toBeUndefined(); // refused: it never arrived, so it is not in flight
    expect(never.record.episodes[0]?.sentAt).toBeUndefined();
  });

  it('sends nothing when the server was already found down, and picks only pending files with unsent parts that may go', async () => {
    const job = outgoing('a');
    const result = await sendParts({ ...input([job], async () => expect.fail('sent while down'), []), serverReachable: false });
    expect(result).toEqual({ queued: 0, rejected: [] });
    const held = outgoing('h');
    const failed = outgoing('f');
    failed.record.status = 'failed';
    const map = new Map([job, held, failed].map((o) => [o.record.id, o]));
    expect(sendable(map, (r) => r.id !== 'h', undefined).map((o) => o.record.id)).toEqual(['a']);
    expect(sendable(map, () => true, 1).map((o) => o.record.id)).toEqual(['a']);
  });
});
