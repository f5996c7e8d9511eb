'use client';

import {
  type ChangeEvent,
  type CSSProperties,
  type KeyboardEvent,
  useId,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';
import { PauseIcon, PlayIcon, SkipIcon, VolumeIcon } from './audio-icons';
import {
  AUDIO_KEY_SHORTCUTS,
  SKIP_BACK_SECONDS,
  SKIP_FORWARD_SECONDS,
  actionForKey,
  ownsKey,
  seekKeyTarget,
} from './audio-keys';
import { clampTime, formatClock, positionText, spokenTime } from './audio-time';
import styles from './audio-player.module.css';
import { KeyboardHelp } from './keyboard-help';
import { useMediaState } from './use-media-state';
import { Options } from '@/components/forms/options';

export const SPEEDS = [0.75, 1, 1.25, 1.5, 1.75, 2] as const;

/** The steps, and the current speed among them when something else (a media key) set another. */
const speedOptions = (speed: number): number[] =>
  (SPEEDS as readonly number[]).includes(speed)
    ? [...SPEEDS]
    : [...SPEEDS, speed].sort((a, b) => a - b);

const subscribeToNothing = () => () => {};

/** A file's length once the browser knows it. */
const lengthOf = (el: HTMLMediaElement) =>
  Number.isFinite(el.duration) && el.duration > 0 ? el.duration : null;

/**
 * An audio episode's player: a large play button, a seek bar (a labelled slider that speaks
 * its position), 15 seconds back and 30 forward, the speed and the volume, over one <audio>
 * element. The server renders the browser's own controls, so the episode plays without
 * JavaScript (and before hydration); the player's own controls replace them once it runs.
 *
 * With the focus anywhere in the player, Space or K plays and pauses, ←/→ (J/L) skip,
 * ↑/↓ (>/<) change the speed and M mutes; what changed is read out through a polite live
 * region. The keys are listed under 「キーボード操作」.
 */
export function AudioPlayer({
  src,
  title,
  duration: knownDuration,
}: {
  src: string;
  title: string;
  /** Seconds, from the CMS: shown until the file's own metadata arrives. */
  duration?: number;
}) {
  const audio = useRef<HTMLAudioElement>(null);
  const hydrated = useSyncExternalStore(
    subscribeToNothing,
    () => true,
    () => false,
  );
  const [media, refresh] = useMediaState(audio);
  const [message, setMessage] = useState('');
  const hintId = useId();
  const duration = media.duration ?? knownDuration ?? null;

  const seekTo = (seconds: number) => {
    const el = audio.current;
    if (!el) return;
    el.currentTime = seconds;
    refresh(); // the bar follows the drag before the browser's `seeking` event
  };

  const skip = (seconds: number) => {
    const el = audio.current;
    if (!el) return;
    const to = clampTime(el.currentTime, seconds, lengthOf(el) ?? knownDuration ?? null);
    seekTo(to);
    const verb = seconds < 0 ? '戻しました' : '進めました';
    setMessage(`${Math.abs(seconds)}秒${verb}（${spokenTime(to)}）`);
  };

  const toggle = () => {
    const el = audio.current;
    if (!el) return;
    if (el.paused) {
      setMessage('再生しました');
      void Promise.resolve(el.play()).catch(() => setMessage('再生できませんでした'));
    } else {
      el.pause();
      setMessage(`一時停止しました（${spokenTime(el.currentTime)}）`);
    }
  };

  const applySpeed = (next: number) => {
    const el = audio.current;
    if (!el) return;
    el.playbackRate = next;
    // A new source resets playbackRate to this one: the choice survives a reload of the file.
    el.defaultPlaybackRate = next;
    refresh();
  };

  const stepSpeed = (direction: 1 | -1) => {
    const speed = audio.current?.playbackRate ?? media.rate;
    // The next step from where the speed is now (it may be off the steps).
    const next = direction > 0 ? SPEEDS.find((s) => s > speed) : SPEEDS.findLast((s) => s < speed);
    if (next === undefined) {
      setMessage(`再生速度 ${speed}倍（${direction > 0 ? '最速' : '最も遅い速度'}です）`);
      return;
    }
    applySpeed(next);
    setMessage(`再生速度 ${next}倍`);
  };

  const toggleMute = () => {
    const el = audio.current;
    if (!el) return;
    el.muted = !el.muted;
    refresh();
    setMessage(el.muted ? 'ミュートしました' : 'ミュートを解除しました');
  };

  const changeVolume = (event: ChangeEvent<HTMLInputElement>) => {
    const el = audio.current;
    if (!el) return;
    el.volume = Number(event.target.value);
    el.muted = el.volume === 0;
    refresh();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.nativeEvent.isComposing) return;
    const action = actionForKey(event.key);
    if (!action || ownsKey(event.target, event.key)) return;
    event.preventDefault(); // no page scroll on Space or the arrows
    if (action === 'toggle') toggle();
    else if (action === 'back') skip(-SKIP_BACK_SECONDS);
    else if (action === 'forward') skip(SKIP_FORWARD_SECONDS);
    else if (action === 'mute') toggleMute();
    else stepSpeed(action === 'faster' ? 1 : -1);
  };

  const onSeekKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.ctrlKey || event.metaKey || event.altKey || !duration) return;
    const to = seekKeyTarget(event.key, audio.current?.currentTime ?? 0, duration);
    if (to === undefined) return;
    event.preventDefault();
    seekTo(to);
  };

  const position = Math.min(media.currentTime, duration ?? media.currentTime);
  const progress = duration ? `${(position / duration) * 100}%` : '0%';
  const audible = !media.muted && media.volume > 0;

  return (
    <div
      className={styles.player}
      data-ready={hydrated}
      role="group"
      aria-label={`音声プレーヤー: ${title}`}
      aria-describedby={hydrated ? hintId : undefined}
      aria-keyshortcuts={hydrated ? AUDIO_KEY_SHORTCUTS : undefined}
      onKeyDown={hydrated ? onKeyDown : undefined}
    >
      <audio
        ref={audio}
        controls={!hydrated}
        preload="metadata"
        src={src}
        className={styles.native}
      >
        お使いのブラウザでは音声を再生できません。
      </audio>
      {hydrated ? (
        <>
          <div className={styles.main}>
            <button
              type="button"
              className={styles.play}
              onClick={toggle}
              aria-label={media.paused ? '再生' : '一時停止'}
            >
              {media.paused ? (
                <PlayIcon className={styles.playIcon} />
              ) : (
                <PauseIcon className={styles.playIcon} />
              )}
            </button>
            <div className={styles.seek}>
              <input
                type="range"
                className={styles.range}
                style={{ '--progress': progress } as CSSProperties}
                min={0}
                max={duration ?? 0}
                step="any"
                value={position}
                disabled={!duration}
                aria-label="再生位置"
                aria-valuetext={positionText(position, duration)}
                onChange={(event) => seekTo(Number(event.target.value))}
                onKeyDown={onSeekKey}
              />
              <p className={styles.times} aria-hidden="true">
                <span>{formatClock(position)}</span>
                <span>{duration ? formatClock(duration) : '--:--'}</span>
              </p>
            </div>
          </div>
          <div className={styles.controls}>
            <button
              type="button"
              className={styles.iconButton}
              onClick={() => skip(-SKIP_BACK_SECONDS)}
            >
              <SkipIcon seconds={SKIP_BACK_SECONDS} direction="back" className={styles.icon} />
              <span className="visually-hidden">{SKIP_BACK_SECONDS}秒戻る</span>
            </button>
            <button
              type="button"
              className={styles.iconButton}
              onClick={() => skip(SKIP_FORWARD_SECONDS)}
            >
              <SkipIcon
                seconds={SKIP_FORWARD_SECONDS}
                direction="forward"
                className={styles.icon}
              />
              <span className="visually-hidden">{SKIP_FORWARD_SECONDS}秒進む</span>
            </button>
            <div className={styles.volume}>
              <button
                type="button"
                className={styles.iconButton}
                onClick={toggleMute}
                aria-pressed={!audible}
              >
                <VolumeIcon muted={!audible} className={styles.icon} />
                <span className="visually-hidden">ミュート</span>
              </button>
              <input
                type="range"
                className={`${styles.range} ${styles.volumeRange}`}
                style={{ '--progress': `${(audible ? media.volume : 0) * 100}%` } as CSSProperties}
                min={0}
                max={1}
                step={0.05}
                value={audible ? media.volume : 0}
                aria-label="音量"
                aria-valuetext={`音量 ${Math.round((audible ? media.volume : 0) * 100)}%`}
                onChange={changeVolume}
              />
            </div>
            <label className={styles.speed}>
              {/* 「速度」 on screen (it fits a phone's row), 「再生速度」 to a screen reader. */}
              <span>速度</span>
              <select
                className={styles.select}
                aria-label="再生速度"
                value={String(media.rate)}
                onChange={(event) => applySpeed(Number(event.target.value))}
              >
                <Options items={speedOptions(media.rate)} label={(s) => `${s}倍`} />
              </select>
            </label>
          </div>
          {media.failed ? (
            <p className={styles.error} role="alert">
              音声を読み込めませんでした。時間をおいてページを再読み込みしてください。
            </p>
          ) : null}
          <KeyboardHelp />
          <p id={hintId} className="visually-hidden">
            キーボードでも操作できます。操作の一覧は「キーボード操作」にあります。
          </p>
        </>
      ) : null}
      <p role="status" aria-live="polite" aria-atomic="true" className="visually-hidden">
        {message}
      </p>
    </div>
  );
}
