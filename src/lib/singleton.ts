/**
 * One value per process under a name, however many times the module is loaded: the front
 * server's bundle and each of Next.js's layers load a server module again, up to five copies in
 * one process (docs/decisions/047-module-state.md). Whatever a module keeps between calls is
 * made here; scripts/module-state.test.ts finds module state made any other way. Epic Stack's
 * helper.
 */
export function singleton<T>(name: string, make: () => T): T {
  const holder = globalThis as typeof globalThis & { __axisSingletons?: Map<string, unknown> };
  holder.__axisSingletons ??= new Map();
  if (!holder.__axisSingletons.has(name)) holder.__axisSingletons.set(name, make());
  return holder.__axisSingletons.get(name) as T;
}
