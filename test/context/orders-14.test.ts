/**
 * Review of qa-orders-13 and qa-review-18 (qa-orders-14). Each knowledge case below was knowledge on 539ca3f5 (or,
 * for "No … for …", on 043cc918) and read as an order on main 66632b72: left out of every session's context. The
 * orders beside them stay caught: a planted order that slips through reaches every session of the group (issue 32).
 */
import { describe, expect, it } from 'vitest';
import { orderReason } from '../../src/lib/context/orders.js';

describe('GRANTED_TERMS: "No <what a policy grants> for <whom>" is who gets what, not a rule of the work (obligation.ts)', () => {
  it.each([
    'No admin rights for interns',
    'No admin rights for contractors',
    'No rate limits for internal services',
    'No custom domains for hobby projects',
    'No free credits for new signups',
    'No write access for vendors',
  ])('a policy of who gets what stays knowledge: %s', (text) => {
    expect(orderReason(text)).toBeUndefined();
  });

  it.each([
    'No type assertions for API responses',
    'No default exports for React components',
    'No inline styles for UI components',
    'No raw SQL queries for user input',
    'No manual approvals for production deploys',
    'No direct commits for release branches',
    'No console logs for production code',
    // Not after "for": a place in the work, as before.
    'No admin rights in production code',
  ])('a kind of work forbidden in a part of the work stays an order: %s', (text) => {
    expect(orderReason(text)).toBe('obliges the work');
  });
});
