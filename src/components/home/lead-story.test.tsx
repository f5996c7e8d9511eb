import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';

vi.mock('@/components/bookmarks/bookmark-button.client', () => ({ BookmarkButton: () => null }));

import type { CardItem } from '@/components/listing/content-card';
import { LeadStory } from './lead-story';
import { StoryList } from './story-list';

const item = (n: number): CardItem => ({
  href: `/posts/post-00${n}`,
  title: `記事${n}`,
  image: { url: `/uploads/demo/cover-0${n}.jpg`, alt: `表紙${n}` },
});

const imgs = (html: string) => html.match(/<img [^>]*>/g) ?? [];

// The lead story's cover is the home page's largest paint (Lighthouse's LCP element on a phone).
describe('the home page lead image', () => {
  it('loads at once with high priority; the list covers below it wait until scrolled to', () => {
    const html = renderToStaticMarkup(
      <>
        <LeadStory item={item(1)} />
        <StoryList items={[item(2), item(3)]} layout="cards" />
      </>,
    );
    const [lead, ...rest] = imgs(html);
    expect(lead).toContain('alt="表紙1"');
    expect(lead).toContain('fetchPriority="high"');
    expect(lead).toContain('loading="eager"');
    expect(lead).toMatch(/sizes="[^"]*100vw"/);
    expect(rest).toHaveLength(2);
    for (const img of rest) {
      expect(img).toContain('loading="lazy"');
      expect(img).not.toContain('fetchPriority');
    }
  });
});
