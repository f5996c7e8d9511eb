// @vitest-environment jsdom
import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HEARTBEAT_MS, type PresenceAnswer } from '@/lib/cms/presence';
import { EditingPresence } from './editing-presence.client';

const answer = (over: Partial<PresenceAnswer> = {}): PresenceAnswer => ({
  at: '2026-11-27T06:03:00.000Z',
  editors: [{ name: '佐藤', since: '2026-11-27T06:00:00.000Z' }],
  saved: { updatedAt: '2026-11-27T05:00:00.000Z', by: '佐藤', mine: false },
  ...over,
});

let fetchMock: ReturnType<typeof vi.fn<typeof fetch>>;
let visibility: DocumentVisibilityState = 'visible';

beforeEach(() => {
  vi.useFakeTimers();
  visibility = 'visible';
  vi.spyOn(document, 'visibilityState', 'get').mockImplementation(() => visibility);
  fetchMock = vi.fn<typeof fetch>(() => Promise.resolve(Response.json(answer())));
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const bodies = () => fetchMock.mock.calls.map((call) => call[1]?.body);

async function flush() {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(0);
  });
}

describe('EditingPresence', () => {
  it('says who else is editing since when, in a status region, and repeats every 15 s while visible', async () => {
    const view = render(
      <EditingPresence endpoint="posts" id="post-1" baseUpdatedAt="2026-11-27T05:00:00.000Z" />,
    );
    await flush();
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/admin/content/posts/post-1/presence');
    expect(screen.getByRole('status')).toHaveTextContent('佐藤さんが3分前から編集中です。');

    await act(async () => {
      await vi.advanceTimersByTimeAsync(HEARTBEAT_MS);
    });
    expect(fetchMock).toHaveBeenCalledTimes(2);

    // A hidden tab stops; shown again, it beats at once.
    visibility = 'hidden';
    document.dispatchEvent(new Event('visibilitychange'));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(HEARTBEAT_MS * 3);
    });
    expect(fetchMock).toHaveBeenCalledTimes(2);
    visibility = 'visible';
    document.dispatchEvent(new Event('visibilitychange'));
    await flush();
    expect(fetchMock).toHaveBeenCalledTimes(3);

    view.unmount();
    expect(bodies().at(-1)).toBe('{"leaving":true}');
    expect(fetchMock.mock.calls.at(-1)?.[1]?.keepalive).toBe(true);
  });

  it('warns when someone else saved after this version, and stays empty when nobody is there', async () => {
    fetchMock.mockImplementation(() =>
      Promise.resolve(
        Response.json(
          answer({
            editors: [],
            saved: { updatedAt: '2026-11-27T06:02:00.000Z', by: '佐藤', mine: false },
          }),
        ),
      ),
    );
    render(
      <EditingPresence endpoint="posts" id="post-1" baseUpdatedAt="2026-11-27T05:00:00.000Z" />,
    );
    await flush();
    expect(screen.getByRole('status')).toHaveTextContent(
      '佐藤さんが2026年11月27日 15:02にこの項目を保存しました。このまま保存すると競合します。',
    );

    fetchMock.mockImplementation(() =>
      Promise.resolve(Response.json(answer({ editors: [], saved: null }))),
    );
    await act(async () => {
      await vi.advanceTimersByTimeAsync(HEARTBEAT_MS);
    });
    expect(screen.getByRole('status')).toBeEmptyDOMElement();
  });
});
