// The least an App Router site ships: a root layout and one page (see bench/first-load-js.ts).
// Plain JSX, so that `next build` has no TypeScript packages to look for.
export default function RootLayout({ children }) {
  return (
    <html lang="ja">
      <body>{children}</body>
    </html>
  );
}
