'use client';

import Link from 'next/link';
import { useState, type MouseEvent, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { consolePaths, type ConsoleStatus, type WorkflowAction } from '@/lib/admin-content';
import { formatDateTime } from '@/lib/format';
import { newsletterPaths } from '@/lib/newsletter/console';
import type { EndpointDef } from '@/lib/cms/model';
import { visitorViewUrl } from '@/lib/access/lead-rule';
import contentStyles from './content.module.css';
import styles from './workflow-panel.module.css';
import { isoToJstInput, jstInputToIso } from './field-values';
import { StatusBadge } from './status-badge';

export type EditorMeta = {
  id: string;
  isNew: boolean;
  status: ConsoleStatus;
  updatedAt: string | null;
  scheduledAt: string | null;
  previewUrl: string | null;
  publicUrl: string | null;
};

export type Busy = WorkflowAction | 'save' | 'delete' | 'rename' | null;

export type WorkflowPanelProps = {
  def: EndpointDef;
  meta: EditorMeta;
  hydrated: boolean;
  busy: Busy;
  /** The save status line (未保存の変更があります, 保存中…, …). */
  saveLine: string;
  /** The last answer's message, announced politely. */
  announcement: string;
  /** A workflow step the server refused, in Japanese. */
  error: string | null;
  /** A refused schedule time (client check or the server's answer). */
  scheduleError: string | null;
  onPreview: (event: MouseEvent<HTMLAnchorElement>) => void;
  onPublish: () => void;
  onSchedule: (at: string | null, typed: string) => void;
  onUnschedule: () => void;
  onUnpublish: () => void;
  onDelete: () => void;
  /**
   * False for a contributor: no publish, schedule, unpublish, newsletter or delete steps
   * (the server refuses them anyway); their review panel sits above the editor.
   */
  canPublish?: boolean;
};

/** Why there is no preview link: nothing saved yet, nothing unpublished, or no such page. */
function previewNote(def: EndpointDef, meta: EditorMeta): string {
  if (meta.isNew) return '一度保存するとプレビューできます。';
  // A published item without changes has nothing to preview: its page shows it.
  if (meta.status === 'published' && meta.publicUrl)
    return '公開中の内容は「公開ページを見る」で確認できます。';
  return `${def.label}にはサイトのプレビューページがありません。公開後に公開ページで確認してください。`;
}

/** A workflow step's button: full width, off while any step runs, spinning while its own does. */
function StepButton({
  step,
  busy,
  disabled,
  color = 'white',
  className,
  onClick,
  children,
}: {
  step: Exclude<Busy, null>;
  busy: Busy;
  disabled: boolean;
  color?: 'white' | 'yellow';
  className?: string;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <Button
      color={color}
      fullWidth
      height={44}
      className={className}
      disabled={disabled}
      loading={busy === step}
      onClick={onClick}
    >
      {children}
    </Button>
  );
}

/**
 * The editor's side column: save, where the item stands and the steps from draft to
 * published (preview, publish now or at a time, unpublish), its history and deletion.
 * Every button is type="button": only 「下書きを保存」 submits the editor's form.
 */
export function WorkflowPanel(props: WorkflowPanelProps) {
  const { def, meta, hydrated, busy, canPublish = true } = props;
  const stepState = { busy, disabled: !hydrated || busy !== null };
  const visitorUrl = visitorViewUrl(def.endpoint, meta.previewUrl);

  return (
    <div className={styles.panelInner}>
      <section className={styles.panelSection} aria-labelledby="workflow-save-title">
        <h2 id="workflow-save-title" className={styles.panelTitle}>
          保存
        </h2>
        <Button
          type="submit"
          color="black"
          fullWidth
          height={44}
          disabled={!hydrated || (busy !== null && busy !== 'save')}
          loading={busy === 'save'}
          aria-keyshortcuts="Control+S Meta+S"
        >
          下書きを保存
        </Button>
        <p className={styles.saveLine} role="status" aria-live="polite">
          {props.saveLine}
        </p>
        <p className={contentStyles.hint}>Ctrl+S（Mac は ⌘+S）でも保存できます。</p>
      </section>

      <section className={styles.panelSection} aria-labelledby="workflow-status-title">
        <h2 id="workflow-status-title" className={styles.panelTitle}>
          公開
        </h2>
        <p className={styles.statusRow}>
          状態: <StatusBadge status={meta.status} scheduledAt={meta.scheduledAt} />
        </p>
        <p className={styles.announcement} role="status" aria-live="polite">
          {props.announcement}
        </p>
        {props.error ? (
          <p className={styles.panelError} role="alert">
            {props.error}
          </p>
        ) : null}

        {meta.previewUrl ? (
          <a
            href={meta.previewUrl}
            target="_blank"
            rel="noopener noreferrer"
            className={styles.panelLink}
            onClick={props.onPreview}
          >
            プレビュー<span className={contentStyles.srOnly}>（新しいタブで開きます）</span>
            <span aria-hidden="true"> ↗</span>
          </a>
        ) : (
          <p className={contentStyles.hint}>{previewNote(def, meta)}</p>
        )}
        {visitorUrl ? (
          <a
            href={visitorUrl}
            target="_blank"
            rel="noopener noreferrer"
            className={styles.panelLink}
            data-view="visitor"
            onClick={props.onPreview}
          >
            訪問者に見える部分<span className={contentStyles.srOnly}>（新しいタブで開きます）</span>
            <span aria-hidden="true"> ↗</span>
          </a>
        ) : null}

        {canPublish ? (
          <PublishSteps {...props} />
        ) : (
          <p className={contentStyles.hint}>
            公開は編集者が行います。書き終えたら審査に提出してください。
          </p>
        )}
      </section>

      {canPublish && def.endpoint === 'posts' && !meta.isNew ? (
        <section className={styles.panelSection} aria-labelledby="workflow-newsletter-title">
          <h2 id="workflow-newsletter-title" className={styles.panelTitle}>
            メールで配信
          </h2>
          <p className={contentStyles.hint}>
            購読を希望した読者に、この記事をメールで届けます（プレビューとテスト送信もここから）。
          </p>
          <Link href={newsletterPaths.step(meta.id)} className={styles.panelLink}>
            メールで配信
          </Link>
        </section>
      ) : null}

      <section className={styles.panelSection} aria-labelledby="workflow-more-title">
        <h2 id="workflow-more-title" className={styles.panelTitle}>
          その他
        </h2>
        <ul className={styles.panelLinks}>
          {meta.publicUrl ? (
            <li>
              <a href={meta.publicUrl} target="_blank" rel="noopener noreferrer">
                公開ページを見る
                <span className={contentStyles.srOnly}>（新しいタブで開きます）</span>
                <span aria-hidden="true"> ↗</span>
              </a>
            </li>
          ) : null}
          {meta.isNew ? null : (
            <li>
              <Link href={consolePaths.history(def.endpoint, meta.id)}>変更履歴</Link>
            </li>
          )}
          {def.kind === 'list' ? (
            <li>
              <Link href={consolePaths.list(def.endpoint)}>{def.label}の一覧へ</Link>
            </li>
          ) : null}
        </ul>
        {canPublish && def.kind === 'list' && !meta.isNew ? (
          <StepButton
            step="delete"
            {...stepState}
            className={styles.danger}
            onClick={props.onDelete}
          >
            この{def.label}を削除
          </StepButton>
        ) : null}
      </section>
    </div>
  );
}

/** 公開する, the schedule and 公開を停止: staff's steps. */
function PublishSteps(props: WorkflowPanelProps) {
  const { meta, hydrated, busy } = props;
  const [scheduleAt, setScheduleAt] = useState(() => isoToJstInput(meta.scheduledAt));
  const disabled = !hydrated || busy !== null;
  const stepState = { busy, disabled };
  const published = meta.status === 'published' || meta.status === 'changed';
  const scheduleIds = {
    input: 'workflow-schedule',
    hint: 'workflow-schedule-hint',
    error: 'workflow-schedule-error',
  };
  const schedule = () => props.onSchedule(jstInputToIso(scheduleAt), scheduleAt);
  return (
    <>
      <StepButton step="publish" {...stepState} color="yellow" onClick={props.onPublish}>
        {meta.status === 'changed' ? '変更を公開する' : '公開する'}
      </StepButton>

      {meta.status === 'scheduled' && meta.scheduledAt ? (
        <div className={styles.scheduled}>
          <p className={contentStyles.hint}>
            <time dateTime={meta.scheduledAt}>{formatDateTime(meta.scheduledAt)}</time>
            に公開されます。
          </p>
          <StepButton step="unschedule" {...stepState} onClick={props.onUnschedule}>
            予約を取り消す
          </StepButton>
        </div>
      ) : null}

      <div className={styles.scheduleForm}>
        <label htmlFor={scheduleIds.input} className={contentStyles.label}>
          {meta.status === 'scheduled' ? '予約公開の日時を変更' : '予約公開'}
        </label>
        <p id={scheduleIds.hint} className={contentStyles.hint}>
          日本時間。未来の日時を指定します。
        </p>
        <input
          id={scheduleIds.input}
          type="datetime-local"
          className={`${contentStyles.input} ${contentStyles.date}`}
          value={scheduleAt}
          min={hydrated ? isoToJstInput(new Date().toISOString()) : undefined}
          aria-describedby={[scheduleIds.hint, props.scheduleError ? scheduleIds.error : null]
            .filter(Boolean)
            .join(' ')}
          aria-invalid={props.scheduleError ? true : undefined}
          onChange={(event) => setScheduleAt(event.target.value)}
          onKeyDown={(event) => {
            // Enter schedules here rather than saving the form.
            if (event.key === 'Enter') {
              event.preventDefault();
              if (!disabled) schedule();
            }
          }}
        />
        {props.scheduleError ? (
          <p id={scheduleIds.error} className={contentStyles.fieldError}>
            <span aria-hidden="true">⚠ </span>
            {props.scheduleError}
          </p>
        ) : null}
        <StepButton step="schedule" {...stepState} onClick={schedule}>
          {meta.status === 'scheduled' ? '予約日時を変更する' : '予約公開する'}
        </StepButton>
      </div>

      {published ? (
        <StepButton step="unpublish" {...stepState} onClick={props.onUnpublish}>
          公開を停止
        </StepButton>
      ) : null}
    </>
  );
}
