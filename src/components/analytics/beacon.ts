/**
 * First-party page views from the browser: a beacon to /api/analytics/view with the path, the
 * referrer and a random visitor id kept in localStorage (SPEC §1: "tracking on and local
 * persistence"), never a cookie. A page that shows a paywall says so; where the server agrees,
 * it keeps that first paywall in a first-party cookie (src/server/features/attribution/attribution.ts),
 * which the opt-out deletes. Nothing is sent under Do Not Track or Global Privacy Control,
 * after the reader opted out in the footer, or when localStorage cannot be used (then the
 * opt-out could not be kept either).
 */

export const VIEW_ENDPOINT = '/api/analytics/view';
export const VISITOR_ID_KEY = 'axis_visitor_id';
export const OPT_OUT_KEY = 'axis_analytics_opt_out';
/** Fired on window when the opt-out changes in this tab (the storage event covers other tabs). */
export const OPT_OUT_EVENT = 'axis:analytics-opt-out';

export type ViewBeacon = {
  path: string;
  referrer?: string;
  visitorId: string;
  /** The page shows a paywall (`data-paywall`, src/components/content/paywall.tsx). */
  paywall?: true;
};
/** Where the server keeps the first paywall met (src/server/features/attribution/attribution.ts). */
export const PATH_START_COOKIE = 'axis_path_start';

let usable: boolean | undefined;

/**
 * localStorage when it works. Safari's private mode and blocked storage throw on use, not on
 * access, hence the probe; it runs once, because every write is a storage event in other tabs.
 */
function storage(): Storage | null {
  try {
    if (usable === undefined) {
      const probe = '__axis_probe__';
      window.localStorage.setItem(probe, '1');
      window.localStorage.removeItem(probe);
      usable = true;
    }
    return usable ? window.localStorage : null;
  } catch {
    usable = false;
    return null;
  }
}

/** Whether this browser can keep the visitor id and the opt-out. */
export function canStoreSettings(): boolean {
  return storage() !== null;
}

/** Do Not Track (`'1'`) or Global Privacy Control asks us not to measure. */
export function browserAsksNotToTrack(): boolean {
  const nav = navigator as Navigator & { globalPrivacyControl?: boolean };
  return nav.doNotTrack === '1' || nav.globalPrivacyControl === true;
}

export function isOptedOut(): boolean {
  try {
    return window.localStorage.getItem(OPT_OUT_KEY) === '1';
  } catch {
    return false;
  }
}

/** Turns the opt-out on or off for this browser; false when it could not be stored. */
export function setOptedOut(optedOut: boolean): boolean {
  const store = storage();
  if (!store) return false;
  if (optedOut) {
    store.setItem(OPT_OUT_KEY, '1');
    // The id is what links views together; an opted-out reader keeps none, nor where their
    // path to payment started.
    store.removeItem(VISITOR_ID_KEY);
    document.cookie = `${PATH_START_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax`;
  } else {
    store.removeItem(OPT_OUT_KEY);
  }
  window.dispatchEvent(new Event(OPT_OUT_EVENT));
  return true;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** A version 4 UUID; randomUUID exists only in secure contexts, getRandomValues everywhere. */
function randomId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function visitorId(store: Storage): string {
  const kept = store.getItem(VISITOR_ID_KEY);
  if (kept && UUID.test(kept)) return kept;
  const id = randomId();
  store.setItem(VISITOR_ID_KEY, id);
  return id;
}

/** The beacon for a view of `path`, or null when this browser is not to be measured. */
export function viewBeacon(path: string, referrer: string): ViewBeacon | null {
  if (browserAsksNotToTrack() || isOptedOut()) return null;
  const store = storage();
  if (!store) return null;
  const paywall = document.querySelector('[data-paywall]') !== null;
  return {
    path,
    ...(referrer ? { referrer } : {}),
    visitorId: visitorId(store),
    ...(paywall ? { paywall: true as const } : {}),
  };
}

/** Sends one view; true when a beacon or request went out. Never throws. */
export function sendPageView(path: string, referrer: string): boolean {
  try {
    const beacon = viewBeacon(path, referrer);
    if (!beacon) return false;
    const body = JSON.stringify(beacon);
    // A string goes as text/plain: no CORS preflight, and it survives the page being left.
    if (typeof navigator.sendBeacon === 'function' && navigator.sendBeacon(VIEW_ENDPOINT, body)) {
      return true;
    }
    void fetch(VIEW_ENDPOINT, {
      method: 'POST',
      body,
      keepalive: true,
      // The session says who viewed (a member or not), as sendBeacon's request does.
      credentials: 'same-origin',
      headers: { 'content-type': 'text/plain;charset=UTF-8' },
    }).catch(() => {});
    return true;
  } catch {
    return false;
  }
}
