'use client';

import { type ReactNode, useState } from 'react';
import styles from './media.module.css';

/**
 * A YouTube or Vimeo embed behind a facade: the cover and a play button until the reader asks
 * for it, so the page does not load a third-party player it may never use. Without JavaScript
 * the button is a link to the player.
 */
export function EmbedPlayer({
  src,
  title,
  poster,
}: {
  src: string;
  title: string;
  /** The cover, rendered on the server (an <img>, so the browser finds it early). */
  poster?: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  if (open) {
    return (
      <div className={styles.frame}>
        <iframe
          src={`${src}${src.includes('?') ? '&' : '?'}autoplay=1`}
          title={title}
          allow="autoplay; encrypted-media; picture-in-picture; fullscreen"
          allowFullScreen
          referrerPolicy="strict-origin-when-cross-origin"
        />
      </div>
    );
  }
  return (
    <div className={styles.frame}>
      {poster}
      <a
        href={src}
        className={styles.play}
        onClick={(event) => {
          event.preventDefault();
          setOpen(true);
        }}
      >
        <span aria-hidden="true">▶</span>
        <span>動画を再生する</span>
      </a>
    </div>
  );
}
