import { PAYWALLED_CLASS } from '@/lib/json-ld/article';
import type { CallToAction } from '@/lib/access/post-access';
import type { MeterView } from '@/lib/metered/meter';
import { Paywall, type PaywallItem } from './paywall';
import { type RichBody, RichText, richBody } from './rich-text';

/**
 * A text item (a post, a connect page) for a reader who may not read it whole: the open lead,
 * then the paywall where the rest would stand (the part the Article JSON-LD marks paywalled).
 * The lead is shown whole, neither clipped nor faded: it is what the editor put above the
 * divider for every visitor to see (docs/decisions/029-divider-is-the-lead.md), or the policy's
 * short text lead without one.
 */
export function PaywalledLead({
  html,
  body = richBody(html ?? ''),
  shown,
  item,
  returnTo,
  contentId,
}: {
  /** The lead: the part of the body the access policy gives this reader. */
  html?: string;
  /** The lead already rendered (the page listed its headings for the table of contents). */
  body?: RichBody;
  shown: { cta: CallToAction; gatedChars?: number; meter?: MeterView };
  item: PaywallItem;
  returnTo: string;
  /** The item's id, for a post sold singly (Paywall). */
  contentId?: string;
}) {
  return (
    <>
      <RichText body={body} />
      <Paywall
        className={PAYWALLED_CLASS}
        cta={shown.cta}
        item={item}
        returnTo={returnTo}
        contentId={contentId}
        gatedChars={shown.gatedChars}
        meter={shown.meter}
      />
    </>
  );
}
