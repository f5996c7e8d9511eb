import 'server-only';
import { type Heading, outlineHeadings } from '@/lib/text/headings';
import { sanitizeRichText } from '@/lib/cms/sanitize';
import { deepFreeze } from '@/lib/deep-freeze';
import { rememberLast } from '@/lib/remember-last';
import { EmbedFacadeLoader } from './embed-facade-loader.client';
import { withEmbedFacades } from './embed-facades';
import styles from './rich-text.module.css';

/** Rich text ready to render: sanitised, headings linkable (ids) and phrased, embeds as facades. */
export type RichBody = { html: string; headings: Heading[]; hasPlayers: boolean };

/**
 * Rich text from the content service, sanitised again on render (it may come from a hosted
 * CMS), its h2 and h3 given ids and its headings broken only between phrases
 * (src/lib/text/headings.ts), its embeds as facades (embed-facades.ts). A page that lists the
 * headings (the table of contents) renders the same RichBody it read them from, so every entry
 * points at an id that is on the page.
 */
export const richBody: (html: string) => RichBody = rememberLast(
  // A page's body, or its lead, is the same text for each reader of a version (the content
  // client shares it); a few bodies' worth is kept.
  16,
  (html) => {
    const outlined = outlineHeadings(sanitizeRichText(html));
    const body = withEmbedFacades(outlined.html);
    return deepFreeze({
      html: body.html,
      hasPlayers: body.hasPlayers,
      headings: outlined.headings,
    });
  },
);

export function RichText({
  html,
  body = richBody(html ?? ''),
  className,
}: {
  className?: string;
} & ({ html: string; body?: undefined } | { html?: undefined; body: RichBody })) {
  return (
    <>
      <div
        className={className ? `${styles.richText} ${className}` : styles.richText}
        dangerouslySetInnerHTML={{ __html: body.html }}
      />
      {body.hasPlayers ? <EmbedFacadeLoader /> : null}
    </>
  );
}
