import { serveBillingSandbox } from '@/server/features/billing/sandbox-serve';

export const dynamic = 'force-dynamic';

export { serveBillingSandbox as GET, serveBillingSandbox as POST, serveBillingSandbox as DELETE };
