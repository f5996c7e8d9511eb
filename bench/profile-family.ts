/**
 * `npx tsx bench/profile-family.ts <dir> [family]`: the functions of a family (a row of
 * bench:render's profile table; default "Next.js (routing, …)") with the most self time per
 * request, the site's staff and visitor loads beside the bare page's, from the profiles
 * `BENCH_PROFILE=1 BENCH_PROFILE_DIR=<dir> npm run bench:render` kept.
 */
import fs from 'node:fs';
import path from 'node:path';
import { familyFunctions } from './cpu-profile';
import { root } from './lib';

const [dir, family = 'Next.js (routing, proxy adapter, app render, streams)'] =
  process.argv.slice(2);
if (!dir) throw new Error('usage: bench/profile-family.ts <dir> [family]');
type Load = {
  window: { fromMs: number; toMs: number } | { lastMs: number };
  requestsPerSec: number;
};
const windows = JSON.parse(fs.readFileSync(path.join(dir, 'windows.json'), 'utf8')) as Record<
  'visitor' | 'staff' | 'bareVisitor' | 'bareStaff',
  Load
> & { seconds: number };
const column = (load: Load, sub: string) => ({
  dir: path.join(dir, sub),
  window: load.window,
  requests: load.requestsPerSec * windows.seconds,
});
for (const [label, load, sub] of [
  ["bare page, the staff member's body", windows.bareStaff, 'profile-bare-staff'],
  ['post page, staff member', windows.staff, 'profile'],
  ["bare page, the visitor's body", windows.bareVisitor, 'profile-bare'],
  ['post page, unknown cookie', windows.visitor, 'profile'],
] as const) {
  console.log(`\n${label}: ${family}, ms per request\n`);
  for (const [name, ms] of familyFunctions(root, column(load, sub), family))
    console.log(`${ms.toFixed(3).padStart(7)}  ${name}`);
}
