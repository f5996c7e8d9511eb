import { describe, expect, it } from 'vitest';
import { heroActionsFor } from './hero-actions';

describe('heroActionsFor', () => {
  // A signed-in reader is never sent to /sign-up: it would land them back on the home page.
  it.each([
    [{ kind: 'anonymous' } as const, ['/sign-up', '/service-plans'], '無料で会員登録'],
    [{ kind: 'member', paid: false } as const, ['/service-plans', '/posts'], '有料プランを見る'],
    [{ kind: 'member', paid: true } as const, ['/posts', '/posts/bookmark'], '新着記事を読む'],
    [{ kind: 'staff' } as const, ['/admin', '/posts'], '管理画面へ'],
  ])('offers %o the step that fits them first', (viewer, hrefs, primaryLabel) => {
    const actions = heroActionsFor(viewer);
    expect(actions.map((a) => a.href)).toEqual(hrefs);
    expect(actions[0].label).toBe(primaryLabel);
  });
});
