import { handleAccountPost, handleSignInLinkFollow } from '@/server/features/account/account-http';

export const dynamic = 'force-dynamic';

/** The link in the sign-in mail: spends the token and signs the reader in (or says why not). */
export async function GET(request: Request): Promise<Response> {
  return handleSignInLinkFollow(request);
}

/** The login page's form: mails a sign-in link (the same answer for any address). */
export async function POST(request: Request): Promise<Response> {
  return handleAccountPost(request, 'sign-in-link');
}
