/**
 * Requests in flight together, taken by the server in another order than they were sent (sync/send-order.ts
 * PROVEN_ORDER). Graphiti queues an add_memory and replies right after, but which of several concurrent
 * requests its loop reads first is up to the connections: the in-process server, sent 30 at once, took
 * them interleaved with the ones each reply let out. This makes it adversarial and repeatable: the next
 * `count` add_memory calls are taken in groups of `every` as they arrive (the last group what is left),
 * each group held until it is complete and then queued last-arrived first, each answered as it is
 * queued (one for one with the replies, as the real server does). A client that sends `every` at a time
 * then has every group in flight together, in its exact reverse in the queue.
 */
export class InFlightReorder {
  private left = 0;
  private every = 0;
  private held: Array<() => void> = [];

  /** Reorders the next `count` add_memory calls in groups of `every`. */
  arm(every: number, count: number): void {
    this.every = Math.max(1, every);
    this.left = count;
    this.held = [];
  }

  /** Undefined: handle this add_memory at once; else a promise that resolves at its turn. */
  turn(): Promise<void> | undefined {
    if (this.left === 0) return undefined;
    const turn = new Promise<void>((resolve) => this.held.push(resolve));
    this.left--;
    if (this.held.length === this.every || this.left === 0) {
      // Last arrived, first queued: each resolution runs its handler (queue, then reply) in this order.
      const group = this.held.reverse();
      this.held = [];
      for (const release of group) release();
    }
    return turn;
  }
}
