/**
 * Loads Google Tag Manager only when GTM_ID is set, with Google's own snippet inlined in the
 * server-rendered HTML (a plain script: next/script would add its client code to every page,
 * GTM or not). The data layer itself is created by the first page_view push and by this
 * snippet, so events before GTM loads are kept for it. GTM_ID is validated (src/env.ts), and
 * JSON.stringify quotes it.
 */
export function TagManager({ gtmId }: { gtmId: string | undefined }) {
  if (!gtmId) return null;
  const snippet = `(function(w,d,s,l,i){w[l]=w[l]||[];w[l].push({'gtm.start':new Date().getTime(),event:'gtm.js'});var f=d.getElementsByTagName(s)[0],j=d.createElement(s),dl=l!='dataLayer'?'&l='+l:'';j.async=true;j.src='https://www.googletagmanager.com/gtm.js?id='+i+dl;f.parentNode.insertBefore(j,f);})(window,document,'script','dataLayer',${JSON.stringify(gtmId)});`;
  return <script id="gtm" dangerouslySetInnerHTML={{ __html: snippet }} />;
}
