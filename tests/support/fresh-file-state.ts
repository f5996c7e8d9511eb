import { vi } from 'vitest';

/**
 * The integration project runs its files in one process, one after another (`isolate: false`),
 * so that the libraries under node_modules load once instead of once per file, which was most
 * of the run's time. What a file may change is put back before the next one starts: the
 * environment (files set DATA_DIR, limits and keys at their top), the app's modules (their
 * module-level caches: the parsed environment, storage, secrets) and the named singletons.
 */
type Snapshot = { __axisTestEnv?: Record<string, string | undefined> };
const holder = globalThis as typeof globalThis & Snapshot & { __axisSingletons?: unknown };

holder.__axisTestEnv ??= { ...process.env };
for (const key of Object.keys(process.env)) {
  if (!(key in holder.__axisTestEnv)) delete process.env[key];
}
Object.assign(process.env, holder.__axisTestEnv);
delete holder.__axisSingletons;
vi.resetModules();

// Component files share one jsdom: each starts on the home address with empty storage.
if (typeof window !== 'undefined') {
  window.history.replaceState(null, '', '/');
  window.localStorage.clear();
  window.sessionStorage.clear();
  document.body.innerHTML = '';
}
