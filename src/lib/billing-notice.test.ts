import { describe, expect, it } from 'vitest';
import { billingNoticeOf } from './billing-notice';

describe('billingNoticeOf', () => {
  it('is past_due when the newest live plan is past_due', () => {
    expect(billingNoticeOf([{ status: 'canceled' }, { status: 'past_due' }])).toBe('past_due');
  });

  it('is null when the newest live plan is paid, or there is none', () => {
    expect(billingNoticeOf([{ status: 'active' }, { status: 'past_due' }])).toBeNull();
    expect(billingNoticeOf([{ status: 'canceled' }, { status: 'unpaid' }])).toBeNull();
    expect(billingNoticeOf([])).toBeNull();
  });
});
