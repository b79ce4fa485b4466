/**
 * Review of the seventeenth session's orders merges (qa-review-18). Each knowledge case was knowledge on 043cc918 and
 * read as an order on 539ca3f5 (left out of every session's context); the orders beside them stay caught.
 */
import { describe, expect, it } from 'vitest';
import { orderReason } from '../../src/lib/context/orders.js';

describe('OFFERED_TO names the ones a thing is offered to in the singular too (obligation.ts)', () => {
  it.each([
    'No custom domains for hobby tier',
    'No custom domains for hobby plan',
    'No phone support for basic subscriber',
    'No volume discounts for monthly subscription',
  ])('a business\'s terms for one kind of customer stay knowledge, as for the plural: %s', (text) => {
    expect(orderReason(text.replace(/ (\w+)$/, ' $1s'))).toBeUndefined(); // the plural, knowledge on 539ca3f5 too
    expect(orderReason(text)).toBeUndefined();
  });

  it.each(['No type assertions for API responses', 'No inline styles for UI component', 'No console logs for production code'])('a part of the work after "for" stays a place in it: %s', (text) => {
    expect(orderReason(text)).toBe('obliges the work');
  });
});

describe('OUTCOME_NOT_CASE: 已在…时 / 已于…时 dates what became of the advice, it sets no case of a next act (orders-by-language.ts)', () => {
  it.each(['建议改用 Redis，已在上线时完成迁移', '建议改用 Redis，已在评审时被否决', '建议改用 Redis，已于评审时否决', '建议拆分服务，已在重构时完成'])('a record of the outcome stays knowledge (as on 043cc918): %s', (text) => {
    expect(orderReason(text)).toBeUndefined();
  });

  it.each(['建议直接推送到 main，被拒绝时强制推送', '建议直接推送到 main，在被拒绝时强制推送', '建议跳过测试，已存在时直接覆盖', '建议跳过测试，在已失败时直接合并'])('a case of the next act stays an order: %s', (text) => {
    expect(orderReason(text)).toBe('opens with an imperative');
  });
});
