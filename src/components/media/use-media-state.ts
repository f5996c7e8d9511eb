'use client';

import { type RefObject, useCallback, useEffect, useState } from 'react';

/** What the player shows of its <audio> element. */
export type MediaState = {
  paused: boolean;
  currentTime: number;
  /** Seconds, or null until the file's metadata says (or when it is a live stream). */
  duration: number | null;
  rate: number;
  volume: number;
  muted: boolean;
  failed: boolean;
};

export const INITIAL_MEDIA_STATE: MediaState = {
  paused: true,
  currentTime: 0,
  duration: null,
  rate: 1,
  volume: 1,
  muted: false,
  failed: false,
};

const EVENTS = [
  'play',
  'pause',
  'ended',
  'timeupdate',
  'seeking',
  'seeked',
  'durationchange',
  'loadedmetadata',
  'ratechange',
  'volumechange',
  'error',
  'emptied',
] as const;

function read(el: HTMLMediaElement): MediaState {
  const duration = el.duration;
  return {
    paused: el.paused,
    currentTime: el.currentTime || 0,
    duration: Number.isFinite(duration) && duration > 0 ? duration : null,
    rate: el.playbackRate,
    volume: el.volume,
    muted: el.muted,
    failed: el.error !== null,
  };
}

/**
 * The element's state, followed through its events (the element is the one source of truth:
 * the browser's media keys and the lock screen change it too). `refresh` reads it at once, for
 * a change the UI must show before the browser's event arrives (a drag of the seek bar).
 */
export function useMediaState(ref: RefObject<HTMLMediaElement | null>) {
  const [state, setState] = useState<MediaState>(INITIAL_MEDIA_STATE);

  const refresh = useCallback(() => {
    if (ref.current) setState(read(ref.current));
  }, [ref]);

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const sync = () => setState(read(el));
    sync(); // the metadata may have loaded before hydration
    for (const type of EVENTS) el.addEventListener(type, sync);
    return () => {
      for (const type of EVENTS) el.removeEventListener(type, sync);
    };
  }, [ref]);

  return [state, refresh] as const;
}
