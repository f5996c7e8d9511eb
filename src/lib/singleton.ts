/**
 * One value per process under a name, however many times the module is loaded (the framework
 * bundles server code apart from the front server and the scripts, so a module-level `let`
 * could exist twice). Epic Stack's helper.
 */
export function singleton<T>(name: string, make: () => T): T {
  const holder = globalThis as typeof globalThis & { __axisSingletons?: Map<string, unknown> };
  holder.__axisSingletons ??= new Map();
  if (!holder.__axisSingletons.has(name)) holder.__axisSingletons.set(name, make());
  return holder.__axisSingletons.get(name) as T;
}
