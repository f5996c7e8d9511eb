/**
 * `npx tsx bench/profile-inclusive.ts <dir> <pattern>...`: the time per request spent in each
 * pattern's frames with all they call (`lib/metadata/` for Next.js's metadata, `runStages` for
 * the front pipeline), under the site's staff and visitor loads and the bare page's, from the
 * profiles `BENCH_PROFILE=1 BENCH_PROFILE_DIR=<dir> npm run bench:render` kept.
 */
import { inclusiveTimes, keptProfiles } from './cpu-profile';
import { root } from './lib';

const [dir, ...patterns] = process.argv.slice(2);
if (!dir || patterns.length === 0)
  throw new Error('usage: bench/profile-inclusive.ts <dir> <pattern>...');
const columns = keptProfiles(dir);
const times = columns.map((column) => inclusiveTimes(root, column, patterns));
console.log(`| ms per request, inclusive | ${columns.map((column) => column.label).join(' | ')} |`);
console.log(`| --- |${columns.map(() => ' --- |').join('')}`);
patterns.forEach((pattern, i) =>
  console.log(`| \`${pattern}\` | ${times.map((t) => t[i]![1].toFixed(3)).join(' | ')} |`),
);
