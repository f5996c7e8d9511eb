/**
 * A function of an object worked out once per frozen object. A frozen object never changes (the
 * content client hands every reader the same deep-frozen answer until a change drops it:
 * src/server/features/content/client.ts), so what is worked out from it holds as long as it lives, and
 * is forgotten with it: the next version of the item is a new object. Any other object may
 * still change, so the function runs every time for it.
 */
export function oncePerFrozen<T extends object, R>(compute: (value: T) => R): (value: T) => R {
  const known = new WeakMap<T, R>();
  return (value) => {
    if (!Object.isFrozen(value)) return compute(value);
    if (known.has(value)) return known.get(value) as R;
    const result = compute(value);
    known.set(value, result);
    return result;
  };
}
