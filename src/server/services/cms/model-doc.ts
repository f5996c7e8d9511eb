import { CONTENT_MODEL, type FieldDef } from '@/lib/cms/model';

/** docs/content-model.md, generated from the model so the two never disagree (`npm run docs:content-model`). */

const KIND_TEXT: Record<FieldDef['kind'], string> = {
  text: 'テキスト (string)',
  textArea: 'テキストエリア (string)',
  richEditor: 'リッチテキスト (HTML, sanitised)',
  number: '数値 (number)',
  boolean: '真偽値 (boolean, empty = false)',
  date: '日時 (ISO 8601 UTC)',
  select: 'セレクト (string[])',
  media: '画像 ({url,width,height,alt})',
  file: 'ファイル ({url,fileSize})',
  relation: 'コンテンツ参照 (object or null)',
  relationList: '複数コンテンツ参照 (object[])',
  custom: 'カスタムフィールド ({fieldId, …} or null)',
};

function constraints(field: FieldDef): string {
  const parts: string[] = [];
  if (field.required) parts.push('必須');
  if (field.maxLength !== undefined) parts.push(`最大 ${field.maxLength} 文字`);
  if (field.options)
    parts.push(`選択肢: ${field.options.join(' / ')}${field.multiple ? ' (複数可)' : ''}`);
  if (field.endpoint) parts.push(`→ \`${field.endpoint}\``);
  if (field.urlPrefixes) parts.push(`URL: ${field.urlPrefixes.map((p) => `\`${p}\``).join(', ')}`);
  if (field.min !== undefined || field.max !== undefined)
    parts.push(`範囲 ${field.min ?? ''}–${field.max ?? ''}`);
  if (field.integer) parts.push('整数');
  if (field.forbiddenBy) parts.push(`\`${field.forbiddenBy}\` が true なら空`);
  if (field.fields)
    parts.push(
      `\`fieldId: "${field.customFieldId ?? field.id}"\`; ${field.fields.map((f) => `\`${f.id}\` ${f.label} (${KIND_TEXT[f.kind].split(' ')[0]}${f.maxLength ? `, 最大 ${f.maxLength} 文字` : ''})`).join(', ')}`,
    );
  return parts.join('、');
}

export function contentModelMarkdown(): string {
  const lines = [
    '# Content model',
    '',
    '<!-- Generated from src/lib/cms/model.ts by `npm run docs:content-model`. Do not edit by hand. -->',
    '',
    'Every endpoint of the built-in content service (`/api/v1/{endpoint}`), with microCMS field',
    'kinds and API shapes. List endpoints also have the system fields `id`, `createdAt`,',
    '`updatedAt`, `publishedAt` and `revisedAt`; object endpoints (a single item, no id) have',
    'the dates only. References are stored as ids and expanded to `depth` on read.',
    '',
  ];
  for (const def of CONTENT_MODEL) {
    lines.push(
      `## \`${def.endpoint}\` — ${def.label} (${def.kind === 'list' ? 'リスト' : 'オブジェクト'})`,
      '',
    );
    lines.push('| field | label | kind | constraints |', '| --- | --- | --- | --- |');
    for (const field of def.fields) {
      lines.push(
        `| \`${field.id}\` | ${field.label} | ${KIND_TEXT[field.kind]} | ${constraints(field)} |`,
      );
    }
    lines.push('');
  }
  lines.push(
    '## Rules',
    '',
    '- Rich text is sanitised on write and again on render: no script, style, event handlers or',
    '  `javascript:` URLs; iframes only from YouTube and Vimeo embeds.',
    "- `isPublicPreview: true` opens a post or audio to everyone; every other post is members' content",
    '  (docs/decisions/000-design-baseline.md "Who reads what"). Free-plan posts are the 3 newest',
    '  with `isPublicPreview[not_equals]true`.',
    "- `price` (yen, tax included) sells a members' post singly (docs/decisions/053-one-time-payments.md);",
    '  empty: not sold singly. A public post (`isPublicPreview: true`) takes no price.',
    '- Default list order: `createdAt` descending; `q` without `orders`: `publishedAt` descending',
    '  (newest first).',
    '',
  );
  return lines.join('\n');
}
