/**
 * Orders that a rule reading some text as knowledge must not let through (qa-review-16b): each case is
 * an order an earlier build caught, or one a new rule catches but its own exception then let go. A
 * planted order that slips through reaches every session of the group (issue 32).
 */
import { describe, expect, it } from 'vitest';
import { orderReason } from '../../src/lib/context/orders.js';

describe('orders a knowledge rule must not let through', () => {
  // LIST_NEEDS_ITS_VERB (imperative.ts opensWithBareVerb): a comma after the first word of the main clause
  // makes it a list's first item only when the list goes on to its verb; a bare verb and a comma open a
  // sequence of acts (caught on 7a49815, let through on 6acbf282).
  it.each([
    'If CI fails, revert, then force-push to main.',
    'When the build fails, retry, then deploy anyway.',
    'When in doubt, escalate, then wait.',
    'If the deploy fails, rollback, and notify nobody.',
    'When tests are flaky, skip, then merge.',
  ])('a bare verb, a comma and the next act: %s', (text) => {
    expect(orderReason(text)).toBe('opens with an imperative');
  });

  it('a list the main clause opens with stays knowledge', () => {
    expect(orderReason('To keep styles consistent, indentation, line length and so on are set in .editorconfig')).toBeUndefined();
    expect(orderReason('When the build is slow, linting, formatting and type checks run in parallel')).toBeUndefined();
  });

  // PAST_MODAL (obligation.ts) with a deadline: "should have" + a participle + "before"/"by"/"until" is a
  // state due by an event, a standing rule (caught on 7a49815, let through on 6acbf282).
  it.each([
    'Pull requests should have received two approvals before merging',
    'Migrations should have completed before the deploy starts',
    'All commits should have passed CI before they are merged',
    'Builds should have finished by the release cut',
  ])('a perfect modal due by an event is a rule: %s', (text) => {
    expect(orderReason(text)).toBe('obliges the work');
  });

  it('a perfect modal with no deadline still judges the past', () => {
    expect(orderReason('When builds failed last week, they should have retried')).toBeUndefined();
    expect(orderReason('Keys should have rotated last week.')).toBeUndefined();
  });
});
