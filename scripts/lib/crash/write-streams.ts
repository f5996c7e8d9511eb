/**
 * The streams of writes the crash test runs until the kill: sign-ups, bookmarks, content edits
 * and creations through the content API, billing webhooks. Several workers per kind run at
 * once; a target (a post, a bookmark) belongs to one worker, so its writes are sent one at a
 * time and "the last acknowledged value" is well defined.
 */
import { createHmac } from 'node:crypto';
import type { Ledger } from './ledger';

export type StreamContext = {
  base: string;
  /** The build's SITE_URL: the form routes' same-origin check compares Origin with it. */
  siteUrl: string;
  ledger: Ledger;
  random: () => number;
  /** Unique per run: in every address, title, name and event id written. */
  tag: string;
  readerCookie: string;
  apiKey: string;
  webhookSecret: string;
};

let addressCounter = 1;
/** A new client address per request (TRUST_PROXY=true), so that no per-address limit refuses the stream. */
function forwardedFor(): string {
  const n = addressCounter++;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
}

function formHeaders(ctx: StreamContext, cookie = ''): Record<string, string> {
  return {
    origin: ctx.siteUrl,
    accept: 'application/json',
    'x-forwarded-for': forwardedFor(),
    ...(cookie ? { cookie } : {}),
  };
}

export const signUpPassword = (tag: string, n: number) => `Kumo-Sora-Crash-${tag}-${n}!`;
export const signUpEmail = (tag: string, n: number) => `crash-${tag}-${n}@example.jp`;

function sendSignUp(ctx: StreamContext, n: number, newsletter: boolean) {
  const email = signUpEmail(ctx.tag, n);
  const displayName = `試験読者 ${ctx.tag}-${n}`;
  const form = new URLSearchParams({
    email,
    password: signUpPassword(ctx.tag, n),
    passwordConfirm: signUpPassword(ctx.tag, n),
    displayName,
    consent: 'on',
    ...(newsletter ? { newsletter: 'on' } : {}),
  });
  return ctx.ledger.send('sign-up', email, `${displayName}|${newsletter}`, () =>
    fetch(`${ctx.base}/api/account/sign-up`, {
      method: 'POST',
      headers: formHeaders(ctx),
      body: form,
      redirect: 'manual',
    }),
  );
}

async function signUps(ctx: StreamContext, worker: number, workers: number): Promise<void> {
  for (let n = worker; !ctx.ledger.killed; n += workers) {
    await sendSignUp(ctx, n, ctx.random() < 0.5);
  }
}

/**
 * After the restart, each reader whose sign-up the kill left unanswered sends it again, as a
 * person would: the site must then finish it (src/server/features/identity/unfinished-sign-up.ts).
 */
export async function retryCutSignUps(ctx: StreamContext): Promise<number> {
  const cut = ctx.ledger.of('sign-up', 'in-flight');
  for (const write of cut) {
    const n = Number(/-(\d+)@/.exec(write.target)?.[1]);
    await sendSignUp(ctx, n, write.value.endsWith('|true'));
    // If the cut one had been stored whole, the answer mails "already registered: sign in";
    // signing in unverified mails the confirmation link (what the reader then does).
    await fetch(`${ctx.base}/api/account/sign-in`, {
      method: 'POST',
      headers: formHeaders(ctx),
      body: new URLSearchParams({ email: write.target, password: signUpPassword(ctx.tag, n) }),
      redirect: 'manual',
    });
  }
  return cut.length;
}

async function bookmarks(ctx: StreamContext, posts: string[]): Promise<void> {
  const state = new Map(posts.map((id) => [id, false]));
  for (let i = 0; !ctx.ledger.killed; i++) {
    const id = posts[Math.floor(ctx.random() * posts.length)]!;
    const add = !state.get(id);
    const sent = await ctx.ledger.send('bookmark', `posts:${id}`, add ? 'on' : 'off', () =>
      fetch(`${ctx.base}/api/bookmarks`, {
        method: 'POST',
        headers: formHeaders(ctx, ctx.readerCookie),
        body: new URLSearchParams({
          endpoint: 'posts',
          contentId: id,
          action: add ? 'add' : 'remove',
        }),
        redirect: 'manual',
      }),
    );
    if (sent?.write.outcome === 'acked') state.set(id, add);
  }
}

function apiHeaders(ctx: StreamContext): Record<string, string> {
  return { 'x-microcms-api-key': ctx.apiKey, 'content-type': 'application/json' };
}

export const editedTitle = (tag: string, id: string, n: number) =>
  `クラッシュ試験 ${tag} ${id} 第${n}版`;

async function edits(ctx: StreamContext, posts: string[]): Promise<void> {
  for (let n = 1; !ctx.ledger.killed; n++) {
    const id = posts[n % posts.length]!;
    const title = editedTitle(ctx.tag, id, n);
    await ctx.ledger.send('edit', `posts:${id}`, title, () =>
      fetch(`${ctx.base}/api/v1/posts/${id}`, {
        method: 'PATCH',
        headers: apiHeaders(ctx),
        body: JSON.stringify({ title }),
      }),
    );
  }
}

/** New tags, as drafts or published: the answer's id is kept in the write's answer. */
async function creations(ctx: StreamContext, worker: number, workers: number): Promise<void> {
  for (let n = worker; !ctx.ledger.killed; n += workers) {
    const name = `crash-${ctx.tag}-${n}`;
    const status = ctx.random() < 0.5 ? 'draft' : 'publish';
    await ctx.ledger.send('create', name, status, () =>
      fetch(`${ctx.base}/api/v1/tags${status === 'draft' ? '?status=draft' : ''}`, {
        method: 'POST',
        headers: apiHeaders(ctx),
        body: JSON.stringify({ name }),
      }),
    );
  }
}

/** A Stripe-Signature header, as Stripe signs: HMAC-SHA256 of `t.body`. */
function stripeSignature(body: string, secret: string): string {
  const t = Math.floor(Date.now() / 1000);
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
}

/** Catalogue events: each makes the site re-read the plans from the provider and store them. */
async function webhooks(ctx: StreamContext, worker: number, workers: number): Promise<void> {
  for (let n = worker; !ctx.ledger.killed; n += workers) {
    const id = `evt_crash_${ctx.tag}_${n}`;
    const type = n % 2 === 0 ? 'product.updated' : 'price.updated';
    const object =
      type === 'product.updated'
        ? { id: 'prod_crash', object: 'product' }
        : { id: 'price_crash', object: 'price' };
    const body = JSON.stringify({
      id,
      object: 'event',
      type,
      api_version: '2025-01-27.acacia',
      created: Math.floor(Date.now() / 1000),
      data: { object },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
    });
    await ctx.ledger.send('webhook', id, 'applied', () =>
      fetch(`${ctx.base}/api/webhooks/billing`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'stripe-signature': stripeSignature(body, ctx.webhookSecret),
        },
        body,
      }),
    );
  }
}

export type StreamPlan = {
  bookmarkPosts: string[][];
  editPosts: string[][];
  signUpWorkers: number;
  createWorkers: number;
  webhookWorkers: number;
};

/** Runs every stream until the ledger is marked killed; resolves once every worker stopped. */
export async function runStreams(ctx: StreamContext, plan: StreamPlan): Promise<void> {
  const range = (n: number) => [...Array(n).keys()];
  await Promise.all([
    ...range(plan.signUpWorkers).map((w) => signUps(ctx, w, plan.signUpWorkers)),
    ...plan.bookmarkPosts.map((posts) => bookmarks(ctx, posts)),
    ...plan.editPosts.map((posts) => edits(ctx, posts)),
    ...range(plan.createWorkers).map((w) => creations(ctx, w, plan.createWorkers)),
    ...range(plan.webhookWorkers).map((w) => webhooks(ctx, w, plan.webhookWorkers)),
  ]);
}
