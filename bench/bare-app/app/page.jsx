import Link from 'next/link';

// One client-side link, as every real site has: the floor includes next/link's runtime.
export default function Page() {
  return (
    <p>
      こんにちは。<Link href="/">トップページ</Link>
    </p>
  );
}
