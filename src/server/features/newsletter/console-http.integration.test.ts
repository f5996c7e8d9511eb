import { beforeAll, describe, expect, it } from 'vitest';
import { findEndpoint } from '@/lib/cms/model';
import { newsletterSends } from '@/server/platform/db/schema';
import { listOutbox } from '@/server/platform/mail/mailer';
import { addReaders } from '@test-support/newsletter';
import { setTestOperator } from '@test-support/operator';
import {
  type PostOptions,
  addUser,
  auditsOf,
  doneFlash,
  expectBare404,
  flashOf,
  formPost,
  siteHeaders,
  SITE,
  roleRouteTests,
} from '@test-support/route-tests';
import { PREVIEW_POLICY, RESEND_REFUSED, newsletterHandlers } from './console-http';
import { listSuppressions, suppressAddress } from './suppressions';
import { createContent, scheduleContent } from '@/server/services/cms/writes';

/**
 * The newsletter's staff routes (src/app/api/admin/newsletter/**) on a real database: who may
 * do what (members and strangers get the console's bare 404 from all of them, editors send but
 * do not touch the suppression list), what bad input gets (400, nothing queued), the resend
 * rule, the preview's headers, the test letter in the outbox, and the audit records.
 */

const { users, viewer, database } = roleRouteTests('newsletter-console', { prefix: 'nl-' });
setTestOperator();

type Who = keyof typeof users;
const routes = newsletterHandlers({ viewer });
const posts = findEndpoint('posts')!;

const post = (call: PostOptions<Who>) => formPost('/api/admin/newsletter/sends', call);
const send = (call: PostOptions<Who>) => routes.send(post(call));
const get = (path: string, who: Who | null) =>
  new Request(`${SITE}${path}`, { headers: siteHeaders({ who }) });

const sendCount = async () => (await database.db.select().from(newsletterSends)).length;

const BODY = '<p>だれでも読める導入。</p><hr data-members-divider=""><p>会員だけが読める続き。</p>';

beforeAll(async () => {
  const { db } = database;
  for (const who of Object.values(users)) await addUser(database, who);
  await addReaders(db, [{ id: 'r-free' }, { id: 'r-paid', plan: 'active' }, { id: 'r-free-2' }]);
  await createContent(db, posts, {
    id: 'live',
    body: { title: '公開記事', body: BODY, publishedAt: '2026-01-01T00:00:00Z' },
    status: 'publish',
  });
  // Three newer members' posts: the free plan (the newest 3) leaves 'live' to paid readers.
  for (const n of [1, 2, 3])
    await createContent(db, posts, {
      id: `newer-${n}`,
      body: { title: `新しい記事${n}`, body: BODY, publishedAt: `2026-01-0${n + 1}T00:00:00Z` },
      status: 'publish',
    });
  await createContent(db, posts, {
    id: 'soon',
    body: { title: '予約記事', body: BODY },
    status: 'draft',
  });
  await scheduleContent(db, posts, 'soon', new Date(Date.now() + 86_400_000), { actor: 'system' });
  await createContent(db, posts, { id: 'draft', body: { title: '下書き' }, status: 'draft' });
});

describe('members and strangers', () => {
  it('get the bare 404 from every route, whatever they send, and nothing changes', async () => {
    const { db } = database;
    await suppressAddress(db, { email: 'kept@example.jp', reason: 'bounce', actor: 'system' });
    for (const who of [null, 'member'] as const) {
      for (const plain of [false, true]) {
        expectBare404(
          await send({ who, plain, fields: { contentId: 'live', segment: 'all', mode: 'now' } }),
        );
        expectBare404(await send({ who, plain, fields: { segment: 'everyone' } }));
        const postTo = (
          route: 'test' | 'suppress' | 'unsuppress',
          path: string,
          fields: Record<string, string>,
        ) => routes[route](formPost(path, { who, plain, fields }));
        expectBare404(await postTo('test', '/api/admin/newsletter/test', { contentId: 'live' }));
        const suppressions = '/api/admin/newsletter/suppressions';
        expectBare404(await postTo('suppress', suppressions, { email: 'x@example.jp' }));
        expectBare404(
          await postTo('unsuppress', `${suppressions}/remove`, { email: 'kept@example.jp' }),
        );
      }
      expectBare404(await routes.preview(get('/api/admin/newsletter/preview/live', who), 'live'));
      expectBare404(await routes.status(get('/api/admin/newsletter/sends/x', who), 'x'));
    }
    expect(await sendCount()).toBe(0);
    expect((await listSuppressions(db)).map((s) => s.email)).toEqual(['kept@example.jp']);
    expect(await listOutbox(db, {})).toHaveLength(0);
  });

  it('editors get the same 404 from the suppression list, which is the admins’', async () => {
    for (const route of [routes.suppress, routes.unsuppress])
      expectBare404(
        await route(
          formPost('/api/admin/newsletter/suppressions', {
            who: 'editor',
            fields: { email: 'kept@example.jp' },
          }),
        ),
      );
    expect(await listSuppressions(database.db)).toHaveLength(1);
  });
});

describe('sending', () => {
  it('refuses bad input with 400 and queues nothing', async () => {
    const bad: Record<string, string>[] = [
      { contentId: 'live', segment: 'everyone', mode: 'now' },
      { contentId: 'live', segment: 'all', mode: 'later' },
      { contentId: '../x', segment: 'all', mode: 'now' },
      { segment: 'all', mode: 'now' },
      { contentId: 'live', segment: 'all', mode: 'now', resend: 'yes' },
      // A subject test's fields, wrong: a share out of range, a wait not offered, no such
      // measure, one subject only (besides the title), the same subject twice, too long.
      { contentId: 'live', segment: 'all', mode: 'now', subjectB: 'B', samplePercent: '90' },
      { contentId: 'live', segment: 'all', mode: 'now', subjectB: 'B', samplePercent: '1e1x' },
      { contentId: 'live', segment: 'all', mode: 'now', subjectB: 'B', waitHours: '3' },
      { contentId: 'live', segment: 'all', mode: 'now', subjectB: 'B', testMetric: 'replies' },
      { contentId: 'live', segment: 'all', mode: 'now', subjectA: '別の件名' },
      { contentId: 'live', segment: 'all', mode: 'now', subjectA: 'A', subjectB: 'A' },
      { contentId: 'live', segment: 'all', mode: 'now', subjectA: 'A', subjectB: 'B'.repeat(151) },
    ];
    for (const fields of bad) {
      const answer = await send({ who: 'editor', fields });
      expect(answer.status, JSON.stringify(fields)).toBe(400);
    }
    // A draft cannot be sent now, and only a scheduled post with its publication.
    const draft = await send({
      who: 'editor',
      fields: { contentId: 'draft', segment: 'all', mode: 'now' },
    });
    expect(draft.status).toBe(409);
    expect(((await draft.json()) as { message: string }).message).toContain('公開されていない記事');
    const notScheduled = await send({
      who: 'editor',
      fields: { contentId: 'live', segment: 'all', mode: 'withPublication' },
    });
    expect(notScheduled.status).toBe(409);
    expect(
      (await send({ who: 'editor', fields: { contentId: 'gone', segment: 'all', mode: 'now' } }))
        .status,
    ).toBe(404);
    expect(await sendCount()).toBe(0);
  });

  it('lets an editor send a published post to a segment, audited, and back to the step (plain post)', async () => {
    const answer = await send({
      who: 'editor',
      plain: true,
      fields: { contentId: 'live', segment: 'free', mode: 'now' },
    });
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe(
      '/admin/content/posts/live/newsletter#newsletter-sends',
    );
    expect(doneFlash(answer)).toBe('「無料会員」の 2 人への配信を始めました。');
    const sendId = flashOf(answer)!.values.sendId as string;
    const [audit] = await auditsOf(database, 'newsletter-sent', `send:${sendId}`);
    expect(audit).toMatchObject({ actor: `user:${users.editor.id}` });
    expect(audit!.detail).toMatchObject({
      contentId: 'live',
      segment: 'free',
      queued: 2,
      resend: false,
    });

    const status = await routes.status(
      get(`/api/admin/newsletter/sends/${sendId}`, 'editor'),
      sendId,
    );
    expect(status.status).toBe(200);
    expect(await status.json()).toMatchObject({
      status: 'queued',
      total: 2,
      counts: { queued: 2 },
    });
  });

  it('sends a post again to readers it reached only when staff confirm the resend', async () => {
    const before = await sendCount();
    const refused = await send({
      who: 'admin',
      fields: { contentId: 'live', segment: 'all', mode: 'now' },
    });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { message: string }).message).toBe(RESEND_REFUSED);
    expect(await sendCount()).toBe(before);
    // Another segment that does not overlap needs no confirmation.
    expect(
      (await send({ who: 'admin', fields: { contentId: 'live', segment: 'paid', mode: 'now' } }))
        .status,
    ).toBe(200);
    const again = await send({
      who: 'admin',
      fields: { contentId: 'live', segment: 'all', mode: 'now', resend: '1' },
    });
    expect(again.status).toBe(200);
    expect(await sendCount()).toBe(before + 2);
    const audits = await auditsOf(database, 'newsletter-sent');
    expect(audits.some((a) => (a.detail as { resend?: boolean }).resend === true)).toBe(true);
  });

  it('records a scheduled post’s send for its publication', async () => {
    const answer = await send({
      who: 'editor',
      fields: { contentId: 'soon', segment: 'all', mode: 'withPublication' },
    });
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { message: string }).message).toContain('公開と同時に配信');
  });
});

describe('the preview and the test letter', () => {
  it('answers the letter alone, never cached, under a policy that runs and frames nothing', async () => {
    const free = await routes.preview(
      get('/api/admin/newsletter/preview/live?audience=free', 'editor'),
      'live',
    );
    expect(free.status).toBe(200);
    expect(free.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(free.headers.get('cache-control')).toBe('private, no-store');
    expect(free.headers.get('content-security-policy')).toBe(PREVIEW_POLICY);
    const freeHtml = await free.text();
    expect(freeHtml).toContain('だれでも読める導入');
    expect(freeHtml).not.toContain('会員だけが読める続き');
    const paid = await routes.preview(
      get('/api/admin/newsletter/preview/live?audience=paid', 'admin'),
      'live',
    );
    expect(await paid.text()).toContain('会員だけが読める続き');
    // A post the free plan opens is whole in the free reader's letter, as on the site.
    const open = await routes.preview(
      get('/api/admin/newsletter/preview/newer-3?audience=free', 'editor'),
      'newer-3',
    );
    expect(await open.text()).toContain('会員だけが読める続き');
    const bad = await routes.preview(
      get('/api/admin/newsletter/preview/live?audience=vip', 'editor'),
      'live',
    );
    expect(bad.status).toBe(400);
  });

  it('mails the test letter to the signed-in staff member only', async () => {
    const answer = await routes.test(
      formPost('/api/admin/newsletter/test', {
        who: 'editor',
        plain: true,
        fields: { contentId: 'live' },
      }),
    );
    expect(answer.status).toBe(303);
    expect(doneFlash(answer)).toBe(
      `テストメール（無料の読者向け）を ${users.editor.email} に送信しました。`,
    );
    const mails = await listOutbox(database.db, {});
    expect(mails.map((m) => m.to)).toEqual([users.editor.email]);
    expect(await auditsOf(database, 'newsletter-test-sent', 'posts:live')).toHaveLength(1);
    expect(mails[0]!.subject).toBe('【テスト配信】公開記事');
  });
});

describe('the suppression list (admins)', () => {
  const suppress = (fields: Record<string, string>) =>
    routes.suppress(formPost('/api/admin/newsletter/suppressions', { who: 'admin', fields }));
  const unsuppress = (fields: Record<string, string>) =>
    routes.unsuppress(
      formPost('/api/admin/newsletter/suppressions/remove', { who: 'admin', fields }),
    );

  it('adds and removes an address, each change audited', async () => {
    const bad = await suppress({ email: 'not an address', reason: 'manual' });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { fieldErrors: Record<string, string> }).fieldErrors.email).toBe(
      'メールアドレスを正しく入力してください。',
    );
    expect((await suppress({ email: 'a@example.jp', reason: 'refund' })).status).toBe(400);
    expect(await listSuppressions(database.db)).toHaveLength(1);

    expect(
      (await suppress({ email: ' Stop@Example.JP ', reason: 'complaint', note: '電話で依頼' }))
        .status,
    ).toBe(200);
    const [added] = (await listSuppressions(database.db)).filter(
      (s) => s.email === 'stop@example.jp',
    );
    expect(added).toMatchObject({
      reason: 'complaint',
      note: '電話で依頼',
      createdBy: `user:${users.admin.id}`,
    });
    expect(await auditsOf(database, 'newsletter-suppressed', 'email:stop@example.jp')).toHaveLength(
      1,
    );

    expect((await unsuppress({ email: 'stop@example.jp' })).status).toBe(200);
    expect((await listSuppressions(database.db)).some((s) => s.email === 'stop@example.jp')).toBe(
      false,
    );
    expect(
      await auditsOf(database, 'newsletter-unsuppressed', 'email:stop@example.jp'),
    ).toHaveLength(1);
  });
});

describe('a subject line test', () => {
  it('is queued from the send form: the subjects, the sample and the wait on the send', async () => {
    const answer = await send({
      who: 'editor',
      plain: true,
      fields: {
        contentId: 'newer-1',
        segment: 'all',
        mode: 'now',
        subjectA: '新しい記事1',
        subjectB: '読まれる件名',
        subjectC: '',
        samplePercent: '50',
        waitHours: '2',
        testMetric: 'opens',
      },
    });
    expect(answer.status).toBe(303);
    const sendId = flashOf(answer)!.values.sendId as string;
    const rows = await database.db.select().from(newsletterSends);
    expect(rows.find((r) => r.id === sendId)).toMatchObject({
      subjects: ['新しい記事1', '読まれる件名'],
      testSamplePercent: 50,
      testWaitMinutes: 120,
      testMetric: 'opens',
      winner: null,
    });
    const status = await routes.status(
      get(`/api/admin/newsletter/sends/${sendId}`, 'editor'),
      sendId,
    );
    const counts = ((await status.json()) as { counts: Record<string, number> }).counts;
    expect(counts.held).toBeGreaterThan(0);
  });
});
