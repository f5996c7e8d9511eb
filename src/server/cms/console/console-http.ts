import 'server-only';
import { env } from '@/env';
import { OBJECT_ITEM, WORKFLOW_ACTIONS, consolePaths } from '@/lib/admin-content';
import { z } from '@/lib/zod';
import { type EndpointDef, findEndpoint } from '@/lib/cms/model';
import { usesBuiltInContent } from '@/server/content/site-content';
import { CONTENT_ID } from '@/server/content/schemas';
import { getDb } from '@/server/db/client';
import { FLASH_COOKIE, setCookieValue } from '@/server/http/cookies';
import { doneFlashCookie } from '@/server/http/done-flash';
import { endpoint } from '@/server/http/endpoint';
import { encodeFlash } from '@/lib/http/flash';
import { type FormInput, jsonAnswer, notFoundAnswer } from '@/server/http/form-endpoint';
import { isStaff } from '@/server/identity/session';
import type { AppUser } from '@/server/identity/session-user';
import {
  type ActionResult,
  createItem,
  deleteItem,
  restoreVersion,
  runWorkflow,
  saveItem,
} from './actions';
import { lookupItems } from './items';

/**
 * The route handlers of the content console (/api/admin/content/**), for editors and admins.
 * Anyone else, signed in or not, and any endpoint or id that does not exist, gets the same
 * bare 404 before their input is looked at, so nothing is learnt from the answer. The console
 * edits the built-in content service; on a hosted microCMS it is not there at all (404).
 */

export type ConsoleRouteOptions = {
  /** Tests: who is signed in. */
  viewer?: (headers: Headers) => Promise<AppUser | null>;
};

/** A body as large as the longest rich text (200,000 characters, up to 4 bytes each) allows. */
const MAX_BODY_BYTES = 1024 * 1024;

type Target = { def: EndpointDef; id: string };

/** The endpoint and id of a console URL, or null (→ 404). */
export function consoleTarget(endpointName: string, idSegment?: string): Target | null {
  const def = findEndpoint(endpointName);
  if (!def) return null;
  if (idSegment === undefined) return { def, id: '' };
  if (def.kind === 'object') return idSegment === OBJECT_ITEM ? { def, id: '' } : null;
  return CONTENT_ID.test(idSegment) ? { def, id: idSegment } : null;
}

type Handler = (ctx: {
  input: FormInput;
  target: Target;
  actor: string;
  request: Request;
}) => Promise<Response>;

function consoleEndpoint(
  options: ConsoleRouteOptions,
  name: string,
  method: 'GET' | 'POST',
  endpointName: string,
  idSegment: string | undefined,
  handler: Handler,
): (request: Request) => Promise<Response> {
  return endpoint(
    {
      name,
      method,
      auth: 'optional',
      answers: 'json',
      maxBytes: MAX_BODY_BYTES,
      // A GET is a read: no origin check needed. PUT and DELETE come through here as 'POST'
      // (a body to read, and the same-origin check).
      ...(options.viewer ? { viewer: options.viewer } : {}),
    },
    async ({ input, user, request }) => {
      const target = consoleTarget(endpointName, idSegment);
      if (!user || !isStaff(user) || !usesBuiltInContent() || !target)
        return notFoundAnswer(request);
      return handler({ input, target, actor: `user:${user.id}`, request });
    },
  );
}

const asAnswer = (result: { status: number; body: unknown }) =>
  jsonAnswer(result.status, result.body);

const badInput = (message: string) => jsonAnswer(400, { ok: false, message, fieldErrors: {} });
const INVALID_REQUEST = '送信内容を読み取れませんでした。ページを読み込み直してください。';

const fieldsSchema = z.record(z.string().max(100), z.unknown());
const isoDateTime = z.iso.datetime({ offset: true });

const saveSchema = z.object({
  fields: fieldsSchema,
  /** Null: the editor started from nothing (an object page not written yet). */
  baseUpdatedAt: isoDateTime.nullable(),
  autosave: z.boolean().optional(),
});
const createSchema = z.object({ fields: fieldsSchema });
const workflowSchema = z.object({
  action: z.enum(WORKFLOW_ACTIONS),
  baseUpdatedAt: isoDateTime,
  at: isoDateTime.optional(),
});
const restoreSchema = z.object({
  version: z.coerce
    .number()
    .int()
    .positive()
    .max(2 ** 52),
});
const lookupSchema = z.object({
  q: z.string().max(200).optional(),
  ids: z
    .string()
    .max(100 * 51)
    .optional()
    .transform((value) => (value ? value.split(',').filter(Boolean) : undefined))
    .pipe(z.array(z.string().regex(CONTENT_ID)).max(100).optional()),
});

export function consoleRoutes(options: ConsoleRouteOptions = {}) {
  return {
    create: (request: Request, endpointName: string) =>
      consoleEndpoint(options, 'console-create', 'POST', endpointName, undefined, async (ctx) => {
        const parsed = createSchema.safeParse(ctx.input);
        if (!parsed.success) return badInput(INVALID_REQUEST);
        return asAnswer(
          await createItem(await getDb(), ctx.target.def, parsed.data.fields, ctx.actor),
        );
      })(request),

    save: (request: Request, endpointName: string, idSegment: string) =>
      consoleEndpoint(options, 'console-save', 'POST', endpointName, idSegment, async (ctx) => {
        const parsed = saveSchema.safeParse(ctx.input);
        if (!parsed.success) return badInput(INVALID_REQUEST);
        const { fields, baseUpdatedAt, autosave } = parsed.data;
        return asAnswer(
          await saveItem(
            await getDb(),
            ctx.target.def,
            ctx.target.id,
            {
              fields,
              // No stored item matches '' : if one was written meanwhile, that is a conflict.
              baseUpdatedAt: baseUpdatedAt ? new Date(baseUpdatedAt).toISOString() : '',
              autosave: !!autosave,
            },
            ctx.actor,
          ),
        );
      })(request),

    remove: (request: Request, endpointName: string, idSegment: string) =>
      consoleEndpoint(options, 'console-delete', 'POST', endpointName, idSegment, async (ctx) => {
        if (ctx.target.def.kind === 'object') return notFoundAnswer(ctx.request);
        return asAnswer(await deleteItem(await getDb(), ctx.target.def, ctx.target.id, ctx.actor));
      })(request),

    workflow: (request: Request, endpointName: string, idSegment: string) =>
      consoleEndpoint(options, 'console-workflow', 'POST', endpointName, idSegment, async (ctx) => {
        const parsed = workflowSchema.safeParse(ctx.input);
        if (!parsed.success) return badInput(INVALID_REQUEST);
        const { action, baseUpdatedAt, at } = parsed.data;
        return asAnswer(
          await runWorkflow(
            await getDb(),
            ctx.target.def,
            ctx.target.id,
            {
              action,
              baseUpdatedAt: new Date(baseUpdatedAt).toISOString(),
              at: at ? new Date(at) : undefined,
            },
            ctx.actor,
          ),
        );
      })(request),

    /** A plain form post from the history page (303 back with a message), or a fetch. */
    restore: (request: Request, endpointName: string, idSegment: string) =>
      consoleEndpoint(options, 'console-restore', 'POST', endpointName, idSegment, async (ctx) => {
        const parsed = restoreSchema.safeParse(ctx.input);
        const result: ActionResult | null = parsed.success
          ? await restoreVersion(
              await getDb(),
              ctx.target.def,
              ctx.target.id,
              parsed.data.version,
              ctx.actor,
            )
          : null;
        if ((ctx.request.headers.get('accept') ?? '').includes('application/json'))
          return result ? asAnswer(result) : badInput(INVALID_REQUEST);
        const done = result?.body.ok === true;
        const message = result?.body.message ?? INVALID_REQUEST;
        const { def, id } = ctx.target;
        return new Response(null, {
          status: 303,
          headers: {
            location: done
              ? consolePaths.edit(def.endpoint, id)
              : consolePaths.history(def.endpoint, id),
            'set-cookie': done
              ? doneFlashCookie(message)
              : setCookieValue(
                  FLASH_COOKIE,
                  encodeFlash({ message, fieldErrors: {}, values: {} }),
                  {
                    maxAgeSeconds: 60,
                    secure: env().SITE_URL.startsWith('https:'),
                  },
                ),
            'cache-control': 'private, no-store',
          },
        });
      })(request),

    lookup: (request: Request, endpointName: string) =>
      consoleEndpoint(options, 'console-lookup', 'GET', endpointName, undefined, async (ctx) => {
        const parsed = lookupSchema.safeParse(ctx.input);
        if (!parsed.success) return badInput(INVALID_REQUEST);
        const items = await lookupItems(await getDb(), ctx.target.def, {
          q: parsed.data.q?.trim(),
          ids: parsed.data.ids,
        });
        return jsonAnswer(200, { items });
      })(request),
  };
}
