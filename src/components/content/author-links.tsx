import { Link } from '@/components/layout/site-link';
import { Fragment } from 'react';
import { authorPath } from '@/lib/authors/works';

/**
 * A byline whose names lead to the writers' pages (`rel="author"`): 「文・A、B」 for a post,
 * 「出演・…」 for an audio or a movie, whose writers are the cast. Cards keep the plain text
 * (src/components/content/item-header.tsx `byline`): a card is one link already.
 */
export function AuthorLinks({
  writers,
  role = '文',
}: {
  writers: readonly { id: string; name: string }[];
  role?: '文' | '出演' | null;
}) {
  if (writers.length === 0) return null;
  return (
    <span>
      {role ? `${role}・` : null}
      {writers.map((writer, i) => (
        <Fragment key={writer.id}>
          {i > 0 ? '、' : null}
          <Link href={authorPath(writer.id)} rel="author">
            {writer.name}
          </Link>
        </Fragment>
      ))}
    </span>
  );
}
