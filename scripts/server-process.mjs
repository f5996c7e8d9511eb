/**
 * How the site's server process is started, in one place: `npm start` (package.json spells the
 * same out, checked by scripts/server-process.test.ts) and the benchmarks that start it as an
 * operator would. Each setting keeps one process's resident memory down
 * (docs/decisions/043-memory.md, measured in docs/benchmarks.md, "Memory"):
 * - glibc's malloc: two arenas instead of eight per core, and large blocks (password hashing's
 *   16 MB, image work) mapped and given back on free rather than kept in an arena;
 * - V8's young generation capped at 4 MB per semi-space (the default grows to 16 MB);
 * - V8's old generation let grow to 1.45× what the last full collection kept, where its own
 *   heuristic allows up to 4× on a machine with this much memory: under load the heap held
 *   about twice its live objects.
 * Source maps are not enabled for the server: Node keeps every loaded chunk's map in memory
 * (about 150 MiB here). Set NODE_OPTIONS=--enable-source-maps to read a stack trace.
 */
export const SERVER_MEMORY_ENV = {
  MALLOC_ARENA_MAX: '2',
  MALLOC_MMAP_THRESHOLD_: '131072',
  MALLOC_TRIM_THRESHOLD_: '131072',
};

export const SERVER_NODE_FLAGS = [
  '--conditions=react-server',
  '--max-semi-space-size=4',
  '--heap-growing-percent=45',
];
