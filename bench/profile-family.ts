/**
 * `npx tsx bench/profile-family.ts <dir> [family]`: the functions of a family (a row of
 * bench:render's profile table; default "Next.js (routing, …)") with the most self time per
 * request, the site's staff and visitor loads beside the bare page's, from the profiles
 * `BENCH_PROFILE=1 BENCH_PROFILE_DIR=<dir> npm run bench:render` kept.
 */
import { familyFunctions, keptProfiles } from './cpu-profile';
import { root } from './lib';

const [dir, family = 'Next.js (routing, proxy adapter, app render, streams)'] =
  process.argv.slice(2);
if (!dir) throw new Error('usage: bench/profile-family.ts <dir> [family]');
for (const column of keptProfiles(dir)) {
  console.log(`\n${column.label}: ${family}, ms per request\n`);
  for (const [name, ms] of familyFunctions(root, column, family))
    console.log(`${ms.toFixed(3).padStart(7)}  ${name}`);
}
