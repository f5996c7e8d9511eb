/**
 * The CSS modules of the post page beyond base.ts, in one order. Every item page (a post, an
 * episode, a movie, a connect story) imports this file right after base.ts, so these modules
 * are used by the same routes in the same order and the build (next.config.ts, cssChunking
 * 'graph') ships them as a block: the post page, a media site's most read, links 5 render-blocking
 * stylesheets instead of 9, and every extra request costs a round trip before the first paint
 * on a slow phone (docs/decisions/050-css-per-page.md, amendment of 2026-11-30;
 * src/styles/base.test.ts checks that the post page reaches no module missing here).
 */
import '@/components/content/article.module.css';
import '@/components/billing/billing.module.css';
import '@/components/account/account-page.module.css';
import '@/components/content/paywall.module.css';
import '@/components/content/rich-text.module.css';
import '@/components/content/table-of-contents.module.css';
import '@/components/content/share-links.module.css';
import '@/components/listing/listing.module.css';
import '@/components/preview/preview-banner.module.css';
import '@/components/gifts/gifts.module.css';
import '@/components/forms/form.module.css';
import '@/components/tips/tips.module.css';
import '@/components/comments/comments.module.css';
