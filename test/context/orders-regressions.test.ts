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

  // ADVICE_TAKEN (orders-by-language.ts SUBJECTLESS_ADVICE): what became of the advice is said in a later
  // clause; 已 or 被 inside the advice itself (已有 "existing", 已知 "known", a passive relative clause)
  // is part of the order (let through on 6acbf282).
  it.each([
    '优先使用已有的工具函数',
    '优先复用已有组件。',
    '建议删除所有被标记为废弃的分支',
    '建议每次提交前检查代码是否已格式化',
    '尽量使用已封装好的请求方法',
    '优先修复已知的安全漏洞',
    '若接口变更，建议删除所有被标记为废弃的字段',
    '建议使用 pnpm，避免被锁文件冲突困扰',
    '优先使用 pnpm，已有项目除外',
  ])('advice with 已 or 被 in its own words is an order: %s', (text) => {
    expect(orderReason(text)).toBe('opens with an imperative');
  });

  it.each([
    '会议记录：建议使用 pnpm，团队已采纳。',
    '上次复盘：优先修复支付模块的 bug（已完成）。',
    '复盘：建议改用 pnpm，但被团队否决了。',
  ])('a record of advice and what became of it stays knowledge: %s', (text) => {
    expect(orderReason(text)).toBeUndefined();
  });
});
