import Script from 'next/script';

/** Loads Google Tag Manager only when GTM_ID is set; the data layer exists either way. */
export function TagManager({ gtmId }: { gtmId: string | undefined }) {
  return (
    <>
      <Script id="data-layer" strategy="beforeInteractive">
        {'window.dataLayer=window.dataLayer||[];'}
      </Script>
      {gtmId ? (
        <Script id="gtm" strategy="afterInteractive">
          {`(function(w,d,s,l,i){w[l]=w[l]||[];w[l].push({'gtm.start':new Date().getTime(),event:'gtm.js'});var f=d.getElementsByTagName(s)[0],j=d.createElement(s),dl=l!='dataLayer'?'&l='+l:'';j.async=true;j.src='https://www.googletagmanager.com/gtm.js?id='+i+dl;f.parentNode.insertBefore(j,f);})(window,document,'script','dataLayer',${JSON.stringify(gtmId)});`}
        </Script>
      ) : null}
    </>
  );
}
