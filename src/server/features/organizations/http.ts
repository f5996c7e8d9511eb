import 'server-only';
import { z, fieldErrors } from '@/lib/zod';
import { japanMonthKey } from '@/lib/metered/meter';
import { type Db, getDb } from '@/server/platform/db/client';
import { doneAnswer } from '@/server/platform/http/done-flash';
import { refusedFields } from '@/server/platform/forms/submit';
import { clippedFields } from '@/server/platform/http/flash-values';
import {
  type ViewerOption,
  emailField,
  endpoint,
  gatedEndpoint,
  isAdmin,
  userFromHeaders,
} from '@/server/features/identity';
import { inviteAddress, removeMember } from './members';
import { readingReport, readingReportCsv } from './report';
import {
  createOrganization,
  isOrganizationAdmin,
  organizationInput,
  updateOrganization,
} from './store';

/**
 * The route handlers of the organisations' screens:
 * - /api/admin/organizations (staff, admins only): create, and /{id} save;
 * - /api/organization/{invite,remove,report} (an organisation's own admins): invite an address,
 *   remove a member, the monthly reading report as CSV. Each checks that the signed-in reader
 *   administers the organisation named in the request; anyone else gets the bare 404, so one
 *   organisation's admin cannot reach another's members or report.
 */

export const ADMIN_PAGE = '/admin/organizations';
export const ORG_PAGE = '/account/organization';

export type OrganizationsHttpOptions = ViewerOption & {
  db?: Db;
  /**
   * After staff save an organisation: its billing (invoice-billing's settleOrganizationBilling,
   * given by the routes: that feature builds on this one). A sentence when it could not be done.
   */
  afterSave?: (
    db: Db,
    organizationId: string,
    actor: { actor: string; ip: string | null },
  ) => Promise<string | null>;
};

const UUID = z.uuid();

/** The staff form's fields: domains come one per line (or separated by commas or spaces). */
const staffForm = (raw: Record<string, unknown>) =>
  organizationInput.safeParse({
    ...raw,
    domains: typeof raw.domains === 'string' ? raw.domains.split(/[\s,、]+/).filter(Boolean) : [],
  });

export function organizationsHandlers(options: OrganizationsHttpOptions = {}) {
  const database = () => (options.db ? Promise.resolve(options.db) : getDb());
  const staffOptions = (name: string, formPage: string) => ({
    name,
    formPage,
    maxBytes: 8 * 1024,
    flashValues: clippedFields({
      name: 100,
      addressee: 120,
      billingContactName: 60,
      billingContactEmail: 254,
      seats: 10,
      renewalSeats: 10,
      planKey: 20,
      billing: 20,
      domains: 1000,
    }),
    viewer: options.viewer,
  });

  return {
    /** POST /api/admin/organizations. */
    create: gatedEndpoint(
      staffOptions('admin-organization-create', `${ADMIN_PAGE}#create`),
      isAdmin,
      async ({ input, actor, ip }) => {
        const parsed = staffForm(input);
        if (!parsed.success) return refusedFields(fieldErrors(parsed.error));
        const db = await database();
        const made = await createOrganization(db, parsed.data, { actor, ip });
        if (!made.ok) return refusedFields(made.fieldErrors);
        const unbilled = await options.afterSave?.(db, made.id, { actor, ip });
        return doneAnswer(
          `法人「${parsed.data.name}」を登録しました（ID ${made.id}）。${unbilled ?? ''}`,
          ADMIN_PAGE,
        );
      },
    ),

    /** POST /api/admin/organizations/{id}. */
    update: (request: Request, id: string) =>
      gatedEndpoint(
        staffOptions('admin-organization-update', `${ADMIN_PAGE}#org-${id}`),
        isAdmin,
        async ({ input, actor, ip }) => {
          if (!UUID.safeParse(id).success) return { ok: false, status: 404 };
          const parsed = staffForm(input);
          if (!parsed.success) return refusedFields(fieldErrors(parsed.error));
          const db = await database();
          const saved = await updateOrganization(db, id, parsed.data, { actor, ip });
          if (!saved) return { ok: false, status: 404 };
          if (!saved.ok) return refusedFields(saved.fieldErrors);
          const unbilled = await options.afterSave?.(db, id, { actor, ip });
          return doneAnswer(
            `法人「${parsed.data.name}」を保存しました。${unbilled ?? ''}`,
            ADMIN_PAGE,
          );
        },
      )(request),

    /** POST /api/organization/invite: org, email. */
    invite: endpoint(
      {
        name: 'organization-invite',
        auth: 'user',
        input: z.object({ org: z.string(), email: emailField }),
        formPage: ORG_PAGE,
        maxBytes: 4 * 1024,
        rateLimit: { name: 'organization-invite', max: 60, windowMs: 60 * 60 * 1000 },
        viewer: options.viewer,
      },
      async ({ input, user, ip }) => {
        const db = await database();
        if (!(await isOrganizationAdmin(db, input.org, user.id))) return { ok: false, status: 404 };
        await inviteAddress(db, input.org, input.email, { userId: user.id, ip });
        return doneAnswer(
          `${input.email} を招待しました。このアドレスで登録・確認が済むと、席が空いていれば読めるようになります。`,
          pageOf(input.org),
        );
      },
    ),

    /** POST /api/organization/remove: org, user. */
    remove: endpoint(
      {
        name: 'organization-remove',
        auth: 'user',
        input: z.object({ org: z.string(), user: z.string().min(1).max(200) }),
        formPage: ORG_PAGE,
        maxBytes: 4 * 1024,
        viewer: options.viewer,
      },
      async ({ input, user, ip }) => {
        const db = await database();
        if (!(await isOrganizationAdmin(db, input.org, user.id))) return { ok: false, status: 404 };
        const removed = await removeMember(db, input.org, input.user, { userId: user.id, ip });
        if (!removed) return { ok: false, status: 404 };
        return doneAnswer(
          'メンバーを外しました。この方はすぐに有料記事を読めなくなり、席が 1 つ空きました。',
          pageOf(input.org),
        );
      },
    ),

    /** GET /api/organization/report?org=ID&month=YYYY-MM: the reading report as CSV. */
    report: async (request: Request): Promise<Response> => {
      const user = await (options.viewer ?? userFromHeaders)(request.headers);
      const query = reportQuery.safeParse(Object.fromEntries(new URL(request.url).searchParams));
      const db = await database();
      if (!user || !query.success || !(await isOrganizationAdmin(db, query.data.org, user.id)))
        return notFound();
      const month = query.data.month ?? japanMonthKey(new Date());
      const csv = readingReportCsv(await readingReport(db, query.data.org, month), month);
      // A BOM so that a spreadsheet reads the Japanese headings as UTF-8.
      return new Response(`\uFEFF${csv}`, {
        headers: {
          'content-type': 'text/csv; charset=utf-8',
          'content-disposition': `attachment; filename="reading-report-${month}.csv"`,
          'cache-control': 'private, no-store',
          'x-content-type-options': 'nosniff',
        },
      });
    },
  };
}

const reportQuery = z.object({
  org: z.string().max(100),
  month: z
    .string()
    .regex(/^20[0-9]{2}-(0[1-9]|1[0-2])$/)
    .optional(),
});

const pageOf = (org: string) => `${ORG_PAGE}?org=${encodeURIComponent(org)}`;

const notFound = () =>
  new Response('見つかりません。', {
    status: 404,
    headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
  });

export const organizationsRoutes = organizationsHandlers();
