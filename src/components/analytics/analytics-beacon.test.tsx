// @vitest-environment jsdom
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderToString } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AnalyticsOptOut } from './analytics-opt-out.client';
import {
  OPT_OUT_KEY,
  PATH_START_COOKIE,
  VIEW_ENDPOINT,
  VISITOR_ID_KEY,
  type ViewBeacon,
} from './beacon';
import { PageViewTracker } from './page-view-tracker.client';

const navigation = vi.hoisted(() => ({ pathname: '/', search: '' }));
vi.mock('next/navigation', () => ({
  usePathname: () => navigation.pathname,
  useSearchParams: () => new URLSearchParams(navigation.search),
}));

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const sendBeacon = vi.fn<(url: string, data?: BodyInit | null) => boolean>(() => true);
const fetchMock = vi.fn<typeof fetch>(() => Promise.resolve(new Response(null, { status: 204 })));

function setNavigatorValue(
  name: 'doNotTrack' | 'globalPrivacyControl' | 'sendBeacon',
  value: unknown,
) {
  Object.defineProperty(window.navigator, name, { value, configurable: true, writable: true });
}

/** The bodies sent so far, parsed. */
const beacons = () =>
  sendBeacon.mock.calls.map(([url, data]) => {
    expect(url).toBe(VIEW_ENDPOINT);
    expect(typeof data).toBe('string'); // text/plain, so no CORS preflight
    return JSON.parse(data as string) as ViewBeacon;
  });

function navigate(
  rerender: (ui: React.ReactElement) => void,
  pathname: string,
  search = '',
  page: React.ReactElement = <PageViewTracker />,
) {
  navigation.pathname = pathname;
  navigation.search = search;
  rerender(page);
}

beforeEach(() => {
  vi.useFakeTimers();
  window.dataLayer = [];
  window.localStorage.clear();
  navigation.pathname = '/';
  navigation.search = '';
  document.title = 'ホーム | サイト';
  sendBeacon.mockClear();
  sendBeacon.mockImplementation(() => true);
  fetchMock.mockClear();
  setNavigatorValue('sendBeacon', sendBeacon);
  setNavigatorValue('doNotTrack', null);
  setNavigatorValue('globalPrivacyControl', undefined);
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('the page-view beacon', () => {
  it('is sent on the first load and on each route change with one persisted visitor id', () => {
    const { rerender } = render(<PageViewTracker />);
    const [first] = beacons();
    expect(first?.path).toBe('/');
    expect(first?.referrer).toBeUndefined(); // document.referrer is empty here
    expect(first?.visitorId).toMatch(UUID_V4);
    expect(window.localStorage.getItem(VISITOR_ID_KEY)).toBe(first?.visitorId);

    navigate(rerender, '/posts/abc123', 'from=home');
    navigate(rerender, '/posts');
    expect(beacons()).toEqual([
      first,
      // The query stays in the browser; the previous page is the referrer.
      {
        path: '/posts/abc123',
        referrer: `${window.location.origin}/`,
        visitorId: first?.visitorId,
      },
      {
        path: '/posts',
        referrer: `${window.location.origin}/posts/abc123`,
        visitorId: first?.visitorId,
      },
    ]);
    // The data-layer push still happens.
    act(() => {
      vi.advanceTimersByTime(2000);
    });
    expect(window.dataLayer?.map((e) => (e as { page_path: string }).page_path)).toEqual([
      '/',
      '/posts/abc123?from=home',
      '/posts',
    ]);
  });

  it('reuses the visitor id kept from an earlier visit', () => {
    const kept = '0b7e6a52-3c1d-4f8e-a9b0-c1d2e3f4a5b6';
    window.localStorage.setItem(VISITOR_ID_KEY, kept);
    render(<PageViewTracker />);
    expect(beacons()[0]?.visitorId).toBe(kept);
  });

  it('replaces a kept visitor id that is not a UUID', () => {
    window.localStorage.setItem(VISITOR_ID_KEY, 'tampered');
    render(<PageViewTracker />);
    const id = beacons()[0]?.visitorId;
    expect(id).toMatch(UUID_V4);
    expect(window.localStorage.getItem(VISITOR_ID_KEY)).toBe(id);
  });

  it('falls back to a keepalive fetch when sendBeacon is missing or refuses', () => {
    setNavigatorValue('sendBeacon', undefined);
    const { rerender } = render(<PageViewTracker />);
    sendBeacon.mockImplementation(() => false);
    setNavigatorValue('sendBeacon', sendBeacon);
    navigate(rerender, '/jobs');
    expect(fetchMock).toHaveBeenCalledTimes(2);
    const [url, init] = fetchMock.mock.calls[1]!;
    expect(url).toBe(VIEW_ENDPOINT);
    expect(init).toMatchObject({ method: 'POST', keepalive: true, credentials: 'same-origin' });
    expect(JSON.parse(init?.body as string)).toMatchObject({ path: '/jobs' });
  });

  it('says when the page shows a paywall (the server checks it)', () => {
    const page = (paywall: boolean) => (
      <>
        {paywall ? <aside data-paywall="" /> : null}
        <PageViewTracker />
      </>
    );
    const { rerender } = render(page(false));
    navigate(rerender, '/posts/gated', '', page(true));
    expect(beacons().map((b) => b.paywall)).toEqual([undefined, true]);
  });

  it('is not sent under Do Not Track, and no id is kept', () => {
    setNavigatorValue('doNotTrack', '1');
    const { rerender } = render(<PageViewTracker />);
    navigate(rerender, '/posts');
    expect(sendBeacon).not.toHaveBeenCalled();
    expect(fetchMock).not.toHaveBeenCalled();
    expect(window.localStorage.getItem(VISITOR_ID_KEY)).toBeNull();
    expect(window.dataLayer).toHaveLength(1); // the tag-manager push is not ours to stop
  });

  it('is not sent under Global Privacy Control', () => {
    setNavigatorValue('globalPrivacyControl', true);
    render(<PageViewTracker />);
    expect(sendBeacon).not.toHaveBeenCalled();
  });

  it('is not sent after the reader opted out', () => {
    window.localStorage.setItem(OPT_OUT_KEY, '1');
    const { rerender } = render(<PageViewTracker />);
    navigate(rerender, '/posts');
    expect(sendBeacon).not.toHaveBeenCalled();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

describe('AnalyticsOptOut', () => {
  beforeEach(() => {
    vi.useRealTimers();
  });

  it('renders nothing on the server (no JavaScript, no control)', () => {
    expect(renderToString(<AnalyticsOptOut />)).toBe('');
  });

  it('toggles the stored opt-out, forgets the visitor id, and stops the beacon', async () => {
    const user = userEvent.setup();
    const page = () => (
      <>
        <AnalyticsOptOut />
        <PageViewTracker />
      </>
    );
    const { rerender } = render(page());
    expect(beacons()).toHaveLength(1);
    expect(screen.getByRole('heading', { level: 2, name: '閲覧の計測' })).toBeInTheDocument();
    const checkbox = screen.getByRole('checkbox', {
      name: 'このブラウザでの閲覧の計測を停止する',
    });
    expect(checkbox).not.toBeChecked();
    expect(checkbox).toHaveAccessibleDescription(/個人を特定しない形で記録/);

    document.cookie = `${PATH_START_COOKIE}=%2Fposts%2Fp1; Path=/`;
    await user.click(checkbox);
    expect(checkbox).toBeChecked();
    expect(window.localStorage.getItem(OPT_OUT_KEY)).toBe('1');
    expect(window.localStorage.getItem(VISITOR_ID_KEY)).toBeNull();
    // Where the path to payment started is forgotten too.
    expect(document.cookie).not.toContain(PATH_START_COOKIE);

    navigate(rerender, '/posts', '', page());
    expect(beacons()).toHaveLength(1);

    // The label toggles it too, and back on the next page is measured again.
    await user.click(screen.getByText('このブラウザでの閲覧の計測を停止する'));
    expect(checkbox).not.toBeChecked();
    expect(window.localStorage.getItem(OPT_OUT_KEY)).toBeNull();
    navigate(rerender, '/jobs', '', page());
    expect(beacons().at(-1)?.path).toBe('/jobs');
  });

  it('follows a change made in another tab', () => {
    render(<AnalyticsOptOut />);
    const checkbox = screen.getByRole('checkbox');
    act(() => {
      window.localStorage.setItem(OPT_OUT_KEY, '1');
      window.dispatchEvent(new StorageEvent('storage', { key: OPT_OUT_KEY, newValue: '1' }));
    });
    expect(checkbox).toBeChecked();
  });

  it('says that Do Not Track already stops the measurement instead of offering a choice', () => {
    setNavigatorValue('doNotTrack', '1');
    render(<AnalyticsOptOut />);
    expect(screen.queryByRole('checkbox')).toBeNull();
    expect(screen.getByText(/トラッキング拒否/)).toBeInTheDocument();
  });
});
