'use client';

import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { formatDurationJa } from '@/lib/format';
import styles from './media.module.css';

export const SPEEDS = [0.75, 1, 1.25, 1.5, 2] as const;
export const SKIP_SECONDS = 15;

/** The keys the player answers to, as aria-keyshortcuts spells them. */
export const AUDIO_KEY_SHORTCUTS = 'Space K ArrowLeft ArrowRight J L ArrowUp ArrowDown > <';

type Action = 'toggle' | 'back' | 'forward' | 'faster' | 'slower';

const KEY_ACTIONS: Record<string, Action> = {
  ' ': 'toggle',
  k: 'toggle',
  K: 'toggle',
  ArrowLeft: 'back',
  j: 'back',
  J: 'back',
  ArrowRight: 'forward',
  l: 'forward',
  L: 'forward',
  ArrowUp: 'faster',
  '>': 'faster',
  ArrowDown: 'slower',
  '<': 'slower',
};

const ARROWS = new Set(['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown']);
const PRESS_TYPES = new Set(['button', 'submit', 'reset', 'checkbox', 'image', 'color', 'file']);

/**
 * Whether the focused element already does something with this key, so the player must leave
 * it alone: buttons activate on Space, a select and text fields take letters and arrows, a
 * range or radio moves with the arrows, the browser's own media controls play on Space and
 * seek with the arrows.
 */
export function ownsKey(target: EventTarget | null, key: string): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  switch (target.tagName) {
    case 'TEXTAREA':
    case 'SELECT':
      return true;
    case 'INPUT': {
      const type = (target as HTMLInputElement).type;
      if (type === 'range' || type === 'radio') return ARROWS.has(key) || key === ' ';
      if (PRESS_TYPES.has(type)) return key === ' ';
      return true; // text, number, search…: every key is typing
    }
    case 'BUTTON':
    case 'SUMMARY':
      return key === ' ';
    case 'AUDIO':
    case 'VIDEO':
      return key === ' ' || ARROWS.has(key);
    default:
      return target.getAttribute('role') === 'slider' && ARROWS.has(key);
  }
}

/** The steps, and the current speed among them when the browser's own menu chose another. */
const speedOptions = (speed: number): number[] =>
  (SPEEDS as readonly number[]).includes(speed)
    ? [...SPEEDS]
    : [...SPEEDS, speed].sort((a, b) => a - b);

/** Where playback stands, as a screen reader says it well: 75.9 → "1分15秒". */
const position = (el: HTMLAudioElement) => formatDurationJa(Math.floor(el.currentTime) || 0);

/**
 * The browser's own audio controls (keyboard and screen-reader friendly) plus the buttons a
 * listener of talks wants: 15 seconds back and forward, and the speed. With the focus anywhere
 * in the player, Space or K plays and pauses, ←/→ (J/L) skip 15 seconds, ↑/↓ (>/<) change the
 * speed; what changed is read out through a polite live region.
 */
export function AudioPlayer({ src, title }: { src: string; title: string }) {
  const audio = useRef<HTMLAudioElement>(null);
  const [speed, setSpeed] = useState<number>(1);
  const [message, setMessage] = useState('');
  const hintId = useId();

  // The browser's own controls can change the speed too (Chrome's menu): follow them.
  useEffect(() => {
    const el = audio.current;
    if (!el) return;
    const follow = () => setSpeed(el.playbackRate);
    el.addEventListener('ratechange', follow);
    return () => el.removeEventListener('ratechange', follow);
  }, []);

  const applySpeed = (next: number) => {
    setSpeed(next);
    const el = audio.current;
    if (el) {
      el.playbackRate = next;
      // A new source resets playbackRate to this one: the choice survives a reload of the file.
      el.defaultPlaybackRate = next;
    }
  };

  const skip = (seconds: number) => {
    const el = audio.current;
    if (!el) return;
    el.currentTime = Math.max(0, Math.min(el.duration || Infinity, el.currentTime + seconds));
    const verb = seconds < 0 ? '戻しました' : '進めました';
    setMessage(`${Math.abs(seconds)}秒${verb}（${position(el)}）`);
  };

  const toggle = () => {
    const el = audio.current;
    if (!el) return;
    if (el.paused) {
      setMessage('再生しました');
      void Promise.resolve(el.play()).catch(() => setMessage('再生できませんでした'));
    } else {
      el.pause();
      setMessage(`一時停止しました（${position(el)}）`);
    }
  };

  const step = (direction: 1 | -1) => {
    // The next step up or down from where the speed is now (it may be off the steps when the
    // browser's own menu set it).
    const next = direction > 0 ? SPEEDS.find((s) => s > speed) : SPEEDS.findLast((s) => s < speed);
    if (next === undefined) {
      setMessage(`再生速度 ${speed}倍（${direction > 0 ? '最速' : '最も遅い速度'}です）`);
      return;
    }
    applySpeed(next);
    setMessage(`再生速度 ${next}倍`);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.nativeEvent.isComposing) return;
    const action = KEY_ACTIONS[event.key];
    if (!action || ownsKey(event.target, event.key)) return;
    event.preventDefault(); // no page scroll on Space or the arrows
    if (action === 'toggle') toggle();
    else if (action === 'back') skip(-SKIP_SECONDS);
    else if (action === 'forward') skip(SKIP_SECONDS);
    else step(action === 'faster' ? 1 : -1);
  };

  return (
    <div
      className={styles.audio}
      role="group"
      aria-label={`音声プレーヤー: ${title}`}
      aria-describedby={hintId}
      aria-keyshortcuts={AUDIO_KEY_SHORTCUTS}
      tabIndex={0}
      onKeyDown={onKeyDown}
    >
      <audio ref={audio} controls preload="metadata" src={src} className={styles.audioElement}>
        お使いのブラウザでは音声を再生できません。
      </audio>
      <div className={styles.audioControls}>
        <button type="button" onClick={() => skip(-SKIP_SECONDS)}>
          15 秒戻る
        </button>
        <button type="button" onClick={() => skip(SKIP_SECONDS)}>
          15 秒進む
        </button>
        <label>
          再生速度
          <select value={speed} onChange={(event) => applySpeed(Number(event.target.value))}>
            {speedOptions(speed).map((s) => (
              <option key={s} value={s}>
                {s}×
              </option>
            ))}
          </select>
        </label>
      </div>
      <p id={hintId} className={styles.audioHint}>
        キー操作（プレーヤー内で）: Space・K 再生／一時停止、← →・J L 15 秒移動、↑ ↓・&gt; &lt;
        再生速度
      </p>
      <p role="status" aria-live="polite" aria-atomic="true" className="visually-hidden">
        {message}
      </p>
    </div>
  );
}
