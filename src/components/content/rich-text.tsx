import 'server-only';
import { sanitizeRichText } from '@/server/cms/richtext/sanitize';
import { EmbedFacadeLoader } from './embed-facade-loader.client';
import { withEmbedFacades } from './embed-facades';
import styles from './rich-text.module.css';

/**
 * Rich text from the content service, sanitised again on render (it may come from a hosted
 * CMS), with its embeds as facades (embed-facades.ts).
 */
export function RichText({ html, className }: { html: string; className?: string }) {
  const body = withEmbedFacades(sanitizeRichText(html));
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
