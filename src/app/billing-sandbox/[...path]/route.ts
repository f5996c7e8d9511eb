import { serveBillingSandbox } from '@/server/billing/sandbox-serve';

export const dynamic = 'force-dynamic';

export { serveBillingSandbox as GET, serveBillingSandbox as POST, serveBillingSandbox as DELETE };
