export async function register(): Promise<void> {
  // Only the Node.js server opens the database; `next build` never does
  // (docs/decisions/001-foundation.md).
  if (process.env.NEXT_RUNTIME !== 'nodejs' || process.env.NEXT_PHASE === 'phase-production-build')
    return;
  const { boot } = await import('./server/boot');
  await boot();
}
