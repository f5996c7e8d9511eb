import 'server-only';
import { sanitizeRichText } from '@/server/cms/richtext/sanitize';
import styles from './rich-text.module.css';

/** Rich text from the content service, sanitised again on render (it may come from a hosted CMS). */
export function RichText({ html, className }: { html: string; className?: string }) {
  return (
    <div
      className={className ? `${styles.richText} ${className}` : styles.richText}
      dangerouslySetInnerHTML={{ __html: sanitizeRichText(html) }}
    />
  );
}
