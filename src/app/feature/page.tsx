import { CardGrid } from '@/components/listing/content-card';
import { EmptyState, ListPage } from '@/components/listing/list-page';
import { sitePageMetadata } from '@/components/listing/site-metadata';
import { listCategories } from '@/server/content/lists';

// Content is read per request (the build never opens the database).
export const dynamic = 'force-dynamic';

export const metadata = sitePageMetadata({
  title: '特集',
  description: 'ひとつのテーマを多角的に掘り下げる特集号。',
  path: '/feature',
});

export default async function FeaturePage() {
  const categories = await listCategories();
  return (
    <ListPage title="特集" lead={<p>ひとつのテーマを多角的に掘り下げる特集号。</p>}>
      {categories.length === 0 ? (
        <EmptyState>特集はまだありません。</EmptyState>
      ) : (
        <CardGrid
          headingLevel={2}
          firstPriority
          items={categories.map((c) => ({
            href: `/feature/${c.id}`,
            title: c.name,
            kicker: c.issueNumber ? `No.${c.issueNumber}` : '特集',
            description: c.description,
            image: c.coverImage ? { url: c.coverImage.url, alt: c.coverImage.alt } : null,
          }))}
        />
      )}
    </ListPage>
  );
}
