import '@/styles/base';
import { SitePageView, siteObjectPageMetadata } from '@/components/content/site-page';

// The partner programme, from the content service's `biz-about` object, read per request.
export const dynamic = 'force-dynamic';

export const generateMetadata = () => siteObjectPageMetadata('biz-about');

export default function BizAboutPage() {
  return <SitePageView endpoint="biz-about" />;
}
