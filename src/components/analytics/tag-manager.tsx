import Script from 'next/script';

/**
 * Loads Google Tag Manager only when GTM_ID is set. The data layer itself is created by the
 * first page_view push (and by this snippet), so events before GTM loads are kept for it.
 */
export function TagManager({ gtmId }: { gtmId: string | undefined }) {
  return (
    <>
      {gtmId ? (
        <Script id="gtm" strategy="afterInteractive">
          {`(function(w,d,s,l,i){w[l]=w[l]||[];w[l].push({'gtm.start':new Date().getTime(),event:'gtm.js'});var f=d.getElementsByTagName(s)[0],j=d.createElement(s),dl=l!='dataLayer'?'&l='+l:'';j.async=true;j.src='https://www.googletagmanager.com/gtm.js?id='+i+dl;f.parentNode.insertBefore(j,f);})(window,document,'script','dataLayer',${JSON.stringify(gtmId)});`}
        </Script>
      ) : null}
    </>
  );
}
