import 'server-only';
import { env } from '@/env';
import { OBJECT_ITEM, WORKFLOW_ACTIONS, consolePaths } from '@/lib/admin-content';
import { z } from '@/lib/zod';
import { type EndpointDef, findEndpoint } from '@/lib/cms/model';
import { CONTENT_ID, usesBuiltInContent } from '@/server/features/content';
import { getDb } from '@/server/platform/db/client';
import { FLASH_COOKIE, setCookieValue } from '@/server/platform/http/cookies';
import { doneFlashCookie } from '@/server/platform/http/done-flash';
import { type AppUser, gatedEndpoint, type ViewerOption } from '@/server/features/identity';
import { encodeFlash } from '@/lib/http/flash';
import { type FormInput, jsonAnswer, notFoundAnswer } from '@/server/platform/http/form-endpoint';
import { clientIp } from '@/server/platform/http/request-origin';
import { can, mayEdit, mayRead } from '@/lib/access/console-permissions';
import {
  type ActionResult,
  createItem,
  deleteItem,
  renameItem,
  restoreVersion,
  runWorkflow,
  saveItem,
} from './actions';
import { slugSchema } from '@/lib/cms/slug';
import { lookupItems } from './items';
import { heartbeat } from './presence';
import { bulkSchema, bulkSummary, runBulk } from './bulk';
import {
  decide,
  markPublished,
  ownershipOf,
  recordAuthor,
  reviewSchema,
  withdrawOnSave,
} from './submissions';

/**
 * The route handlers of the content console (/api/admin/content/**). Each asks the console's
 * allow-list (src/lib/access/console-permissions.ts) whether the viewer may do this to this
 * item: editors and admins anything, a contributor only their own drafts. Anyone refused,
 * signed in or not, and any endpoint or id that does not exist, gets the same bare 404
 * before their input is looked at, so nothing is learnt from the answer. The console
 * edits the built-in content service; on a hosted microCMS it is not there at all (404).
 */

export type ConsoleRouteOptions = ViewerOption & {
  /** Tests: the clock editing presence reads (src/server/features/console/presence.ts). */
  now?: () => Date;
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
  user: AppUser;
  request: Request;
}) => Promise<Response>;

/** Whether the viewer may use this route on this target (the allow-list, plus ownership). */
type Allow = (user: AppUser, target: Target) => Promise<boolean>;

const allowed =
  (permission: Parameters<typeof can>[1]): Allow =>
  (user) =>
    Promise.resolve(can(user.role, permission));

/** Open the item in the editor: staff any; a contributor their own (console-permissions.ts). */
const mayOpen: Allow = async (user, { def, id }) =>
  mayRead(user, def.endpoint, id ? await ownershipOf(await getDb(), def.endpoint, id) : null);

/** Create and save: staff anything; a contributor a new item or their own unpublished one. */
const mayWrite: Allow = async (user, { def, id }) =>
  mayEdit(user, def.endpoint, id ? await ownershipOf(await getDb(), def.endpoint, id) : 'new');

function consoleEndpoint(
  options: ConsoleRouteOptions,
  name: string,
  method: 'GET' | 'POST',
  endpointName: string,
  idSegment: string | undefined,
  allow: Allow,
  handler: Handler,
): (request: Request) => Promise<Response> {
  const target = consoleTarget(endpointName, idSegment);
  return gatedEndpoint(
    {
      name,
      method,
      answers: 'json',
      maxBytes: MAX_BODY_BYTES,
      // A GET is a read: no origin check needed. PUT and DELETE come through here as 'POST'
      // (a body to read, and the same-origin check).
      ...(options.viewer ? { viewer: options.viewer } : {}),
    },
    // Before the body is read (gated-endpoint.ts).
    async (user) => usesBuiltInContent() && target !== null && (await allow(user, target)),
    ({ input, user, actor, request }) => handler({ input, target: target!, actor, user, request }),
  );
}

/** What the form sent, to fill it in again after a refusal. */
const stringValues = (input: FormInput): Record<string, string> =>
  Object.fromEntries(
    Object.entries(input).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string',
    ),
  );

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
const createSchema = (endpoint: string) =>
  z.object({ fields: fieldsSchema, id: slugSchema(endpoint).optional() });
const renameSchema = (endpoint: string) =>
  z.object({ id: slugSchema(endpoint), baseUpdatedAt: isoDateTime });

/** The id field's own message (a slug the rule refuses), as the editor shows field errors. */
function slugRefusal(error: z.ZodError): Response {
  const issue = error.issues.find((i) => i.path[0] === 'id');
  if (!issue) return badInput(INVALID_REQUEST);
  return jsonAnswer(400, { ok: false, message: issue.message, fieldErrors: { id: issue.message } });
}
/** An open editor's heartbeat; `leaving` when its page goes away. */
const presenceSchema = z.object({ leaving: z.boolean().optional() });

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

/** A plain form's answer: 303 to `location`, the message (or the failure) shown there once. */
function seeOther(
  location: string,
  done: boolean,
  message: string,
  values: Record<string, string>,
  fieldErrors: Record<string, string> = {},
): Response {
  return new Response(null, {
    status: 303,
    headers: {
      location,
      'set-cookie': done
        ? doneFlashCookie(message)
        : setCookieValue(FLASH_COOKIE, encodeFlash({ message, fieldErrors, values }), {
            maxAgeSeconds: 60,
            secure: env().SITE_URL.startsWith('https:'),
          }),
      'cache-control': 'private, no-store',
    },
  });
}

/**
 * A submission's decision: submit is the author's own (a contributor's draft), approve and
 * return an editor's. Who may is decided before the input is read (console-permissions.ts).
 */
const mayDecide: Allow = async (user, { def, id }) => {
  if (!id) return false;
  if (can(user.role, 'content:publish')) return true;
  const owner = await ownershipOf(await getDb(), def.endpoint, id);
  return can(user.role, 'content:submit') && owner?.authorId === user.id;
};

export function consoleRoutes(options: ConsoleRouteOptions = {}) {
  return {
    create: (request: Request, endpointName: string) =>
      consoleEndpoint(
        options,
        'console-create',
        'POST',
        endpointName,
        undefined,
        mayWrite,
        async (ctx) => {
          const parsed = createSchema(ctx.target.def.endpoint).safeParse(ctx.input);
          if (!parsed.success) return slugRefusal(parsed.error);
          const { fields, id } = parsed.data;
          const db = await getDb();
          const result = await createItem(db, ctx.target.def, fields, ctx.actor, id);
          // A contributor's new item is theirs: they alone (and staff) see and edit it.
          if (result.body.ok && !can(ctx.user.role, 'content:edit-any'))
            await recordAuthor(db, ctx.target.def.endpoint, result.body.id, ctx.user.id);
          return asAnswer(result);
        },
      )(request),

    rename: (request: Request, endpointName: string, idSegment: string) =>
      // Changing a public URL is an editor's decision, as publishing is.
      consoleEndpoint(
        options,
        'console-rename',
        'POST',
        endpointName,
        idSegment,
        allowed('content:publish'),
        async (ctx) => {
          if (ctx.target.def.kind === 'object') return notFoundAnswer(ctx.request);
          const parsed = renameSchema(ctx.target.def.endpoint).safeParse(ctx.input);
          if (!parsed.success) return slugRefusal(parsed.error);
          return asAnswer(
            await renameItem(
              await getDb(),
              ctx.target.def,
              ctx.target.id,
              {
                slug: parsed.data.id,
                baseUpdatedAt: new Date(parsed.data.baseUpdatedAt).toISOString(),
              },
              ctx.actor,
            ),
          );
        },
      )(request),

    save: (request: Request, endpointName: string, idSegment: string) =>
      consoleEndpoint(
        options,
        'console-save',
        'POST',
        endpointName,
        idSegment,
        mayWrite,
        async (ctx) => {
          const parsed = saveSchema.safeParse(ctx.input);
          if (!parsed.success) return badInput(INVALID_REQUEST);
          const { fields, baseUpdatedAt, autosave } = parsed.data;
          const db = await getDb();
          if (!can(ctx.user.role, 'content:edit-any'))
            await withdrawOnSave(db, ctx.target.def.endpoint, ctx.target.id);
          return asAnswer(
            await saveItem(
              db,
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
        },
      )(request),

    remove: (request: Request, endpointName: string, idSegment: string) =>
      consoleEndpoint(
        options,
        'console-delete',
        'POST',
        endpointName,
        idSegment,
        allowed('content:delete'),
        async (ctx) => {
          if (ctx.target.def.kind === 'object') return notFoundAnswer(ctx.request);
          return asAnswer(
            await deleteItem(await getDb(), ctx.target.def, ctx.target.id, ctx.actor),
          );
        },
      )(request),

    workflow: (request: Request, endpointName: string, idSegment: string) =>
      consoleEndpoint(
        options,
        'console-workflow',
        'POST',
        endpointName,
        idSegment,
        allowed('content:publish'),
        async (ctx) => {
          const parsed = workflowSchema.safeParse(ctx.input);
          if (!parsed.success) return badInput(INVALID_REQUEST);
          const { action, baseUpdatedAt, at } = parsed.data;
          const db = await getDb();
          const result = await runWorkflow(
            db,
            ctx.target.def,
            ctx.target.id,
            {
              action,
              baseUpdatedAt: new Date(baseUpdatedAt).toISOString(),
              at: at ? new Date(at) : undefined,
            },
            ctx.actor,
          );
          // A contributor's item published from the editor: its review is over.
          if (result.body.ok && action === 'publish')
            await markPublished(db, ctx.target.def.endpoint, ctx.target.id, ctx.user.id);
          return asAnswer(result);
        },
      )(request),

    /** A plain form post from the history page (303 back with a message), or a fetch. */
    restore: (request: Request, endpointName: string, idSegment: string) =>
      consoleEndpoint(
        options,
        'console-restore',
        'POST',
        endpointName,
        idSegment,
        allowed('content:publish'),
        async (ctx) => {
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
          const { def, id } = ctx.target;
          return seeOther(
            done ? consolePaths.edit(def.endpoint, id) : consolePaths.history(def.endpoint, id),
            done,
            result?.body.message ?? INVALID_REQUEST,
            {},
          );
        },
      )(request),

    /** A plain form post from the editor page (303 back to it with a message), or a fetch. */
    review: (request: Request, endpointName: string, idSegment: string) =>
      consoleEndpoint(
        options,
        'console-review',
        'POST',
        endpointName,
        idSegment,
        mayDecide,
        async (ctx) => {
          const parsed = reviewSchema.safeParse(ctx.input);
          const wantsJson = (ctx.request.headers.get('accept') ?? '').includes('application/json');
          const { def, id } = ctx.target;
          const back = consolePaths.edit(def.endpoint, id);
          const refuse = (message: string, fieldErrors: Record<string, string> = {}) =>
            wantsJson
              ? jsonAnswer(400, { ok: false, message, fieldErrors })
              : seeOther(back, false, message, stringValues(ctx.input), fieldErrors);
          if (!parsed.success) {
            const comment = parsed.error.issues.find((i) => i.path[0] === 'comment');
            return comment
              ? refuse(comment.message, { comment: comment.message })
              : refuse(INVALID_REQUEST);
          }
          // Submitting is the author's step, deciding an editor's: neither takes the other's.
          if ((parsed.data.decision === 'submit') === can(ctx.user.role, 'content:publish'))
            return notFoundAnswer(ctx.request);
          const result = await decide(await getDb(), def, id, parsed.data, {
            userId: ctx.user.id,
            ip: clientIp(ctx.request.headers),
          });
          if (!result.ok) return refuse(result.message);
          if (!wantsJson) return seeOther(back, true, result.message, {});
          const headers = new Headers({ 'set-cookie': doneFlashCookie(result.message) });
          return jsonAnswer(200, { ok: true, message: result.message, redirectTo: back }, headers);
        },
      )(request),

    /**
     * The content list's bulk action, posted from its confirmation screen (a plain form):
     * 303 back to the list with how many were done and each refusal by title.
     */
    bulk: (request: Request, endpointName: string) =>
      consoleEndpoint(
        options,
        'console-bulk',
        'POST',
        endpointName,
        undefined,
        allowed('content:bulk'),
        async (ctx) => {
          const { def } = ctx.target;
          const list = consolePaths.list(def.endpoint);
          if (def.kind !== 'list') return notFoundAnswer(ctx.request);
          const parsed = bulkSchema.safeParse(ctx.input);
          if (!parsed.success)
            return seeOther(list, false, parsed.error.issues[0]?.message ?? INVALID_REQUEST, {});
          const outcomes = await runBulk(await getDb(), def, parsed.data, {
            userId: ctx.user.id,
            ip: clientIp(ctx.request.headers),
          });
          const refused = outcomes.filter((o) => !o.ok);
          // Each refusal by title, shown under the summary (a cookie: at most the first 20).
          const values = Object.fromEntries(
            refused.slice(0, 20).map((o, i) => [`refused${i}`, `「${o.title}」: ${o.message}`]),
          );
          return seeOther(
            list,
            refused.length === 0,
            bulkSummary(parsed.data.action, outcomes),
            values,
          );
        },
      )(request),

    /**
     * The editor's heartbeat (every 15 s while its tab is visible): records that the viewer
     * has the item open, when they may save it, and answers who else has it open and its last
     * save (src/server/features/console/presence.ts). Only for items the viewer may open.
     */
    presence: (request: Request, endpointName: string, idSegment: string) =>
      consoleEndpoint(
        options,
        'console-presence',
        'POST',
        endpointName,
        idSegment,
        mayOpen,
        async (ctx) => {
          const parsed = presenceSchema.safeParse(ctx.input);
          if (!parsed.success) return badInput(INVALID_REQUEST);
          const db = await getDb();
          const { def, id } = ctx.target;
          const owner = id ? await ownershipOf(db, def.endpoint, id) : null;
          const answer = await heartbeat(
            db,
            { endpoint: def.endpoint, id },
            {
              id: ctx.user.id,
              records: mayEdit(ctx.user, def.endpoint, owner),
              leaving: parsed.data.leaving === true,
            },
            options.now?.() ?? new Date(),
          );
          return jsonAnswer(200, answer);
        },
      )(request),

    lookup: (request: Request, endpointName: string) =>
      consoleEndpoint(
        options,
        'console-lookup',
        'GET',
        endpointName,
        undefined,
        allowed('console'),
        async (ctx) => {
          const parsed = lookupSchema.safeParse(ctx.input);
          if (!parsed.success) return badInput(INVALID_REQUEST);
          const items = await lookupItems(await getDb(), ctx.target.def, {
            q: parsed.data.q?.trim(),
            ids: parsed.data.ids,
            // A contributor picks among what is on the site, never among others' drafts.
            publishedOnly: !can(ctx.user.role, 'content:edit-any'),
          });
          return jsonAnswer(200, { items });
        },
      )(request),
  };
}
