/**
 * What the load needs from the site: a seeded database with a free and a paid member and two
 * API keys (made before the server starts, by the admin CLI's own commands), then, from the
 * running server, the members' sessions, real article ids and the router's navigation URLs.
 */
import path from 'node:path';
import { runAdminCommand } from '@/server/features/admin/commands';
import { copyDemoMedia, seedDemoContent } from '@/server/features/seed/seed';
import { openDatabase } from '@/server/platform/db/client';
import { seedCorpus } from '../cms-corpus';
import type { CookieJar, Member, Navigation } from './session';

const PASSWORD = 'bench-load-kumo-no-ue-77';
export const FREE_EMAIL = 'free@load.example';
export const PAID_EMAIL = 'paid@load.example';
/** An administrator, made only when asked for (bench/render.ts renders a staff member's page). */
export const STAFF_EMAIL = 'staff@load.example';
/** The free members of `--mix metered`, each read counted by the metered wall. */
/** What a PostgreSQL deployment must set beside DATABASE_URL (as scripts/cluster-test.ts does). */
export const POSTGRES_SITE_ENV = {
  BILLING_SANDBOX: 'true',
  OPERATOR_NAME: '株式会社負荷試験',
  OPERATOR_REPRESENTATIVE: '試験 太郎',
  OPERATOR_EMAIL: 'load@example.jp',
  OPERATOR_DISCLOSE_ON_REQUEST: 'true',
};

export const meteredEmail = (n: number) => `metered-${n}@load.example`;
/** The paywall's heading (src/components/content/paywall.tsx): 「この記事は会員限定です」. */
const PAYWALL = 'id="paywall-heading"';

/** The demo corpus plus `posts` generated articles, two members and two content API keys. */
export async function seedSite(options: {
  dataDir: string;
  databaseUrl: string | undefined;
  posts: number;
  staff?: boolean;
  /** Free members for `--mix metered` (meteredEmail). */
  meteredMembers?: number;
}): Promise<{ readKey: string; writeKey: string }> {
  const { dataDir, databaseUrl } = options;
  const database = await openDatabase({ dataDir, databaseUrl, migrate: true });
  // A site's reading key (published items only: its answers are cached) and an editor's tool.
  let readKey: string;
  let writeKey: string;
  try {
    await copyDemoMedia(path.join(dataDir, 'uploads'));
    await seedDemoContent(database.db);
    const ctx = { database, actor: 'cli:bench-load' };
    for (const email of [FREE_EMAIL, PAID_EMAIL])
      await runAdminCommand(ctx, 'create-user', { email, password: PASSWORD });
    await runAdminCommand(ctx, 'grant-plan', { email: PAID_EMAIL, plan: 'monthly' });
    for (let n = 0; n < (options.meteredMembers ?? 0); n++)
      await runAdminCommand(ctx, 'create-user', { email: meteredEmail(n), password: PASSWORD });
    if (options.staff)
      await runAdminCommand(ctx, 'create-user', {
        email: STAFF_EMAIL,
        password: PASSWORD,
        role: 'admin',
      });
    const key = async (name: string, permissions: string) =>
      (await runAdminCommand(ctx, 'create-api-key', { name, permissions })).at(-1)!;
    readKey = await key('bench-load-read', 'GET');
    writeKey = await key('bench-load-write', 'POST,PATCH,DELETE');
  } finally {
    await database.close();
  }
  if (options.posts > 0) await seedCorpus(options.posts, databaseUrl, dataDir);
  return { readKey, writeKey };
}

/**
 * Signs in as the sign-in form does; the session cookie as a Cookie header. `from`: the client's
 * address (the bench's server trusts X-Forwarded-For), so that many members signing in are not
 * one address's sign-ins.
 */
export async function signIn(
  base: string,
  siteUrl: string,
  email: string,
  from?: string,
): Promise<string> {
  const response = await fetch(`${base}/api/account/sign-in`, {
    method: 'POST',
    headers: {
      origin: siteUrl,
      accept: 'application/json',
      ...(from ? { 'x-forwarded-for': from } : {}),
    },
    body: new URLSearchParams({ email, password: PASSWORD }),
  });
  await response.arrayBuffer();
  const cookie = response.headers
    .getSetCookie()
    .map((line) => line.split(';', 1)[0])
    .join('; ');
  if (!response.ok || !cookie) throw new Error(`${email} のサインインに失敗 (${response.status})`);
  return cookie;
}

/** The session plus the audience cookie the site sets on the first page, as a browser holds them. */
export async function browserCookies(base: string, session: string): Promise<string> {
  const response = await fetch(`${base}/posts`, { headers: { cookie: session } });
  await response.arrayBuffer();
  const audience = response.headers.getSetCookie().map((line) => line.split(';', 1)[0]);
  return [session, ...audience].join('; ');
}

/** Ids of published articles, newest first, from the content API. */
export async function articleIds(base: string, apiKey: string, limit: number): Promise<string[]> {
  const response = await fetch(`${base}/api/v1/posts?limit=${limit}&fields=id`, {
    headers: { 'x-microcms-api-key': apiKey },
  });
  if (!response.ok) throw new Error(`GET /api/v1/posts が ${response.status} を返しました`);
  const { contents } = (await response.json()) as { contents: { id: string }[] };
  if (contents.length < 2) throw new Error('公開済みの記事がありません (no published posts)');
  return contents.map((c) => c.id);
}

/**
 * A members' article, checked as each reader gets it (twice: the second from the page cache):
 * the paywall for the anonymous visitor, the members-only part for the paid member.
 */
export async function checkAudiences(
  base: string,
  ids: string[],
  paidCookie: string,
): Promise<string> {
  const page = async (id: string, cookie: string) =>
    (await fetch(`${base}/posts/${id}`, { headers: cookie ? { cookie } : {} })).text();
  for (const id of ids) {
    if (!(await page(id, '')).includes(PAYWALL)) continue;
    for (let i = 0; i < 2; i++) {
      if (!(await page(id, '')).includes(PAYWALL))
        throw new Error(`/posts/${id}: 匿名の読者に会員限定の本文が渡りました`);
      if ((await page(id, paidCookie)).includes(PAYWALL))
        throw new Error(`/posts/${id}: 有料会員に会員限定の本文が表示されません`);
    }
    return id;
  }
  throw new Error('会員限定の記事が見つかりません (no members-only post among the ids)');
}

/** The router state tree a browser sends from the home page (as bench/pages.ts sends it). */
const HOME_TREE = encodeURIComponent(
  JSON.stringify(['', { children: ['__PAGE__', {}] }, null, null]),
);

/**
 * The router's request for a client-side navigation (or its prefetch) from the home page to
 * `target`, by an anonymous visitor or a member: the `_rsc` value is the one the server asks
 * for (it redirects a wrong one).
 */
export async function navigationTo(
  base: string,
  target: string,
  prefetch: boolean,
  jar: CookieJar,
  member: Member | null,
): Promise<Navigation> {
  const headers: Record<string, string> = {
    rsc: '1',
    'next-router-state-tree': HOME_TREE,
    ...(prefetch ? { 'next-router-prefetch': '1' } : {}),
  };
  const sent = member ? { ...headers, cookie: jar[member] } : headers;
  const probe = new URL(target, base);
  probe.searchParams.set('_rsc', '0');
  const response = await fetch(probe, { headers: sent, redirect: 'manual' });
  await response.arrayBuffer();
  const location = response.headers.get('location');
  const url = location ? new URL(location, base) : probe;
  if (location) {
    const check = await fetch(url, { headers: sent, redirect: 'manual' });
    await check.arrayBuffer();
    if (check.status !== 200) throw new Error(`RSC ${url.pathname}${url.search}: ${check.status}`);
  } else if (response.status !== 200) {
    throw new Error(`RSC ${target}: ${response.status}`);
  }
  return { path: url.pathname + url.search, headers, member };
}
