import '@/styles/base';
import { accountMetadata, gatedMetadata } from '@/components/account/metadata';
import adminStyles from '@/components/admin/admin.module.css';
import { parseMediaQuery } from '@/components/admin/media/list-query';
import { MediaGrid } from '@/components/admin/media/media-grid';
import { MEDIA_KINDS, MEDIA_KIND_LABELS, mediaPaths } from '@/lib/media/media-shared';
import { MediaUpload } from '@/components/admin/media/media-upload.client';
import mediaStyles from '@/components/admin/media/media.module.css';
import {
  StaffFilter,
  StaffResultList,
  StaffPageHead,
  StaffSearchInput,
  StaffSelect,
  StaffSection,
} from '@/components/admin/staff-list-page';
import { PageMessages } from '@/components/biz/axis-admin/messages';
import { failure, flashFor, typedIn } from '@/lib/http/form-flash';
import { getDb } from '@/server/platform/db/client';
import { readFlash } from '@/server/platform/http/read-flash';
import { listMedia, usageCounts } from '@/server/features/media/library';
import { UPLOAD_FORM_KEY } from '@/server/features/media/http';
import { requireStaff } from '@/server/features/identity/session';
import { Options } from '@/components/forms/options';
import type { SearchParamsProps } from '@/components/listing/page-params';

export const generateMetadata = gatedMetadata(
  requireStaff,
  accountMetadata('メディア', mediaPaths.library),
);

/** Editors and admins (everyone else sees the 404 page): upload, find and open files. */
export default async function AdminMediaPage({ searchParams }: SearchParamsProps) {
  await requireStaff();
  const query = parseMediaQuery(await searchParams);
  const db = await getDb();
  const [result, received] = await Promise.all([listMedia(db, query), readFlash()]);
  const usage = await usageCounts(
    db,
    result.items.map((item) => item.url),
  );
  const uploadFlash = flashFor(failure(received), UPLOAD_FORM_KEY);
  const filtered = !!(query.q || query.kind);
  const what = query.kind ? MEDIA_KIND_LABELS[query.kind] : 'ファイル';

  return (
    <div className={adminStyles.page}>
      <StaffPageHead
        title="メディア"
        lead="記事やページで使う画像・音声・動画を管理します。ファイルを開くと、どのコンテンツで使われているかの確認、代替テキストの編集、URL のコピー、削除ができます。"
      />
      <PageMessages flash={received} errorAt={uploadFlash ? '#upload' : null} />

      <StaffSection id="upload" title="アップロード">
        <MediaUpload
          mode="form"
          idPrefix="library-upload"
          initialAlt={typedIn(uploadFlash, 'alt') ?? ''}
          initialErrors={
            uploadFlash ? { message: null, fieldErrors: uploadFlash.fieldErrors } : null
          }
        />
      </StaffSection>

      <StaffSection id="files" title="ファイル一覧" anchored={false}>
        <StaffResultList
          path={mediaPaths.library}
          search={{
            filters: (
              <>
                <StaffFilter id="media-search" label="ファイル名・代替テキストで検索">
                  <StaffSearchInput id="media-search" defaultValue={query.q} />
                </StaffFilter>
                <StaffSelect
                  id="media-kind"
                  name="kind"
                  label="種類"
                  value={query.kind}
                  all="すべて"
                  className={mediaStyles.kindField}
                >
                  <Options items={MEDIA_KINDS} label={(kind) => MEDIA_KIND_LABELS[kind]} />
                </StaffSelect>
              </>
            ),
            submitLabel: '検索',
            filtered: filtered,
            clearLabel: '条件を解除',
          }}
          count={
            <>
              {query.q ? `「${query.q}」に一致する${what}：` : `${what}（新しい順）：`}
              {result.total}件
            </>
          }
          result={result}
          whenEmpty={
            filtered
              ? '条件に一致するファイルはありません。'
              : 'ファイルはまだありません。上のアップロードから追加してください。'
          }
          pageParams={{ q: query.q || undefined, kind: query.kind || undefined }}
          pageLabel="メディア一覧のページ送り"
        >
          <MediaGrid items={result.items} usage={usage} />
        </StaffResultList>
      </StaffSection>
    </div>
  );
}
