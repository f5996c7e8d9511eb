'use client';

import type { FieldDef } from '@/lib/cms/model';
import type { ReferenceOption } from '@/lib/admin-content';
import { resolveShare, type SeoFields } from '@/lib/share/share-meta';
import { previewLeadText } from '@/lib/share/share-text';
import { FieldControl } from './field-control.client';
import { asMedia, asString } from './field-values';
import styles from './share-panel.module.css';
import { SharePreviews } from './share-previews';

/**
 * The editor's 検索と共有 panel: the `seo` custom field's inner fields, and live previews of
 * the link on Google, X, Facebook and LINE from what is typed (the title, description, cover
 * and body the form holds), resolved as the pages resolve them (src/lib/share/share-meta.ts).
 */

export type ShareSite = { name: string; url: string };

export type SharePanelProps = {
  field: FieldDef;
  /** The whole form's values: the previews read the title, description, cover and body. */
  values: Record<string, unknown>;
  error?: string;
  onChange: (value: unknown) => void;
  references: Record<string, ReferenceOption[]>;
  self: { endpoint: string; id: string };
  site: ShareSite;
  /** The page's path once published; the previews show where it will be otherwise. */
  path: string;
};

const asSeo = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};

export function SharePanel({
  field,
  values,
  error,
  onChange,
  references,
  self,
  site,
  path,
}: SharePanelProps) {
  const seo = asSeo(values[field.id]);
  const seoFields: SeoFields = {
    metaTitle: asString(seo.metaTitle),
    metaDescription: asString(seo.metaDescription),
    shareImage: asMedia(seo.shareImage),
    noIndex: seo.noIndex === true,
  };
  const title = asString(values.title) || asString(values.name) || '（タイトル未入力）';
  const body = asString(values.body) || asString(values.transcript);
  const share = resolveShare({
    title: seoFields.metaTitle ? title : `${title} | ${site.name}`,
    description: asString(values.description),
    leadText: body ? previewLeadText(body) : null,
    coverImage: asMedia(values.coverImage),
    seo: seoFields,
    generatedImage: { url: '', alt: title },
  });
  const link = {
    share,
    url: `${site.url.replace(/\/+$/, '')}${path}`,
    siteName: site.name,
    // The generated image shows the item's own title (src/server/features/share/share-image.tsx).
    imageTitle: title,
  };
  const headingId = `${field.id}-panel-title`;
  return (
    <section className={styles.panel} aria-labelledby={headingId}>
      <h2 id={headingId} className={styles.title}>
        {field.label}
      </h2>
      <p className={styles.lead}>
        空欄の項目は、タイトル・概要・カバー画像（画像がなければタイトルから作る画像）が使われます。
      </p>
      {error ? (
        <p className={styles.error} role="alert">
          {error}
        </p>
      ) : null}
      <div className={styles.inputs}>
        {(field.fields ?? []).map((inner) => (
          <FieldControl
            key={inner.id}
            field={{ ...inner, id: `${field.id}-${inner.id}` }}
            value={seo[inner.id]}
            onChange={(value) =>
              onChange({ ...seo, fieldId: field.customFieldId, [inner.id]: value })
            }
            references={references}
            self={self}
          />
        ))}
      </div>
      <h3 className={styles.subtitle}>表示のプレビュー</h3>
      <SharePreviews link={link} />
    </section>
  );
}
