/** Production install or development checkout (see production-install.mjs). */
export function productionInstallReason(
  root: string,
  env?: Record<string, string | undefined>,
): string | null;
export function productionRefusal(
  buildDir: string,
  staleReason: string,
  productionReason: string,
): string;
