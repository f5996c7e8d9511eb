'use client';

import {
  useCallback,
  useEffect,
  useRef,
  useState,
  useSyncExternalStore,
  type FormEvent,
  type MouseEvent,
} from 'react';
import usersStyles from '@/components/admin/users/users.module.css';
import {
  consolePaths,
  type EditorProps,
  type SaveAnswer,
  type RenameRequest,
  type SaveRequest,
  type WorkflowAction,
  type WorkflowRequest,
} from '@/lib/admin-content';
import { formatDateTime } from '@/lib/format';
import { sendJson, type Outcome } from './console-api';
import contentStyles from './content.module.css';
import styles from './content-editor.module.css';
import { FieldControl, fieldIds } from './field-control.client';
import { SharePanel, type ShareSite } from './share-panel.client';
import { leadRuleNote, visitorViewUrl } from '@/lib/access/lead-rule';
import { SlugField } from './slug-field.client';
import { slugProblem } from '@/lib/cms/slug';
import { clientFieldErrors, initialValues } from './field-values';
import { EditingPresence } from './editing-presence.client';
import { WorkflowPanel, type Busy, type EditorMeta } from './workflow-panel.client';

/** How long after the last change an existing item is saved by itself. */
export const AUTOSAVE_DELAY_MS = 5000;

export const LEAVE_QUESTION = '保存していない変更があります。移動しますか？';

type LastSave =
  | { kind: 'saved' | 'autosaved'; at: Date }
  | { kind: 'autosaveFailed' | 'saveFailed'; message: string }
  | null;

type Conflict = { by: string | null; updatedAt: string };

const timeOfDay = new Intl.DateTimeFormat('ja-JP', {
  hour: '2-digit',
  minute: '2-digit',
  hour12: false,
  timeZone: 'Asia/Tokyo',
});

const noSubscription = () => () => {};

/**
 * The content editor: a form generated from the endpoint's fields, saved as a draft (by hand,
 * with Ctrl/Cmd+S, or by itself 5 s after the last change), with the workflow beside it.
 * Every write carries the `updatedAt` it started from, so a save over someone else's is a
 * conflict the editor decides on, never a silent overwrite.
 */
export function ContentEditor({
  def,
  item,
  canPublish = true,
  site,
}: EditorProps & { site?: ShareSite }) {
  const hydrated = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  const [values, setValues] = useState(() => initialValues(def.fields, item.fields));
  const [meta, setMetaState] = useState<EditorMeta>(() => ({
    id: item.id,
    isNew: item.isNew,
    status: item.status,
    updatedAt: item.updatedAt,
    scheduledAt: item.scheduledAt,
    previewUrl: item.previewUrl,
    publicUrl: item.publicUrl,
  }));
  const [rev, setRev] = useState(0);
  const [savedRev, setSavedRev] = useState(0);
  const [saving, setSaving] = useState(false);
  const [busy, setBusy] = useState<Busy>(null);
  const [lastSave, setLastSave] = useState<LastSave>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [conflict, setConflict] = useState<Conflict | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [workflowError, setWorkflowError] = useState<string | null>(null);
  const [scheduleError, setScheduleError] = useState<string | null>(null);
  const [focusTarget, setFocusTarget] = useState<'summary' | 'conflict' | null>(null);
  // A new list item's id as typed (empty: the suggested one).
  const [slug, setSlug] = useState('');
  const slugRef = useRef('');

  // What async work reads: always the latest, whatever render it started in.
  const valuesRef = useRef(values);
  const metaRef = useRef(meta);
  const revRef = useRef(0);
  const savedRevRef = useRef(0);
  const conflictRef = useRef<Conflict | null>(null);
  const leavingRef = useRef(false);
  const queue = useRef<Promise<unknown>>(Promise.resolve());
  const summaryRef = useRef<HTMLDivElement>(null);
  const conflictAlertRef = useRef<HTMLDivElement>(null);

  const dirty = rev !== savedRev;

  const setMeta = useCallback((next: EditorMeta) => {
    metaRef.current = next;
    setMetaState(next);
  }, []);

  const applyAnswer = useCallback(
    (answer: SaveAnswer) => {
      const current = metaRef.current;
      setMeta({
        id: answer.id || current.id,
        isNew: false,
        status: answer.status,
        updatedAt: answer.updatedAt,
        scheduledAt: answer.scheduledAt,
        previewUrl: answer.previewUrl,
        publicUrl: answer.publicUrl,
      });
    },
    [setMeta],
  );

  const setConflictBoth = useCallback((next: Conflict | null) => {
    conflictRef.current = next;
    setConflict(next);
  }, []);

  /** Writes one after another: two saves from one token would conflict with each other. */
  const enqueue = useCallback(<T,>(task: () => Promise<T>): Promise<T> => {
    const run = queue.current.then(task, task);
    queue.current = run.catch(() => undefined);
    return run;
  }, []);

  const change = useCallback((fieldId: string, value: unknown) => {
    valuesRef.current = { ...valuesRef.current, [fieldId]: value };
    setValues(valuesRef.current);
    revRef.current += 1;
    setRev(revRef.current);
  }, []);

  /** Saves the form as a draft; true when the server kept it. */
  const save = useCallback(
    (options: { autosave: boolean; base?: string }): Promise<boolean> =>
      enqueue(async () => {
        const explicit = !options.autosave;
        const fields = valuesRef.current;
        const sentRev = revRef.current;
        const current = metaRef.current;
        const isCreate = current.isNew && def.kind === 'list';
        const chosenId =
          isCreate && item.slug ? slugRef.current.trim() || item.slug.suggestion : '';
        const problems = clientFieldErrors(def.fields, fields);
        const idProblem = slugRef.current.trim() ? slugProblem(def.endpoint, chosenId) : null;
        if (isCreate && idProblem) problems.id = idProblem;
        if (Object.keys(problems).length) {
          if (explicit) {
            setFieldErrors(problems);
            setFormError(null);
            setFocusTarget('summary');
          } else {
            setLastSave({ kind: 'autosaveFailed', message: '入力内容に誤りがあります。' });
          }
          return false;
        }
        const request: SaveRequest = {
          fields,
          baseUpdatedAt: options.base ?? current.updatedAt,
          ...(options.autosave ? { autosave: true } : {}),
          ...(chosenId ? { id: chosenId } : {}),
        };
        setSaving(true);
        if (explicit) setBusy('save');
        const outcome = isCreate
          ? await sendJson('POST', consolePaths.apiCreate(def.endpoint), request)
          : await sendJson('PUT', consolePaths.apiItem(def.endpoint, current.id), request);
        setSaving(false);
        if (explicit) setBusy(null);
        return afterSave(outcome, { explicit, sentRev, isCreate });
      }),
    // afterSave only uses stable setters and refs.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [def, item.slug, enqueue],
  );

  function afterSave(
    outcome: Outcome,
    { explicit, sentRev, isCreate }: { explicit: boolean; sentRev: number; isCreate: boolean },
  ): boolean {
    switch (outcome.kind) {
      case 'ok': {
        if (outcome.answer) applyAnswer(outcome.answer);
        savedRevRef.current = sentRev;
        setSavedRev(sentRev);
        setFieldErrors({});
        setFormError(null);
        setConflictBoth(null);
        setLastSave({ kind: explicit ? 'saved' : 'autosaved', at: new Date() });
        if (explicit) setAnnouncement(outcome.message);
        if (isCreate && metaRef.current.id) takeItemAddress();
        return true;
      }
      case 'invalid':
        setFieldErrors(outcome.fieldErrors);
        if (explicit) {
          setFormError(Object.keys(outcome.fieldErrors).length ? null : outcome.message);
          setFocusTarget('summary');
        } else {
          setLastSave({ kind: 'autosaveFailed', message: outcome.message });
        }
        return false;
      case 'conflict':
        setConflictBoth({ by: outcome.by, updatedAt: outcome.updatedAt });
        setLastSave(null);
        // The alert is announced either way; the focus moves only when the editor asked to
        // save (an autosave must not pull it from the field being typed in).
        if (explicit) setFocusTarget('conflict');
        return false;
      case 'failed':
        if (explicit) {
          setFormError(outcome.message);
          setFocusTarget('summary');
        }
        setLastSave({ kind: explicit ? 'saveFailed' : 'autosaveFailed', message: outcome.message });
        return false;
    }
  }

  /** The item's own address (created, renamed), without a navigation that would remount the form. */
  function takeItemAddress() {
    window.history.replaceState(
      window.history.state,
      '',
      consolePaths.edit(def.endpoint, metaRef.current.id),
    );
  }

  const isDirty = () => revRef.current !== savedRevRef.current;

  /** A write of the item's state (workflow, rename): its answer applied, a conflict shown. */
  async function sendStep(busyAs: Busy, url: string, request: unknown): Promise<Outcome> {
    setBusy(busyAs);
    const outcome = await sendJson('POST', url, request);
    setBusy(null);
    if (outcome.kind === 'ok') {
      if (outcome.answer) applyAnswer(outcome.answer);
      setAnnouncement(outcome.message);
    } else if (outcome.kind === 'conflict') {
      setConflictBoth({ by: outcome.by, updatedAt: outcome.updatedAt });
      setFocusTarget('conflict');
    }
    return outcome;
  }

  /** A workflow step, after saving what is typed (publishing must publish what is seen). */
  async function runWorkflow(action: WorkflowAction, at?: string) {
    setWorkflowError(null);
    setScheduleError(null);
    if (conflictRef.current) {
      setFocusTarget('conflict');
      return;
    }
    if (isDirty() || metaRef.current.isNew) {
      if (!(await save({ autosave: false }))) return;
    }
    await enqueue(async () => {
      const current = metaRef.current;
      if (!current.updatedAt) return;
      const request: WorkflowRequest = {
        action,
        baseUpdatedAt: current.updatedAt,
        ...(at ? { at } : {}),
      };
      const outcome = await sendStep(
        action,
        consolePaths.apiWorkflow(def.endpoint, current.id),
        request,
      );
      switch (outcome.kind) {
        case 'invalid': {
          const message = outcome.fieldErrors.at ?? outcome.message;
          if (action === 'schedule') setScheduleError(message);
          else setWorkflowError(message);
          if (Object.keys(outcome.fieldErrors).some((k) => k !== 'at')) {
            setFieldErrors(outcome.fieldErrors);
            setFocusTarget('summary');
          }
          break;
        }
        case 'failed':
          setWorkflowError(outcome.message);
          break;
      }
    });
  }

  /** Changes the item's id (after saving what is typed); resolves to why not, or null. */
  async function rename(next: string): Promise<string | null> {
    if (conflictRef.current) {
      setFocusTarget('conflict');
      return 'ほかの人の更新と競合しています。先に競合を解決してください。';
    }
    if (isDirty() && !(await save({ autosave: false })))
      return '変更を保存できなかったため、URL を変更していません。';
    return enqueue(async () => {
      const current = metaRef.current;
      if (!current.updatedAt) return '保存されていない項目です。';
      const request: RenameRequest = { id: next, baseUpdatedAt: current.updatedAt };
      const outcome = await sendStep(
        'rename',
        consolePaths.apiRename(def.endpoint, current.id),
        request,
      );
      switch (outcome.kind) {
        case 'ok':
          takeItemAddress(); // as after creating
          return null;
        case 'conflict':
          return 'ほかの人がこの項目を更新しました。';
        case 'invalid':
          return outcome.fieldErrors.id ?? outcome.message;
        case 'failed':
          return outcome.message;
      }
    });
  }

  function schedule(at: string | null, typed: string) {
    if (!at) {
      setScheduleError(
        typed ? '日時を正しく入力してください。' : '公開する日時を入力してください。',
      );
      return;
    }
    if (Date.parse(at) <= Date.now()) {
      setScheduleError('未来の日時を指定してください。');
      return;
    }
    void runWorkflow('schedule', at);
  }

  function unpublish() {
    if (!window.confirm(`この${def.label}の公開を停止しますか？サイトに表示されなくなります。`))
      return;
    void runWorkflow('unpublish');
  }

  async function remove() {
    if (!window.confirm(`この${def.label}を削除しますか？この操作は取り消せません。`)) return;
    setWorkflowError(null);
    await enqueue(async () => {
      setBusy('delete');
      // An empty JSON body: the endpoint reads every non-GET body as JSON.
      const outcome = await sendJson(
        'DELETE',
        consolePaths.apiItem(def.endpoint, metaRef.current.id),
        {},
      );
      setBusy(null);
      if (outcome.kind === 'ok') {
        leavingRef.current = true;
        window.location.assign(consolePaths.list(def.endpoint));
      } else {
        setWorkflowError(outcome.message);
      }
    });
  }

  /** Preview what is typed: save first, in a tab opened at once (a later one is blocked). */
  function preview(event: MouseEvent<HTMLAnchorElement>) {
    if (!isDirty()) return;
    event.preventDefault();
    const asVisitor = event.currentTarget.dataset.view === 'visitor';
    const tab = window.open('', '_blank');
    void save({ autosave: false }).then((ok) => {
      const url = asVisitor
        ? visitorViewUrl(def.endpoint, metaRef.current.previewUrl)
        : metaRef.current.previewUrl;
      if (!tab) return;
      if (ok && url) {
        tab.opener = null;
        tab.location.href = url;
      } else {
        tab.close();
      }
    });
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void save({ autosave: false });
  }

  // Autosave an existing item a while after the last change; never over a conflict.
  useEffect(() => {
    // Nothing is autosaved before it exists: the first save is the editor's.
    if (!dirty || meta.isNew || conflict || saving) return;
    const timer = setTimeout(() => void save({ autosave: true }), AUTOSAVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [rev, dirty, meta.isNew, conflict, saving, save]);

  // Ctrl+S / Cmd+S saves instead of saving the page's HTML.
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 's') {
        event.preventDefault();
        void save({ autosave: false });
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [save]);

  // Leaving with unsaved changes: the browser asks on unload, we ask on in-app links.
  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (leavingRef.current) return;
      event.preventDefault();
      // Older browsers ask only when returnValue is set.
      event.returnValue = '';
    };
    const onClick = (event: globalThis.MouseEvent) => {
      if (event.defaultPrevented || event.button !== 0) return;
      if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const anchor = event.target instanceof Element ? event.target.closest('a[href]') : null;
      if (!(anchor instanceof HTMLAnchorElement)) return;
      if (anchor.target === '_blank' || anchor.hasAttribute('download')) return;
      const url = new URL(anchor.href, window.location.href);
      const here = window.location;
      // Links within the page (the error summary's) and off the site (beforeunload asks).
      if (url.origin !== here.origin) return;
      if (url.pathname === here.pathname && url.search === here.search) return;
      if (window.confirm(LEAVE_QUESTION)) {
        leavingRef.current = true;
      } else {
        event.preventDefault();
        // Keeps the framework's link handler from navigating anyway.
        event.stopPropagation();
      }
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    document.addEventListener('click', onClick, true);
    return () => {
      window.removeEventListener('beforeunload', onBeforeUnload);
      document.removeEventListener('click', onClick, true);
    };
  }, [dirty]);

  useEffect(() => {
    if (!focusTarget) return;
    (focusTarget === 'summary' ? summaryRef : conflictAlertRef).current?.focus();
    setFocusTarget(null);
  }, [focusTarget]);

  const saveLine = saving
    ? '保存中…'
    : lastSave?.kind === 'autosaveFailed'
      ? `自動保存できませんでした: ${lastSave.message}`
      : lastSave?.kind === 'saveFailed'
        ? `保存できませんでした: ${lastSave.message}`
        : conflict
          ? '保存されていません（他の人の更新と競合しています）'
          : dirty
            ? '未保存の変更があります'
            : lastSave?.kind === 'autosaved'
              ? `自動保存しました (${timeOfDay.format(lastSave.at)})`
              : lastSave?.kind === 'saved'
                ? `保存しました (${timeOfDay.format(lastSave.at)})`
                : meta.isNew
                  ? 'まだ保存されていません'
                  : '変更はありません';

  const errorEntries = Object.entries(fieldErrors);
  const labelOf = (fieldId: string) =>
    fieldId === 'id' ? 'URL (ID)' : def.fields.find((f) => f.id === fieldId)?.label;

  return (
    <div className={contentStyles.editor}>
      <noscript>
        <p className={usersStyles.alert}>編集には JavaScript を有効にしてください。</p>
      </noscript>

      {meta.isNew ? null : (
        <EditingPresence endpoint={def.endpoint} id={meta.id} baseUpdatedAt={meta.updatedAt} />
      )}

      {conflict ? (
        <div
          ref={conflictAlertRef}
          className={`${usersStyles.alert} ${styles.conflict}`}
          role="alert"
          tabIndex={-1}
        >
          <p>
            この項目は{conflict.by ?? 'コンテンツ API'}が
            <time dateTime={conflict.updatedAt}>{formatDateTime(conflict.updatedAt)}</time>
            に更新しました。あなたの変更はまだ保存されていません（自動保存も止めています）。
          </p>
          <div className={styles.conflictActions}>
            <button
              type="button"
              className={contentStyles.secondaryButton}
              onClick={() => {
                leavingRef.current = true;
                window.location.reload();
              }}
            >
              最新の内容を読み込む
            </button>
            <button
              type="button"
              className={contentStyles.secondaryButton}
              disabled={busy !== null}
              onClick={() => void save({ autosave: false, base: conflict.updatedAt })}
            >
              自分の変更で上書きする
            </button>
          </div>
          <p className={styles.conflictNote}>
            「最新の内容を読み込む」を選ぶと、ここで入力した内容は失われます。必要なら先にコピーしてください。
          </p>
        </div>
      ) : null}

      {errorEntries.length || formError ? (
        <div
          ref={summaryRef}
          className={styles.summary}
          role="alert"
          tabIndex={-1}
          aria-labelledby="editor-error-summary-title"
        >
          <h2 id="editor-error-summary-title" className={styles.summaryTitle}>
            保存できませんでした
          </h2>
          {formError ? <p className={styles.summaryText}>{formError}</p> : null}
          {errorEntries.length ? (
            <ul className={styles.summaryList}>
              {errorEntries.map(([fieldId, message]) => {
                const label = labelOf(fieldId);
                return (
                  <li key={fieldId}>
                    {label ? (
                      <a href={`#${fieldIds(fieldId).control}`}>
                        {label}: {message}
                      </a>
                    ) : (
                      message
                    )}
                  </li>
                );
              })}
            </ul>
          ) : null}
        </div>
      ) : null}

      <form
        className={styles.layout}
        noValidate
        onSubmit={submit}
        aria-label={`${def.label}の編集`}
      >
        <div className={styles.fields}>
          {item.slug ? (
            <SlugField
              endpoint={def.endpoint}
              // Changing a public URL is an editor's, as publishing is.
              slug={canPublish ? item.slug : { ...item.slug, renamable: false }}
              isNew={meta.isNew}
              id={meta.id}
              value={slug}
              onChange={(value) => {
                slugRef.current = value;
                setSlug(value);
              }}
              error={fieldErrors.id}
              disabled={busy !== null}
              onRename={rename}
            />
          ) : null}
          {/* Custom fields (検索と共有) have their own panel below the form's fields. */}
          {def.fields
            .filter((field) => field.kind !== 'custom')
            .map((field) => (
              <FieldControl
                key={field.id}
                field={field}
                value={values[field.id]}
                error={fieldErrors[field.id]}
                onChange={(value) => change(field.id, value)}
                references={item.references}
                self={{ endpoint: def.endpoint, id: meta.id }}
                leadNote={leadRuleNote(def.endpoint, field.id, values)}
              />
            ))}
          {site
            ? def.fields
                .filter((field) => field.kind === 'custom')
                .map((field) => (
                  <SharePanel
                    key={field.id}
                    field={field}
                    values={values}
                    error={fieldErrors[field.id]}
                    onChange={(value) => change(field.id, value)}
                    references={item.references}
                    self={{ endpoint: def.endpoint, id: meta.id }}
                    site={site}
                    path={meta.publicUrl ?? `/${def.endpoint}/${meta.id || '…'}`}
                  />
                ))
            : null}
        </div>
        <aside className={styles.panel} aria-label="保存と公開">
          <WorkflowPanel
            def={def}
            meta={meta}
            hydrated={hydrated}
            busy={busy}
            saveLine={saveLine}
            announcement={announcement}
            error={workflowError}
            scheduleError={scheduleError}
            onPreview={preview}
            onPublish={() => void runWorkflow('publish')}
            onSchedule={schedule}
            onUnschedule={() => void runWorkflow('unschedule')}
            onUnpublish={unpublish}
            onDelete={() => void remove()}
            canPublish={canPublish}
          />
        </aside>
      </form>
    </div>
  );
}
