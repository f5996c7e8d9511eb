import 'server-only';
import type { z } from '@/lib/zod';
import type { AppUser } from '@/server/features/identity/session-user';
import { type EndpointOptions, endpoint } from './endpoint';
import {
  type FormInput,
  type FormResult,
  notFoundAnswer,
} from '@/server/platform/http/form-endpoint';

/** What a gated handler gets: the user the gate let in, and the audit actor naming them. */
export type GatedContext = {
  input: FormInput;
  request: Request;
  user: AppUser;
  /** `user:<id>`, the audit log's actor. */
  actor: string;
  ip: string | null;
};

/**
 * endpoint() behind a staff gate (admins, the newsletter's staff, the partner programme's
 * staff, the console's allow-list). endpoint's own 'staff' auth answers 401/403, which would
 * confirm the route to a stranger (and let editors in); here whoever the gate turns away,
 * signed in or not, gets the same bare 404 as anything the handler does not find, before a
 * byte of their input is read (endpoint's `gate`). Every route under /api/admin goes through
 * here or rawPostViewer (src/app/api/admin/staff-routes.integration.test.ts walks them all).
 */
export function gatedEndpoint(
  options: Omit<
    EndpointOptions<z.ZodType<FormInput>, 'optional', AppUser>,
    'auth' | 'input' | 'gate'
  >,
  gate: (user: AppUser) => boolean | Promise<boolean>,
  handler: (ctx: GatedContext) => Promise<FormResult | Response>,
): (request: Request) => Promise<Response> {
  return endpoint({ ...options, auth: 'optional', gate }, async ({ input, user, request, ip }) => {
    // The gate has let a viewer in: endpoint() asked it before anything else.
    if (!user) return notFoundAnswer(request);
    const result = await handler({ input, request, user, actor: `user:${user.id}`, ip });
    return result instanceof Response || result.ok || result.status !== 404
      ? result
      : notFoundAnswer(request);
  });
}

/** The gate of the admin screens: the admin role alone (editors are turned away). */
export const isAdmin = (user: AppUser): boolean => user.role === 'admin';
