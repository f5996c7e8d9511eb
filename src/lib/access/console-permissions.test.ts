import { describe, expect, it } from 'vitest';
import { ROLES } from '@/lib/identity/roles';
import { CONSOLE_PERMISSIONS, can, mayEdit, mayRead } from './console-permissions';

describe('the console allow-list', () => {
  it('gives a member nothing and a contributor only their own drafts and the submit step', () => {
    expect(CONSOLE_PERMISSIONS.filter((p) => can('member', p))).toEqual([]);
    expect(CONSOLE_PERMISSIONS.filter((p) => can('contributor', p))).toEqual([
      'console',
      'content:edit-own',
      'content:submit',
    ]);
  });

  it('keeps publishing, deleting, bulk actions and the staff screens from anyone below editor', () => {
    for (const role of ROLES)
      for (const permission of [
        'content:publish',
        'content:delete',
        'content:bulk',
        'staff-areas',
      ] as const)
        expect(can(role, permission)).toBe(role === 'editor' || role === 'admin');
    expect(ROLES.filter((role) => can(role, 'admin-areas'))).toEqual(['admin']);
  });

  it('lets a contributor edit a new post or their own unpublished one, and read their own', () => {
    const me = { id: 'u1', role: 'contributor' as const };
    expect(mayEdit(me, 'posts', 'new')).toBe(true);
    expect(mayEdit(me, 'categories', 'new')).toBe(false);
    expect(mayEdit(me, 'posts', { authorId: 'u1', state: 'returned' })).toBe(true);
    expect(mayEdit(me, 'posts', { authorId: 'u1', state: 'published' })).toBe(false);
    expect(mayRead(me, 'posts', { authorId: 'u1', state: 'published' })).toBe(true);
    expect(mayEdit(me, 'posts', { authorId: 'u2', state: 'draft' })).toBe(false);
    expect(mayRead(me, 'posts', { authorId: 'u2', state: 'draft' })).toBe(false);
    // Staff's own items have no submission row: not the contributor's.
    expect(mayRead(me, 'posts', null)).toBe(false);
    expect(mayEdit({ id: 'e', role: 'editor' }, 'categories', null)).toBe(true);
    expect(mayEdit({ id: 'm', role: 'member' }, 'posts', 'new')).toBe(false);
  });
});
