'use client';

import './globals.css';
import { ErrorScreen } from '@/components/system/status-page';

/** Replaces the root layout when it fails itself, so it brings its own <html>. */
export default function GlobalError({
  reset,
}: {
  error: Error & { digest?: string };
  reset: () => void;
}) {
  return (
    <html lang="ja">
      <body>
        <main id="main">
          <ErrorScreen
            reset={reset}
            home={
              // A full page load: the root layout itself failed, so client navigation may too.
              // eslint-disable-next-line @next/next/no-html-link-for-pages
              <a href="/">トップページへ戻る</a>
            }
          />
        </main>
      </body>
    </html>
  );
}
