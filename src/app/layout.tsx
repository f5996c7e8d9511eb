import './globals.css';
import '@/styles/base';
import type { Metadata, Viewport } from 'next';
import { Suspense, type ReactNode } from 'react';
import { AuthStateProvider } from '@/components/account/auth-state.client';
import { PageViewTracker } from '@/components/analytics/page-view-tracker.client';
import { BillingNoticeBanner } from '@/components/billing/billing-notice-banner';
import { TagManager } from '@/components/analytics/tag-manager';
import { SiteFooter } from '@/components/layout/site-footer';
import { LinkNavigator, NavigationProgress } from '@/components/layout/site-navigation.client';
import { SiteHeader } from '@/components/layout/site-header';
import { ConnectivityNotice } from '@/components/system/connectivity-notice.client';
import { PlanChangeNoticeProvider } from '@/components/ui/plan-change-notice.client';
import { SnackbarProvider } from '@/components/ui/snackbar-context.client';
import { env } from '@/env';
import { siteMetadata } from '@/lib/metadata';
import { THEME_SCRIPT } from '@/lib/theme/theme-script';

export function generateMetadata(): Metadata {
  return siteMetadata({ siteUrl: env().SITE_URL, siteName: env().SITE_NAME });
}

export const viewport: Viewport = {
  width: 'device-width',
  initialScale: 1,
  // The browser's own bar follows the page's scheme (the OS's; a reader's own choice is not
  // known to the server, docs/decisions/036-dark-mode-sharing-touch.md).
  themeColor: [
    { media: '(prefers-color-scheme: light)', color: '#ffffff' },
    { media: '(prefers-color-scheme: dark)', color: '#141414' },
  ],
};

export default function RootLayout({ children }: { children: ReactNode }) {
  const { SITE_NAME, GTM_ID } = env();
  return (
    // suppressHydrationWarning: the theme script sets data-theme on <html> before React runs.
    <html lang="ja" suppressHydrationWarning>
      <head>
        {/* First in <head>: the reader's scheme is on <html> before anything is painted. */}
        <script dangerouslySetInnerHTML={{ __html: THEME_SCRIPT }} />
      </head>
      <body>
        <TagManager gtmId={GTM_ID} />
        <a href="#main" className="skip-link">
          本文へスキップ
        </a>
        <SnackbarProvider>
          <AuthStateProvider>
            <PlanChangeNoticeProvider>
              <SiteHeader siteName={SITE_NAME} />
              <BillingNoticeBanner />
              <main id="main" tabIndex={-1}>
                {children}
              </main>
              <SiteFooter siteName={SITE_NAME} />
            </PlanChangeNoticeProvider>
          </AuthStateProvider>
          <ConnectivityNotice />
        </SnackbarProvider>
        <Suspense fallback={null}>
          <PageViewTracker />
          <NavigationProgress />
          <LinkNavigator />
        </Suspense>
      </body>
    </html>
  );
}
