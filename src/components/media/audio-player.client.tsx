'use client';

import { useRef, useState } from 'react';
import styles from './media.module.css';

const SPEEDS = [0.75, 1, 1.25, 1.5, 2] as const;

/**
 * The browser's own audio controls (keyboard and screen-reader friendly) plus the buttons a
 * listener of talks wants: 15 seconds back and forward, and the speed.
 */
export function AudioPlayer({ src, title }: { src: string; title: string }) {
  const audio = useRef<HTMLAudioElement>(null);
  const [speed, setSpeed] = useState<number>(1);
  const skip = (seconds: number) => {
    const el = audio.current;
    if (el)
      el.currentTime = Math.max(0, Math.min(el.duration || Infinity, el.currentTime + seconds));
  };
  return (
    <div className={styles.audio} role="group" aria-label={`音声プレーヤー: ${title}`}>
      <audio ref={audio} controls preload="metadata" src={src} className={styles.audioElement}>
        お使いのブラウザでは音声を再生できません。
      </audio>
      <div className={styles.audioControls}>
        <button type="button" onClick={() => skip(-15)}>
          15 秒戻る
        </button>
        <button type="button" onClick={() => skip(15)}>
          15 秒進む
        </button>
        <label>
          再生速度
          <select
            value={speed}
            onChange={(event) => {
              const next = Number(event.target.value);
              setSpeed(next);
              if (audio.current) audio.current.playbackRate = next;
            }}
          >
            {SPEEDS.map((s) => (
              <option key={s} value={s}>
                {s}×
              </option>
            ))}
          </select>
        </label>
      </div>
    </div>
  );
}
