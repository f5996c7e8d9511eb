import { Link } from '@/components/layout/site-link';
import adminStyles from '@/components/admin/admin.module.css';
import { StaffSection, ContentBreadcrumb } from '@/components/admin/staff-list-page';
import staff from '@/components/admin/staff.module.css';
import styles from '@/components/admin/users/users.module.css';
import { Button, SubmitButton } from '@/components/ui/button';
import { consolePaths } from '@/lib/admin-content';
import { formatDateTime, formatNumber } from '@/lib/format';
import {
  AUDIENCES,
  AUDIENCE_LABELS,
  type Audience,
  SEGMENTS,
  SEGMENT_HINTS,
  SEGMENT_LABELS,
  type Segment,
  type NewsletterStepProps,
  OPENS_CAVEAT,
  type StepPost,
  type StepSend,
  newsletterPaths,
} from '@/lib/newsletter/console';
import { SendStatusView } from './send-status.client';

/**
 * The trail above the step and its confirmation page: the console, the posts, the post, and on
 * the confirmation page the step itself.
 */
export function StepBreadcrumb({
  post,
  withStep = false,
}: {
  post: Pick<StepPost, 'id' | 'title'>;
  withStep?: boolean;
}) {
  return (
    <ContentBreadcrumb>
      <Link href={consolePaths.list('posts')}>記事</Link> /{' '}
      <Link href={consolePaths.edit('posts', post.id)}>{post.title || '（無題）'}</Link>
      {withStep ? (
        <>
          {' '}
          / <Link href={newsletterPaths.step(post.id)}>メールで配信</Link>
        </>
      ) : null}
    </ContentBreadcrumb>
  );
}

/** The trail and heading of a page under /admin/newsletter. */
export function NewsletterPageTitle({ title }: { title: string }) {
  return (
    <>
      <p className={adminStyles.breadcrumb}>
        <Link href="/admin">管理画面</Link> /{' '}
        <Link href={newsletterPaths.sends}>ニュースレター</Link>
      </p>
      <h1 className={adminStyles.title}>{title}</h1>
    </>
  );
}

/** The two widths a letter is previewed at: a phone's and a desktop mail client's column. */
export const PREVIEW_WIDTHS = [
  { width: 360, height: 640, label: 'スマートフォン（幅 360 px）' },
  { width: 640, height: 760, label: 'パソコン（幅 640 px）' },
] as const;

/** Who asked for a send and when, as the lists say it. */
export function SendByline({ send }: { send: Pick<StepSend, 'createdAt' | 'by'> }) {
  return (
    <>
      <time dateTime={send.createdAt}>{formatDateTime(send.createdAt)}</time>
      {send.by ? `（${send.by}）` : '（コマンドライン）'}
    </>
  );
}

/**
 * The letter as a reader gets it, in a sandboxed frame (no scripts, no access to the console;
 * links open in a new tab): the HTML comes in `srcdoc`, so the page's own policy covers it and
 * nothing is fetched from another address.
 */
export function LetterPreview({ html, audience }: { html: string; audience: Audience }) {
  return (
    <div className={staff.previews}>
      {PREVIEW_WIDTHS.map(({ width, height, label }) => (
        <figure key={width} className={staff.preview}>
          <figcaption className={styles.label}>{label}</figcaption>
          <div className={adminStyles.tableWrap}>
            <iframe
              title={`メールのプレビュー（${AUDIENCE_LABELS[audience]}・${label}）`}
              srcDoc={html}
              width={width}
              height={height}
              sandbox="allow-popups allow-popups-to-escape-sandbox"
              referrerPolicy="no-referrer"
              className={staff.previewFrame}
            />
          </div>
        </figure>
      ))}
    </div>
  );
}

function PreviewSection({ post, preview }: Pick<NewsletterStepProps, 'post' | 'preview'>) {
  return (
    <StaffSection id="newsletter-preview" title="プレビュー">
      <form method="get" action={`${newsletterPaths.step(post.id)}#newsletter-preview`}>
        <fieldset className={staff.choices}>
          <legend className={styles.label}>読者</legend>
          {AUDIENCES.map((audience) => (
            <label key={audience} className={staff.choice}>
              <input
                type="radio"
                name="audience"
                value={audience}
                defaultChecked={audience === preview.audience}
              />
              {AUDIENCE_LABELS[audience]}
              {audience === 'paid' ? '（全文）' : '（無料会員がサイトで読める範囲）'}
            </label>
          ))}
          <Button type="submit" color="white" width="auto" height={40}>
            表示
          </Button>
        </fieldset>
      </form>
      {preview.html === null ? (
        <p className={staff.hint}>この記事はまだ保存された本文がないため、プレビューできません。</p>
      ) : (
        <>
          <LetterPreview html={preview.html} audience={preview.audience} />
          <p className={staff.hint}>
            <a
              href={newsletterPaths.apiPreview(post.id, preview.audience)}
              target="_blank"
              rel="noopener noreferrer"
            >
              プレビューを新しいタブで開く
            </a>
          </p>
        </>
      )}
    </StaffSection>
  );
}

function SendForm({ post, counts }: Pick<NewsletterStepProps, 'post' | 'counts'>) {
  const mode =
    post.status === 'scheduled' ? 'withPublication' : post.status === 'draft' ? null : 'now';
  if (!mode)
    return (
      <p className={staff.hint}>
        下書きの記事は配信できません。公開するか予約公開すると、「今すぐ配信」または「公開と同時に配信」を選べます。
      </p>
    );
  return (
    <form method="get" action={newsletterPaths.confirm(post.id)} className={styles.form}>
      <input type="hidden" name="mode" value={mode} />
      <fieldset className={staff.choices} aria-describedby="newsletter-segment-hint">
        <legend className={styles.label}>配信先</legend>
        <p id="newsletter-segment-hint" className={staff.hint}>
          配信を希望し、メールアドレスを確認済みで、配信停止リストにない読者に届きます。人数は現在のものです。
        </p>
        {SEGMENTS.map((segment: Segment) => (
          <div key={segment} className={staff.choice}>
            <input
              type="radio"
              id={`newsletter-segment-${segment}`}
              name="segment"
              value={segment}
              defaultChecked={segment === 'all'}
              aria-describedby={`newsletter-segment-${segment}-hint`}
            />
            <div>
              <label htmlFor={`newsletter-segment-${segment}`}>
                {SEGMENT_LABELS[segment]}（{formatNumber(counts[segment])} 人）
              </label>
              <p id={`newsletter-segment-${segment}-hint`} className={staff.hint}>
                {SEGMENT_HINTS[segment]}
              </p>
            </div>
          </div>
        ))}
      </fieldset>
      {mode === 'withPublication' && post.scheduledAt ? (
        <p className={staff.hint}>
          この記事は <time dateTime={post.scheduledAt}>{formatDateTime(post.scheduledAt)}</time>{' '}
          に公開されます。公開と同時に、その時点の対象の読者へ配信します。
        </p>
      ) : null}
      <div className={styles.actions}>
        <SubmitButton color="yellow">
          {mode === 'now' ? '今すぐ配信…' : '公開と同時に配信…'}
        </SubmitButton>
      </div>
      <p className={staff.hint}>次の画面で配信先と人数を確認してから配信します。</p>
    </form>
  );
}

/**
 * The 「メールで配信」 step of a post: earlier sends and where they stand, the letter as a free
 * and a paid reader get it at phone and desktop width, a test letter to oneself, and the send
 * (to a segment, now or with the scheduled publication), confirmed on the next page.
 */
export function NewsletterStep({
  post,
  counts,
  sends,
  preview,
  testTo,
  outbox,
}: NewsletterStepProps) {
  return (
    <>
      {sends.length ? (
        <StaffSection id="newsletter-sends" title="この記事の配信">
          <ul className={styles.list}>
            {sends.map((send) => (
              <li key={send.id} className={styles.item}>
                <p className={styles.itemTitle}>
                  <Link href={newsletterPaths.send(send.id)}>
                    {SEGMENT_LABELS[send.segment]}への配信
                  </Link>{' '}
                  <SendByline send={send} />
                </p>
                <SendStatusView sendId={send.id} initial={send} />
              </li>
            ))}
          </ul>
          <p className={staff.hint}>{OPENS_CAVEAT}</p>
        </StaffSection>
      ) : null}

      <PreviewSection post={post} preview={preview} />

      <StaffSection id="newsletter-test" title="自分にテスト送信">
        <p className={staff.hint}>
          あなたのメールアドレス（{testTo}）に、プレビュー中の{AUDIENCE_LABELS[preview.audience]}
          向けのメールを、件名に【テスト配信】を付けて送ります。
          {outbox ? (
            <>
              {' '}
              SMTP が設定されていないため、<Link href="/admin/mail">メール送信箱</Link>
              に保管されます。
            </>
          ) : null}
        </p>
        <form method="post" action={newsletterPaths.apiTest}>
          <input type="hidden" name="contentId" value={post.id} />
          <input type="hidden" name="audience" value={preview.audience} />
          <SubmitButton color="white">自分にテスト送信</SubmitButton>
        </form>
      </StaffSection>

      <StaffSection id="newsletter-send" title="配信">
        <SendForm post={post} counts={counts} />
      </StaffSection>
    </>
  );
}
