/**
 * A pure function of a string, remembered for the last `max` strings it was given: for work a
 * render repeats on the same text every time (a body's sanitising and outline, a heading's
 * phrases, a date). The same text always gives the same result, so nothing kept here can be
 * stale, whatever changes; the bound keeps it small. A result that is an object is shared by
 * every caller: `compute` returns it frozen.
 */
export function rememberLast<R>(max: number, compute: (text: string) => R): (text: string) => R {
  const known = new Map<string, R>();
  return (text) => {
    if (known.has(text)) {
      const hit = known.get(text) as R;
      // Most recently used last: the first key is the one to forget.
      known.delete(text);
      known.set(text, hit);
      return hit;
    }
    const result = compute(text);
    known.set(text, result);
    if (known.size > max) known.delete(known.keys().next().value!);
    return result;
  };
}
