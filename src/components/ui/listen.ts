/**
 * Adds each handler to `target` for its event and returns what removes them all: the cleanup an
 * effect (or a store subscription) gives back.
 */
export function listen(
  target: EventTarget,
  handlers: Record<string, (event: never) => void>,
): () => void {
  const entries = Object.entries(handlers) as [string, EventListener][];
  for (const [type, handler] of entries) target.addEventListener(type, handler);
  return () => {
    for (const [type, handler] of entries) target.removeEventListener(type, handler);
  };
}
