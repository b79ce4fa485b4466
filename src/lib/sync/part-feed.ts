/**
 * Hands the send phase's parts to its lanes. A lane takes a whole file and sends its parts in
 * order, one at a time (a file's parts reach the server's queue in order), then takes the next
 * file in the outbox's order. A lane may take its next part before the current one's reply, so
 * that the next part's in-flight record is written while the current request is out (send.ts).
 */
import type { EpisodeDraft } from '../memory/episode.js';
import type { EpisodeRef } from '../state/state.js';
import type { Outgoing } from './types.js';

export interface FeedPart {
  job: Outgoing;
  ref: EpisodeRef;
  draft: EpisodeDraft;
  /** The file's last part to send this run: once it is answered, the file is done. */
  last: boolean;
}

export class PartFeed {
  private nextJob = 0;

  /** `onNothingToSend`: a file taken whose parts were all sent already (or have no body): done at once. */
  constructor(
    private readonly jobs: readonly Outgoing[],
    private readonly onNothingToSend: (job: Outgoing) => void,
  ) {}

  /** A new lane's cursor into the feed. */
  lane(): FeedLane {
    return new FeedLane(() => this.takeFile());
  }

  /** The parts (unsent, with a body) of the next file that has any, in order. */
  private takeFile(): FeedPart[] | undefined {
    while (this.nextJob < this.jobs.length) {
      const job = this.jobs[this.nextJob++] as Outgoing;
      const refs = job.record.episodes.filter((ref) => ref.sentAt === undefined && job.drafts.has(ref.marker));
      if (refs.length === 0) {
        this.onNothingToSend(job);
        continue;
      }
      return refs.map((ref, i) => ({ job, ref, draft: job.drafts.get(ref.marker) as EpisodeDraft, last: i === refs.length - 1 }));
    }
    return undefined;
  }
}

/** One lane's place in the feed: the parts of its current file still to take. */
export class FeedLane {
  private parts: FeedPart[] = [];

  constructor(private readonly takeFile: () => FeedPart[] | undefined) {}

  /** The rest of the lane's file, else the next file's first part; undefined when the feed is empty. */
  take(): FeedPart | undefined {
    if (this.parts.length === 0) this.parts = this.takeFile() ?? [];
    return this.parts.shift();
  }
}
