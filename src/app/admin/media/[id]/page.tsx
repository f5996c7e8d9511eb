import '@/styles/base';
import { Link } from '@/components/layout/site-link';
import { notFound } from 'next/navigation';
import { accountMetadata, gatedMetadata } from '@/components/account/metadata';
import adminStyles from '@/components/admin/admin.module.css';
import { CopyTextButton } from '@/components/admin/copy-text-button.client';
import {
  ALT_MAX_LENGTH,
  MEDIA_KIND_LABELS,
  displayName,
  formatDimensions,
  formatFileSize,
  mediaPaths,
} from '@/lib/media/media-shared';
import mediaStyles from '@/components/admin/media/media.module.css';
import { InputRow } from '@/components/admin/users/form-fields';
import styles from '@/components/admin/users/users.module.css';
import { PageMessages } from '@/components/biz/axis-admin/messages';
import { FORM_KEY, failure, flashFor, typedIn } from '@/lib/http/form-flash';
import { SubmitButton } from '@/components/ui/button';
import { consolePaths } from '@/lib/admin-content';
import { formatDateTime } from '@/lib/format';
import { userEmailsFor } from '@/server/platform/audit/audit-query';
import { getDb } from '@/server/platform/db/client';
import { readFlash } from '@/server/platform/http/read-flash';
import { requireStaff } from '@/server/features/identity/session';
import { ALT_FORM_KEY, DELETE_FORM_KEY, MEDIA_ID } from '@/server/features/media/http';
import { findMediaUsage, getMedia, uploaderOf } from '@/server/features/media/library';
import { signMediaUrl } from '@/server/platform/security/signing';
import { StaffSection } from '@/components/admin/staff-list-page';
import type { RouteParamsProps } from '@/components/listing/page-params';

// The file's name is not in the title: a title is rendered before the page decides who may see it.
export const generateMetadata = gatedMetadata(
  requireStaff,
  accountMetadata('メディアの詳細', mediaPaths.library),
);

/** Who uploaded, as shown: an e-mail, the content API, or the demo seed. */
function uploaderText(ref: string | null, emails: Map<string, string>): string {
  if (!ref) return 'デモデータ（初期データ）';
  if (ref.startsWith('key:')) return 'コンテンツ API（API キー）';
  return emails.get(ref) ?? '（削除されたユーザー）';
}

/** One file for editors and admins: preview, facts, URL, alt text, where it is used, delete. */
export default async function AdminMediaItemPage({ params }: RouteParamsProps<'id'>) {
  await requireStaff();
  const { id } = await params;
  if (!MEDIA_ID.test(id)) notFound();
  const db = await getDb();
  const media = await getMedia(db, id);
  if (!media) notFound();
  const [usage, uploader, received] = await Promise.all([
    findMediaUsage(db, media.url),
    uploaderOf(db, id),
    readFlash(),
  ]);
  const emails = await userEmailsFor(db, [uploader]);
  const flash = failure(received);
  const altFlash = flashFor(flash, ALT_FORM_KEY);
  const deleteFlash = flashFor(flash, DELETE_FORM_KEY);
  // Members' media are served only through signed URLs; staff preview them with one.
  const playable =
    media.kind === 'image' ? media.url : signMediaUrl(media.url, { expiresInSeconds: 3600 });
  const name = displayName(media);

  return (
    <div className={adminStyles.page}>
      <p className={adminStyles.breadcrumb}>
        <Link href="/admin">管理画面</Link> / <Link href={mediaPaths.library}>メディア</Link> /{' '}
        {name}
      </p>
      <h1 className={adminStyles.title} style={{ overflowWrap: 'anywhere' }}>
        {name}
      </h1>
      <PageMessages flash={received} errorAt={altFlash ? '#alt' : deleteFlash ? '#delete' : null} />
      <div className={mediaStyles.preview}>
        {media.kind === 'image' ? (
          // eslint-disable-next-line @next/next/no-img-element -- the original file, at its own size
          <img
            src={playable}
            alt={media.alt}
            width={media.width ?? undefined}
            height={media.height ?? undefined}
          />
        ) : media.kind === 'audio' ? (
          <audio controls preload="metadata" src={playable} aria-label={`${name} を再生`} />
        ) : (
          <video controls preload="metadata" src={playable} aria-label={`${name} を再生`} />
        )}
      </div>
      <dl className={styles.facts}>
        <dt>種類</dt>
        <dd>
          {MEDIA_KIND_LABELS[media.kind]}（{media.contentType}）
        </dd>
        <dt>サイズ</dt>
        <dd>{formatFileSize(media.fileSize)}</dd>
        {formatDimensions(media) ? (
          <>
            <dt>大きさ</dt>
            <dd>{formatDimensions(media)}</dd>
          </>
        ) : null}
        <dt>アップロード日時</dt>
        <dd>
          <time dateTime={media.uploadedAt}>{formatDateTime(media.uploadedAt)}</time>
        </dd>
        <dt>アップロードした人</dt>
        <dd>{uploaderText(uploader, emails)}</dd>
        {media.filename ? (
          <>
            <dt>元のファイル名</dt>
            <dd>{media.filename}</dd>
          </>
        ) : null}
      </dl>
      <div className={mediaStyles.urlRow}>
        <span className={styles.label}>URL</span>
        <code id="media-url" className={mediaStyles.url}>
          {media.url}
        </code>
        <CopyTextButton targetId="media-url" what="URL " statusClassName={mediaStyles.status} />
      </div>

      <StaffSection id="alt" title="代替テキスト">
        <p className={styles.lead}>
          ここで変えても、すでにコンテンツに入っている画像の代替テキストは変わりません。新しく選ぶときの初期値になります。
        </p>
        <form method="post" action={mediaPaths.apiAlt(media.id)} className={styles.form} noValidate>
          <input type="hidden" name={FORM_KEY} value={ALT_FORM_KEY} />
          <InputRow
            id="media-alt"
            name="alt"
            label={media.kind === 'image' ? '代替テキスト（必須）' : '代替テキスト'}
            hint={`画像が見えない人に向けて、何が写っているかを短く書きます（${ALT_MAX_LENGTH}文字まで）。`}
            defaultValue={typedIn(altFlash, 'alt') ?? media.alt}
            maxLength={ALT_MAX_LENGTH}
            autoComplete="off"
            error={altFlash?.fieldErrors.alt ?? null}
          />
          <div className={styles.actions}>
            <SubmitButton>代替テキストを保存</SubmitButton>
          </div>
        </form>
      </StaffSection>

      <StaffSection id="usage" title={<>使われている場所（{usage.length}件）</>}>
        {usage.length === 0 ? (
          <p className={adminStyles.empty}>どのコンテンツでも使われていません。</p>
        ) : (
          <ul className={mediaStyles.usage}>
            {usage.map((u) => (
              <li key={`${u.endpoint}/${u.id}`}>
                <Link href={consolePaths.edit(u.endpoint, u.id)}>
                  {u.title || '（タイトルなし）'}
                </Link>{' '}
                <span className={styles.muted}>
                  {u.endpointLabel}・
                  {u.inPublished && u.inDraft
                    ? '公開版と下書き'
                    : u.inPublished
                      ? '公開版'
                      : '下書き'}
                </span>
              </li>
            ))}
          </ul>
        )}
      </StaffSection>

      <StaffSection id="delete" title="削除">
        {usage.length > 0 ? (
          <p className={styles.lead}>
            {usage.length}
            件のコンテンツで使われているため削除できません。先に上のコンテンツからこのファイルを外してください。
          </p>
        ) : (
          <form
            method="post"
            action={mediaPaths.apiDelete(media.id)}
            className={styles.form}
            noValidate
          >
            <input type="hidden" name={FORM_KEY} value={DELETE_FORM_KEY} />
            <p className={styles.lead}>ファイルはストレージからも消え、元に戻せません。</p>
            <label className={mediaStyles.checkbox}>
              <input
                type="checkbox"
                name="confirm"
                value="yes"
                aria-invalid={deleteFlash?.fieldErrors.confirm ? true : undefined}
                aria-describedby={deleteFlash?.fieldErrors.confirm ? 'delete-error' : undefined}
              />
              このファイルを削除する
            </label>
            {deleteFlash?.fieldErrors.confirm ? (
              <p id="delete-error" className={styles.fieldError}>
                {deleteFlash.fieldErrors.confirm}
              </p>
            ) : null}
            <div className={styles.actions}>
              <SubmitButton>削除する</SubmitButton>
            </div>
          </form>
        )}
      </StaffSection>
    </div>
  );
}
