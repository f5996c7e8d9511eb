'use client';

import { useEffect } from 'react';
import { playerSrc } from '@/lib/cms/embeds';
import styles from './rich-text.module.css';

/**
 * The other half of embed-facades.ts: a click on a player facade swaps in the player, with
 * autoplay, so one click plays. Every facade on the page is handled by one listener, however
 * many rich-text blocks render this (the first to handle a click marks it done).
 */
export function EmbedFacadeLoader() {
  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      if (event.defaultPrevented || event.button !== 0) return;
      // A modified click opens the video's page in a new tab, as any link would.
      if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const target = event.target instanceof Element ? event.target : null;
      const link = target?.closest<HTMLAnchorElement>('a[data-embed-src]');
      const frame = link?.parentElement;
      const src = playerSrc(link?.dataset.embedSrc ?? '');
      if (!link || !frame || !src) return;
      event.preventDefault();
      const player = document.createElement('iframe');
      const url = new URL(src);
      url.searchParams.set('autoplay', '1');
      player.src = url.href;
      player.title = link.dataset.embedTitle ?? '動画';
      player.allow = 'autoplay; encrypted-media; picture-in-picture; fullscreen';
      player.allowFullscreen = true;
      player.referrerPolicy = 'strict-origin-when-cross-origin';
      frame.classList.add(styles.playerLoaded ?? '');
      frame.replaceChildren(player);
      // The button the reader pressed is gone: keep their place on the player.
      player.focus();
    };
    document.addEventListener('click', onClick);
    return () => document.removeEventListener('click', onClick);
  }, []);
  return null;
}
