import fs from 'node:fs';
import path from 'node:path';
import { expect, test as setup } from '@playwright/test';
import { admin } from './support/admin';
import { ROLES, ROLE_PASSWORD, type Role, roleStatePath } from './support/roles';

/**
 * Runs before the specs (the `setup` project): creates the shared users of support/roles.ts and
 * signs each in once through the sign-in API, saving its cookies for the specs.
 */
setup('sign in once per role', async ({ playwright, baseURL }) => {
  for (const role of Object.keys(ROLES) as Role[]) {
    const { email, name, role: staffRole, plan } = ROLES[role];
    await admin(
      'create-user',
      '--email',
      email,
      '--name',
      name,
      '--password',
      ROLE_PASSWORD,
      '--role',
      staffRole,
    );
    if (plan) await admin('grant-plan', '--email', email, '--plan', plan);
    const api = await playwright.request.newContext({ baseURL });
    const signedIn = await api.post('/api/account/sign-in', {
      headers: { accept: 'application/json' },
      form: { email, password: ROLE_PASSWORD },
    });
    expect(signedIn.ok(), `${role} signs in`).toBe(true);
    fs.mkdirSync(path.dirname(roleStatePath(role)), { recursive: true });
    await api.storageState({ path: roleStatePath(role) });
    await api.dispose();
  }
});
