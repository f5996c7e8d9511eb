import { Button } from '@/components/ui/button';
import {
  SEARCH_QUERY_MAX_LENGTH,
  type SearchFilter,
} from '@/server/features/search/search-request';
import styles from './search.module.css';

/**
 * The search box: a plain GET form, so it works without JavaScript and the query lands in the
 * URL. With JavaScript, SearchShell turns the submission into a client navigation.
 */
export function SearchForm({ q, type }: { q: string; type: SearchFilter }) {
  return (
    <form method="get" action="/search" role="search" className={styles.form}>
      <label htmlFor="search-q" className={styles.fieldLabel}>
        キーワード
      </label>
      <div className={styles.row}>
        <input
          id="search-q"
          name="q"
          type="search"
          defaultValue={q}
          maxLength={SEARCH_QUERY_MAX_LENGTH}
          autoComplete="off"
          enterKeyHint="search"
          aria-describedby="search-hint"
          className={styles.input}
        />
        {/* A new query keeps the chosen type; the page starts again at 1. */}
        {type !== 'all' ? <input type="hidden" name="type" value={type} /> : null}
        <Button type="submit" width="auto" height={48} className={styles.submit}>
          検索
        </Button>
      </div>
      <p id="search-hint" className={styles.hint}>
        記事・特集・音声・動画・求人をまとめて探せます。スペースで区切った言葉は、すべてを含むものを探します。
      </p>
    </form>
  );
}
