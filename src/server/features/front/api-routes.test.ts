import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { API_ROUTES, isApiRoute } from './api-routes';

const API_DIR = path.resolve(import.meta.dirname, '../../../app/api');

function routeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return routeFiles(full);
    return entry.name === 'route.ts' ? [full] : [];
  });
}

describe('API_ROUTES', () => {
  it('lists exactly the route files under src/app/api', () => {
    const routes = routeFiles(API_DIR).map(
      (file) => `/api/${path.relative(API_DIR, path.dirname(file)).split(path.sep).join('/')}`,
    );
    expect([...API_ROUTES].sort()).toEqual(routes.sort());
  });

  it('matches a dynamic segment, a catch-all and one trailing slash', () => {
    expect(isApiRoute('/api/me')).toBe(true);
    expect(isApiRoute('/api/me/')).toBe(true);
    expect(isApiRoute('/api/v1/posts/abc')).toBe(true);
    expect(isApiRoute('/api/auth/sign-in/email')).toBe(true);
    expect(isApiRoute('/api/admin/users/u1/role')).toBe(true);
  });

  it('matches nothing else', () => {
    for (const path of [
      '/api',
      '/api/',
      '/api/nothing',
      '/api/me/extra',
      '/api/v1/posts/a/b',
      '/api/auth',
      '/api/admin/users//role',
      '/api/healthy',
    ])
      expect(isApiRoute(path), path).toBe(false);
  });
});
