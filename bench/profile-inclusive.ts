/**
 * `npx tsx bench/profile-inclusive.ts <dir> <pattern>...`: the time per request spent in each
 * pattern's frames with all they call (`lib/metadata/` for Next.js's metadata, `runStages` for
 * the front pipeline), under the site's staff and visitor loads and the bare page's, from the
 * profiles `BENCH_PROFILE=1 BENCH_PROFILE_DIR=<dir> npm run bench:render` kept.
 */
import fs from 'node:fs';
import path from 'node:path';
import { inclusiveTimes } from './cpu-profile';
import { root } from './lib';

const [dir, ...patterns] = process.argv.slice(2);
if (!dir || patterns.length === 0)
  throw new Error('usage: bench/profile-inclusive.ts <dir> <pattern>...');
type Load = {
  window: { fromMs: number; toMs: number } | { lastMs: number };
  requestsPerSec: number;
};
const windows = JSON.parse(fs.readFileSync(path.join(dir, 'windows.json'), 'utf8')) as Record<
  'visitor' | 'staff' | 'bareVisitor' | 'bareStaff',
  Load
> & { seconds: number };
const columns = [
  ['post page, staff member', windows.staff, 'profile'],
  ["bare page, the staff member's body", windows.bareStaff, 'profile-bare-staff'],
  ['post page, unknown cookie', windows.visitor, 'profile'],
  ["bare page, the visitor's body", windows.bareVisitor, 'profile-bare'],
] as const;
const times = columns.map(([, load, sub]) =>
  inclusiveTimes(
    root,
    {
      dir: path.join(dir, sub),
      window: load.window,
      requests: load.requestsPerSec * windows.seconds,
    },
    patterns,
  ),
);
console.log(`| ms per request, inclusive | ${columns.map(([label]) => label).join(' | ')} |`);
console.log(`| --- |${columns.map(() => ' --- |').join('')}`);
patterns.forEach((pattern, i) =>
  console.log(`| \`${pattern}\` | ${times.map((t) => t[i]![1].toFixed(3)).join(' | ')} |`),
);
