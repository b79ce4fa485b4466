/**
 * Review of the sixteenth session's orders merges (qa-review-17b): orders a new "this is knowledge" reading let
 * through. Each order case was caught on 6acbf282 and let through on 043cc918; a planted order that slips through
 * reaches every session of the group (issue 32).
 */
import { describe, expect, it } from 'vitest';
import { orderReason } from '../../src/lib/context/orders.js';

describe('FOR_NAMES_WHOM reads "for" as whom a thing is offered to only before the ones it is offered to (obligation.ts)', () => {
  it.each([
    'No type assertions for API responses',
    'No default exports for React components',
    'No inline styles for UI components',
    'No raw SQL queries for user input',
    'No manual approvals for production deploys',
    'No direct commits for release branches',
  ])('"for" before a part of the work is a place in it: %s', (text) => {
    expect(orderReason(text)).toBe('obliges the work');
  });

  it.each([
    'No free trials for enterprise customers',
    'No custom domains for hobby tiers',
    'No admin rights for guest users',
    'No volume discounts for monthly plans',
  ])('a business\'s terms for whom it offers a thing stay knowledge: %s', (text) => {
    expect(orderReason(text)).toBeUndefined();
  });

  it('the work after "for" stays a place (WORK_AFTER_FOR)', () => {
    expect(orderReason('No console logs for production code')).toBe('obliges the work');
  });
});
