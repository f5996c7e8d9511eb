import '@/styles/base';
import { SitePageView, siteObjectPageMetadata } from '@/components/content/site-page';
import { PRIVACY_HEADING } from '@/server/features/content/site-pages';

// Read from the content service per request, never at build time.
export const dynamic = 'force-dynamic';

export const generateMetadata = () => siteObjectPageMetadata('terms');

/** The sign-up form links to /terms#privacy: the terms' privacy article carries that id. */
export default function TermsPage() {
  return (
    <SitePageView
      endpoint="terms"
      showUpdated
      anchor={{ id: 'privacy', heading: PRIVACY_HEADING }}
    />
  );
}
