// @vitest-environment jsdom
import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { letterCounts } from '@/lib/newsletter/console';
import { STATUS_POLL_MS, SendStatusView } from './send-status.client';

const counts = letterCounts;

const answer = (body: unknown, ok = true) =>
  Promise.resolve({ ok, json: () => Promise.resolve(body) } as Response);

const realFetch = globalThis.fetch;

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
  globalThis.fetch = realFetch;
});

/** Lets the poll's timer fire and its promises settle. */
async function tick() {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(STATUS_POLL_MS);
  });
}

describe('SendStatusView', () => {
  it('reads a running send again until it is done, announcing each change', async () => {
    const fetch = vi
      .fn()
      .mockReturnValueOnce(answer({ status: 'sending', counts: counts({ queued: 1, sent: 2 }) }))
      .mockReturnValueOnce(answer({ status: 'done', counts: counts({ sent: 3 }) }));
    globalThis.fetch = fetch;
    render(
      <SendStatusView sendId="s1" initial={{ status: 'queued', counts: counts({ queued: 3 }) }} />,
    );
    expect(screen.getByRole('status').textContent).toBe(
      '配信待ち: 3 通中 0 通送信済み（残り 3 通）。',
    );

    await tick();
    expect(fetch).toHaveBeenCalledWith('/api/admin/newsletter/sends/s1', expect.anything());
    expect(screen.getByRole('status').textContent).toBe(
      '配信中: 3 通中 2 通送信済み（残り 1 通）。',
    );

    await tick();
    expect(screen.getByRole('status').textContent).toBe(
      '配信が完了しました: 3 通中 3 通送信済み。',
    );
    await tick();
    // Done: no more requests.
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('never asks about a send that is finished or waits for publication', async () => {
    const fetch = vi.fn();
    globalThis.fetch = fetch;
    render(<SendStatusView sendId="s2" initial={{ status: 'scheduled', counts: counts() }} />);
    await tick();
    expect(fetch).not.toHaveBeenCalled();
    expect(screen.getByRole('status').textContent).toBe('記事の公開と同時に配信します。');
  });

  it('says when it cannot read the status, and keeps trying', async () => {
    const fetch = vi
      .fn()
      .mockReturnValueOnce(answer({ message: 'x' }, false))
      .mockReturnValueOnce(answer({ status: 'done', counts: counts({ sent: 1 }) }));
    globalThis.fetch = fetch;
    render(
      <SendStatusView
        sendId="s3"
        initial={{ status: 'sending', counts: counts({ sending: 1 }) }}
      />,
    );
    await tick();
    expect(screen.getByText(/最新の状況を読み込めませんでした/)).toBeTruthy();
    await tick();
    expect(screen.queryByText(/最新の状況を読み込めませんでした/)).toBeNull();
    expect(screen.getByRole('status').textContent).toContain('配信が完了しました');
  });
});
