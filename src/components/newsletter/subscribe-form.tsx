import styles from './subscribe-form.module.css';

/**
 * The newsletter's subscription by e-mail alone (as Ghost's footer): a plain form post, so it
 * works without JavaScript. The page the reader was on is kept with their consent: the server
 * reads it from the Referer.
 */
export function NewsletterSubscribeForm({ tone = 'dark' }: { tone?: 'dark' | 'light' }) {
  return (
    <form
      method="post"
      action="/api/newsletter/subscribe"
      className={`${styles.form} ${tone === 'dark' ? styles.dark : styles.light}`}
      aria-labelledby={`newsletter-subscribe-title-${tone}`}
    >
      <p id={`newsletter-subscribe-title-${tone}`} className={styles.title}>
        ニュースレターを受け取る
      </p>
      <p className={styles.note}>
        新しい記事をメールでお届けします（無料会員として登録されます）。
      </p>
      <div className={styles.row}>
        <label htmlFor={`newsletter-email-${tone}`} className={styles.label}>
          メールアドレス
        </label>
        <input
          id={`newsletter-email-${tone}`}
          name="email"
          type="email"
          required
          autoComplete="email"
          inputMode="email"
          maxLength={254}
          className={styles.input}
          placeholder="you@example.jp"
        />
        <button type="submit" className={styles.button}>
          メールで受け取る
        </button>
      </div>
      <p className={styles.fine}>
        確認メールのリンクから登録を完了すると配信が始まります。登録により
        <a href="/terms">利用規約</a>に同意したものとみなします。配信はいつでも停止できます。
      </p>
    </form>
  );
}
