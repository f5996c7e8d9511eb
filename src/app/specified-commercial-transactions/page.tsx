import { SitePageView, siteObjectPageMetadata } from '@/components/content/site-page';

// Read from the content service per request, never at build time.
export const dynamic = 'force-dynamic';

export const generateMetadata = () => siteObjectPageMetadata('specified-commercial-transactions');

export default function SpecifiedCommercialTransactionsPage() {
  return <SitePageView endpoint="specified-commercial-transactions" showUpdated />;
}
