/** The group pace rules (sync/pace.ts) as pure functions: listing sizes, samples, back-off. */
import { describe, expect, it } from 'vitest';
import type { Episode } from '../../src/lib/graphiti/graphiti.js';
import type { GroupPace } from '../../src/lib/state/state.js';
import type { SyncState } from '../../src/lib/state/state.js';
import { canSample, firstCap, MAX_LISTING, MIN_LISTING, nextCap, nextPace, paceOf, patienceMs, sampleCap, sampleDue, SAMPLE_MIN_GROUP, skewOf, stepOf, type GroupListing } from '../../src/lib/sync/pace.js';
import { afterSend, paceAfterListing, predictDone } from '../../src/lib/sync/schedule.js';
import { oneAtATime } from '../support/busy-queue.js';

const T0 = Date.parse('2026-03-01T12:00:00.000Z');
const ep = (uuid: string, createdMs: number): Episode => ({ uuid, name: uuid, content: '', created_at: new Date(createdMs).toISOString(), source: 'text', source_description: '', group_id: 'g' });
const listing = (episodes: Episode[], complete = true): GroupListing => ({ episodes, complete, requests: 1, listed: episodes.length });

describe('group pace', () => {
  it('lists a group of unknown size in full at once; a known size is covered in one request with room to grow', () => {
    expect(firstCap({}, 3)).toBe(MAX_LISTING);
    expect(nextCap(200)).toBe(800);
    expect(firstCap({ size: 50_000 }, 20)).toBeGreaterThan(55_000);
    expect(firstCap({ size: 10 }, 1)).toBe(MIN_LISTING);
  });

  it('measures one episode’s processing from two of ours started back to back, whatever the server clock says', () => {
    for (const skew of [0, -7_200_000, 3_600_000]) {
      // Ours A and B queued 5 ms apart; A started at once, B waited for A's 400 ms of processing.
      const a = ep('a', T0 + skew);
      const b = ep('b', T0 + 400 + skew);
      const foreign = ep('f', T0 - 60_000 + skew);
      const pace = nextPace({ previous: {}, listing: listing([foreign, a, b]), now: T0 + 60_000, sightings: [{ queuedAt: T0, episode: a }, { queuedAt: T0 + 5, episode: b }], stillWaiting: 0, progress: true });
      expect(pace.stepsMs).toEqual([400]);
      expect(pace.size).toBe(3);
      // A lone episode after idle time says nothing about processing.
      const lone = nextPace({ previous: {}, listing: listing([foreign, a]), now: T0 + 60_000, sightings: [{ queuedAt: T0, episode: a }], stillWaiting: 0, progress: true });
      expect(lone.stepsMs).toBeUndefined();
      expect(lone.appearMs).toEqual([60_000]);
    }
  });

  it('backs off while ours stay unseen, starts over on progress, and stops when nothing waits', () => {
    const after = (previous: GroupPace, now: number, stillWaiting: number, progress: boolean) => paceAfterListing({ previous, listing: listing([]), now, sightings: [], stillWaiting, progress });
    let pace = after({ stepsMs: Array(8).fill(2_000) }, T0, 1, false);
    expect(pace.nextListingAt).toBe(T0 + 3_000); // one part left: one processing time and a half
    pace = after(pace, T0 + 3_000, 1, false);
    expect(pace.backoffMs).toBe(4_000);
    for (let i = 0; i < 20; i++) pace = after(pace, T0, 1, false);
    expect(pace.backoffMs).toBe(5 * 60_000);
    pace = after(pace, T0, 1, true);
    expect(pace.backoffMs).toBeUndefined();
    expect(pace.nextListingAt).toBe(T0 + 3_000);
    pace = after(pace, T0, 0, true);
    expect(pace.nextListingAt).toBeUndefined();
  });

  it('patience: the configured maximum until the group was seen moving', () => {
    expect(patienceMs({}, 1_800_000)).toBe(1_800_000);
    expect(patienceMs({ appearMs: [60_000] }, 1_800_000)).toBe(240_000);
    expect(patienceMs({ stepsMs: [100], appearMs: [60_000] }, 1_800_000)).toBe(10_000);
  });

  it('a sample is a tenth of a busy group; a small group is never sampled', () => {
    expect(sampleCap(10_200)).toBe(1_020);
    expect(sampleCap(2_000)).toBe(MIN_LISTING);
    expect(canSample({ size: SAMPLE_MIN_GROUP })).toBe(true);
    expect(canSample({ size: SAMPLE_MIN_GROUP - 1 })).toBe(false);
    expect(canSample({})).toBe(false);
  });

  it('a sample gives the pace from two of ours over the parts queued between them, and where the queue stands', () => {
    // Twenty of ours queued 10 ms apart; the worker takes 1 s each. A sample shows the 4th and the 14th.
    const queuedAt = Array.from({ length: 20 }, (_, i) => T0 + i * 10);
    const sighting = (i: number, startedAt: number) => ({ queuedAt: queuedAt[i] as number, episode: ep(`u${i}`, startedAt) });
    const sample = (episodes: Episode[]): GroupListing => ({ episodes, complete: false, sample: true, requests: 1, listed: 1_020 });
    let pace = nextPace({ previous: { size: 10_200 }, listing: sample([ep('u3', T0 + 3_000), ep('u13', T0 + 13_000)]), now: T0 + 15_000, sightings: [sighting(3, T0 + 3_000), sighting(13, T0 + 13_000)], stillWaiting: 18, progress: true, placed: oneAtATime(queuedAt) });
    // Ten parts from the 4th to the 14th: ten samples of one second (the first one seen has no earlier head).
    expect(pace.stepsMs).toEqual(Array(10).fill(1_000));
    expect(pace).toMatchObject({ headAt: T0 + 13_000, headSentAt: queuedAt[13], size: 10_200 });
    // The next sample shows the 18th: four parts since the head, 1.1 s each.
    pace = nextPace({ previous: pace, listing: sample([ep('u17', T0 + 17_400)]), now: T0 + 18_000, sightings: [sighting(17, T0 + 17_400)], stillWaiting: 2, progress: true, placed: oneAtATime(queuedAt) });
    expect(pace.stepsMs?.slice(-4)).toEqual(Array(4).fill(1_100));
    expect(pace.headAt).toBe(T0 + 17_400);
    // A part queued after the head had started says nothing: the worker may have been idle between.
    const late = nextPace({ previous: pace, listing: sample([ep('v', T0 + 60_000)]), now: T0 + 61_000, sightings: [{ queuedAt: T0 + 50_000, episode: ep('v', T0 + 60_000) }], stillWaiting: 0, progress: true, placed: oneAtATime([...queuedAt, T0 + 50_000]) });
    expect(late.stepsMs).toEqual(pace.stepsMs);
    expect(late.headAt).toBe(T0 + 60_000);
    // A sample's cost is not the group's listing cost.
    expect(nextPace({ previous: {}, listing: { ...sample([]), ms: 150, listed: 1_020 }, now: T0, sightings: [], stillWaiting: 1, progress: false }).listMs).toBeUndefined();
  });

  it('a pace that changed replaces the remembered one once a look shows three episodes of the new one; one episode, or a fifth off, joins the window', () => {
    // 24 processing times of 5 s remembered; the server is now three times as fast (a rate limit lifted).
    const remembered: GroupPace = { size: 10_200, stepsMs: Array(24).fill(5_000), headAt: T0 - 3_600_000, headSentAt: T0 - 3_600_000 };
    const queuedAt = Array.from({ length: 20 }, (_, i) => T0 + i * 10);
    const sighting = (i: number, startedAt: number) => ({ queuedAt: queuedAt[i] as number, sentAt: queuedAt[i] as number, episode: ep(`u${i}`, startedAt) });
    const sample = (episodes: Episode[]): GroupListing => ({ episodes, complete: false, sample: true, requests: 1, listed: 1_020 });
    // A sample shows the 3rd and the 7th: four parts between them, 1.7 s each.
    const changed = nextPace({ previous: remembered, listing: sample([ep('u2', T0 + 3_400), ep('u6', T0 + 10_200)]), now: T0 + 12_000, sightings: [sighting(2, T0 + 3_400), sighting(6, T0 + 10_200)], stillWaiting: 13, progress: true, placed: oneAtATime(queuedAt) });
    expect(stepOf(changed)).toBe(1_700);
    expect(changed.stepsMs?.length).toBeLessThan(8); // trusted as a pace from few samples, not as the remembered one
    // One part between them: a single episode may be a long note, not another server.
    const one = nextPace({ previous: remembered, listing: sample([ep('u2', T0 + 3_400), ep('u3', T0 + 5_100)]), now: T0 + 12_000, sightings: [sighting(2, T0 + 3_400), sighting(3, T0 + 5_100)], stillWaiting: 16, progress: true, placed: oneAtATime(queuedAt) });
    expect(stepOf(one)).toBe(5_000);
    expect(one.stepsMs?.slice(-1)).toEqual([1_700]);
    // Four parts a fifth faster: the graph's own drift, kept with the remembered ones.
    const drift = nextPace({ previous: remembered, listing: sample([ep('u2', T0 + 3_400), ep('u6', T0 + 19_400)]), now: T0 + 21_000, sightings: [sighting(2, T0 + 3_400), sighting(6, T0 + 19_400)], stillWaiting: 13, progress: true, placed: oneAtATime(queuedAt) });
    expect(drift.stepsMs).toEqual([...Array(20).fill(5_000), ...Array(4).fill(4_000)]);
    // And the other way: three times as slow.
    const slower = nextPace({ previous: remembered, listing: sample([ep('u2', T0 + 3_400), ep('u6', T0 + 63_400)]), now: T0 + 64_000, sightings: [sighting(2, T0 + 3_400), sighting(6, T0 + 63_400)], stillWaiting: 13, progress: true, placed: oneAtATime(queuedAt) });
    expect(stepOf(slower)).toBe(15_000);
  });

  it('a complete listing gives a processing time between two of ours whose replies came back in the other order', () => {
    // Four sends at once: the server queued A before B (it started A first: its queue is FIFO), but
    // B's reply reached us first. B was in the queue before A's reply, which comes before A is done,
    // so B waited for all of A: the gap between their starts is A's processing (1.3 s).
    const listing: GroupListing = { episodes: [ep('old', T0 - 86_400_000), ep('a', T0 + 20), ep('b', T0 + 1_320)], complete: true, requests: 1, listed: 3 };
    const pace = nextPace({ previous: {}, listing, now: T0 + 2_000, sightings: [{ queuedAt: T0 + 25, sentAt: T0, episode: ep('a', T0 + 20) }, { queuedAt: T0 + 18, sentAt: T0 + 1, episode: ep('b', T0 + 1_320) }], stillWaiting: 0, progress: true });
    expect(pace.stepsMs).toEqual([1_300]);
  });

  it("a batch's first sample counts its span from the batch's first send where the worker was free, and not where someone else's episode ran since", () => {
    // Twenty of ours sent 10 ms apart into a quiet group (its newest episode is a day old); 0.44 s
    // each. The first sample shows only the 11th, started at 4.4 s: ten parts ran before it.
    const sentAt = Array.from({ length: 20 }, (_, i) => T0 + i * 10);
    const sample = (episodes: Episode[]): GroupListing => ({ episodes, complete: false, sample: true, requests: 1, listed: 1_020 });
    const first = { queuedAt: (sentAt[10] as number) + 5, sentAt: sentAt[10] as number, episode: ep('u10', T0 + 4_400) };
    const input = { previous: { size: 10_000, listMs: [1_700] }, now: T0 + 5_000, sightings: [first], stillWaiting: 19, progress: true, waiting: oneAtATime(sentAt.filter((_, i) => i !== 10)), placed: oneAtATime(sentAt) };
    const quiet = nextPace({ ...input, listing: sample([ep('old', T0 - 86_400_000), ep('u10', T0 + 4_400)]) });
    expect(quiet.stepsMs).toEqual(Array(10).fill(440));
    expect(quiet).toMatchObject({ headAt: T0 + 4_400, headSentAt: sentAt[10] });
    // Someone else's episode started after ours were sent: the worker ran it between ours, so the span says nothing.
    expect(nextPace({ ...input, listing: sample([ep('other', T0 + 2_000), ep('u10', T0 + 4_400)]) }).stepsMs).toBeUndefined();
    // A head of this batch seen already (started after it was sent): spans count from it, as before.
    const later = nextPace({ ...input, previous: { ...input.previous, headAt: T0 + 2_200, headSentAt: sentAt[5] as number }, listing: sample([ep('u10', T0 + 4_400)]) });
    expect(later.stepsMs).toEqual(Array(5).fill(440));
    // A head from an earlier batch (it started before this one was sent) does not stand in for the worker's start.
    const earlier = nextPace({ ...input, previous: { ...input.previous, headAt: T0 - 60_000, headSentAt: T0 - 61_000 }, listing: sample([ep('u10', T0 + 4_400)]) });
    expect(earlier.stepsMs).toEqual(Array(10).fill(440));
  });

  it('a slow queue: the episode of ours that did not wait stays the skew sample, so the next one seen alone gives a processing time', () => {
    // A server with a real LLM: 32 s per episode. A started at once (seen by the first listing);
    // the next listing shows only B, which waited all of A. Its wait (32 s) is far above A's, and
    // A's sample is no late sighting (it is near zero): B's start minus A's is A's processing.
    const a = ep('a', T0 + 20);
    const b = ep('b', T0 + 32_020);
    const first = nextPace({ previous: {}, listing: listing([ep('old', T0 - 86_400_000), a]), now: T0 + 40_000, sightings: [{ queuedAt: T0 + 5, episode: a }], stillWaiting: 2, progress: true });
    const second = nextPace({ previous: first, listing: listing([ep('old', T0 - 86_400_000), a, b]), now: T0 + 70_000, sightings: [{ queuedAt: T0 + 15, episode: b }], stillWaiting: 1, progress: true });
    expect(second.stepsMs).toEqual([32_000]);
    // A sample far below the others AND far below zero is still a late sighting, left out.
    expect(skewOf({ skewsMs: [-3_600_000, 20, 32_000] })).toBe(0);
  });

  it('a processing time measured across our own look is the episode’s own: the time the look held the worker is taken off', () => {
    // A 10,000-episode group costs 1.5 s to list, and the server lists on the loop that runs its
    // queue. A started at once and took 4 s of its own; our look from 2 s to 3.5 s held it up, so B
    // started at 5.5 s. The processing time to predict from is A's own 4 s, not 5.5 s.
    const a = ep('a', T0 + 20);
    const b = ep('b', T0 + 5_520);
    const big = (episodes: Episode[]): GroupListing => ({ episodes, complete: true, requests: 1, listed: 10_000, ms: 1_500 });
    const look = nextPace({ previous: {}, listing: big([ep('old', T0 - 86_400_000)]), now: T0 + 3_520, sightings: [], stillWaiting: 2, progress: false });
    expect(look.looks).toEqual([[T0 + 2_020, T0 + 3_520]]);
    const pace = nextPace({ previous: look, listing: big([ep('old', T0 - 86_400_000), a, b]), now: T0 + 9_000, sightings: [{ queuedAt: T0 + 5, episode: a }, { queuedAt: T0 + 10, episode: b }], stillWaiting: 0, progress: true });
    expect(pace.stepsMs).toEqual([4_000]);
    // A cheap listing (a small group) or the local server's direct query held nothing worth counting.
    expect(nextPace({ previous: {}, listing: { ...big([]), listed: 50 }, now: T0, sightings: [], stillWaiting: 1, progress: false }).looks).toBeUndefined();
    expect(nextPace({ previous: {}, listing: { ...big([]), direct: true }, now: T0, sightings: [], stillWaiting: 1, progress: false }).looks).toBeUndefined();
  });

  it('predicts from the head: the parts queued after it, one processing time each, with a margin that grows with them', () => {
    const pace: GroupPace = { stepsMs: [1_000], headAt: T0, headSentAt: T0 - 1_000 };
    const behind = Array.from({ length: 10 }, (_, i) => T0 - 990 + i);
    // The head's own processing and ten more, half a processing time and 4 % of the eleven.
    // After a sample, the parts sent before the head were processed out of it.
    const sample = (sent: number[]) => ({ waiting: oneAtATime(sent), complete: false });
    expect(predictDone(pace, T0 + 5_000, 13, T0 - 981, sample([T0 - 1_300, T0 - 1_200, T0 - 1_100, ...behind]))).toBe(T0 + 11_000 + 500 + 440);
    // After a complete listing every part still waiting is ahead of the worker, wherever it was sent
    // (several sends at once reach the server in any order).
    expect(predictDone(pace, T0 + 5_000, 13, T0 - 981, { waiting: oneAtATime([T0 - 1_010, T0 - 1_005, T0 - 1_001, ...behind]), complete: true })).toBe(T0 + 14_000 + 500 + 560);
    // A head from an earlier batch (the queue went idle since): from now, for every part waiting.
    expect(predictDone(pace, T0 + 60_000, 10, T0 + 50_009, sample(behind.map((q) => q + 51_000)))).toBe(T0 + 60_000 + 10_000 + 500);
  });

  it('before the pace is known, a complete look that shows the head and not the part behind it guesses at least half the time since the head started', () => {
    // Five of ours sent at once into a 10,000-episode group; 6 s each. The look from 10.9 s to
    // 12 s shows the first (started at once) and not the second: the two took more than 10.9 s.
    // The assumed 1 s per episode would have the four left done already, and look again at once.
    const sentAt = Array.from({ length: 5 }, (_, i) => T0 + i * 10);
    const head = ep('u0', T0 + 20);
    const pace = paceAfterListing({
      previous: { size: 10_000, listMs: [1_100] },
      listing: { episodes: [ep('old', T0 - 86_400_000), head], complete: true, requests: 1, listed: 10_001, ms: 1_100 },
      now: T0 + 12_000,
      sightings: [{ queuedAt: T0 + 15, sentAt: T0, episode: head }],
      stillWaiting: 4,
      progress: true,
      lastQueuedAt: T0 + 55,
      waiting: oneAtATime(sentAt.slice(1)),
      placed: oneAtATime(sentAt),
    });
    expect(pace.stepsMs).toBeUndefined();
    expect(pace.nextListingAt).toBeGreaterThanOrEqual(T0 + 15_000);
    // A look that does not tell (nothing of ours queued behind the head) keeps the assumed time.
    const alone = paceAfterListing({ previous: { size: 10_000, listMs: [1_100] }, listing: { episodes: [head], complete: true, requests: 1, listed: 10_001, ms: 1_100 }, now: T0 + 12_000, sightings: [{ queuedAt: T0 + 15, sentAt: T0, episode: head }], stillWaiting: 1, progress: true, lastQueuedAt: T0 + 20_000, waiting: oneAtATime([T0 + 20_000]), placed: oneAtATime([T0, T0 + 20_000]) });
    expect(alone.nextListingAt).toBeLessThan(T0 + 20_000 + 2_000);
  });

  it('looks with samples while the end is far, and lists in full once it is near', () => {
    const waitingSentAt = Array.from({ length: 100 }, (_, i) => T0 + i);
    const after = (previous: GroupPace, now: number, waiting: number) => paceAfterListing({ previous, listing: { episodes: [], complete: false, sample: true, requests: 1, listed: 1_020, ms: 150 }, now, sightings: [], stillWaiting: waiting, progress: true, lastQueuedAt: T0 + 99, waiting: oneAtATime(waitingSentAt.slice(-waiting)) });
    const busy: GroupPace = { size: 10_200, listMs: [1_100], stepsMs: Array(8).fill(1_000), headAt: T0 + 1_000, headSentAt: T0 - 1 };
    // 100 to go from the head: done at about T0 + 106.7 s (the head's own processing and a hundred
    // more, the margins, and the 150 ms this sample held the worker up); the next sample three
    // quarters of the way there (schedule.ts DRIFT: before, six processing times before the end).
    const done = T0 + 1_000 + 101_000 + 150 + 500 + 4_040;
    let pace = after(busy, T0 + 2_000, 100);
    expect(pace.sampleUntil).toBe(done);
    expect(pace.nextListingAt).toBe(T0 + 2_000 + Math.round(0.75 * (done - (T0 + 2_000))));
    // A look after the predicted end (a hook's run much later) lists in full.
    expect(sampleDue(pace, done - 6_000)).toBe(true);
    expect(sampleDue(pace, done)).toBe(false);
    // While the pace rests on few samples, only part of the way (a quarter, from two samples).
    pace = after({ ...busy, stepsMs: [1_000, 1_000] }, T0 + 2_000, 100);
    expect(pace.nextListingAt).toBe(T0 + 2_000 + Math.round(0.25 * (done - (T0 + 2_000))));
    // Thirty to go: the next sample three quarters of the way to the end.
    pace = after({ ...busy, headAt: T0 + 70_000, headSentAt: T0 + 69 }, T0 + 71_000, 30);
    const done30 = T0 + 70_000 + 31_000 + 150 + 500 + 1_240;
    expect(pace.sampleUntil).toBe(done30);
    expect(pace.nextListingAt).toBe(T0 + 71_000 + Math.round(0.75 * (done30 - (T0 + 71_000))));
    // Ten to go: a sample of a tenth of the group would show one of them, so no sample: the next
    // look is the full listing, at the predicted end (issue 43: a sample must be able to show two).
    pace = after({ ...busy, headAt: T0 + 90_000, headSentAt: T0 + 89 }, T0 + 91_000, 10);
    expect(pace.sampleUntil).toBeUndefined();
    expect(pace.nextListingAt).toBe(T0 + 90_000 + 11_000 + 150 + 500 + 440);
    // Five to go: the next look is the full listing, at the predicted end.
    pace = after({ ...busy, headAt: T0 + 95_000, headSentAt: T0 + 94 }, T0 + 97_000, 5);
    expect(pace.sampleUntil).toBeUndefined();
    expect(pace.nextListingAt).toBe(T0 + 95_000 + 6_000 + 150 + 500 + 240);
    // A small group is always listed in full.
    expect(after({ ...busy, size: 1_500 }, T0 + 2_000, 100).sampleUntil).toBeUndefined();
    // The first look after sending into a busy group whose pace is not known yet is a sample, a quarter of the way.
    const first = afterSend({ size: 10_200, listMs: [1_100] }, T0, 200, T0);
    expect(first.sampleUntil).toBe(T0 + 200 * 1_000 + 500);
    expect(first.nextListingAt).toBe(T0 + Math.round(0.25 * (200 * 1_000 + 500)));
  });

  it('the pace read back from the state keeps the head and the kind of the next look, and drops what is malformed', () => {
    const state = { groups: { g: { headAt: T0, headSentAt: T0 - 5, sampleUntil: T0 + 9 }, h: { headAt: 'soon', headSentAt: T0, sampleUntil: 'later' } } } as unknown as SyncState;
    expect(paceOf(state, 'g')).toEqual({ headAt: T0, headSentAt: T0 - 5, sampleUntil: T0 + 9 });
    expect(paceOf(state, 'h')).toEqual({});
    const looks = { groups: { g: { looks: [[T0, T0 + 1_500]] }, h: { looks: [[T0 + 1_500, T0]] }, i: { looks: [[T0, 'later']] }, j: { looks: 'often' } } } as unknown as SyncState;
    expect(paceOf(looks, 'g')).toEqual({ looks: [[T0, T0 + 1_500]] });
    for (const group of ['h', 'i', 'j']) expect(paceOf(looks, group)).toEqual({});
  });
});
