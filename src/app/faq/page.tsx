import '@/styles/base';
import { SitePageView, siteObjectPageMetadata } from '@/components/content/site-page';

// Read from the content service per request, never at build time.
export const dynamic = 'force-dynamic';

export const generateMetadata = () => siteObjectPageMetadata('faq');

export default function FaqPage() {
  return <SitePageView endpoint="faq" />;
}
