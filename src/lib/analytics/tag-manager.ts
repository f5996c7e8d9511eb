/**
 * Google Tag Manager's own snippet for a container, as the root layout inlines it
 * (src/components/analytics/tag-manager.tsx) and the page CSP allows it by its hash
 * (src/server/features/front/csp.ts). GTM_ID is validated (src/env.ts), and JSON.stringify quotes it.
 */
export function tagManagerSnippet(gtmId: string): string {
  return `(function(w,d,s,l,i){w[l]=w[l]||[];w[l].push({'gtm.start':new Date().getTime(),event:'gtm.js'});var f=d.getElementsByTagName(s)[0],j=d.createElement(s),dl=l!='dataLayer'?'&l='+l:'';j.async=true;j.src='https://www.googletagmanager.com/gtm.js?id='+i+dl;f.parentNode.insertBefore(j,f);})(window,document,'script','dataLayer',${JSON.stringify(gtmId)});`;
}
