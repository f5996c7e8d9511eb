// @vitest-environment jsdom
import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CHECKING_TEXT, CheckoutStatus, TIMEOUT_TEXT } from './checkout-status.client';

const answers: unknown[] = [];
const fetchMock = vi.fn(() =>
  Promise.resolve(Response.json(answers.shift() ?? { state: 'pending' })),
);

beforeEach(() => {
  vi.useFakeTimers();
  answers.length = 0;
  fetchMock.mockClear();
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const HERE = '/service-plans/checkout-success?session_id=cs_test_1';

/** Lets one poll run: the timer fires and its fetch settles. */
async function tick(ms = 1000) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

describe('CheckoutStatus', () => {
  it('shows a spinner and 「お申し込みを確認しています…」 while pending, then the plan once recorded', async () => {
    answers.push(
      { state: 'pending' },
      {
        state: 'recorded',
        planName: 'メンバーシップ 月額プラン',
        status: 'trialing',
        trialEnd: '2026-06-14T03:00:00.000Z',
      },
    );
    render(
      <CheckoutStatus sessionId="cs_test_1" initial={{ state: 'pending' }} reloadHref={HERE} />,
    );
    expect(screen.getByRole('status')).toHaveTextContent(CHECKING_TEXT);

    await tick();
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/billing/checkout-status?session_id=cs_test_1',
      expect.objectContaining({ cache: 'no-store' }),
    );
    expect(screen.getByRole('status')).toHaveTextContent(CHECKING_TEXT);

    await tick();
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('お申し込みが完了しました');
    expect(screen.getByRole('status')).toHaveTextContent('メンバーシップ 月額プラン');
    expect(screen.getByRole('status')).toHaveTextContent('2026年6月14日');
    expect(screen.getByRole('link', { name: '会員限定の記事を読む' })).toHaveAttribute(
      'href',
      '/posts',
    );
    expect(screen.getByRole('link', { name: 'ご利用中のプラン' })).toHaveAttribute(
      'href',
      '/service-plans',
    );
    const calls = fetchMock.mock.calls.length;
    await tick(5000);
    expect(fetchMock.mock.calls.length).toBe(calls);
  });

  it('stops after 30 seconds with a clear message and a reload link', async () => {
    render(
      <CheckoutStatus sessionId="cs_test_1" initial={{ state: 'pending' }} reloadHref={HERE} />,
    );
    for (let i = 0; i < 29; i += 1) await tick();
    expect(screen.getByRole('status')).toHaveTextContent(CHECKING_TEXT);
    await tick();
    await tick();
    expect(screen.getByRole('status')).toHaveTextContent(TIMEOUT_TEXT);
    expect(screen.getByRole('link', { name: 'このページを再読み込みする' })).toHaveAttribute(
      'href',
      HERE,
    );
    const calls = fetchMock.mock.calls.length;
    expect(calls).toBeLessThanOrEqual(31);
    await tick(10_000);
    expect(fetchMock.mock.calls.length).toBe(calls);
  });

  it('keeps asking after a failed request', async () => {
    fetchMock.mockImplementationOnce(() => Promise.reject(new TypeError('offline')));
    answers.push({ state: 'recorded', planName: '年額プラン', status: 'active', trialEnd: null });
    render(
      <CheckoutStatus sessionId="cs_test_1" initial={{ state: 'pending' }} reloadHref={HERE} />,
    );
    await tick();
    expect(screen.getByRole('status')).toHaveTextContent(CHECKING_TEXT);
    await tick();
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('お申し込みが完了しました');
  });

  it('says when the checkout is not found', async () => {
    answers.push({ state: 'not-found' });
    render(
      <CheckoutStatus sessionId="cs_test_1" initial={{ state: 'pending' }} reloadHref={HERE} />,
    );
    await tick();
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(
      'お申し込みが見つかりません',
    );
  });

  it('renders the server’s state without polling when it is already known', async () => {
    render(
      <CheckoutStatus
        sessionId="cs_test_1"
        initial={{ state: 'recorded', planName: '月額プラン', status: 'active', trialEnd: null }}
        reloadHref={HERE}
      />,
    );
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('お申し込みが完了しました');
    await tick(3000);
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
