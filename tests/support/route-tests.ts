import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect } from 'vitest';
import { type Database, useDatabase as setAppDatabase } from '@/server/platform/db/client';
import {
  auditEvents,
  user,
  userPrivateProfiles,
  userPublicProfiles,
} from '@/server/platform/db/schema';
import { FLASH_COOKIE } from '@/server/platform/http/cookies';
import { type Flash, decodeFlash } from '@/lib/http/flash';
import { CLIENT_IP_HEADER } from '@/server/platform/http/request-origin';
import type { Role } from '@/lib/identity/roles';
import type { AppUser } from '@/server/features/identity/session-user';
import { createTestDatabase } from './db/test-database';

/**
 * Shared setup of the tests that call the site's route handlers directly on a real database:
 * a data directory and secret per file, the database, users per role, the viewer those
 * handlers are given (signed in as the `x-test-viewer` header names), and form posts as the
 * browser sends them (with and without JavaScript).
 */

export const SITE = 'http://localhost:3000';
export const TEST_VIEWER_HEADER = 'x-test-viewer';

/**
 * A data directory for this test file, and an app secret: call at the top of the file, before
 * anything reads the environment. Removed after the file's tests.
 */
export function testDataDir(name: string, options: { secret?: boolean } = {}): string {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `axis-${name}-`));
  process.env.DATA_DIR = dataDir;
  if (options.secret !== false) process.env.APP_SECRET = `${name}-test-secret-`.padEnd(40, 'x');
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  return dataDir;
}

/**
 * A scratch folder for this test file whose `data` subfolder is DATA_DIR, so that what the
 * test writes itself (archives, other storages) sits beside the data directory, not in it.
 * Call at the top of the file; removed after the file's tests.
 */
export function testWorkDir(name: string): string {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), `${name}-`));
  process.env.DATA_DIR = path.join(tmp, 'data');
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
  return tmp;
}

/**
 * A fresh database for this test file, opened before its tests and closed after them; with
 * `global` (the default) also the one getDb() and the content service use. Its `db` is read
 * when used, so the returned object can stand at the top of the file.
 */
export function testDatabase(options: { global?: boolean } = {}): Database {
  let current: Database | undefined;
  const open = () => {
    if (!current) throw new Error('the test database is opened in beforeAll');
    return current;
  };
  beforeAll(async () => {
    current = await createTestDatabase();
    if (options.global !== false) setAppDatabase(current);
  });
  afterAll(async () => {
    if (options.global !== false) setAppDatabase(undefined);
    await current?.close();
  });
  return {
    get db() {
      return open().db;
    },
    get kind() {
      return open().kind;
    },
    get location() {
      return open().location;
    },
    close: () => open().close(),
  };
}

export function appUser(id: string, role: Role, name = id): AppUser {
  return { id, email: `${id}@example.jp`, name, role, emailVerified: true };
}

/** One user of each role, keyed and named by it (`${prefix}member`, `${prefix}editor`, …). */
export function usersByRole(prefix = ''): Record<Role, AppUser> {
  return {
    member: appUser(`${prefix}member`, 'member'),
    contributor: appUser(`${prefix}contributor`, 'contributor'),
    editor: appUser(`${prefix}editor`, 'editor'),
    admin: appUser(`${prefix}admin`, 'admin'),
  };
}

/** Whom an admin-only route turns away: nobody signed in, a member, a contributor and an editor. */
export const NOT_ADMINS = [null, 'member', 'contributor', 'editor'] as const;

/** A user with the profiles sign-up gives them. */
export async function addUser(
  database: Database,
  who: AppUser,
  options: { partnerId?: string; displayName?: string; createdAt?: Date } = {},
): Promise<void> {
  const { db } = database;
  await db.insert(user).values({
    id: who.id,
    name: who.name,
    email: who.email,
    role: who.role,
    ...(options.createdAt ? { createdAt: options.createdAt } : {}),
  });
  await db.insert(userPublicProfiles).values({
    userId: who.id,
    displayName: options.displayName ?? who.name,
    partnerId: options.partnerId ?? '',
  });
  await db.insert(userPrivateProfiles).values({ userId: who.id, email: who.email });
}

/** The viewer a handler is given: the user the request's test header names, or nobody. */
export function testViewer<Who extends string>(
  users: Record<Who, AppUser>,
): (headers: Headers) => Promise<AppUser | null> {
  return (headers) => {
    const who = headers.get(TEST_VIEWER_HEADER) as Who | null;
    return Promise.resolve(who ? users[who] : null);
  };
}

/**
 * The head most route test files share: a DATA_DIR of their own, one user per role (names
 * starting with `prefix`), the viewer that reads who is signed in from TEST_VIEWER_HEADER,
 * and a database opened for the file's tests.
 */
export function roleRouteTests(
  name: string,
  options: { prefix?: string; secret?: boolean; global?: boolean } = {},
) {
  const dataDir = testDataDir(name, { secret: options.secret });
  const users = usersByRole(options.prefix);
  const database = testDatabase({ global: options.global });
  return { dataDir, users, viewer: testViewer(users), database };
}

let ip = 0;

export type PostOptions<Who extends string = string> = {
  /** Who is signed in (null: nobody). */
  who: Who | null;
  fields?: Record<string, string | Blob>;
  /** A plain form post (no JavaScript) instead of fetch. */
  plain?: boolean;
  /** The page the form was on (a path). */
  referer?: string;
  /** The client's address; a new one each request unless told. */
  ip?: string;
  origin?: string;
  method?: string;
};

/** The headers a browser sends with a form post or fetch from the site. */
export function siteHeaders(options: Omit<PostOptions, 'fields'>): Record<string, string> {
  return {
    host: 'localhost:3000',
    origin: options.origin ?? SITE,
    accept: options.plain ? 'text/html' : 'application/json',
    ...(options.referer ? { referer: `${SITE}${options.referer}` } : {}),
    ...(options.who ? { [TEST_VIEWER_HEADER]: options.who } : {}),
    [CLIENT_IP_HEADER]: options.ip ?? `192.0.2.${(++ip % 250) + 1}`,
  };
}

/** A form post to `url` (a path) as the site's pages send it. */
export function formPost(url: string, options: PostOptions): Request {
  const body = new FormData();
  for (const [name, value] of Object.entries(options.fields ?? {})) body.append(name, value);
  return new Request(`${SITE}${url}`, {
    method: options.method ?? 'POST',
    headers: siteHeaders(options),
    body,
  });
}

/** The same 404 as a route that does not exist: no redirect, no cookie. */
export function expectBare404(response: Response): void {
  expect(response.status).toBe(404);
  expect(response.headers.get('location')).toBeNull();
  expect(response.headers.get('set-cookie')).toBeNull();
}

/** The one-time message a 303 or a fetch answer sets, decoded. */
export function flashOf(response: Response): Flash | null {
  const cookie = response.headers
    .getSetCookie()
    .find((c) => c.startsWith(`${FLASH_COOKIE}=`))
    ?.slice(FLASH_COOKIE.length + 1)
    .split(';')[0];
  return decodeFlash(cookie);
}

/** The message of a flash that says the change was made (`done`), if the answer set one. */
export function doneFlash(response: Response): string | null {
  const flash = flashOf(response);
  return flash?.values.done === '1' ? flash.message : null;
}

/** The audit events of one action (on one target, if given). */
export function auditsOf(database: Database, action: string, target?: string) {
  return database.db
    .select()
    .from(auditEvents)
    .where(
      target === undefined
        ? eq(auditEvents.action, action)
        : and(eq(auditEvents.action, action), eq(auditEvents.target, target)),
    );
}
