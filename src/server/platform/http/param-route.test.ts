import { describe, expect, it } from 'vitest';
import { contentItemRoute, paramRoute } from './param-route';

const request = new Request('http://localhost/api/x', { method: 'POST' });

describe('route handlers of dynamic segments', () => {
  it('hands one named segment on', async () => {
    const route = paramRoute('userId', (_, userId) => Promise.resolve(new Response(userId)));
    const answer = await route(request, { params: Promise.resolve({ userId: 'u1' }) });
    expect(await answer.text()).toBe('u1');
  });

  it('hands an item’s endpoint and id on, in that order', async () => {
    const route = contentItemRoute((_, endpoint, id) =>
      Promise.resolve(new Response(`${endpoint}/${id}`)),
    );
    const params = Promise.resolve({ endpoint: 'posts', contentId: 'p1' });
    expect(await (await route(request, { params })).text()).toBe('posts/p1');
  });
});
