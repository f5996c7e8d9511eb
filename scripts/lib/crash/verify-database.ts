/**
 * What the crash test checks in the database after the restart: every acknowledged write is
 * there with its value, and nothing is half-written (a user without its profile records, a
 * content item whose history disagrees with it, a version of nothing).
 */
import { type SQL, sql } from 'drizzle-orm';
import { type Db, queryRows } from '@/server/platform/db/client';
import { type Ledger, type Write, allowedValues } from './ledger';

export type Check = (ok: boolean, what: string, detail?: string) => void;

export type VerifyInput = {
  db: Db;
  ledger: Ledger;
  tag: string;
  readerId: string;
  /** Each edited post's title before the stream. */
  initialTitles: Map<string, string>;
  check: Check;
};

const rows = <Row>(db: Db, query: SQL) => queryRows<Row>(db, query);

/** The writes per target, in the order they were sent. */
function byTarget(writes: Write[]): Map<string, Write[]> {
  const map = new Map<string, Write[]>();
  for (const write of writes) map.set(write.target, [...(map.get(write.target) ?? []), write]);
  return map;
}

/** At most a few examples for a failure line. */
const some = (items: string[]) =>
  items.slice(0, 5).join(', ') + (items.length > 5 ? ` … (${items.length})` : '');

async function signUps({ db, ledger, tag, check }: VerifyInput): Promise<void> {
  const found = await rows<{
    email: string;
    name: string;
    display_name: string | null;
    private_email: string | null;
    newsletter: boolean | null;
    terms: boolean | null;
    has_password: boolean;
    mailed: boolean;
  }>(
    db,
    sql`SELECT u.email, u.name, pub.display_name, priv.email AS private_email, priv.newsletter,
          priv.terms_accepted_at IS NOT NULL AS terms,
          EXISTS (SELECT 1 FROM account a WHERE a.user_id = u.id AND a.provider_id = 'credential'
                  AND a.password IS NOT NULL) AS has_password,
          EXISTS (SELECT 1 FROM mail_outbox m WHERE m.to = u.email AND m.kind = 'verify-email') AS mailed
        FROM "user" u
        LEFT JOIN user_public_profiles pub ON pub.user_id = u.id
        LEFT JOIN user_private_profiles priv ON priv.user_id = u.id
        WHERE u.email LIKE ${`crash-${tag}-%`}`,
  );
  const byEmail = new Map(found.map((row) => [row.email, row]));
  const missing: string[] = [];
  const wrong: string[] = [];
  for (const write of ledger.of('sign-up', 'acked')) {
    const row = byEmail.get(write.target);
    if (!row) {
      missing.push(write.target);
      continue;
    }
    const [displayName, newsletter] = write.value.split('|');
    const complete =
      row.name === displayName &&
      row.display_name === displayName &&
      row.private_email === write.target &&
      String(row.newsletter) === newsletter &&
      row.terms === true &&
      row.has_password &&
      row.mailed;
    if (!complete) wrong.push(`${write.target} ${JSON.stringify(row)}`);
  }
  const acked = ledger.of('sign-up', 'acked').length;
  check(missing.length === 0, 'every acknowledged sign-up has its user', some(missing));
  check(
    wrong.length === 0,
    'every acknowledged sign-up has its password, both profile records with its values, accepted terms and its confirmation mail',
    wrong.length ? some(wrong) : `${acked} sign-ups`,
  );
  const refused = new Set(ledger.of('sign-up', 'refused').map((w) => w.target));
  const writtenAnyway = found.filter((row) => refused.has(row.email)).map((row) => row.email);
  check(writtenAnyway.length === 0, 'no refused sign-up left a user', some(writtenAnyway));
  // A sign-up cut by the kill may be absent, but what exists of it must be whole.
  const partial = found
    .filter((row) => !(row.display_name && row.private_email && row.has_password && row.terms))
    .map((row) => `${row.email} ${JSON.stringify(row)}`);
  check(
    partial.length === 0,
    'no half-written sign-up (user without password, profile or terms)',
    some(partial),
  );
}

async function everyUserWhole({ db, check }: VerifyInput): Promise<void> {
  const broken = await rows<{ email: string }>(
    db,
    sql`SELECT u.email FROM "user" u
        WHERE NOT EXISTS (SELECT 1 FROM user_public_profiles p WHERE p.user_id = u.id)
           OR NOT EXISTS (SELECT 1 FROM user_private_profiles p WHERE p.user_id = u.id)
           OR NOT EXISTS (SELECT 1 FROM account a WHERE a.user_id = u.id)`,
  );
  check(
    broken.length === 0,
    'every user has its account and both profile records',
    some(broken.map((r) => r.email)),
  );
}

async function bookmarks({ db, ledger, readerId, check }: VerifyInput): Promise<void> {
  const saved = new Set(
    (
      await rows<{ content_id: string }>(
        db,
        sql`SELECT content_id FROM bookmarks WHERE user_id = ${readerId} AND endpoint = 'posts'`,
      )
    ).map((r) => `posts:${r.content_id}`),
  );
  const wrong: string[] = [];
  const targets = byTarget(ledger.of('bookmark'));
  for (const [target, writes] of targets) {
    const allowed = allowedValues(writes, 'off');
    const actual = saved.has(target) ? 'on' : 'off';
    if (!allowed.has(actual))
      wrong.push(`${target} is ${actual}, expected ${[...allowed].join('/')}`);
  }
  check(
    wrong.length === 0,
    'every bookmark is as last acknowledged (or as the write cut by the kill)',
    wrong.length ? some(wrong) : `${targets.size} posts, ${saved.size} bookmarked`,
  );
}

async function edits({ db, ledger, initialTitles, check }: VerifyInput): Promise<string[]> {
  const titles = new Map(
    (
      await rows<{ id: string; title: string | null }>(
        db,
        sql`SELECT id, data->>'title' AS title FROM cms_contents WHERE endpoint = 'posts'`,
      )
    ).map((r) => [`posts:${r.id}`, r.title ?? '']),
  );
  const wrong: string[] = [];
  const targets = byTarget(ledger.of('edit'));
  for (const [target, writes] of targets) {
    const allowed = allowedValues(writes, initialTitles.get(target) ?? '');
    const actual = titles.get(target) ?? '(missing)';
    if (!allowed.has(actual))
      wrong.push(`${target}: "${actual}" not in ${JSON.stringify([...allowed])}`);
  }
  check(
    wrong.length === 0,
    'every edited post has its last acknowledged title (or that of the edit cut by the kill)',
    wrong.length ? some(wrong) : `${targets.size} posts`,
  );
  return [...targets.keys()];
}

async function creations({ db, ledger, tag, check }: VerifyInput): Promise<void> {
  const found = await rows<{ id: string; status: string; name: string }>(
    db,
    sql`SELECT id, status, coalesce(draft_data, data)->>'name' AS name
        FROM cms_contents WHERE endpoint = 'tags'
          AND coalesce(draft_data, data)->>'name' LIKE ${`crash-${tag}-%`}`,
  );
  const byName = new Map(found.map((row) => [row.name, row]));
  const wrong: string[] = [];
  for (const write of ledger.of('create', 'acked')) {
    const row = byName.get(write.target);
    const id = (JSON.parse(write.answer ?? '{}') as { id?: string }).id;
    const status = write.value === 'draft' ? 'DRAFT' : 'PUBLISH';
    if (!row || row.id !== id || row.status !== status)
      wrong.push(`${write.target} (${id}, ${status}): ${row ? JSON.stringify(row) : 'missing'}`);
  }
  const refused = new Set(ledger.of('create', 'refused').map((w) => w.target));
  const writtenAnyway = found.filter((row) => refused.has(row.name)).map((row) => row.name);
  check(
    wrong.length === 0,
    'every acknowledged new tag is there, with its id and status',
    wrong.length ? some(wrong) : `${ledger.of('create', 'acked').length} tags`,
  );
  check(writtenAnyway.length === 0, 'no refused creation left an item', some(writtenAnyway));
}

async function historyAgrees({ db, check }: VerifyInput): Promise<void> {
  // The latest version is the working copy (draft, else published) and status of its item.
  const disagreeing = await rows<{ endpoint: string; id: string }>(
    db,
    sql`SELECT c.endpoint, c.id FROM cms_contents c
        JOIN LATERAL (SELECT v.data, v.status FROM cms_versions v
                      WHERE v.endpoint = c.endpoint AND v.content_id = c.id
                      ORDER BY v.id DESC LIMIT 1) v ON true
        WHERE v.data IS DISTINCT FROM coalesce(c.draft_data, c.data) OR v.status <> c.status`,
  );
  check(
    disagreeing.length === 0,
    "every content item's latest version matches the item",
    some(disagreeing.map((r) => `${r.endpoint}/${r.id}`)),
  );
  const unrecorded = await rows<{ endpoint: string; id: string }>(
    db,
    sql`SELECT c.endpoint, c.id FROM cms_contents c
        WHERE c.updated_by LIKE 'key:%'
          AND NOT EXISTS (SELECT 1 FROM cms_versions v WHERE v.endpoint = c.endpoint AND v.content_id = c.id)`,
  );
  check(
    unrecorded.length === 0,
    'every item written through the API has its history',
    some(unrecorded.map((r) => `${r.endpoint}/${r.id}`)),
  );
  const orphans = await rows<{ endpoint: string; content_id: string }>(
    db,
    sql`SELECT DISTINCT v.endpoint, v.content_id FROM cms_versions v
        WHERE NOT EXISTS (SELECT 1 FROM cms_contents c WHERE c.endpoint = v.endpoint AND c.id = v.content_id)`,
  );
  check(
    orphans.length === 0,
    'no version of an item that does not exist',
    some(orphans.map((r) => `${r.endpoint}/${r.content_id}`)),
  );
}

async function webhooks({ db, ledger, tag, check }: VerifyInput): Promise<void> {
  const states = new Map(
    (
      await rows<{ id: string; state: string }>(
        db,
        sql`SELECT id, state FROM billing_webhook_events WHERE id LIKE ${`evt_crash_${tag}_%`}`,
      )
    ).map((r) => [r.id, r.state]),
  );
  const notApplied = ledger
    .of('webhook', 'acked')
    .filter((w) => states.get(w.target) !== 'applied')
    .map((w) => `${w.target}: ${states.get(w.target) ?? 'missing'}`);
  check(
    notApplied.length === 0,
    "every acknowledged webhook event is recorded 'applied'",
    notApplied.length
      ? some(notApplied)
      : `${ledger.of('webhook', 'acked').length} events; claims left 'applying' by the kill: ` +
          `${[...states.values()].filter((s) => s === 'applying').length}`,
  );
  // A claim left 'applying' is the kill's (taken over when the provider redelivers); a
  // refused delivery gives its claim back.
  const inFlight = new Set(ledger.of('webhook', 'in-flight').map((w) => w.target));
  const strayClaims = [...states.keys()].filter(
    (id) => !inFlight.has(id) && !ledger.of('webhook', 'acked').some((w) => w.target === id),
  );
  check(
    strayClaims.length === 0,
    'no event recorded that was neither acknowledged nor in flight',
    some(strayClaims),
  );
}

/** Runs every check; the ids of the edited posts (`posts:ID`), for the site's own checks. */
export async function verifyDatabase(input: VerifyInput): Promise<string[]> {
  await signUps(input);
  await everyUserWhole(input);
  await bookmarks(input);
  const edited = await edits(input);
  await creations(input);
  await historyAgrees(input);
  await webhooks(input);
  return edited;
}
