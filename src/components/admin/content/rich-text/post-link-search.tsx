'use client';

import { type KeyboardEvent, useId, useState } from 'react';
import users from '@/components/admin/users/users.module.css';
import { CONSOLE_STATUS_LABELS, type ReferenceOption } from '@/lib/admin-content';
import { useConsoleLookup } from '../use-console-lookup';
import styles from './rich-text-editor.module.css';

/** The site path of a post: what an internal link points at. */
export function postPath(id: string): string {
  return `/posts/${id}`;
}

/**
 * The link dialog's search of the site's posts by title (the console's lookup): a combobox
 * whose options show each post's title and URL; ↑ ↓ move, Enter chooses. Choosing one sets the
 * link to /posts/ID.
 */
export function PostLinkSearch({ onChoose }: { onChoose: (post: ReferenceOption) => void }) {
  const id = useId();
  const listId = `${id}-list`;
  const hintId = `${id}-hint`;
  const statusId = `${id}-status`;
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const searching = query.trim().length > 0;
  const lookup = useConsoleLookup('posts', query, searching, () => setActive(0));
  const results = searching && lookup.state === 'done' ? lookup.items : [];
  const expanded = results.length > 0;

  const choose = (post: ReferenceOption | undefined) => {
    if (!post) return;
    onChoose(post);
    setQuery('');
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      if (!expanded) return;
      event.preventDefault();
      const delta = event.key === 'ArrowDown' ? 1 : -1;
      setActive((index) => (index + delta + results.length) % results.length);
    } else if (event.key === 'Enter') {
      // Enter chooses here; it must not submit the dialog with a half-typed title.
      event.preventDefault();
      if (expanded) choose(results[active]);
    }
  };

  const status = !searching
    ? ''
    : lookup.state === 'loading' || lookup.state === 'idle'
      ? '検索しています…'
      : lookup.state === 'failed'
        ? '記事を検索できませんでした。もう一度入力してください。'
        : results.length === 0
          ? '一致する記事がありません。'
          : `${results.length}件の記事があります。上下の矢印キーで選び、Enter で決めます。`;

  return (
    <div className={users.field}>
      <label htmlFor={id} className={users.label}>
        サイト内の記事を探す
      </label>
      <p id={hintId} className={users.hint}>
        タイトルの一部を入力して選ぶと、リンク先がその記事の URL になります。
      </p>
      <input
        id={id}
        className={users.input}
        type="text"
        role="combobox"
        autoComplete="off"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-activedescendant={expanded ? `${listId}-${active}` : undefined}
        aria-describedby={`${hintId} ${statusId}`}
        value={query}
        onChange={(event) => setQuery(event.target.value)}
        onKeyDown={onKeyDown}
      />
      <ul
        id={listId}
        role="listbox"
        aria-label="記事の候補"
        className={styles.linkResults}
        hidden={!expanded}
      >
        {results.map((post, index) => (
          <li
            key={post.id}
            id={`${listId}-${index}`}
            role="option"
            aria-selected={index === active}
            className={styles.linkResult}
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => choose(post)}
          >
            <span>
              {post.label}
              {post.status === 'published' ? null : `（${CONSOLE_STATUS_LABELS[post.status]}）`}
            </span>
            <span className={styles.linkResultUrl}>{postPath(post.id)}</span>
          </li>
        ))}
      </ul>
      <p id={statusId} className={users.hint} role="status">
        {status}
      </p>
    </div>
  );
}
