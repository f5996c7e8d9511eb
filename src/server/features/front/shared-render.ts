import 'server-only';

/**
 * Page-cache misses of one key that arrive together share one render: after a content change
 * empties the cache, a hundred readers of the home page would otherwise start a hundred renders
 * of the same page. The first renders; the others wait for it (at most `maxWaitMs`) and then
 * look in the cache again, rendering themselves only if it did not store the page (personal,
 * another audience, or a change meanwhile).
 */
export class SharedRenders {
  private readonly underwayRenders = new Map<string, Promise<void>>();

  constructor(private readonly maxWaitMs = 5_000) {}

  /** Waits for the render of `key` under way, if there is one; true when there was. */
  async waitFor(key: string): Promise<boolean> {
    const render = this.underwayRenders.get(key);
    if (!render) return false;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      render,
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, this.maxWaitMs);
        timer.unref();
      }),
    ]);
    clearTimeout(timer);
    return true;
  }

  /** Whether a render of `key` is under way. */
  underway(key: string): boolean {
    return this.underwayRenders.has(key);
  }

  /** Notes that a render of `key` starts; call the function returned when it has ended. */
  start(key: string): () => void {
    let end!: () => void;
    const render = new Promise<void>((resolve) => (end = resolve));
    this.underwayRenders.set(key, render);
    return () => {
      if (this.underwayRenders.get(key) === render) this.underwayRenders.delete(key);
      end();
    };
  }
}
