import { describe, expect, it, vi } from 'vitest';
import { SharedRenders } from './shared-render';

describe('SharedRenders', () => {
  it('lets a miss wait for the render of its key under way, and only of its key', async () => {
    const renders = new SharedRenders();
    expect(await renders.waitFor('home')).toBe(false);
    const end = renders.start('home');
    let waited = false;
    const follower = renders.waitFor('home').then((had) => (waited = had));
    expect(await renders.waitFor('other')).toBe(false);
    await Promise.resolve();
    expect(waited).toBe(false);
    end();
    await follower;
    expect(waited).toBe(true);
    expect(await renders.waitFor('home')).toBe(false); // ended: the next miss renders
  });

  it('stops waiting after its bound when a render never ends', async () => {
    vi.useFakeTimers();
    try {
      const renders = new SharedRenders(1_000);
      renders.start('stuck');
      let done = false;
      const follower = renders.waitFor('stuck').then(() => (done = true));
      await vi.advanceTimersByTimeAsync(999);
      expect(done).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      await follower;
      expect(done).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps the newer render when an older one of the same key ends late', async () => {
    const renders = new SharedRenders();
    const endOld = renders.start('k');
    const endNew = renders.start('k');
    endOld();
    let released = false;
    const follower = renders.waitFor('k').then(() => (released = true));
    await Promise.resolve();
    expect(released).toBe(false);
    endNew();
    await follower;
    expect(released).toBe(true);
  });
});
