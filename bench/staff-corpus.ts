/**
 * The staff benchmark's data (bench/staff.ts): the demo corpus, BENCH_POSTS posts (1,000) and
 * BENCH_MEMBERS members (10,000; a quarter paid), partner companies with members, contracts and
 * job listings in every state, and what a site of that size has gathered: sign-in audit
 * events, kept mail, page views, newsletter sends with a letter per reader, contact messages
 * and company inquiries. Deterministic, inserted in multi-row statements.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { findEndpoint } from '@/lib/cms/model';
import { todayInJapan } from '@/lib/jobs';
import { runAdminCommand } from '@/server/features/admin/commands';
import { copyDemoMedia, seedDemoContent } from '@/server/features/seed/seed';
import { type Db, openDatabase } from '@/server/platform/db/client';
import {
  auditEvents,
  cmsContents,
  contactMessages,
  jobListings,
  mailOutbox,
  newsletterLetters,
  newsletterSends,
  pageViews,
  partnerContracts,
  partnerInquiries,
} from '@/server/platform/db/schema';
import { createContent } from '@/server/services/cms/writes';
import { addReaders } from '../tests/support/newsletter';
import { publishedRow, seedCorpus } from './cms-corpus';

export const STAFF_EMAIL = 'staff@bench.example';
export const STAFF_PASSWORD = 'bench-kumo-no-ue-77';
export const PARTNERS = 40;

export type StaffCorpus = {
  dataDir: string;
  /** Drafts to publish, with the updatedAt the editor sends back. */
  drafts: { id: string; updatedAt: string }[];
  /** Listings in review (revision 1), with their partner. */
  inReview: { id: string; partnerId: string }[];
  /** A member to open at /admin/users/{id}. */
  memberId: string;
};

const CHUNK = 1000;
const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 28);

const partnerId = (p: number) => `bench-partner-${String(p).padStart(2, '0')}`;
const memberId = (i: number) => `bench-member-${String(i).padStart(5, '0')}`;
const pad = (i: number) => String(i).padStart(5, '0');

async function inChunks<T>(
  count: number,
  row: (i: number) => T,
  insert: (rows: T[]) => Promise<unknown>,
) {
  for (let offset = 0; offset < count; offset += CHUNK)
    await insert(
      Array.from({ length: Math.min(CHUNK, count - offset) }, (_, k) => row(offset + k)),
    );
}

/** A listing's fields as saveListing stores them (normalised). */
const listingFields = (p: number, n: number) => ({
  title: `${['建築設計', '照明設計', '家具製作', 'グラフィック', '素材開発'][n % 5]}スタッフ 第${n}期`,
  description: '住宅と公共建築の設計を担当していただきます。',
  details: '設計・監理。\n\n経験3年以上。図面と模型で考えることが好きな方。',
  employmentType: n % 3 === 0 ? '契約社員' : '正社員',
  occupation: '建築・インテリア',
  prefecture: '東京都',
  remote: '一部リモート',
  location: '渋谷区',
  salaryUnit: '年収',
  salaryMin: 4_000_000 + (p % 5) * 200_000,
  salaryMax: 6_000_000 + (p % 5) * 200_000,
  hours: '10:00〜19:00',
  applyUrl: `https://${partnerId(p)}.example.jp/recruit`,
  applyEmail: '',
  closingDate: todayInJapan(new Date(NOW + 60 * DAY)),
});

async function seedPartners(db: Db, drafts: number): Promise<StaffCorpus['inReview']> {
  const partnersDef = findEndpoint('partners')!;
  const jobsDef = findEndpoint('jobs')!;
  const at = new Date(NOW - 200 * DAY);
  const rows = [];
  for (let p = 0; p < PARTNERS; p++) {
    const data = {
      name: `ベンチ設計事務所 ${p}`,
      description: '住宅と公共建築を手がける設計事務所。地域の木材を使った木造建築を得意とする。',
    };
    rows.push(await publishedRow(partnersDef, partnerId(p), data, at));
  }
  await db.insert(cmsContents).values(rows);
  await db.insert(partnerContracts).values(
    Array.from({ length: PARTNERS }, (_, p) => ({
      partnerId: partnerId(p),
      contractStart: '2026-04-01',
      contractEnd: '2027-03-31',
      listingQuota: 20,
    })),
  );
  // Each partner: 4 live listings (with their `jobs` item), 2 drafts, 1 returned, 3 in review.
  const states = ['published', 'published', 'published', 'published', 'draft', 'draft', 'returned'];
  const listings = [];
  const jobs = [];
  const inReview: StaffCorpus['inReview'] = [];
  for (let p = 0; p < PARTNERS; p++)
    for (let n = 0; n < 10; n++) {
      // The form of a listing's id (LISTING_ID): job- and 12 letters or digits.
      const id = `job-benchjb${String(p).padStart(2, '0')}${String(n).padStart(3, '0')}`;
      const state = (states[n] ?? 'in_review') as (typeof jobListings.$inferInsert)['state'];
      const fields = listingFields(p, n);
      const updated = new Date(NOW - (p * 10 + n) * 3_600_000);
      listings.push({
        id,
        partnerId: partnerId(p),
        state,
        fields,
        reviewedFields: state === 'published' || state === 'returned' ? fields : null,
        reviewComment: state === 'returned' ? '給与の幅を具体的に書いてください。' : null,
        publishedAt: state === 'published' ? updated : null,
        liveUntil: state === 'published' ? fields.closingDate : null,
        submittedAt: state === 'draft' ? null : updated,
        reviewedAt: state === 'published' || state === 'returned' ? updated : null,
        createdAt: new Date(updated.getTime() - 7 * DAY),
        updatedAt: updated,
      });
      if (state === 'in_review') inReview.push({ id, partnerId: partnerId(p) });
      if (state === 'published') {
        const data = {
          title: fields.title,
          partner: partnerId(p),
          description: fields.description,
          body: '<p>設計・監理。</p><p>経験3年以上。</p>',
          employmentType: [fields.employmentType],
          location: fields.location,
        };
        jobs.push(await publishedRow(jobsDef, id, data, updated));
      }
    }
  await db.insert(jobListings).values(listings);
  await db.insert(cmsContents).values(jobs);
  if (inReview.length < drafts) throw new Error(`only ${inReview.length} listings in review`);
  return inReview;
}

async function seedMembers(db: Db, members: number): Promise<void> {
  await addReaders(
    db,
    Array.from({ length: members }, (_, i) => ({
      id: memberId(i),
      email: `member${pad(i)}@bench.example`,
      plan: i % 4 === 0 ? 'active' : undefined,
      newsletter: i % 3 !== 0,
    })),
  );
  // Joined over two years, oldest first; two members act for each partner.
  await db.execute(sql`UPDATE "user" SET created_at = ${new Date(NOW - 730 * DAY)}::timestamptz
    + (substring(id from '[0-9]+$')::int * interval '1 second' * ${Math.floor((730 * 86_400) / members)})
    WHERE id LIKE 'bench-member-%'`);
  for (let p = 0; p < PARTNERS; p++)
    await db.execute(sql`UPDATE user_public_profiles SET partner_id = ${partnerId(p)}
      WHERE user_id IN (${memberId(p * 2 + 1)}, ${memberId(p * 2 + 2)})`);
  // Two sign-ins each in the audit log, and the mail each got: a confirmation and a welcome.
  await inChunks(
    members * 2,
    (i) => ({
      occurredAt: new Date(NOW - ((i * 7919) % (365 * 24)) * 3_600_000),
      actor: `user:${memberId(i % members)}`,
      action: 'sign-in',
      target: `user:${memberId(i % members)}`,
      ip: `198.51.100.${i % 250}`,
      detail: { method: 'password' },
    }),
    (rows) => db.insert(auditEvents).values(rows),
  );
  await inChunks(
    members,
    (i) => ({
      createdAt: new Date(NOW - ((i * 104729) % (365 * 24)) * 3_600_000),
      to: `member${pad(i)}@bench.example`,
      subject: '【AXIS】メールアドレスの確認',
      kind: 'verify-email',
      status: 'stored',
      textBody: `${'AXIS への登録ありがとうございます。以下のリンクからメールアドレスを確認してください。\n'.repeat(4)}https://axis.example.jp/verify?token=${pad(i)}`,
      htmlBody: `<p>${'AXIS への登録ありがとうございます。以下のリンクからメールアドレスを確認してください。'.repeat(4)}</p>`,
      secret: true,
      linkRemovedAt: new Date(NOW - DAY),
    }),
    (rows) => db.insert(mailOutbox).values(rows),
  );
}

async function seedActivity(db: Db, posts: number, members: number): Promise<void> {
  // 90 days of page views over the posts, a third of them by members.
  const VIEWS = 60_000;
  await inChunks(
    VIEWS,
    (i) => {
      const day = new Date(NOW - (i % 90) * DAY);
      const post = `post-${String((i * 31) % posts).padStart(6, '0')}`;
      return {
        occurredAt: day,
        day: todayInJapan(day),
        path: `/posts/${post}`,
        endpoint: 'posts',
        contentId: post,
        referrer: i % 5 === 0 ? 'https://www.google.com/' : null,
        visitorId: `visitor-${(i * 7) % 20_000}`,
        audience: ['anonymous', 'anonymous', 'member', 'paid'][i % 4]!,
        paywall: i % 4 < 3 && i % 6 === 0,
      };
    },
    (rows) => db.insert(pageViews).values(rows),
  );
  // Three newsletters sent to every opted-in reader.
  for (let s = 0; s < 3; s++) {
    const sentAt = new Date(NOW - (s + 1) * 7 * DAY);
    const [send] = await db
      .insert(newsletterSends)
      .values({
        contentId: `post-${String(s * 10).padStart(6, '0')}`,
        segment: 'all',
        status: 'done',
        createdAt: sentAt,
        queuedAt: sentAt,
        finishedAt: sentAt,
      })
      .returning({ id: newsletterSends.id });
    const readers = Array.from({ length: members }, (_, i) => i).filter((i) => i % 3 !== 0);
    await inChunks(
      readers.length,
      (k) => ({
        sendId: send!.id,
        userId: memberId(readers[k]!),
        email: `member${pad(readers[k]!)}@bench.example`,
        audience: readers[k]! % 4 === 0 ? 'paid' : 'free',
        status: 'sent',
        attempts: 1,
        sentAt,
        openedAt: k % 3 === 0 ? sentAt : null,
        openCount: k % 3 === 0 ? 1 : 0,
      }),
      (rows) => db.insert(newsletterLetters).values(rows),
    );
  }
  await inChunks(
    1000,
    (i) => ({
      createdAt: new Date(NOW - i * 6 * 3_600_000),
      name: `問い合わせ ${i}`,
      email: `contact${i}@bench.example`,
      subject: '記事について',
      message: '記事の内容について質問があります。'.repeat(5),
    }),
    (rows) => db.insert(contactMessages).values(rows),
  );
  await inChunks(
    500,
    (i) => ({
      kind: i % 2 ? ('job-posting' as const) : ('partner-application' as const),
      company: `株式会社ベンチ ${i}`,
      name: `担当 ${i}`,
      email: `company${i}@bench.example`,
      message: '求人の掲載について相談したいです。',
      state: (['new', 'in-progress', 'done'] as const)[i % 3],
      createdAt: new Date(NOW - i * 12 * 3_600_000),
    }),
    (rows) => db.insert(partnerInquiries).values(rows),
  );
}

/** Seeds everything into a new data directory; the caller removes it. */
export async function seedStaffCorpus(options: {
  posts: number;
  members: number;
  /** How many drafts and listings in review the runs use up. */
  uses: number;
}): Promise<StaffCorpus> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'axis-bench-staff-'));
  {
    const database = await openDatabase({ dataDir });
    await copyDemoMedia(path.join(dataDir, 'uploads'));
    await seedDemoContent(database.db);
    await database.close();
  }
  await seedCorpus(options.posts, undefined, dataDir);
  const started = Date.now();
  const database = await openDatabase({ dataDir });
  const { db } = database;
  const inReview = await seedPartners(db, options.uses);
  await seedMembers(db, options.members);
  await seedActivity(db, options.posts, options.members);
  const postsDef = findEndpoint('posts')!;
  const drafts: StaffCorpus['drafts'] = [];
  for (let i = 0; i < options.uses; i++) {
    const { id } = await createContent(db, postsDef, {
      id: `bench-draft-${pad(i)}`,
      status: 'draft',
      body: {
        title: `公開を待つ記事 ${i}`,
        description: '下書きの記事。',
        body: '<p>デザインと建築の関係から、素材のあり方を考える。</p>',
        category: 'cat-1',
      },
    });
    const [row] = await db
      .select({ updatedAt: cmsContents.updatedAt })
      .from(cmsContents)
      .where(sql`${cmsContents.endpoint} = 'posts' AND ${cmsContents.id} = ${id}`);
    drafts.push({ id, updatedAt: row!.updatedAt.toISOString() });
  }
  const ctx = { database, actor: 'cli:bench' };
  await runAdminCommand(ctx, 'create-user', {
    email: STAFF_EMAIL,
    password: STAFF_PASSWORD,
    role: 'admin',
  });
  await db.execute(sql`VACUUM ANALYZE`);
  await database.close();
  console.log(
    `  seeded ${options.members} members, ${PARTNERS} partners with ${PARTNERS * 10} listings, activity in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  return { dataDir, drafts, inReview, memberId: memberId(4) };
}
