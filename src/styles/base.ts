/**
 * The CSS modules of the root layout (header, footer, notices), of the error and not-found pages
 * (whose styles every page preloads for its error boundary) and the primitives most pages
 * compose, in one order. Every page and layout imports this file first, so that every route's
 * CSS starts with these modules in this order: the build (next.config.ts, cssChunking 'graph')
 * then puts them in the stylesheets every page shares, and each page's own modules in a few
 * files after them. A page that brought in its own modules first would place them between these
 * in the build's one CSS order, and the shared stylesheets would be cut around them
 * (docs/decisions/050-css-per-page.md; src/styles/base.test.ts checks both).
 */
import '@/components/ui/layout.module.css';
import '@/components/ui/text.module.css';
import '@/components/ui/controls.module.css';
import '@/components/ui/card.module.css';
import '@/components/ui/button.module.css';
import '@/components/ui/spinner.module.css';
import '@/components/ui/snackbar.module.css';
import '@/components/content/access-badge.module.css';
import '@/components/bookmarks/sign-in-prompt.module.css';
import '@/components/bookmarks/bookmark-button.module.css';
import '@/components/billing/billing-notice.module.css';
import '@/components/analytics/analytics-opt-out.module.css';
import '@/components/newsletter/subscribe-form.module.css';
import '@/components/theme/theme-switch.module.css';
import '@/components/layout/site-footer.module.css';
import '@/components/layout/navigation-progress.module.css';
import '@/components/account/avatar.module.css';
import '@/components/layout/header-action.module.css';
import '@/components/layout/account-menu.module.css';
import '@/components/layout/mobile-menu.module.css';
import '@/components/layout/site-header.module.css';
import '@/components/system/status-page.module.css';
