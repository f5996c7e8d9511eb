'use client';

import { useEffect, useState } from 'react';
import { consolePaths } from '@/lib/admin-content';
import {
  HEARTBEAT_MS,
  type PresenceAnswer,
  editingSentence,
  presenceAnswerSchema,
  savedMeanwhile,
} from '@/lib/cms/presence';
import styles from './editing-presence.module.css';

/** One heartbeat; null when it failed (the next one tries again: an entry lives 45 s). */
async function sendHeartbeat(url: string, leaving = false): Promise<PresenceAnswer | null> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(leaving ? { leaving } : {}),
      credentials: 'same-origin',
      // The last one is sent while the page goes away.
      keepalive: leaving,
    });
    if (!response.ok || leaving) return null;
    const parsed = presenceAnswerSchema.safeParse(await response.json());
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * 「佐藤さんが3分前から編集中です」 above the editor while someone else has the item open, and a
 * warning once someone else saved it after this editor loaded it (saving would conflict; the
 * save still asks). Heartbeats every 15 s while the tab is visible; a hidden tab stops and is
 * forgotten by the others within 45 s, a closed one at once (docs/decisions/038-editing-presence.md).
 */
export function EditingPresence({
  endpoint,
  id,
  baseUpdatedAt,
}: {
  endpoint: string;
  id: string;
  /** The version the editor started from (its last save's, once it saved); null: none yet. */
  baseUpdatedAt: string | null;
}) {
  const [answer, setAnswer] = useState<PresenceAnswer | null>(null);

  useEffect(() => {
    const url = consolePaths.apiPresence(endpoint, id);
    let timer: number | undefined;
    let active = true;
    const beat = async () => {
      const next = await sendHeartbeat(url);
      if (next && active) setAnswer(next);
    };
    const stop = () => {
      window.clearInterval(timer);
      timer = undefined;
    };
    const onVisibility = () => {
      if (document.visibilityState !== 'visible') return stop();
      if (timer !== undefined) return;
      void beat();
      timer = window.setInterval(() => void beat(), HEARTBEAT_MS);
    };
    const leave = () => void sendHeartbeat(url, true);
    // Back from the browser's page cache: present again at once.
    const onShow = (event: PageTransitionEvent) => {
      if (event.persisted) void beat();
    };
    onVisibility();
    document.addEventListener('visibilitychange', onVisibility);
    window.addEventListener('pagehide', leave);
    window.addEventListener('pageshow', onShow);
    return () => {
      active = false;
      stop();
      document.removeEventListener('visibilitychange', onVisibility);
      window.removeEventListener('pagehide', leave);
      window.removeEventListener('pageshow', onShow);
      leave();
    };
  }, [endpoint, id]);

  const at = answer ? new Date(answer.at) : null;
  const sentences =
    answer && at
      ? answer.editors.map((entry, i) => ({
          key: `${i}:${entry.name}`,
          text: editingSentence(entry, at),
        }))
      : [];
  const warning = answer ? savedMeanwhile(answer, baseUpdatedAt) : null;
  const speaks = sentences.length > 0 || warning !== null;

  return (
    // A polite live region, in the page from the start so that its first words are announced.
    <div role="status" className={speaks ? styles.presence : undefined}>
      {sentences.map((sentence) => (
        <p key={sentence.key}>{sentence.text}。</p>
      ))}
      {warning ? <p>{warning}</p> : null}
      {sentences.length > 0 && !warning ? (
        <p className={styles.note}>
          同時に変更すると、あとから保存する人に競合の確認が表示されます。
        </p>
      ) : null}
    </div>
  );
}
